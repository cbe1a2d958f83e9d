/**
 * GET /events/{id}/exposure and `catintel events exposure ID` (docs/contract.md#access: analyst): population
 * inside each of the event's rings apportioned from census counties by area overlap, infrastructure counts
 * by kind with the hospitals of the innermost rings named, the caller's portfolio TIV inside each ring
 * (src/portfolios/exposure.ts tivByRing), every figure with its source and method
 * (src/intelligence/exposure.ts, docs/intelligence.md "Exposure"); now (the rings at the clock) at the top
 * level, and so far (the same figures over the swath up to the clock) under so_far
 * (src/intelligence/swath-exposure.ts).
 */
import type { MultiPolygon, Polygon } from 'geojson';
import { eventRef, eventSource } from '../intelligence/event-ref.js';
import { EXPOSURE_METHOD, earthquakeImpact, exposureSources, ringExposures } from '../intelligence/exposure.js';
import { provenanceOf } from '../domain/provenance.js';
import { ringsOf } from '../store/events-read.js';
import { tivByRing } from '../portfolios/exposure.js';
import { prepareArea } from '../portfolios/domain/geometry.js';
import { SWATH_METHOD, swathExposure } from '../intelligence/swath-exposure.js';
import { eventIdParam, requireEvent } from './event-lookup.js';
import { defineHandler } from './types.js';

export const eventsExposure = defineHandler({
  name: 'events.exposure',
  summary: 'Population and infrastructure inside each consequence ring of an event, with sources and method',
  // perAccount: the body carries the caller's portfolio TIV, so it is never served from the shared cache.
  http: { method: 'GET', path: '/events/{id}/exposure', access: 'analyst', perAccount: true },
  cli: {
    command: ['events', 'exposure'],
    args: ['id'],
    options: [
      {
        flags: '--format <format>',
        description:
          'json (default: the answer on stdout) | arrow: an Arrow IPC file of one row per ring (and currency of your portfolio TIV in it), with the JSON names (needs --out)',
      },
      { flags: '--out <file>', description: 'the file --format arrow writes (replaced whole when written)' },
    ],
    examples: [
      'catintel events exposure AL092022',
      'catintel events exposure nc216859 --json',
      'catintel events exposure AL092022 --format arrow --out exposure.arrow',
    ],
    paths: ['out'],
    tableFile: true,
  },
  parse: (raw) => ({ id: eventIdParam(raw) }),
  async run(ctx, { id }, caller) {
    const row = await requireEvent(ctx, id);
    const asOf = ctx.clock().toISOString();
    const rings = await ringsOf(ctx.db, row.id);
    const geometries = rings.map((r) => JSON.parse(r.geojson) as Polygon | MultiPolygon);
    // The caller's portfolios inside each ring (src/portfolios/exposure.ts): cumulative TIV per currency.
    const tiv = await tivByRing(
      ctx.db,
      caller.account,
      row.event_type,
      rings.map((r, k) => ({ ...r, geojson: geometries[k] })),
    );
    const computed = ringExposures(
      rings.map((r, k) => ({
        ring_id: r.ring_id,
        ordinal: r.ordinal,
        kind: r.kind,
        label: r.label,
        threshold: r.threshold,
        unit: r.unit,
        radius_km: r.radius_km,
        geometry: geometries[k],
      })),
    );
    const exposures = computed.map((e) => ({
      ...e,
      portfolio_tiv: tiv.find((t) => t.ring_id === e.ring_id)?.by_currency ?? [],
      ...provenanceOf(row),
    }));
    // So far: the same figures over the swath up to the clock (the union of the rings over every fix).
    const byId = new Map(computed.map((e) => [e.ring_id, e]));
    const now = rings.map((r, k) => {
      const { geojson, ...fields } = r;
      return {
        ring: { ...fields, area: prepareArea(geometries[k]) },
        geometry: geometries[k],
        exposure: byId.get(r.ring_id)!,
      };
    });
    const soFar = (await swathExposure(ctx.db, caller.account, row, now, asOf)).map((e) => ({
      ...e,
      ...provenanceOf(row),
    }));
    return {
      body: {
        event: eventRef(row),
        as_of: asOf,
        ring_count: exposures.length,
        rings: exposures,
        so_far: { ring_count: soFar.length, rings: soFar },
        impact: earthquakeImpact(exposures),
        method: { ...EXPOSURE_METHOD, so_far: SWATH_METHOD },
        sources: [eventSource(row, 'the event and its rings'), ...exposureSources()],
      },
      notes: exposures.length === 0 ? ['this event has no rings, so nothing is inside them'] : undefined,
    };
  },
});
