/**
 * Live exposure of a portfolio (GET /portfolio/exposure, `catintel portfolio exposure ID`): for every live
 * event whose rings reach the portfolio, which locations lie inside each ring, with counts and TIV by ring
 * and by OED peril code, counting only locations whose LocPerilsCovered includes the event's peril
 * (domain/perils.ts EVENT_TYPE_CODES). Insurance fields carry ACORD-style names (docs/portfolios.md#names-on-the-output:
 * InsuranceAmt per subject, CurCd, LocationId) and the event its provenance.
 *
 * Rings nest (ordinal 0 is the innermost), so each location is counted once per event, in the innermost ring
 * that holds it: the ring figures are bands and add up to the event's totals. `Cumulative` gives what lies
 * anywhere inside the ring (its band and every ring within it).
 *
 * Also tivByRing: the TIV of all of an account's portfolios inside each of an event's rings.
 */
import type { EventType } from '../domain/event.js';
import type { Store } from '../store/db.js';
import { pointInPrepared, prepareArea, type Area, type PreparedArea } from './domain/geometry.js';
import { EVENT_TYPE_CODES } from './domain/perils.js';
import { ringReach } from './peril-reach.js';
import { locationIndex, portfolioExtent, type Box, type LocationIndex } from './location-index.js';
import type { RingFields } from '../store/events-read.js';
import {
  anyLiveEvent,
  eventHeaderOf,
  liveEventsSoFar,
  type EventHeader,
  type ExposureRing,
  type LiveEventSoFar,
} from './live-rings.js';
import type { EventRow } from '../store/events-read.js';
import type { PortfolioSummary } from './read.js';

export interface InsuranceAmounts {
  BldgInsuranceAmt: number;
  ContentsInsuranceAmt: number;
  BIInsuranceAmt: number;
  OtherInsuranceAmt: number;
  TotalInsuranceAmt: number;
}

export interface ExposedLocation extends InsuranceAmounts {
  LocationId: string;
  Latitude: number;
  Longitude: number;
  LocPerilsCovered: string;
}

export interface PerilExposure extends InsuranceAmounts {
  PerilCd: string;
  NumLocations: number;
}

export interface RingExposure extends InsuranceAmounts, Omit<RingFields, 'ring_id' | 'radius_km'> {
  /** The stored ring (now); for a swath ring (so far) the event's current ring of the same threshold, null when it has none. */
  ring_id: string | null;
  radius_km: number | null;
  /** Swath rings only: how many fixes the union takes in, the first and the last. */
  fixes?: number;
  from?: string;
  to?: string;
  /** Locations whose innermost ring (of this event) is this one. */
  NumLocations: number;
  ByPeril: PerilExposure[];
  /** Everything inside the ring: this band and the rings within it. */
  Cumulative: InsuranceAmounts & { NumLocations: number };
  /** The band's locations, largest total TIV first, at most locations_limit of them. */
  Locations: ExposedLocation[];
  LocationsTruncated: boolean;
}

/** The figures of one set of rings: now (the latest fix's rings) or so far (the swath). */
export interface RingsExposure extends InsuranceAmounts {
  NumLocations: number;
  /** Locations inside a ring whose LocPerilsCovered does not include the event's peril (not counted above). */
  NumLocationsNotCovered: number;
  rings: RingExposure[];
}

/** Now at the top level (the rings as they stand at the clock), so far under so_far (the swath up to the clock). */
export interface EventExposure extends RingsExposure, EventHeader {
  /** The OED peril codes the event acts through; a location counts when it covers one of them. */
  PerilCds: string[];
  so_far: RingsExposure;
}

