/**
 * A set of output files that a reader sees whole or not at all, and the `manifest.json` that says which.
 *
 * Every file is written under a hidden temporary name (`.<name>.<pid>-<hex>.tmp`) in the output directory;
 * when the last one is written, the old manifest is removed, the files are renamed to their names one by
 * one, the files of the old set that the new one does not have are removed, and the new manifest (each
 * file's rows, size and SHA-256) is written last, itself by rename. There is no atomic rename of several
 * files, so the manifest is the commit:
 *
 *   manifest present, every file matching its size and checksum  -> one complete set (that run's)
 *   no manifest                                                  -> a run was interrupted while committing
 *                                                                   (or none has finished): re-run it
 *
 * A set may hold files one folder down (`RI_1/fm_xref.csv`): such a folder is written whole under its own
 * hidden temporary name (`.RI_1.<pid>-<hex>.tmp/`) and renamed into place at the commit, replacing the old
 * set's folder of that name; the manifest lists each of its files by its path in the set.
 *
 * A commit killed between removing the old manifest and writing the new one would leave files of the old
 * set (and of the half-committed one) that no manifest names; a later set could not tell them from its
 * own. So before the manifest is removed, a hidden `.commit-intent.json` records both sets' files; the
 * next commit in the directory treats them as replaced files too, and the record goes after the new
 * manifest is written.
 *
 * A killed run leaves its temporaries behind; the next set opened in the same directory removes those
 * whose process is gone. Used by bulk scoring (src/scoring-bulk), `catintel oasis run` (src/loss) and
 * `catintel oasis files` (src/oasis-files).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from './process-alive.js';

export const MANIFEST = 'manifest.json';

export interface FileDigest {
  sha256: string;
  bytes: number;
}

export interface ManifestEntry extends FileDigest {
  file: string;
  rows: number;
}

/** A run's hidden temporary for `name` in `dir`. */
export function tempPathOf(dir: string, name: string, token: string): string {
  return path.join(dir, `.${name}.${token}.tmp`);
}

/** A token no other run shares: the pid (to tell a dead run's temporaries) and random hex. */
export function runToken(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * A run's temporary: `.<name>.<pid>-<hex>.tmp` (tempPathOf), with any suffix a writer adds to it, or
 * DuckDB's own `tmp_` copy of one (COPY ... TO writes `tmp_<file>` and renames it when done, so a kill
 * mid-COPY leaves that behind).
 */
const TEMP_RE = /^(?:tmp_)?\..+\.(\d+)-[0-9a-f]+\.tmp(\.[a-z]+)?$/;

/** Removes the temporaries of runs whose process is gone; returns their names. */
export async function removeStaleTemps(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    const pid = Number(TEMP_RE.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    await fs.promises.rm(path.join(dir, name), { force: true, recursive: true });
    removed.push(name);
  }
  return removed;
}

/** Before the first output is renamed: from here until the new manifest, the directory says "incomplete". */
export async function removeManifest(dir: string): Promise<void> {
  await fs.promises.rm(path.join(dir, MANIFEST), { force: true });
}

export async function sha256Of(file: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** A plain name: one path component, not `.` or `..`. */
const plainName = (name: string) =>
  name !== '' && name !== '.' && name !== '..' && path.basename(name) === name && !name.includes('\\');

/** Where `file` sits in the set: a plain name, or a folder and a plain name in it (undefined otherwise). */
export function setPathOf(file: string): { folder?: string; name: string } | undefined {
  const parts = file.split('/');
  if (parts.length === 1 && plainName(parts[0])) return { name: parts[0] };
  if (parts.length === 2 && plainName(parts[0]) && plainName(parts[1])) return { folder: parts[0], name: parts[1] };
  return undefined;
}

/** The files the manifest in `dir` lists (none when there is no readable manifest), as paths in the set. */
export async function manifestFiles(dir: string, name = MANIFEST): Promise<string[]> {
  try {
    const m = JSON.parse(await fs.promises.readFile(path.join(dir, name), 'utf8')) as {
      outputs?: { file?: unknown }[];
    };
    return (m.outputs ?? [])
      .map((o) => o.file)
      .filter((f): f is string => typeof f === 'string' && setPathOf(f) !== undefined);
  } catch {
    return [];
  }
}

/** The entry of `file` directly in the set's directory: the file itself, or its folder. */
const topOf = (file: string) => setPathOf(file)?.folder ?? file;

/**
 * Writes `manifest` (the run's own fields, then `outputs`) under a temporary name and renames it into place.
 * A manifest given as text (a set copied whole from elsewhere, src/models/package-cache) is written as it is.
 */
export async function writeManifestFile(
  dir: string,
  token: string,
  manifest: Record<string, unknown> | string,
): Promise<string> {
  const temp = tempPathOf(dir, MANIFEST, token);
  const final = path.join(dir, MANIFEST);
  await fs.promises.writeFile(temp, typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 2) + '\n');
  await fs.promises.rename(temp, final);
  return final;
}

const COMMIT_INTENT = '.commit-intent.json';

/**
 * Starts replacing the set in `dir` with one of `files`: records the files of the set being replaced (and of
 * a commit interrupted before this one) with the new ones in the commit intent, then removes the manifest.
 * Returns the replaced files; finishCommit removes those the new set does not have.
 */
export async function beginCommit(dir: string, token: string, files: string[]): Promise<string[]> {
  const replaced = [...new Set([...(await manifestFiles(dir)), ...(await manifestFiles(dir, COMMIT_INTENT))])];
  const temp = tempPathOf(dir, COMMIT_INTENT, token);
  await fs.promises.writeFile(
    temp,
    JSON.stringify({ outputs: [...new Set([...replaced, ...files])].map((file) => ({ file })) }) + '\n',
  );
  await fs.promises.rename(temp, path.join(dir, COMMIT_INTENT));
  await removeManifest(dir);
  return replaced;
}

