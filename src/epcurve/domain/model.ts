/**
 * One EP-curve run, pure: portfolio locations + hazard baseline + options -> the curve, TVaR, AAL and the ORD
 * ept/psept rows (docs/ep-curves.md). The same inputs and seed give the same numbers, bit for bit.
 */
import { climateCase, type Horizon, type Scenario } from '../../domain/climate.js';
import type { HazardGrid } from '../../domain/scoring/grid.js';
import type { EptRow } from '../../loss/domain/ept.js';
import type { PortfolioLocation } from '../../portfolios/read.js';
import { MODELLED_PERILS, buildElt, type ModelledPeril } from './catalog.js';
import { buildExposure } from './exposure.js';
import { RETURN_PERIODS, eptRows, epPoints, mean, simulateYears, type EpPoint } from './ylt.js';

export const EP_MODEL_VERSION = 'catintel-ep-1.0.0';
/** PSEPT "samples": the simulated years split into this many equal, independent blocks (docs/ep-curves.md). */
export const PSEPT_BLOCKS = 10;

export interface EpOptions {
  years: number;
  seed: number;
  perils: readonly ModelledPeril[];
  scenario: Scenario;
  horizon: Horizon | null;
}

export interface EpResult {
  locations: number;
  locations_modelled: number;
  locations_outside_coverage: number;
  tiv_total: number;
  currency: string | null;
  perils: ModelledPeril[];
  scenario: Scenario;
  horizon: Horizon | null;
  years: number;
  seed: number;
  model_version: string;
  hazard_model_version: string;
  catalog: { events_generated: Record<string, number>; events_with_loss: number; state_seasons: number; annual_event_rate: number; events_simulated: number };
  aal: number;
  aal_analytic: number;
  aal_by_peril: Record<string, number>;
  return_periods: number[];
  curve: EpPoint[];
  ept: EptRow[];
  psept: EptRow[];
}

export function runEpModel(grid: HazardGrid, locations: readonly PortfolioLocation[], o: EpOptions, progress?: (stage: string, done: number, total: number) => void): EpResult {
  const climate = climateCase(o.scenario, o.horizon);
  progress?.('building the event catalog', 0, o.years);
  const ex = buildExposure(grid, locations, o.perils);
  const elt = buildElt(grid, ex.exposure, { perils: o.perils, climate, seed: o.seed });
  const ylt = simulateYears(elt, o.years, o.seed, (done) => progress?.('simulating years', done, o.years));
  const ept = eptRows(ylt.occ, ylt.agg);
  const psept: EptRow[] = [];
  const block = Math.floor(o.years / PSEPT_BLOCKS);
  if (block >= 1) {
    for (let s = 0; s < PSEPT_BLOCKS; s++) {
      const rows = eptRows(ylt.occ.subarray(s * block, (s + 1) * block), ylt.agg.subarray(s * block, (s + 1) * block), 1, s + 1);
      psept.push(...rows);
    }
  }
  const aalByPeril: Record<string, number> = {};
  for (const p of o.perils) aalByPeril[p] = 0;
  let rateSum = 0;
  for (let i = 0; i < elt.rate.length; i++) {
    aalByPeril[MODELLED_PERILS[elt.peril[i]]] += elt.rate[i] * elt.loss[i];
    rateSum += elt.rate[i];
  }
  for (const s of elt.seasons) aalByPeril[s.peril] += s.expectedLoss;
  const aalAnalytic = Object.values(aalByPeril).reduce((a, b) => a + b, 0);
  const currencies = [...new Set(locations.map((l) => l.currency))];
  return {
    locations: ex.locations,
    locations_modelled: ex.modelled,
    locations_outside_coverage: ex.outsideCoverage,
    tiv_total: ex.tivTotal,
    currency: currencies.length === 1 ? currencies[0] : null,
    perils: [...o.perils],
    scenario: o.scenario,
    horizon: o.horizon,
    years: o.years,
    seed: o.seed,
    model_version: EP_MODEL_VERSION,
    hazard_model_version: grid.header.modelVersion,
    catalog: {
      events_generated: elt.generated,
      events_with_loss: elt.rate.length,
      state_seasons: elt.seasons.length,
      annual_event_rate: rateSum,
      events_simulated: ylt.eventsDrawn,
    },
    aal: mean(ylt.agg),
    aal_analytic: aalAnalytic,
    aal_by_peril: aalByPeril,
    return_periods: RETURN_PERIODS.filter((rp) => rp <= o.years),
    curve: epPoints(ept),
    ept,
    psept,
  };
}