export interface PortfolioExposure {
  PortfolioId: string;
  PortfolioName: string;
  CurCd: string;
  as_of: string;
  NumLocations: number;
  /** Distinct locations inside some ring of some event and covered for its peril (now). */
  NumLocationsExposed: number;
  /** The same over the events' swaths up to the clock. */
  so_far: { NumLocationsExposed: number };
  events: EventExposure[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

class Sum {
  n = 0;
  b = 0;
  c = 0;
  bi = 0;
  o = 0;
  add(ix: LocationIndex, i: number): void {
    this.n++;
    this.b += ix.building[i];
    this.c += ix.contents[i];
    this.bi += ix.bi[i];
    this.o += ix.other[i];
  }
  amounts(): InsuranceAmounts {
    const [b, c, bi, o] = [round2(this.b), round2(this.c), round2(this.bi), round2(this.o)];
    return {
      BldgInsuranceAmt: b,
      ContentsInsuranceAmt: c,
      BIInsuranceAmt: bi,
      OtherInsuranceAmt: o,
      TotalInsuranceAmt: round2(b + c + bi + o),
    };
  }
}

const totalOf = (ix: LocationIndex, i: number) => ix.building[i] + ix.contents[i] + ix.bi[i] + ix.other[i];

function addAmounts(a: InsuranceAmounts, b: InsuranceAmounts): InsuranceAmounts {
  return {
    BldgInsuranceAmt: round2(a.BldgInsuranceAmt + b.BldgInsuranceAmt),
    ContentsInsuranceAmt: round2(a.ContentsInsuranceAmt + b.ContentsInsuranceAmt),
    BIInsuranceAmt: round2(a.BIInsuranceAmt + b.BIInsuranceAmt),
    OtherInsuranceAmt: round2(a.OtherInsuranceAmt + b.OtherInsuranceAmt),
    TotalInsuranceAmt: round2(a.TotalInsuranceAmt + b.TotalInsuranceAmt),
  };
}

const ZERO: InsuranceAmounts = {
  BldgInsuranceAmt: 0,
  ContentsInsuranceAmt: 0,
  BIInsuranceAmt: 0,
  OtherInsuranceAmt: 0,
  TotalInsuranceAmt: 0,
};

/**
 * Indexes of the locations inside an area (bbox search in the tree, then point-in-polygon), in file order:
 * the sums then run in the same order whichever locations the index holds (all, or those near the rings).
 */
function inside(ix: LocationIndex, a: PreparedArea): number[] {
  if (!ix.tree) return [];
  const out: number[] = [];
  for (const i of ix.tree.search(a.minLng, a.minLat, a.maxLng, a.maxLat))
    if (pointInPrepared(ix.lng[i], ix.lat[i], a)) out.push(i);
  return out.sort((x, y) => x - y);
}

const boxOf = (a: PreparedArea): Box => [a.minLng, a.minLat, a.maxLng, a.maxLat];

/** One box per event around all its rings (now and so far): the only places its exposure looks. */
function boxesOf(live: LiveEventSoFar[]): Box[] {
  return live
    .map((l) =>
      [...l.rings, ...l.swath]
        .map((r) => boxOf(r.area))
        .reduce<Box>(
          (u, b) => [Math.min(u[0], b[0]), Math.min(u[1], b[1]), Math.max(u[2], b[2]), Math.max(u[3], b[3])],
          [Infinity, Infinity, -Infinity, -Infinity],
        ),
    )
    .filter((b) => b[0] <= b[2]);
}

const NONE: RingsExposure = { NumLocations: 0, ...ZERO, NumLocationsNotCovered: 0, rings: [] };

/** Exposure of one indexed portfolio to one live event, now and so far; null when no location lies in its rings or swath. */
export function eventExposure(
  ix: LocationIndex,
  live: LiveEventSoFar,
  locationsLimit: number,
  exposed?: Set<number>,
  exposedSoFar?: Set<number>,
): EventExposure | null {
  const now = ringsExposure(ix, live.event, live.rings, locationsLimit, exposed);
  const soFar = ringsExposure(ix, live.event, live.swath, locationsLimit, exposedSoFar);
  if (!now && !soFar) return null;
  const codes = EVENT_TYPE_CODES[live.event.event_type as EventType] ?? [];
  return { ...eventHeaderOf(live.event), PerilCds: [...codes], ...(now ?? NONE), so_far: soFar ?? NONE };
}

/** The figures of one set of an event's rings; null when no location lies in them. */
function ringsExposure(
  ix: LocationIndex,
  e: EventRow,
  ringList: ExposureRing[],
  locationsLimit: number,
  exposed?: Set<number>,
): RingsExposure | null {
  const live = { rings: ringList };
  const codes = EVENT_TYPE_CODES[e.event_type as EventType] ?? [];
  const reach = live.rings.map((ring) => ringReach(e.event_type as EventType, ring));
  const bandOf = new Map<number, number>(); // location -> position of its innermost ring
  const notCovered = new Set<number>();
  const cumulative = live.rings.map(() => new Sum());
  live.rings.forEach((ring, k) => {
    for (const i of inside(ix, ring.area)) {
      if (!reach[k].covered(ix, i)) {
        notCovered.add(i);
        continue;
      }
      cumulative[k].add(ix, i);
      if (!bandOf.has(i)) bandOf.set(i, k);
    }
  });
  // Reached but insured for none of it: listed with zero amounts and the count not covered, so the caller sees it.
  if (bandOf.size === 0 && notCovered.size === 0) return null;
  const bands = live.rings.map(() => [] as number[]);
  for (const [i, k] of bandOf) {
    bands[k].push(i);
    exposed?.add(i);
  }
  const codeSets = new Map<string, Set<string>>();
  const codesOf = (s: string) => codeSets.get(s) ?? (codeSets.set(s, new Set(s.split(';'))), codeSets.get(s)!);
  let total = ZERO;
  const rings: RingExposure[] = live.rings.map((ring, k) => {
    const band = new Sum();
    const perPeril = codes.map(() => new Sum());
    for (const i of bands[k]) {
      band.add(ix, i);
      const have = codesOf(ix.perilCodes[i]);
      codes.forEach((c, j) => have.has(c) && reach[k].reaches(ix, i, c) && perPeril[j].add(ix, i));
    }
    const amounts = band.amounts();
    total = addAmounts(total, amounts);
    const sorted = bands[k].sort(
      (a, b) => totalOf(ix, b) - totalOf(ix, a) || (ix.locNumber[a] < ix.locNumber[b] ? -1 : 1),
    );
    return {
      ring_id: ring.ring_id,
      ordinal: ring.ordinal,
      kind: ring.kind,
      label: ring.label,
      threshold: ring.threshold,
      unit: ring.unit,
      radius_km: ring.radius_km,
      ...('fixes' in ring ? { fixes: ring.fixes, from: ring.from, to: ring.to } : {}),
      NumLocations: band.n,
      ...amounts,
      ByPeril: codes.map((c, j) => ({ PerilCd: c, NumLocations: perPeril[j].n, ...perPeril[j].amounts() })),
      Cumulative: { NumLocations: cumulative[k].n, ...cumulative[k].amounts() },
      Locations: sorted.slice(0, locationsLimit).map((i) => locationJson(ix, i)),
      LocationsTruncated: sorted.length > locationsLimit,
    };
  });
  for (const i of notCovered) if (bandOf.has(i)) notCovered.delete(i);
  return {
    NumLocations: bandOf.size,
    ...total,
    NumLocationsNotCovered: notCovered.size,
    rings,
  };
}

function locationJson(ix: LocationIndex, i: number): ExposedLocation {
  const s = new Sum();
  s.add(ix, i);
  return {
    LocationId: ix.locNumber[i],
    Latitude: ix.lat[i],
    Longitude: ix.lng[i],
    LocPerilsCovered: ix.perilsCovered[i],
    ...s.amounts(),
  };
}

/**
 * The exposure of a stored portfolio (ownership already checked) to the live events at `now`. When some
 * event is live, the book's extent comes from its portfolio row (the box kept at import); only when a live
 * ring meets it are locations read, and then only those inside the boxes of the rings that do: the cost
 * follows what is exposed, not the size of the book.
 */
export async function portfolioExposure(
  db: Store,
  p: PortfolioSummary,
  now: string,
  locationsLimit: number,
): Promise<PortfolioExposure> {
  // With no live event at all, not even the extent is read: the portfolio summary holds the count.
  const extent = (await anyLiveEvent(db, now))
    ? await portfolioExtent(db, p.id)
    : { count: p.location_count, bbox: undefined };
  const live = extent.bbox ? await liveEventsSoFar(db, now, extent.bbox) : [];
  const ix = await locationIndex(db, p.id, p.currency, boxesOf(live));
  const exposed = new Set<number>();
  const exposedSoFar = new Set<number>();
  const events: EventExposure[] = [];
  for (const l of live) {
    const x = eventExposure(ix, l, locationsLimit, exposed, exposedSoFar);
    if (x) events.push(x);
  }
  events.sort(
    (a, b) =>
      b.TotalInsuranceAmt - a.TotalInsuranceAmt ||
      b.so_far.TotalInsuranceAmt - a.so_far.TotalInsuranceAmt ||
      a.event_id.localeCompare(b.event_id),
  );
  return {
    PortfolioId: p.id,
    PortfolioName: p.name,
    CurCd: p.currency,
    as_of: now,
    NumLocations: extent.count,
    NumLocationsExposed: exposed.size,
    so_far: { NumLocationsExposed: exposedSoFar.size },
    events,
  };
}

export interface RingTiv {
  /** The ring as given (null for a swath ring the event no longer has now). */
  ring_id: string | null;
  /** One entry per currency of the account's portfolios with a location inside the ring. */
  by_currency: Array<InsuranceAmounts & { CurCd: string; NumLocations: number; NumPortfolios: number }>;
}

/**
 * TIV of all of `account`'s portfolios inside each of an event's rings (cumulative: everything within the ring
 * polygon), counting only locations whose LocPerilsCovered includes a peril of `eventType` that reaches them
 * (surge only inside a surge ring or the surge-prone zone, peril-reach.ts). `rings` are as the
 * rings table or /events/{id}/rings hold them (GeoJSON text or object), or swath rings (a MultiPolygon of
 * the per-fix polygons, which may overlap: a location inside several counts once). Answers one entry per
 * ring, in the order given; a ring no location of the account reaches has an empty by_currency.
 */
export async function tivByRing(
  db: Store,
  account: string,
  eventType: EventType,
  rings: Array<{ ring_id: string | null; kind?: string; label?: string; geojson: string | Area }>,
): Promise<RingTiv[]> {
  const portfolios = await db.all<{ id: string; currency: string }>(
    `SELECT id, currency FROM portfolios WHERE account = $account ORDER BY created_at, id`,
    { account },
  );
  const prepared = rings.map((r) => ({
    ring_id: r.ring_id,
    area: prepareArea(typeof r.geojson === 'string' ? JSON.parse(r.geojson) : r.geojson),
  }));
  const reach = rings.map((r) => ringReach(eventType, { kind: r.kind ?? '', label: r.label ?? '' }));
  const acc = prepared.map(() => new Map<string, { sum: Sum; portfolios: number }>());
  // Only the locations inside the rings' boxes are read from each portfolio.
  const boxes = prepared.map((r) => boxOf(r.area)).filter((b) => b[0] <= b[2]);
  for (const p of portfolios) {
    const ix = await locationIndex(db, p.id, p.currency, boxes);
    prepared.forEach((r, k) => {
      const sum = new Sum();
      for (const i of inside(ix, r.area)) if (reach[k].covered(ix, i)) sum.add(ix, i);
      if (sum.n === 0) return;
      const held = acc[k].get(p.currency) ?? { sum: new Sum(), portfolios: 0 };
      held.portfolios++;
      held.sum.n += sum.n;
      held.sum.b += sum.b;
      held.sum.c += sum.c;
      held.sum.bi += sum.bi;
      held.sum.o += sum.o;
      acc[k].set(p.currency, held);
    });
  }
  return prepared.map((r, k) => ({
    ring_id: r.ring_id,
    by_currency: [...acc[k]]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([cur, v]) => ({ CurCd: cur, NumLocations: v.sum.n, NumPortfolios: v.portfolios, ...v.sum.amounts() })),
  }));
}
