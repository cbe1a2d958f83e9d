/**
 * Enumerated parameters (issue 7, item 6): a 400 says which values are allowed, over HTTP as on the
 * CLI, and the event_type names are accepted wherever a peril is named (docs/contract.md#peril-names).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreBulk } from '../../src/handlers/score-bulk.js';
import type { Store } from '../../src/store/db.js';
import { cli } from '../helpers/cli.js';
import { platform, seededStore, token, type Platform } from './helpers/harness.js';

let db: Store;
let p: Platform;
beforeAll(async () => {
  db = await seededStore();
  p = await platform(db);
});
afterAll(() => db.close());

const MIAMI = 'lat=25.77&lng=-80.19';

describe('a 400 for an enumerated parameter lists the allowed values', () => {
  it.each([
    [`/api/v1/risk/score?${MIAMI}&scenario=ssp999`, 'scenario', '"ssp999" is not one of baseline, ssp245, ssp585'],
    [`/api/v1/risk/score?${MIAMI}&scenario=baseline&horizon=2040`, 'horizon', '"2040" is not one of 2030, 2050, 2080'],
    [`/api/v1/risk/score?${MIAMI}&format=xml`, 'format', '"xml" is not one of json, oasis'],
    [
      `/api/v1/risk/score?${MIAMI}&perils=hail`,
      'perils',
      '"hail" is not one of hurricane_wind, storm_surge, earthquake, tornado, wildfire, riverine_flood, extreme_heat, drought, winter_storm, hurricane, flood',
    ],
    [
      '/api/v1/events/live?event_type=earthquake,meteor',
      'event_type',
      '"meteor" is not one of earthquake, hurricane, wildfire, flood, tornado, severe_storm, winter_storm, extreme_heat, tsunami, volcano',
    ],
    ['/api/v1/events/live?status=ended', 'status', '"ended" is not one of active, monitoring'],
    ['/api/v1/admin/keys?include_revoked=maybe', 'include_revoked', '"maybe" is not one of true, false'],
  ])('%s', async (url, field, message) => {
    const r = await p.call(url, url.includes('/admin/') ? { token: p.adminToken } : {});
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_parameter');
    expect(r.body.errors).toEqual([{ field, message }]);
    expect(r.body.detail).toBe(`${field}: ${message}`);
  });

  it('names each bad item of a comma list once, and a list given twice', async () => {
    const r = await p.call('/api/v1/events/live?event_type=meteor,earthquake,comet');
    expect(r.body.errors.map((e: { message: string }) => e.message.split(' ')[0])).toEqual(['"meteor"', '"comet"']);
    const twice = await p.call('/api/v1/events/live?event_type=earthquake&event_type=flood');
    expect(twice.body.errors).toEqual([{ field: 'event_type', message: 'give it once (a comma list)' }]);
  });

  it('the CLI says the same of the same values', async () => {
    const r = await cli(['score', 'point', '--lat', '25.77', '--lng', '-80.19', '--scenario', 'ssp999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/scenario: "ssp999" is not one of baseline, ssp245, ssp585/);
  });
});

describe('event types name perils (docs/contract.md#peril-names)', () => {
  it('perils=hurricane scores hurricane_wind and flood scores riverine_flood, over HTTP', async () => {
    const free = await p.call(`/api/v1/risk/score?${MIAMI}&perils=hurricane`);
    expect(free.status).toBe(200);
    expect(free.body.perils.map((x: { peril: string }) => x.peril)).toEqual(['hurricane_wind']);
    // An alias and its peril are one peril: the free tier's one-peril rule is not tripped.
    const same = await p.call(`/api/v1/risk/score?${MIAMI}&perils=hurricane,hurricane_wind`);
    expect(same.status).toBe(200);
    const analyst = await p.call(`/api/v1/risk/score?${MIAMI}&perils=flood,hurricane`, {
      token: await token('analyst'),
    });
    expect(analyst.body.perils.map((x: { peril: string }) => x.peril).sort()).toEqual([
      'hurricane_wind',
      'riverine_flood',
    ]);
  });

  it('and on the CLI; an event type with no hazard score is refused with the accepted names', async () => {
    const r = await cli(['--json', 'score', 'point', '--lat', '25.77', '--lng', '-80.19', '--perils', 'hurricane']);
    expect(r.code).toBe(0);
    expect(r.json().perils.map((x: { peril: string }) => x.peril)).toEqual(['hurricane_wind']);
    // Bulk scoring reads --perils the same way.
    expect(
      scoreBulk.parse(
        { input: 'book.csv', out: 'out', perils: 'flood,hurricane' },
        { tier: 'enterprise', account: 'local' },
      ).perils,
    ).toEqual(['riverine_flood', 'hurricane_wind']);
    const bad = await cli(['score', 'point', '--lat', '25.77', '--lng', '-80.19', '--perils', 'tsunami']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /perils: "tsunami" is not one of hurricane_wind, .*winter_storm \(or hurricane for hurricane_wind, flood for riverine_flood\)/,
    );
  });
});
