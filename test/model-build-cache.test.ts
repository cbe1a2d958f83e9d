/**
 * `catintel model build` reuses a package it built before from the same code, data and options
 * (src/models/package-cache): the second build of the same package is copied from the cache, every file
 * byte for byte the first build's (manifest included); another seed or length is built; --no-cache
 * builds anew and leaves the cache alone; an entry that is not whole (no manifest) or not what its manifest
 * says is dropped and built again; two builds of one package at once build it once; a cache that cannot
 * be written warns and the build stands. And the data the key hashes is all the builders read: each model
 * builds from a data directory holding only those paths.
 *
 * Real builds of one simulated year (a few seconds each), in a cache of this file's own.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { SHARED_DATA } from './helpers/paths.js';
import { buildInputsOf } from '../src/models/package-cache/build-inputs.js';

let work: string;
let cache: string;

beforeAll(() => {
  work = tempDir('catintel-build-cache-');
  cache = path.join(work, 'cache');
});

const out = (name: string) => path.join(work, name);

/** A data folder holding only the paths a model's cache key hashes, linked to the shared data. */
async function onlyInputsOf(model: 'hurricane' | 'earthquake'): Promise<string> {
  const data = path.join(work, `only-${model}-inputs`);
  for (const rel of await buildInputsOf(model)) {
    fs.mkdirSync(path.dirname(path.join(data, rel)), { recursive: true });
    fs.symlinkSync(path.join(SHARED_DATA, rel), path.join(data, rel));
  }
  return data;
}

async function build(args: string[], env: Record<string, string> = {}, from = SHARED_DATA) {
  const r = await cli(['model', 'build', 'hurricane', '--years', '1', '--from', from, '--json', ...args], {
    CATINTEL_CACHE: cache,
    ...env,
  });
  expect(r.code, r.stderr).toBe(0);
  return { ...r, body: r.json() };
}

/** Every file of a package folder, by name: its SHA-256 (the files are megabytes; a diff of them is not read). */
function filesOf(dir: string): Map<string, string> {
  return new Map(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [
        f,
        createHash('sha256')
          .update(fs.readFileSync(path.join(dir, f)))
          .digest('hex'),
      ]),
  );
}

const entries = () => fs.readdirSync(path.join(cache, 'models')).filter((f) => !f.startsWith('.'));
const manifestOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

