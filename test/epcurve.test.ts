/**
 * EP curves (issue 12 part 4): the catalog, year loss table and EP metrics on the real hazard baseline, and
 * `catintel portfolio ep-curve` / GET /portfolio/ep-curve on an imported OED portfolio. The properties every
 * EP table must have are checked on every curve made here: OEP <= AEP at each return period, both
 * non-decreasing with the return period, TVaR >= the loss at the same point; the same seed gives the same
 * bytes. A Miami location's hurricane-footprint rate is checked against the baseline's own
 * lambda_damaging there, which is what the catalog is built to reproduce.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaselineGrid } from '../src/databuild/load-baseline.js';
import { climateCase } from '../src/domain/climate.js';
import { cellAt } from '../src/domain/scoring/grid.js';
import { MODELLED_PERILS, buildElt, cellGeometry, haversineKm } from '../src/epcurve/domain/catalog.js';
import { buildExposure } from '../src/epcurve/domain/exposure.js';
import { runEpModel } from '../src/epcurve/domain/model.js';
import { RETURN_PERIODS, aliasTable, poisson, type EpPoint } from '../src/epcurve/domain/ylt.js';
import { EMANUEL_V_THRESHOLD_MS, WIND_V_HALF_MS, emanuelMdr, floodMdr, pagerMdr, PAGER_THETA } from '../src/epcurve/domain/vulnerability.js';
import { mulberry32 } from '../src/lib/random.js';
import { Store } from '../src/store/db.js';
import { syntheticPortfolio } from '../bench/epcurve-portfolio.js';
import { cli, tempDir } from './helpers/cli.js';
import { startServe } from './helpers/serve.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';
import { platform, token } from './http/helpers/harness.js';

const grid = loadBaselineGrid();

/** A JSON curve back in the domain's shape, for checkCurve. */
const fromJson = (curve: any[]): EpPoint[] =>
  curve.map((p) => ({ return_period: p.ReturnPeriod, exceedance_probability: p.ExceedanceProbability, oep: p.OEPLossAmt, aep: p.AEPLossAmt, oep_tvar: p.OEPTVaRAmt, aep_tvar: p.AEPTVaRAmt }));

const isCents = (x: number) => Math.abs(Math.round(x * 100) - x * 100) < 1e-6;

function checkCurve(curve: EpPoint[]): void {
  expect(curve.length).toBeGreaterThan(0);
  for (let i = 0; i < curve.length; i++) {
    const p = curve[i];
    expect(p.oep, `OEP <= AEP at ${p.return_period}`).toBeLessThanOrEqual(p.aep);
    expect(p.oep_tvar, `OEP TVaR >= OEP at ${p.return_period}`).toBeGreaterThanOrEqual(p.oep);
    expect(p.aep_tvar, `AEP TVaR >= AEP at ${p.return_period}`).toBeGreaterThanOrEqual(p.aep);
    if (i > 0) {
      expect(p.oep, `OEP non-decreasing at ${p.return_period}`).toBeGreaterThanOrEqual(curve[i - 1].oep);
      expect(p.aep, `AEP non-decreasing at ${p.return_period}`).toBeGreaterThanOrEqual(curve[i - 1].aep);
    }
  }
}

describe('damage functions (docs/methods.md#damage-functions)', () => {
  it('Emanuel 2011 is 0 at the threshold, 1/2 at V_half, and wood frame is weaker than steel', () => {
    expect(emanuelMdr(EMANUEL_V_THRESHOLD_MS, 86)).toBe(0);
    expect(emanuelMdr(86, 86)).toBeCloseTo(0.5, 12);
    expect(emanuelMdr(60, WIND_V_HALF_MS.wood)).toBeGreaterThan(emanuelMdr(60, WIND_V_HALF_MS.steel));
  });
  it('PAGER is 1/2 at theta (unknown construction), flood curves hit their knots', () => {
    expect(pagerMdr(PAGER_THETA, 'unknown')).toBeCloseTo(0.5, 6);
    expect(pagerMdr(8, 'unknown')).toBeCloseTo(0.0077, 3); // docs/methods.md: MMI VIII 0.77 %
    // USACE RES1-1SNB: 2 ft above the first floor (1 ft up) = 3 ft of water = 0.9144 m -> 32.1 %.
    expect(floodMdr(0.9144, 'residential')).toBeCloseTo(0.321, 6);
    // JRC North America: 1 m -> 0.58.
    expect(floodMdr(1, 'commercial')).toBeCloseTo(0.58, 12);
  });
});

