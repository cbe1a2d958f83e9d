/**
 * The earthquake model's losses against FEMA's National Risk Index and against two earthquakes' reported
 * losses, shared by scripts/validate-earthquake-losses.ts (which writes the "Earthquake losses" section of
 * docs/validation.md) and the tests.
 *
 * Every loss comes from the one loss engine, as for the hurricane model: the NRI building value as an OED
 * book (../shared/nri-exposure-book.ts, the same book and building mix), the earthquake package's keys
 * lookup, the Oasis input files and the kernel (runBook). A state's rate is its book's AAL over its value;
 * a California county's likewise. An earthquake of the record is a one-event package: its rupture, a
 * published finite-fault plane, footprinted by the package builder's own code (eventFootprint: the ground
 * motion's median and σ as probabilities over the PGA bins, Vs30 760 m/s) beside the package's
 * vulnerability, so its loss is the kernel's over that one event.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plane } from '../../reference-data/eq-faults.js';
import { shakeMapGridColumns } from '../../sources/shakemap.js';
import { writeOneEventPackage } from '../shared/package/one-event-package.js';
import type { CountyExposure, GroupLoss } from '../shared/nri-exposure-book.js';
import { countyRates, type RateComparison } from '../shared/nri-rates.js';
import { siteGroundMotion } from './domain/footprint.js';
import { toFaultRupture, faultDistances, type FaultRupture } from './domain/rupture-set.js';
import { readHazusEarthquake } from './io/hazus-earthquake-data.js';
import { eventFootprint } from './package/event-footprint.js';
import { GRID_CELLS } from './package/grid.js';
import { HAZUS_EARTHQUAKE_DIR } from './package/build.js';
import { worstMeanDamageByBin } from './package/worst-damage.js';

export const EQ_LOSS_CHECK_FILES = {
  california: 'hazard_history/fema_nri/NRI_Table_Counties_California_v1.19.csv',
  billionDollar: 'losses/noaa_billion_dollar/events-US-1980-2024-Q4.csv',
  lomaPrietaShakeMap: 'hazard_history/earthquakes/shakemap/lomaprieta1989_grid.xml',
} as const;

/** The book's LocPerilsCovered: earthquake shake. */
export const SHAKE_ONLY = 'QEQ';

/** California counties against NRI v1.19's California county table (earthquake). */
export function californiaCountyRates(dataDir: string, counties: readonly CountyExposure[], byFips: ReadonlyMap<string, GroupLoss>): RateComparison {
  return countyRates(dataDir, EQ_LOSS_CHECK_FILES.california, 'ERQK', counties.filter((c) => c.state === 'CA'), byFips);
}

/** A plane from its top edge's centre, strike, dip, depths and length (the trace is the top edge's surface projection). */
function plane(topLat: number, topLng: number, strikeDeg: number, dipDeg: number, upKm: number, lowKm: number, lengthKm: number): Plane {
  const s = (strikeDeg * Math.PI) / 180;
  const half = lengthKm / 2;
  const kx = 111.19 * Math.cos((topLat * Math.PI) / 180);
  const dLat = (half * Math.cos(s)) / 111.19;
  const dLng = (half * Math.sin(s)) / kx;
  // The dip direction is 90° clockwise of the strike (right-hand rule).
  const d = s + Math.PI / 2;
  return { trace: [[topLng - dLng, topLat - dLat], [topLng + dLng, topLat + dLat]], dipDeg, dipDir: [Math.sin(d), Math.cos(d)], upKm, lowKm };
}

export interface HistoricalQuake {
  name: string;
  rupture: FaultRupture;
  /** Reported losses in the dollars of the year, with their sources. */
  reported: { total: number; totalSource: string; insured: number; insuredSource: string };
  /** The NOAA billion-dollar event nearest in time, whose CPI-adjusted / unadjusted cost gives NOAA's own CPI factor to 2024 dollars. */
  cpiFrom: string;
}

/**
 * Northridge 1994 (Mw 6.7): the blind thrust of Wald, Heaton & Hudnut (1996, BSSA 86(1B):S49), strike
 * 122°, dip 40° to the south-south-west, 18 km along strike, from 5 km down to about 19 km, its top edge
 * some 15 km north-north-east of the epicentre (34.21°N, 118.54°W; hypocentre 17.5 km deep).
 * Loma Prieta 1989 (Mw 6.9): the oblique reverse rupture of Wald, Helmberger & Heaton (1991, BSSA 81(5):1540),
 * strike 128°, dip 70° to the south-west, 40 km along strike, 5 to 18 km deep, centred on the epicentre
 * (37.04°N, 121.88°W) and its top edge 4.7 km up-dip (north-east) of it.
 */
