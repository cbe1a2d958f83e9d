/**
 * Beside a server whose clock is pinned (`make run` sets CATINTEL_NOW), a CLI command that runs inside it
 * uses the server's clock unless the command pins its own: `events live` and `trigger evaluate` see the
 * events the API serves, and say which clock they used.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';
import { startServe } from './helpers/serve.js';
import { weekStore, WEEK_NOW } from './helpers/store.js';

const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'));

describe.skipIf(!built)('the CLI beside a pinned-clock server (a real process; needs `make build`)', () => {
  let db: string;
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    db = await weekStore();
    child = await startServe(db, { env: { CATINTEL_NOW: WEEK_NOW } });
    url = JSON.parse(fs.readFileSync(`${db}.serve.json`, 'utf8')).url;
  }, 60_000);
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it("events live and trigger evaluate without CATINTEL_NOW use the server's clock: the count the API serves", async () => {
    const served = (await (await fetch(`${url}/api/v1/events/live?limit=1`)).json()) as { numberMatched: number };
    expect(served.numberMatched).toBeGreaterThan(100);

    const live = await cli(['--db', db, '--json', 'events', 'live', '--limit', '1']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.json().numberMatched).toBe(served.numberMatched);

    const text = await cli(['--db', db, 'events', 'live', '--limit', '1']);
    expect(text.stdout).toMatch(new RegExp(`of ${served.numberMatched} events`));
    expect(text.stderr).toContain(`hint: clock: pinned at ${WEEK_NOW} by \`catintel serve\` (pid ${child.pid})`);

    const created = await cli([
      '--db',
      db,
      '--json',
      'trigger',
      'create',
      '--name',
      'Geysers M2',
      '--peril',
      'earthquake',
      '--lat',
      '38.8',
      '--lng',
      '-122.8',
      '--radius-km',
      '300',
      '--threshold-type',
      'magnitude',
      '--threshold-value',
      '2',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const evaluated = await cli(['--db', db, '--json', 'trigger', 'evaluate']);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.json().evaluated_at).toBe(WEEK_NOW);
    expect(evaluated.json().events_considered).toBeGreaterThan(0);
  });

  it('a command that pins its own clock keeps it, and no note is printed', async () => {
    const later = '2020-09-01T00:00:00Z'; // two months on: the week's earthquakes are over
    const own = await cli(['--db', db, 'events', 'live', '--limit', '1'], { CATINTEL_NOW: later });
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).not.toMatch(/clock: pinned/);
    const asOf = await cli(['--db', db, '--json', '--as-of', later, 'events', 'live', '--limit', '1']);
    const served = (await (await fetch(`${url}/api/v1/events/live?limit=1`)).json()) as { numberMatched: number };
    expect(asOf.json().numberMatched).toBeLessThan(served.numberMatched);
  });
});
