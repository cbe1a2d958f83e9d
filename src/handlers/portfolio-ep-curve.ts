/**
 * GET /portfolio/ep-curve?portfolio_id=&years=&seed=&samples=&perils=&perspective=&format=json|csv|parquet&psept= and
 * `catintel portfolio ep-curve ID [--years N] [--seed S] [--samples N] [--perils a,b] [--perspective gul|il]
 * [--format json|csv|parquet|arrow|svg|png] [--psept] [--out FILE] [--models DIR]` (docs/ep-curves.md): the
 * exceedance-probability curve of a portfolio from the loss engine: the book's OED (with its financial
 * terms) -> each model package's keys -> Oasis input files -> the Oasis loss kernel -> ground-up and
 * insured losses, sampled -> OEP, AEP and TVaR at 2 to 1000 years (EPCalc 1-4 in the ORD tables) and the
 * AAL. Perils without a model package are listed as not modelled, never estimated. Same inputs and seed,
 * same bytes. `--input FILE.csv [--oed-account A.csv]` (CLI) takes OED files instead of a stored
 * portfolio. `--out`, `--input`, `--oed-account`, `--models` and the svg/png pictures are the CLI's: over
 * HTTP they are refused (the server writes no file for an API caller and reads none of theirs).
 * `--format arrow` writes the JSON's curve as an Arrow IPC file (src/columnar/ep-curve-table.ts); over
 * HTTP the same table is the answer to `Accept: application/vnd.apache.arrow.stream`.
 */
import { baselineProvenance, type BaselineProvenance } from '../domain/scoring/baseline-provenance.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PERILS, PERIL_ALIASES, type Peril } from '../domain/scoring/perils.js';
import type { Horizon, Scenario } from '../domain/climate.js';
import { CatintelError, invalidParameter } from '../errors.js';
import { packageRoot } from '../lib/package-root.js';
import type { EpPoint, PerspectiveEp } from '../epcurve/ep-output.js';
import { MODEL_PACKAGES, NOT_MODELLED_REASON, packageOf } from '../epcurve/model-packages.js';
import { int, list, str } from './params.js';
import type { PortfolioLocation } from '../portfolios/read.js';
import type { BookChunks } from '../epcurve/run-book.js';
import { parseClimate } from './score-point.js';
import { chunkLocations, defaultMaxMemory, formatBytes, parseMaxMemory } from '../epcurve/memory-budget.js';
import { defineHandler } from './types.js';

export const EP_FORMATS = ['json', 'csv', 'parquet', 'arrow', 'svg', 'png'] as const;
export type EpFormat = (typeof EP_FORMATS)[number];
const HTTP_FORMATS: readonly string[] = ['json', 'csv'];
export const MAX_YEARS = 1_000_000;
export const DEFAULT_SEED = 1;
/** Damage samples per event: 10 keeps a 1000-year curve's sampling error at its tail small against the catalog's own (docs/ep-curves.md). */
export const DEFAULT_SAMPLES = 10;
export const MAX_SAMPLES = 1000;
export const PERSPECTIVES = ['il', 'gul'] as const;
export type Perspective = (typeof PERSPECTIVES)[number];

