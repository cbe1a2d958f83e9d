/**
 * `portfolio.loss` on the event stream: Ian's b-deck ingested into a store holding a Lee County book, at two
 * fixes (7 and 1 hours before landfall; 19 hours out its rings do not yet reach the book) as `catintel serve` would take them, its change feed refreshed
 * after each. Each ingest stores a new version of the storm; the feed hands it to the background loss queue,
 * which recomputes the book's band on that version and pushes it to the book's account only, naming the
 * version used, with the change from the last version's band.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../src/ingest/run.js';
import { nhc } from '../src/sources/nhc.js';
import { Store } from '../src/store/db.js';
import type { Change } from '../src/stream/messages.js';
import { cli, tempDir } from './helpers/cli.js';
import { testModels } from './helpers/model-packages.js';
import { sharedData } from './helpers/paths.js';
import { replayedFeed } from './helpers/replayed-feed.js';
import { OED_LOCATION_HEADER, leeCountyRows } from './helpers/event-loss-books.js';

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER = OED_LOCATION_HEADER;
/** Four of the Lee County homes of test/event-loss.test.ts. */
const LEE = leeCountyRows(['CC1', 'FM1', 'FMB', 'EST']);
const FIRST = '2022-09-28T12:00:00Z';
const SECOND = '2022-09-28T18:00:00Z';

describe('portfolio.loss on /events/stream', () => {
  const got: Change[] = [];
  let portfolio: string;
  let account: string;
  beforeAll(async () => {
    const models = await testModels('hurricane');
    const dir = tempDir('catintel-loss-stream-');
    const file = path.join(dir, 'lee.csv');
    fs.writeFileSync(file, [HEADER, ...LEE].join('\n') + '\n');
    const dbPath = path.join(dir, 'store.duckdb');
    const r = await cli(['--db', dbPath, '--as-of', FIRST, '--json', 'portfolio', 'import', file, '--name', 'Lee']);
    expect(r.code, r.stderr).toBe(0);
    portfolio = r.json().id;
    const db = await Store.open(dbPath);
    account = (await db.all<{ account: string }>('SELECT account FROM portfolios'))[0].account;
    const { ctx, feed, setClock, close } = await replayedFeed(db, {
      dbPath,
      at: FIRST,
      env: { CATINTEL_MODELS: models },
      into: got,
    });
    try {
      for (const at of [FIRST, SECOND]) {
        setClock(at);
        await ingestSource(ctx, nhc, BDECK);
        await feed.refresh(); // what `catintel serve` does after every store change
        await feed.losses.idle();
      }
    } finally {
      await close();
    }
  }, 900_000);

  it('each new version of Ian pushes the book its band, with the version used and the delta from the last', () => {
    const losses = got.filter((c) => c.body.type === 'portfolio.loss').map((c) => ({ ...c, body: c.body as any }));
    console.log(losses.map((l) => JSON.stringify(l.body)).join('\n'));
    expect(losses).toHaveLength(2);
    const [a, b] = losses;
    for (const l of losses) {
      expect(l.account).toBe(account); // the book's account's streams only
      expect(l.subject).toBeUndefined();
      expect(l.body).toMatchObject({ portfolio_id: portfolio, name: 'Lee', members: 20, samples: 10, CurCd: 'USD' });
      expect(l.body.source).toBe('nhc');
    }
    expect(a.body).toMatchObject({
      version: 1,
      product_version: 'best track through 2022-09-28T12:00:00Z (26 fixes)',
      previous: null,
      delta: null,
    });
    expect(a.body.footprint.version).toBe(a.body.product_version);
    expect(b.body).toMatchObject({ version: 2, product_version: 'best track through 2022-09-28T18:00:00Z (27 fixes)' });
    expect(b.body.previous).toEqual({
      version: 1,
      product_version: a.body.product_version,
      TIVInFootprintAmt: a.body.TIVInFootprintAmt,
      gul: a.body.gul,
    });
    for (const k of ['MeanLossAmt', 'P10LossAmt', 'P50LossAmt', 'P90LossAmt'])
      expect(b.body.delta.gul[k]).toBeCloseTo(b.body.gul[k] - a.body.gul[k], 1);
    // Ian came ashore at the book between the two: its loss rose.
    expect(b.body.delta.gul.MeanLossAmt).toBeGreaterThan(0);
    expect(b.seq).toBeGreaterThan(a.seq);
  });
});