export const HISTORICAL_QUAKES: HistoricalQuake[] = [
  {
    name: 'Northridge 1994',
    rupture: toFaultRupture({ name: 'Northridge 1994 (Mw 6.7)', magnitude: 6.7, rate: 1, region: 'west', basis: 'Wald, Heaton & Hudnut (1996)', planes: [plane(34.327, -118.451, 122, 40, 5, 19, 18)] }),
    reported: {
      total: 20e9,
      totalSource: 'more than $20 billion in property damage (NISEE, UC Berkeley, Northridge earthquake summary; the figure USGS quotes)',
      insured: 15.3e9,
      insuredSource: 'insurance claims of $15.3 billion (Personal Insurance Federation of California, Insurance Journal, 15 January 2004)',
    },
    cpiFrom: 'Winter Storm, Cold Wave (January 1994)',
  },
  {
    name: 'Loma Prieta 1989',
    rupture: toFaultRupture({ name: 'Loma Prieta 1989 (Mw 6.9)', magnitude: 6.9, rate: 1, region: 'west', basis: 'Wald, Helmberger & Heaton (1991)', planes: [plane(37.0734, -121.8473, 128, 70, 5, 18, 40)] }),
    reported: {
      total: 6e9,
      totalSource: '$6 billion in economic losses (Stoffer 2005, USGS; Steinbrugge & Roth 1994)',
      insured: 0.902e9,
      insuredSource: '$902 million insured (Steinbrugge & Roth 1994, as quoted by RMS, 2019)',
    },
    cpiFrom: 'Hurricane Hugo (September 1989)',
  },
];

/** NOAA's CPI factor to 2024 dollars for the month of an event in its billion-dollar list (CPI-adjusted / unadjusted cost). */
export function noaaCpiFactor(dataDir: string, noaaName: string): number {
  const file = path.join(dataDir, EQ_LOSS_CHECK_FILES.billionDollar);
  const line = fs.readFileSync(file, 'utf8').split(/\r?\n/).find((l) => l.startsWith(noaaName + ',') || l.startsWith(`"${noaaName}",`));
  if (!line) throw new Error(`"${noaaName}" is not in ${file}; check the event's name in the list`);
  // Name, Disaster, Begin Date, End Date, CPI-Adjusted Cost, Unadjusted Cost, Deaths (the name may be quoted).
  const rest = line.startsWith('"') ? line.slice(line.indexOf('",') + 2) : line.slice(line.indexOf(',') + 1);
  const [, , , adjusted, unadjusted] = rest.split(',');
  return Number(adjusted) / Number(unadjusted);
}

/**
 * A models folder whose earthquake/ package is the one rupture: footprinted as the package build
 * footprints a catalog rupture, beside `basePackageDir`'s vulnerability and seismic zones.
 */
export async function historicalQuakeModels(rupture: FaultRupture, dataDir: string, basePackageDir: string, outModelsDir: string): Promise<string> {
  const worst = worstMeanDamageByBin(readHazusEarthquake(path.join(dataDir, HAZUS_EARTHQUAKE_DIR)));
  const fp = eventFootprint(rupture, new Float64Array(GRID_CELLS * 5), worst);
  await writeOneEventPackage({ basePackageDir, out: path.join(outModelsDir, 'earthquake'), rows: Buffer.from(fp.rows), event: rupture.name });
  return outModelsDir;
}

export interface ShakeMapBand {
  fromKm: number;
  toKm: number;
  nodes: number;
  /** exp(mean ln(ShakeMap PGA / our median PGA)), our median at Vs30 760 m/s (the package's). */
  ratio760: number;
  /** The same with our median at the ShakeMap node's own Vs30 (its SVEL field). */
  ratioSite: number;
}

/** ShakeMap PGA against our median PGA for the rupture, node by node, by rupture distance band. */
export function shakeMapComparison(dataDir: string, rupture: FaultRupture, bandsKm: readonly number[] = [0, 10, 25, 50, 100, 200]): ShakeMapBand[] {
  const text = fs.readFileSync(path.join(dataDir, EQ_LOSS_CHECK_FILES.lomaPrietaShakeMap), 'utf8');
  const g = shakeMapGridColumns(text, 'lomaprieta1989_grid.xml', ['LON', 'LAT', 'PGA', 'SVEL']);
  const acc = bandsKm.slice(0, -1).map((from, k) => ({ fromKm: from, toKm: bandsKm[k + 1], n: 0, s760: 0, sSite: 0 }));
  for (let i = 0; i < g.LON.length; i++) {
    const pga = g.PGA[i] / 100;
    if (!(pga > 0)) continue;
    const { rrupKm } = faultDistances(g.LAT[i], g.LON[i], rupture);
    const k = acc.findIndex((a) => rrupKm >= a.fromKm && rrupKm < a.toKm);
    if (k < 0) continue;
    const at760 = siteGroundMotion(rupture, g.LAT[i], g.LON[i]);
    const atSite = siteGroundMotion(rupture, g.LAT[i], g.LON[i], g.SVEL[i]);
    acc[k].n++;
    acc[k].s760 += Math.log(pga) - at760.lnMedian;
    acc[k].sSite += Math.log(pga) - atSite.lnMedian;
  }
  return acc.map((a) => ({ fromKm: a.fromKm, toKm: a.toKm, nodes: a.n, ratio760: Math.exp(a.s760 / a.n), ratioSite: Math.exp(a.sSite / a.n) }));
}
