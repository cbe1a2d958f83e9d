/**
 * The `catintel` program, generated from the handler registry: each handler's CLI binding becomes a
 * command whose options and args are handed to the same parse()/run() the HTTP API uses. Errors are
 * one line on stderr (`--json`: the problem object) and an exit code (docs/contract.md#cli-exit-codes).
 */
import { Command, CommanderError } from 'commander';
import type { Handler, RawInput } from '../handlers/types.js';
import { defaults } from '../config/defaults.js';
import { packageVersion } from '../lib/package-version.js';
import { processIO, type CliIO } from './io.js';
import { commanderUsageError, unknownCommandIn } from './usage.js';
import { execute, type GlobalOptions } from './execute.js';
import { singleCommandOf } from './single-command.js';
import { cliCaller } from './account.js';
import { reportError } from './report-error.js';

export async function run(argv: string[], io: CliIO = processIO()): Promise<number> {
  let exitCode = 0;
  const program = programWithGlobals(io);
  const setExit = (code: number) => (exitCode = code);
  // A command that needs one handler loads that one alone (src/cli/single-command.ts); any other loads them all.
  const single = singleCommandOf(argv);
  if (single) addHandlerCommand(program, await single.load(), io, setExit);
  else await addEveryCommand(program, io, setExit);

  // Flags are read before commander runs, so that even a usage error can answer with --json.
  const jsonWanted = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length).includes('--json');
  const unknown = unknownCommandIn(program, argv);
  if (unknown) return reportError(unknown, io, { json: jsonWanted });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0;
      if (err.code === 'commander.help') return 2; // no command given: the help was the answer
      return reportError(commanderUsageError(err), io, { json: jsonWanted });
    }
    return reportError(err, io, globalsOf(program));
  }
  return exitCode;
}

/** The program with its global options and no command yet. */
function programWithGlobals(io: CliIO): Command {
  return new Command('catintel')
    .description('US catastrophe intelligence: live multi-peril feeds, hazard scores and the /api/v1 service')
    .option('--db <file>', `DuckDB store (default ${defaults.dbPath}, env CATINTEL_DB)`)
    .option(
      '--store <address>',
      'the store: a DuckDB file as --db, or a cluster store postgres://USER@HOST:PORT/DATABASE?data=/shared/dir (docs/cluster-store.md)',
    )
    .option('--json', 'machine output: one JSON document (NDJSON for streams)')
    .option('--quiet', 'no progress output')
    .option('--debug', 'show stack traces on errors')
    .option(
      '--account <name>',
      'account for triggers, portfolios, locations (default: the JWT in CATINTEL_TOKEN, else local)',
    )
    .option('--as-of <time>', 'pin "now" to this ISO 8601 UTC time, like CATINTEL_NOW (replays, the seed snapshot)')
    .version(packageVersion(), '-V, --version', 'print the catintel version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => {} });
}

/** Every command: the registry's handlers, `serve` and `events watch`. */
async function addEveryCommand(program: Command, io: CliIO, setExit: (code: number) => void): Promise<void> {
  const [{ HANDLERS }, { addServeCommand }, { addEventsWatchCommand }] = await Promise.all([
    import('../handlers/registry.js'),
    import('./serve.js'),
    import('./events-watch.js'),
  ]);
  for (const h of HANDLERS) if (h.cli) addHandlerCommand(program, h, io, setExit);
  addServeCommand(program, io, setExit);
  addEventsWatchCommand(program, io, setExit);
}

/**
 * The whole program as `catintel --help` sees it, never run: the CLI reference (docs/cli.md) is written
 * from it, so the page and the help cannot disagree.
 */
export async function commandTree(): Promise<Command> {
  const silent: CliIO = { ...processIO(), stdout: () => {}, stderr: () => {} };
  const program = programWithGlobals(silent);
  await addEveryCommand(program, silent, () => {});
  return program;
}

function globalsOf(program: Command): GlobalOptions {
  return program.opts() as GlobalOptions;
}

/** Descriptions of command groups whose subcommands come from handlers. */
const GROUPS: Record<string, string> = {
  events: 'Read events: live, show, rings, nearby, watch',
  db: 'The store: info, check, seed',
  keys: 'API keys: create, list, revoke',
  token: 'JWT access tokens for development and tests',
  score: 'Hazard scores for a point or a portfolio CSV',
  data: 'Baseline data: build',
  trigger: 'Parametric triggers: create, list, history, deactivate, alerts, observe, evaluate, verify, backtest',
  oasis: 'Oasis LMF: Oasis files from OED, a model run with ORD outputs, the FM acceptance cases',
  locations: 'Saved locations: add, list, remove, exposure, alerts',
  portfolio: 'Portfolios of OED locations: import, list, show, exposure, delete, EP curve (OEP, AEP, TVaR, AAL)',
  infra: 'Critical infrastructure near a point: hospitals, fire stations, schools, urgent care',
  scenario: 'What-if scenarios: run a hypothetical event through the real ring and exposure code, show a stored one',
};

function commandFor(program: Command, path: string[]): Command {
  let cmd = program;
  for (const [i, word] of path.entries()) {
    const existing = cmd.commands.find((c) => c.name() === word);
    if (existing && i < path.length - 1) {
      cmd = existing;
      continue;
    }
    cmd = existing ?? cmd.command(word);
    if (!existing && i < path.length - 1 && GROUPS[word]) cmd.description(GROUPS[word]);
  }
  return cmd;
}

function addHandlerCommand(program: Command, h: Handler, io: CliIO, setExit: (code: number) => void): void {
  const cli = h.cli!;
  const cmd = commandFor(program, cli.command).description(h.summary);
  for (const a of cli.args ?? []) cmd.argument(a.endsWith('...') ? `[${a}]` : `<${a}>`);
  for (const o of cli.options ?? []) cmd.option(o.flags, o.description);
  cmd.addHelpText('after', `\nExamples:\n${cli.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  cmd.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    const raw: RawInput = {};
    (cli.args ?? []).forEach((a, i) => (raw[a.replace(/\.\.\.$/, '')] = params[i]));
    // A parent command that is a handler too (`score` and `score point`) parses the flags both declare,
    // wherever they appear (commander); hand them to the subcommand that declared them as well.
    const inherited = self.parent && self.parent !== program ? self.parent.opts() : {};
    const declared = new Set(self.options.map((o) => o.attributeName()));
    for (const [k, v] of Object.entries(inherited)) if (declared.has(k) && v !== undefined) raw[snake(k)] = v;
    for (const [k, v] of Object.entries(self.opts())) if (v !== undefined) raw[snake(k)] = v;
    const globals = self.optsWithGlobals() as GlobalOptions;
    try {
      const caller = await cliCaller(globals, io.env);
      setExit(await execute(h, raw, caller, globals, io));
    } catch (err) {
      setExit(reportError(err, io, globals));
    }
  });
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
