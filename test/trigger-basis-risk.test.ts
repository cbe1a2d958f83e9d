/**
 * A trigger's basis risk against a book (docs/basis-risk.md): `catintel trigger basis-risk` for the Fort
 * Myers 100-kt trigger against a small Lee County book over the shared 100-year hurricane test package,
 * checked against a count done by hand: the package's catalog rebuilt from its manifest and each track run
 * through the live rule's evaluate() (does the trigger fire?), the book's loss of each event from the
 * kernel checked against the book's AAL from `portfolio ep-curve`, and hits, misses and false alarms counted
 * from those. Also the HTTP answer, the refusals and the 404 of another account.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import { buildHurricaneTrackSet } from '../src/models/hurricane/track-set.js';
import { Store } from '../src/store/db.js';
import { evaluate } from '../src/triggers/domain/rules.js';
import { baselineRingOptions } from '../src/reference-data/ring-options.js';
import { cli, tempDir } from './helpers/cli.js';
import { TEST_PACKAGE_SEED, TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { SHARED_DATA } from './helpers/paths.js';
import { contextOn, platform, token } from './http/helpers/harness.js';
import { OED_LOCATION_HEADER, leeCountyRows } from './helpers/event-loss-books.js';

const HEADER = OED_LOCATION_HEADER;
/** Ten masonry homes across Lee County, Florida, $500k each (as test/event-loss.test.ts). */
const LEE = leeCountyRows();
const FORT_MYERS = { lat: 26.64, lng: -81.87, radius_km: 50, threshold_type: 'wind_speed_kt', threshold_value: 100 };
/** A level that one paying event reaches, one paying event misses and one event reaches without paying. */
const LEVEL = 600_000;
const NOW = '2022-09-20T00:00:00Z';

let dir: string;
let db: string;
let env: Record<string, string>;
let portfolio: string;
let trigger: string;
let body: Record<string, any>;

