/**
 * GET /triggers/{id}/basis-risk?portfolio_id=&loss_level=|loss_return_period= and
 * `catintel trigger basis-risk ID --portfolio PID [--loss-level X | --loss-return-period N] [--models DIR]`
 * (docs/basis-risk.md): how well one of the caller's triggers pays when one of the caller's books loses.
 * Over the stochastic catalog of the model package of the trigger's peril, each event is read by the
 * trigger's rule (does it pay?) and by the loss kernel (the book's loss); the answer counts hits, misses and
 * false alarms at a loss level, the correlation of payout and loss, and a sweep of the trigger's threshold.
 * Wind and pressure triggers run on the hurricane package, magnitude triggers on the earthquake package;
 * other threshold types have no catalog and are refused (422). Reads only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineProvenance, type BaselineProvenance } from '../domain/scoring/baseline-provenance.js';
import type { Peril } from '../domain/scoring/perils.js';
import { CatintelError, invalidParameter } from '../errors.js';
import { packageRoot } from '../lib/package-root.js';
import type { Contingency } from '../triggers/basis-risk/domain/basis-risk.js';
import { firesAt } from '../triggers/domain/rules.js';
import { SAMPLE_KM } from '../triggers/domain/track.js';
import type { ThresholdType, TriggerSpec } from '../triggers/domain/types.js';
import { num, str } from './params.js';
import { requireTrigger, triggerIdParam } from './triggers-common.js';
import { defineHandler } from './types.js';

const DEFAULT_LOSS_RETURN_PERIOD = 10;

/** The threshold types a model package's catalog can be read by, and the package peril each runs on. */
const PACKAGE_PERIL: Partial<Record<ThresholdType, Peril>> = {
  wind_speed_kt: 'hurricane_wind',
  central_pressure_mb: 'hurricane_wind',
  magnitude: 'earthquake',
};

export interface BasisRiskInput {
  id: string;
  portfolioId: string;
  lossLevel?: number;
  lossReturnPeriod?: number;
  /**
   * Also count over the record (HURDAT2 storms; wind and pressure triggers): a few seconds more CPU for a
   * small book, whose storms are footprinted on its cells alone (history.ts).
   */
  history: boolean;
  modelsDir?: string;
}

function bool(raw: Record<string, unknown>, name: string): boolean {
  const v = raw[name];
  if (v === undefined || v === false || v === 'false' || v === '0' || v === '') return false;
  if (v === true || v === 'true' || v === '1') return true;
  throw invalidParameter(name, `"${String(v)}" is not true or false`);
}

const CLI_ONLY = ['models'] as const;

export type BasisRiskBody = BaselineProvenance & {
  trigger: Pick<
    TriggerSpec,
    'id' | 'name' | 'peril' | 'lat' | 'lng' | 'radius_km' | 'threshold_type' | 'threshold_value' | 'alert_at_pct'
  >;
  PortfolioId: string;
  model_version: string;
  catalog: { package: string; years: number; seed: number; events: number; events_read_by_trigger: number };
  loss_level: { LossAmt: number; from: 'given' | 'oep_return_period'; return_period_years: number | null };
  CurCd: string | null;
  at_threshold: Contingency;
  payout_loss_correlation: number | null;
  correlation_events: number;
  sweep: Contingency[];
  best_threshold: Contingency;
  events: Array<{ event_id: number; value: number | null; pays: boolean; LossAmt: number }>;
  /** With history: the same counts over the record (HURDAT2 storms 1900-2024 through the same footprint and kernel); else null. */
  history: {
    catalog: string;
    first_year: number;
    last_year: number;
    years: number;
    storms: number;
    at_threshold: Contingency;
    payout_loss_correlation: number | null;
    correlation_events: number;
    events: Array<{ storm_id: string; value: number | null; pays: boolean; LossAmt: number }>;
  } | null;
  method: string;
  computed_at: string;
};

const cents = (x: number) => Math.round(x * 100) / 100;
const round4 = (x: number | null) => (x === null ? null : Math.round(x * 10_000) / 10_000);
const shown = (c: Contingency): Contingency => ({
  ...c,
  hit_rate: round4(c.hit_rate),
  miss_rate: round4(c.miss_rate),
  false_alarm_rate: round4(c.false_alarm_rate),
  critical_success_index: round4(c.critical_success_index),
  payouts_per_year: round4(c.payouts_per_year)!,
  loss_events_per_year: round4(c.loss_events_per_year)!,
});

