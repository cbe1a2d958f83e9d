/**
 * make install's extension step (scripts/install-duckdb-extensions.py) against a package index on loopback
 * that serves a wheel laid out as PyPI's duckdb-extension-spatial is: it installs the file where DuckDB's
 * extension_directory looks, skips it when present and matching (no download), fetches it again when the
 * file was damaged, and refuses a wheel whose file does not match its own record.
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
const WHEEL = `duckdb_extension_spatial-${NUMBER}-py3-none-any.whl`;
const MEMBER = `duckdb_extension_spatial/extensions/${DUCKDB_VERSION}/spatial.duckdb_extension`;
const CONTENT = Buffer.from(`not really spatial, but the bytes the wheel holds for ${DUCKDB_VERSION}\n`);

const b64sha = (b: Uint8Array) => 'sha256=' + createHash('sha256').update(b).digest('base64url');

/** A wheel as the real one is laid out; `recorded` is what its RECORD claims the extension's bytes are. */
function wheelOf(recorded: Uint8Array): Buffer {
  const info = `duckdb_extension_spatial-${NUMBER}.dist-info`;
  const files: Record<string, Uint8Array> = {
    'duckdb_extension_spatial/__init__.py': new Uint8Array(),
    [MEMBER]: CONTENT,
    [`${info}/METADATA`]: strToU8(`Metadata-Version: 2.1\nName: duckdb-extension-spatial\nVersion: ${NUMBER}\n`),
    [`${info}/WHEEL`]: strToU8('Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
  };
  const record = Object.entries(files).map(([n, b]) => `${n},${b64sha(n === MEMBER ? recorded : b)},${b.length}`);
  files[`${info}/RECORD`] = strToU8([...record, `${info}/RECORD,,`].join('\n') + '\n');
  return Buffer.from(zipSync(files));
}

let server: http.Server;
let index: string;
let wheel = wheelOf(CONTENT);
let downloads = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/simple/duckdb-extension-spatial/') {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!DOCTYPE html><html><body><a href="/files/${WHEEL}#sha256=${createHash('sha256').update(wheel).digest('hex')}">${WHEEL}</a></body></html>`,
      );
    } else if (req.url === `/files/${WHEEL}`) {
      downloads++;
      res.end(wheel);
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
    expect(downloads).toBe(1);
    expect(fs.readdirSync(path.dirname(installed)).sort()).toEqual([
      'spatial.duckdb_extension',
      'spatial.duckdb_extension.sha256',
    ]); // no partial file left
  });

  it('a second run finds it present and matching: nothing downloaded', async () => {
    const r = await install(dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`spatial ${DUCKDB_VERSION} ${DUCKDB_PLATFORM}: already installed`);
    expect(downloads).toBe(1);
  });

  it('a damaged file is fetched again', async () => {
    fs.writeFileSync(installed, 'truncated');
    const r = await install(dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: installed from /);
    expect(fs.readFileSync(installed)).toEqual(CONTENT);
    expect(downloads).toBe(2);
  });

  it('a wheel whose extension does not match its own record is refused, and nothing is installed', async () => {
    wheel = wheelOf(Buffer.from('other bytes'));
    const fresh = tempDir('catintel-extensions-');
    const r = await install(fresh);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`make install: ${MEMBER} in ${WHEEL} does not match the SHA-256 the wheel records`);
    expect(fs.existsSync(path.join(fresh, DUCKDB_VERSION, DUCKDB_PLATFORM, 'spatial.duckdb_extension'))).toBe(false);
  });
});
