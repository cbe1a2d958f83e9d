/**
 * One writer at a time: while one process holds the store, a second writer is refused with exit code 4
 * and a message naming the holder, and the file stays usable afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

let holder: ChildProcess | undefined;
afterEach(() => holder?.kill('SIGTERM'));

/** Starts a second process that opens the store read-write as `catintel serve` would, and waits. */
async function holdStore(db: string): Promise<ChildProcess> {
  const script = `
    const { Store } = await import(${JSON.stringify(path.join(REPO_ROOT, 'dist/src/store/db.js'))});
    const s = await Store.open(${JSON.stringify(db)}, { holder: 'catintel serve' });
    process.stdout.write('ready\\n');
    process.on('SIGTERM', async () => { await s.close(); process.exit(0); });
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return child;
}

describe('store lock', () => {
  it('refuses a second writer with exit 4, naming the holder; the store works once it is released', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const feed = sharedData('feeds/usgs_earthquakes/all_day.geojson');
    expect((await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', feed])).code).toBe(0);

    holder = await holdStore(db);
    const refused = await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', feed]);
    expect(refused.code).toBe(4);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      new RegExp(`store .*store\\.duckdb is locked by \`catintel serve\` \\(pid ${holder.pid} `),
    );

    const exited = new Promise((r) => holder!.once('exit', r));
    holder.kill('SIGTERM');
    await exited;
    const after = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', feed]);
    expect(after.code).toBe(0);
    expect(after.json().runs[0].inserted).toBe(0);
  });
});
