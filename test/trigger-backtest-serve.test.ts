/**
 * `catintel trigger backtest` while a real `catintel serve` owns the store: the command runs inside the
 * server over its local channel (the CLI could not open the locked store itself: exit 4 otherwise) and
 * prints what it prints on a store of its own, exit codes included.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../src/store/db.js';
import { insertTrigger } from '../src/triggers/store.js';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';

const BIN = path.join(REPO_ROOT, 'bin/catintel');
const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/handlers/trigger-backtest.js'));
const env = {
  CATINTEL_NOW: '2026-01-15T00:00:00Z',
  CATINTEL_JWT_SECRET: 'a-test-secret-that-is-at-least-32-characters-long',
};
const ID = '00000000-0000-4000-8000-0000000b5e7e';

async function storeWithTrigger(file: string): Promise<void> {
  const store = await Store.open(file);
  await insertTrigger(store, {
    id: ID,
    account: 'local',
    name: 'Miami wind',
    peril: 'hurricane',
    lat: 25.76,
    lng: -80.19,
    radius_km: 50,
    threshold_type: 'wind_speed_kt',
    threshold_value: 100,
    alert_at_pct: 80,
    notes: null,
    status: 'active',
    created_at: '2025-06-01T00:00:00Z',
  });
  await store.close();
}

describe.skipIf(!built)('trigger backtest while `catintel serve` owns the store (needs `make build`)', () => {
  let dir: string;
  let alone: string;
  let served: string;
  let child: ChildProcess;

  beforeAll(async () => {
    dir = tempDir('catintel-bt-serve-');
    alone = path.join(dir, 'alone.duckdb');
    served = path.join(dir, 'served.duckdb');
    await storeWithTrigger(alone);
    await storeWithTrigger(served);
    child = spawn(process.execPath, [BIN, '--db', served, 'serve', '--port', '0', '--access-log', 'off'], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        if (/ at http:\/\/\S+\/api\/v1 /.test(out)) resolve();
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
    });
  }, 60_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers through the server exactly as on a store of its own', async () => {
    for (const argv of [
      ['--json', 'trigger', 'backtest', ID],
      ['trigger', 'backtest', ID, '--since', '1950'],
      ['trigger', 'backtest', 'no-such-trigger'],
    ]) {
      const own = await cli(['--db', alone, ...argv], env);
      const viaServer = await cli(['--db', served, ...argv], env);
      expect(viaServer.code, viaServer.stderr).toBe(own.code);
      expect(viaServer.stdout).toBe(own.stdout);
      expect(viaServer.stderr.split(served).join('<db>')).toBe(own.stderr.split(alone).join('<db>'));
    }
    const r = await cli(['--db', served, '--json', 'trigger', 'backtest', ID], env);
    expect(r.code).toBe(0);
    expect(
      r
        .json()
        .years.filter((y: any) => y.state === 'triggered')
        .map((y: any) => y.year),
    ).toEqual(expect.arrayContaining([1926, 1950, 1992]));
  }, 60_000);
});
