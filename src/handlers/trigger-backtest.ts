/**
 * GET /triggers/{id}/backtest and `catintel trigger backtest ID [--since YEAR]` (an addition to the
 * specification, docs/contract.md#triggers): replay the historical catalogs the hazard baseline is built from against one
 * of the caller's triggers (docs/triggers-backtest.md). Wind and pressure triggers replay HURDAT2, magnitude
 * triggers the NSHM earthquake catalogs; other threshold types have no historical catalog here and are
 * refused (422) with the ones that can be backtested. Another account's trigger is 404, like every trigger
 * route. Reads only: the embedded catalogs (data/catalogs/) are read once per process (about 0.2 s) and kept.
 */
import { baselineProvenance } from '../domain/scoring/baseline-provenance.js';
import { loadBaselineGrid } from '../reference-data/load-baseline.js';
import { CatintelError } from '../errors.js';
import { catalogsFor } from '../triggers/backtest/catalogs.js';
import {
  BACKTESTABLE,
  HURRICANE_SINCE,
  backtest,
  type BacktestResult,
  type BacktestThreshold,
} from '../triggers/backtest/domain/backtest.js';
import { SAMPLE_KM } from '../triggers/domain/track.js';
import type { TriggerSpec } from '../triggers/domain/types.js';
import { getTrigger } from '../triggers/store.js';
import { int, required } from './params.js';
import { defineHandler } from './types.js';

export interface TriggerBacktestInput {
  id: string;
  since?: number;
}

export type TriggerBacktestBody = {
  trigger: Pick<
    TriggerSpec,
    'id' | 'name' | 'peril' | 'lat' | 'lng' | 'radius_km' | 'threshold_type' | 'threshold_value' | 'alert_at_pct'
  >;
  method: string;
  computed_at: string;
} & BacktestResult;

const EARLIEST_SINCE = 1800;

function methodOf(type: BacktestThreshold, radiusScale: number): string {
  if (type === 'wind_speed_kt') {
    return `site_wind_holland over HURDAT2 tracks: the highest wind at the site from the calibrated Holland profile (radius_scale ${radiusScale.toFixed(4)}) of any track position, best-track fix or interpolated every ${SAMPLE_KM} km, whose centre is within radius_km; per storm`;
  }
  if (type === 'central_pressure_mb') {
    return `min_central_pressure_in_circle over HURDAT2 tracks: the lowest central pressure of any track position, best-track fix or interpolated every ${SAMPLE_KM} km, whose centre is within radius_km; per storm`;
  }
  return 'magnitude_in_circle over the NSHM catalogs: the moment magnitude of each catalog earthquake whose epicentre is within radius_km';
}

export const triggerBacktest = defineHandler<TriggerBacktestInput, TriggerBacktestBody>({
  name: 'triggers.backtest',
  summary:
    'Replay the historical catalogs against a trigger: every year it would have fired or alerted, and its annual probability of firing',
  http: { method: 'GET', path: '/triggers/{id}/backtest', access: 'agency', perAccount: true },
  cli: {
    command: ['trigger', 'backtest'],
    args: ['id'],
    options: [
      {
        flags: '--since <year>',
        description: `first year replayed (default ${HURRICANE_SINCE} for storms; for quakes the catalog's completeness year for the threshold magnitude)`,
      },
    ],
    examples: ['catintel trigger backtest <trigger-id>', 'catintel trigger backtest <trigger-id> --since 1950 --json'],
  },
  parse(raw) {
    const id = required(raw, 'id');
    const since =
      raw.since === undefined || raw.since === ''
        ? undefined
        : int(raw, 'since', { min: EARLIEST_SINCE, max: 9999 }, 0);
    return { id, since };
  },
  async run(ctx, input, caller) {
    const t = await getTrigger(ctx.db, caller.account, input.id);
    if (!t)
      throw new CatintelError(
        'not_found',
        `no trigger ${input.id} in account ${caller.account}; \`catintel trigger list\` shows yours`,
      );
    if (!(BACKTESTABLE as readonly string[]).includes(t.threshold_type)) {
      const message = `a ${t.threshold_type} trigger cannot be backtested: there is no historical catalog of it here; backtests cover ${BACKTESTABLE.join(', ')}`;
      throw new CatintelError('validation_failed', message, { errors: [{ field: 'threshold_type', message }] });
    }
    const now = ctx.clock();
    const lastCompleteYear = now.getUTCFullYear() - 1;
    if (input.since !== undefined && input.since > lastCompleteYear) {
      throw new CatintelError(
        'validation_failed',
        `since: ${input.since} is after the last complete year (${lastCompleteYear}); give a year from ${EARLIEST_SINCE} to ${lastCompleteYear}`,
        {
          errors: [{ field: 'since', message: `give a year from ${EARLIEST_SINCE} to ${lastCompleteYear}` }],
        },
      );
    }
    ctx.progress({ task: 'trigger backtest', done: 0, total: 1, message: 'reading the historical catalogs' });
    const catalogs = catalogsFor();
    const result = backtest(t, catalogs, lastCompleteYear, input.since);
    ctx.progress({ task: 'trigger backtest', done: 1, total: 1, message: 'done' });
    const { id, name, peril, lat, lng, radius_km, threshold_type, threshold_value, alert_at_pct } = t;
    return {
      body: {
        trigger: { id, name, peril, lat, lng, radius_km, threshold_type, threshold_value, alert_at_pct },
        method: methodOf(t.threshold_type as BacktestThreshold, catalogs.radiusScale),
        ...result,
        // The replayed catalog is the source; it ships with the hazard baseline's data build.
        ...baselineProvenance(loadBaselineGrid().header, [
          t.threshold_type === 'magnitude' ? 'earthquake' : 'hurricane_wind',
        ]),
        computed_at: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
    };
  },
});
