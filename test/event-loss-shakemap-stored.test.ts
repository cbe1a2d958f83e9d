/**
 * The ShakeMap grid kept at ingest runs an earthquake's live loss (docs/event-loss.md "Earthquake"): Loma
 * Prieta's USGS feed ingested alone (the model's ground motion, as before any ShakeMap), then again with its
 * ShakeMap grid.xml (PGA and STDPGA). Afterwards `portfolio event-loss` without --shakemap, GET
 * /portfolio/event-loss and the stream's `portfolio.loss` run on the stored grid and name its version; the
 * band is the one the CLI gives reading the same grid.xml file; the version stored before the ShakeMap still
 * runs on the model's ground motion.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import { sourceModuleFor } from '../src/handlers/ingest.js';
import { ingestSource } from '../src/ingest/run.js';
import { readShakeMapFile } from '../src/sources/shakemap.js';
import { Store } from '../src/store/db.js';
import type { Change } from '../src/stream/messages.js';
import { cli, tempDir } from './helpers/cli.js';
import { EARTHQUAKE_TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { FIXTURES, sharedData } from './helpers/paths.js';
import { replayedFeed } from './helpers/replayed-feed.js';
import { contextOn, platform } from './http/helpers/harness.js';
import { OED_LOCATION_HEADER, bayAreaRows } from './helpers/event-loss-books.js';

const GRID = sharedData('hazard_history/earthquakes/shakemap/lomaprieta1989_grid.xml');
const FEED = path.join(FIXTURES, 'feeds/usgs/nc216859_lomaprieta1989.geojson');
const HEADER = OED_LOCATION_HEADER;
/** The eight Bay Area wood homes of test/event-loss.test.ts. */
const BAY = bayAreaRows();
/** The origin is 00:04 UTC: the feed alone at 00:50, the ShakeMap at 03:00. */
const FEED_AT = '1989-10-18T00:50:00Z';
const SHAKEMAP_AT = '1989-10-18T03:00:00Z';
const SHAKEMAP_VERSION = 'ShakeMap grid.xml version 1 processed 2014-10-25T13:28:48Z';
const RUN = ['--samples', '10'];

let models: string;
let db: string;
let portfolio: string;
const streamed: Change[] = [];

beforeAll(async () => {
  models = await testModels('earthquake', { years: EARTHQUAKE_TEST_PACKAGE_YEARS });
  const dir = tempDir('catintel-shakemap-stored-');
  db = path.join(dir, 'loma.duckdb');
  const file = path.join(dir, 'bay.csv');
  fs.writeFileSync(file, [HEADER, ...BAY].join('\n') + '\n');
  const r = await cli(['--db', db, '--as-of', FEED_AT, '--json', 'portfolio', 'import', file, '--name', 'Bay']);
  expect(r.code, r.stderr).toBe(0);
  portfolio = r.json().id;
  // The two ingests as `catintel serve` takes them, the change feed refreshed after each (its loss queue runs the book).
  const store = await Store.open(db);
  const { ctx, feed, setClock, close } = await replayedFeed(store, {
    dbPath: db,
    at: FEED_AT,
    env: { CATINTEL_MODELS: models },
    into: streamed,
  });
  try {
    await ingestSource(ctx, await sourceModuleFor(ctx, 'usgs-earthquakes'), FEED);
    await feed.refresh();
    await feed.losses.idle();
    setClock(SHAKEMAP_AT);
    const shakemap = { map: await readShakeMapFile(GRID), name: GRID };
    await ingestSource(ctx, await sourceModuleFor(ctx, 'usgs-earthquakes', shakemap), FEED);
    await feed.refresh();
    await feed.losses.idle();
  } finally {
    await close();
  }
}, 900_000);

const eventLoss = async (...extra: string[]) => {
  const r = await cli(
    [
      '--db',
      db,
      '--as-of',
      SHAKEMAP_AT,
      '--json',
      'portfolio',
      'event-loss',
      portfolio,
      '--event',
      'nc216859',
      ...RUN,
      ...extra,
    ],
    { CATINTEL_MODELS: models },
  );
  expect(r.code, r.stderr).toBe(0);
  return r.json();
};

describe('Loma Prieta: the ShakeMap grid kept at ingest makes the live loss', () => {
  it('portfolio event-loss without --shakemap runs on the stored grid, names its version, and gives what the grid.xml file gives', async () => {
    const stored = await eventLoss();
    const given = await eventLoss('--shakemap', GRID);
    console.log(
      `Loma Prieta, stored grid: ${stored.footprint.version}, gul mean ${stored.gul.MeanLossAmt} P10 ${stored.gul.P10LossAmt} P90 ${stored.gul.P90LossAmt}`,
    );
    expect(stored.footprint).toMatchObject({ kind: 'shakemap', version: SHAKEMAP_VERSION, members: 1 });
    expect(stored.gul).toEqual(given.gul);
    expect(stored.TIVInFootprintAmt).toBe(given.TIVInFootprintAmt);
    expect(stored.method).toMatch(/ShakeMap grid.xml version 1 processed 2014-10-25T13:28:48Z PGA with its STDPGA/);
  }, 300_000);

  it('GET /portfolio/event-loss runs on it too', async () => {
    const store = await Store.open(db);
    try {
      const ctx = {
        ...contextOn(store),
        clock: () => new Date(SHAKEMAP_AT),
        config: defaultConfig({ dbPath: db, env: { CATINTEL_MODELS: models } }),
      };
      const p = await platform(store, { ctx });
      const reply = await p.call(
        `/api/v1/portfolio/event-loss?portfolio_id=${portfolio}&event_id=nc216859&samples=10`,
        {
          token: p.adminToken,
        },
      );
      expect(reply.status).toBe(200);
      expect(reply.body.footprint).toMatchObject({ kind: 'shakemap', version: SHAKEMAP_VERSION });
      expect(reply.body.gul).toEqual((await eventLoss()).gul);
    } finally {
      await store.close();
    }
  }, 300_000);

  it('each stored version runs on the grid it had: the feed alone on the model ground motion, the ShakeMap version on the grid', async () => {
    const body = await eventLoss('--over-versions');
    expect(body.versions.map((v: any) => [v.version, v.footprint.kind])).toEqual([
      [1, 'ground_motion_model'],
      [2, 'shakemap'],
    ]);
    expect(body.versions[1].footprint.version).toBe(SHAKEMAP_VERSION);
    // Before the grid was stored the answer is the model's, as it was then.
    const before = await cli(
      ['--db', db, '--as-of', FEED_AT, '--json', 'portfolio', 'event-loss', portfolio, '--event', 'nc216859', ...RUN],
      { CATINTEL_MODELS: models },
    );
    expect(before.code, before.stderr).toBe(0);
    expect(before.json().footprint.kind).toBe('ground_motion_model');
  }, 300_000);

  it("the stream's portfolio.loss for the ShakeMap's version runs on the grid and names it", () => {
    const losses = streamed.filter((c) => c.body.type === 'portfolio.loss').map((c) => c.body as any);
    expect(losses.map((l) => [l.version, l.footprint.kind])).toEqual([
      [1, 'ground_motion_model'],
      [2, 'shakemap'],
    ]);
    expect(losses[1].footprint.version).toBe(SHAKEMAP_VERSION);
    expect(losses[1].previous.version).toBe(1);
  });
});
