/**
 * A PostgreSQL of the test's own: initdb into a temporary directory, started on a free loopback port, stopped
 * and removed by stop(). initdb refuses to run as root, so as root (CI) it runs as the `postgres` user.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface ThrowawayPostgres {
  port: number;
  /** A new empty database's cluster-store address, with a data directory of its own. */
  storeAddress(database: string): Promise<string>;
  /** A fast shutdown and start again on the same port: every client's connection is cut. */
  restart(): void;
  stop(): void;
}

function binDir(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0 && fs.existsSync(path.join(fromConfig.stdout.trim(), 'initdb')))
    return fromConfig.stdout.trim();
  const debian = '/usr/lib/postgresql';
  const versions = fs.existsSync(debian) ? fs.readdirSync(debian).sort().reverse() : [];
  for (const v of versions)
    if (fs.existsSync(path.join(debian, v, 'bin', 'initdb'))) return path.join(debian, v, 'bin');
  throw new Error('PostgreSQL is not installed (no initdb): apt-get install postgresql');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function startPostgres(): Promise<ThrowawayPostgres> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  // The server runs as `postgres` under root, and the suite's own temporary directory is private to root:
  // the system's shared temporary directory instead, which every user can traverse.
  const dir = fs.mkdtempSync(path.join(asRoot ? '/tmp' : os.tmpdir(), 'catintel-pg-'));
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (tool: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : path.join(bin, tool),
      asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args,
      {
        stdio: 'pipe',
      },
    );
  run('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'catintel', '--no-sync']);
  const port = await freePort();
  const serverArgs = [
    '-D',
    path.join(dir, 'data'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-l',
    path.join(dir, 'log'),
    '-w',
  ];
  run('pg_ctl', [...serverArgs, 'start']);
  const lake = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-lake-'));
  return {
    port,
    async storeAddress(database) {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'catintel', database: 'postgres' });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${database}"`);
      } finally {
        await client.end();
      }
      return `postgres://catintel@127.0.0.1:${port}/${database}?data=${path.join(lake, database)}`;
    },
    restart() {
      run('pg_ctl', [...serverArgs, '-m', 'fast', 'restart']);
    },
    stop() {
      try {
        run('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.rmSync(lake, { recursive: true, force: true });
      }
    },
  };
}
