/**
 * Commands the CLI runs by loading their own handler only, not the whole registry (every handler, the
 * HTTP app, DuckDB): a command that is quick to run, such as `catintel oasis run` on a small model, would
 * otherwise spend most of its time loading code it never calls. The program built for them holds that
 * one command, with the same options, help text and errors as in the full program; anything else (help,
 * version, another command, an option this parser does not know before the command) builds the full
 * program. test/cli/single-command.test.ts checks each entry is the registry's handler for its command.
 */
import type { Handler } from '../handlers/types.js';

export const SINGLE_COMMANDS: { command: string[]; load: () => Promise<Handler> }[] = [
  { command: ['oasis', 'run'], load: async () => (await import('../handlers/oasis-run.js')).oasisRun as unknown as Handler },
  { command: ['oasis', 'files'], load: async () => (await import('../handlers/oasis-files.js')).oasisFiles as unknown as Handler },
  { command: ['oasis', 'fm-test'], load: async () => (await import('../handlers/oasis-fm-test.js')).oasisFmTest as unknown as Handler },
];

/** Global options (src/cli/main.ts) that take a value. */
const GLOBAL_WITH_VALUE = new Set(['--db', '--account', '--as-of']);
const GLOBAL_FLAGS = new Set(['--json', '--quiet', '--debug']);

/** The SINGLE_COMMANDS entry argv runs, when it is sure to run one; undefined otherwise. */
export function singleCommandOf(argv: string[]): (typeof SINGLE_COMMANDS)[number] | undefined {
  if (argv.some((a) => a === '-h' || a === '--help' || a === '-V' || a === '--version' || a === 'help')) return undefined;
  const words: string[] = [];
  let i = 0;
  for (; i < argv.length && words.length < 2; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (a.startsWith('-')) {
      if (words.length > 0) return undefined;
      const name = a.split('=')[0];
      if (GLOBAL_FLAGS.has(a)) continue;
      if (GLOBAL_WITH_VALUE.has(name)) {
        if (!a.includes('=')) i++;
        continue;
      }
      return undefined;
    }
    words.push(a);
  }
  return SINGLE_COMMANDS.find((c) => c.command.length === words.length && c.command.every((w, k) => w === words[k]));
}
