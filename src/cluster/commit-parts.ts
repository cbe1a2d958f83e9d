/**
 * The committer of a `--queue` bulk run (docs/scale-out.md): once every chunk's job has completed, the
 * parts are registered in one PostgreSQL transaction (catintel_score_parts, keyed by run and chunk, so a
 * chunk registered twice, by a retry or a second committer, keeps its first part), then put end to end into
 * the --out directory as a single-node run writes it: the same files, the same bytes, manifest.json last.
 *
 * A part is taken only when its manifest.json is there and every output it lists has the listed size: the
 * scorer writes the manifest after its outputs, so a half-written part (a worker killed mid-chunk) is never
 * registered. Row and line numbers need no rewriting: each chunk was scored with its first row's numbers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { CatintelError } from '../errors.js';
import { MANIFEST, tempPathOf } from '../lib/output-set.js';
import { beginCommit, removeStaleTemps, writeManifest } from '../scoring-bulk/manifest.js';
import type { BulkSummary, FileDigest } from '../scoring-bulk/types.js';
import type { ChunkDone } from './queue.js';

interface Part {
  chunk: number;
  dir: string;
  summary: BulkSummary;
}

const PARTS_TABLE = `CREATE TABLE IF NOT EXISTS catintel_score_parts (
  run_id text NOT NULL,
  chunk integer NOT NULL,
  dir text NOT NULL,
  summary jsonb NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, chunk)
)`;

/** Checks each finished chunk's part, then registers them all in one transaction; returns the registered parts. */
export async function registerParts(
  url: string,
  run: string,
  done: (ChunkDone & { chunk: number })[],
): Promise<Part[]> {
  for (const d of done) await checkPart(d.dir);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN');
    // CREATE TABLE IF NOT EXISTS is not safe against itself in two sessions at once: one lock for it.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('catintel_score_parts'))`);
    await client.query(PARTS_TABLE);
    await client.query(
      `INSERT INTO catintel_score_parts (run_id, chunk, dir, summary)
       SELECT $1, c, d, s FROM unnest($2::int[], $3::text[], $4::jsonb[]) AS t(c, d, s)
       ON CONFLICT (run_id, chunk) DO NOTHING`,
      [run, done.map((d) => d.chunk), done.map((d) => d.dir), done.map((d) => JSON.stringify(d.summary))],
    );
    const { rows } = await client.query<{ chunk: number; dir: string; summary: BulkSummary }>(
      'SELECT chunk, dir, summary FROM catintel_score_parts WHERE run_id = $1 ORDER BY chunk',
      [run],
    );
    await client.query('COMMIT');
    return rows;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A part is whole when its manifest lists outputs that all have the listed size. */
async function checkPart(dir: string): Promise<void> {
  let manifest: { outputs: { file: string; bytes: number }[] };
  try {
    manifest = JSON.parse(await fs.promises.readFile(path.join(dir, MANIFEST), 'utf8'));
  } catch {
    throw new CatintelError('internal_error', `part ${dir} has no readable ${MANIFEST}: it was not finished`);
  }
  for (const o of manifest.outputs) {
    const st = await fs.promises.stat(path.join(dir, o.file)).catch(() => null);
    if (!st || st.size !== o.bytes)
      throw new CatintelError(
        'internal_error',
        `part ${dir}: ${o.file} is not the ${o.bytes} bytes its manifest lists`,
      );
  }
}

interface AssembleOptions {
  outDir: string;
  token: string;
  /** The summary's own fields (input as given, format, climate, perils); counts come from the parts. */
  base: Pick<BulkSummary, 'input' | 'format' | 'scenario' | 'horizon' | 'perils'>;
}

/** Puts the parts (in chunk order) end to end into the output directory and commits them as one set. */
export async function assembleParts(parts: Part[], o: AssembleOptions): Promise<BulkSummary> {
  await removeStaleTemps(o.outDir);
  const names = parts[0].summary.outputs.map((x) => path.basename(x.file));
  const temps = names.map((n) => tempPathOf(o.outDir, n, o.token));
  try {
    // Hashed as they are copied: the manifest's SHA-256s without reading the outputs a second time.
    const digests = new Map<string, FileDigest>();
    for (let k = 0; k < names.length; k++) {
      const hash = createHash('sha256');
      let bytes = 0;
      const fh = await fs.promises.open(temps[k], 'w');
      try {
        for (const p of parts)
          for await (const chunk of fs.createReadStream(path.join(p.dir, names[k]), { highWaterMark: 1 << 20 })) {
            hash.update(chunk as Buffer);
            for (let at = 0; at < (chunk as Buffer).length;)
              at += (await fh.write(chunk as Buffer, at, (chunk as Buffer).length - at, bytes + at)).bytesWritten;
            bytes += (chunk as Buffer).length;
          }
      } finally {
        await fh.close();
      }
      digests.set(path.join(o.outDir, names[k]), { sha256: hash.digest('hex'), bytes });
    }
    const sum = (f: (s: BulkSummary) => number) => parts.reduce((n, p) => n + f(p.summary), 0);
    const summary: BulkSummary = {
      ...o.base,
      rows: sum((s) => s.rows),
      scored: sum((s) => s.scored),
      errors: sum((s) => s.errors),
      outside_coverage: sum((s) => s.outside_coverage),
      errors_by_kind: {
        malformed_row: sum((s) => s.errors_by_kind.malformed_row),
        invalid_coordinates: sum((s) => s.errors_by_kind.invalid_coordinates),
      },
      outputs: names.map((n, k) => ({ file: path.join(o.outDir, n), rows: sum((s) => s.outputs[k].rows) })),
      seconds: 0,
    };
    const replaced = await beginCommit(o.outDir, o.token, names);
    for (let k = 0; k < names.length; k++) await fs.promises.rename(temps[k], path.join(o.outDir, names[k]));
    await writeManifest(o.outDir, o.token, replaced, summary, digests);
    return summary;
  } catch (err) {
    for (const t of temps) await fs.promises.rm(t, { force: true });
    throw err;
  }
}
