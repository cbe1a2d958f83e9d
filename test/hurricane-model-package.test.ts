/**
 * The hurricane model package (`catintel model build hurricane`): the 100-year test package shared with
 * the EP-curve tests (built once, reused while the model's code is unchanged), its files
 * consistent with each other in the Oasis layouts, its keys lookup placing a Miami-Dade home and refusing
 * one in Denver with the reason, and `catintel oasis run --model PKG --oed-location` giving the Miami home a
 * ground-up loss and an AAL from footprint.bin (the same as from the same footprint written as CSV).
 * Storm surge rides in the same package and events: a low Miami Beach home has surge keys and a surge loss
 * that adds to its wind loss under the same event ids, the same home high up has none, a home without
 * GroundElevation is told surge is not modelled, inland Orlando has no surge, and 100 Miami-Dade homes at
 * 2-3 m lose more to wind than to surge.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { withGustSpread } from '../src/models/hurricane/domain/vulnerability/gust-spread.js';
import { INTENSITY_BIN_COUNT, intensityBins } from '../src/models/hurricane/domain/intensity-bins.js';

// The package's surge layout as docs/hurricane-model.md gives it: 41 height bins after the wind's 46,
// surge areaperil = 1,000,000 + the wind cell's, 672 default surge vulnerabilities (4 single-family
// classes × 56 elevation bands × 3 coverages).
const SURGE_BIN_COUNT = 41;
const PACKAGE_INTENSITY_BIN_COUNT = INTENSITY_BIN_COUNT + SURGE_BIN_COUNT;
const SURGE_AREAPERIL_BASE = 1_000_000;
const DEFAULT_SURGE_VULNERABILITIES = 4 * 56 * 3;

const YEARS = TEST_PACKAGE_YEARS;
let pkg: string;
let work: string;

const MIAMI = '1,A1,L1,25.7617,-80.1918,US,1050,5100,WTC,500000,0,100000,0,USD';
const DENVER = '1,A1,L2,39.7392,-104.9903,US,1050,5100,WTC,500000,0,100000,0,USD';
const HEADER =
  'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,LocCurrency';
function book(name: string, rows: string[]): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, [HEADER, ...rows].join('\n') + '\n');
  return file;
}
const csvRows = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));

// The package the EP-curve tests use too (built once, shared); the runs below write only to `work`.
beforeAll(async () => {
  work = tempDir('catintel-hurricane-package-');
  pkg = path.join(await testModels('hurricane'), 'hurricane');
  const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'manifest.json'), 'utf8'));
  expect(manifest.years).toBe(YEARS);
}, 600_000);

describe('catintel model build hurricane', () => {
  it('writes events, occurrence (with the number of periods), footprint.bin/idx and vulnerability consistent with each other', () => {
    const events = csvRows(path.join(pkg, 'events.csv')).map((r) => Number(r[0]));
    const evBin = fs.readFileSync(path.join(pkg, 'events.bin'));
    expect(Array.from({ length: evBin.length / 4 }, (_, i) => evBin.readInt32LE(i * 4))).toEqual(events);
    const eventSet = new Set(events);
    const occ = csvRows(path.join(pkg, 'occurrence.csv'));
    for (const r of occ) expect(eventSet.has(Number(r[0]))).toBe(true);
    const occBin = fs.readFileSync(path.join(pkg, 'occurrence.bin'));
    expect(occBin.readInt32LE(0)).toBe(1);
    expect(occBin.readInt32LE(4)).toBe(YEARS);
    expect((occBin.length - 8) / 12).toBe(occ.length);

    // footprint.idx: ascending events of the event set, each a whole run of 12-byte rows in footprint.bin.
    const bin = fs.readFileSync(path.join(pkg, 'footprint.bin'));
    const idx = fs.readFileSync(path.join(pkg, 'footprint.idx'));
    // One count for both perils: the wind's gust bins, then the surge's height bins.
    expect(bin.readInt32LE(0)).toBe(PACKAGE_INTENSITY_BIN_COUNT);
    let prev = 0;
    let end = 8;
    for (let k = 0; k < idx.length; k += 20) {
      const e = idx.readInt32LE(k);
      const offset = Number(idx.readBigInt64LE(k + 4));
      const size = Number(idx.readBigInt64LE(k + 12));
      expect(e).toBeGreaterThan(prev);
      expect(eventSet.has(e)).toBe(true);
      expect(offset).toBe(end);
      expect(size % 12).toBe(0);
      prev = e;
      end = offset + size;
    }
    expect(end).toBe(bin.length);
    // One row a cell: probability 1, a wind bin of the 46 on a wind cell, a surge bin on a surge cell.
    let surgeRows = 0;
    for (let at = 8; at < bin.length; at += 12 * 997) {
      expect(bin.readFloatLE(at + 8)).toBe(1);
      const surge = bin.readUInt32LE(at) > SURGE_AREAPERIL_BASE;
      if (surge) surgeRows++;
      expect(bin.readInt32LE(at + 4)).toBeGreaterThanOrEqual(surge ? INTENSITY_BIN_COUNT + 1 : 2);
      expect(bin.readInt32LE(at + 4)).toBeLessThanOrEqual(surge ? PACKAGE_INTENSITY_BIN_COUNT : INTENSITY_BIN_COUNT);
    }
    expect(surgeRows).toBeGreaterThan(0);
    // Every event of the occurrence has a footprint or puts no gust of 40 mph on US land: both are events.
    expect(idx.length / 20).toBeGreaterThan(events.length / 2);

    // Vulnerability: each (vulnerability, intensity bin) sums to 1; damage_bin_dict.bin matches the CSV.
    const sums = new Map<string, number>();
    for (const [v, i, , p] of csvRows(path.join(pkg, 'vulnerability.csv')))
      sums.set(`${v},${i}`, (sums.get(`${v},${i}`) ?? 0) + Number(p));
    expect(sums.size).toBe(640 * INTENSITY_BIN_COUNT + DEFAULT_SURGE_VULNERABILITIES * SURGE_BIN_COUNT);
    for (const [k, s] of sums) expect(Math.abs(s - 1), k).toBeLessThan(1e-6);
    const dbd = csvRows(path.join(pkg, 'damage_bin_dict.csv'));
    expect(fs.statSync(path.join(pkg, 'damage_bin_dict.bin')).size).toBe(dbd.length * 20);
    expect(JSON.parse(fs.readFileSync(path.join(pkg, 'manifest.json'), 'utf8')).model).toBe('catintel-hurricane');
  });

  it('folds the gust spread into the vulnerability: rows still sum to 1 and the mean damage rises where the curve is convex', () => {
    const bins = intensityBins();
    // A step damage curve: total loss at 150 mph and above, none below.
    const step = bins.map((b) => Float64Array.from(b.representativeMph >= 150 ? [0, 1] : [1, 0]));
    const spread = withGustSpread(step);
    spread.forEach((row) => expect(row[0] + row[1]).toBeCloseTo(1, 12));
    const at = (mph: number) => spread[bins.findIndex((b) => b.fromMph <= mph && mph < b.toMph)][1];
    expect(at(142)).toBeGreaterThan(0.1); // a modelled 142 mph reaches 150 about one time in four (σ_ln 0.10)
    expect(at(142)).toBeLessThan(0.5);
    expect(at(100)).toBe(0);
    expect(at(200)).toBe(1);
  });
});

describe('the package keys lookup and oasis run --model PKG', () => {
  it('model keys: a Miami-Dade home keyed on its cell, one in Denver a keys error with the reason', async () => {
    const out = path.join(work, 'keys.csv');
    const r = await cli([
      'model',
      'keys',
      '--model',
      pkg,
      '--oed-location',
      book('both.csv', [MIAMI, DENVER]),
      '--out',
      out,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const keys = csvRows(out);
    expect(keys.map((k) => k[0])).toEqual(['1', '1', '1', '1']);
    expect(keys.map((k) => Number(k[2]))).toEqual([1, 2, 3, 4]);
    const errors = fs.readFileSync(path.join(work, 'keys-errors.csv'), 'utf8');
    expect(errors).toMatch(/^2,WTC,1,nomatch,".*outside the hurricane footprints/m);
  });

  it('oasis run --model PKG --oed-location (no --keys): the Miami-Dade home has ground-up losses and an AAL', async () => {
    const out = path.join(work, 'miami');
    const r = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      pkg,
      '--oed-location',
      book('miami.csv', [MIAMI]),
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const melt = csvRows(path.join(out, 'gul_S1_melt.csv'));
    expect(melt.length).toBeGreaterThan(5);
    const palt = fs.readFileSync(path.join(out, 'gul_S1_palt.csv'), 'utf8').trim().split('\n');
    const aal = Number(palt[1].split(',')[2]);
    // 600,000 of buildings and contents: a Miami home's wind AAL is a fraction of a percent of its value.
    expect(aal / 600_000).toBeGreaterThan(0.001);
    expect(aal / 600_000).toBeLessThan(0.03);
  });

  it('a book wholly outside the model is refused with the reason, not run to a silent zero', async () => {
    const r = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      pkg,
      '--oed-location',
      book('denver.csv', [DENVER]),
      '--out',
      path.join(work, 'denver'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no location of .* is inside the hurricane model: .*outside the hurricane footprints/);
  });

  it('the kernel reads footprint.bin/idx as it reads the same footprint written as footprint.csv', async () => {
    const asCsv = path.join(work, 'model-csv');
    fs.mkdirSync(asCsv);
    for (const f of fs.readdirSync(pkg))
      if (!f.startsWith('footprint.') && f !== 'manifest.json') fs.copyFileSync(path.join(pkg, f), path.join(asCsv, f));
    const bin = fs.readFileSync(path.join(pkg, 'footprint.bin'));
    const idx = fs.readFileSync(path.join(pkg, 'footprint.idx'));
    const lines = ['event_id,areaperil_id,intensity_bin_id,probability'];
    for (let k = 0; k < idx.length; k += 20) {
      const e = idx.readInt32LE(k);
      const offset = Number(idx.readBigInt64LE(k + 4));
      for (let at = offset; at < offset + Number(idx.readBigInt64LE(k + 12)); at += 12)
        lines.push(`${e},${bin.readUInt32LE(at)},${bin.readInt32LE(at + 4)},${bin.readFloatLE(at + 8)}`);
    }
    fs.writeFileSync(path.join(asCsv, 'footprint.csv'), lines.join('\n') + '\n');
    const loc = book('miami2.csv', [MIAMI]);
    const a = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      pkg,
      '--oed-location',
      loc,
      '--out',
      path.join(work, 'from-bin'),
    ]);
    expect(a.code, a.stderr).toBe(0);
    const keys = path.join(work, 'miami2-keys.csv');
    expect((await cli(['--quiet', 'model', 'keys', '--model', pkg, '--oed-location', loc, '--out', keys])).code).toBe(
      0,
    );
    const b = await cli([
      '--quiet',
      'oasis',
      'run',
      '--model',
      asCsv,
      '--oed-location',
      loc,
      '--keys',
      keys,
      '--out',
      path.join(work, 'from-csv'),
    ]);
    expect(b.code, b.stderr).toBe(0);
    for (const f of ['gul_S1_melt.csv', 'gul_S1_palt.csv', 'gul_S1_ept.csv']) {
      expect(fs.readFileSync(path.join(work, 'from-bin', f), 'utf8'), f).toBe(
        fs.readFileSync(path.join(work, 'from-csv', f), 'utf8'),
      );
    }
  });
});

const SURGE_HEADER =
  'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,NumberOfStoreys,GroundElevation,GroundElevationUnit,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,LocCurrency';
/** A one-story masonry home, $500k building and $100k contents; elevation in metres (unit 2), '' for none. */
const home = (loc: string, lat: number, lng: number, elevationM: string, perils: string) =>
  `1,A1,${loc},${lat},${lng},US,1050,5100,1,${elevationM},${elevationM === '' ? '' : 2},${perils},500000,0,100000,0,USD`;
