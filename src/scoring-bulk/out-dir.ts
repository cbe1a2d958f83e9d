/**
 * The output directory of a bulk run (`--out DIR`): made ready before the input is read, or refused with
 * one line that names the path and the reason (exit code 2, invalid_input).
 *
 * Missing directories are made one level at a time, not with mkdir's `recursive` option: Node's recursive
 * mkdir spins forever at 100% CPU where the kernel answers ENOENT for a parent that exists (`/proc/nope/x`:
 * procfs refuses new entries with ENOENT), and it reports a file or a dangling symbolic link on the way only
 * as a bare error code. Each level here is one mkdir call with a known answer, so the walk always ends.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { tempPathOf } from './out-file.js';

export interface OutDir {
  /** The directories this run made, outermost first: removed again (when still empty) if the run fails. */
  created: string[];
}

const bad = (message: string) => new CatintelError('invalid_input', message);

/** Why the system refused, in words (the code in brackets for a search). */
export function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    ENOTDIR: 'a part of the path is not a directory',
    ENOENT: 'the file system does not allow it there',
    ENAMETOOLONG: 'the name is too long',
    ELOOP: 'too many symbolic links',
    EEXIST: 'something else already has that name',
  };
  return code ? `${words[code] ?? 'the system refused'} (${code})` : String((err as Error)?.message ?? err);
}

async function lstat(p: string): Promise<fs.Stats | null> {
  try {
    return await fs.promises.lstat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
      return null;
    throw bad(`--out ${p}: cannot be examined: ${fsReason(err)}; give a directory you can write to`);
  }
}

/**
 * What `p` (which exists) is, following symbolic links: a directory, or a refusal that says what it is.
 * `shown` is the --out value, `p` the path being looked at (itself or one of its parents).
 */
async function mustBeDirectory(shown: string, p: string, st: fs.Stats): Promise<void> {
  const where = p === shown ? `--out ${shown}` : `--out ${shown}: ${p}`;
  if (st.isSymbolicLink()) {
    const target = await fs.promises.readlink(p).catch(() => '?');
    const real = await fs.promises.stat(p).catch(() => null);
    if (!real)
      throw bad(
        `${where} is a symbolic link to ${target}, which does not exist; create that directory or give another --out`,
      );
    st = real;
  }
  if (!st.isDirectory()) throw bad(`${where} is a file, not a directory; give a directory for the outputs`);
}

/** Makes `dir` (and missing parents) or refuses it; then checks that a file can be made in it. */
export async function prepareOutDir(dir: string): Promise<OutDir> {
  const abs = path.resolve(dir);
  const missing: string[] = [];
  let at = abs;
  let st = await lstat(at);
  // Walk up to the nearest part of the path that exists: at most one step per path component.
  while (!st) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) throw bad(`--out ${dir}: no part of the path exists`);
    at = parent;
    st = await lstat(at);
  }
  await mustBeDirectory(dir, at, st);
  const created: string[] = [];
  for (const p of missing) {
    try {
      await fs.promises.mkdir(p);
    } catch (err) {
      await removeEmpty(created);
      throw bad(`--out ${dir}: cannot create ${p}: ${fsReason(err)}; give a directory you can write to`);
    }
    created.push(p);
  }
  await probeWritable(dir, abs, created);
  return { created };
}

/**
 * A directory can look writable (mode bits, root) and still refuse files (read-only mounts, /sys). The probe
 * is named as a run's temporaries are, so that one a kill leaves behind is removed by the next run
 * (manifest.ts removeStaleTemps).
 */
async function probeWritable(shown: string, abs: string, created: string[]): Promise<void> {
  const probe = writeProbePath(abs);
  try {
    const fh = await fs.promises.open(probe, 'wx');
    await fh.close();
    await fs.promises.rm(probe, { force: true });
  } catch (err) {
    await removeEmpty(created);
    throw bad(`--out ${shown}: cannot write files in ${abs}: ${fsReason(err)}; give a directory you can write to`);
  }
}

/** The probe's file in `dir`, for the process `pid`. */
export function writeProbePath(dir: string, pid = process.pid): string {
  return tempPathOf(dir, 'catintel-write-test', `${pid}-${randomBytes(4).toString('hex')}`);
}

/** Removes the directories a failed run made, innermost first, only while they are empty. */
export async function removeEmpty(created: string[]): Promise<void> {
  for (const p of [...created].reverse()) {
    try {
      await fs.promises.rmdir(p);
    } catch {
      return; // not empty (or gone): leave it and its parents
    }
  }
}
