/**
 * What a feed can send is not up to us: a field of the wrong type, a number past double range, a ring that is
 * not a list. A parser that trips over such a value has met a record (or a body) it cannot read, and says so:
 * the record is skipped with the reason, or the body refused with invalid_input, never a crash that ends the
 * ingest without a reason (test/hostile-input-feeds.test.ts throws mutated real samples at every parser).
 */
import { CatintelError } from '../errors.js';
import type { ParseResult, SkippedRecord } from '../domain/event.js';
import type { ParseContext, SourceModule } from './types.js';

const firstLine = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .split('\n')[0]
    .slice(0, 200);

/** One record read by `read`, or skipped with the reason when a value in it is not what the feed documents. */
export function readRecord<T>(read: () => T | SkippedRecord, sourceIdOf: () => unknown): T | SkippedRecord {
  try {
    return read();
  } catch (err) {
    if (err instanceof CatintelError) throw err;
    let sourceId: string | null = null;
    try {
      const v = sourceIdOf();
      if (typeof v === 'string' || typeof v === 'number') sourceId = String(v).slice(0, 100);
    } catch {
      /* no id either */
    }
    return { sourceId, reason: `unreadable record (${firstLine(err)})` };
  }
}

/** The source's parse, with anything but its own refusals turned into invalid_input naming the source. */
export async function parseGuarded(source: SourceModule, body: string, ctx: ParseContext): Promise<ParseResult> {
  try {
    return await source.parse(body, ctx);
  } catch (err) {
    if (err instanceof CatintelError) throw err;
    throw new CatintelError(
      'invalid_input',
      `${ctx.sourceUrl} is not a ${source.id} feed this version can read (${firstLine(err)})`,
      { cause: err },
    );
  }
}
