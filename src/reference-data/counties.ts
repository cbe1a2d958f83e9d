/**
 * The US counties: FIPS, name, area and polygons, from the US Census cartographic county boundaries as
 * packaged by us-atlas (counties-10m: 1:10M generalisation, all states, DC and territories). Read at run
 * time (county names and densities) and by the baseline build (databuild/coverage.ts grids them).
 */
import { createRequire } from 'node:module';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import { area } from '@turf/area';

export interface CountyTable {
  fips: string[]; // sorted ascending
  name: string[];
  areaKm2: number[];
  /** Polygons per county, for the coastline (coast.ts). */
  polygons: Position2[][][][];
}
type Position2 = number[];

export function loadCountyTable(): CountyTable {
  const require = createRequire(import.meta.url);
  const topo = require('us-atlas/counties-10m.json') as Topology<{ counties: GeometryCollection<{ name: string }> }>;
  const fc = feature(topo, topo.objects.counties);
  const feats = [...fc.features].sort((a, b) => String(a.id).localeCompare(String(b.id))) as Feature<
    Polygon | MultiPolygon,
    { name: string }
  >[];
  return {
    fips: feats.map((f) => String(f.id)),
    name: feats.map((f) => f.properties.name),
    // Land-and-water area of the generalised polygon; good to a few percent, ample for a density.
    areaKm2: feats.map((f) => Math.round(area(f) / 1e4) / 100),
    polygons: feats.map((f) => (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates)),
  };
}