describe('sampling', () => {
  it('Poisson counts have mean = variance = lambda, small and large lambda', () => {
    for (const lambda of [0.4, 7, 60, 650]) {
      const rand = mulberry32(11);
      let s = 0;
      let s2 = 0;
      const n = 40_000;
      for (let i = 0; i < n; i++) {
        const k = poisson(lambda, rand);
        s += k;
        s2 += k * k;
      }
      const mean = s / n;
      expect(Math.abs(mean - lambda) / lambda, `mean at ${lambda}`).toBeLessThan(0.03);
      expect(Math.abs(s2 / n - mean * mean - lambda) / lambda, `variance at ${lambda}`).toBeLessThan(0.06);
    }
  });
  it('the alias table draws each event in proportion to its rate', () => {
    const w = Float64Array.from([5, 1, 0.5, 3.5]);
    const { prob, alias } = aliasTable(w);
    const rand = mulberry32(3);
    const counts = [0, 0, 0, 0];
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const u = rand() * 4;
      const k = u | 0;
      counts[u - k < prob[k] ? k : alias[k]]++;
    }
    counts.forEach((c, i) => expect(Math.abs(c / n - w[i] / 10)).toBeLessThan(0.005));
  });
});

describe('catalog on the hazard baseline', () => {
  it("a Miami location is inside a damaging hurricane footprint at the baseline's lambda_damaging of its neighbourhood", () => {
    const loc = { locNumber: 'MIA', lat: 25.77, lng: -80.19, occupancyCode: 1050, constructionCode: 5050, perils: ['hurricane_wind'], tiv: { building: 1e6, contents: 0, bi: 0, other: 0 }, currency: 'USD' };
    const ex = buildExposure(grid, [loc], ['hurricane_wind']);
    const elt = buildElt(grid, ex.exposure, { perils: ['hurricane_wind'], climate: climateCase('baseline', null), seed: 1 });
    let rate = 0;
    for (let i = 0; i < elt.rate.length; i++) rate += elt.rate[i];
    // The expected rate: the area-weighted mean of lambda_damaging over the 124 km disc around the site.
    const geo = cellGeometry(grid);
    const lam = grid.channels.get('hurricane_wind.lambda_damaging')!;
    const here = cellAt(grid, loc.lat, loc.lng);
    let num = 0;
    let den = 0;
    for (let c = 0; c < grid.nCells; c++) {
      if (!(lam[c] > 0) || haversineKm(geo.lat[here], geo.lng[here], geo.lat[c], geo.lng[c]) >= 124) continue;
      num += lam[c] * geo.areaKm2[c];
    }
    den = Math.PI * 124 * 124;
    expect(rate).toBeGreaterThan(0);
    expect(rate / (num / den)).toBeCloseTo(1, 6);
    // And that neighbourhood rate is the right size next to the cell's own.
    expect(rate / lam[here]).toBeGreaterThan(0.3);
    expect(rate / lam[here]).toBeLessThan(3);
  });

  it('a 2,000-location portfolio over 20,000 years: EP properties, simulated AAL near the analytic one, same seed same numbers', () => {
    const locs = syntheticPortfolio(grid, 2000, 5);
    const o = { years: 20_000, seed: 9, perils: MODELLED_PERILS, scenario: 'baseline' as const, horizon: null };
    const a = runEpModel(grid, locs, o);
    checkCurve(a.curve);
    expect(a.curve.map((p) => p.return_period)).toEqual([...RETURN_PERIODS]);
    expect(a.ept).toHaveLength(40);
    expect(a.psept).toHaveLength(10 * 4 * RETURN_PERIODS.filter((rp) => rp <= 2000).length);
    expect(Math.abs(a.aal / a.aal_analytic - 1)).toBeLessThan(0.05);
    expect(a.curve.at(-1)!.oep).toBeGreaterThan(a.curve[0].oep);
    expect(JSON.stringify(runEpModel(grid, locs, o))).toBe(JSON.stringify(a));
    const b = runEpModel(grid, locs, { ...o, seed: 10 });
    expect(b.aal).not.toBe(a.aal);
    // A warmer climate raises the hurricane-driven losses of a Gulf book (frequency of Cat 4-5 and intensity up).
    const ssp = runEpModel(grid, locs, { ...o, scenario: 'ssp585', horizon: 2080 });
    checkCurve(ssp.curve);
    expect(ssp.aal_by_peril.storm_surge).toBeGreaterThan(a.aal_by_peril.storm_surge);
  });
});

