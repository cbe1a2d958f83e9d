/**
 * The backtest's embedded catalogs: data/catalogs/ reads back to exactly the storms and quakes the public
 * files parse to, so a backtest on an installed package (no shared data directory) gives the answers it
 * gives from the sources. Its byte-for-byte rebuild is in test/data-check/catalogs.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INPUTS } from '../src/reference-data/inputs.js';
import { loadCatalogs, parseDatedCatalog, parseNamedStorms } from '../src/triggers/backtest/catalogs.js';
import { CatintelError } from '../src/errors.js';
import { Store } from '../src/store/db.js';
import { insertTrigger } from '../src/triggers/store.js';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const CATALOGS = path.join(REPO_ROOT, 'data/catalogs');
const text = (rel: string) => fs.readFileSync(sharedData(rel), 'utf8').replace(/^\uFEFF/, '');

describe('embedded backtest catalogs', () => {
  it('read back to the storms and quakes the public catalogs parse to', () => {
    const cat = loadCatalogs(CATALOGS);
    const storms = [
      ...parseNamedStorms(text(INPUTS.hurdatAtlantic), 'atlantic'),
      ...parseNamedStorms(text(INPUTS.hurdatPacific), 'pacific'),
    ];
    const quakes = [
      ...parseDatedCatalog(text(INPUTS.ceusCatalog), 'ceus'),
      ...parseDatedCatalog(text(INPUTS.wusCatalog), 'wus'),
    ];
    // Compared as JSON: a few fixes on the prime meridian parse to -0 ("0.0W"), which JSON writes as 0 (same value).
    const json = (xs: object[]) => xs.map((x) => JSON.stringify(x)).sort();
    expect(json(cat.storms.storms)).toEqual(json(storms));
    expect(json(cat.quakes.quakes)).toEqual(json(quakes));
    expect(cat.storms.storms.find((s) => s.id === 'AL041992')?.name).toBe('ANDREW');
    expect(cat.quakes.quakes.find((q) => q.id.startsWith('wus:1906-04-18'))?.magnitude).toBeGreaterThanOrEqual(7);
    expect(cat.span.atlantic).toEqual({ first: 1851, last: 2024 });
  });

  it('name the missing file and `make data` when a catalog is not installed', () => {
    const empty = tempDir();
    let err: unknown;
    try {
      loadCatalogs(empty);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CatintelError);
    expect((err as CatintelError).message).toContain(path.join(empty, 'storms.ndjson.gz'));
    expect((err as CatintelError).message).toContain('make data');
    expect((err as CatintelError).message).not.toContain('CATINTEL_SHARED_DATA');
  });

  it('back a CLI backtest with no shared data directory at all', async () => {
    const db = path.join(tempDir(), 'offline.duckdb');
    const store = await Store.open(db);
    const id = '00000000-0000-4000-8000-0000000000aa';
    await insertTrigger(store, {
      id,
      account: 'local',
      name: 'Miami 100 kt',
      peril: 'hurricane',
      lat: 25.76,
      lng: -80.19,
      radius_km: 50,
      threshold_type: 'wind_speed_kt',
      threshold_value: 100,
      alert_at_pct: 80,
      notes: null,
      status: 'active',
      created_at: '2022-01-01T00:00:00Z',
    });
    await store.close();
    // An installation without ../shared/data: the variable points nowhere, and the backtest must not care.
    const env = { CATINTEL_NOW: '2026-01-15T00:00:00Z', CATINTEL_SHARED_DATA: path.join(tempDir(), 'no-such-dir') };
    const r = await cli(['--db', db, '--json', 'trigger', 'backtest', id, '--since', '1900'], env);
    expect(r.code, r.stderr).toBe(0);
    const hits = r
      .json()
      .years.filter((y: any) => y.state === 'triggered')
      .map((y: any) => y.year);
    expect(hits).toEqual(expect.arrayContaining([1926, 1950, 1992]));
  });
});
