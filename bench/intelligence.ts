/**
 * Event intelligence (docs/intelligence.md):
 *  - intelligence.load: reading the county polygons (us-atlas) and the embedded facilities, once per process;
 *  - intelligence.infrastructure_near: 2,000 seeded 25-km queries over the conterminous US through the flatbush
 *    index (src/intelligence/infrastructure/store.ts), against intelligence.infrastructure_scan, the same
 *    queries as a haversine scan of every facility (the baseline measured in the same run);
 *  - intelligence.exposure_hurricane: population and infrastructure inside the three wind rings of a Category 4
 *    storm at Fort Myers with Ian's landfall radii (scenario code: the rings ingest would draw), median of 3.
 */
import { baselineRingOptions } from '../src/reference-data/ring-options.js';
import { prepareEvent } from '../src/ingest/normalise.js';
import { loadCounties } from '../src/intelligence/counties.js';
import { ringExposures } from '../src/intelligence/exposure.js';
import { INFRA_KINDS } from '../src/intelligence/infrastructure/format.js';
import { facilitiesNear, loadInfrastructure } from '../src/intelligence/infrastructure/store.js';
import { hypotheticalRecord } from '../src/intelligence/scenarios/spec.js';
import { haversineKm } from '../src/lib/geo.js';
import { mulberry32 } from '../src/lib/random.js';
import { emit, median, peakRssMb } from './report.js';

export async function benchIntelligence(): Promise<void> {
  let t0 = performance.now();
  loadCounties();
  const infra = loadInfrastructure();
  let s = (performance.now() - t0) / 1000;
  emit({
    name: 'intelligence.load',
    n: infra.facilities.length,
    seconds: s,
    per_second: infra.facilities.length / s,
    peak_rss_mb: peakRssMb(),
  });

  const r = mulberry32(20260101);
  const points = Array.from({ length: 2000 }, () => [25 + r() * 24, -124 + r() * 57] as const);
  t0 = performance.now();
  let found = 0;
  for (const [lat, lng] of points) found += facilitiesNear(infra, lat, lng, 25, INFRA_KINDS).length;
  s = (performance.now() - t0) / 1000;
  emit({
    name: 'intelligence.infrastructure_near',
    n: points.length,
    seconds: s,
    per_second: points.length / s,
    peak_rss_mb: peakRssMb(),
    facilities_found: found,
  });

  t0 = performance.now();
  let scanned = 0;
  for (const [lat, lng] of points)
    for (const f of infra.facilities) if (haversineKm(lat, lng, f.lat, f.lng) <= 25) scanned++;
  const scan = (performance.now() - t0) / 1000;
  emit({
    name: 'intelligence.infrastructure_scan',
    n: points.length,
    seconds: scan,
    per_second: points.length / scan,
    peak_rss_mb: peakRssMb(),
    facilities_found: scanned,
    index_speedup: Math.round((scan / s) * 10) / 10,
  });

  const spec = {
    name: 'bench',
    notes: null,
    event_type: 'hurricane' as const,
    lat: 26.6,
    lng: -82.0,
    wind_kt: 125,
    pressure_mb: 940,
    radii_nm: {
      '64': { ne: 40, se: 35, sw: 25, nw: 30 },
      '50': { ne: 70, se: 60, sw: 40, nw: 50 },
      '34': { ne: 130, se: 120, sw: 90, nw: 110 },
    },
  };
  const prepared = prepareEvent(hypotheticalRecord(spec, 'bench', '2022-09-28T19:00:00Z', null), baselineRingOptions());
  const rings = prepared.rings.map((g, ordinal) => ({
    ring_id: null,
    ordinal,
    kind: g.kind,
    label: g.label,
    threshold: g.threshold,
    unit: g.unit,
    radius_km: g.radiusKm,
    geometry: g.geometry,
  }));
  const times: number[] = [];
  let counties = 0;
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    counties = ringExposures(rings).reduce((n, x) => n + x.population.counties.length, 0);
    times.push((performance.now() - t0) / 1000);
  }
  const m = median(times);
  emit({
    name: 'intelligence.exposure_hurricane',
    n: rings.length,
    seconds: m,
    per_second: rings.length / m,
    peak_rss_mb: peakRssMb(),
    county_terms: counties,
  });
}
