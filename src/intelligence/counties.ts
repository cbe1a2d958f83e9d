/**
 * Counties for exposure and coverage: the US Census cartographic boundaries packaged by us-atlas
 * (counties-10m, the polygons the hazard baseline is built on, src/reference-data/counties.ts) and the 2020
 * Census population of each (CenPop2020_Mean_CO.txt, carried in the baseline grid's county table). Loaded
 * once per process; a flatbush index over the county bounding boxes finds candidates for a point or a ring.
 */
import Flatbush from 'flatbush';
import { area } from '@turf/area';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';
import { loadCountyTable } from '../reference-data/counties.js';
import { loadBaselineGrid } from '../reference-data/load-baseline.js';
import { bboxOf } from '../lib/geo.js';
import { STATE_BY_FIPS } from './infrastructure/states.js';

export interface County {
  fips: string;
  name: string;
  state: string;
  /** 2020 Census population; null where the census file has no row for the boundary. */
  population: number | null;
  /** Area of the generalised polygon (km²), the denominator of the area share. */
  areaKm2: number;
  geometry: Polygon | MultiPolygon;
  bbox: [number, number, number, number];
}

export interface CountyIndex {
  counties: County[];
  index: Flatbush;
  /** Provenance of the population figures. */
  population: { source: string; source_url: string; ingested_at: string; vintage: string };
  boundaries: { source: string; source_url: string };
}

let cached: CountyIndex | undefined;

export function loadCounties(): CountyIndex {
  if (cached) return cached;
  const table = loadCountyTable();
  const grid = loadBaselineGrid();
  const popByFips = new Map<string, number | null>(
    grid.header.counties.fips.map((f, i) => [f, grid.header.counties.population[i]]),
  );
  const counties: County[] = table.fips.map((fips, i) => {
    const polys = table.polygons[i];
    const geometry: Polygon | MultiPolygon =
      polys.length === 1 ? { type: 'Polygon', coordinates: polys[0] } : { type: 'MultiPolygon', coordinates: polys };
    return {
      fips,
      name: table.name[i],
      state: STATE_BY_FIPS[fips.slice(0, 2)] ?? fips.slice(0, 2),
      population: popByFips.get(fips) ?? null,
      areaKm2: area({ type: 'Feature', geometry, properties: {} }) / 1e6,
      geometry,
      bbox: bboxOf(geometry.coordinates),
    };
  });
  const index = new Flatbush(counties.length);
  for (const c of counties) index.add(c.bbox[0], c.bbox[1], c.bbox[2], c.bbox[3]);
  index.finish();
  cached = {
    counties,
    index,
    population: {
      source: 'US Census Bureau, 2020 Census county centers of population (CenPop2020_Mean_CO.txt)',
      source_url: 'https://www2.census.gov/geo/docs/reference/cenpop2020/county/CenPop2020_Mean_CO.txt',
      ingested_at: grid.header.ingestedAt,
      vintage: '2020-04-01',
    },
    boundaries: {
      source: 'US Census Bureau cartographic boundary counties, 1:10,000,000 (us-atlas counties-10m)',
      source_url: 'https://github.com/topojson/us-atlas',
    },
  };
  return cached;
}

/** The county holding the point, or undefined (at sea, outside the US). */
export function countyAt(ci: CountyIndex, lat: number, lng: number): County | undefined {
  for (const i of ci.index.search(lng, lat, lng, lat)) {
    const c = ci.counties[i];
    if (booleanPointInPolygon([lng, lat], c.geometry)) return c;
  }
  return undefined;
}

/** Counties whose bounding box meets the box (candidates; the caller clips). */
export function countiesInBox(ci: CountyIndex, box: [number, number, number, number]): County[] {
  return ci.index.search(box[0], box[1], box[2], box[3]).map((i) => ci.counties[i]);
}
