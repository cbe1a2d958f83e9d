/**
 * Reading portfolios (migration 5). Every read is scoped to an account: another account's portfolio is
 * simply not found (404, never 403), as for triggers (src/triggers/store.ts).
 *
 * readPortfolioLocations is the contract other capabilities build on (the EP curve reads a portfolio's
 * locations through it).
 */
import type { Store } from '../store/db.js';
import { scorePerilsOf } from './domain/oed-row.js';

export interface PortfolioLocation {
  locNumber: string;
  lat: number;
  lng: number;
  occupancyCode: number | null;
  constructionCode: number | null;
  /** catintel peril names this location covers (from LocPerilsCovered): hurricane_wind, storm_surge, earthquake, ... */
  perils: string[];
  /** LocPerilsCovered as stored (normalised OED codes and groups, ';'-separated). */
  perilsCovered: string;
  tiv: { building: number; contents: number; bi: number; other: number };
  currency: string;
}

export interface PortfolioSummary {
  id: string;
  account: string;
  name: string;
  source: 'csv' | 'json';
  content_sha256: string;
  location_count: number;
  currency: string;
  building_tiv: number;
  contents_tiv: number;
  bi_tiv: number;
  other_tiv: number;
  created_at: string;
}

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;
const PORTFOLIO_SELECT = `SELECT id, account, name, source, content_sha256, location_count, currency,
  building_tiv, contents_tiv, bi_tiv, other_tiv, ${iso('created_at')} AS created_at FROM portfolios`;

/** The portfolio with this id if it belongs to `account`; undefined for an unknown id or someone else's. */
export async function getPortfolio(db: Store, account: string, id: string): Promise<PortfolioSummary | undefined> {
  return db.one<PortfolioSummary>(`${PORTFOLIO_SELECT} WHERE id = $id AND account = $account`, { id, account });
}

/** An account's portfolios, oldest first, keyset-paged on (created_at, id). */
export async function listPortfolios(
  db: Store,
  account: string,
  page: { limit: number; after?: { created_at: string; id: string } },
): Promise<{ matched: number; rows: PortfolioSummary[] }> {
  const n = await db.one<{ n: bigint }>(`SELECT count(*) AS n FROM portfolios WHERE account = $account`, { account });
  const params: Record<string, string | number> = { account, limit: page.limit };
  let after = '';
  if (page.after) {
    after = ` AND (created_at > $at::TIMESTAMP OR (created_at = $at::TIMESTAMP AND id > $id))`;
    params.at = page.after.created_at;
    params.id = page.after.id;
  }
  const rows = await db.all<PortfolioSummary>(
    `${PORTFOLIO_SELECT} WHERE account = $account${after} ORDER BY created_at, id LIMIT $limit`,
    params,
  );
  return { matched: Number(n?.n ?? 0), rows };
}

/** A stored location row as the listing and the exposure read it. */
export interface LocationRecord {
  seq: number;
  row_number: number;
  loc_number: string;
  lat: number;
  lng: number;
  occupancy_code: number | null;
  construction_code: number | null;
  perils_covered: string;
  peril_codes: string;
  building_tiv: number;
  contents_tiv: number;
  bi_tiv: number;
  other_tiv: number;
  currency: string;
}

const LOCATION_COLS = `seq, row_number, loc_number, lat, lng, occupancy_code, construction_code, perils_covered, peril_codes,
  building_tiv, contents_tiv, bi_tiv, other_tiv, currency`;

/** Locations of a portfolio in file order, `limit` of them after sequence number `afterSeq`. */
export async function locationPage(
  db: Store,
  portfolioId: string,
  afterSeq: number,
  limit: number,
): Promise<LocationRecord[]> {
  return db.all<LocationRecord>(
    `SELECT ${LOCATION_COLS} FROM portfolio_locations WHERE portfolio_id = $id AND seq > $after ORDER BY seq LIMIT $limit`,
    { id: portfolioId, after: afterSeq, limit },
  );
}

interface LocationColumns {
  loc_number: string[] | null;
  lat: number[] | null;
  lng: number[] | null;
  occupancy_code: (number | null)[] | null;
  construction_code: (number | null)[] | null;
  building_tiv: number[] | null;
  contents_tiv: number[] | null;
  bi_tiv: number[] | null;
  other_tiv: number[] | null;
  perils_covered: string[] | null;
}

/** Above every location's sequence number (an INTEGER column). */
const LAST_SEQ = 2 ** 31 - 1;

/** The locations of an account's portfolio, or null if no such portfolio for that account (-> 404). */
export async function readPortfolioLocations(
  db: Store,
  account: string,
  id: string,
): Promise<PortfolioLocation[] | null> {
  const p = await getPortfolio(db, account, id);
  if (!p) return null;
  return locationsBetween(db, p, 0, LAST_SEQ);
}

/** A portfolio's locations in file order from sequence number `afterSeq` + 1 to `lastSeq` (numbered 1, 2, ... in file order). */
export async function locationsBetween(
  db: Store,
  p: Pick<PortfolioSummary, 'id' | 'currency'>,
  afterSeq: number,
  lastSeq: number,
): Promise<PortfolioLocation[]> {
  // One row of lists converts to JS far faster than a row object per location (location-index.ts does the same).
  const col = (c: string) => `list(${c} ORDER BY seq) AS ${c}`;
  const [c] = await db.all<LocationColumns>(
    `SELECT ${['loc_number', 'lat', 'lng', 'occupancy_code', 'construction_code', 'building_tiv', 'contents_tiv', 'bi_tiv', 'other_tiv', 'perils_covered'].map(col).join(', ')}
       FROM portfolio_locations WHERE portfolio_id = $id AND seq > $after AND seq <= $last`,
    { id: p.id, after: afterSeq, last: lastSeq },
  );
  const n = c?.lat?.length ?? 0;
  const perilsOf = new Map<string, string[]>(); // a portfolio repeats few distinct LocPerilsCovered values
  const out: PortfolioLocation[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const cover = c.perils_covered![i];
    let perils = perilsOf.get(cover);
    if (!perils) perilsOf.set(cover, (perils = scorePerilsOf(cover)));
    out[i] = {
      locNumber: c.loc_number![i],
      lat: c.lat![i],
      lng: c.lng![i],
      occupancyCode: c.occupancy_code![i],
      constructionCode: c.construction_code![i],
      perils: [...perils],
      perilsCovered: cover,
      tiv: { building: c.building_tiv![i], contents: c.contents_tiv![i], bi: c.bi_tiv![i], other: c.other_tiv![i] },
      // One currency per portfolio (import.ts).
      currency: p.currency,
    };
  }
  return out;
}