describe('model build through the package cache', () => {
  let first: Awaited<ReturnType<typeof build>>;

  beforeAll(async () => {
    // From a data folder holding only the paths the key hashes (the last describe's check, for the
    // hurricane): the builds below read the whole shared data folder and still find this entry.
    first = await build(['--out', out('first')], {}, await onlyInputsOf('hurricane'));
  }, 120_000);

  it('a first build is a miss, stored in the cache as its entry; the JSON says so', () => {
    expect(first.body.cache).toBe('miss');
    expect(first.body.cacheEntry).toBe(path.join(cache, 'models', path.basename(first.body.cacheEntry)));
    expect(path.basename(first.body.cacheEntry)).toMatch(/^hurricane-[0-9a-f]{32}$/);
    expect(first.body.cacheKeySeconds).toBeGreaterThanOrEqual(0);
    expect(entries()).toEqual([path.basename(first.body.cacheEntry)]);
  });

  it('the same build again, from the whole shared data folder, is a hit: every file, the manifest included, the first build’s byte for byte', async () => {
    const again = await build(['--out', out('again')]);
    expect(again.body.cache).toBe('hit');
    expect(again.body.out).toBe(out('again'));
    expect(again.body.builtAt).toBe(manifestOf(out('first')).completed_at);
    expect(again.body.events).toBe(first.body.events);
    expect(filesOf(out('again'))).toEqual(filesOf(out('first')));
    // A person is told where it came from, and how to build anew.
    const human = await cli(
      ['model', 'build', 'hurricane', '--years', '1', '--from', SHARED_DATA, '--out', out('human')],
      {
        CATINTEL_CACHE: cache,
      },
    );
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toContain(
      `reused the package built at ${manifestOf(out('first')).completed_at} (cache ${first.body.cacheEntry}); --no-cache to build anew`,
    );
  }, 60_000);

  it('another seed or another length is another package: built, and stored beside', async () => {
    const seed = await build(['--seed', '2', '--out', out('seed2')]);
    expect(seed.body.cache).toBe('miss');
    expect(seed.body.cacheEntry).not.toBe(first.body.cacheEntry);
    const years = await build(['--years', '2', '--out', out('years2')]);
    expect(years.body.cache).toBe('miss');
    expect(new Set([first.body.cacheEntry, seed.body.cacheEntry, years.body.cacheEntry]).size).toBe(3);
    expect(entries()).toHaveLength(3);
    // A hit into a folder holding another package replaces it whole.
    const over = await build(['--out', out('seed2')]);
    expect(over.body.cache).toBe('hit');
    expect(filesOf(out('seed2'))).toEqual(filesOf(out('first')));
  }, 120_000);

  it('--no-cache builds anew and leaves the cache as it was', async () => {
    const before = entries().map((e) => [e, fs.statSync(path.join(cache, 'models', e)).mtimeMs]);
    const fresh = await build(['--no-cache', '--out', out('fresh')]);
    expect(fresh.body.cache).toBe('off');
    expect(fresh.body.cacheEntry).toBeUndefined();
    expect(manifestOf(out('fresh')).run).not.toBe(manifestOf(out('first')).run);
    // The build is deterministic: the same package but for the manifest's run, time and build seconds.
    const files = filesOf(out('fresh'));
    files.delete('manifest.json');
    const cached = filesOf(out('first'));
    cached.delete('manifest.json');
    expect(files).toEqual(cached);
    expect(manifestOf(out('fresh')).outputs).toEqual(manifestOf(out('first')).outputs);
    expect(entries().map((e) => [e, fs.statSync(path.join(cache, 'models', e)).mtimeMs])).toEqual(before);
  }, 60_000);

  it('an entry without its manifest (a half-written one) is not used: built again, and stored whole', async () => {
    fs.rmSync(path.join(first.body.cacheEntry, 'manifest.json'));
    const rebuilt = await build(['--out', out('rebuilt')]);
    expect(rebuilt.body.cache).toBe('miss');
    expect(rebuilt.body.cacheEntry).toBe(first.body.cacheEntry);
    expect(fs.existsSync(path.join(first.body.cacheEntry, 'manifest.json'))).toBe(true);
    expect((await build(['--out', out('after-rebuild')])).body.cache).toBe('hit');
  }, 60_000);

  it('an entry whose file differs from its manifest is dropped and built again; the output is never the bad copy', async () => {
    const entry = first.body.cacheEntry;
    const idx = path.join(entry, 'footprint.idx');
    const bytes = fs.readFileSync(idx);
    bytes[bytes.length - 1] ^= 0xff;
    fs.writeFileSync(idx, bytes);
    const good = filesOf(out('first'));
    good.delete('manifest.json');
    // The package already in --out stays whole while the bad entry is tried.
    const r = await build(['--out', out('first')]);
    expect(r.body.cache).toBe('miss');
    const files = filesOf(out('first'));
    files.delete('manifest.json');
    expect(files).toEqual(good);
    expect(filesOf(entry).get('footprint.idx')).toEqual(good.get('footprint.idx'));
  }, 60_000);

  it('two builds of one package at once: one builds, the other waits for it and copies', async () => {
    const seed3 = (name: string) =>
      cli(
        [
          'model',
          'build',
          'hurricane',
          '--years',
          '1',
          '--seed',
          '3',
          '--from',
          SHARED_DATA,
          '--json',
          '--out',
          out(name),
        ],
        {
          CATINTEL_CACHE: cache,
        },
      );
    const [a, b] = await Promise.all([seed3('a'), seed3('b')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect([a.json().cache, b.json().cache].sort()).toEqual(['hit', 'miss']);
    expect(a.stderr + b.stderr).toContain('waiting for another build of this package');
    expect(filesOf(out('b'))).toEqual(filesOf(out('a')));
    expect(fs.readdirSync(path.join(cache, 'models')).filter((f) => f.endsWith('.lock'))).toEqual([]);
    // A fourth package of the model: the least recently used of the others made way (three are kept).
    expect(entries()).toHaveLength(3);
    expect(entries()).toContain(path.basename(first.body.cacheEntry));
  }, 120_000);

  it('a cache that cannot be written: a warning, and the build stands', async () => {
    const notADir = path.join(work, 'a-file');
    fs.writeFileSync(notADir, '');
    const r = await build(['--out', out('unwritable')], { CATINTEL_CACHE: notADir });
    expect(r.body.cache).toBe('miss');
    expect(r.body.cacheWarning).toMatch(/^the cache is not writable: /);
    expect(fs.existsSync(path.join(out('unwritable'), 'manifest.json'))).toBe(true);
    const human = await cli(
      ['model', 'build', 'hurricane', '--years', '1', '--from', SHARED_DATA, '--out', out('unwritable')],
      {
        CATINTEL_CACHE: notADir,
      },
    );
    expect(human.code).toBe(0);
    expect(human.stderr).toMatch(/warning: the cache is not writable: .*; the build stands/);
  }, 120_000);
});

describe('the data the cache key hashes is all the builders read', () => {
  // The hurricane's first build above reads only those paths; the earthquake builds from its own here.
  it('earthquake: built from a data directory holding only those paths', async () => {
    const r = await cli(
      [
        'model',
        'build',
        'earthquake',
        '--years',
        '1',
        '--from',
        await onlyInputsOf('earthquake'),
        '--out',
        out('only-earthquake'),
        '--no-cache',
        '--quiet',
      ],
      {},
    );
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(out('only-earthquake'), 'manifest.json'))).toBe(true);
  }, 60_000);
});
