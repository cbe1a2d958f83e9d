/**
 * Commands the CLI runs by loading their own handler only, not the whole registry (every handler, the
 * HTTP app, DuckDB): a command that is quick to run, such as `catintel oasis run` on a small model, would
 * otherwise spend most of its time loading code it never calls. The program built for them holds that
 * one command, with the same options, help text and errors as in the full program; anything else (the
 * program's help, version, another command, an option this parser does not know before the command) builds
 * the full program. test/cli/single-command.test.ts checks each entry is the registry's handler for its
 * command, and that its `--help` is the full program's to the byte.
 */
import type { Handler } from '../handlers/types.js';

/** A command that loads its own handler. */
export interface SingleCommand {
  command: string[];
  /** A one-word command whose first argument is a value, not a subcommand (`ingest usgs-earthquakes`). */
  takesArgument?: boolean;
  /** The full program lists subcommands under it (`score point`), so only the full program answers its --help. */
  hasSubcommands?: boolean;
  load: () => Promise<Handler>;
}

/**
 * The commands scripts and cron jobs run most (and the suite's child processes): loading every handler
 * cost about 0.5 s of CPU a start, more than many of these commands take to run.
 */
export const SINGLE_COMMANDS: SingleCommand[] = [
  {
    command: ['oasis', 'run'],
    load: async () => (await import('../handlers/oasis-run.js')).oasisRun as unknown as Handler,
  },
  {
    command: ['oasis', 'files'],
    load: async () => (await import('../handlers/oasis-files.js')).oasisFiles as unknown as Handler,
  },
  {
    command: ['oasis', 'fm-test'],
    load: async () => (await import('../handlers/oasis-fm-test.js')).oasisFmTest as unknown as Handler,
  },
  {
    command: ['ingest'],
    takesArgument: true,
    load: async () => (await import('../handlers/ingest.js')).ingest as unknown as Handler,
  },
  { command: ['db', 'info'], load: async () => (await import('../handlers/db-info.js')).dbInfo as unknown as Handler },
  { command: ['db', 'seed'], load: async () => (await import('../handlers/db-seed.js')).dbSeed as unknown as Handler },
  {
    command: ['events', 'live'],
    load: async () => (await import('../handlers/events.js')).eventsLive as unknown as Handler,
  },
  {
    command: ['events', 'show'],
    load: async () => (await import('../handlers/events.js')).eventsShow as unknown as Handler,
  },
  {
    command: ['events', 'rings'],
    load: async () => (await import('../handlers/events.js')).eventsRings as unknown as Handler,
  },
  {
    command: ['events', 'nearby'],
    load: async () => (await import('../handlers/events.js')).eventsNearby as unknown as Handler,
  },
  {
    command: ['score'],
    hasSubcommands: true,
    load: async () => (await import('../handlers/score-bulk.js')).scoreBulk as unknown as Handler,
  },
  { command: ['worker'], load: async () => (await import('../handlers/worker.js')).worker as unknown as Handler },
  {
    command: ['score', 'point'],
    load: async () => (await import('../handlers/score-point.js')).riskScore as unknown as Handler,
  },
  {
    command: ['trigger', 'create'],
    load: async () => (await import('../handlers/triggers-create.js')).triggersCreate as unknown as Handler,
  },
  {
    command: ['trigger', 'list'],
    load: async () => (await import('../handlers/triggers-list.js')).triggersList as unknown as Handler,
  },
  {
    command: ['trigger', 'evaluate'],
    load: async () => (await import('../handlers/triggers-evaluate.js')).triggersEvaluate as unknown as Handler,
  },
  {
    command: ['trigger', 'history'],
    load: async () => (await import('../handlers/triggers-history.js')).triggersHistory as unknown as Handler,
  },
  {
    command: ['trigger', 'verify'],
    load: async () => (await import('../handlers/triggers-verify.js')).triggersVerify as unknown as Handler,
  },
  {
    command: ['portfolio', 'import'],
    load: async () => (await import('../handlers/portfolio.js')).portfolioCreate as unknown as Handler,
  },
  {
    command: ['portfolio', 'exposure'],
    load: async () => (await import('../handlers/portfolio.js')).portfolioExposureHandler as unknown as Handler,
  },
  {
    command: ['portfolio', 'ep-curve'],
    load: async () => (await import('../handlers/portfolio-ep-curve.js')).portfolioEpCurve as unknown as Handler,
  },
  {
    command: ['locations', 'add'],
    load: async () => (await import('../handlers/locations.js')).locationsCreate as unknown as Handler,
  },
  {
    command: ['locations', 'exposure'],
    load: async () => (await import('../handlers/locations.js')).locationsExposureHandler as unknown as Handler,
  },
];

/** Global options (src/cli/main.ts) that take a value. */
const GLOBAL_WITH_VALUE = new Set(['--db', '--store', '--account', '--as-of']);
const GLOBAL_FLAGS = new Set(['--json', '--quiet', '--debug']);

/**
 * The SINGLE_COMMANDS entry argv runs, or whose help it asks for (`catintel events live --help`), when it is
 * sure to be that one; undefined otherwise.
 */
export function singleCommandOf(argv: string[]): SingleCommand | undefined {
  if (argv.some((a) => a === '-V' || a === '--version' || a === 'help')) return undefined;
  const helpWanted = argv.some((a) => a === '-h' || a === '--help');
  const words: string[] = [];
  let i = 0;
  for (; i < argv.length && words.length < 2; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (a.startsWith('-')) {
      // After the first word an option ends the command's words: `score --input x` is the one-word
      // command, and `oasis --json run` names none here (the full program parses it).
      if (words.length > 0) break;
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
  const same = (command: string[], w: string[]) => command.length === w.length && command.every((x, k) => x === w[k]);
  const single =
    SINGLE_COMMANDS.find((c) => same(c.command, words)) ??
    SINGLE_COMMANDS.find((c) => c.takesArgument && same(c.command, words.slice(0, c.command.length)));
  return helpWanted && single?.hasSubcommands ? undefined : single;
}
