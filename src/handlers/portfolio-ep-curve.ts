/**
 * GET /portfolio/ep-curve?portfolio_id=&years=&seed=&perils=&scenario=&horizon=&format=json|csv&psept= and
 * `catintel portfolio ep-curve ID [--years N] [--seed S] [--perils a,b] [--scenario --horizon]
 * [--format json|csv|svg|png] [--psept] [--out FILE]` (docs/contract.md#portfolios): the exceedance-probability curve of a
 * portfolio from a stochastic catalog drawn on the hazard baseline (docs/ep-curves.md): OEP and AEP at 2 to
 * 1000 years, TVaR at the same points, AAL, with years, seed and model version. Same inputs and seed, same
 * bytes. `--input FILE.csv` (CLI addition) takes an OED location file instead of a stored portfolio.
 * `--out`, `--input` and the svg/png pictures are the CLI's: over HTTP they are refused (the server writes no
 * file for an API caller and reads none of theirs).
 */
import { baselineProvenance, type BaselineProvenance } from '../domain/scoring/baseline-provenance.js';
import fs from 'node:fs';
import path from 'node:path';
import { PERILS, PERIL_ALIASES, type Peril } from '../domain/scoring/perils.js';
import type { Horizon, Scenario } from '../domain/climate.js';
import { CatintelError, invalidParameter } from '../errors.js';
import type { EpPoint } from '../epcurve/domain/ylt.js';
import { int, list, str } from './params.js';
import { parseClimate } from './score-point.js';
import { defineHandler } from './types.js';

export const EP_FORMATS = ['json', 'csv', 'svg', 'png'] as const;
export type EpFormat = (typeof EP_FORMATS)[number];
export const DEFAULT_YEARS = 50_000;
export const MIN_YEARS = 100;
export const MAX_YEARS = 1_000_000;
export const DEFAULT_SEED = 1;

export interface EpCurveInput {
  portfolioId?: string;
  inputFile?: string;
  years: number;
  seed: number;
  perils: Peril[] | null;
  scenario: Scenario;
  horizon: Horizon | null;
  format: EpFormat;
  psept: boolean;
  out?: string;
}

/** One return period of the curve, with ORD's names (ReturnPeriod; OEP/AEP and their TVaR as EPType 1-4) and ACORD-style Amt for money. */
export interface EpCurvePoint {
  ReturnPeriod: number;
  ExceedanceProbability: number;
  OEPLossAmt: number;
  AEPLossAmt: number;
  OEPTVaRAmt: number;
  AEPTVaRAmt: number;
}

/**
 * The JSON answer. Insurance fields carry the names every other insurance output uses (ACORD-style, as
 * portfolio exposure: PortfolioId, CurCd, NumLocations..., TotalInsuranceAmt; money in cents); the model run's
 * own fields (years, seed, model_version, catalog ...) keep the API's names, as exposure keeps as_of and events.
 */
export interface EpCurveBody extends BaselineProvenance {
  PortfolioId: string | null;
  input: string | null;
  years: number;
  seed: number;
  model_version: string;
  hazard_model_version: string;
  scenario: Scenario;
  horizon: Horizon | null;
  perils: string[];
  perils_not_modelled: { peril: string; reason: string }[];
  CurCd: string | null;
  NumLocations: number;
  NumLocationsModelled: number;
  NumLocationsOutsideCoverage: number;
  TotalInsuranceAmt: number;
  AALAmt: number;
  AALAnalyticAmt: number;
  AALAmtByPeril: Record<string, number>;
  catalog: { events_generated: Record<string, number>; events_with_loss: number; state_seasons: number; annual_event_rate: number; events_simulated: number };
  return_periods: number[];
  curve: EpCurvePoint[];
  method: string;
  written?: { file: string; format: EpFormat; bytes: number };
}

/** Money to the cent (docs/contract.md#portfolios: amounts as plain numbers, in the currency CurCd names). */
const cents = (x: number) => Math.round(x * 100) / 100;

function curvePoint(p: EpPoint): EpCurvePoint {
  return {
    ReturnPeriod: p.return_period,
    ExceedanceProbability: p.exceedance_probability,
    OEPLossAmt: cents(p.oep),
    AEPLossAmt: cents(p.aep),
    OEPTVaRAmt: cents(p.oep_tvar),
    AEPTVaRAmt: cents(p.aep_tvar),
  };
}