const MIAMI_BEACH: [number, number] = [25.7907, -80.13];
const ORLANDO: [number, number] = [28.5384, -81.3789];
function surgeBook(name: string, rows: string[]): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, [SURGE_HEADER, ...rows].join('\n') + '\n');
  return file;
}
/** `oasis run --model PKG` on a book: the AAL and the mean loss of each event (gul_S1_palt, gul_S1_melt). */
async function runBook(name: string, rows: string[]): Promise<{ aal: number; byEvent: Map<number, number> }> {
  const out = path.join(work, `run-${name}`);
  const r = await cli([
    '--quiet',
    'oasis',
    'run',
    '--model',
    pkg,
    '--oed-location',
    surgeBook(`${name}.csv`, rows),
    '--out',
    out,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const aal = Number(fs.readFileSync(path.join(out, 'gul_S1_palt.csv'), 'utf8').trim().split('\n')[1].split(',')[2]);
  return { aal, byEvent: new Map(csvRows(path.join(out, 'gul_S1_melt.csv')).map((r) => [Number(r[0]), Number(r[5])])) };
}

describe('storm surge in the package (peril WSS, the same events as the wind)', () => {
  it('model keys: a low Miami Beach home gets WSS keys on its cell\'s surge areaperil; without GroundElevation "not modelled" with the reason; inland Orlando no surge', async () => {
    const out = path.join(work, 'surge-keys.csv');
    const loc = surgeBook('surge-keys-book.csv', [
      home('L1', ...MIAMI_BEACH, '0.3', 'WTC;WSS'),
      home('L2', ...MIAMI_BEACH, '', 'WTC;WSS'),
      home('L3', ...ORLANDO, '1', 'WW1'),
    ]);
    const r = await cli(['model', 'keys', '--model', pkg, '--oed-location', loc, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const keys = csvRows(out);
    const wind = keys.filter((k) => k[0] === '1' && k[1] === 'WTC');
    const surge = keys.filter((k) => k[0] === '1' && k[1] === 'WSS');
    expect(surge.map((k) => Number(k[2]))).toEqual([1, 2, 3]);
    expect(Number(surge[0][3])).toBe(SURGE_AREAPERIL_BASE + Number(wind[0][3]));
    // Only location 1 has surge keys; 2 and 3 have wind keys and say why they have no surge.
    expect(keys.filter((k) => k[1] === 'WSS').map((k) => k[0])).toEqual(['1', '1', '1']);
    expect(keys.filter((k) => k[1] === 'WTC').length).toBe(12);
    const errors = fs.readFileSync(path.join(work, 'surge-keys-errors.csv'), 'utf8');
    expect(errors).toMatch(/^2,WSS,1,notmodelled,"storm surge not modelled: GroundElevation is not given/m);
    expect(errors).toMatch(/^3,WSS,1,notatrisk,"no storm surge at \(28\.5384, -81\.3789\)/m);
  });

  it('oasis run: the low Miami Beach home has a surge loss that adds to its wind loss under the same event ids; at 6 m it has none', async () => {
    const wind = await runBook('mb-wind', [home('L1', ...MIAMI_BEACH, '0.3', 'WTC')]);
    const surge = await runBook('mb-surge', [home('L1', ...MIAMI_BEACH, '0.3', 'WSS')]);
    const both = await runBook('mb-both', [home('L1', ...MIAMI_BEACH, '0.3', 'WTC;WSS')]);
    expect(surge.aal).toBeGreaterThan(0);
    expect(wind.aal).toBeGreaterThan(0);
    // The book covering both has the events of either (a far storm can raise the sea at the home without a
    // 40-mph gust there), and where one storm brings both, one loss: wind plus surge, capped at each
    // coverage's value (600,000 in all).
    expect(new Set(both.byEvent.keys())).toEqual(new Set([...wind.byEvent.keys(), ...surge.byEvent.keys()]));
    let added = 0;
    for (const [e, l] of both.byEvent) {
      const sum = (wind.byEvent.get(e) ?? 0) + (surge.byEvent.get(e) ?? 0);
      expect(l, `event ${e}`).toBeLessThanOrEqual(sum * (1 + 1e-6) + 1e-3);
      expect(l, `event ${e}`).toBeGreaterThanOrEqual(
        Math.max(wind.byEvent.get(e) ?? 0, surge.byEvent.get(e) ?? 0) * (1 - 1e-6),
      );
      if (Math.abs(l - sum) < 1e-6 * sum + 1e-3 && (surge.byEvent.get(e) ?? 0) > 0 && (wind.byEvent.get(e) ?? 0) > 0)
        added++;
    }
    expect(added).toBeGreaterThan(0);
    expect(both.aal).toBeGreaterThan(wind.aal);
    const high = await runBook('mb-high', [home('L1', ...MIAMI_BEACH, '6', 'WSS')]);
    expect(high.aal).toBe(0);
  });

  it('an inland Orlando book: surge AAL 0 (its AAL with surge covered is its wind AAL)', async () => {
    const rows = (perils: string) => [home('O1', ...ORLANDO, '1', perils), home('O2', 28.48, -81.45, '1', perils)];
    const wind = await runBook('orl-wind', rows('WTC'));
    const both = await runBook('orl-both', rows('WTC;WSS'));
    expect(wind.aal).toBeGreaterThan(0);
    expect(both.aal).toBe(wind.aal);
  });

  it('100 masonry homes in Miami-Dade at 2-3 m: wind AAL above surge AAL', async () => {
    const rows = (perils: string) =>
      Array.from({ length: 100 }, (_, n) =>
        home(
          `M${n + 1}`,
          Number((25.7 + Math.floor(n / 10) * 0.025).toFixed(3)),
          Number((-80.42 + (n % 10) * 0.022).toFixed(3)),
          (2 + (n % 11) / 10).toFixed(1),
          perils,
        ),
      );
    const wind = await runBook('md-wind', rows('WTC'));
    const surge = await runBook('md-surge', rows('WSS'));
    expect(surge.aal).toBeGreaterThanOrEqual(0);
    expect(wind.aal).toBeGreaterThan(surge.aal);
    expect(wind.aal / 60_000_000).toBeGreaterThan(0.001);
  });
});
