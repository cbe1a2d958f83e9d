/**
 * `catintel events diff EVENT --from V --to V --portfolio ID` and GET /events/{id}/diff: Ian 2022's b-deck
 * ingested at two fixes (--as-of, 19 and 1 hours before landfall), each ingest keeping a version; the diff
 * between them names both best-track versions and explains why a Lee County book's loss moved: the storm
 * moved toward the book and strengthened (fixes added, wind up, rings redrawn wider), and the book's loss band
 * at each version, run through the same loss engine as GET /portfolio/event-loss.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { testModels } from './helpers/model-packages.js';
import { sharedData } from './helpers/paths.js';
import { contextOn, platform } from './http/helpers/harness.js';
import { OED_LOCATION_HEADER, leeCountyRows } from './helpers/event-loss-books.js';

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER = OED_LOCATION_HEADER;
/** The ten Lee County homes of test/event-loss.test.ts. */
const LEE = leeCountyRows();
const FIRST = '2022-09-28T00:00:00Z';
const SECOND = '2022-09-28T18:00:00Z';

let db: string;
let models: string;
let portfolio: string;

beforeAll(async () => {
  models = await testModels('hurricane');
  const dir = tempDir('catintel-event-diff-');
  db = path.join(dir, 'ian.duckdb');
  for (const asOf of [FIRST, SECOND])
    expect((await cli(['--db', db, '--as-of', asOf, '--quiet', 'ingest', 'nhc', '--from', BDECK])).code).toBe(0);
  const file = path.join(dir, 'lee.csv');
  fs.writeFileSync(file, [HEADER, ...LEE].join('\n') + '\n');
  const r = await cli(['--db', db, '--as-of', SECOND, '--json', 'portfolio', 'import', file, '--name', 'Lee County']);
  expect(r.code, r.stderr).toBe(0);
  portfolio = r.json().id;
}, 900_000);

describe('events diff: Ian between two best-track versions, for a Lee County book', () => {
  let body: Record<string, any>;
  beforeAll(async () => {
    const r = await cli(
      [
        '--db',
        db,
        '--as-of',
        SECOND,
        '--json',
        'events',
        'diff',
        'al092022',
        '--from',
        '1',
        '--to',
        '2',
        '--portfolio',
        portfolio,
        '--members',
        '10',
      ],
      { CATINTEL_MODELS: models },
    );
    expect(r.code, r.stderr).toBe(0);
    body = r.json();
    console.log(
      `Ian diff: moved ${body.position.moved_km} km, wind ${body.intensity.wind_kt_change} kt; Lee gul mean ${body.portfolio.from.gul.MeanLossAmt} -> ${body.portfolio.to.gul.MeanLossAmt}, P10-P90 ${body.portfolio.from.gul.P10LossAmt}-${body.portfolio.from.gul.P90LossAmt} -> ${body.portfolio.to.gul.P10LossAmt}-${body.portfolio.to.gul.P90LossAmt}`,
    );
  }, 600_000);

  it('names the two product versions', () => {
    expect(body.from).toMatchObject({
      version: 1,
      stored_at: FIRST,
      product_version: 'best track through 2022-09-28T00:00:00Z (23 fixes)',
    });
    expect(body.to).toMatchObject({
      version: 2,
      stored_at: SECOND,
      product_version: 'best track through 2022-09-28T18:00:00Z (27 fixes)',
    });
    expect(body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
  });

  it('says what moved: the track toward the book, the intensity up, the fixes added, the wind rings redrawn wider', () => {
    expect(body.position.to).toMatchObject({ lat: 26.6, lng: -82.4, at: SECOND });
    expect(body.position.moved_km).toBeGreaterThan(200);
    expect(body.intensity).toMatchObject({ wind_kt_change: 30, pressure_mb_change: -9 });
    expect(body.fixes.added).toEqual(['2022-09-28T02:00:00Z', '2022-09-28T06:00:00Z', '2022-09-28T12:00:00Z', SECOND]);
    const r64 = body.rings.redrawn.find((r: { threshold: number }) => r.threshold === 64);
    expect(r64.radius_km).toBeGreaterThan(r64.radius_km_from);
  });

  it("explains the change in the book's loss: each version's band through the loss engine, and the difference", () => {
    const p = body.portfolio;
    expect(p.from.footprint.version).toBe(body.from.product_version);
    expect(p.to.footprint.version).toBe(body.to.product_version);
    expect(p.to.gul.MeanLossAmt).toBeGreaterThan(p.from.gul.MeanLossAmt);
    expect(p.change.gul.MeanLossAmt).toBeCloseTo(p.to.gul.MeanLossAmt - p.from.gul.MeanLossAmt, 1);
    expect(p.change.gul.P90LossAmt).toBeCloseTo(p.to.gul.P90LossAmt - p.from.gul.P90LossAmt, 1);
    // 19 hours out the observed track alone has not reached the book; an hour out it has.
    expect(p.from.gul.ObservedSoFarLossAmt).toBe(0);
    expect(p.to.gul.ObservedSoFarLossAmt).toBeGreaterThan(0);
    expect(p.to.TIVInFootprintAmt).toBe(5_000_000);
  });

  it('over HTTP: the same diff (agency); an unknown version is a 400 listing the versions', async () => {
    const store = await Store.open(db);
    try {
      const ctx = {
        ...contextOn(store),
        clock: () => new Date(SECOND),
        config: defaultConfig({ dbPath: db, env: { CATINTEL_MODELS: models } }),
      };
      const p = await platform(store, { ctx });
      const r = await p.call(`/api/v1/events/al092022/diff?from=1&to=2`, { token: p.adminToken });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        from: body.from,
        to: body.to,
        position: body.position,
        intensity: body.intensity,
      });
      const bad = await p.call(`/api/v1/events/al092022/diff?from=1&to=7`, { token: p.adminToken });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/no version 7; its versions: 1 \(best track/);
    } finally {
      await store.close();
    }
  }, 300_000);
});
