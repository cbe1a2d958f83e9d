/**
 * How the CLI reports a failure: one line on stderr (`--json`: the problem object, as the HTTP API sends
 * it) and the exit code of the error's code (docs/contract.md#cli-exit-codes). The program (main.ts) and the
 * long-running commands it adds (serve, events watch) report through it.
 */
import { CatintelError, asCatintelError, exitCodeOf } from '../errors.js';
import { problemOf } from '../http/problem.js';
import { escapeControls } from '../lib/control-chars.js';
import type { GlobalOptions } from './execute.js';
import type { CliIO } from './io.js';

export function reportError(err: unknown, io: CliIO, globals: GlobalOptions): number {
  const e = asCatintelError(err);
  if (globals.json) io.stderr(JSON.stringify(problemOf(e)) + '\n');
  // One line whatever the message quotes: a value with a newline or a terminal escape in it is shown escaped.
  else io.stderr(`catintel: ${escapeControls(e.message)} [${e.code}]\n`);
  if (globals.debug && err instanceof Error)
    io.stderr(`${err.stack}\n${err.cause ? `cause: ${(err.cause as Error).stack ?? err.cause}\n` : ''}`);
  return e instanceof CatintelError ? exitCodeOf[e.code] : 1;
}
