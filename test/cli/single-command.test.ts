import { describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/handlers/registry.js';
import { SINGLE_COMMANDS, singleCommandOf } from '../../src/cli/single-command.js';

describe('commands that load their own handler only', () => {
  it('each entry loads the handler the registry serves that command with', async () => {
    for (const c of SINGLE_COMMANDS) {
      const inRegistry = HANDLERS.filter((h) => h.cli && h.cli.command.join(' ') === c.command.join(' '));
      expect(inRegistry, c.command.join(' ')).toHaveLength(1);
      expect(await c.load()).toBe(inRegistry[0]);
    }
  });

  it('is taken only when argv surely runs that command', () => {
    const ok = [['oasis', 'run', '--model', 'm'], ['--quiet', 'oasis', 'run'], ['--db', 'x.duckdb', '--json', 'oasis', 'run'], ['--as-of=2024-01-01T00:00:00Z', 'oasis', 'run']];
    for (const argv of ok) expect(singleCommandOf(argv)?.command, argv.join(' ')).toEqual(['oasis', 'run']);
    const full = [['oasis'], ['oasis', 'run', '--help'], ['oasis', 'run', '-h'], ['--help'], ['-V'], ['help', 'oasis', 'run'], ['--unknown', 'oasis', 'run'], ['oasis', '--json', 'run'], ['events', 'live'], ['--', 'oasis', 'run'], []];
    for (const argv of full) expect(singleCommandOf(argv), argv.join(' ')).toBeUndefined();
  });
});
