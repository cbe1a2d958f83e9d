/**
 * The intelligence commands work while a real `catintel serve` owns the store: the CLI hands them to the
 * server over the local channel and prints the same JSON it prints standalone; a scenario run through the
 * server is stored and shown back.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { startServe } from './helpers/serve.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/handlers/scenarios-run.js'));
const NOW = '2022-09-29T03:32:09Z';
const env = { CATINTEL_NOW: NOW };

let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

async function serve(db: string): Promise<void> {
  child = await startServe(db, { env });
}

describe.skipIf(!built)('intelligence commands beside a running server (a real process; needs `make build`)', () => {
  let db: string;
  const standalone: Record<string, unknown> = {};
  const COMMANDS: Record<string, string[]> = {
    prediction: ['events', 'prediction', 'AL092022'],
    timeline: ['events', 'timeline', 'AL092022'],
    exposure: ['events', 'exposure', 'AL092022'],
  };
  beforeAll(async () => {
    const dir = tempDir('catintel-intel-serve-');
    db = path.join(dir, 'ian.duckdb');
    const r = await cli(
      ['--db', db, 'ingest', 'nhc', '--from', sharedData('hazard_history/hurricanes/bal092022.dat')],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    // The standalone answers from a copy of the store (a closed store is its one file), while the server
    // starts on the store itself: its start-up is not waited out on its own.
    const alone = path.join(dir, 'alone.duckdb');
    fs.copyFileSync(db, alone);
    const serving = serve(db);
    try {
      for (const [k, argv] of Object.entries(COMMANDS))
        standalone[k] = (await cli(['--db', alone, '--json', ...argv], env)).json();
    } finally {
      await serving; // the child is known (and killed after the file) whatever happened meanwhile
    }
  }, 60_000);

  it('prediction, timeline, exposure and scenario run / show go through the server with the standalone answers', async () => {
    for (const [k, argv] of Object.entries(COMMANDS)) {
      const r = await cli(['--db', db, '--json', ...argv], env);
      expect(r.code, `${k}: ${r.stderr}`).toBe(0);
      expect(r.json(), k).toEqual(standalone[k]);
    }
    const run = await cli(
      [
        '--db',
        db,
        '--json',
        'scenario',
        'run',
        '--event-type',
        'wildfire',
        '--lat',
        '34.2',
        '--lng',
        '-118.4',
        '--area-acres',
        '20000',
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().rings.features.length).toBeGreaterThan(0);
    const shown = await cli(['--db', db, '--json', 'scenario', 'show', run.json().id], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json()).toEqual(run.json());
    expect((await cli(['--db', db, 'scenario', 'show', '00000000-0000-4000-8000-000000000000'], env)).code).toBe(2);
  }, 60_000);
});
