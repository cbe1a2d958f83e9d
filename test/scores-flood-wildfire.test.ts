/**
 * Riverine flood that lives on rivers and wildfire where there is fuel (docs/scoring.md §9, §4): the points
 * a user checks first, through `catintel score point` and through bulk scoring of the same places, which
 * must agree. docs/validation.md §7 prints the same table from the same list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PINNED_POINTS, type PinnedPoint } from '../src/databuild/validation-losses.js';
import { cli, tempDir } from './helpers/cli.js';

const why: Record<string, string> = {
  'Death Valley CA':
    'a closed desert basin with no river the NWS gives flood categories to within 75 km, whatever California’s level',
  'open Nevada desert': 'the Nevada Test Site basins: no gauged river, no tropical rain',
  'Houston TX':
    'Buffalo Bayou and the San Jacinto under dozens of flood-category gauges, a tropical storm every two years (Allison, Harvey)',
  'New Orleans LA': 'the lower Mississippi and the Gulf’s tropical rain',
  'Hialeah FL':
    'dense urban fabric; the Everglades that burn in the same 0.25° cell are beyond ember reach of its buildings',
  'downtown Miami FL': 'dense urban fabric, no wildland within ember reach',
  'Manhattan NY': 'dense urban fabric, no wildland within ember reach',
  'Paradise CA': 'Sierra Nevada foothills: Camp (2018), Humboldt (2008) and many more fires',
  'Los Alamos NM': 'Jemez ponderosa forest: Cerro Grande (2000), Las Conchas (2011)',
};

const bound = (p: PinnedPoint) => (p.below !== undefined ? `below ${p.below}` : `above ${p.above}`);

function expectHolds(p: PinnedPoint, score: number) {
  if (p.below !== undefined) expect(score, p.name).toBeLessThan(p.below);
  if (p.above !== undefined) expect(score, p.name).toBeGreaterThan(p.above);
}

describe('point scores: flood on rivers, wildfire where there is fuel', () => {
  for (const p of PINNED_POINTS) {
    it(`${p.name} ${p.peril} ${bound(p)}: ${why[p.name]}`, async () => {
      const r = await cli([
        '--json',
        'score',
        'point',
        '--lat',
        String(p.lat),
        '--lng',
        String(p.lng),
        '--perils',
        p.peril,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expectHolds(p, r.json().perils[0].score);
    });
  }
});

describe('desert cities flood less than the Gulf coast (issue 32: Phoenix 6.90 against Houston 6.23)', () => {
  // NFIP claims paid per dollar of building value: Arizona about 1/100 of Texas (validation.md §7). Arizona's
  // 15 counties average 19,900 km², so NRI's events per county-year had made its desert the wetter state
  // (docs/scoring.md §1.2: riverine flood counts its events per unit area).
  const flood = async (lat: number, lng: number) => {
    const r = await cli([
      '--json',
      'score',
      'point',
      '--lat',
      String(lat),
      '--lng',
      String(lng),
      '--perils',
      'riverine_flood',
    ]);
    expect(r.code, r.stderr).toBe(0);
    return r.json().perils[0].score as number;
  };
  it('Phoenix and Tucson score below Houston and New Orleans', async () => {
    const houston = await flood(29.76, -95.37);
    const newOrleans = await flood(29.95, -90.07);
    for (const [name, lat, lng] of [
      ['Phoenix AZ', 33.45, -112.07],
      ['Tucson AZ', 32.22, -110.97],
    ] as const) {
      const s = await flood(lat, lng);
      expect(s, name).toBeLessThan(houston);
      expect(s, name).toBeLessThan(newOrleans);
    }
  });
});

describe('bulk scoring gives the same scores at the same points', () => {
  it('every pinned point, both perils, equal to the point scores', async () => {
    const dir = tempDir();
    const input = path.join(dir, 'sites.csv');
    fs.writeFileSync(input, 'id,lat,lng\n' + PINNED_POINTS.map((p, i) => `p${i},${p.lat},${p.lng}`).join('\n') + '\n');
    const r = await cli([
      '--quiet',
      'score',
      '--input',
      input,
      '--out',
      path.join(dir, 'out'),
      '--perils',
      'riverine_flood,wildfire',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = fs
      .readFileSync(path.join(dir, 'out', 'scores.csv'), 'utf8')
      .trim()
      .split('\n');
    const cols = header.split(',');
    expect(rows).toHaveLength(PINNED_POINTS.length);
    for (const [i, p] of PINNED_POINTS.entries()) {
      const bulk = Number(rows[i].split(',')[cols.indexOf(p.peril)]);
      expectHolds(p, bulk);
      const point = await cli([
        '--json',
        'score',
        'point',
        '--lat',
        String(p.lat),
        '--lng',
        String(p.lng),
        '--perils',
        p.peril,
      ]);
      expect(bulk, p.name).toBe(point.json().perils[0].score);
    }
  });
});
