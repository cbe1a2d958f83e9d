/**
 * An event's exposure (`events exposure ID`, GET /events/{id}/exposure) as an Arrow table: one row per ring
 * now (the JSON's `rings[]`, innermost first) and currency of the caller's portfolio TIV inside it, with the
 * JSON's names: ring_id, ordinal, kind, label, threshold, unit, radius_km; the ring's population and areas
 * (population, land_area_km2, ring_area_km2: the JSON's `population`); the facility counts by kind
 * (hospital, fire_station, school, urgent_care, ems: `infrastructure.counts`, null where the kind has no
 * data in the ring's states); the portfolio TIV inside the ring (`portfolio_tiv[]`: CurCd, NumLocations,
 * NumPortfolios, BldgInsuranceAmt ... TotalInsuranceAmt, float64 money); and the ring's provenance. A ring
 * none of the caller's locations reaches has one row with CurCd null and zero TIV; a ring the caller's
 * books reach in two currencies has two rows (the same population and counts), which is why CurCd is a
 * column. The money fields' `currency` metadata is the one currency of the table (`mixed` when there are
 * several, absent when there is none). Rings are whole polygons (an outer ring includes the inner ones),
 * as in the JSON. The county terms, the hospitals named, the coverage, the swath so far and the impact
 * stay in the JSON; the event's fields and as_of are the schema's metadata.
 */
import type { Table } from 'apache-arrow';
import { INFRA_KINDS } from '../intelligence/infrastructure/format.js';
import { recordTable, type RecordColumn } from './record-table.js';
import { INSURED_VALUE_COLUMNS, RING_FIELD_COLUMNS } from './ring-columns.js';

export const EVENT_EXPOSURE_COLUMNS: RecordColumn[] = [
  ...RING_FIELD_COLUMNS,
  { name: 'population', kind: 'int' },
  { name: 'land_area_km2', kind: 'float' },
  { name: 'ring_area_km2', kind: 'float' },
  ...INFRA_KINDS.map((k): RecordColumn => ({ name: k, kind: 'int' })),
  { name: 'CurCd', kind: 'text' },
  { name: 'NumLocations', kind: 'int' },
  { name: 'NumPortfolios', kind: 'int' },
  ...INSURED_VALUE_COLUMNS,
  { name: 'source', kind: 'text' },
  { name: 'source_url', kind: 'text' },
  { name: 'ingested_at', kind: 'time' },
];

type Fields = Record<string, unknown>;

/** The fields of the JSON answer the table is made from (src/handlers/events-exposure.ts). */
export interface EventExposureAnswer {
  event: Fields & { id: string };
  as_of: string;
  ring_count: number;
  rings: (Fields & {
    population: { population: number; land_area_km2: number; ring_area_km2: number };
    infrastructure: { counts: Record<string, number | null> };
    portfolio_tiv: Fields[];
  })[];
}

export function isEventExposureAnswer(body: unknown): body is EventExposureAnswer {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Buffer.isBuffer(body) &&
    Array.isArray((body as EventExposureAnswer).rings) &&
    typeof (body as EventExposureAnswer).event === 'object'
  );
}

/** A ring nobody's book reaches: no currency, nothing inside. */
const NO_TIV: Fields = {
  CurCd: null,
  NumLocations: 0,
  NumPortfolios: 0,
  ...Object.fromEntries(INSURED_VALUE_COLUMNS.map((c) => [c.name, 0])),
};

export function eventExposureTable(body: EventExposureAnswer): Table {
  const rows: Fields[] = [];
  const currencies = new Set<string>();
  for (const r of body.rings) {
    const ring: Fields = {
      ...r,
      population: r.population.population,
      land_area_km2: r.population.land_area_km2,
      ring_area_km2: r.population.ring_area_km2,
      ...r.infrastructure.counts,
    };
    const tiv = r.portfolio_tiv.length > 0 ? r.portfolio_tiv : [NO_TIV];
    for (const t of tiv) {
      if (typeof t.CurCd === 'string') currencies.add(t.CurCd);
      rows.push({ ...ring, ...t });
    }
  }
  const currency = currencies.size === 0 ? undefined : currencies.size === 1 ? [...currencies][0] : null;
  const e = body.event;
  return recordTable(EVENT_EXPOSURE_COLUMNS, rows, currency, {
    event_id: e.id,
    slug: e.slug as string,
    title: e.title as string,
    event_type: e.event_type as string,
    status: e.status as string,
    source_id: e.source_id as string,
    as_of: body.as_of,
    ring_count: body.ring_count,
  });
}
