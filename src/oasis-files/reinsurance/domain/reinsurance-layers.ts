/**
 * Every reinsurance inuring layer of a programme, in the order losses flow through them: by
 * InuringPriority, and within one priority by RiskLevel (LOC, LGR, POL, ACC, SEL). Layer n is written
 * as RI_n/ and runs on the net loss of layer n - 1 (layer 1 on the direct insured loss).
 */
import { buildInuringLayer } from './inuring-layer.js';
import { checkReinsCurrency, checkReinsPerils, readScopes, readTreaties, type CsvRecord } from './treaties.js';
import { riskRows } from './risk-rows.js';
import { RISK_LEVEL_ORDER, type ReinsuranceLayerFiles } from './types.js';

export interface ReinsuranceInputs {
  riInfo: CsvRecord[];
  riScope: CsvRecord[];
  locations: CsvRecord[];
  accounts: CsvRecord[];
  /** The direct insurance's fm_summary_map rows. */
  summaryMap: CsvRecord[];
  /** The direct insurance's fm_xref output ids, in file order. */
  directOutputs: number[];
}

export function reinsuranceLayers(input: ReinsuranceInputs): ReinsuranceLayerFiles[] {
  const treaties = readTreaties(input.riInfo);
  const scopes = readScopes(input.riScope, treaties);
  checkReinsPerils(input.riInfo, treaties, new Set(input.summaryMap.map((s) => s.peril_id).filter(Boolean)));
  const currencies = new Set(
    [...input.locations.map((l) => l.LocCurrency), ...input.accounts.map((a) => a.AccCurrency)]
      .map((c) => (c ?? '').trim())
      .filter(Boolean),
  );
  checkReinsCurrency(input.riInfo, treaties, currencies);
  const rows = riskRows(input.summaryMap, input.locations, input.accounts);

  const layers: ReinsuranceLayerFiles[] = [];
  const maxPriority = Math.max(...treaties.map((t) => t.inuringPriority));
  for (let priority = 1; priority <= maxPriority; priority++) {
    for (const riskLevel of RISK_LEVEL_ORDER) {
      const these = treaties.filter((t) => t.inuringPriority === priority && t.riskLevel === riskLevel);
      if (these.length === 0) continue;
      const numbers = new Set(these.map((t) => t.reinsNumber));
      layers.push(
        buildInuringLayer({
          inuringPriority: priority,
          riskLevel,
          treaties: these,
          scopes: scopes.filter((s) => numbers.has(s.reinsNumber)),
          rows,
          directOutputs: input.directOutputs,
        }),
      );
    }
  }
  return layers;
}
