/**
 * EP curves from the loss engine: `catintel portfolio ep-curve` and GET /portfolio/ep-curve run a book's
 * OED through the hurricane model package's keys, the Oasis input files and the kernel (one small
 * package shared by the run: test/helpers/model-packages.ts). Checked on real books: 100 masonry homes
 * in Miami-Dade (an AAL in the range market models and FEMA NRI give Florida's coast), the same book with
 * a deductible (insured below ground-up, and below the book without it), a Denver book (hurricane reaches
 * it with no loss; earthquake and wildfire listed as not modelled), the same bytes from the same seed,
 * HTTP the same as the CLI, the ORD tables and pictures, and the refusals. Every curve made here has the
 * properties every EP table must have: OEP <= AEP at each return period, both non-decreasing with the
 * return period, TVaR >= the loss at the same point.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import { bookKeys, missingVulnerabilities } from '../src/models/hurricane/package/book-keys.js';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { startServe, stopServe } from './helpers/serve.js';
import { seedStore } from './helpers/store.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';
import { EARTHQUAKE_TEST_PACKAGE_YEARS, TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { contextOn, platform, token } from './http/helpers/harness.js';

interface Point {
  ReturnPeriod: number;
  OEPLossAmt: number;
  AEPLossAmt: number;
  OEPTVaRAmt: number;
  AEPTVaRAmt: number;
}

const isCents = (x: number) => Math.abs(Math.round(x * 100) - x * 100) < 1e-6;

function checkCurve(curve: Point[]): void {
  expect(curve.length).toBeGreaterThan(0);
  for (let i = 0; i < curve.length; i++) {
    const p = curve[i];
    expect(p.OEPLossAmt, `OEP <= AEP at ${p.ReturnPeriod}`).toBeLessThanOrEqual(p.AEPLossAmt);
    expect(p.OEPTVaRAmt, `OEP TVaR >= OEP at ${p.ReturnPeriod}`).toBeGreaterThanOrEqual(p.OEPLossAmt);
    expect(p.AEPTVaRAmt, `AEP TVaR >= AEP at ${p.ReturnPeriod}`).toBeGreaterThanOrEqual(p.AEPLossAmt);
    if (i > 0) {
      expect(p.OEPLossAmt, `OEP non-decreasing at ${p.ReturnPeriod}`).toBeGreaterThanOrEqual(curve[i - 1].OEPLossAmt);
      expect(p.AEPLossAmt, `AEP non-decreasing at ${p.ReturnPeriod}`).toBeGreaterThanOrEqual(curve[i - 1].AEPLossAmt);
    }
  }
}

const HEADER =
  'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency';
const DED_HEADER = `${HEADER},LocDedType1Building,LocDed1Building`;
const HOME_TIV = 500_000;

/** 100 single-family masonry homes (OED 1050, 5100) on a 10 x 10 grid over Miami-Dade's built-up area, $500k building each. */
function miamiRows(extra = ''): string[] {
  const rows: string[] = [];
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) {
      const lat = (25.6 + i * 0.035).toFixed(4);
      const lng = (-80.44 + j * 0.024).toFixed(4);
      rows.push(`1,MD,H${i * 10 + j + 1},${lat},${lng},US,1050,5100,WTC,${HOME_TIV},0,0,USD${extra}`);
    }
  }
  return rows;
}

let dir: string;
let models: string;
const book = (name: string, header: string, rows: string[]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, [header, ...rows].join('\n') + '\n');
  return file;
};
const epCurve = (argv: string[], db = path.join(dir, 'plain.duckdb')) =>
  cli(['--db', db, 'portfolio', 'ep-curve', '--models', models, ...argv]);

beforeAll(async () => {
  dir = tempDir('catintel-epcurve-');
  models = await testModels();
  // The run's seed store (what `db seed` writes, built once for the suite), copied: not a seed of its own.
  fs.copyFileSync(await seedStore(), path.join(dir, 'plain.duckdb'));
  expect(fs.statSync(path.join(dir, 'plain.duckdb')).size).toBeGreaterThan(0);
}, 600_000);

