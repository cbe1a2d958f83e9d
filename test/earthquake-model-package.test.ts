/**
 * The earthquake model package (`catintel model build earthquake`): the 400-year test package shared with
 * the EP-curve tests (built once, reused while the model's code is unchanged), its files
 * consistent with each other in the Oasis layouts (every event-areaperil's bin probabilities summing to 1),
 * its keys lookup placing a Los Angeles wood home and refusing a point outside the contiguous US with the
 * reason, and `catintel oasis run --model PKG --oed-location` giving 100 wood homes in Los Angeles an AAL
 * of a tenth of a percent or so of their value and 100 in Chicago almost none.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { EARTHQUAKE_TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { mulberry32 } from '../src/lib/random.js';
import { INTENSITY_BIN_COUNT } from '../src/models/earthquake/domain/intensity-bins.js';

// Long enough for the Los Angeles AAL to rest on more than a handful of events.
const YEARS = EARTHQUAKE_TEST_PACKAGE_YEARS;
let pkg: string;
let work: string;

const HEADER =
  'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,YearBuilt,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,LocCurrency';
const BUILDING_TIV = 500_000;
const CONTENTS_TIV = 250_000;
/** OED 1050 single-family residential, 5050 wood frame; built 1950-2009 (both sides of the 1975 code change). */
function woodHome(n: number, lat: number, lng: number, year: number): string {
  return `1,A1,L${n},${lat.toFixed(4)},${lng.toFixed(4)},US,1050,5050,${year},QEQ,${BUILDING_TIV},0,${CONTENTS_TIV},0,USD`;
}
function book(name: string, rows: string[]): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, [HEADER, ...rows].join('\n') + '\n');
  return file;
}
/** 100 wood homes spread over 0.3° (about 30 km) around a city centre. */
function cityBook(name: string, lat: number, lng: number): string {
  const rand = mulberry32(7);
  return book(
    name,
    Array.from({ length: 100 }, (_, i) =>
      woodHome(i + 1, lat + (rand() - 0.5) * 0.3, lng + (rand() - 0.5) * 0.3, 1950 + (i % 60)),
    ),
  );
}
const csvRows = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));

async function aalShareOfTiv(location: string, out: string): Promise<number> {
  const r = await cli(['--quiet', 'oasis', 'run', '--model', pkg, '--oed-location', location, '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  const palt = csvRows(path.join(out, 'gul_S1_palt.csv'));
  const aal = palt.length ? Number(palt[0][2]) : 0;
  return aal / (100 * (BUILDING_TIV + CONTENTS_TIV));
}

// The package the EP-curve tests use too (built once, shared); the runs below write only to `work`.
beforeAll(async () => {
  work = tempDir('catintel-earthquake-package-');
  pkg = path.join(await testModels('earthquake', { years: YEARS }), 'earthquake');
  const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'manifest.json'), 'utf8'));
  expect(manifest.years).toBe(YEARS);
}, 600_000);

