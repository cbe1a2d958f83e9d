/**
 * One ingest run of one source: read (file, URL, or the official URL with a conditional GET), parse,
 * normalise, and write everything in ONE transaction with the run's own record, so a failure half-way
 * leaves the store exactly as it was. Bad records are skipped and counted with their reasons, those the
 * store itself refuses included.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import fs from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import type { Context } from '../context.js';
import type { SkippedRecord, SourceRecord } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import { runIdOf } from '../lib/ids.js';
import { fetchFeed } from '../sources/fetch.js';
import { feedUrlOf } from '../sources/feed-url.js';
import type { ParseContext, SourceModule } from '../sources/types.js';
import { endSuperseded, writeEvents } from '../store/events-write.js';
import {
  lastFetchValidators,
  recordFailedRun,
  recordRun,
  type IngestSummary,
  type SkipTally,
} from '../store/ingest-runs.js';
import { newestPerSourceId, notPublishedBy, prepareEvent, problemWith } from './normalise.js';
import { baselineRingOptions } from '../reference-data/ring-options.js';
import { writeIsolated } from './isolate.js';
import { parseGuarded } from '../sources/guard.js';
import { raiseRingAlerts } from '../locations/ingest-alerts.js';
import { recordEventVersions } from '../store/event-history.js';
import { storeShakeMapGrids } from '../store/shakemap-grids.js';

/** On a cluster store, one process ingests a source at a time (Store.asLeader); a DuckDB file has one writer anyway. */
export function ingestSource(ctx: Context, source: SourceModule, from?: string): Promise<IngestSummary> {
  return ctx.db.asLeader(`ingest ${source.id}`, () => ingestAsLeader(ctx, source, from));
}

async function ingestAsLeader(ctx: Context, source: SourceModule, from?: string): Promise<IngestSummary> {
  const startedAt = ctx.clock().toISOString();
  const url = from ? locationOf(from) : feedUrlOf(source, ctx.config.env);
  const runId = runIdOf(source.id, startedAt, `${process.pid}:${Math.random()}`);
  const base = { run_id: runId, source: source.id, url, started_at: startedAt };
  try {
    return await ingestOnce(ctx, source, base, from);
  } catch (err) {
    // The run's own transaction has rolled back; the failure is still worth a line in ingest_runs.
    // The operator reads the reason in /health/sources; an unexpected error keeps its first line only.
    const error =
      err instanceof CatintelError
        ? err.message
        : `unexpected failure: ${String((err as Error)?.message ?? err)
            .split('\n')[0]
            .slice(0, 300)}`;
    await recordFailedRun(ctx.db, {
      id: runId,
      source: source.id,
      url,
      startedAt,
      finishedAt: ctx.clock().toISOString(),
      error,
    }).catch(() => undefined);
    throw err;
  }
}