describe('a Miami-Dade book through the hurricane model package', () => {
  let miami: string;
  let withDeductible: string;
  /** The book's curve with the defaults: the same command (same inputs, same seed) in three tests, run once. */
  let plainRun: Awaited<ReturnType<typeof epCurve>>;
  beforeAll(async () => {
    miami = book('miami.csv', HEADER, miamiRows());
    // $25,000 off each building's loss (OED LocDedType1Building 0: an amount).
    withDeductible = book('miami-ded.csv', DED_HEADER, miamiRows(',0,25000'));
    plainRun = await epCurve(['--input', miami, '--json']);
  }, 120_000);

  it('100 masonry homes, wind only: AAL between 0.2 % and 1.5 % of TIV, with the package, years, samples and seed named', async () => {
    const r = plainRun;
    expect(r.code, r.stderr).toBe(0);
    const body = r.json();
    const tiv = 100 * HOME_TIV;
    expect(body).toMatchObject({
      input: 'miami.csv',
      years: TEST_PACKAGE_YEARS,
      seed: 1,
      samples: 10,
      NumLocations: 100,
      NumLocationsModelled: 100,
      TotalInsuranceAmt: tiv,
      perils: ['hurricane_wind'],
      perils_not_modelled: [],
      perspective: 'il',
      EPCalc: 2,
    });
    expect(body.models).toEqual([
      expect.objectContaining({
        folder: 'hurricane',
        model: 'catintel-hurricane',
        perils: ['hurricane_wind'],
        years: TEST_PACKAGE_YEARS,
        NumLocationsModelled: 100,
        NumLocationsNotReached: 0,
      }),
    ]);
    const ratio = body.gul.AALAmt / tiv;
    expect(ratio, `ground-up AAL ${(ratio * 100).toFixed(3)} % of TIV`).toBeGreaterThan(0.002);
    expect(ratio).toBeLessThan(0.015);
    // No terms: the insured loss is the ground-up loss; sampled and analytical AAL agree within sampling error.
    expect(body.il.AALAmt).toBeCloseTo(body.gul.AALAmt, 0);
    expect(Math.abs(body.gul.AALAmt / body.gul.AALAnalyticAmt - 1)).toBeLessThan(0.1);
    expect(body.AALAmtByPeril).toEqual({ hurricane_wind: body.il.AALAmt });
    checkCurve(body.curve);
    checkCurve(body.gul.curve);
    expect(body.return_periods).toEqual([2, 5, 10, 25, 50, 100]);
    expect(body.method).toMatch(
      /hurricane model package .* keys lookup -> Oasis input files .* loss kernel over the first 100 years .* 10 damage samples per event \(seed 1\)/,
    );
    const amounts = [
      body.TotalInsuranceAmt,
      body.AALAmt,
      body.AALAnalyticAmt,
      ...body.curve.flatMap((p: Point) => [p.OEPLossAmt, p.AEPLossAmt, p.OEPTVaRAmt, p.AEPTVaRAmt]),
    ];
    expect(amounts.filter((x) => !isCents(x))).toEqual([]);
  }, 120_000);

  it("the same book with a $25,000 deductible a home: insured AAL below ground-up and below the book without it; ground-up unchanged; an account file's policy deductible too", async () => {
    expect(plainRun.code, plainRun.stderr).toBe(0);
    const plain = plainRun.json();
    const r = await epCurve(['--input', withDeductible, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const ded = r.json();
    expect(ded.gul.AALAmt).toBe(plain.gul.AALAmt);
    expect(ded.il.AALAmt).toBeLessThan(ded.gul.AALAmt * 0.99);
    expect(ded.il.AALAmt).toBeLessThan(plain.il.AALAmt * 0.99);
    expect(ded.il.AALAmt).toBeGreaterThan(0);
    checkCurve(ded.curve);
    for (const [i, p] of ded.il.curve.entries()) expect(p.AEPLossAmt).toBeLessThanOrEqual(plain.il.curve[i].AEPLossAmt);
    // An account file's terms apply too: a $1M policy deductible on the whole book (OED PolDed6All).
    const account = path.join(dir, 'account.csv');
    fs.writeFileSync(account, 'PortNumber,AccNumber,PolNumber,AccCurrency,PolDed6All\n1,MD,1,USD,1000000\n');
    const policy = (await epCurve(['--input', miami, '--oed-account', account, '--json'])).json();
    expect(policy.gul.AALAmt).toBe(plain.gul.AALAmt);
    expect(policy.il.AALAmt).toBeLessThan(plain.il.AALAmt * 0.99);
    expect(policy.method).toMatch(/the account file's terms/);
    // --perspective gul shows the ground-up curve on top.
    const gul = (await epCurve(['--input', withDeductible, '--perspective', 'gul', '--json'])).json();
    expect(gul.curve).toEqual(ded.gul.curve);
    expect(gul.AALAmt).toBe(ded.gul.AALAmt);
  }, 120_000);

  it('same inputs and seed, same bytes; another seed draws other samples of the same events', async () => {
    const a = await epCurve(['--input', miami, '--seed', '3', '--json']);
    const b = await epCurve(['--input', miami, '--seed', '3', '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    const c = (await epCurve(['--input', miami, '--seed', '4', '--json'])).json();
    expect(c.gul.AALAnalyticAmt).toBe(a.json().gul.AALAnalyticAmt);
    expect(c.gul.AALAmt).not.toBe(a.json().gul.AALAmt);
    const ept1 = await epCurve(['--input', miami, '--seed', '3', '--format', 'csv', '--quiet']);
    const ept2 = await epCurve(['--input', miami, '--seed', '3', '--format', 'csv', '--quiet']);
    expect(ept2.stdout).toBe(ept1.stdout);
  }, 120_000);

  it('a book of codes the package was not built with: their vulnerabilities are computed for the run, the package left unchanged', async () => {
    const vulnerability = path.join(models, 'hurricane', 'vulnerability.csv');
    const before = fs.statSync(vulnerability);
    // A commercial building of OED construction 5105: not among the package's default vulnerabilities.
    const office = book('office.csv', HEADER, ['1,MD,OFFICE,25.77,-80.30,US,1100,5105,WTC,5000000,1000000,500000,USD']);
    const pkg = path.join(models, 'hurricane');
    expect(missingVulnerabilities(pkg, bookKeys(pkg, office).keys)).toHaveLength(4);
    const r = await epCurve(['--input', office, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ NumLocationsModelled: 1 });
    expect(r.json().gul.AALAmt).toBeGreaterThan(0);
    const after = fs.statSync(vulnerability);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
  }, 120_000);

  it('csv is the ORD ept (EPCalc 1-4, OEP/AEP and TVaR), psept one curve per sample; parquet, svg and png are real files', async () => {
    const ept = await epCurve(['--input', miami, '--format', 'csv', '--quiet']);
    expect(ept.code, ept.stderr).toBe(0);
    const lines = ept.stdout.trim().split('\n');
    expect(lines[0]).toBe('SummaryId,EPCalc,EPType,ReturnPeriod,Loss');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(new Set(rows.map((x) => x[1]))).toEqual(new Set(['1', '2', '3', '4']));
    expect(new Set(rows.map((x) => x[2]))).toEqual(new Set(['1', '2', '3', '4']));
    expect(lines[1]).toMatch(/^1,1,1,100\.000000,\d+\.\d{6}$/);
    const json = plainRun.json();
    // The JSON curve is the table's EPCalc 2 (full uncertainty), to the cent.
    const oep100 = Number(rows.find((x) => x[1] === '2' && x[2] === '1' && x[3] === '100.000000')![4]);
    expect(Math.abs(json.curve.at(-1).OEPLossAmt / oep100 - 1)).toBeLessThan(1e-6); // the table prints float32, as Oasis does

    const ps = path.join(dir, 'psept.csv');
    expect((await epCurve(['--input', miami, '--format', 'csv', '--psept', '--out', ps, '--quiet'])).code).toBe(0);
    const pl = fs.readFileSync(ps, 'utf8').trim().split('\n');
    expect(pl[0]).toBe('SummaryId,SampleId,EPType,ReturnPeriod,Loss');
    expect(new Set(pl.slice(1).map((l) => l.split(',')[1])).size).toBe(10);

    const pq = path.join(dir, 'ept.parquet');
    const parquet = await epCurve(['--input', miami, '--format', 'parquet', '--out', pq, '--json']);
    expect(parquet.code, parquet.stderr).toBe(0);
    const bytes = fs.readFileSync(pq);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(-4).toString()).toBe('PAR1');
    expect((await epCurve(['--input', miami, '--format', 'parquet'])).code).toBe(2);

    const svgFile = path.join(dir, 'ep.svg');
    const svg = await epCurve(['--input', miami, '--format', 'svg', '--out', svgFile, '--json']);
    expect(svg.code, svg.stderr).toBe(0);
    expect(svg.json().written).toMatchObject({ file: svgFile, format: 'svg' });
    const text = fs.readFileSync(svgFile, 'utf8');
    expect(text.startsWith('<svg')).toBe(true);
    expect(text).toContain('Return period (years, log scale)');
    expect(text).toContain('Loss (USD)');
    expect(text).toContain('AAL ');
    const pngFile = path.join(dir, 'ep.png');
    expect((await epCurve(['--input', miami, '--format', 'png', '--out', pngFile, '--quiet'])).code).toBe(0);
    const png = fs.readFileSync(pngFile);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBeGreaterThan(600);
    expect((await epCurve(['--input', miami, '--format', 'png'])).code).toBe(2);
  }, 180_000);
});

describe('a Denver book: hurricane modelled, not reached; perils without a package listed, never faked', () => {
  it('hurricane_wind has zero loss with the reason; earthquake, wildfire and the rest are not modelled', async () => {
    const denver = book('denver.csv', HEADER, [
      '1,CO,D1,39.7392,-104.9903,US,1050,5050,AA1,400000,100000,0,USD',
      '1,CO,D2,39.70,-105.02,US,1050,5100,AA1,600000,0,0,USD',
    ]);
    const r = await epCurve(['--input', denver, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const body = r.json();
    expect(body.perils).toEqual(['hurricane_wind', 'storm_surge']);
    const notModelled = Object.fromEntries(
      body.perils_not_modelled.map((p: { peril: string; reason: string }) => [p.peril, p.reason]),
    );
    expect(Object.keys(notModelled)).toEqual(expect.arrayContaining(['earthquake', 'wildfire', 'tornado']));
    expect(notModelled.earthquake).toMatch(
      /no earthquake model package in .*earthquake; build it with `catintel model build earthquake --out /,
    );
    expect(body).toMatchObject({
      NumLocations: 2,
      NumLocationsModelled: 0,
      AALAmt: 0,
      AALAnalyticAmt: 0,
      AALAmtByPeril: { hurricane_wind: 0, storm_surge: 0 },
    });
    expect(body.models[0]).toMatchObject({ folder: 'hurricane', NumLocationsNotReached: 2 });
    expect(body.models[0].not_reached_reason).toMatch(/outside the hurricane footprints/);
    expect(body.curve.every((p: Point) => p.OEPLossAmt === 0 && p.AEPLossAmt === 0)).toBe(true);
    expect(body.method).toMatch(/not modelled \(no loss added\): earthquake, tornado/);
    // Only perils without a package: no package is needed, and none is run.
    const fire = await epCurve([
      '--input',
      denver,
      '--perils',
      'wildfire',
      '--models',
      path.join(dir, 'no-models'),
      '--json',
    ]);
    expect(fire.code, fire.stderr).toBe(0);
    expect(fire.json()).toMatchObject({
      perils: [],
      models: [],
      years: 0,
      return_periods: [],
      AALAmt: 0,
      perils_not_modelled: [{ peril: 'wildfire' }],
    });
  }, 120_000);
});

describe('a Los Angeles book through the earthquake model package', () => {
  /** 100 single-family wood homes (OED 1050, 5050, built 1970) on a 10 x 10 grid over the Los Angeles basin, $500k building each, every peril covered. */
  const laRows = () => {
    const rows: string[] = [];
    for (let i = 0; i < 10; i++)
      for (let j = 0; j < 10; j++)
        rows.push(
          `1,LA,E${i * 10 + j + 1},${(33.9 + i * 0.03).toFixed(4)},${(-118.45 + j * 0.03).toFixed(4)},US,1050,5050,AA1,${HOME_TIV},0,0,USD,1970`,
        );
    return rows;
  };
  let quakeModels: string;
  let la: string;
  /** `portfolio ep-curve` of an OED location file on the earthquake package, with more flags. */
  const quakeEpCurve = (input: string, ...flags: string[]) =>
    cli([
      '--db',
      path.join(dir, 'plain.duckdb'),
      'portfolio',
      'ep-curve',
      '--models',
      quakeModels,
      '--input',
      input,
      ...flags,
    ]);
  beforeAll(async () => {
    // The earthquake package's own tests use this one too: one build for both.
    quakeModels = await testModels('earthquake', { years: EARTHQUAKE_TEST_PACKAGE_YEARS });
    la = book('la.csv', `${HEADER},YearBuilt`, laRows());
  }, 600_000);

  it('earthquake runs on its package (AAL between 0.05 % and 0.5 % of TIV); the hurricane package not built is listed with the command that builds it', async () => {
    const r = await quakeEpCurve(la, '--json');
    expect(r.code, r.stderr).toBe(0);
    const body = r.json();
    expect(body.perils).toEqual(['earthquake']);
    expect(body.models).toMatchObject([
      { folder: 'earthquake', perils: ['earthquake'], years: EARTHQUAKE_TEST_PACKAGE_YEARS, NumLocationsModelled: 100 },
    ]);
    const rate = body.AALAnalyticAmt / (100 * HOME_TIV);
    expect(rate).toBeGreaterThan(0.0005);
    expect(rate).toBeLessThan(0.005);
    expect(Object.keys(body.AALAmtByPeril)).toEqual(['earthquake']);
    checkCurve(body.curve);
    const hurricane = body.perils_not_modelled.find((p: { peril: string }) => p.peril === 'hurricane_wind');
    expect(hurricane.reason).toMatch(
      /no hurricane model package in .*hurricane; build it with `catintel model build hurricane --out /,
    );
    // Named, a peril whose package is not built is refused with that command, not left out.
    const named = await quakeEpCurve(la, '--perils', 'hurricane_wind,earthquake');
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/no hurricane model package in .*catintel model build hurricane --out /);
  }, 180_000);

  it("a home's own Vs30 (OED SoilType 1, SoilValue in m/s): soft soil loses more than the reference 760 m/s rock, stiff rock less; 760 itself is the reference", async () => {
    // One LA home on four sites: the reference (no soil fields), SoilValue 760 (the same), 1200 and 260.
    const site = (name: string, soil: string) =>
      book(`la-${name}.csv`, `${HEADER},YearBuilt,SoilType,SoilValue`, [
        `1,LA,E1,34.0500,-118.2400,US,1050,5050,AA1,${HOME_TIV},0,0,USD,1970,${soil}`,
      ]);
    const aal = async (name: string, soil: string) => {
      const r = await quakeEpCurve(site(name, soil), '--json');
      expect(r.code, r.stderr).toBe(0);
      return r.json().AALAnalyticAmt as number;
    };
    const reference = await aal('reference', ',');
    expect(reference).toBeGreaterThan(0);
    expect(await aal('760', '1,760')).toBe(reference);
    const rock = await aal('rock', '1,1200');
    const soft = await aal('soft', '1,260');
    console.log(`LA home AAL by site: Vs30 1200 ${rock}, 760 ${reference}, 260 ${soft}`);
    expect(rock).toBeLessThan(reference);
    expect(soft).toBeGreaterThan(1.3 * reference);
  }, 120_000);
});

describe('stored portfolios: CLI and GET /portfolio/ep-curve give the same curve', () => {
  let db: string;
  let id: string;
  let child: ChildProcess | undefined;
  const run = (argv: string[]) => cli(['--db', db, ...argv], { CATINTEL_MODELS: models });
  /** `portfolio ep-curve ID --json` standalone: the first test's answer and the bytes the server must give, run once. */
  let standalone: ReturnType<typeof run> | undefined;
  const standaloneCurve = () => (standalone ??= run(['portfolio', 'ep-curve', id, '--json']));
  beforeAll(async () => {
    db = path.join(dir, 'book.duckdb');
    const file = book('book.csv', HEADER, [
      ...miamiRows().slice(0, 20),
      '1,CO,D1,39.7392,-104.9903,US,1050,5050,AA1,400000,100000,0,USD',
    ]);
    const r = await run(['portfolio', 'import', file, '--name', 'Miami and Denver', '--json']);
    expect(r.code, r.stderr).toBe(0);
    id = r.json().id;
  }, 60_000);
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('a stored portfolio runs as its OED rows (one account, no terms: insured = ground-up); the same file gives the same mean curve', async () => {
    const a = await standaloneCurve();
    expect(a.code, a.stderr).toBe(0);
    const body = a.json();
    expect(body).toMatchObject({ PortfolioId: id, NumLocations: 21, NumLocationsModelled: 20, CurCd: 'USD' });
    expect(body.AALAmt).toBeGreaterThan(0);
    expect(body.il.AALAmt).toBe(body.gul.AALAmt);
    const portfolio = (await run(['portfolio', 'show', id, '--json'])).json();
    expect(body.TotalInsuranceAmt).toBe(portfolio.TotalInsuranceAmt);
    const last = JSON.parse(a.stderr.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ progress: 'ep curve', done: 4, total: 4 });
    // The analytical means do not depend on how the rows are numbered (the samples' groups do).
    const stored = (await run(['portfolio', 'ep-curve', id, '--samples', '0', '--json'])).json();
    const file = (
      await run(['portfolio', 'ep-curve', '--input', path.join(dir, 'book.csv'), '--samples', '0', '--json'])
    ).json();
    expect(stored.EPCalc).toBe(1);
    expect(file.gul.curve).toEqual(stored.gul.curve);
    expect(file.gul.AALAmt).toBe(stored.gul.AALAmt);
  }, 120_000);

  it('HTTP: json and csv as the CLI gives them, 404 for another account, CLI-only options refused', async () => {
    const store = await Store.open(db);
    try {
      const ctx = { ...contextOn(store), config: defaultConfig({ dbPath: db, env: { CATINTEL_MODELS: models } }) };
      const p = await platform(store, { ctx });
      const q = `/api/v1/portfolio/ep-curve?portfolio_id=${id}&seed=4`;
      const json = await p.call(q, { token: p.adminToken });
      expect(json.status).toBe(200);
      checkCurve(json.body.curve);
      const csvReply = await p.call(`${q}&format=csv`, { token: p.adminToken });
      expect(csvReply.status).toBe(200);
      expect(csvReply.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(String(csvReply.body).split('\n')[0]).toBe('SummaryId,EPCalc,EPType,ReturnPeriod,Loss');
      expect((await p.call(q, { token: await token('agency', { sub: 'someone-else' }) })).status).toBe(404);
      expect((await p.call(q)).status).toBe(401);
      for (const bad of [
        'out=/tmp/x.json',
        'models=/tmp',
        'format=png',
        'format=parquet',
        'scenario=ssp585',
        'samples=5000',
      ]) {
        const reply = await p.call(`${q}&${bad}`, { token: p.adminToken, unchecked: true });
        expect(reply.status, bad).toBe(400);
        expect(reply.headers.get('content-type')).toMatch(/problem\+json/);
      }
      const cliBody = (await run(['portfolio', 'ep-curve', id, '--seed', '4', '--json'])).json();
      expect(json.body).toEqual(cliBody);
      const cliCsv = (await run(['portfolio', 'ep-curve', id, '--seed', '4', '--format', 'csv', '--quiet'])).stdout;
      expect(String(csvReply.body)).toBe(cliCsv);
    } finally {
      await store.close();
    }
  }, 120_000);

  const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/handlers/portfolio-ep-curve.js'));
  it.skipIf(!built)(
    'works while catintel serve owns the store (the local channel), with the same bytes',
    async () => {
      const alone = await standaloneCurve();
      child = await startServe(db, { env: { CATINTEL_MODELS: models } });
      const through = await run(['portfolio', 'ep-curve', id, '--json']);
      expect(through.code, through.stderr).toBe(0);
      expect(through.stdout).toBe(alone.stdout);
      await stopServe(child); // the next test opens the store itself
    },
    120_000,
  );

  it('refusals: an unknown id, bad options, years beyond the package, a climate scenario, a missing package (with the command that builds it)', async () => {
    const r = await run(['portfolio', 'ep-curve', '00000000-0000-4000-8000-000000000000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no portfolio 00000000-0000-4000-8000-000000000000/);
    expect((await run(['portfolio', 'ep-curve', id, '--perils', 'volcano'])).code).toBe(2);
    expect((await run(['portfolio', 'ep-curve'])).code).toBe(2);
    expect((await run(['portfolio', 'ep-curve', id, '--samples', '-1'])).code).toBe(2);
    const years = await run(['portfolio', 'ep-curve', id, '--years', '5000']);
    expect(years.code).toBe(2);
    expect(years.stderr).toMatch(
      new RegExp(`holds ${TEST_PACKAGE_YEARS} years.*catintel model build hurricane --years 5000 --out`),
    );
    const fewer = (await run(['portfolio', 'ep-curve', id, '--years', '50', '--json'])).json();
    expect(fewer).toMatchObject({ years: 50, return_periods: [2, 5, 10, 25, 50] });
    const climate = await run(['portfolio', 'ep-curve', id, '--scenario', 'ssp585']);
    expect(climate.code).toBe(2);
    expect(climate.stderr).toMatch(/historical record/);
    const missing = await cli(['--db', db, 'portfolio', 'ep-curve', id, '--models', path.join(dir, 'no-models')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /no hurricane model package in .*no-models\/hurricane.*catintel model build hurricane --out .*no-models\/hurricane/,
    );
  }, 120_000);
});

describe('a book outside the covered area (PiWind, all Great Britain)', () => {
  const piwind = sharedData('oasis_piwind/exposure/SourceLocOEDPiWind10.csv');
  let db: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv], { CATINTEL_MODELS: models });
  beforeAll(() => {
    db = path.join(tempDir('catintel-epcurve-gb-'), 'gb.duckdb');
  });

  it('imports with a warning giving the count outside coverage; its EP curve is exit 2 with the reason, not an AAL of 0', async () => {
    const imported = await run(['portfolio', 'import', piwind, '--name', 'PiWind', '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json()).toMatchObject({ NumLocations: 10, NumLocationsOutsideCoverage: 10 });
    const id = imported.json().id;
    const ep = await run(['portfolio', 'ep-curve', id]);
    expect(ep.code).toBe(2);
    expect(ep.stderr).toMatch(new RegExp(`none of the 10 locations of portfolio ${id} is inside the covered area`));
    expect(ep.stdout).not.toMatch(/AAL/);
    const file = await run(['portfolio', 'ep-curve', '--input', piwind]);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/none of the 10 locations of SourceLocOEDPiWind10\.csv is inside the covered area/);
  });

  it('HTTP: the EP curve is 422 naming the portfolio', async () => {
    const store = await Store.open(db);
    try {
      const p = await platform(store);
      const csv = fs.readFileSync(piwind, 'utf8');
      const created = await p.call('/api/v1/portfolio?name=PiWind%20HTTP', {
        raw: csv,
        contentType: 'text/csv',
        token: p.adminToken,
      });
      expect(created.status).toBe(201);
      const ep = await p.call(`/api/v1/portfolio/ep-curve?portfolio_id=${created.body.id}`, { token: p.adminToken });
      expect(ep.status).toBe(422);
      expect(ep.body.detail).toMatch(/none of the 10 locations/);
    } finally {
      await store.close();
    }
  });
});