const EPT_HEADER = 'SummaryId,EPCalc,EPType,ReturnPeriod,Loss';
const PSEPT_HEADER = 'SummaryId,SampleId,EPType,ReturnPeriod,Loss';

const METHOD =
  'stochastic catalog on the catintel hazard baseline (regional footprints for hurricane wind, storm surge and earthquake; cell events for tornado and wildfire; ' +
  'NRI state seasons for riverine flood and winter storm), docs/methods.md#damage-functions damage functions by construction and occupancy anchored on NRI loss levels, ' +
  'Poisson year loss table; OEP/AEP/TVaR as Oasis lec (EPCalc 1); docs/ep-curves.md';

function bool(raw: Record<string, unknown>, name: string): boolean {
  const v = raw[name];
  if (v === undefined || v === false || v === 'false' || v === '0' || v === '') return false;
  if (v === true || v === 'true' || v === '1') return true;
  throw invalidParameter(name, `"${String(v)}" is not true or false`);
}

function portfolioIdOf(raw: Record<string, unknown>): string | undefined {
  const v = raw.portfolio_id;
  if (Array.isArray(v)) {
    if (v.length > 1) throw invalidParameter('portfolio_id', `give one portfolio id (got ${v.length})`);
    return v.length ? String(v[0]) : undefined;
  }
  return str(raw, 'portfolio_id');
}

