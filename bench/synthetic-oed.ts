/**
 * A seeded synthetic OED book for the OED-to-Oasis-files benchmark: `locations` locations in accounts of
 * 1,000, each location with building, contents and BI values and a site deductible and limit on the
 * building, each account one policy with a deductible, a limit and two layers (attachment, limit,
 * participation). Keys: peril WTC on each coverage with value, areaperils and vulnerabilities drawn from
 * small ranges (what a model's lookup returns). Numbers as a book of US homes and small commercial risks.
 * The portfolio is named Port1: oasislmf 2.5.8 fails to save a book whose PortNumber reads as a number.
 *
 * With `keysOnto: 'piwind'` the keys name PiWind's model instead (../shared/data/oasis_piwind), so the
 * book can be run: the same draws folded onto PiWind's wind areaperils (1-100) and its wind
 * vulnerabilities (building 1-3, contents 4-6; BI, which PiWind has no curve for, the building's).
 * Everything else in the book is the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '../src/lib/random.js';

const LOCATIONS_PER_ACCOUNT = 1000;

export interface SyntheticOed {
  location: string;
  account: string;
  keys: string;
}

export interface SyntheticOedOptions {
  /** The model the keys name: the bench's own ranges (default) or PiWind's. */
  keysOnto?: 'synthetic' | 'piwind';
}

const PIWIND_WIND_AREAPERILS = 100;
const PIWIND_VULNERABILITY_BASE: Record<number, number> = { 1: 1, 3: 4, 4: 1 };

export function writeSyntheticOed(
  dir: string,
  locations: number,
  seed: number,
  opts: SyntheticOedOptions = {},
): SyntheticOed {
  fs.mkdirSync(dir, { recursive: true });
  const r = mulberry32(seed);
  const files = {
    location: path.join(dir, 'location.csv'),
    account: path.join(dir, 'account.csv'),
    keys: path.join(dir, 'keys.csv'),
  };
  const accounts = Math.ceil(locations / LOCATIONS_PER_ACCOUNT);

  const acc = [
    'PortNumber,AccNumber,PolNumber,PolPerilsCovered,AccCurrency,PolDed6All,PolLimit6All,LayerNumber,LayerAttachment,LayerLimit,LayerParticipation',
  ];
  for (let a = 1; a <= accounts; a++) {
    const ded = 1000 * (5 + Math.floor(r() * 20));
    acc.push(`Port1,A${a},P${a},WTC,USD,${ded},500000000,1,0,50000000,1`);
    acc.push(`Port1,A${a},P${a},WTC,USD,${ded},500000000,2,50000000,100000000,0.5`);
  }
  fs.writeFileSync(files.account, acc.join('\n') + '\n');

  // Written in blocks: a million lines as one string is hundreds of megabytes.
  const loc = fs.openSync(files.location, 'w');
  const keys = fs.openSync(files.keys, 'w');
  fs.writeSync(
    loc,
    'PortNumber,AccNumber,LocNumber,CountryCode,LocPerilsCovered,LocCurrency,BuildingTIV,ContentsTIV,BITIV,LocDed1Building,LocLimit1Building\n',
  );
  fs.writeSync(keys, 'LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID\n');
  // Oasis numbers locations by (PortNumber, AccNumber, LocNumber) sorted as text: numbering in that order
  // here lets the keys name them.
  const order: { acc: number; loc: number }[] = [];
  for (let i = 1; i <= locations; i++) order.push({ acc: Math.ceil(i / LOCATIONS_PER_ACCOUNT), loc: i });
  const key = (o: { acc: number; loc: number }) => [`A${o.acc}`, `L${o.loc}`];
  order.sort((x, y) => {
    const [ax, lx] = key(x);
    const [ay, ly] = key(y);
    return ax < ay ? -1 : ax > ay ? 1 : lx < ly ? -1 : lx > ly ? 1 : 0;
  });
  let locBlock: string[] = [];
  let keyBlock: string[] = [];
  const flush = () => {
    fs.writeSync(loc, locBlock.join(''));
    fs.writeSync(keys, keyBlock.join(''));
    locBlock = [];
    keyBlock = [];
  };
  order.forEach((o, k) => {
    const building = 1000 * Math.round(150 + r() * 850);
    const contents = Math.round(building * (0.3 + r() * 0.4));
    const bi = r() < 0.3 ? Math.round(building * 0.1) : 0;
    const ded = 500 * (1 + Math.floor(r() * 10));
    locBlock.push(
      `Port1,A${o.acc},L${o.loc},US,WTC,USD,${building},${contents},${bi},${ded},${Math.round(building * 0.9)}\n`,
    );
    const areaperil = 1 + Math.floor(r() * 10_000);
    const vulnerability = 1 + Math.floor(r() * 12);
    for (const [type, value] of [
      [1, building],
      [3, contents],
      [4, bi],
    ] as const) {
      if (!(value > 0)) continue;
      if (opts.keysOnto === 'piwind') {
        const vulnerabilityId = PIWIND_VULNERABILITY_BASE[type] + ((vulnerability - 1) % 3);
        keyBlock.push(`${k + 1},WTC,${type},${1 + ((areaperil - 1) % PIWIND_WIND_AREAPERILS)},${vulnerabilityId}\n`);
      } else {
        keyBlock.push(`${k + 1},WTC,${type},${areaperil},${vulnerability * 10 + type}\n`);
      }
    }
    if (locBlock.length === 10_000) flush();
  });
  flush();
  fs.closeSync(loc);
  fs.closeSync(keys);
  return files;
}
