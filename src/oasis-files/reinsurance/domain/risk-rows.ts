/**
 * The direct insurance's outputs with the OED fields a reinsurance scope can name: fm_summary_map
 * gives each output's PortNumber, AccNumber, PolNumber and LocNumber; the location file adds LocGroup,
 * CountryCode and ReinsTag, the account file CedantName, ProducerName, LOB and PolInceptionDate.
 */
import { CatintelError } from '../../../errors.js';
import type { CsvRecord } from './treaties.js';
import type { RiskRow, ScopeField } from './types.js';

const SEP = '\u0000';

export function riskRows(summaryMap: CsvRecord[], locations: CsvRecord[], accounts: CsvRecord[]): RiskRow[] {
  const locationOf = new Map<string, CsvRecord>();
  for (const l of locations) locationOf.set([l.PortNumber, l.AccNumber, l.LocNumber].join(SEP), l);
  // An account lists one row per policy layer; the scope fields are the policy's, so the first row stands for it.
  const policyOf = new Map<string, CsvRecord>();
  for (const a of accounts) {
    const k = [a.PortNumber, a.AccNumber, a.PolNumber].join(SEP);
    if (!policyOf.has(k)) policyOf.set(k, a);
  }
  const rows = summaryMap.map((s, i): RiskRow => {
    const outputId = Number(s.output_id);
    const aggId = Number(s.agg_id);
    if (!Number.isInteger(outputId) || !Number.isInteger(aggId))
      throw new CatintelError(
        'invalid_input',
        `fm_summary_map.csv row ${i + 2}: output_id '${s.output_id}' and agg_id '${s.agg_id}' must be whole numbers`,
      );
    const loc = locationOf.get([s.PortNumber, s.AccNumber, s.LocNumber].join(SEP));
    if (!loc)
      throw new CatintelError(
        'invalid_input',
        `fm_summary_map.csv row ${i + 2}: location PortNumber ${s.PortNumber}, AccNumber ${s.AccNumber}, LocNumber ${s.LocNumber} is not in the location file; give the location file the direct Oasis files were made from`,
      );
    const pol = policyOf.get([s.PortNumber, s.AccNumber, s.PolNumber].join(SEP));
    const fields: Record<ScopeField, string> = {
      PortNumber: s.PortNumber ?? '',
      AccNumber: s.AccNumber ?? '',
      PolNumber: s.PolNumber ?? '',
      LocGroup: loc.LocGroup ?? '',
      LocNumber: s.LocNumber ?? '',
      CedantName: pol?.CedantName ?? '',
      ProducerName: pol?.ProducerName ?? '',
      LOB: pol?.LOB ?? '',
      CountryCode: loc.CountryCode ?? '',
      ReinsTag: loc.ReinsTag ?? '',
    };
    return { outputId, aggId, fields, polInceptionDate: (pol?.PolInceptionDate ?? '').trim() };
  });
  // Stable: outputs of one item (its policy layers) keep their order.
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.aggId - b.r.aggId || a.i - b.i)
    .map((x) => x.r);
}
