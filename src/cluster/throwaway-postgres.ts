/**
 * A throwaway PostgreSQL for the cluster tests, the workers bench and trying `--queue` on one machine
 * (docs/scale-out.md): `initdb` into a temporary directory, `postgres` on a free loopback port with its unix
 * socket in the same directory, trust authentication for one user; close() stops it and deletes the
 * directory. Nothing is installed: the PostgreSQL binaries are found on PATH, then in `pg_config --bindir`,
 * then in /usr/lib/postgresql/<version>/bin.
 *
 * initdb refuses to run as root, and CI runs as root: then the directory is given to the `postgres` user
 * and initdb and pg_ctl run as that user through `runuser -u postgres --`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CatintelError } from '../errors.js';

export interface ThrowawayPostgres {
  /** postgres://catintel@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** The temporary directory (data/, the socket, the server log). */
  dir: string;
  /** A fast shutdown and a start again on the same port: every client's connection is cut (the restart tests). */
  restart(): void;
  close(): Promise<void>;
}

const USER = 'catintel';

/** Starts a fresh PostgreSQL and waits until it accepts connections. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  // As root the postgres user must reach the directory: under /tmp (world-searchable), not a private TMPDIR.
  const dir = fs.mkdtempSync(path.join(asRoot ? '/tmp' : os.tmpdir(), 'catintel-pg-'));
  const run = (tool: string, args: string[]) => {
    const cmd = path.join(bin, tool);
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' })
      : spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.status !== 0)
      throw new CatintelError(
        'internal_error',
        `${tool} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout || String(r.error)).trim().split('\n').pop()}`,
      );
  };
  try {
    if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
    run('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', USER, '--no-sync', '-E', 'UTF8']);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
    const server = ['-D', path.join(dir, 'data'), '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60'];
    run('pg_ctl', [...server, 'start']);
    const url = `postgres://${USER}@127.0.0.1:${port}/postgres`;
    let closed = false;
    return {
      url,
      port,
      dir,
      restart: () => run('pg_ctl', [...server, '-m', 'fast', 'restart']),
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          run('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    const log = path.join(dir, 'log');
    const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').slice(-3).join(' | ') : '';
    fs.rmSync(dir, { recursive: true, force: true });
    if (tail && err instanceof CatintelError) throw new CatintelError(err.code, `${err.message} (server log: ${tail})`);
    throw err;
  }
}

/** The directory holding initdb, pg_ctl and postgres, or one line naming the fix. */
function postgresBinDir(): string {
  const has = (d: string) => ['initdb', 'pg_ctl', 'postgres'].every((t) => fs.existsSync(path.join(d, t)));
  for (const d of (process.env.PATH ?? '').split(path.delimiter)) if (d && has(d)) return d;
  try {
    const d = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (has(d)) return d;
  } catch {
    // no pg_config: look in Debian's versioned directories
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (has(path.join(root, v, 'bin'))) return path.join(root, v, 'bin');
  throw new CatintelError(
    'unavailable',
    'PostgreSQL is not installed (no initdb, pg_ctl and postgres on PATH, in pg_config --bindir or /usr/lib/postgresql/*/bin); install it: apt-get install postgresql',
  );
}

/** A loopback port nothing listens on now (the kernel picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
