/**
 * The hurricane model package (`catintel model build hurricane`): a 100-year package built once, its files
 * consistent with each other in the Oasis layouts, its keys lookup placing a Miami-Dade home and refusing
 * one in Denver with the reason, and `catintel oasis run --model PKG --oed-location` giving the Miami home a
 * ground-up loss and an AAL from footprint.bin (the same as from the same footprint written as CSV).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { SHARED_DATA } from './helpers/paths.js';
import { withGustSpread } from '../src/models/hurricane/domain/vulnerability/gust-spread.js';
import { INTENSITY_BIN_COUNT, intensityBins } from '../src/models/hurricane/domain/intensity-bins.js';

const YEARS = 100;
let pkg: string;
let work: string;

const MIAMI = '1,A1,L1,25.7617,-80.1918,US,1050,5100,WTC,500000,0,100000,0,USD';
const DENVER = '1,A1,L2,39.7392,-104.9903,US,1050,5100,WTC,500000,0,100000,0,USD';
const HEADER = 'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,LocCurrency';
function book(name: string, rows: string[]): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, [HEADER, ...rows].join('\n') + '\n');
  return file;
}
const csvRows = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));

beforeAll(async () => {
  work = tempDir('catintel-hurricane-package-');
  pkg = path.join(work, 'model');
  const r = await cli(['model', 'build', 'hurricane', '--years', String(YEARS), '--seed', '3', '--from', SHARED_DATA, '--out', pkg, '--json']);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).years).toBe(YEARS);
}, 300_000);

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
    expect(bin.readInt32LE(0)).toBe(INTENSITY_BIN_COUNT);
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
    // One row a cell: probability 1, a bin of the 46.
    for (let at = 8; at < bin.length; at += 12 * 997) {
      expect(bin.readFloatLE(at + 8)).toBe(1);
      expect(bin.readInt32LE(at + 4)).toBeGreaterThanOrEqual(2);
      expect(bin.readInt32LE(at + 4)).toBeLessThanOrEqual(INTENSITY_BIN_COUNT);
    }
    // Every event of the occurrence has a footprint or puts no gust of 40 mph on US land: both are events.
    expect(idx.length / 20).toBeGreaterThan(events.length / 2);

    // Vulnerability: each (vulnerability, intensity bin) sums to 1; damage_bin_dict.bin matches the CSV.
    const sums = new Map<string, number>();
    for (const [v, i, , p] of csvRows(path.join(pkg, 'vulnerability.csv'))) sums.set(`${v},${i}`, (sums.get(`${v},${i}`) ?? 0) + Number(p));
    expect(sums.size).toBe(640 * INTENSITY_BIN_COUNT);
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
    const r = await cli(['model', 'keys', '--model', pkg, '--oed-location', book('both.csv', [MIAMI, DENVER]), '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const keys = csvRows(out);
    expect(keys.map((k) => k[0])).toEqual(['1', '1', '1', '1']);
    expect(keys.map((k) => Number(k[2]))).toEqual([1, 2, 3, 4]);
    const errors = fs.readFileSync(path.join(work, 'keys-errors.csv'), 'utf8');
    expect(errors).toMatch(/^2,WTC,1,nomatch,".*outside the hurricane footprints/m);
  });

  it('oasis run --model PKG --oed-location (no --keys): the Miami-Dade home has ground-up losses and an AAL', async () => {
    const out = path.join(work, 'miami');
    const r = await cli(['--quiet', 'oasis', 'run', '--model', pkg, '--oed-location', book('miami.csv', [MIAMI]), '--out', out]);
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
    const r = await cli(['--quiet', 'oasis', 'run', '--model', pkg, '--oed-location', book('denver.csv', [DENVER]), '--out', path.join(work, 'denver')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no location of .* is inside the hurricane model: .*outside the hurricane footprints/);
  });

  it('the kernel reads footprint.bin/idx as it reads the same footprint written as footprint.csv', async () => {
    const asCsv = path.join(work, 'model-csv');
    fs.mkdirSync(asCsv);
    for (const f of fs.readdirSync(pkg)) if (!f.startsWith('footprint.') && f !== 'manifest.json') fs.copyFileSync(path.join(pkg, f), path.join(asCsv, f));
    const bin = fs.readFileSync(path.join(pkg, 'footprint.bin'));
    const idx = fs.readFileSync(path.join(pkg, 'footprint.idx'));
    const lines = ['event_id,areaperil_id,intensity_bin_id,probability'];
    for (let k = 0; k < idx.length; k += 20) {
      const e = idx.readInt32LE(k);
      const offset = Number(idx.readBigInt64LE(k + 4));
      for (let at = offset; at < offset + Number(idx.readBigInt64LE(k + 12)); at += 12) lines.push(`${e},${bin.readUInt32LE(at)},${bin.readInt32LE(at + 4)},${bin.readFloatLE(at + 8)}`);
    }
    fs.writeFileSync(path.join(asCsv, 'footprint.csv'), lines.join('\n') + '\n');
    const loc = book('miami2.csv', [MIAMI]);
    const a = await cli(['--quiet', 'oasis', 'run', '--model', pkg, '--oed-location', loc, '--out', path.join(work, 'from-bin')]);
    expect(a.code, a.stderr).toBe(0);
    const keys = path.join(work, 'miami2-keys.csv');
    expect((await cli(['--quiet', 'model', 'keys', '--model', pkg, '--oed-location', loc, '--out', keys])).code).toBe(0);
    const b = await cli(['--quiet', 'oasis', 'run', '--model', asCsv, '--oed-location', loc, '--keys', keys, '--out', path.join(work, 'from-csv')]);
    expect(b.code, b.stderr).toBe(0);
    for (const f of ['gul_S1_melt.csv', 'gul_S1_palt.csv', 'gul_S1_ept.csv']) {
      expect(fs.readFileSync(path.join(work, 'from-bin', f), 'utf8'), f).toBe(fs.readFileSync(path.join(work, 'from-csv', f), 'utf8'));
    }
  });
});
