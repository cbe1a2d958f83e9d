/**
 * The columns of an Oasis `location.csv` written from any input (docs/scoring.md "Oasis LMF export"):
 *  - every input column is kept in order; an OED field keeps its name in the spec's spelling, the
 *    coordinate columns are named Latitude / Longitude, a column that is not an OED field becomes FlexiLoc<Name> (ods-tools rejects
 *    unknown columns), and a score column we write ourselves (re-scoring our own output) is dropped;
 *  - OED 5.0.0 required fields the input lacks are added: PortNumber and AccNumber 'catintel', LocNumber =
 *    the row number, CountryCode from the hazard cell (US, or PR / VI / GU / MP / AS), LocPerilsCovered =
 *    the OED codes scored, LocCurrency USD; OEDVersion 5.0.0 when absent;
 *  - then the scores: FlexiLocScore<Peril> per scored peril, FlexiLocScoreOverall, FlexiLocScoreScenario,
 *    FlexiLocScoreModelVersion.
 */
import type { Peril } from '../domain/scoring/perils.js';
import { OED_VERSION, isOedLocationField, oedFieldName } from '../oed/oed-fields.js';
import { FLEXI_MODEL_VERSION, FLEXI_SCENARIO, flexiScoreColumn } from '../oed/perils.js';

export interface OasisPlan {
  /** Output header names, in order. */
  header: string[];
  /** Input columns written, in order; null = all of them (a row can then be copied whole). */
  keep: number[] | null;
  /** Input index of each identifying / peril field, or -1 when we add it. */
  port: number;
  acc: number;
  loc: number;
  perilsCovered: number;
  /** Added per-row columns (after the kept input), in order. */
  addPort: boolean;
  addAcc: boolean;
  addLoc: boolean;
  addCountry: boolean;
  addPerilsCovered: boolean;
  addCurrency: boolean;
  addVersion: boolean;
  scoreColumns: string[];
}

export const SYNTH_PORT = 'catintel';
export const SYNTH_ACC = 'catintel';
export const SYNTH_CURRENCY = 'USD';
export { OED_VERSION };

export function planOasisColumns(
  columns: string[],
  latIndex: number,
  lngIndex: number,
  perils: readonly Peril[],
): OasisPlan {
  const scoreColumns = [
    ...perils.map(flexiScoreColumn),
    flexiScoreColumn('overall'),
    FLEXI_SCENARIO,
    FLEXI_MODEL_VERSION,
  ];
  const ours = new Set(scoreColumns.map((c) => c.toLowerCase()));
  const lower = columns.map((c) => c.toLowerCase());
  const index = (name: string) => lower.indexOf(name.toLowerCase());

  const header: string[] = [];
  const keep: number[] = [];
  const taken = new Set<string>([...ours]);
  const claim = (name: string): string => {
    let n = name;
    for (let k = 2; taken.has(n.toLowerCase()); k++) n = `${name}${k}`;
    taken.add(n.toLowerCase());
    return n;
  };
  // OED names are claimed first so a foreign column cannot take one.
  columns.forEach((c, i) => {
    if (i !== latIndex && i !== lngIndex && isOedLocationField(c) && !ours.has(c.toLowerCase()))
      taken.add(c.toLowerCase());
  });
  taken.add('latitude');
  taken.add('longitude');

  columns.forEach((c, i) => {
    if (ours.has(c.toLowerCase())) return; // our own score column from an earlier run: replaced
    keep.push(i);
    // OED names in the spec's spelling: ods-tools matches them in any case, but other readers (pandas
    // scripts, oasislmf's own column lists) look for `Latitude`, not `latitude`.
    if (i === latIndex) header.push('Latitude');
    else if (i === lngIndex) header.push('Longitude');
    else if (isOedLocationField(c)) header.push(oedFieldName(c) ?? c);
    else header.push(claim(`FlexiLoc${pascal(c) || `Column${i + 1}`}`));
  });

  const plan: OasisPlan = {
    header,
    keep: keep.length === columns.length ? null : keep,
    port: index('PortNumber'),
    acc: index('AccNumber'),
    loc: index('LocNumber'),
    perilsCovered: index('LocPerilsCovered'),
    addPort: index('PortNumber') < 0,
    addAcc: index('AccNumber') < 0,
    addLoc: index('LocNumber') < 0,
    addCountry: index('CountryCode') < 0,
    addPerilsCovered: index('LocPerilsCovered') < 0,
    addCurrency: index('LocCurrency') < 0,
    addVersion: index('OEDVersion') < 0,
    scoreColumns,
  };
  if (plan.addPort) header.push('PortNumber');
  if (plan.addAcc) header.push('AccNumber');
  if (plan.addLoc) header.push('LocNumber');
  if (plan.addCountry) header.push('CountryCode');
  if (plan.addPerilsCovered) header.push('LocPerilsCovered');
  if (plan.addCurrency) header.push('LocCurrency');
  if (plan.addVersion) header.push('OEDVersion');
  header.push(...scoreColumns);
  return plan;
}

/** 'my site name' -> 'MySiteName'; letters and digits only (a FlexiLoc suffix). */
function pascal(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}
