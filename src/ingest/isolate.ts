/**
 * One record never fails the rest of a source's run (docs/contract.md#one-bad-record). A run's write is one transaction, and
 * DuckDB has no savepoints: a statement that fails aborts the whole transaction. So when the write fails
 * because of what some record holds (a value the store cannot take, a key it already has), the records to
 * blame are found by trial writes that are always rolled back, halving the suspects each time, and then the
 * run is written once more, in one transaction, without them. The store never holds a trial's rows, so a
 * kill at any moment still leaves all of a run or none of it.
 *
 * A failure that is not about a record (an I/O error, a full disk, a lock, a cancelled run) is thrown as
 * before: retrying smaller parts of the run could not mend it.
 */
import type { Store, Tx } from '../store/db.js';

export interface Refused<T> {
  item: T;
  reason: string;
}

/** Thrown to roll a trial write back; never leaves this module. */
class TrialDone extends Error {}

/**
 * Runs write(tx, items, refused) in one transaction and returns its result. When it fails because of some
 * items, writes the others, passing the refused ones with their reasons so the run can report them.
 */
export async function writeIsolated<T, R>(
  db: Store,
  items: T[],
  write: (tx: Tx, items: T[], refused: Refused<T>[]) => Promise<R>,
): Promise<R> {
  let failure: unknown;
  try {
    return await db.transaction((tx) => write(tx, items, []));
  } catch (err) {
    if (!isRecordFailure(err) || items.length === 0) throw err;
    failure = err;
  }
  const refused: Refused<T>[] = [];
  const kept = await keepSound(db, items, failure, refused, write);
  return db.transaction((tx) => write(tx, kept, refused));
}

/**
 * The items that write together. First each half on its own, halving the failing parts down to single
 * records (a bad value, a clash with what the store holds): about 2·log2(n) trials per bad record. Records
 * that only fail together (two new ones that clash with each other) are then found by adding the sound
 * ones in halves to what is known to write.
 */
async function keepSound<T>(
  db: Store,
  items: T[],
  failure: unknown,
  refused: Refused<T>[],
  write: (tx: Tx, items: T[], refused: Refused<T>[]) => Promise<unknown>,
): Promise<T[]> {
  const trial = (subset: T[]) => tryWrite(db, (tx) => write(tx, subset, refused));
  const alone: T[] = [];
  const split = async (part: T[], err: unknown): Promise<void> => {
    if (part.length === 1) return void refused.push({ item: part[0], reason: reasonOf(err) });
    for (const half of halves(part)) {
      const e = await trial(half);
      if (e === null) alone.push(...half);
      else if (!isRecordFailure(e)) throw e;
      else await split(half, e);
    }
  };
  await split(items, failure);
  const together = await trial(alone);
  if (together === null) return alone;
  if (!isRecordFailure(together)) throw together;

  const kept: T[] = [];
  const grow = async (part: T[], err: unknown): Promise<void> => {
    if (part.length === 1) return void refused.push({ item: part[0], reason: reasonOf(err) });
    for (const half of halves(part)) {
      const e = await trial([...kept, ...half]);
      if (e === null) kept.push(...half);
      else if (!isRecordFailure(e)) throw e;
      else await grow(half, e);
    }
  };
  await grow(alone, together);
  return kept;
}

const halves = <T>(xs: T[]): T[][] =>
  [xs.slice(0, xs.length >> 1), xs.slice(xs.length >> 1)].filter((h) => h.length > 0);

/** null when the write succeeds (and is rolled back), else its error. */
async function tryWrite(db: Store, fn: (tx: Tx) => Promise<unknown>): Promise<unknown> {
  try {
    await db.transaction(async (tx) => {
      await fn(tx);
      throw new TrialDone();
    });
    return null;
  } catch (err) {
    return err instanceof TrialDone ? null : err;
  }
}

/**
 * DuckDB's errors about the data written (a constraint, a cast, a value out of range) and the errors our
 * own row-building code raises on a malformed record; every other error is about the store or the run.
 */
function isRecordFailure(err: unknown): boolean {
  if (err instanceof TypeError || err instanceof RangeError) return true;
  const message = err instanceof Error ? err.message : '';
  return /^(Constraint|Conversion|Invalid Input|Out of Range|Mismatch Type) Error:/.test(message);
}

/** The failure's first line, short enough for a run summary. */
function reasonOf(err: unknown): string {
  const line = String(err instanceof Error ? err.message : err)
    .split('\n')[0]
    .trim();
  return `the store refused it: ${line.length > 240 ? `${line.slice(0, 239)}…` : line}`;
}
