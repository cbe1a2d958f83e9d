/**
 * Scores a cat modeler believes (docs/scoring.md §1.1, §4): the places every modeler knows as the highest or
 * the lowest hazard in the US for a peril must read that way on the 0-10 scale, from the committed baseline.
 * Each expectation says why the place is what it is; a rebuild that moves one of them across its bound is a
 * change of the model to be explained, not a number to update.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import type { Peril } from '../src/domain/scoring/perils.js';
import { scoreAt as at } from './helpers/score-at.js';

const SF = [37.77, -122.42] as const;
const LA = [34.05, -118.24] as const;
const SEATTLE = [47.61, -122.33] as const;
const SLC = [40.76, -111.89] as const;
const DENVER = [39.74, -104.99] as const;
const MIAMI = [25.77, -80.19] as const;
const MOORE = [35.34, -97.49] as const;
const NEW_MADRID = [36.59, -89.53] as const;

describe('earthquake: fault sources put the known high-hazard cities high', () => {
  it('San Francisco: the San Andreas (Peninsula) and Hayward faults within 20 km; MMI VI about once a decade or two', () => {
    const s = at(...SF, 'earthquake');
    expect(s.score).toBeGreaterThanOrEqual(6);
    expect(s.score_components.frequency.return_period_years_damaging!).toBeLessThan(40);
  });
  it('Los Angeles: the San Andreas (Mojave), Puente Hills, Newport-Inglewood and Sierra Madre faults', () => {
    expect(at(...LA, 'earthquake').score).toBeGreaterThanOrEqual(6);
  });
  it('Seattle: the Cascadia M9 interface, the Seattle fault and the Puget Sound intraslab quakes of the catalog', () => {
    expect(at(...SEATTLE, 'earthquake').score).toBeGreaterThanOrEqual(6);
  });
  it('Salt Lake City: the Wasatch fault (Salt Lake City sections) under the city', () => {
    expect(at(...SLC, 'earthquake').score).toBeGreaterThanOrEqual(6);
  });
  it('New Madrid: the 1811-1812 characteristic source (M7.5 every 500 years) scores far above the stable interior', () => {
    expect(at(...NEW_MADRID, 'earthquake').score).toBeGreaterThan(at(...DENVER, 'earthquake').score + 5);
  });
  it('Denver and Miami: no active fault near, few quakes in the catalog; negligible', () => {
    expect(at(...DENVER, 'earthquake').score).toBeLessThan(1);
    expect(at(...MIAMI, 'earthquake').score).toBeLessThan(1);
  });
  it('keeps the absolute quantities beside the score: rates, the 100-year MMI and the scale anchors', () => {
    const c = at(...SF, 'earthquake').score_components;
    expect(c.frequency.lambda_damaging!).toBeGreaterThan(c.frequency.lambda_severe!);
    expect(c.intensity.rp100!.unit).toBe('MMI');
    expect(c.frequency.scale!.lambda_score_10).toBeGreaterThan(c.frequency.scale!.lambda_score_0);
    expect(c.resolution.hazard_varies_by).toBe('cell');
  });
});

describe('tornado: the scale spans the US range instead of putting the whole peril under 2', () => {
  it('Moore, OK: the highest EF1+ path-crossing rate in the US (about 1/1,900 yr) scores at least 7', () => {
    expect(at(...MOORE, 'tornado').score).toBeGreaterThanOrEqual(7);
  });
  it('Seattle: west of the Cascades tornadoes are rare and weak; under 1', () => {
    expect(at(...SEATTLE, 'tornado').score).toBeLessThan(1);
  });
  it('Denver is not flattened to 0: the plains east of the city see EF1+ tornadoes every year', () => {
    expect(at(...DENVER, 'tornado').score).toBeGreaterThan(2);
  });
});

describe('hurricane: south Florida is the US maximum', () => {
  it('Miami: hurricane-force wind about once in 9 years scores at least 8', () => {
    expect(at(...MIAMI, 'hurricane_wind').score).toBeGreaterThanOrEqual(8);
  });
});

describe('a cross-peril figure: the reference building expected annual damage ratio', () => {
  it('is integrated from the damage functions and puts each city on its known peril', () => {
    const ref = (p: readonly [number, number], peril: Peril) =>
      at(p[0], p[1], peril).score_components.vulnerability.reference_building.expected_annual_damage_ratio ?? 0;
    // Miami: wind damage far above its (nil) earthquake damage; San Francisco the reverse.
    expect(ref(MIAMI, 'hurricane_wind')).toBeGreaterThan(100 * ref(MIAMI, 'earthquake'));
    expect(ref(SF, 'earthquake')).toBeGreaterThan(100 * ref(SF, 'tornado'));
    expect(ref(MOORE, 'tornado')).toBeGreaterThan(ref(SEATTLE, 'tornado') * 10);
    expect(
      at(...MIAMI, 'storm_surge').score_components.vulnerability.reference_building.expected_annual_damage_ratio,
    ).toBeNull();
  });
});

describe('peril names: the event_type vocabulary is accepted where a peril is named', () => {
  it('bulk scoring takes --perils hurricane,flood as hurricane_wind and riverine_flood', async () => {
    const dir = tempDir();
    const input = path.join(dir, 'sites.csv');
    fs.writeFileSync(input, `id,lat,lng\nmiami,${MIAMI[0]},${MIAMI[1]}\n`);
    const r = await cli([
      '--quiet',
      '--json',
      'score',
      '--input',
      input,
      '--out',
      path.join(dir, 'out'),
      '--perils',
      'hurricane,flood',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).perils).toEqual(['hurricane_wind', 'riverine_flood']);
    const [header, row] = fs
      .readFileSync(path.join(dir, 'out', 'scores.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(header).toBe('row,id,lat,lng,hurricane_wind,riverine_flood,overall');
    expect(Number(row.split(',')[4])).toBe(at(...MIAMI, 'hurricane_wind').score);
  });
});

describe('wildfire: cleaned ICS-209 inputs (docs/validation.md lists what the cleaning removed)', () => {
  const ROCKBRIDGE = [37.8, -79.45] as const;
  const LOS_ALAMOS = [35.88, -106.3] as const;
  const PARADISE = [39.76, -121.62] as const;
  const lam = (p: readonly [number, number]) => at(p[0], p[1], 'wildfire').score_components.frequency.lambda_damaging!;
  it('Rockbridge VA: the 617 km² West Mims fire (Baker County, FL) placed in Virginia is dropped; what is left is the local forest fires', () => {
    expect(lam(ROCKBRIDGE)).toBeLessThan(1 / 500);
  });
  it('Los Alamos: Las Conchas 2011, reported once per zone, counts once; still high (Cerro Grande 2000, Las Conchas) but below the Sierra foothills', () => {
    expect(lam(LOS_ALAMOS)).toBeLessThan(1 / 50);
    expect(at(...LOS_ALAMOS, 'wildfire').score).toBeLessThan(at(...PARADISE, 'wildfire').score);
    expect(at(...PARADISE, 'wildfire').score).toBeGreaterThanOrEqual(8);
  });
  it('downtown Miami: Everglades fires do not spread onto the urban core', () => {
    expect(at(...MIAMI, 'wildfire').score).toBeLessThan(1);
  });
});
