/**
 * What went wrong with the store file, told apart from DuckDB's and the OS's error text: another
 * process holds it (store_locked, exit 4: wait and retry), it is corrupt (store_corrupt, exit 5: retrying
 * never helps, restore it), or the disk is full (disk_full, exit 1: free space and re-run). Matched on
 * DuckDB 1.5's exact sentences, never on a bare word: "lock" also appears in "block at location" of a
 * checksum error, which once made a corrupt store look locked and cron retry it forever.
 */
import { CatintelError } from '../errors.js';

/** DuckDB's refusal of a second opener: `Could not set lock on file "x": Conflicting lock is held in ... (PID n)`. */
const LOCK_RE = /Could not set lock on file|Conflicting lock is held/;

/**
 * DuckDB's words for a file it cannot read as a database: a block whose checksum does not match
 * (bytes overwritten), a file shorter than its headers say (truncated), a header that is not DuckDB's.
 */
const CORRUPT_RES: [RegExp, string][] = [
  [/Corrupt database file|checksum \d+ does not match stored checksum/, 'a block fails its checksum'],
  [/Could not read enough bytes from file/, 'truncated: shorter than its own headers say'],
  [/not a valid DuckDB database file/, 'its header is not a DuckDB header'],
];

const NO_SPACE_RE = /No space left on device|ENOSPC/;

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function isLockError(err: unknown): boolean {
  return LOCK_RE.test(messageOf(err));
}

export function corruptStore(dbPath: string, why: string, cause?: unknown): CatintelError {
  return new CatintelError(
    'store_corrupt',
    `store ${dbPath} is corrupt (${why}); retrying will not help: restore it from a backup, or move it aside and rebuild it (\`catintel db seed\`, \`catintel ingest\`); \`catintel db check\` tells whether a store is sound`,
    { cause },
  );
}

/** "no space left on device writing PATH; free space and re-run" (PATH: the file that could not be written). */
export function diskFull(file: string, cause?: unknown): CatintelError {
  return new CatintelError('disk_full', `no space left on device writing ${file}; free space and re-run`, { cause });
}

/**
 * The store fault behind `err`, or undefined when it is none of them (the caller keeps its own handling).
 * `dbPath` names the store in the message; a full disk names the file DuckDB could not write when it says.
 */
export function storeFaultOf(dbPath: string, err: unknown): CatintelError | undefined {
  if (err instanceof CatintelError) return undefined;
  const message = messageOf(err);
  if ((err as NodeJS.ErrnoException)?.code === 'ENOSPC' || NO_SPACE_RE.test(message)) {
    // A store being created is written under a temporary name (src/store/create.ts): name the store.
    const file = (/Could not (?:write|truncate|sync|extend) file "([^"]+)"/.exec(message)?.[1] ?? dbPath).replace(
      /\.creating-\d+$/,
      '',
    );
    return diskFull(file, err);
  }
  // The lock sentence quotes the path, which may itself hold any word: checked before the corrupt texts.
  if (LOCK_RE.test(message)) return undefined;
  const why = corruptionIn(message);
  return why ? corruptStore(dbPath, why, err) : undefined;
}

/** Which corruption DuckDB's message reports ("a block fails its checksum"), or undefined. */
export function corruptionIn(message: string): string | undefined {
  return CORRUPT_RES.find(([re]) => re.test(message))?.[1];
}