describe('catintel model build earthquake', () => {
  it('writes events, occurrence, footprint.bin/idx over the PGA bins (probabilities summing to 1) and vulnerability consistent with each other', () => {
    const events = csvRows(path.join(pkg, 'events.csv')).map((r) => Number(r[0]));
    const evBin = fs.readFileSync(path.join(pkg, 'events.bin'));
    expect(Array.from({ length: evBin.length / 4 }, (_, i) => evBin.readInt32LE(i * 4))).toEqual(events);
    // About 7.7 ruptures of M 5 or more a year over the contiguous US (Poisson).
    expect(events.length / YEARS).toBeGreaterThan(6.5);
    expect(events.length / YEARS).toBeLessThan(9);
    const eventSet = new Set(events);
    const occ = csvRows(path.join(pkg, 'occurrence.csv'));
    expect(occ.length).toBe(events.length);
    for (const r of occ) {
      expect(eventSet.has(Number(r[0]))).toBe(true);
      expect(Number(r[1])).toBeGreaterThanOrEqual(1);
      expect(Number(r[1])).toBeLessThanOrEqual(YEARS);
    }
    const occBin = fs.readFileSync(path.join(pkg, 'occurrence.bin'));
    expect(occBin.readInt32LE(4)).toBe(YEARS);
    expect((occBin.length - 8) / 12).toBe(occ.length);
    const catalog = csvRows(path.join(pkg, 'event_catalog.csv'));
    expect(catalog.length).toBe(events.length);

    // footprint.idx: ascending events, each a whole run of 12-byte rows; per event and areaperil the bins
    // ascend and their probabilities sum to 1 (the ground motion's σ spread over the bins, not one bin).
    // Millions of rows: every event's index row is checked, the rows of one event in five, in plain loops asserted once.
    const bin = fs.readFileSync(path.join(pkg, 'footprint.bin'));
    const idx = fs.readFileSync(path.join(pkg, 'footprint.idx'));
    expect(bin.readInt32LE(0)).toBe(INTENSITY_BIN_COUNT);
    const bad: string[] = [];
    let prev = 0;
    let end = 8;
    let cells = 0;
    let spread = 0;
    for (let k = 0; k < idx.length && bad.length < 5; k += 20) {
      const e = idx.readInt32LE(k);
      const offset = Number(idx.readBigInt64LE(k + 4));
      const size = Number(idx.readBigInt64LE(k + 12));
      if (!(e > prev) || !eventSet.has(e) || offset !== end || size % 12 !== 0) bad.push(`idx row of event ${e}`);
      prev = e;
      end = offset + size;
      if ((k / 20) % 5 !== 0) continue;
      let ap = -1;
      let lastBin = 0;
      let sum = 0;
      let rowsOfCell = 0;
      for (let at = offset; at <= offset + size; at += 12) {
        const a = at < offset + size ? bin.readUInt32LE(at) : -1;
        if (a !== ap) {
          if (ap >= 0) {
            if (Math.abs(sum - 1) > 1e-5) bad.push(`event ${e} areaperil ${ap}: probabilities sum to ${sum}`);
            cells++;
            if (rowsOfCell > 2) spread++;
          }
          if (a >= 0 && a < ap) bad.push(`event ${e}: areaperil ${a} after ${ap}`);
          ap = a;
          sum = 0;
          lastBin = 0;
          rowsOfCell = 0;
        }
        if (a < 0) break;
        const b = bin.readInt32LE(at + 4);
        const p = bin.readFloatLE(at + 8);
        if (!(b > lastBin && b <= INTENSITY_BIN_COUNT && p > 0))
          bad.push(`event ${e} areaperil ${a}: bin ${b} after ${lastBin}, probability ${p}`);
        lastBin = b;
        sum += p;
        rowsOfCell++;
      }
    }
    expect(bad).toEqual([]);
    expect(end).toBe(bin.length);
    expect(spread / cells).toBeGreaterThan(0.5);

    // Vulnerability: each (vulnerability, intensity bin) sums to 1 over the 52 PGA bins; damage_bin_dict.bin matches the CSV.
    const sums = new Map<string, number>();
    for (const [v, i, , p] of csvRows(path.join(pkg, 'vulnerability.csv')))
      sums.set(`${v},${i}`, (sums.get(`${v},${i}`) ?? 0) + Number(p));
    expect(sums.size % INTENSITY_BIN_COUNT).toBe(0);
    for (const [k, s] of sums) expect(Math.abs(s - 1), k).toBeLessThan(1e-6);
    const dbd = csvRows(path.join(pkg, 'damage_bin_dict.csv'));
    expect(fs.statSync(path.join(pkg, 'damage_bin_dict.bin')).size).toBe(dbd.length * 20);
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'manifest.json'), 'utf8'));
    expect(manifest.model).toBe('catintel-earthquake');
    expect(manifest.vs30_m_s).toBe(760);
    expect(
      JSON.parse(fs.readFileSync(path.join(pkg, 'model_settings.json'), 'utf8')).lookup_settings.supported_perils[0].id,
    ).toBe('QEQ');
  });
});

describe('the earthquake keys lookup and oasis run --model PKG', () => {
  it('model keys: a Los Angeles wood home keyed to HAZUS W1 in UBC zone 4, a point in Mexico a keys error with the reason', async () => {
    const out = path.join(work, 'keys.csv');
    const loc = book('keys.csv', [woodHome(1, 34.05, -118.25, 1990), woodHome(2, 19.43, -99.13, 1990)]);
    const r = await cli(['model', 'keys', '--model', pkg, '--oed-location', loc, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const keys = csvRows(out);
    expect(keys.map((k) => k[0])).toEqual(['1', '1', '1', '1']);
    expect(keys.map((k) => k[1])).toEqual(['QEQ', 'QEQ', 'QEQ', 'QEQ']);
    expect(keys.map((k) => Number(k[2]))).toEqual([1, 2, 3, 4]);
    // vulnerability_id type 1 (W1), code level 4 (high-code: built after 1975 in zone 4), RES1, coverage.
    expect(keys.map((k) => Number(k[4]))).toEqual([14011, 14012, 14013, 14014]);
    const errors = fs.readFileSync(path.join(work, 'keys-errors.csv'), 'utf8');
    expect(errors).toMatch(/^2,QEQ,1,nomatch,".*outside the earthquake model's domain, the contiguous US/m);
  });

  it('100 wood homes in Los Angeles: ground-up AAL between 0.05 % and 0.5 % of TIV; in Chicago well below 0.01 %', async () => {
    const la = await aalShareOfTiv(cityBook('la.csv', 34.05, -118.25), path.join(work, 'la'));
    const chicago = await aalShareOfTiv(cityBook('chicago.csv', 41.88, -87.63), path.join(work, 'chicago'));
    console.log(
      `earthquake package ${YEARS} years: AAL / TIV Los Angeles ${(la * 100).toFixed(4)} %, Chicago ${(chicago * 100).toExponential(2)} %`,
    );
    expect(la).toBeGreaterThan(0.0005);
    expect(la).toBeLessThan(0.005);
    expect(chicago).toBeLessThan(0.00002);
  });

  it('a book wholly outside the model is refused with the reason, not run to a silent zero', async () => {
    const r = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      pkg,
      '--oed-location',
      book('mexico.csv', [woodHome(1, 19.43, -99.13, 1990)]),
      '--out',
      path.join(work, 'mexico'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /no location of .* is inside the earthquake model: .*outside the earthquake model's domain/,
    );
  });
});