const HEADER = 'PortNumber,AccNumber,LocNumber,Latitude,Longitude,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,BITIV,LocPerilsCovered,LocCurrency,CountryCode';
const ROWS = [
  '1,A1,MIAMI,25.77,-80.19,1050,5050,500000,200000,50000,WW1;QQ1;OO1,USD,US',
  '1,A1,FTMYERS,26.64,-81.87,1100,5100,2000000,800000,100000,AA1,USD,US',
  '1,A1,SF,37.77,-122.42,1050,5050,900000,300000,0,QQ1;BB1,USD,US',
  '1,A1,OKC,35.47,-97.52,1050,5051,300000,100000,0,AA1,USD,US',
  '1,A1,NOLA,29.95,-90.07,1150,5200,5000000,2000000,500000,AA1,USD,US',
];

describe('catintel portfolio ep-curve and GET /portfolio/ep-curve', () => {
  let dir: string;
  let db: string;
  let csv: string;
  let id: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv]);
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    dir = tempDir('catintel-epcurve-');
    db = path.join(dir, 'book.duckdb');
    csv = path.join(dir, 'book.csv');
    fs.writeFileSync(csv, [HEADER, ...ROWS].join('\n') + '\n');
    const r = await run(['portfolio', 'import', csv, '--name', 'Gulf and west', '--json']);
    expect(r.code, r.stderr).toBe(0);
    id = r.json().id;
  }, 60_000);
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('json: years, seed, model version and a curve with the EP properties; same seed, same bytes', async () => {
    const a = await run(['portfolio', 'ep-curve', id, '--years', '5000', '--seed', '3', '--json']);
    expect(a.code, a.stderr).toBe(0);
    const body = a.json();
    expect(body).toMatchObject({ PortfolioId: id, years: 5000, seed: 3, model_version: 'catintel-ep-1.0.0', NumLocations: 5, NumLocationsModelled: 5, NumLocationsOutsideCoverage: 0, CurCd: 'USD' });
    expect(body.perils_not_modelled).toEqual([]);
    checkCurve(fromJson(body.curve));
    expect(body.AALAmt).toBeGreaterThan(0);
    // NDJSON progress on a pipe, ending at every year simulated.
    const last = JSON.parse(a.stderr.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ progress: 'ep curve', done: 5000, total: 5000, unit: 'years' });
    const b = await run(['portfolio', 'ep-curve', id, '--years', '5000', '--seed', '3', '--json']);
    expect(b.stdout).toBe(a.stdout);
    // The same rows read straight from the OED file give the same curve.
    const c = (await run(['portfolio', 'ep-curve', '--input', csv, '--years', '5000', '--seed', '3', '--json'])).json();
    expect(c.curve).toEqual(body.curve);
    expect(c).toMatchObject({ PortfolioId: null, input: 'book.csv' });
  });

  it('json speaks the vocabulary of every insurance output (ACORD-style names, money to the cent)', async () => {
    const body = (await run(['portfolio', 'ep-curve', id, '--years', '1000', '--seed', '5', '--json'])).json();
    const portfolio = (await run(['portfolio', 'show', id, '--json'])).json();
    // The same names and the same figure as the portfolio and its exposure.
    expect(body.TotalInsuranceAmt).toBe(portfolio.TotalInsuranceAmt);
    expect(body.CurCd).toBe(portfolio.CurCd);
    for (const old of ['portfolio_id', 'currency', 'locations', 'locations_modelled', 'locations_outside_coverage', 'tiv_total', 'aal', 'aal_analytic', 'aal_by_peril']) expect(body).not.toHaveProperty(old);
    expect(Object.keys(body.curve[0]).sort()).toEqual(['AEPLossAmt', 'AEPTVaRAmt', 'ExceedanceProbability', 'OEPLossAmt', 'OEPTVaRAmt', 'ReturnPeriod']);
    const amounts = [body.TotalInsuranceAmt, body.AALAmt, body.AALAnalyticAmt, ...Object.values(body.AALAmtByPeril) as number[],
      ...body.curve.flatMap((p: any) => [p.OEPLossAmt, p.AEPLossAmt, p.OEPTVaRAmt, p.AEPTVaRAmt])];
    expect(amounts.filter((x) => !isCents(x))).toEqual([]);
    expect(amounts.some((x) => !Number.isInteger(x))).toBe(true); // cents kept, not whole units
  });

  it('csv is the ORD ept table (psept on request); svg and png are real images', async () => {
    const ept = await run(['portfolio', 'ep-curve', id, '--years', '2000', '--format', 'csv', '--quiet']);
    expect(ept.code, ept.stderr).toBe(0);
    const lines = ept.stdout.trim().split('\n');
    expect(lines[0]).toBe('SummaryId,EPCalc,EPType,ReturnPeriod,Loss');
    expect(lines).toHaveLength(1 + 4 * 10);
    expect(lines[1]).toMatch(/^1,1,1,1000\.000000,\d+\.\d{6}$/);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[2]))).toEqual(new Set(['1', '2', '3', '4']));
    const ps = path.join(dir, 'psept.csv');
    const psept = await run(['portfolio', 'ep-curve', id, '--years', '2000', '--format', 'csv', '--psept', '--out', ps, '--quiet']);
    expect(psept.code, psept.stderr).toBe(0);
    const pl = fs.readFileSync(ps, 'utf8').trim().split('\n');
    expect(pl[0]).toBe('SummaryId,SampleId,EPType,ReturnPeriod,Loss');
    expect(new Set(pl.slice(1).map((l) => l.split(',')[1])).size).toBe(10);

    const svgFile = path.join(dir, 'ep.svg');
    const svg = await run(['portfolio', 'ep-curve', id, '--years', '2000', '--format', 'svg', '--out', svgFile, '--json']);
    expect(svg.code, svg.stderr).toBe(0);
    expect(svg.json().written).toMatchObject({ file: svgFile, format: 'svg' });
    const text = fs.readFileSync(svgFile, 'utf8');
    expect(text.startsWith('<svg')).toBe(true);
    expect(text).toContain('Return period (years, log scale)');
    expect(text).toContain('Loss (USD)');
    expect(text).toContain('AAL ');
    const pngFile = path.join(dir, 'ep.png');
    const png = await run(['portfolio', 'ep-curve', id, '--years', '2000', '--format', 'png', '--out', pngFile, '--quiet']);
    expect(png.code, png.stderr).toBe(0);
    const bytes = fs.readFileSync(pngFile);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.readUInt32BE(16)).toBeGreaterThan(600); // IHDR width
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(300); // IHDR height
    const noOut = await run(['portfolio', 'ep-curve', id, '--format', 'png']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out/);
  }, 60_000);

  it('takes the event-type names as perils: hurricane and flood are hurricane_wind and riverine_flood', async () => {
    const byEventType = await run(['portfolio', 'ep-curve', id, '--years', '1000', '--seed', '3', '--perils', 'hurricane,flood', '--json']);
    const byPeril = await run(['portfolio', 'ep-curve', id, '--years', '1000', '--seed', '3', '--perils', 'hurricane_wind,riverine_flood', '--json']);
    expect(byEventType.code, byEventType.stderr).toBe(0);
    expect(byEventType.json().perils).toEqual(['hurricane_wind', 'riverine_flood']);
    expect(byEventType.stdout).toBe(byPeril.stdout);
  });

  it('an unknown id is exit 2 naming it; bad options are usage errors', async () => {
    const r = await run(['portfolio', 'ep-curve', '00000000-0000-4000-8000-000000000000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no portfolio 00000000-0000-4000-8000-000000000000/);
    expect((await run(['portfolio', 'ep-curve', id, '--years', '50'])).code).toBe(2);
    expect((await run(['portfolio', 'ep-curve', id, '--perils', 'volcano'])).code).toBe(2);
    expect((await run(['portfolio', 'ep-curve'])).code).toBe(2);
  });

  it('HTTP: json and csv as the CLI gives them, 404 for another account, CLI-only options refused', async () => {
    const store = await Store.open(db);
    try {
      const p = await platform(store);
      const q = `/api/v1/portfolio/ep-curve?portfolio_id=${id}&years=2000&seed=4`;
      const json = await p.call(q, { token: p.adminToken });
      expect(json.status).toBe(200);
      checkCurve(fromJson(json.body.curve));
      const csvReply = await p.call(`${q}&format=csv`, { token: p.adminToken });
      expect(csvReply.status).toBe(200);
      expect(csvReply.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(String(csvReply.body).split('\n')[0]).toBe('SummaryId,EPCalc,EPType,ReturnPeriod,Loss');
      expect((await p.call(q, { token: await token('agency', { sub: 'someone-else' }) })).status).toBe(404);
      expect((await p.call(q)).status).toBe(401);
      expect((await p.call(`${q}&out=/tmp/x.json`, { token: p.adminToken, unchecked: true })).status).toBe(400);
      expect((await p.call(`${q}&format=png`, { token: p.adminToken, unchecked: true })).status).toBe(400);
      const cliBody = (await cliOnStore(['portfolio', 'ep-curve', id, '--years', '2000', '--seed', '4', '--json'])).json();
      expect(json.body).toEqual(cliBody);
    } finally {
      await store.close();
    }
  });

  // The CLI against the store file the HTTP test has closed again.
  const cliOnStore = (argv: string[]) => run(argv);

  const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/handlers/portfolio-ep-curve.js'));
  it.skipIf(!built)('works while catintel serve owns the store (the local channel), with the same bytes', async () => {
    const standalone = await run(['portfolio', 'ep-curve', id, '--years', '2000', '--json']);
    child = await startServe(db);
    const through = await run(['portfolio', 'ep-curve', id, '--years', '2000', '--json']);
    expect(through.code, through.stderr).toBe(0);
    expect(through.stdout).toBe(standalone.stdout);
    const pngFile = path.join(dir, 'served.png');
    const png = await run(['portfolio', 'ep-curve', id, '--years', '2000', '--format', 'png', '--out', pngFile, '--quiet']);
    expect(png.code, png.stderr).toBe(0);
    expect(fs.readFileSync(pngFile).subarray(1, 4).toString()).toBe('PNG');
    child.kill('SIGTERM');
  }, 60_000);
});

describe('a book outside the covered area (PiWind, all Great Britain)', () => {
  const piwind = sharedData('oasis_piwind/exposure/SourceLocOEDPiWind10.csv');
  let db: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv]);
  beforeAll(() => {
    db = path.join(tempDir('catintel-epcurve-gb-'), 'gb.duckdb');
  });

  it('imports with a warning giving the count outside coverage; its EP curve is exit 2 with the reason, not an AAL of 0', async () => {
    const imported = await run(['portfolio', 'import', piwind, '--name', 'PiWind', '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json()).toMatchObject({ NumLocations: 10, NumLocationsOutsideCoverage: 10 });
    const id = imported.json().id;
    const again = await run(['portfolio', 'import', piwind, '--name', 'PiWind']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/all 10 locations are outside the covered area \(US states, DC and territories\)/);
    const ep = await run(['portfolio', 'ep-curve', id, '--years', '1000']);
    expect(ep.code).toBe(2);
    expect(ep.stderr).toMatch(new RegExp(`none of the 10 locations of portfolio ${id} is inside the covered area`));
    expect(ep.stdout).not.toMatch(/AAL/);
    const file = await run(['portfolio', 'ep-curve', '--input', piwind, '--years', '1000']);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/none of the 10 locations of SourceLocOEDPiWind10\.csv is inside the covered area/);
    // Bulk scoring of the same file says the same thing the same way.
    const scored = await run(['score', '--input', piwind, '--out', path.join(path.dirname(db), 'scored')]);
    expect(scored.code).toBe(2);
  });

  it('HTTP: the import answers the count; the EP curve is 422 naming the portfolio', async () => {
    const store = await Store.open(db);
    try {
      const p = await platform(store);
      const csv = fs.readFileSync(piwind, 'utf8');
      const created = await p.call('/api/v1/portfolio?name=PiWind%20HTTP', { raw: csv, contentType: 'text/csv', token: p.adminToken });
      expect(created.status).toBe(201);
      expect(created.body.NumLocationsOutsideCoverage).toBe(10);
      const ep = await p.call(`/api/v1/portfolio/ep-curve?portfolio_id=${created.body.id}&years=1000`, { token: p.adminToken });
      expect(ep.status).toBe(422);
      expect(ep.body.detail).toMatch(/none of the 10 locations/);
    } finally {
      await store.close();
    }
  });
});
