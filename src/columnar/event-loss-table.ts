/**
 * A portfolio's loss from a live event (`portfolio event-loss ID --event E`, GET /portfolio/event-loss) as
 * an Arrow table: one row per perspective (gul, then il) and peril, the perspective's whole first (peril
 * `all`: the JSON's `gul` / `il`) then each peril of `perils` (the JSON's `by_peril`), with the JSON's
 * names: perspective, peril, MeanLossAmt, P10LossAmt, P50LossAmt, P90LossAmt, ObservedSoFarLossAmt (null
 * for an earthquake) and TIVInFootprintAmt (the whole's `TIVInFootprintAmt`, a peril's
 * `TIVInFootprintAmtByPeril`), every amount float64 money with the book's CurCd in the field metadata. The
 * run's own fields are the schema's metadata: PortfolioId, the event (event_id, event_slug, event_title,
 * event_type, event_source_id, event_status), the footprint used (footprint_product, footprint_version,
 * footprint_issued_at, footprint_kind, footprint_members, footprint_forecast, footprint_forecast_hours),
 * perils, members, samples, seed, model_version, CurCd, NumLocations, NumLocationsModelled,
 * NumLocationsInFootprint, TotalInsuranceAmt, as_of, method and the provenance. `--over-versions` has no
 * Arrow form (it is refused with --format arrow).
 */
import type { Table } from 'apache-arrow';
import type { EventLossBody } from '../event-loss/portfolio-loss.js';
import { recordTable, type RecordColumn } from './record-table.js';

export const EVENT_LOSS_COLUMNS: RecordColumn[] = [
  { name: 'perspective', kind: 'text' },
  { name: 'peril', kind: 'text' },
  { name: 'MeanLossAmt', kind: 'money' },
  { name: 'P10LossAmt', kind: 'money' },
  { name: 'P50LossAmt', kind: 'money' },
  { name: 'P90LossAmt', kind: 'money' },
  { name: 'ObservedSoFarLossAmt', kind: 'money' },
  { name: 'TIVInFootprintAmt', kind: 'money' },
];

/** The peril of the row that holds a perspective's whole loss. */
export const ALL_PERILS = 'all';

export function isEventLossAnswer(body: unknown): body is EventLossBody {
  const b = body as EventLossBody;
  return (
    typeof body === 'object' &&
    body !== null &&
    !Buffer.isBuffer(body) &&
    typeof b.gul === 'object' &&
    typeof b.il === 'object' &&
    Array.isArray(b.perils)
  );
}

export function eventLossTable(body: EventLossBody): Table {
  const rows: Record<string, unknown>[] = [];
  for (const perspective of ['gul', 'il'] as const) {
    const { by_peril, ...whole } = body[perspective];
    rows.push({ perspective, peril: ALL_PERILS, ...whole, TIVInFootprintAmt: body.TIVInFootprintAmt });
    for (const peril of body.perils)
      if (by_peril[peril])
        rows.push({
          perspective,
          peril,
          ...by_peril[peril],
          TIVInFootprintAmt: body.TIVInFootprintAmtByPeril[peril] ?? null,
        });
  }
  const f = body.footprint;
  return recordTable(EVENT_LOSS_COLUMNS, rows, body.CurCd, {
    PortfolioId: body.PortfolioId,
    event_id: body.event.id,
    event_slug: body.event.slug,
    event_title: body.event.title,
    event_type: body.event.event_type,
    event_source_id: body.event.source_id,
    event_status: body.event.status,
    footprint_product: f.product,
    footprint_version: f.version,
    footprint_issued_at: f.issued_at,
    footprint_kind: f.kind,
    footprint_members: f.members,
    footprint_forecast: f.forecast,
    footprint_forecast_hours: f.forecast_hours,
    perils: body.perils.join(','),
    members: body.members,
    samples: body.samples,
    seed: body.seed,
    model_version: body.model_version,
    CurCd: body.CurCd,
    NumLocations: body.NumLocations,
    NumLocationsModelled: body.NumLocationsModelled,
    NumLocationsInFootprint: body.NumLocationsInFootprint,
    TotalInsuranceAmt: body.TotalInsuranceAmt,
    as_of: body.as_of,
    method: body.method,
    source: body.source,
    source_url: body.source_url,
    ingested_at: body.ingested_at,
  });
}