export const portfolioEpCurve = defineHandler<EpCurveInput, EpCurveBody | string | Buffer>({
  name: 'portfolio.ep_curve',
  summary: 'Exceedance probability curve of a portfolio: OEP, AEP and TVaR at 2 to 1000 years, and AAL',
  http: { method: 'GET', path: '/portfolio/ep-curve', access: 'agency', perAccount: true },
  cli: {
    command: ['portfolio', 'ep-curve'],
    args: ['portfolio_id...'],
    options: [
      { flags: '--years <n>', description: `years simulated (default ${DEFAULT_YEARS}, ${MIN_YEARS} to ${MAX_YEARS}; 1000 or more for the 1000-year point)` },
      { flags: '--seed <s>', description: `seed of the catalog and the simulated years (default ${DEFAULT_SEED}); the same seed gives the same output, byte for byte` },
      { flags: '--perils <list>', description: 'comma list of perils (default: every peril the locations cover; extreme_heat and drought damage no buildings and add nothing)' },
      { flags: '--scenario <scenario>', description: 'climate scenario: baseline (default), ssp245 or ssp585' },
      { flags: '--horizon <year>', description: '2030, 2050 (default with a scenario) or 2080' },
      { flags: '--format <format>', description: 'json (default), csv (ORD ept layout), svg or png (a chart; png needs --out)' },
      { flags: '--psept', description: 'with --format csv: the ORD psept table (one curve per block of years) instead of the ept' },
      { flags: '--out <file>', description: 'write the output to this file (the command then prints a summary)' },
      { flags: '--input <file>', description: 'an OED location CSV instead of a stored portfolio (a book not imported)' },
    ],
    examples: [
      'catintel portfolio ep-curve <portfolio-id>',
      'catintel portfolio ep-curve <portfolio-id> --years 100000 --seed 7 --format csv --out ept.csv',
      'catintel portfolio ep-curve --input SourceLocOED.csv --format png --out ep-curve.png',
      'catintel portfolio ep-curve <portfolio-id> --perils hurricane_wind,storm_surge --scenario ssp585 --horizon 2050 --json',
    ],
    paths: ['out', 'input'],
  },
  parse(raw, caller) {
    const overHttp = caller.clientIp !== undefined;
    const portfolioId = portfolioIdOf(raw);
    const inputRaw = str(raw, 'input');
    const outRaw = str(raw, 'out');
    if (overHttp && (inputRaw !== undefined || outRaw !== undefined)) {
      throw invalidParameter(inputRaw !== undefined ? 'input' : 'out', 'input and out are options of the CLI; over HTTP give portfolio_id and read the answer');
    }
    if (portfolioId === undefined && inputRaw === undefined) throw invalidParameter('portfolio_id', 'portfolio_id is required (or, in the CLI, --input FILE.csv with OED locations)');
    if (portfolioId !== undefined && inputRaw !== undefined) throw invalidParameter('input', 'give a portfolio id or --input, not both');
    for (const [name, v] of [['input', inputRaw], ['out', outRaw]] as const) {
      if (v !== undefined && v.includes('\0')) throw invalidParameter(name, `--${name}: a file name cannot hold a NUL byte`);
    }
    const years = int(raw, 'years', { min: MIN_YEARS, max: MAX_YEARS }, DEFAULT_YEARS);
    const seed = int(raw, 'seed', { min: 0, max: 2 ** 32 - 1 }, DEFAULT_SEED);
    const perils = list(raw, 'perils', PERILS, PERIL_ALIASES) ?? null;
    const { scenario, horizon } = parseClimate(raw);
    const format = (str(raw, 'format') ?? 'json') as EpFormat;
    const allowed: readonly string[] = overHttp ? ['json', 'csv'] : EP_FORMATS;
    if (!allowed.includes(format)) {
      throw invalidParameter('format', `"${format}" is not one of ${allowed.join(', ')}${overHttp ? ' (svg and png pictures are made by the CLI: catintel portfolio ep-curve ID --format png --out FILE)' : ''}`);
    }
    if (format === 'png' && outRaw === undefined) throw invalidParameter('out', '--format png writes an image: give --out FILE.png');
    // A table choice: it only matters for format csv, and is ignored otherwise.
    const psept = bool(raw, 'psept') && format === 'csv';
    return {
      portfolioId,
      inputFile: inputRaw === undefined ? undefined : path.resolve(inputRaw),
      years,
      seed,
      perils,
      scenario,
      horizon,
      format,
      psept,
      out: outRaw === undefined ? undefined : path.resolve(outRaw),
    };
  },
  async run(ctx, input, caller) {
    const [{ loadBaselineGrid }, { runEpModel }, { MODELLED_PERILS, NOT_MODELLED }, { readPortfolioLocations }, { cellAt }, { COVERAGE }] = await Promise.all([
      import('../databuild/load-baseline.js'),
      import('../epcurve/domain/model.js'),
      import('../epcurve/domain/catalog.js'),
      import('../portfolios/read.js'),
      import('../domain/scoring/grid.js'),
      import('../portfolios/coverage.js'),
    ]);
    const task = 'ep curve';
    ctx.progress({ task, done: 0, total: input.years, unit: 'years', message: 'reading the locations' });
    let locations;
    if (input.inputFile !== undefined) {
      const { readOedLocations } = await import('../epcurve/oed-input.js');
      locations = await readOedLocations(input.inputFile);
    } else {
      locations = await readPortfolioLocations(ctx.db, caller.account, input.portfolioId!);
      if (!locations) throw new CatintelError('not_found', `no portfolio ${input.portfolioId} in account ${caller.account}; \`catintel portfolio list\` shows yours`);
    }
    const grid = loadBaselineGrid();
    // A book wholly outside the baseline would give a curve of zeros: a number that says nothing, so refused (as bulk scoring refuses a file with no row it can score).
    if (locations.length > 0 && locations.every((l) => cellAt(grid, l.lat, l.lng) < 0)) {
      const what = input.portfolioId !== undefined ? `portfolio ${input.portfolioId}` : path.basename(input.inputFile!);
      const message = `none of the ${locations.length} locations of ${what} is inside the covered area (${COVERAGE}); an EP curve of it would be 0, so none was computed`;
      throw new CatintelError('validation_failed', message, { errors: [{ field: input.portfolioId !== undefined ? 'portfolio_id' : 'input', message }] });
    }
    const asked: readonly string[] = input.perils ?? MODELLED_PERILS;
    const perils = MODELLED_PERILS.filter((p) => asked.includes(p));
    const notModelled = asked.filter((p) => !(MODELLED_PERILS as readonly string[]).includes(p)).map((p) => ({ peril: p, reason: NOT_MODELLED[p as Peril] ?? 'not modelled' }));
    const r = runEpModel(grid, locations, { years: input.years, seed: input.seed, perils, scenario: input.scenario, horizon: input.horizon }, (stage, done, total) =>
      ctx.progress({ task, done, total, unit: 'years', message: stage }),
    );
    const body: EpCurveBody = {
      PortfolioId: input.portfolioId ?? null,
      input: input.inputFile === undefined ? null : path.basename(input.inputFile),
      years: r.years,
      seed: r.seed,
      model_version: r.model_version,
      hazard_model_version: r.hazard_model_version,
      // The perils that carry loss name the sources, the largest first (docs/contract.md#events); all modelled ones when none does.
      ...baselineProvenance(grid.header, lossPerilsFirst(r.perils, r.aal_by_peril)),
      scenario: r.scenario,
      horizon: r.horizon,
      perils: r.perils,
      perils_not_modelled: notModelled,
      CurCd: r.currency,
      NumLocations: r.locations,
      NumLocationsModelled: r.locations_modelled,
      NumLocationsOutsideCoverage: r.locations_outside_coverage,
      TotalInsuranceAmt: cents(r.tiv_total),
      AALAmt: cents(r.aal),
      AALAnalyticAmt: cents(r.aal_analytic),
      AALAmtByPeril: Object.fromEntries(Object.entries(r.aal_by_peril).map(([peril, x]) => [peril, cents(x)])),
      catalog: r.catalog,
      return_periods: r.return_periods,
      curve: r.curve.map(curvePoint),
      method: METHOD,
    };
    ctx.progress({ task, done: input.years, total: input.years, unit: 'years', message: 'done' });
    const notes: string[] = [];
    if (r.locations_outside_coverage > 0) notes.push(`${r.locations_outside_coverage} locations are outside the hazard baseline's coverage (US states and territories) and add no loss`);
    if (r.currency === null) notes.push('the locations use several currencies; losses are summed as given, without conversion');
    let payload: string | Buffer;
    if (input.format === 'csv') {
      const { f32 } = await import('../loss/domain/format.js');
      const rows = input.psept ? r.psept : r.ept;
      payload = [input.psept ? PSEPT_HEADER : EPT_HEADER, ...rows.map((x) => `${x.summaryId},${x.epCalc},${x.epType},${x.returnPeriod.toFixed(6)},${f32(x.loss, 6)}`)].join('\n') + '\n';
    } else if (input.format === 'svg' || input.format === 'png') {
      const chart = await import('../epcurve/chart.js');
      const c = {
        title: `EP curve: ${body.PortfolioId ?? body.input} (${r.locations_modelled.toLocaleString('en-US')} locations)`,
        subtitle: [
          `${r.years.toLocaleString('en-US')} simulated years, seed ${r.seed}, ${r.scenario}${r.horizon ? ` ${r.horizon}` : ''}, ${r.model_version}`,
          `perils: ${r.perils.join(', ')}`,
        ],
        currency: r.currency ?? 'mixed currencies',
        curve: r.curve,
        aal: r.aal,
      };
      payload = input.format === 'svg' ? await chart.chartSvg(c) : await chart.chartPng(c);
    } else {
      payload = JSON.stringify(body, null, 2) + '\n';
    }
    if (input.out !== undefined) {
      await fs.promises.mkdir(path.dirname(input.out), { recursive: true });
      const tmp = `${input.out}.${process.pid}.tmp`;
      await fs.promises.writeFile(tmp, payload);
      await fs.promises.rename(tmp, input.out);
      return { body: { ...body, written: { file: input.out, format: input.format, bytes: Buffer.byteLength(payload) } }, notes };
    }
    // Over HTTP the bytes go out as they are (a Buffer body is sent raw); the CLI prints the text.
    if (input.format === 'csv') return { body: caller.clientIp !== undefined ? Buffer.from(payload) : (payload as string), mediaType: 'text/csv', notes };
    if (input.format === 'svg') return { body: payload as string, notes };
    return { body, notes };
  },
});

/** The perils with a loss, the largest AAL first; every modelled peril when none has one. */
function lossPerilsFirst<P extends string>(perils: readonly P[], aal: Record<string, number>): P[] {
  const withLoss = perils.filter((p) => (aal[p] ?? 0) > 0).sort((a, b) => aal[b] - aal[a]);
  return withLoss.length ? withLoss : [...perils];
}
