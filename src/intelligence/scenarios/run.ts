/**
 * Running a what-if scenario: the hypothetical record (spec.ts) goes through the ring code ingest uses
 * (prepareEvent with ingest's ring options), then the same exposure (population, infrastructure), scoring
 * (the hazard score at the location), trigger (the caller's active triggers, evaluated as a trigger
 * evaluation run would) and portfolio code (the caller's TIV per ring, src/portfolios/exposure.ts) as a real event.
 */
import type { Context } from '../../context.js';
import type { Ring } from '../../domain/event.js';
import { prepareEvent } from '../../ingest/normalise.js';
import { baselineRingOptions } from '../../reference-data/ring-options.js';
import { loadBaselineGrid } from '../../reference-data/load-baseline.js';
import { loadModelDamage } from '../../reference-data/model-damage.js';
import { scorePoint } from '../../domain/scoring/score-point.js';
import type { Peril } from '../../domain/scoring/perils.js';
import { ringIdOf } from '../../lib/ids.js';
import { floodStagesOf } from '../../sources/reference/flood-stages.js';
import { evaluateAll, type LiveEventInput } from '../../triggers/domain/evaluate-all.js';
import { listActiveTriggers } from '../../triggers/store.js';
import { tivByRing } from '../../portfolios/exposure.js';
import { EXPOSURE_METHOD, earthquakeImpact, exposureSources, ringExposures } from '../exposure.js';
import type { Provenance } from '../../domain/provenance.js';
import { hypotheticalRecord, type ScenarioSpec } from './spec.js';

const SCORE_PERILS: Record<ScenarioSpec['event_type'], Peril[]> = {
  earthquake: ['earthquake'],
  hurricane: ['hurricane_wind', 'storm_surge'],
  wildfire: ['wildfire'],
  flood: ['riverine_flood'],
};

/** The source a scenario's records name: the request that described the hypothetical event. */
export const SCENARIO_SOURCE = 'scenario request';

export async function runScenario(ctx: Context, spec: ScenarioSpec, id: string, account: string, now: string) {
  const stages = spec.gauge ? (floodStagesOf(spec.gauge)?.stages ?? null) : null;
  const record = hypotheticalRecord(spec, id, now, stages);
  const ringOptions = baselineRingOptions();
  const prepared = prepareEvent(record, ringOptions);
  const rings = prepared.rings.map((r: Ring, ordinal) => ({
    ring_id: ringIdOf(prepared.id, ordinal),
    ordinal,
    kind: r.kind,
    label: r.label,
    threshold: r.threshold,
    unit: r.unit,
    radius_km: r.radiusKm,
    geometry: r.geometry,
    estimate: r.estimate === true,
  }));
  const tiv = new Map(
    (
      await tivByRing(
        ctx.db,
        account,
        record.eventType,
        rings.map((r) => ({ ring_id: r.ring_id, kind: r.kind, label: r.label, geojson: JSON.stringify(r.geometry) })),
      )
    ).map((t) => [t.ring_id, t.by_currency]),
  );
  // A scenario's rings and exposure are made from the caller's request, kept at the scenario's own URL.
  const provenance: Provenance = { source: SCENARIO_SOURCE, source_url: `/api/v1/scenarios/${id}`, ingested_at: now };
  const exposure = ringExposures(rings).map((e) => ({ ...e, portfolio_tiv: tiv.get(e.ring_id!) ?? [], ...provenance }));

  const grid = loadBaselineGrid();
  const scored = scorePoint(grid, {
    lat: spec.lat,
    lng: spec.lng,
    perils: SCORE_PERILS[spec.event_type],
    scenario: 'baseline',
    modelDamage: loadModelDamage(ctx.config.env?.CATINTEL_MODEL_DAMAGE),
  });
  const scores = scored.covered
    ? {
        covered: true,
        scenario: scored.scenario,
        perils: scored.perils,
        source: 'catintel hazard baseline (GET /risk/score at the location)',
      }
    : { covered: false, reason: scored.reason };

  const triggers = (await listActiveTriggers(ctx.db, account)).filter((t) => t.peril === spec.event_type);
  const input: LiveEventInput = {
    event_id: prepared.id,
    source: record.source,
    source_id: record.sourceId,
    title: record.title,
    event_type: record.eventType,
    source_version: prepared.contentHash,
    fixes:
      spec.event_type === 'hurricane'
        ? [{ at: now, lat: spec.lat, lng: spec.lng, windKt: spec.wind_kt!, pressureMb: spec.pressure_mb ?? null }]
        : [],
    readings:
      spec.event_type === 'earthquake'
        ? { magnitude: [{ at: now, value: spec.magnitude!, unit: 'mag', lat: spec.lat, lng: spec.lng }] }
        : spec.event_type === 'flood'
          ? { gauge_stage_ft: [{ at: now, value: spec.stage_ft!, unit: 'ft', lat: spec.lat, lng: spec.lng }] }
          : {},
  };
  const pairs = evaluateAll(triggers, [input], new Map(), () => ringOptions.hurricaneRadiusScale!());
  const triggerResults = pairs.map((p) => ({
    trigger_id: p.trigger.id,
    name: p.trigger.name,
    threshold_type: p.trigger.threshold_type,
    threshold_value: p.trigger.threshold_value,
    ...p.evaluation,
  }));

  return {
    hypothetical_event: {
      id: prepared.id,
      title: record.title,
      event_type: record.eventType,
      severity: record.severity,
      severity_label: record.severityLabel,
      lat: record.lat,
      lng: record.lng,
      as_if_source: record.source,
      ring_input: record.ringInput,
    },
    rings: {
      type: 'FeatureCollection' as const,
      features: rings.map((r) => ({
        type: 'Feature' as const,
        id: r.ring_id,
        geometry: r.geometry,
        properties: {
          ring_id: r.ring_id,
          event_id: prepared.id,
          kind: r.kind,
          label: r.label,
          threshold: r.threshold,
          unit: r.unit,
          radius_km: r.radius_km,
          ...provenance,
        },
      })),
    },
    exposure: {
      rings: exposure,
      impact: earthquakeImpact(exposure),
      method: EXPOSURE_METHOD,
      sources: exposureSources(),
    },
    scores,
    triggers: { evaluated: triggers.length, results: triggerResults },
    method: {
      rings:
        'the ring builder ingest runs on a feed record (src/ingest/normalise.ts prepareEvent), fed the record the matching feed module would emit: docs/rings-earthquake-hurricane.md, docs/rings-alerts-fire-flood.md',
      hurricane_parameters:
        spec.event_type === 'hurricane'
          ? 'without radii_nm the rings come from the calibrated Holland profile real storms without radii get (Rm from Willoughby et al. 2006); rmw_nm and heading_deg are recorded but that profile does not take them, so neither does the scenario'
          : undefined,
      triggers:
        "the caller's active triggers of this peril, evaluated with the rules of a trigger evaluation run (docs/triggers.md); nothing is written to their history",
    },
  };
}
