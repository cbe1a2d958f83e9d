/**
 * Issue 7 item 14: GET /risk/score on the free tier without `perils` scores the peril a place is known for,
 * picked by expected annual damage ratio (scores of different perils are not comparable), and says why.
 * Answers are checked against openapi.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../src/store/db.js';
import { platform, type Platform } from './http/helpers/harness.js';

describe('free tier default peril (HTTP)', () => {
  let db: Store;
  let p: Platform;
  beforeAll(async () => {
    db = await Store.open(':memory:');
    p = await platform(db, { rateLimit: 'off' });
  });
  afterAll(async () => {
    await p.close();
    await db.close();
  });

  it.each([
    ['Miami', 25.77, -80.19, 'hurricane_wind'],
    ['San Francisco', 37.77, -122.42, 'earthquake'],
    ['Oklahoma City', 35.47, -97.52, 'tornado'],
  ])('%s gets %s, with the reason', async (_name, lat, lng, peril) => {
    const r = await p.call(`/api/v1/risk/score?lat=${lat}&lng=${lng}`);
    expect(r.status).toBe(200);
    expect(r.body.perils.map((x: { peril: string }) => x.peril)).toEqual([peril]);
    expect(r.body.peril_selection.peril).toBe(peril);
    expect(r.body.peril_selection.reason).toMatch(/highest expected annual damage ratio here/);
    expect(r.body.perils[0].score_components.vulnerability.expected_annual_damage_ratio).toBeGreaterThan(0);
  });
});