export const triggerBasisRisk = defineHandler<BasisRiskInput, BasisRiskBody>({
  name: 'triggers.basis_risk',
  summary:
    "A trigger's basis risk against a portfolio over the model package's stochastic catalog: hit, miss and false-alarm rates at a loss level, the correlation of payout and loss, and a threshold sweep",
  http: { method: 'GET', path: '/triggers/{id}/basis-risk', access: 'agency', perAccount: true },
  cli: {
    command: ['trigger', 'basis-risk'],
    args: ['id'],
    options: [
      { flags: '--portfolio <id>', description: 'the portfolio whose losses the trigger is meant to cover' },
      {
        flags: '--loss-level <amount>',
        description:
          "the book's event loss (its currency) from which an event counts as a loss the trigger should pay for",
      },
      {
        flags: '--loss-return-period <years>',
        description: `instead of --loss-level: the book's ground-up OEP loss at this return period (default ${DEFAULT_LOSS_RETURN_PERIOD} years)`,
      },
      {
        flags: '--history',
        description:
          'wind and pressure triggers: also count over the record, the HURDAT2 storms 1900-2024 that reach the trigger or the book, through the same footprint and kernel (slower)',
      },
      {
        flags: '--models <dir>',
        description:
          'the folder holding the model packages (default env CATINTEL_MODELS, else models/ under the project folder)',
      },
    ],
    examples: [
      'catintel trigger basis-risk <trigger-id> --portfolio <portfolio-id>',
      'catintel trigger basis-risk <trigger-id> --portfolio <portfolio-id> --loss-level 1000000 --json',
      'catintel trigger basis-risk <trigger-id> --portfolio <portfolio-id> --history',
    ],
    paths: ['models'],
  },
  parse(raw, caller) {
    const overHttp = caller.clientIp !== undefined;
    if (overHttp) {
      const used = CLI_ONLY.find((n) => str(raw, n) !== undefined);
      if (used) throw invalidParameter(used, 'models is an option of the CLI; over HTTP give portfolio_id');
    }
    const id = triggerIdParam(raw);
    const portfolioId = str(raw, 'portfolio_id') ?? str(raw, 'portfolio');
    if (portfolioId === undefined)
      throw invalidParameter(
        overHttp ? 'portfolio_id' : 'portfolio',
        overHttp
          ? 'portfolio_id is required: the portfolio whose losses the trigger covers'
          : '--portfolio ID is required: the portfolio whose losses the trigger covers (`catintel portfolio list`)',
      );
    if (portfolioId.length > 200) throw invalidParameter('portfolio_id', 'too long to be a portfolio id');
    const hasLevel = str(raw, 'loss_level') !== undefined;
    const hasRp = str(raw, 'loss_return_period') !== undefined;
    if (hasLevel && hasRp)
      throw invalidParameter(
        'loss_return_period',
        'give loss_level or loss_return_period, not both: the level is either an amount or the OEP loss at a return period',
      );
    const lossLevel = hasLevel ? num(raw, 'loss_level', { min: 0, max: 1e15, minExclusive: true }) : undefined;
    const lossReturnPeriod = hasRp
      ? num(raw, 'loss_return_period', { min: 1, max: 1e6, minExclusive: true })
      : undefined;
    const models = str(raw, 'models');
    return {
      id,
      portfolioId,
      lossLevel,
      lossReturnPeriod,
      history: bool(raw, 'history'),
      modelsDir: models === undefined ? undefined : path.resolve(models),
    };
  },
  async run(ctx, input, caller) {
    const [
      { readPortfolioLocations },
      files,
      { packageOf },
      br,
      domain,
      { baselineRingOptions },
      { loadBaselineGrid },
    ] = await Promise.all([
      import('../portfolios/read.js'),
      import('../epcurve/book-files.js'),
      import('../epcurve/model-packages.js'),
      import('../triggers/basis-risk/run.js'),
      import('../triggers/basis-risk/domain/basis-risk.js'),
      import('../reference-data/ring-options.js'),
      import('../reference-data/load-baseline.js'),
    ]);
    const t = await requireTrigger(ctx, caller, input.id);
    const peril = PACKAGE_PERIL[t.threshold_type];
    if (!peril) {
      const can = Object.keys(PACKAGE_PERIL).join(', ');
      const message = `a ${t.threshold_type} trigger has no basis risk here: no model package's catalog gives its value event by event; basis risk covers ${can}`;
      throw new CatintelError('validation_failed', message, { errors: [{ field: 'threshold_type', message }] });
    }
    const locations = await readPortfolioLocations(ctx.db, caller.account, input.portfolioId);
    if (!locations)
      throw new CatintelError(
        'not_found',
        `no portfolio ${input.portfolioId} in account ${caller.account}; \`catintel portfolio list\` shows yours`,
      );
    const dataDir = path.resolve(
      ctx.config.env?.CATINTEL_SHARED_DATA ?? path.join(packageRoot(), '..', 'shared', 'data'),
    );
    const modelsDir = path.resolve(
      input.modelsDir ?? ctx.config.env?.CATINTEL_MODELS ?? path.join(packageRoot(), 'models'),
    );
    const pkg = packageOf(peril)!;
    const task = 'trigger basis risk';
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-basis-risk-'));
    try {
      const location = files.writePortfolioLocations(work, locations);
      const account = files.writeDefaultAccount(work, location);
      ctx.progress({
        task,
        done: 0,
        total: 2,
        unit: 'steps',
        message: 'the catalog, by the trigger and by the kernel',
      });
      const radiusScale = baselineRingOptions().hurricaneRadiusScale!();
      const cat = await br.catalogOutcomes({
        trigger: t,
        pkg,
        location,
        account,
        modelsDir,
        dataDir,
        radiusScale,
        workDir: work,
        progress: (message) => ctx.progress({ task, done: 0, total: 2, unit: 'steps', message }),
      });
      ctx.progress({ task, done: 1, total: 2, unit: 'steps', message: 'rates and sweep' });
      if (input.lossReturnPeriod !== undefined && input.lossReturnPeriod > cat.years)
        throw invalidParameter(
          'loss_return_period',
          `${input.lossReturnPeriod} years is longer than the ${cat.years} years the ${pkg.folder} model package holds; give at most ${cat.years}, or build a longer package`,
        );
      const rp = input.lossLevel === undefined ? (input.lossReturnPeriod ?? DEFAULT_LOSS_RETURN_PERIOD) : null;
      const level = rp === null ? input.lossLevel! : await br.oepLossAt(cat.run, rp);
      if (!(level > 0))
        throw new CatintelError(
          'validation_failed',
          `the book's ${rp}-year OEP loss from the ${pkg.folder} catalog is 0: no event of the catalog damages it, so there is no loss for the trigger to match; give --loss-level, or check that the book lies where the ${pkg.folder} model reaches`,
          { errors: [{ field: 'loss_return_period', message: 'the book loses nothing at this return period' }] },
        );
      const notes: string[] = [];
      let history: BasisRiskBody['history'] = null;
      if (input.history && pkg.folder !== 'hurricane')
        notes.push(
          'history: the record is replayed for wind and pressure triggers only (a magnitude trigger has `catintel trigger backtest` for when it would have paid)',
        );
      if (input.history && pkg.folder === 'hurricane') {
        ctx.progress({ task, done: 1, total: 2, unit: 'steps', message: 'the record: HURDAT2 storms' });
        const { historyOutcomes } = await import('../triggers/basis-risk/history.js');
        const h = await historyOutcomes({
          trigger: t,
          pkg,
          packageDir: cat.run.packages[0]?.dir ?? path.join(modelsDir, pkg.folder),
          sites: locations,
          location,
          account,
          dataDir,
          radiusScale,
          workDir: work,
          progress: (message) => ctx.progress({ task, done: 1, total: 2, unit: 'steps', message }),
        });
        const hc = domain.payoutLossCorrelation(h.outcomes, t.threshold_type, t.threshold_value);
        history = {
          catalog: `HURDAT2 Atlantic ${h.firstYear}-${h.lastYear}: the storms whose centre comes within the trigger's circle or 300 km of a location`,
          first_year: h.firstYear,
          last_year: h.lastYear,
          years: h.years,
          storms: h.outcomes.length,
          at_threshold: shown(domain.contingency(h.outcomes, t.threshold_type, t.threshold_value, level, h.years)),
          payout_loss_correlation: round4(hc.correlation),
          correlation_events: hc.events,
          events: h.outcomes
            .filter((o) => o.value !== null || o.loss > 0)
            .sort((a, b) => b.loss - a.loss || a.eventId - b.eventId)
            .map((o) => ({
              storm_id: h.storms.get(o.eventId)!,
              value: o.value === null ? null : Math.round(o.value * 100) / 100,
              pays: firesAt(t.threshold_type, o.value, t.threshold_value),
              LossAmt: cents(o.loss),
            })),
        };
      }
      const at = domain.contingency(cat.outcomes, t.threshold_type, t.threshold_value, level, cat.years);
      const corr = domain.payoutLossCorrelation(cat.outcomes, t.threshold_type, t.threshold_value);
      const sweep = domain.thresholdSweep(cat.outcomes, t.threshold_type, t.threshold_value, level, cat.years);
      const currencies = [...new Set(locations.map((l) => l.currency))];
      const { id, name, lat, lng, radius_km, threshold_type, threshold_value, alert_at_pct } = t;
      const body: BasisRiskBody = {
        trigger: { id, name, peril: t.peril, lat, lng, radius_km, threshold_type, threshold_value, alert_at_pct },
        PortfolioId: input.portfolioId,
        model_version: `${cat.model} ${cat.years} years seed ${cat.seed}`,
        catalog: {
          package: pkg.folder,
          years: cat.years,
          seed: cat.seed,
          events: cat.events,
          events_read_by_trigger: cat.outcomes.filter((o) => o.value !== null).length,
        },
        loss_level: {
          LossAmt: cents(level),
          from: rp === null ? 'given' : 'oep_return_period',
          return_period_years: rp,
        },
        CurCd: currencies.length === 1 ? currencies[0] : null,
        at_threshold: shown(at),
        payout_loss_correlation: round4(corr.correlation),
        correlation_events: corr.events,
        sweep: sweep.rows.map(shown),
        best_threshold: shown(sweep.best),
        // The events that concern the pair, worst loss first: those the trigger saw or the book lost in.
        events: cat.outcomes
          .filter((o) => o.value !== null || o.loss > 0)
          .sort((a, b) => b.loss - a.loss || a.eventId - b.eventId)
          .map((o) => ({
            event_id: o.eventId,
            value: o.value === null ? null : Math.round(o.value * 100) / 100,
            pays: firesAt(t.threshold_type, o.value, t.threshold_value),
            LossAmt: cents(o.loss),
          })),
        history,
        ...baselineProvenance(loadBaselineGrid().header, [peril]),
        method: methodText(t.threshold_type, pkg.folder, radiusScale),
        computed_at: ctx
          .clock()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
      };
      ctx.progress({ task, done: 2, total: 2, unit: 'steps', message: 'done' });
      if (at.hits + at.misses === 0)
        notes.push(
          `no event of the ${cat.years}-year catalog brings the book a loss at the level: the rates are undefined (null); lower the level`,
        );
      for (const m of cat.run.packages)
        if (m.locationsNotReached > 0)
          notes.push(
            `${m.locationsNotReached} locations are not reached by the ${m.folder} model and add no loss: ${m.notReachedReason}`,
          );
      return { body, notes };
    } finally {
      files.forgetPortfolioLocations(work);
      fs.rmSync(work, { recursive: true, force: true });
    }
  },
});

function methodText(type: ThresholdType, folder: string, radiusScale: number): string {
  const read =
    type === 'magnitude'
      ? 'magnitude_in_circle on each catalog rupture (a gridded rupture at its cell centre, a fault rupture at the middle of its trace)'
      : `the live rule (${type === 'wind_speed_kt' ? `site_wind_holland, the track's own RMW, radius_scale ${radiusScale.toFixed(4)}` : 'min_central_pressure_in_circle'}; positions every ${SAMPLE_KM} km) on each catalog track`;
  return `the ${folder} model package's stochastic catalog, rebuilt from its manifest's years and seed: ${read} -> pays when the value reaches the threshold; the portfolio (as OED, no terms) -> the package's keys, Oasis input files and catintel's loss kernel -> each event's ground-up analytical mean loss; an event counts as a loss at or above the level; hits, misses and false alarms per event; docs/basis-risk.md`;
}
