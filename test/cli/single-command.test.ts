import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { SEED_AS_OF, seedStore } from '../helpers/store.js';
import { HANDLERS } from '../../src/handlers/registry.js';
import { SINGLE_COMMANDS, singleCommandOf } from '../../src/cli/single-command.js';
import { commandTree } from '../../src/cli/main.js';

describe('commands that load their own handler only', () => {
  it('each entry loads the handler the registry serves that command with', async () => {
    for (const c of SINGLE_COMMANDS) {
      const inRegistry = HANDLERS.filter((h) => h.cli && h.cli.command.join(' ') === c.command.join(' '));
      expect(inRegistry, c.command.join(' ')).toHaveLength(1);
      expect(await c.load()).toBe(inRegistry[0]);
    }
  });

  it('is taken only when argv surely runs that command', () => {
    const ok = [
      ['oasis', 'run', '--model', 'm'],
      ['--quiet', 'oasis', 'run'],
      ['--db', 'x.duckdb', '--json', 'oasis', 'run'],
      ['--as-of=2024-01-01T00:00:00Z', 'oasis', 'run'],
    ];
    for (const argv of ok) expect(singleCommandOf(argv)?.command, argv.join(' ')).toEqual(['oasis', 'run']);
    for (const argv of [
      ['oasis', 'run', '--help'],
      ['oasis', 'run', '-h'],
    ])
      expect(singleCommandOf(argv)?.command, argv.join(' ')).toEqual(['oasis', 'run']);
    const full = [
      ['oasis'],
      ['oasis', '--help', 'run'],
      ['score', '--help'],
      ['--help'],
      ['-V'],
      ['help', 'oasis', 'run'],
      ['--unknown', 'oasis', 'run'],
      ['oasis', '--json', 'run'],
      ['events', 'watch'],
      ['trigger'],
      ['score', 'book.csv'],
      ['--', 'oasis', 'run'],
      [],
    ];
    for (const argv of full) expect(singleCommandOf(argv), argv.join(' ')).toBeUndefined();
  });
});

describe('the commands scripts run most load their own handler only', () => {
  it('ingest, trigger evaluate, portfolio import, bulk and point scores, db info and the event reads', () => {
    const cases: [string[], string[]][] = [
      [['--db', 'x.duckdb', 'ingest', 'usgs-earthquakes', '--from', 'week.geojson'], ['ingest']],
      [['--quiet', 'ingest'], ['ingest']],
      [
        ['--db', 'x.duckdb', 'trigger', 'evaluate'],
        ['trigger', 'evaluate'],
      ],
      [
        ['--db', 'x.duckdb', '--quiet', 'portfolio', 'import', 'book.csv', '--name', 'book'],
        ['portfolio', 'import'],
      ],
      [['--quiet', 'score', '--input', 'book.csv', '--out', 'scores', '--format', 'oasis'], ['score']],
      [
        ['score', 'point', '--lat', '26.6', '--lng', '-81.9'],
        ['score', 'point'],
      ],
      [
        ['--json', 'db', 'info'],
        ['db', 'info'],
      ],
      [
        ['events', 'live', '--limit', '5'],
        ['events', 'live'],
      ],
    ];
    for (const [argv, command] of cases) expect(singleCommandOf(argv)?.command, argv.join(' ')).toEqual(command);
  });

  it('a one-word command taking an argument never hides a two-word command of the registry', () => {
    for (const c of SINGLE_COMMANDS.filter((e) => e.takesArgument)) {
      const longer = HANDLERS.filter(
        (h) => h.cli && h.cli.command.length > c.command.length && h.cli.command[0] === c.command[0],
      );
      expect(
        longer.map((h) => h.cli!.command.join(' ')),
        c.command.join(' '),
      ).toEqual([]);
    }
  });

  it('answer as the full program does (an option between the words builds the full program)', async () => {
    const db = await seedStore();
    const env = { CATINTEL_NOW: SEED_AS_OF };
    const pairs: [string[], string[]][] = [
      [
        ['--db', db, '--json', 'events', 'live', '--limit', '3'],
        ['--db', db, 'events', '--json', 'live', '--limit', '3'],
      ],
      [
        ['--db', db, '--json', 'db', 'info'],
        ['--db', db, 'db', '--json', 'info'],
      ],
      [
        ['--db', db, 'events', 'live', '--limit', 'x'],
        ['--db', db, 'events', '--quiet', 'live', '--limit', 'x'],
      ],
    ];
    for (const [single, full] of pairs) {
      expect(singleCommandOf(single)).toBeDefined();
      expect(singleCommandOf(full)).toBeUndefined();
      const [a, b] = [await cli(single, env), await cli(full, env)];
      expect({ code: a.code, stdout: a.stdout, stderr: a.stderr }, single.join(' ')).toEqual({
        code: b.code,
        stdout: b.stdout,
        stderr: b.stderr,
      });
    }
  });

  it("answer a command's --help with the full program's help text, byte for byte", async () => {
    const program = await commandTree();
    for (const c of SINGLE_COMMANDS) {
      let command = program;
      for (const word of c.command) command = command.commands.find((sub) => sub.name() === word)!;
      const argv = [...c.command, '--help'];
      expect(command.commands.length > 0, c.command.join(' ')).toBe(Boolean(c.hasSubcommands));
      if (c.hasSubcommands) {
        expect(singleCommandOf(argv), argv.join(' ')).toBeUndefined();
        continue;
      }
      let fullHelp = '';
      command.configureOutput({ writeOut: (text) => (fullHelp += text) }).outputHelp();
      expect(singleCommandOf(argv), argv.join(' ')).toBe(c);
      const single = await cli(argv);
      expect({ code: single.code, stdout: single.stdout, stderr: single.stderr }, argv.join(' ')).toEqual({
        code: 0,
        stdout: fullHelp,
        stderr: '',
      });
    }
  });
});
