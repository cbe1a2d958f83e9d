import { describe, expect, it } from 'vitest';
import type { Context } from '../context.js';
import { CatintelError } from '../errors.js';
import type { OasisPointBody } from '../oed/point.js';
import { parseScorePoint, riskScore, type ScorePointBody } from './score-point.js';
import type { Caller } from './types.js';

const free: Caller = { tier: 'free', account: 'anon' };
const analyst: Caller = { tier: 'analyst', account: 'acme' };
const enterprise: Caller = { tier: 'enterprise', account: 'acme' };
const ctx = {} as Context; // the handler reads the embedded baseline, not the store

async function call(raw: Record<string, unknown>, caller: Caller) {
  return riskScore.run(ctx, riskScore.parse(raw, caller), caller);
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof CatintelError ? e.code : 'not a CatintelError';
  }
  return undefined;
}

describe('risk.score handler', () => {
  it('gives paid tiers all nine perils', async () => {
    const r = await call({ lat: '25.77', lng: '-80.19' }, analyst);
    expect(r.body.perils).toHaveLength(9);
    expect(r.body.scenario).toBe('baseline');
    expect(r.body.horizon).toBeNull();
  });

  it('gives the free tier the peril a place is known for when none is named, and says why', async () => {
    // Picked by score alone, Miami got riverine flood and San Francisco drought (NRI state-relative scores run high).
    const picks: [string, string, string][] = [
      ['25.77', '-80.19', 'hurricane_wind'], // Miami
      ['37.77', '-122.42', 'earthquake'], // San Francisco
      ['34.05', '-118.24', 'earthquake'], // Los Angeles
      ['35.47', '-97.52', 'tornado'], // Oklahoma City
      ['29.95', '-90.07', 'hurricane_wind'], // New Orleans
      ['39.76', '-121.62', 'wildfire'], // Paradise, CA
    ];
    for (const [lat, lng, peril] of picks) {
      const r = await call({ lat, lng }, free);
      const body = r.body as ScorePointBody;
      expect(
        body.perils.map((p) => p.peril),
        `${lat},${lng}`,
      ).toEqual([peril]);
      expect(body.peril_selection).toMatchObject({ rule: 'highest_expected_annual_damage_ratio', peril });
      expect(body.peril_selection!.reason).toMatch(
        new RegExp(`^${peril} has the highest expected annual damage ratio here`),
      );
      const ratios = body.peril_selection!.candidates.map((c) => c.expected_annual_damage_ratio ?? -1);
      expect([...ratios].sort((a, b) => b - a)).toEqual(ratios);
      const inComponents = body.perils[0].score_components.vulnerability.expected_annual_damage_ratio!;
      expect(
        Math.abs(inComponents / body.peril_selection!.candidates[0].expected_annual_damage_ratio! - 1),
      ).toBeLessThan(0.01);
    }
    // Only the free default carries peril_selection: a named peril or a paid tier does not.
    expect((await call({ lat: '25.77', lng: '-80.19', perils: 'tornado' }, free)).body).not.toHaveProperty(
      'peril_selection',
    );
    expect((await call({ lat: '25.77', lng: '-80.19' }, analyst)).body).not.toHaveProperty('peril_selection');
  });

  it('refuses more than one peril on the free tier (403 insufficient_tier)', () => {
    expect(codeOf(() => parseScorePoint({ lat: '25', lng: '-80', perils: 'hurricane_wind,tornado' }, true))).toBe(
      'insufficient_tier',
    );
    expect(codeOf(() => parseScorePoint({ lat: '25', lng: '-80', perils: 'tornado' }, true))).toBeUndefined();
  });

  it('defaults the SSP horizon to 2050 and validates parameters with their names', () => {
    expect(parseScorePoint({ lat: '25', lng: '-80', scenario: 'ssp245' }, false).horizon).toBe(2050);
    expect(codeOf(() => parseScorePoint({ lat: '95', lng: '-80' }, false))).toBe('invalid_parameter');
    expect(codeOf(() => parseScorePoint({ lat: '25', lng: '-80', perils: 'volcano' }, false))).toBe(
      'invalid_parameter',
    );
    expect(codeOf(() => parseScorePoint({ lat: '25', lng: '-80', scenario: 'ssp370' }, false))).toBe(
      'invalid_parameter',
    );
    expect(codeOf(() => parseScorePoint({ lat: '25', lng: '-80', scenario: 'ssp585', horizon: '2100' }, false))).toBe(
      'invalid_parameter',
    );
  });

  it('format=oasis (enterprise): the OED location row and one keys row per scored peril with an OED code', async () => {
    const r = await call(
      {
        lat: '25.77',
        lng: '-80.19',
        format: 'oasis',
        perils: 'hurricane_wind,extreme_heat,earthquake',
        scenario: 'ssp245',
      },
      enterprise,
    );
    const body = r.body as OasisPointBody;
    expect(body).toMatchObject({
      format: 'oasis',
      oed_version: '5.0.0',
      scenario: 'ssp245',
      horizon: 2050,
      keys_errors: [],
    });
    const json = (
      await call(
        { lat: '25.77', lng: '-80.19', perils: 'hurricane_wind,extreme_heat,earthquake', scenario: 'ssp245' },
        enterprise,
      )
    ).body as ScorePointBody;
    const score = (p: string) => json.perils.find((x) => x.peril === p)!.score;
    expect(body.location).toEqual([
      {
        PortNumber: 'catintel',
        AccNumber: 'risk-score',
        LocNumber: '1',
        CountryCode: 'US',
        Latitude: 25.77,
        Longitude: -80.19,
        LocPerilsCovered: 'WTC;QEQ',
        LocCurrency: 'USD',
        BuildingTIV: 0,
        OEDVersion: '5.0.0',
        FlexiLocScoreHurricaneWind: score('hurricane_wind'),
        FlexiLocScoreExtremeHeat: score('extreme_heat'),
        FlexiLocScoreEarthquake: score('earthquake'),
        FlexiLocScoreOverall: Math.max(score('hurricane_wind'), score('extreme_heat'), score('earthquake')),
        FlexiLocScoreScenario: 'ssp245-2050',
        FlexiLocScoreModelVersion: json.perils[0].model_version,
      },
    ]);
    // extreme_heat has no OED peril code: a FlexiLoc score, never a keys row
    expect(body.keys.map((k) => k.PerilID)).toEqual(['WTC', 'QEQ']);
    expect(body.keys[0].AreaPerilID % 10).toBe(0);
    expect(body.keys[1].AreaPerilID % 10).toBe(2);
    expect(body.keys[1].AreaPerilID - body.keys[0].AreaPerilID).toBe(2);
  });

  it('refuses format=oasis below the enterprise tier (403) and an unknown format (400)', () => {
    expect(codeOf(() => parseScorePoint({ lat: '25', lng: '-80', format: 'oasis' }, analyst))).toBe(
      'insufficient_tier',
    );
    expect(codeOf(() => parseScorePoint({ lat: '25', lng: '-80', format: 'oasis' }, free))).toBe('insufficient_tier');
    expect(codeOf(() => parseScorePoint({ lat: '25', lng: '-80', format: 'xml' }, enterprise))).toBe(
      'invalid_parameter',
    );
  });

  it('answers 422 validation_failed outside US states and territories', async () => {
    await expect(call({ lat: '48.86', lng: '2.35' }, analyst)).rejects.toMatchObject({
      code: 'validation_failed',
      status: 422,
    });
  });
});
