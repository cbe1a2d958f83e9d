/**
 * Provenance of a record derived from the hazard baseline data build (an EP curve, a trigger backtest):
 * the sources of the perils it used, the link of the one that weighs most, the build's ingest time and
 * its data_version (docs/contract.md#events: a derived record names the model and the data build too; the model is
 * named by the record's own model_version or method).
 */
import type { Provenance } from '../provenance.js';
import { PERIL_INFO, type Peril } from './perils.js';

export interface BaselineProvenance extends Provenance {
  data_version: string;
}

/** `perils` most important first (the largest share of loss, or the peril a backtest replays). */
export function baselineProvenance(
  build: { dataVersion: string; ingestedAt: string },
  perils: readonly Peril[],
): BaselineProvenance {
  const sources = [...new Set(perils.map((p) => PERIL_INFO[p].source))];
  return {
    source: sources.length ? sources.join('; ') : 'catintel hazard baseline',
    source_url: perils.length ? PERIL_INFO[perils[0]].sourceUrl : PERIL_INFO.hurricane_wind.sourceUrl,
    ingested_at: build.ingestedAt,
    data_version: build.dataVersion,
  };
}
