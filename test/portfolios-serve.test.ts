/**
 * Every portfolio and saved-location command works while a real `catintel serve` owns the store (issue 11;
 * issue 9 part 1): the CLI hands it to the server over the local channel, with the same answers and exit
 * codes, and an ingest run through the server raises the alerts the server then serves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const BIN = path.join(REPO_ROOT, 'bin/catintel');
const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'));
const NOW = '2022-09-28T21:00:00Z';
const DEAD = 'http://127.0.0.1:9/feed';
const feeds = Object.fromEntries(
  ['USGS_EARTHQUAKES', 'NWS_ALERTS', 'NHC', 'NIFC_WILDFIRES', 'USGS_GAUGES'].map((s) => [
    `CATINTEL_FEED_URL_${s}`,
    DEAD,
  ]),
);
const env = { CATINTEL_NOW: NOW, CATINTEL_FETCH_TIMEOUT_MS: '1500', CATINTEL_FETCH_ATTEMPTS: '1', ...feeds };

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

async function serve(db: string): Promise<string> {
  child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0', '--access-log', 'off'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  return new Promise<string>((resolve, reject) => {
    child!.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = / at (http:\/\/\S+\/api\/v1) /.exec(out);
      if (m) resolve(m[1]);
    });
    child!.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

describe.skipIf(!built)(
  'portfolio and locations commands beside a running server (a real process; needs `make build`)',
  () => {
    it('import, list, show, exposure, delete, and locations add, list, exposure, alerts, remove run through the server', async () => {
      const dir = tempDir('catintel-portfolios-serve-');
      const db = path.join(dir, 'store.duckdb');
      const csv = path.join(dir, 'book.csv');
      fs.writeFileSync(
        csv,
        'LocNumber,Latitude,Longitude,BuildingTIV,LocPerilsCovered\nFM,26.64,-81.87,1000,WW1\nMI,25.76,-80.19,2000,WW1\n',
      );
      const base = await serve(db);
      const run = (argv: string[]) => cli(['--db', db, ...argv], env);

      const home = await run([
        'locations',
        'add',
        '--name',
        'Fort Myers',
        '--lat',
        '26.64',
        '--lng',
        '-81.87',
        '--json',
      ]);
      expect(home.code, home.stderr).toBe(0);
      // A relative FILE is the caller's: resolved against its working directory before the server reads it.
      const cwd = process.cwd();
      process.chdir(dir);
      let imported;
      try {
        imported = await run(['portfolio', 'import', 'book.csv', '--name', 'book', '--json']);
      } finally {
        process.chdir(cwd);
      }
      expect(imported.code, imported.stderr).toBe(0);
      const id = imported.json().id;
      expect(imported.json()).toMatchObject({ NumLocations: 2, created: true });
      const bad = await run(['portfolio', 'import', path.join(dir, 'missing.csv'), '--name', 'x']);
      expect(bad.code).toBe(2);

      const ingest = await run(['ingest', 'nhc', '--from', sharedData('hazard_history/hurricanes/bal092022.dat')]);
      expect(ingest.code, ingest.stderr).toBe(0);
      const alerts = (await run(['locations', 'alerts', '--json'])).json();
      expect(alerts.alerts).toHaveLength(1);
      expect(alerts.portfolio_alerts.length).toBe(3);

      expect((await run(['portfolio', 'list', '--json'])).json().numberMatched).toBe(1);
      expect((await run(['portfolio', 'show', id, '--json'])).json().locations).toHaveLength(2);
      const exposure = (await run(['portfolio', 'exposure', id, '--json'])).json();
      expect(exposure.events[0].rings.map((r: any) => r.NumLocations)).toEqual([1, 0, 1]);
      expect((await run(['locations', 'exposure', '--json'])).json().reached).toBe(1);
      // The server answers the same over HTTP at once (the CLI's account is `local`; HTTP anonymous callers are their address).
      expect((await fetch(`${base}/locations`)).status).toBe(200);

      expect((await run(['portfolio', 'show', '00000000-0000-4000-8000-000000000000'])).code).toBe(2);
      expect((await run(['portfolio', 'delete', id, '--json'])).json().deleted).toBe(true);
      expect((await run(['locations', 'remove', home.json().id, '--json'])).json().deleted).toBe(true);
      expect((await run(['locations', 'list', '--json'])).json().count).toBe(0);
    }, 90_000);
  },
);