async function ingestOnce(
  ctx: Context,
  source: SourceModule,
  base: Pick<IngestSummary, 'run_id' | 'source' | 'url' | 'started_at'>,
  from: string | undefined,
): Promise<IngestSummary> {
  const { url, started_at: startedAt } = base;

  // Text, or the bytes of a zip archive read with --from FILE (fetched bodies are always text).
  let body: string | Uint8Array;
  let validators: { etag: string | null; lastModified: string | null } = { etag: null, lastModified: null };
  if (from && !/^https?:\/\//.test(from)) {
    body = await readInputFile(from);
  } else {
    const previous = await lastFetchValidators(ctx.db, source.id, url);
    const outcome = await fetchFeed(url, {
      accept: source.accept,
      userAgent: ctx.config.userAgent,
      timeoutMs: ctx.config.fetchTimeoutMs,
      attempts: ctx.config.fetchAttempts,
      backoffMs: ctx.config.fetchBackoffMs,
      etag: previous?.etag,
      lastModified: previous?.lastModified,
      signal: ctx.signal,
    });
    if (outcome.kind === 'not_modified') {
      const summary = finish(base, 'not_modified', ctx, { fetched: 0, inserted: 0, updated: 0, unchanged: 0 }, []);
      await ctx.db.transaction((tx) => recordRun(tx, summary, previous ?? validators));
      return summary;
    }
    body = outcome.body;
    validators = { etag: outcome.etag, lastModified: outcome.lastModified };
  }

  const parseCtx = { now: ctx.clock(), sourceUrl: url };
  const fetched = !(from && !/^https?:\/\//.test(from));
  const parsed = await parseBody(source, body, parseCtx, from ?? url, fetched);
  const skipped: SkippedRecord[] = [...parsed.skipped];
  const sound: SourceRecord[] = [];
  for (const r of parsed.records) {
    const problem = problemWith(r) ?? notPublishedBy(r, parseCtx.now);
    if (problem) skipped.push({ sourceId: r.sourceId || null, reason: problem });
    else sound.push(r);
  }
  const unique = newestPerSourceId(sound);
  const duplicates = sound.length - unique.length;
  for (let i = 0; i < duplicates; i++)
    skipped.push({ sourceId: null, reason: 'older duplicate of a record in the same feed' });
  const ringOptions = baselineRingOptions();
  // A slice at a time: rings of thousands of events are seconds of work that a server's readers must not wait out.
  const prepared: ReturnType<typeof prepareEvent>[] = [];
  for (const r of unique) {
    prepared.push(prepareEvent(r, ringOptions));
    if (prepared.length % 64 === 0) await nextTurn();
  }

  ctx.progress({ task: `ingest ${source.id}`, done: 0, total: prepared.length });
  // A record the store refuses is skipped with its reason; the others are written (src/ingest/isolate.ts).
  const summary = await writeIsolated(ctx.db, prepared, async (tx, events, refused) => {
    const counts = await writeEvents(tx, source.id, events, startedAt);
    await endSuperseded(tx, source.id, events);
    // Saved-location and portfolio alerts of the rings just written, in the same transaction (src/locations/ingest-alerts.ts).
    await raiseRingAlerts(
      tx,
      events.map((e) => e.id),
      startedAt,
    );
    // Earthquakes' ShakeMap PGA grids, for their live loss (src/store/shakemap-grids.ts).
    const grids = events.flatMap((e) =>
      e.record.shakemapGrid
        ? [{ eventId: e.id, grid: e.record.shakemapGrid.grid, from: e.record.shakemapGrid.from }]
        : [],
    );
    if (grids.length) await storeShakeMapGrids(tx, grids, startedAt);
    // Hurricanes' and earthquakes' product versions, for diffs and live losses (src/store/event-history.ts).
    await recordEventVersions(
      tx,
      events.map((e) => e.id),
      startedAt,
    );
    const all = [...skipped, ...refused.map(({ item, reason }) => ({ sourceId: item.record.sourceId, reason }))];
    const s = finish(base, 'ok', ctx, { fetched: parsed.records.length + parsed.skipped.length, ...counts }, all);
    if (parsed.notes?.length) s.notes = parsed.notes;
    await recordRun(tx, s, validators);
    return s;
  });
  ctx.progress({ task: `ingest ${source.id}`, done: prepared.length, total: prepared.length });
  return summary;
}

function finish(
  base: Pick<IngestSummary, 'run_id' | 'source' | 'url' | 'started_at'>,
  status: IngestSummary['status'],
  ctx: Context,
  counts: Pick<IngestSummary, 'fetched' | 'inserted' | 'updated' | 'unchanged'>,
  skipped: SkippedRecord[],
): IngestSummary {
  return {
    ...base,
    status,
    finished_at: ctx.clock().toISOString(),
    ...counts,
    skipped: skipped.length,
    skipped_reasons: tally(skipped),
  };
}

export function tally(skipped: SkippedRecord[]): SkipTally[] {
  const by = new Map<string, SkipTally>();
  for (const s of skipped) {
    const t = by.get(s.reason) ?? { reason: s.reason, count: 0, examples: [] };
    t.count++;
    if (s.sourceId && t.examples.length < 3) t.examples.push(s.sourceId);
    by.set(s.reason, t);
  }
  return [...by.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

function locationOf(from: string): string {
  return /^https?:\/\//.test(from) ? from : `file://${from}`;
}

/**
 * Parses the body. A fetched body that is not the feed's format (cut short, a changed schema, an error
 * document) is the feed's failure, not the caller's bad input: upstream_failed (exit 1), with the
 * parser's reason, so the run is recorded as failed and the last good data keeps serving.
 */
async function parseBody(
  source: SourceModule,
  body: string | Uint8Array,
  parseCtx: ParseContext,
  where: string,
  fetched: boolean,
) {
  try {
    return typeof body === 'string'
      ? await parseGuarded(source, body, parseCtx)
      : await parseZipInput(source, body, parseCtx, where);
  } catch (err) {
    if (!fetched || !(err instanceof CatintelError) || err.code !== 'invalid_input') throw err;
    throw new CatintelError(
      'upstream_failed',
      `${where} answered something ${source.id} cannot read (${err.message}); the last good data keeps serving; retry later, or report a changed feed format`,
      { cause: err },
    );
  }
}

/** A zip archive goes only to a source that reads zips; every other source refuses it before parsing. */
function parseZipInput(source: SourceModule, bytes: Uint8Array, parseCtx: ParseContext, from: string) {
  if (!source.parseZip) {
    throw new CatintelError(
      'invalid_input',
      `--from ${from} is a zip archive, which ${source.id} does not read (it reads ${source.description}); unzip it and pass the feed file`,
    );
  }
  return source.parseZip(bytes, parseCtx);
}

/** Local zip header (PK\x03\x04) or the end record of an empty archive (PK\x05\x06). */
const isZip = (b: Uint8Array) =>
  b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));

/** The file as UTF-8 text (gunzipped when gzipped), or its bytes when it is a zip archive. */
async function readInputFile(path: string): Promise<string | Uint8Array> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : 'unreadable';
    throw new CatintelError('invalid_input', `cannot read --from ${path}: ${why}; pass a feed file or an http(s) URL`);
  }
  // Recorded feeds are often kept gzipped: accept them as they are.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      throw new CatintelError('invalid_input', `cannot read --from ${path}: it looks gzipped but does not decompress`);
    }
  }
  // Shapefile bundles (NHC GIS) are zips: binary, so they must not be decoded as text.
  if (isZip(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return bytes.toString('utf8');
}
