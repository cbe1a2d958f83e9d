/**
 * docs/cli.md, written from the command tree `catintel --help` is built from (src/cli/main.ts: the
 * handler registry, `serve`, `events watch`): every command with its arguments, options and the help's
 * own text after them (examples, environment). A page written by hand drifts from the code; this one is
 * rewritten from it, and test/cli-reference.test.ts fails while the committed page is not what this writes.
 *
 *   node dist/scripts/cli-reference.js           rewrite docs/cli.md
 *   node dist/scripts/cli-reference.js --check   exit 1, naming the fix, when docs/cli.md is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, Option } from 'commander';
import { commandTree } from '../src/cli/main.js';

export const CLI_REFERENCE = 'docs/cli.md';
const REGENERATE = 'node dist/scripts/cli-reference.js';

/** A table cell: pipes escaped, no line breaks. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The command's words after `catintel`. */
function wordsOf(cmd: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words;
}

/** Commands that run something (leaves, and groups such as `score` that are a command themselves), in help order. */
function runnable(program: Command): Command[] {
  const out: Command[] = [];
  const walk = (cmd: Command) => {
    for (const sub of cmd.commands) {
      // A group without an action of its own only lists its subcommands.
      const acts = (sub as unknown as { _actionHandler: unknown })._actionHandler != null;
      if (acts) out.push(sub);
      walk(sub);
    }
  };
  walk(program);
  return out;
}

/** What the help prints after the options (examples, environment), as the help prints it. */
function afterHelpText(cmd: Command): string {
  let text = '';
  // addHelpText() listens for this event; emitting it collects the same text --help prints.
  (cmd as unknown as NodeJS.EventEmitter).emit('afterHelp', {
    error: false,
    command: cmd,
    write: (s: string) => (text += s),
  });
  return text.replace(/^\n+|\s+$/g, '');
}

function optionsTable(options: readonly Option[]): string[] {
  if (options.length === 0) return [];
  return ['| option | what |', '|---|---|', ...options.map((o) => `| \`${cell(o.flags)}\` | ${cell(o.description)} |`)];
}

function commandSection(cmd: Command): string[] {
  const words = wordsOf(cmd);
  const help = cmd.createHelp();
  const args = cmd.registeredArguments;
  const options = help.visibleOptions(cmd).filter((o) => o.long !== '--help');
  const usage = `catintel ${words.join(' ')}${args.map((a) => ` ${a.required ? `<${a.name()}>` : `[${a.name()}${a.variadic ? '...' : ''}]`}`).join('')}${options.length ? ' [options]' : ''}`;
  const after = afterHelpText(cmd);
  return [
    `### \`catintel ${words.join(' ')}\``,
    '',
    cmd.description(),
    '',
    `\`${usage}\``,
    '',
    ...(options.length ? [...optionsTable(options), ''] : []),
    ...(after ? ['```text', after, '```', ''] : []),
  ];
}

/** GitHub's anchor of a `### \`catintel ...\`` heading. */
const anchorOf = (words: string[]) =>
  ['catintel', ...words]
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '');

/** The page, from the program. */
export function renderCliReference(program: Command): string {
  const commands = runnable(program);
  const globals = program
    .createHelp()
    .visibleOptions(program)
    .filter((o) => o.long !== '--help');
  const lines = [
    '# CLI reference',
    '',
    `<!-- Written by scripts/cli-reference.ts from the command registry; do not edit by hand: change the command, then run \`${REGENERATE}\`. -->`,
    '',
    `\`catintel [global options] <command> [options]\`; \`catintel <command> --help\` prints the same as the section below. How the`,
    'commands behave together (text and `--json` output, the clock, exit codes, working beside a running `catintel serve`):',
    '[usage.md](usage.md#the-cli-conventions). Every command, one line each:',
    '',
    ...commands.map((c) => `- [\`${wordsOf(c).join(' ')}\`](#${anchorOf(wordsOf(c))}): ${cell(c.description())}`),
    '',
    '## Global options',
    '',
    ...optionsTable(globals),
    '',
    '## Commands',
    '',
    ...commands.flatMap(commandSection),
  ];
  return lines.join('\n').replace(/\n+$/, '\n');
}

export async function currentCliReference(): Promise<string> {
  return renderCliReference(await commandTree());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const file = path.join(root, CLI_REFERENCE);
  const text = await currentCliReference();
  if (process.argv.includes('--check')) {
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (committed !== text) {
      process.stderr.write(`${CLI_REFERENCE} is not what the command registry says; run \`${REGENERATE}\`\n`);
      process.exit(1);
    }
  } else fs.writeFileSync(file, text);
}
