/**
 * Exposure inside an event's rings (GET /events/{id}/exposure, and the same code for a scenario's rings):
 * population apportioned from census counties by area overlap (domain/apportion.ts), infrastructure
 * counts by kind with the names of the hospitals inside the innermost rings, and the coverage of each
 * infrastructure kind over the ring's states. Every figure names its source and method.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import { bboxOf } from '../lib/geo.js';
import { MemoByContent } from '../lib/memo-by-content.js';
import { countiesInBox, loadCounties } from './counties.js';
import { ringPopulation, type RingPopulation } from './domain/apportion.js';
import { coverageOf, type KindCoverage } from './domain/coverage.js';
import { PAGER_US_FATALITY, pagerEstimate } from './domain/pager.js';
import { INFRA_KINDS, type InfraKind } from './infrastructure/format.js';
import { facilitiesInside, loadInfrastructure } from './infrastructure/store.js';
import type { SourceRef } from './event-ref.js';

export interface RingIn {
  ring_id: string | null;
  ordinal: number;
  kind: string;
  label: string;
  threshold: number | null;
  unit: string | null;
  radius_km: number | null;
  geometry: Polygon | MultiPolygon;
  /** Its place among all the rings, innermost 0, when only some of them are passed (defaults to the place in the list). */
  position?: number;
}

export interface HospitalRef {
  id: string;
  name: string;
  city: string;
  state: string;
  type: string | null;
  beds: number | null;
  trauma: string | null;
}

export interface RingExposureBody {
  ring_id: string | null;
  ordinal: number;
  kind: string;
  label: string;
  threshold: number | null;
  unit: string | null;
  radius_km: number | null;
  population: RingPopulation;
  infrastructure: {
    /** Facilities inside the ring by kind; null where the kind has no data in any of the ring's states ("not covered", not 0). */
    counts: Record<InfraKind, number | null>;
    /** Hospitals inside the ring, listed for the innermost rings (HOSPITAL_LIST_RINGS), null beyond. */
    hospitals: HospitalRef[] | null;
    hospitals_truncated: boolean;
    coverage: KindCoverage[];
  };
}

/** Hospitals are named inside this many innermost rings (ordinal 0, 1), at most HOSPITAL_LIST_MAX each. */
export const HOSPITAL_LIST_RINGS = 2;
export const HOSPITAL_LIST_MAX = 200;

export const EXPOSURE_METHOD = {
  population:
    'county population x (area of county inside the ring / area of the county): 2020 Census county population spread evenly over the county (us-atlas 1:10M Census boundaries), summed over the counties the ring touches; rings are whole polygons, so an outer ring includes the population of the rings inside it',
  infrastructure:
    "HIFLD facilities whose point lies inside the ring polygon (point in polygon), by kind, one per facility (double HIFLD records merged at build); null where the kind has no data in the ring's states (coverage says where each kind has data)",
  portfolio_tiv:
    "the caller's portfolio locations inside the ring polygon whose LocPerilsCovered includes the event's peril, TIV summed per currency (docs/portfolios.md); empty when the caller has none there",
  reference:
    'docs/intelligence.md "Exposure"; PAGER-style exposure (Jaiswal & Wald 2010) without a population grid: the county is the finest population unit in the embedded data',
};

/** A ring's population by its geometry alone: the same ring asked about again is not apportioned again. */
const populationByGeometry = new MemoByContent((geometry: Polygon | MultiPolygon): RingPopulation => {
  const box = bboxOf(geometry.coordinates);
  return ringPopulation(geometry, box, countiesInBox(loadCounties(), box));
}, 256);

export function ringExposures(rings: RingIn[]): RingExposureBody[] {
  const infra = loadInfrastructure();
  const ordered = [...rings].sort((a, b) => a.ordinal - b.ordinal);
  return ordered.map((r, idx) => {
    const population = populationByGeometry.get(r.geometry);
    const inside = facilitiesInside(infra, r.geometry);
    const states = [...new Set(population.counties.map((c) => c.state))].sort();
    const coverage = coverageOf(INFRA_KINDS, infra.meta.kinds, states);
    // A kind with no data in the ring's states is not counted: "fire stations 0" in Florida would read as none there.
    const uncovered = new Set(coverage.filter((c) => c.covered === 'no').map((c) => c.kind));
    const counts = Object.fromEntries(
      INFRA_KINDS.map((k) => [k, uncovered.has(k) ? null : inside.filter((f) => f.kind === k).length]),
    ) as Record<InfraKind, number | null>;
    const hospitals = inside.filter((f) => f.kind === 'hospital');
    const listed = (r.position ?? idx) < HOSPITAL_LIST_RINGS;
    return {
      ring_id: r.ring_id,
      ordinal: r.ordinal,
      kind: r.kind,
      label: r.label,
      threshold: r.threshold,
      unit: r.unit,
      radius_km: r.radius_km,
      population,
      infrastructure: {
        counts,
        hospitals: listed
          ? hospitals.slice(0, HOSPITAL_LIST_MAX).map((h) => ({
              id: `hospital:${h.id}`,
              name: h.name,
              city: h.city,
              state: h.state,
              type: typeof h.extra.type === 'string' ? h.extra.type : null,
              beds: typeof h.extra.beds === 'number' ? h.extra.beds : null,
              trauma: typeof h.extra.trauma === 'string' ? h.extra.trauma : null,
            }))
          : null,
        hospitals_truncated: listed && hospitals.length > HOSPITAL_LIST_MAX,
        coverage,
      },
    };
  });
}

/** The data sources behind exposure figures, with their vintages. */
export function exposureSources(): SourceRef[] {
  const ci = loadCounties();
  const infra = loadInfrastructure();
  return [
    {
      name: ci.population.source,
      url: ci.population.source_url,
      ingested_at: ci.population.ingested_at,
      role: 'county population (2020 Census)',
    },
    {
      name: ci.boundaries.source,
      url: ci.boundaries.source_url,
      ingested_at: null,
      role: 'county boundaries for the area overlap',
    },
    ...infra.meta.kinds
      .filter((k) => k.rows > 0)
      .map((k) => ({ name: k.source, url: k.source_url, ingested_at: k.ingested_at, role: `${k.kind} locations` })),
  ];
}

/**
 * PAGER-style impact of an earthquake's MMI rings (domain/pager.ts): population per intensity band and the
 * Jaiswal & Wald (2010) US fatality rate at each band's lower bound, a lower bound of PAGER's estimate. Null
 * when the rings are not MMI rings (other perils, or an earthquake without rings).
 */
export function earthquakeImpact(rings: Pick<RingExposureBody, 'kind' | 'threshold' | 'population'>[]) {
  const mmi = rings.filter((r) => r.kind === 'mmi' && typeof r.threshold === 'number');
  if (mmi.length === 0) return null;
  return {
    ...pagerEstimate(mmi.map((r) => ({ mmi: r.threshold as number, population: r.population.population }))),
    method: `PAGER-style (docs/methods.md#damage-functions): fatalities = Σ population of each MMI band × ν(S), ν(S) = Φ(ln(S/θ)/β), θ = ${PAGER_US_FATALITY.theta}, β = ${PAGER_US_FATALITY.beta} (Jaiswal & Wald 2010, United States); each band charged its lower MMI, so a lower bound; alert level by PAGER's fatality bands`,
    uncertainty:
      'A lower bound with an order-of-magnitude spread: PAGER itself reports its fatality estimates as ranges of about a factor of ten, and here population is county-averaged and intensity known only at three levels.',
  };
}
