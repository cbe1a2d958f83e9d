/**
 * Population inside a ring, apportioned from county figures by area overlap (docs/intelligence.md
 * "Exposure"): each county's 2020 Census population is spread evenly over its area, so the population of a
 * county inside the ring is population x (area of county ∩ ring) / (area of the county). The ring figure is
 * the sum over the counties it touches, and every county term is returned, so the ring total reconciles
 * with the county figures it comes from. Areas are geodesic (turf area) on the same generalised polygons for
 * numerator and denominator, so a county wholly inside a ring counts in full. Pure (turf is pure geometry).
 */
import { area } from '@turf/area';
import { intersect } from '@turf/intersect';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { boxAgainst } from './box-against.js';

export interface CountyLike {
  fips: string;
  name: string;
  state: string;
  population: number | null;
  areaKm2: number;
  geometry: Polygon | MultiPolygon;
  bbox: [number, number, number, number];
}

export interface CountyShare {
  fips: string;
  name: string;
  state: string;
  /** The county's 2020 Census population (null when the census has no row for it). */
  county_population: number | null;
  county_area_km2: number;
  overlap_km2: number;
  /** overlap / county area, 0..1. */
  share: number;
  /** county_population x share, rounded to whole people. */
  population: number;
}

export interface RingPopulation {
  /** Sum of the county terms (each rounded first, so the sum equals what the terms show). */
  population: number;
  /** Ring area over land counties (km²) and the ring's whole area. */
  land_area_km2: number;
  ring_area_km2: number;
  counties: CountyShare[];
}

const feature = (geometry: Polygon | MultiPolygon): Feature<Polygon | MultiPolygon> => ({
  type: 'Feature',
  geometry,
  properties: {},
});

function boxesMeet(a: [number, number, number, number], b: [number, number, number, number]): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

export function ringPopulation(
  ring: Polygon | MultiPolygon,
  ringBox: [number, number, number, number],
  candidates: readonly CountyLike[],
): RingPopulation {
  const ringFeature = feature(ring);
  const counties: CountyShare[] = [];
  for (const c of candidates) {
    if (!boxesMeet(c.bbox, ringBox) || !(c.areaKm2 > 0)) continue;
    // A county wholly inside the ring (most of a hurricane's outer ring's) overlaps it by its own area, one
    // wholly outside (its box meets the ring's) not at all: no clip, which is most of the time of an exposure
    // (its robust arithmetic is slow).
    const where = boxAgainst(ring, c.bbox);
    if (where === 'outside') continue;
    let overlapKm2 = c.areaKm2;
    if (where === 'crossed') {
      const clipped = intersect({ type: 'FeatureCollection', features: [ringFeature, feature(c.geometry)] });
      if (!clipped) continue;
      overlapKm2 = area(clipped) / 1e6;
    }
    if (!(overlapKm2 > 0)) continue;
    const share = Math.min(1, overlapKm2 / c.areaKm2);
    counties.push({
      fips: c.fips,
      name: c.name,
      state: c.state,
      county_population: c.population,
      county_area_km2: round2(c.areaKm2),
      overlap_km2: round2(overlapKm2),
      share: Math.round(share * 1e6) / 1e6,
      population: c.population === null ? 0 : Math.round(c.population * share),
    });
  }
  counties.sort((a, b) => b.population - a.population || (a.fips < b.fips ? -1 : 1));
  return {
    population: counties.reduce((s, c) => s + c.population, 0),
    land_area_km2: round2(counties.reduce((s, c) => s + c.overlap_km2, 0)),
    ring_area_km2: round2(area(ringFeature) / 1e6),
    counties,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
