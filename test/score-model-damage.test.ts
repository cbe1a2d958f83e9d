/**
 * Scores and EP curves from one model: the expected annual damage ratio of `score point` for hurricane wind
 * and earthquake is the model package's, through the loss engine, so a one-location book of the reference
 * building (OED 1050 / 5050, one storey, building only) has the same AAL / TIV in `portfolio ep-curve` at
 * that point: the analytical mean to the table's rounding, the sampled AAL within its sampling error. The
 * table is built here from the tests' shared packages (test/helpers/model-packages.ts) by the same code
 * that builds the committed one, over the cells around the places checked, and the score names the package
 * it used. Miami and Tampa on the hurricane package, Los Angeles and San Francisco on the earthquake one.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildModelDamage } from '../src/databuild/model-damage.js';
import { loadModelDamage } from '../src/reference-data/model-damage.js';
import { loadBaselineGrid } from '../src/reference-data/load-baseline.js';
import { defaultPeril } from '../src/domain/scoring/score-point.js';
import { cli, tempDir } from './helpers/cli.js';
import { seedStore } from './helpers/store.js';
import {
  EARTHQUAKE_TEST_PACKAGE_YEARS,
  TEST_PACKAGE_SEED,
  TEST_PACKAGE_YEARS,
  testModels,
} from './helpers/model-packages.js';

const TIV = 1_000_000;
/**
 * Damage samples of the EP curve, the most it takes: a one-location book's AAL rests on a few damaging events
 * (Los Angeles on 400 years: 100 samples left the sampled AAL 11 % from the mean), and 1,000 bring its sampling
 * error to a few %.
 */
const SAMPLES = 1000;

const dir = tempDir('catintel-score-model-');
let hurricaneModels: string;
let quakeModels: string;
let db: string;
const hurricaneTable = path.join(dir, 'hurricane-table');
const quakeTable = path.join(dir, 'quake-table');

interface Place {
  name: string;
  lat: number;
  lng: number;
}
const HURRICANE_PLACES: Place[] = [
  { name: 'Miami', lat: 25.7617, lng: -80.1918 },
  { name: 'Tampa', lat: 27.9506, lng: -82.4572 },
];
const QUAKE_PLACES: Place[] = [
  { name: 'Los Angeles', lat: 34.0522, lng: -118.2437 },
  { name: 'San Francisco', lat: 37.7749, lng: -122.4194 },
];
const near = (places: Place[]) => (lat: number, lng: number) =>
  places.some((p) => Math.abs(lat - p.lat) < 0.15 && Math.abs(lng - p.lng) < 0.15);

beforeAll(async () => {
  db = await seedStore();
  [hurricaneModels, quakeModels] = await Promise.all([
    testModels('hurricane'),
    testModels('earthquake', { years: EARTHQUAKE_TEST_PACKAGE_YEARS }),
  ]);
  await buildModelDamage({
    modelsDir: hurricaneModels,
    outDir: hurricaneTable,
    perils: ['hurricane_wind'],
    within: near(HURRICANE_PLACES),
  });
  await buildModelDamage({
    modelsDir: quakeModels,
    outDir: quakeTable,
    perils: ['earthquake'],
    within: near(QUAKE_PLACES),
  });
}, 600_000);

async function onePlaceBook(p: Place, code: string): Promise<string> {
  const file = path.join(dir, `${p.name.replace(/ /g, '-')}-${code}.csv`);
  fs.writeFileSync(
    file,
    'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,NumberOfStoreys,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency\n' +
      `1,A,1,${p.lat},${p.lng},US,1050,5050,1,${code},${TIV},0,0,USD\n`,
  );
  return file;
}

async function compare(p: Place, peril: 'hurricane_wind' | 'earthquake', models: string, table: string, years: number) {
  const book = await onePlaceBook(p, peril === 'hurricane_wind' ? 'WTC' : 'QEQ');
  const ep = await cli([
    '--db',
    db,
    'portfolio',
    'ep-curve',
    '--input',
    book,
    '--models',
    models,
    '--perils',
    peril,
    '--perspective',
    'gul',
    '--samples',
    String(SAMPLES),
    '--json',
    '--quiet',
  ]);
  expect(ep.code, ep.stderr).toBe(0);
  const curve = ep.json();
  const score = await cli(
    ['score', 'point', '--lat', String(p.lat), '--lng', String(p.lng), '--perils', peril, '--json'],
    { CATINTEL_MODEL_DAMAGE: table },
  );
  expect(score.code, score.stderr).toBe(0);
  const v = score.json().perils[0].score_components.vulnerability;
  const baseline = (
    await cli(['score', 'point', '--lat', String(p.lat), '--lng', String(p.lng), '--perils', peril, '--json'], {
      CATINTEL_MODEL_DAMAGE: path.join(dir, 'none'),
    })
  ).json().perils[0].score_components.vulnerability;
  const analytic = curve.gul.AALAnalyticAmt / TIV;
  const sampled = curve.gul.AALAmt / TIV;
  if (process.env.CATINTEL_TEST_REPORT)
    process.stderr.write(
      `${p.name} ${peril}: score ${v.expected_annual_damage_ratio}, ep-curve analytic ${analytic}, sampled ${sampled}; the baseline's ${baseline.expected_annual_damage_ratio}\n`,
    );
  return { analytic, sampled, v, years };
}

