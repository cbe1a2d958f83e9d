/**
 * Usage errors the CLI finds before a handler runs: an unknown command (also with `--help`, where
 * commander would print the root help and exit 0) and commander's own complaints (unknown option,
 * missing argument). Both become an invalid_request error, so they print like every other error: one
 * line, or the problem object with --json, exit 2 (docs/contract.md#cli-exit-codes).
 */
import type { Command, CommanderError, Option } from 'commander';
import { CatintelError } from '../errors.js';

export function usageError(message: string, field = 'command'): CatintelError {
  return new CatintelError('invalid_request', `${message}; see --help`, { errors: [{ field, message }] });
}

/** commander's message without its "error: " prefix, trailing full stop and line breaks. */
export function commanderUsageError(err: CommanderError): CatintelError {
  const message = err.message
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/\.$/, '');
  const field = /option/i.test(err.code) ? 'option' : /argument/i.test(err.code) ? 'argument' : 'command';
  return usageError(message, field);
}

/**
 * Walks argv down the command tree the way commander will and names the first word that is neither a
 * subcommand nor an argument of the command reached: `catintel trigger --help`, `catintel help bogus`,
 * `catintel events bogus`. Option values are skipped (`--db x.duckdb events live`).
 */
export function unknownCommandIn(program: Command, argv: string[]): CatintelError | undefined {
  let cmd = program;
  const path: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') return undefined;
    if (word.startsWith('-')) {
      const opt = word.includes('=') ? undefined : optionOf(cmd, word);
      if (opt && (opt.required || (opt.optional && argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')))) i++;
      continue;
    }
    if (cmd.commands.length === 0) return undefined; // a leaf: the rest are its arguments
    if (word === 'help') continue; // `catintel help events`: commander's help command
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      cmd = sub;
      path.push(word);
      continue;
    }
    if (cmd.registeredArguments.length > 0) return undefined; // the word is this command's argument
    const known = cmd.commands.map((c) => c.name()).join(', ');
    const where = path.length ? `catintel ${path.join(' ')}` : 'catintel';
    return usageError(`unknown command '${[...path, word].join(' ')}'; the commands of ${where} are ${known}`);
  }
  return undefined;
}

/** The option a flag names on the command or any command above it (global options work everywhere). */
function optionOf(cmd: Command, flag: string): Option | undefined {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const opt = c.options.find((o) => o.long === flag || o.short === flag);
    if (opt) return opt;
  }
  return undefined;
}
