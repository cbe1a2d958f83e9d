/**
 * make install's extension step (scripts/install-duckdb-extensions.py) against a package index on loopback
 * that serves wheels laid out as PyPI's duckdb-extension-spatial, -ducklake and -postgres_scanner are: it installs
 * each file where DuckDB's extension_directory looks, skips it when present and matching (no download),
 * fetches it again when the file was damaged, and refuses a wheel whose file does not match its own record.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';
import { DUCKDB_PLATFORM, DUCKDB_VERSION } from './helpers/duckdb-build.js';

const NUMBER = DUCKDB_VERSION.replace(/^v/, '');
/** The extensions make install fetches, in its order: the store's spatial functions, then the cluster store's two. */
const NAMES = ['spatial', 'ducklake', 'postgres_scanner'];
const wheelName = (name: string) => `duckdb_extension_${name}-${NUMBER}-py3-none-any.whl`;
const memberOf = (name: string) => `duckdb_extension_${name}/extensions/${DUCKDB_VERSION}/${name}.duckdb_extension`;
const contentOf = (name: string) =>
  Buffer.from(`not really ${name}, but the bytes the wheel holds for ${DUCKDB_VERSION}\n`);
const WHEEL = wheelName('spatial');
const MEMBER = memberOf('spatial');
const CONTENT = contentOf('spatial');

const b64sha = (b: Uint8Array) => 'sha256=' + createHash('sha256').update(b).digest('base64url');

/** A wheel as the real one is laid out; `recorded` is what its RECORD claims the extension's bytes are. */
function wheelOf(name: string, recorded: Uint8Array): Buffer {
  const info = `duckdb_extension_${name}-${NUMBER}.dist-info`;
  const member = memberOf(name);
  const files: Record<string, Uint8Array> = {
    [`duckdb_extension_${name}/__init__.py`]: new Uint8Array(),
    [member]: contentOf(name),
    [`${info}/METADATA`]: strToU8(`Metadata-Version: 2.1\nName: duckdb-extension-${name}\nVersion: ${NUMBER}\n`),
    [`${info}/WHEEL`]: strToU8('Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
  };
  const record = Object.entries(files).map(([n, b]) => `${n},${b64sha(n === member ? recorded : b)},${b.length}`);
  files[`${info}/RECORD`] = strToU8([...record, `${info}/RECORD,,`].join('\n') + '\n');
  return Buffer.from(zipSync(files));
}

let server: http.Server;
let index: string;
const wheels = new Map(NAMES.map((n) => [n, wheelOf(n, contentOf(n))]));
let downloads = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    // pip asks for the project's normalized name (PEP 503): duckdb-extension-postgres-scanner.
    const page = /^\/simple\/duckdb-extension-([a-z-]+)\/$/.exec(req.url ?? '')?.[1]?.replaceAll('-', '_');
    const file = NAMES.find((n) => req.url === `/files/${wheelName(n)}`);
    if (page && wheels.has(page)) {
      const name = wheelName(page);
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!DOCTYPE html><html><body><a href="/files/${name}#sha256=${createHash('sha256').update(wheels.get(page)!).digest('hex')}">${name}</a></body></html>`,
      );
    } else if (file) {
      downloads++;
      res.end(wheels.get(file));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  index = `http://127.0.0.1:${(server.address() as { port: number }).port}/simple/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The script as make runs it; asynchronously, so this process's index keeps answering pip. */
function install(dir: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CATINTEL_DUCKDB_EXTENSIONS: dir,
    PIP_INDEX_URL: index,
    PIP_TRUSTED_HOST: '127.0.0.1',
    PIP_NO_CACHE_DIR: '1',
    PIP_CONFIG_FILE: '/dev/null',
    PIP_RETRIES: '0',
  };
  return new Promise((resolve) => {
    execFile(
      'python3',
      ['scripts/install-duckdb-extensions.py'],
      { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000 },
      (err, stdout, stderr) =>
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe('make install: the DuckDB extensions from their wheels', () => {
  const dir = tempDir('catintel-extensions-');
  const installed = path.join(dir, DUCKDB_VERSION, DUCKDB_PLATFORM, 'spatial.duckdb_extension');

  it('unpacks the wheel of the installed DuckDB version into <dir>/<version>/<platform>/, where extension_directory looks', async () => {
    const r = await install(dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^spatial ${DUCKDB_VERSION} ${DUCKDB_PLATFORM}: installed from ${WHEEL.replaceAll('.', '\\.')}`),
    );
    expect(fs.readFileSync(installed)).toEqual(CONTENT);
    for (const name of NAMES) {
      expect(r.stdout).toContain(`${name} ${DUCKDB_VERSION} ${DUCKDB_PLATFORM}: installed from ${wheelName(name)}`);
      expect(fs.readFileSync(path.join(path.dirname(installed), `${name}.duckdb_extension`))).toEqual(contentOf(name));
    }
    expect(downloads).toBe(NAMES.length);
    expect(fs.readdirSync(path.dirname(installed)).sort()).toEqual(
      NAMES.flatMap((n) => [`${n}.duckdb_extension`, `${n}.duckdb_extension.sha256`]).sort(),
    ); // no partial file left
  });

  it('a second run finds them present and matching: nothing downloaded', async () => {
    const r = await install(dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(
      NAMES.map((n) => `${n} ${DUCKDB_VERSION} ${DUCKDB_PLATFORM}: already installed`),
    );
    expect(downloads).toBe(NAMES.length);
  });

  it('a damaged file is fetched again', async () => {
    fs.writeFileSync(installed, 'truncated');
    const r = await install(dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: installed from /);
    expect(fs.readFileSync(installed)).toEqual(CONTENT);
    expect(downloads).toBe(NAMES.length + 1);
  });

  it('a wheel whose extension does not match its own record is refused, and nothing is installed', async () => {
    wheels.set('spatial', wheelOf('spatial', Buffer.from('other bytes')));
    const fresh = tempDir('catintel-extensions-');
    const r = await install(fresh);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`make install: ${MEMBER} in ${WHEEL} does not match the SHA-256 the wheel records`);
    expect(fs.existsSync(path.join(fresh, DUCKDB_VERSION, DUCKDB_PLATFORM, 'spatial.duckdb_extension'))).toBe(false);
  });
});
