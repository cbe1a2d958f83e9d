/**
 * The seeded OED books of the EP benchmarks (bench/ep-models.ts), with financial terms so that the insured
 * run does work of its own:
 *  - `florida`: the 2020 Census county centres of population, Florida's counties weighing eight times their
 *    population and the other Gulf and Atlantic coast states' twice (the hurricane book);
 *  - `california`: California's counties only (the earthquake book);
 *  - `ian`: the Florida Gulf coast counties around Hurricane Ian's landfall (the live event-loss book,
 *    bench/event-loss.ts).
 * Locations come from scripts/make-us-portfolio.ts (the same draw as the bulk-scoring benchmark: county by
 * population, a ~5 km offset, codes and values from its menus), every one covering all perils (AA1), with
 * a building deductible of 2 % of its building value (OED LocDedType1Building 0: an amount), and one
 * policy per account of 50 locations: a $25,000 policy deductible and a $20M layer limit (PolDed6All,
 * LayerLimit). The same seed always gives the same bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PopulationCentre } from '../src/reference-data/census.js';
import { PORTFOLIO_COLUMNS, usPortfolioCsv } from '../scripts/make-us-portfolio.js';

export type EpBookRegion = 'florida' | 'california' | 'ian';

const FLORIDA = '12';
const CALIFORNIA = '06';
/** Texas, Louisiana, Mississippi, Alabama, Georgia, South Carolina, North Carolina, Virginia. */
const OTHER_HURRICANE_COAST = ['48', '22', '28', '01', '13', '45', '37', '51'];
/**
 * Florida's Gulf coast around Ian's landfall at Cayo Costa (2022-09-28) and the counties inland of it its
 * core crossed: Collier, Lee, Charlotte, Sarasota, Manatee, Hillsborough, Pinellas, DeSoto, Hardee, Hendry,
 * Glades, Highlands, Polk.
 */
const IAN_COUNTIES = ['021', '071', '015', '115', '081', '057', '103', '027', '049', '051', '043', '055', '105'].map(
  (c) => FLORIDA + c,
);

const WEIGHT: Record<EpBookRegion, (c: PopulationCentre) => number> = {
  florida: (c) => {
    const state = c.fips.slice(0, 2);
    return state === FLORIDA ? 8 : OTHER_HURRICANE_COAST.includes(state) ? 2 : 1;
  },
  california: (c) => (c.fips.startsWith(CALIFORNIA) ? 1 : 0),
  ian: (c) => (IAN_COUNTIES.includes(c.fips) ? 1 : 0),
};

const POLICY_DEDUCTIBLE = 25_000;
const LAYER_LIMIT = 20_000_000;

export interface EpBook {
  location: string;
  account: string;
  rows: number;
  accounts: number;
}

/** Writes location.csv and account.csv of `rows` locations into `dir`. */
export function writeEpBook(
  dir: string,
  o: { rows: number; seed: number; region: EpBookRegion; cenPopPath: string },
): EpBook {
  const col = (name: (typeof PORTFOLIO_COLUMNS)[number]) => PORTFOLIO_COLUMNS.indexOf(name);
  const perils = col('LocPerilsCovered');
  const building = col('BuildingTIV');
  const accNumber = col('AccNumber');
  const location = path.join(dir, 'location.csv');
  const fd = fs.openSync(location, 'w');
  const accounts = new Set<string>();
  try {
    for (const chunk of usPortfolioCsv({
      rows: o.rows,
      seed: o.seed,
      cenPopPath: o.cenPopPath,
      weight: WEIGHT[o.region],
    })) {
      const lines = chunk.split('\n').filter(Boolean);
      const out = lines.map((line) => {
        if (line.startsWith('PortNumber,')) return `${line},LocDedType1Building,LocDed1Building`;
        const f = line.split(',');
        f[perils] = 'AA1';
        accounts.add(f[accNumber]);
        return `${f.join(',')},0,${Math.round(Number(f[building]) * 0.02)}`;
      });
      fs.writeSync(fd, out.join('\n') + '\n');
    }
  } finally {
    fs.closeSync(fd);
  }
  const account = path.join(dir, 'account.csv');
  fs.writeFileSync(
    account,
    [
      'PortNumber,AccNumber,PolNumber,AccCurrency,PolPerilsCovered,PolDed6All,LayerNumber,LayerAttachment,LayerLimit,LayerParticipation',
      ...[...accounts].map((acc) => `P1,${acc},1,USD,AA1,${POLICY_DEDUCTIBLE},1,0,${LAYER_LIMIT},1`),
    ].join('\n') + '\n',
  );
  return { location, account, rows: o.rows, accounts: accounts.size };
}