describe("the score's expected annual damage ratio is the model's: a one-location book's AAL / TIV", () => {
  for (const p of HURRICANE_PLACES) {
    it(`hurricane wind at ${p.name}`, async () => {
      const { analytic, sampled, v } = await compare(
        p,
        'hurricane_wind',
        hurricaneModels,
        hurricaneTable,
        TEST_PACKAGE_YEARS,
      );
      expect(analytic).toBeGreaterThan(0);
      // The table holds the engine's analytical mean, rounded to 0.04 %.
      expect(Math.abs(v.expected_annual_damage_ratio / analytic - 1)).toBeLessThan(1e-3);
      expect(
        Math.abs(v.expected_annual_damage_ratio / sampled - 1),
        `sampled ${sampled} vs score ${v.expected_annual_damage_ratio}`,
      ).toBeLessThan(0.1);
      expect(v.reference_building.expected_annual_damage_ratio).toBe(v.expected_annual_damage_ratio);
      const manifest = fs.readFileSync(path.join(hurricaneModels, 'hurricane', 'manifest.json'));
      expect(v.damage_ratio_source).toMatchObject({
        kind: 'model',
        model: 'catintel-hurricane',
        package_years: TEST_PACKAGE_YEARS,
        package_seed: TEST_PACKAGE_SEED,
        package_manifest_sha256: createHash('sha256').update(manifest).digest('hex'),
      });
      expect(v.damage_ratio_source.vulnerability).toMatch(/W\.SF/);
    }, 300_000);
  }
  for (const p of QUAKE_PLACES) {
    it(`earthquake at ${p.name}`, async () => {
      const { analytic, sampled, v } = await compare(
        p,
        'earthquake',
        quakeModels,
        quakeTable,
        EARTHQUAKE_TEST_PACKAGE_YEARS,
      );
      expect(analytic).toBeGreaterThan(0);
      expect(Math.abs(v.expected_annual_damage_ratio / analytic - 1)).toBeLessThan(1e-3);
      expect(
        Math.abs(v.expected_annual_damage_ratio / sampled - 1),
        `sampled ${sampled} vs score ${v.expected_annual_damage_ratio}`,
      ).toBeLessThan(0.1);
      expect(v.damage_ratio_source).toMatchObject({
        kind: 'model',
        model: 'catintel-earthquake',
        package_years: EARTHQUAKE_TEST_PACKAGE_YEARS,
        package_seed: TEST_PACKAGE_SEED,
      });
      expect(v.damage_ratio_source.vulnerability).toMatch(/HAZUS W1/);
    }, 300_000);
  }
});

describe('where the model does not answer, the score says so', () => {
  it('storm surge has no damage ratio at a point (it needs the building elevation), and says why', async () => {
    const r = await cli(
      ['score', 'point', '--lat', '25.7907', '--lng', '-80.13', '--perils', 'storm_surge', '--json'],
      { CATINTEL_MODEL_DAMAGE: hurricaneTable },
    );
    const v = r.json().perils[0].score_components.vulnerability;
    expect(v.expected_annual_damage_ratio).toBeNull();
    expect(v.damage_ratio_source.kind).toBe('none');
    expect(v.damage_ratio_source.reason).toMatch(/elevation/);
  });

  it("off the package grid (Honolulu) the hurricane ratio is the baseline's, labelled as such", async () => {
    const r = await cli(
      ['score', 'point', '--lat', '21.3069', '--lng', '-157.8583', '--perils', 'hurricane_wind', '--json'],
      { CATINTEL_MODEL_DAMAGE: hurricaneTable },
    );
    const v = r.json().perils[0].score_components.vulnerability;
    expect(v.damage_ratio_source.kind).toBe('baseline');
    expect(v.damage_ratio_source.reason).toMatch(/outside the hurricane_wind model package/);
  });

  it("the free tier's default peril is chosen on the model's ratios: earthquake in Los Angeles, with each candidate's source", () => {
    const table = loadModelDamage(quakeTable);
    const s = defaultPeril(loadBaselineGrid(), QUAKE_PLACES[0].lat, QUAKE_PLACES[0].lng, 'baseline', null, table)!;
    const quake = s.candidates.find((c) => c.peril === 'earthquake')!;
    expect(quake.source).toBe('model');
    expect(s.candidates.find((c) => c.peril === 'storm_surge')!.source).toBe('none');
    expect(s.rule).toBe('highest_expected_annual_damage_ratio');
    const best = s.candidates[0];
    expect(s.peril).toBe(best.peril);
  });
});