export interface EpCurveInput {
  portfolioId?: string;
  inputFile?: string;
  accountFile?: string;
  /** The folder holding the model packages (--models; else CATINTEL_MODELS, else models/ under the project). */
  modelsDir?: string;
  /** Unset: every year of the model packages. */
  years?: number;
  seed: number;
  samples: number;
  perils: Peril[] | null;
  perspective: Perspective;
  scenario: Scenario;
  horizon: Horizon | null;
  format: EpFormat;
  psept: boolean;
  out?: string;
  /** Bytes the run may hold (--max-memory; default half of this machine's memory): a stored book larger than that runs in chunks. */
  maxMemory?: number;
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

/** One perspective's figures: the AAL (sampled and analytical), by peril, and the curve. */
export interface EpPerspectiveBody {
  EPCalc: number;
  AALAmt: number;
  AALAnalyticAmt: number;
  AALAmtByPeril: Record<string, number>;
  curve: EpCurvePoint[];
}

/** A model package the run used. */
export interface EpModelBody {
  folder: string;
  model: string;
  perils: string[];
  years: number;
  seed: number;
  events: number;
  NumLocationsModelled: number;
  NumLocationsNotReached: number;
  /** Why the first location it could not place was not placed. */
  not_reached_reason: string | null;
}

/**
 * The JSON answer. Insurance fields carry the names every other insurance output uses (ACORD-style, as
 * portfolio exposure: PortfolioId, CurCd, NumLocations..., TotalInsuranceAmt; money to the cent); the model
 * run's own fields (years, seed, samples, models ...) keep the API's names, as exposure keeps as_of and events.
 * The top-level AAL and curve are the `perspective` asked for; `gul` and `il` give both.
 */
export interface EpCurveBody extends BaselineProvenance {
  PortfolioId: string | null;
  input: string | null;
  years: number;
  seed: number;
  samples: number;
  model_version: string;
  models: EpModelBody[];
  scenario: Scenario;
  horizon: Horizon | null;
  perils: string[];
  perils_not_modelled: { peril: string; reason: string }[];
  CurCd: string | null;
  NumLocations: number;
  NumLocationsModelled: number;
  NumLocationsOutsideCoverage: number;
  TotalInsuranceAmt: number;
  perspective: Perspective;
  EPCalc: number;
  AALAmt: number;
  AALAnalyticAmt: number;
  AALAmtByPeril: Record<string, number>;
  return_periods: number[];
  curve: EpCurvePoint[];
  gul: EpPerspectiveBody;
  il: EpPerspectiveBody;
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

const CLI_ONLY = ['input', 'oed_account', 'out', 'models', 'max_memory'] as const;

export const portfolioEpCurve = defineHandler<EpCurveInput, EpCurveBody | string | Buffer>({
  name: 'portfolio.ep_curve',
  summary:
    'Exceedance probability curve of a portfolio from the loss engine: OEP, AEP and TVaR at 2 to 1000 years, and AAL, ground-up and insured',
  http: { method: 'GET', path: '/portfolio/ep-curve', access: 'agency', perAccount: true },
  cli: {
    command: ['portfolio', 'ep-curve'],
    args: ['portfolio_id...'],
    options: [
      {
        flags: '--years <n>',
        description:
          "the first N years of the model packages' occurrence (default: all of them; a package of more years: catintel model build hurricane --years N)",
      },
      {
        flags: '--seed <s>',
        description: `seed of the damage sampling (default ${DEFAULT_SEED}: the draws oasis run makes on the same files); the same seed gives the same output, byte for byte`,
      },
      {
        flags: '--samples <n>',
        description: `damage samples per event and location (default ${DEFAULT_SAMPLES}, 0 to ${MAX_SAMPLES}; 0: the analytical means only, EPCalc 1)`,
      },
      {
        flags: '--perils <list>',
        description:
          'comma list of perils (default: every peril the locations cover; those without a model package are listed as not modelled)',
      },
      {
        flags: '--perspective <p>',
        description:
          "il (default: insured, after the book's OED financial terms) or gul (ground-up): the curve shown, charted and written as csv/parquet; the JSON holds both",
      },
      {
        flags: '--scenario <scenario>',
        description:
          'baseline only: the model packages are built on the historical record (other scenarios are refused)',
      },
      { flags: '--horizon <year>', description: 'refused: the model packages have no climate horizon' },
      {
        flags: '--format <format>',
        description:
          'json (default), csv or parquet (ORD ept: EPCalc 1-4, OEP/AEP and TVaR), arrow (the JSON curve as an Arrow IPC file), svg or png (a chart; png, parquet and arrow need --out)',
      },
      {
        flags: '--psept',
        description: 'with --format csv or parquet: the ORD psept table (one curve per sample) instead of the ept',
      },
      { flags: '--out <file>', description: 'write the output to this file (the command then prints a summary)' },
      {
        flags: '--input <file>',
        description:
          'an OED location CSV instead of a stored portfolio, financial terms included (a book not imported)',
      },
      {
        flags: '--oed-account <file>',
        description:
          'with --input: its OED account file (policy, layer and account terms); without it each account is one policy with no terms of its own',
      },
      {
        flags: '--models <dir>',
        description:
          'the folder holding the model packages (hurricane/ ...; default env CATINTEL_MODELS, else models/ under the project folder)',
      },
      {
        flags: '--max-memory <size>',
        description:
          "memory the run may hold, e.g. 4GB or 512MB (default: half of this machine's); a stored portfolio too large for it runs in chunks of locations, with the same answer to the byte",
      },
    ],
    examples: [
      'catintel portfolio ep-curve <portfolio-id>',
      'catintel portfolio ep-curve <portfolio-id> --samples 20 --seed 7 --format csv --out ept.csv',
      'catintel portfolio ep-curve --input SourceLocOED.csv --oed-account SourceAccOED.csv --perspective il --json',
      'catintel portfolio ep-curve --input SourceLocOED.csv --format png --out ep-curve.png',
      'catintel portfolio ep-curve <portfolio-id> --format parquet --out ept.parquet',
      'catintel portfolio ep-curve <portfolio-id> --format arrow --out ep-curve.arrow',
      'catintel portfolio ep-curve <portfolio-id> --max-memory 4GB',
    ],
    paths: ['out', 'input', 'oed_account', 'models'],
  },
  parse(raw, caller) {
    const overHttp = caller.clientIp !== undefined;
    const portfolioId = portfolioIdOf(raw);
    const given = Object.fromEntries(CLI_ONLY.map((n) => [n, str(raw, n)])) as Record<
      (typeof CLI_ONLY)[number],
      string | undefined
    >;
    if (overHttp) {
      const used = CLI_ONLY.find((n) => given[n] !== undefined);
      if (used)
        throw invalidParameter(
          used,
          'input, oed_account, out, models and max_memory are options of the CLI; over HTTP give portfolio_id and read the answer',
        );
    }
    const inputRaw = given.input;
    const outRaw = given.out;
    if (portfolioId === undefined && inputRaw === undefined)
      throw invalidParameter(
        'portfolio_id',
        'portfolio_id is required (or, in the CLI, --input FILE.csv with OED locations)',
      );
    if (portfolioId !== undefined && inputRaw !== undefined)
      throw invalidParameter('input', 'give a portfolio id or --input, not both');
    if (given.oed_account !== undefined && inputRaw === undefined)
      throw invalidParameter(
        'oed_account',
        '--oed-account goes with --input (a stored portfolio holds its locations only)',
      );
    for (const name of CLI_ONLY) {
      if (name !== 'max_memory' && given[name]?.includes('\0'))
        throw invalidParameter(name, `--${name.replace('_', '-')}: a file name cannot hold a NUL byte`);
    }
    const years = str(raw, 'years') === undefined ? undefined : int(raw, 'years', { min: 1, max: MAX_YEARS }, 0);
    const seed = int(raw, 'seed', { min: 1, max: 2 ** 32 - 1 }, DEFAULT_SEED);
    const samples = int(raw, 'samples', { min: 0, max: MAX_SAMPLES }, DEFAULT_SAMPLES);
    const perils = list(raw, 'perils', PERILS, PERIL_ALIASES) ?? null;
    const { scenario, horizon } = parseClimate(raw);
    if (scenario !== 'baseline' || str(raw, 'horizon') !== undefined) {
      const name = scenario !== 'baseline' ? 'scenario' : 'horizon';
      throw invalidParameter(
        name,
        `the EP curve runs on the model packages, built on the historical record: no climate ${name} applies (scenario baseline only); \`catintel score point --scenario\` gives the climate-adjusted scores`,
      );
    }
    const perspective = (str(raw, 'perspective') ?? 'il') as Perspective;
    if (!(PERSPECTIVES as readonly string[]).includes(perspective))
      throw invalidParameter('perspective', `"${perspective}" is not one of il (insured), gul (ground-up)`);
    const format = (str(raw, 'format') ?? 'json') as EpFormat;
    const allowed: readonly string[] = overHttp ? HTTP_FORMATS : EP_FORMATS;
    if (!allowed.includes(format)) {
      throw invalidParameter(
        'format',
        `"${format}" is not one of ${allowed.join(', ')}${overHttp ? (format === 'arrow' ? ' (for Arrow send the header Accept: application/vnd.apache.arrow.stream)' : ' (parquet files and svg and png pictures are made by the CLI: catintel portfolio ep-curve ID --format png --out FILE)') : ''}`,
      );
    }
    if ((format === 'png' || format === 'parquet' || format === 'arrow') && outRaw === undefined)
      throw invalidParameter('out', `--format ${format} writes a binary file: give --out FILE.${format}`);
    // A table choice: it only matters for the ORD tables, and is ignored otherwise.
    const psept = bool(raw, 'psept') && (format === 'csv' || format === 'parquet');
    if (psept && samples === 0)
      throw invalidParameter('psept', 'the psept has one curve per sample: give --samples 1 or more');
    const resolved = (v: string | undefined) => (v === undefined ? undefined : path.resolve(v));
    return {
      portfolioId,
      inputFile: resolved(inputRaw),
      accountFile: resolved(given.oed_account),
      modelsDir: resolved(given.models),
      years,
      seed,
      samples,
      perils,
      perspective,
      scenario,
      horizon,
      format,
      psept,
      out: resolved(outRaw),
      ...(given.max_memory !== undefined ? { maxMemory: parseMaxMemory(given.max_memory) } : {}),
    };
  },
  async run(ctx, input, caller) {
    const [
      { loadBaselineGrid },
      { getPortfolio, locationsBetween },
      { cellAt },
      { COVERAGE },
      { runBook, packageBuilt },
      ep,
      files,
      { addFacts, emptyFacts },
    ] = await Promise.all([
      import('../reference-data/load-baseline.js'),
      import('../portfolios/read.js'),
      import('../domain/scoring/grid.js'),
      import('../portfolios/coverage.js'),
      import('../epcurve/run-book.js'),
      import('../epcurve/ep-output.js'),
      import('../epcurve/book-files.js'),
      import('../epcurve/book-facts.js'),
    ]);
    const task = 'ep curve';
    const STEPS = 4;
    ctx.progress({ task, done: 0, total: STEPS, unit: 'steps', message: 'reading the locations' });
    const grid = loadBaselineGrid();
    const isOutside = (l: PortfolioLocation) => cellAt(grid, l.lat, l.lng) < 0;
    // The book: held whole (an --input file, or a stored portfolio within the memory budget), or a stored
    // portfolio too large for it, read in chunks (its facts now, its losses chunk by chunk in runBook).
    let locations: PortfolioLocation[] | undefined;
    let chunks: BookChunks | undefined;
    const facts = emptyFacts();
    if (input.inputFile !== undefined) {
      const { readOedLocations } = await import('../epcurve/oed-input.js');
      locations = await readOedLocations(input.inputFile);
    } else {
      const p = await getPortfolio(ctx.db, caller.account, input.portfolioId!);
      if (!p)
        throw new CatintelError(
          'not_found',
          `no portfolio ${input.portfolioId} in account ${caller.account}; \`catintel portfolio list\` shows yours`,
        );
      const perChunk = chunkLocations(input.maxMemory ?? defaultMaxMemory(), input.samples);
      if (p.location_count <= perChunk) locations = await locationsBetween(ctx.db, p, 0, p.location_count);
      else {
        const { storedBookChunks, repeatedLocNumber } = await import('../epcurve/stored-book-chunks.js');
        const repeated = await repeatedLocNumber(ctx.db, p.id);
        if (repeated !== undefined)
          throw invalidParameter(
            'max_memory',
            `portfolio ${p.id} (${p.location_count.toLocaleString('en-US')} locations) needs more than ${formatBytes(input.maxMemory ?? defaultMaxMemory())} in one pass, and is run in chunks only when each LocNumber is given once (LocNumber ${repeated} is repeated): give a larger --max-memory, or import the book with each location once`,
          );
        chunks = storedBookChunks(ctx.db, p, perChunk);
        for (let at = 0; at < p.location_count; at += perChunk)
          addFacts(facts, await locationsBetween(ctx.db, p, at, at + perChunk), isOutside);
      }
    }
    if (locations) addFacts(facts, locations, isOutside);
    const { outside } = facts;
    // A book wholly outside the covered area would give a curve of zeros: a number that says nothing, so refused (as bulk scoring refuses a file with no row it can score).
    if (facts.count > 0 && outside === facts.count) {
      const what = input.portfolioId !== undefined ? `portfolio ${input.portfolioId}` : path.basename(input.inputFile!);
      const message = `none of the ${facts.count} locations of ${what} is inside the covered area (${COVERAGE}); an EP curve of it would be 0, so none was computed`;
      throw new CatintelError('validation_failed', message, {
        errors: [{ field: input.portfolioId !== undefined ? 'portfolio_id' : 'input', message }],
      });
    }
    // The perils: those asked for (default every peril a location covers), split into modelled (a package) and not.
    const covered: ReadonlySet<string> = facts.covered;
    const asked = input.perils ?? PERILS.filter((p) => covered.has(p));
    let modelled = asked.filter((p) => packageOf(p) !== undefined);
    const notModelled = asked
      .filter((p) => packageOf(p) === undefined)
      .map((p) => ({ peril: p, reason: NOT_MODELLED_REASON[p] }));
    let packages = MODEL_PACKAGES.map((pkg) => ({
      pkg,
      perils: pkg.perils.filter((p) => modelled.includes(p)),
    })).filter((x) => x.perils.length > 0);
    const modelsDir = input.modelsDir ?? ctx.config.env?.CATINTEL_MODELS ?? path.join(packageRoot(), 'models');
    // Perils nobody named (the book's default) whose package is not built are listed as not modelled, with the
    // command that builds it, as long as some other package runs; a peril asked for by name, or a book none of
    // whose packages is built, is refused with that command instead (a curve of nothing would say nothing).
    if (input.perils === null) {
      const built = packages.filter((x) => packageBuilt(x.pkg, path.resolve(modelsDir)));
      if (built.length > 0) {
        for (const x of packages.filter((y) => !built.includes(y))) {
          const dir = path.join(path.resolve(modelsDir), x.pkg.folder);
          for (const peril of x.perils)
            notModelled.push({
              peril,
              reason: `no ${x.pkg.folder} model package in ${dir}; build it with \`${x.pkg.build.command} --out ${dir}\` (${x.pkg.build.takes})`,
            });
        }
        packages = built;
        modelled = modelled.filter((p) => built.some((x) => x.perils.includes(p)));
        notModelled.sort((a, b) => PERILS.indexOf(a.peril) - PERILS.indexOf(b.peril));
      }
    }

    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-ep-curve-'));
    try {
      // In chunks, runBook writes each chunk's location file in turn.
      const location = input.inputFile ?? (locations ? files.writePortfolioLocations(work, locations) : '');
      // A stored portfolio keeps no financial terms: its run computes the ground-up losses alone, which are
      // its insured ones too (runBook without an account). An --input file may hold location terms, so it
      // always gets an account (its own, or one policy per account with no terms of its own).
      const account =
        input.inputFile === undefined ? undefined : (input.accountFile ?? files.writeDefaultAccount(work, location));
      ctx.progress({ task, done: 1, total: STEPS, unit: 'steps', message: 'keys, Oasis input files and losses' });
      const r = await runBook({
        location,
        account,
        modelsDir: path.resolve(modelsDir),
        dataDir: path.resolve(ctx.config.env?.CATINTEL_SHARED_DATA ?? path.join(packageRoot(), '..', 'shared', 'data')),
        packages,
        years: input.years,
        samples: input.samples,
        seed: input.seed,
        workDir: work,
        chunks,
        progress: (message) => ctx.progress({ task, done: 1, total: STEPS, unit: 'steps', message }),
      });
      ctx.progress({ task, done: 2, total: STEPS, unit: 'steps', message: 'EP tables' });
      const years = r.occurrence.periods;
      const perspectives = { gul: ep.perspectiveEp(r.gul, r.occurrence), il: ep.perspectiveEp(r.il, r.occurrence) };
      const byPeril = (which: Perspective) => {
        const out: Record<string, number> = {};
        for (const m of r.packages) for (const [p, v] of Object.entries(m.aalByPeril)) out[p] = cents(v[which]);
        return out;
      };
      const perspectiveBody = (which: Perspective, e: PerspectiveEp): EpPerspectiveBody => ({
        EPCalc: e.epCalc,
        AALAmt: cents(e.aal),
        AALAnalyticAmt: cents(e.aalAnalytic),
        AALAmtByPeril: byPeril(which),
        curve: e.curve.map(curvePoint),
      });
      const gul = perspectiveBody('gul', perspectives.gul);
      const il = perspectiveBody('il', perspectives.il);
      const shown = input.perspective === 'gul' ? gul : il;
      const currencies = [...facts.currencies];
      const models: EpModelBody[] = r.packages.map((m) => ({
        folder: m.folder,
        model: m.model,
        perils: m.perils,
        years: m.years,
        seed: m.seed,
        events: m.events,
        NumLocationsModelled: m.locationsKeyed,
        NumLocationsNotReached: m.locationsNotReached,
        not_reached_reason: m.notReachedReason,
      }));
      const lossFirst = lossPerilsFirst(modelled, shown.AALAmtByPeril);
      const body: EpCurveBody = {
        PortfolioId: input.portfolioId ?? null,
        input: input.inputFile === undefined ? null : path.basename(input.inputFile),
        years,
        seed: input.seed,
        samples: input.samples,
        model_version: models.length
          ? models.map((m) => `${m.model} ${m.years} years seed ${m.seed}`).join('; ')
          : 'none',
        models,
        // The perils that carry loss name the sources, the largest first (docs/contract.md#events); all modelled ones when none does.
        ...baselineProvenance(grid.header, lossFirst.length ? lossFirst : modelled),
        scenario: input.scenario,
        horizon: input.horizon,
        perils: modelled,
        perils_not_modelled: notModelled,
        CurCd: currencies.length === 1 ? currencies[0] : null,
        NumLocations: facts.count,
        NumLocationsModelled: r.locationsKeyed,
        NumLocationsOutsideCoverage: outside,
        TotalInsuranceAmt: cents(facts.tiv),
        perspective: input.perspective,
        EPCalc: shown.EPCalc,
        AALAmt: shown.AALAmt,
        AALAnalyticAmt: shown.AALAnalyticAmt,
        AALAmtByPeril: shown.AALAmtByPeril,
        return_periods: shown.curve.map((p) => p.ReturnPeriod),
        curve: shown.curve,
        gul,
        il,
        method: methodText(input, models, years, notModelled),
      };
      ctx.progress({ task, done: 3, total: STEPS, unit: 'steps', message: 'writing' });
      const notes: string[] = [];
      if (outside > 0)
        notes.push(`${outside} locations are outside the covered area (US states and territories) and add no loss`);
      for (const m of models)
        if (m.NumLocationsNotReached > 0)
          notes.push(
            `${m.NumLocationsNotReached} locations are not reached by the ${m.folder} model and add no ${m.perils.join(' or ')} loss: ${m.not_reached_reason}`,
          );
      for (const p of notModelled) notes.push(`${p.peril} not modelled: ${p.reason}`);
      if (body.CurCd === null)
        notes.push('the locations use several currencies; losses are summed as given, without conversion');
      let payload: string | Buffer;
      if (input.format === 'csv' || input.format === 'parquet') {
        const records = input.perspective === 'gul' ? r.gul : r.il;
        payload = await ep.ordTableBytes(
          input.perspective,
          records,
          r.occurrence,
          input.psept,
          input.format,
          path.join(work, 'ord'),
        );
        if (input.format === 'csv') payload = payload.toString('utf8');
      } else if (input.format === 'arrow') {
        const [{ tableToIPC }, { epCurveTable }] = await Promise.all([
          import('apache-arrow'),
          import('../columnar/ep-curve-table.js'),
        ]);
        payload = Buffer.from(tableToIPC(epCurveTable(body), 'file'));
      } else if (input.format === 'svg' || input.format === 'png') {
        const chart = await import('../epcurve/chart.js');
        const e = perspectives[input.perspective];
        const c = {
          title: `EP curve (${input.perspective === 'il' ? 'insured' : 'ground-up'}): ${body.PortfolioId ?? body.input} (${body.NumLocationsModelled.toLocaleString('en-US')} locations modelled)`,
          subtitle: [
            `${years.toLocaleString('en-US')} years of ${models.map((m) => `${m.model} (built with seed ${m.seed})`).join(' and ') || 'no model package'}, ${input.samples} damage samples, sampling seed ${input.seed}`,
            `perils: ${modelled.join(', ') || 'none modelled'}`,
            ...(notModelled.length ? [`not modelled: ${notModelled.map((p) => p.peril).join(', ')}`] : []),
          ],
          currency: body.CurCd ?? 'mixed currencies',
          curve: e.curve,
          aal: e.aal,
        };
        payload = input.format === 'svg' ? await chart.chartSvg(c) : await chart.chartPng(c);
      } else {
        payload = JSON.stringify(body, null, 2) + '\n';
      }
      ctx.progress({ task, done: STEPS, total: STEPS, unit: 'steps', message: 'done' });
      if (input.out !== undefined) {
        await fs.promises.mkdir(path.dirname(input.out), { recursive: true });
        const tmp = `${input.out}.${process.pid}.tmp`;
        await fs.promises.writeFile(tmp, payload);
        await fs.promises.rename(tmp, input.out);
        return {
          body: { ...body, written: { file: input.out, format: input.format, bytes: Buffer.byteLength(payload) } },
          notes,
        };
      }
      // Over HTTP the bytes go out as they are (a Buffer body is sent raw); the CLI prints the text.
      if (input.format === 'csv')
        return {
          body: caller.clientIp !== undefined ? Buffer.from(payload) : (payload as string),
          mediaType: 'text/csv',
          notes,
        };
      if (input.format === 'svg') return { body: payload as string, notes };
      return { body, notes };
    } finally {
      files.forgetPortfolioLocations(work);
      fs.rmSync(work, { recursive: true, force: true });
    }
  },
});

/** What was done, exactly: the packages, years, samples and seed, the engine, the EP method and what was left out. */
function methodText(
  input: EpCurveInput,
  models: EpModelBody[],
  years: number,
  notModelled: { peril: string }[],
): string {
  const book = input.inputFile !== undefined ? 'the OED location file' : 'the stored locations (as OED, one account)';
  const files =
    input.inputFile === undefined
      ? 'items, coverages; a stored portfolio keeps no financial terms, so insured equals ground-up'
      : `items, coverages, fm_*; ${
          input.accountFile !== undefined
            ? "the account file's terms and the locations' own"
            : 'no account file: one policy per account with no terms of its own, the location terms of the file apply'
        }`;
  const used = models.length
    ? models
        .map(
          (m) =>
            `the ${m.folder} model package (${m.model}, ${m.perils.join(', ')}; built with ${m.years} years, seed ${m.seed})`,
        )
        .join(' and ')
    : 'no model package (no peril asked for has one)';
  const rest = notModelled.length
    ? `; not modelled (no loss added): ${notModelled.map((p) => p.peril).join(', ')}`
    : '';
  return (
    `${book} -> ${used}: its keys lookup -> Oasis input files (${files}) -> catintel's Oasis loss kernel over the first ${years.toLocaleString('en-US')} years of the occurrence, ` +
    `${input.samples} damage samples per event (seed ${input.seed}) -> ground-up (gul) and insured (il) losses; OEP, AEP and TVaR as Oasis ept (curve: EPCalc ${input.samples > 0 ? '2, full uncertainty' : '1, analytical means'}), AAL from the ALT${rest}; docs/ep-curves.md`
  );
}

/** The perils with a loss, the largest AAL first. */
function lossPerilsFirst<P extends string>(perils: readonly P[], aal: Record<string, number>): P[] {
  return perils.filter((p) => (aal[p] ?? 0) > 0).sort((a, b) => aal[b] - aal[a]);
}
