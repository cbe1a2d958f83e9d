/**
 * Portfolio exposure (`portfolio exposure`, GET /portfolio/exposure) as an Arrow table: one row per ring
 * of each live event that reaches the portfolio now (the JSON's `events[].rings[]`), the event's fields
 * then the ring's, with the JSON's names: event_id, slug, title, event_type, status, severity,
 * severity_label, source, source_url, ingested_at; ring_id, ordinal, kind, label, threshold, unit,
 * radius_km; the band's NumLocations and insured values (BldgInsuranceAmt ... TotalInsuranceAmt, float64
 * money, the portfolio's CurCd in the field metadata). The ring figures are bands (a location counts in
 * the innermost ring that holds it), so a group-by on event_id sums to the event's totals. The listed
 * locations, the figures by peril and the swath (so_far) stay in the JSON answer; the portfolio's own
 * fields (PortfolioId, PortfolioName, CurCd, as_of, NumLocations, NumLocationsExposed) are the schema's
 * metadata.
 */
import type { Table } from 'apache-arrow';
import { recordTable, type RecordColumn } from './record-table.js';
import { INSURED_VALUE_COLUMNS, RING_FIELD_COLUMNS } from './ring-columns.js';

const AMOUNTS: RecordColumn[] = [{ name: 'NumLocations', kind: 'int' }, ...INSURED_VALUE_COLUMNS];

export const EXPOSURE_EVENT_COLUMNS: RecordColumn[] = [
  { name: 'event_id', kind: 'text' },
  { name: 'slug', kind: 'text' },
  { name: 'title', kind: 'text' },
  { name: 'event_type', kind: 'text' },
  { name: 'status', kind: 'text' },
  { name: 'severity', kind: 'float' },
  { name: 'severity_label', kind: 'text' },
  { name: 'source', kind: 'text' },
  { name: 'source_url', kind: 'text' },
  { name: 'ingested_at', kind: 'time' },
];

const EXPOSURE_RING_COLUMNS: RecordColumn[] = [...RING_FIELD_COLUMNS, ...AMOUNTS];

/** The fields of the JSON answer the table is made from (src/portfolios/exposure.ts). */
export interface ExposureAnswer {
  PortfolioId: string;
  PortfolioName: string;
  CurCd: string;
  as_of: string;
  NumLocations: number;
  NumLocationsExposed: number;
  events: (Record<string, unknown> & { rings: Record<string, unknown>[] })[];
}

export function isExposureAnswer(body: unknown): body is ExposureAnswer {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Buffer.isBuffer(body) &&
    Array.isArray((body as ExposureAnswer).events)
  );
}

export function exposureTable(body: ExposureAnswer): Table {
  const rows: Record<string, unknown>[] = [];
  for (const e of body.events) {
    const event = Object.fromEntries(EXPOSURE_EVENT_COLUMNS.map((c) => [c.name, e[c.name]]));
    for (const ring of e.rings) rows.push({ ...event, ...ring });
  }
  return recordTable([...EXPOSURE_EVENT_COLUMNS, ...EXPOSURE_RING_COLUMNS], rows, body.CurCd, {
    PortfolioId: body.PortfolioId,
    PortfolioName: body.PortfolioName,
    CurCd: body.CurCd,
    as_of: body.as_of,
    NumLocations: body.NumLocations,
    NumLocationsExposed: body.NumLocationsExposed,
  });
}
