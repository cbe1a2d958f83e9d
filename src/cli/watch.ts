/**
 * `--watch N` (ingest): the command runs again every N seconds until SIGINT or SIGTERM, which end the watch
 * with exit 0. A watch is meant to outlive a feed that is down, a server restart or a flaky network, so a
 * round that fails at run time (exit code 1, or 4 for a store another writer holds) is logged and retried:
 * after 5 s, then 10, 20, 40 ... but never later than the interval, and the interval again after a success.
 * A failure no retry can mend (exit 2: an unknown source, an unreadable --from file, bad input) ends the
 * watch with its exit code, as without --watch.
 */
import { CatintelError, asCatintelError, exitCodeOf } from '../errors.js';
import { escapeControls } from '../lib/control-chars.js';
import type { CliIO } from './io.js';

const FIRST_RETRY_SECONDS = 5;

/** Seconds before the next round after `failures` failed rounds in a row. */
export function retryDelaySeconds(failures: number, intervalSeconds: number): number {
  return Math.min(intervalSeconds, FIRST_RETRY_SECONDS * 2 ** Math.max(0, failures - 1));
}

/** Whether another round may succeed where this one failed (see the header). */
export function worthRetrying(err: unknown): boolean {
  const e = asCatintelError(err);
  const exit = e instanceof CatintelError ? exitCodeOf[e.code] : 1;
  return exit === 1 || exit === 4;
}

/**
 * One line on stderr per failed round, like the CLI's error line with when the watch tries again; with
 * --json one JSON line (`{"watch":"failed","code","error","failures","retry_in_s","at"}`) a log collector
 * can count.
 */
export function reportWatchFailure(
  err: unknown,
  failures: number,
  retryInSeconds: number,
  io: CliIO,
  json: boolean | undefined,
): void {
  const e = asCatintelError(err);
  if (json) {
    const line = {
      watch: 'failed',
      code: e.code,
      error: e.message,
      failures,
      retry_in_s: retryInSeconds,
      at: new Date().toISOString(),
    };
    io.stderr(JSON.stringify(line) + '\n');
    return;
  }
  // One line whatever the message quotes: a newline or a terminal escape in it is shown escaped.
  io.stderr(
    `catintel: ${escapeControls(e.message)} [${e.code}]; --watch retries in ${retryInSeconds} s (${failures} failure${failures === 1 ? '' : 's'} in a row)\n`,
  );
}