beforeAll(async () => {
  dir = tempDir('catintel-basis-risk-');
  env = { CATINTEL_MODELS: await testModels('hurricane'), CATINTEL_NOW: NOW };
  db = path.join(dir, 'br.duckdb');
  const file = path.join(dir, 'lee.csv');
  fs.writeFileSync(file, [HEADER, ...LEE].join('\n') + '\n');
  const imported = await cli(['--db', db, '--json', 'portfolio', 'import', file, '--name', 'Lee County'], env);
  expect(imported.code, imported.stderr).toBe(0);
  portfolio = imported.json().id;
  const created = await cli(
    [
      '--db',
      db,
      '--json',
      'trigger',
      'create',
      '--name',
      'Fort Myers 100 kt',
      '--peril',
      'hurricane',
      '--lat',
      String(FORT_MYERS.lat),
      '--lng',
      String(FORT_MYERS.lng),
      '--radius-km',
      '50',
      '--threshold-type',
      'wind_speed_kt',
      '--threshold-value',
      '100',
    ],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  trigger = created.json().id;
  const r = await cli(
    ['--db', db, '--json', 'trigger', 'basis-risk', trigger, '--portfolio', portfolio, '--loss-level', String(LEVEL)],
    env,
  );
  expect(r.code, r.stderr).toBe(0);
  body = r.json();
}, 900_000);

describe('basis risk of the Fort Myers trigger against a Lee County book (100-year test package)', () => {
  it('counts hits, misses and false alarms as a count by hand over the catalog does', async () => {
    // By hand: the package's catalog rebuilt from its manifest, each track given to the live rule as a storm's fixes.
    const set = buildHurricaneTrackSet({ dataDir: SHARED_DATA, years: TEST_PACKAGE_YEARS, seed: TEST_PACKAGE_SEED });
    expect(body.catalog).toEqual({
      package: 'hurricane',
      years: TEST_PACKAGE_YEARS,
      seed: TEST_PACKAGE_SEED,
      events: set.tracks.length,
      events_read_by_trigger: expect.any(Number),
    });
    const scale = baselineRingOptions().hurricaneRadiusScale!();
    const fires = new Set<number>();
    for (const t of set.tracks) {
      const fixes = t.fixes.map((f) => ({
        at: new Date(Date.UTC(2000, 0, 1) + Math.round(f.hours * 3_600_000)).toISOString(),
        lat: f.lat,
        lng: f.lng,
        windKt: f.windKt,
        pressureMb: f.pressureMb,
        rmwNm: f.rmwKm / 1.852,
      }));
      const ev = evaluate(
        { ...FORT_MYERS, threshold_type: 'wind_speed_kt', alert_at_pct: 80 },
        {
          kind: 'track',
          radius_scale: scale,
          fixes,
        },
      );
      if (ev.state === 'triggered') fires.add(t.eventId);
    }
    expect(fires.size).toBeGreaterThan(0);
    const events: Array<{ event_id: number; pays: boolean; LossAmt: number }> = body.events;
    expect(new Set(events.filter((e) => e.pays).map((e) => e.event_id))).toEqual(fires);

    // The losses are the kernel's: occurrence-weighted, they make the book's AAL of `portfolio ep-curve`.
    const ep = await cli(['--db', db, '--json', 'portfolio', 'ep-curve', portfolio, '--samples', '0'], env);
    expect(ep.code, ep.stderr).toBe(0);
    const occurrences = new Map<number, number>();
    for (const o of set.occurrences) occurrences.set(o.eventId, (occurrences.get(o.eventId) ?? 0) + 1);
    const aal = events.reduce((s, e) => s + e.LossAmt * (occurrences.get(e.event_id) ?? 0), 0) / TEST_PACKAGE_YEARS;
    expect(aal).toBeCloseTo(ep.json().AALAmt, -1);

    const loss = new Map(events.map((e) => [e.event_id, e.LossAmt]));
    const count = (paying: Set<number>, level: number) => {
      let hits = 0;
      let misses = 0;
      let falseAlarms = 0;
      for (const t of set.tracks) {
        const l = loss.get(t.eventId) ?? 0;
        if (paying.has(t.eventId) && l >= level) hits++;
        else if (l >= level) misses++;
        else if (paying.has(t.eventId)) falseAlarms++;
      }
      return { hits, misses, false_alarms: falseAlarms };
    };
    const hand = count(fires, LEVEL);
    // The level was chosen so that all three happen.
    expect(hand.hits).toBeGreaterThan(0);
    expect(hand.misses).toBeGreaterThan(0);
    expect(hand.false_alarms).toBeGreaterThan(0);
    expect(body.loss_level).toEqual({ LossAmt: LEVEL, from: 'given', return_period_years: null });
    expect(body.at_threshold).toMatchObject({
      threshold: 100,
      ...hand,
      hit_rate: Number((hand.hits / (hand.hits + hand.misses)).toFixed(4)),
      miss_rate: Number((hand.misses / (hand.hits + hand.misses)).toFixed(4)),
      false_alarm_rate: Number((hand.false_alarms / (hand.hits + hand.false_alarms)).toFixed(4)),
    });
    // The sweep at the trigger's own threshold is the answer's; every row's counts add up to the same loss events.
    const own = body.sweep.find((r: any) => r.threshold === 100);
    expect(own).toEqual(body.at_threshold);
    for (const r of body.sweep) expect(r.hits + r.misses).toBe(hand.hits + hand.misses);
    // Lower thresholds pay at least as often.
    for (let i = 1; i < body.sweep.length; i++)
      expect(body.sweep[i].hits + body.sweep[i].false_alarms).toBeLessThanOrEqual(
        body.sweep[i - 1].hits + body.sweep[i - 1].false_alarms,
      );
    const errors = (r: any) => r.misses + r.false_alarms;
    expect(errors(body.best_threshold)).toBe(Math.min(...body.sweep.map(errors)));
    console.log(
      `Fort Myers 100 kt vs Lee County at $${LEVEL}: hits ${hand.hits}, misses ${hand.misses}, false alarms ${hand.false_alarms}; correlation ${body.payout_loss_correlation}; best threshold ${body.best_threshold.threshold} kt (${errors(body.best_threshold)} misses and false alarms)`,
    );
  });

  it('with --history counts the same way over the HURDAT2 storms run through the same footprint and kernel: Ian pays', async () => {
    expect(body.history).toBeNull();
    const r = await cli(
      [
        '--db',
        db,
        '--json',
        'trigger',
        'basis-risk',
        trigger,
        '--portfolio',
        portfolio,
        '--loss-level',
        String(LEVEL),
        '--history',
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const h = r.json().history;
    expect(h).toMatchObject({ first_year: 1900, last_year: 2024, years: 125 });
    const ian = h.events.find((e: any) => e.storm_id === 'AL092022');
    expect(ian.pays).toBe(true);
    expect(ian.value).toBeGreaterThan(100);
    expect(ian.LossAmt).toBeGreaterThan(LEVEL);
    // By hand from the storms listed (every storm that read a value or cost the book anything).
    const hits = h.events.filter((e: any) => e.pays && e.LossAmt >= LEVEL).length;
    const misses = h.events.filter((e: any) => !e.pays && e.LossAmt >= LEVEL).length;
    const falseAlarms = h.events.filter((e: any) => e.pays && e.LossAmt < LEVEL).length;
    expect(h.at_threshold).toMatchObject({ hits, misses, false_alarms: falseAlarms });
    console.log(
      `over the record (${h.storms} storms): hits ${hits}, misses ${misses}, false alarms ${falseAlarms}; correlation ${h.payout_loss_correlation}; worst ${h.events
        .slice(0, 5)
        .map((e: any) => `${e.storm_id} ${e.value} kt $${e.LossAmt}`)
        .join(', ')}`,
    );
  }, 600_000);

  it('gives the level as the book OEP loss at a return period when asked, and refuses bad input in one line', async () => {
    const rp = await cli(
      ['--db', db, '--json', 'trigger', 'basis-risk', trigger, '--portfolio', portfolio, '--loss-return-period', '20'],
      env,
    );
    expect(rp.code, rp.stderr).toBe(0);
    expect(rp.json().loss_level).toMatchObject({ from: 'oep_return_period', return_period_years: 20 });
    expect(rp.json().loss_level.LossAmt).toBeGreaterThan(0);
    const both = await cli(
      [
        '--db',
        db,
        'trigger',
        'basis-risk',
        trigger,
        '--portfolio',
        portfolio,
        '--loss-level',
        '1',
        '--loss-return-period',
        '5',
      ],
      env,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/loss_level or loss_return_period, not both/);
    const tooLong = await cli(
      ['--db', db, 'trigger', 'basis-risk', trigger, '--portfolio', portfolio, '--loss-return-period', '500'],
      env,
    );
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toMatch(/500 years is longer than the 100 years/);
    const noBook = await cli(['--db', db, 'trigger', 'basis-risk', trigger], env);
    expect(noBook.code).toBe(2);
    expect(noBook.stderr).toMatch(/--portfolio ID is required/);
  });

  it('HTTP gives what the CLI gives; another account is 404', async () => {
    const store = await Store.open(db);
    try {
      const ctx = {
        ...contextOn(store),
        clock: () => new Date(NOW),
        config: defaultConfig({ dbPath: db, env: { CATINTEL_MODELS: env.CATINTEL_MODELS } }),
      };
      const p = await platform(store, { ctx });
      const q = `/api/v1/triggers/${trigger}/basis-risk?portfolio_id=${portfolio}&loss_level=${LEVEL}`;
      const reply = await p.call(q, { token: p.adminToken });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body).toEqual(body);
      const other = await p.call(q, { token: await token('enterprise', { sub: 'someone-else@example.com' }) });
      expect(other.status).toBe(404);
    } finally {
      await store.close();
    }
  });
});