/**
 * Once the new set's files are in place: removes the replaced files and folders it does not have (left in
 * place, they would read as its own), writes the manifest, and drops the commit intent.
 */
export async function finishCommit(
  dir: string,
  token: string,
  replaced: string[],
  files: string[],
  manifest: Record<string, unknown> | string,
): Promise<string> {
  const mine = new Set(files.map(topOf));
  for (const name of new Set(replaced.map(topOf)))
    if (!mine.has(name) && name !== MANIFEST)
      await fs.promises.rm(path.join(dir, name), { recursive: true, force: true });
  const written = await writeManifestFile(dir, token, manifest);
  await fs.promises.rm(path.join(dir, COMMIT_INTENT), { force: true });
  return written;
}

/**
 * The files of one run, committed together: `write` each (under its temporary name) or write it yourself
 * at `tempPath(name)` and `add` it, then `commit` once. Until commit, nothing a reader looks at has changed.
 */
export class OutputSet {
  private readonly files: { file: string; rows: number; digest?: FileDigest }[] = [];

  private constructor(
    readonly dir: string,
    readonly token: string,
  ) {}

  /** Makes `dir` if missing and clears the temporaries of killed runs in it. */
  static async open(dir: string): Promise<OutputSet> {
    await fs.promises.mkdir(dir, { recursive: true });
    await removeStaleTemps(dir);
    return new OutputSet(dir, runToken());
  }

  /**
   * Where a writer of its own (a stream, DuckDB) puts `name` until the commit; then `add` it. A name in a
   * folder (`RI_1/fm_xref.csv`) lies in the folder's temporary, made here if missing.
   */
  tempPath(name: string): string {
    const where = setPathOf(name);
    if (!where?.folder) return tempPathOf(this.dir, name, this.token);
    const folder = tempPathOf(this.dir, where.folder, this.token);
    fs.mkdirSync(folder, { recursive: true });
    return path.join(folder, where.name);
  }

  /** A file written at tempPath(name); `rows` is what the manifest reports for it. Returns its final path. */
  add(name: string, rows: number, digest?: FileDigest): string {
    const where = setPathOf(name);
    if (!where || name === MANIFEST)
      throw new Error(`output name ${name} is not a plain file name or a folder and a plain file name`);
    if (this.files.some((f) => f.file === name)) throw new Error(`output ${name} written twice in one set`);
    // A folder and a file of one name would rename onto each other at the commit.
    const clash = this.files.find((f) =>
      where.folder === undefined ? topOf(f.file) === name && f.file !== name : f.file === where.folder,
    );
    if (clash) throw new Error(`output ${name} clashes with ${clash.file} in one set`);
    this.files.push({ file: name, rows, digest });
    return path.join(this.dir, name);
  }

  /** Writes `text` as `name` (at its temporary name). Returns its final path. */
  write(name: string, text: string, rows: number): string {
    const bytes = Buffer.from(text, 'utf8');
    try {
      fs.writeFileSync(this.tempPath(name), bytes);
    } catch (err) {
      fs.rmSync(this.tempPath(name), { force: true }); // a disk that filled midway: no half file left
      throw err;
    }
    return this.add(name, rows, { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }

  /**
   * Renames every file into place and writes the manifest last: `fields` first (what the run was), then
   * manifest_version, run, completed_at and outputs (file, rows, bytes, sha256). Returns the manifest's path.
   */
  async commit(fields: Record<string, unknown>): Promise<string> {
    const outputs: ManifestEntry[] = [];
    for (const f of this.files)
      outputs.push({ file: f.file, rows: f.rows, ...(f.digest ?? (await sha256Of(this.tempPath(f.file)))) });
    // completed_at: when the files are in place, as the manifest that follows says.
    return this.commitManifest(() => ({
      ...fields,
      manifest_version: 1,
      run: this.token,
      completed_at: new Date().toISOString(),
      outputs,
    }));
  }

  /**
   * Commits the set under a manifest written elsewhere, byte for byte: a set copied whole from another
   * directory keeps the run and completed_at of the run that made it. The caller has checked its files
   * against that manifest.
   */
  async commitCopy(manifestText: string): Promise<string> {
    return this.commitManifest(() => manifestText);
  }

  private async commitManifest(manifest: () => Record<string, unknown> | string): Promise<string> {
    const names = this.files.map((f) => f.file);
    const replaced = await beginCommit(this.dir, this.token, names);
    const folders = new Set<string>();
    for (const f of this.files) {
      const folder = setPathOf(f.file)!.folder;
      if (folder === undefined) await fs.promises.rename(this.tempPath(f.file), path.join(this.dir, f.file));
      else folders.add(folder);
    }
    for (const folder of folders) {
      // A folder is renamed whole: the old set's folder of that name goes first (rename cannot replace it).
      await fs.promises.rm(path.join(this.dir, folder), { recursive: true, force: true });
      await fs.promises.rename(tempPathOf(this.dir, folder, this.token), path.join(this.dir, folder));
    }
    return finishCommit(this.dir, this.token, replaced, names, manifest());
  }

  /** Removes this run's temporaries (a failed run leaves the directory as it found it). */
  async discard(): Promise<void> {
    const tops = new Set(this.files.map((f) => topOf(f.file)));
    await Promise.all(
      [...tops].map((name) => fs.promises.rm(tempPathOf(this.dir, name, this.token), { recursive: true, force: true })),
    );
  }
}
