/**
 * The reference intensity maps the earthquake rings are validated against (docs/validation.md, "Earthquake
 * rings"), read from the shared data (../shared/data/hazard_history/earthquakes/shakemap, SOURCES.md):
 *   - Loma Prieta 1989, M6.9: the ShakeMap grid (grid.xml), every node weighted by cos(lat);
 *   - South Napa 2014, M6.0: the DYFI 10-km cells (community intensity), weighted by cell area, and the
 *     ShakeMap's input stations (instrumental intensity), one weight each;
 *   - Hebgen Lake 1959, M7.3: the ShakeMap Atlas contours (cont_mmi.json), sampled on a 0.02° lattice.
 * and the table of ring recall / precision per event and level, before and after the correction.
 */
import fs from 'node:fs';
import path from 'node:path';
import area from '@turf/area';
import type { Feature, Polygon } from 'geojson';
import type { Ring } from '../src/domain/event.js';
import { earthquakeRings, UNCORRECTED_IPE } from '../src/domain/rings/earthquake.js';
import { ringSkill, type IntensitySample, type RingSkill } from '../src/domain/rings/ring-skill.js';
import { parseShakeMap, parseShakeMapGrid, RING_MMI_LEVELS } from '../src/sources/shakemap.js';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';

const DIR = 'hazard_history/earthquakes/shakemap';

export interface ReferenceEvent {
  name: string;
  reference: string;
  magnitude: number;
  depthKm: number;
  lat: number;
  lng: number;
  samples: IntensitySample[];
  /** The ShakeMap's own rings, where the reference is a ShakeMap (the "with ShakeMap" row). */
  shakemapRings?: Ring[];
}

export function referenceEvents(sharedData: string): ReferenceEvent[] {
  const read = (f: string) => fs.readFileSync(path.join(sharedData, DIR, f), 'utf8');

  // Loma Prieta: event from the grid's own <event> element (M6.9, 18 km, 37.04 N 121.88 W).
  const lomaText = read('lomaprieta1989_grid.xml');
  const grid = parseShakeMapGrid(lomaText, 'lomaprieta1989_grid.xml');
  const loma: IntensitySample[] = [];
  for (let j = 0; j < grid.ny; j++) {
    const lat = grid.latMax - j * grid.dLatDeg;
    for (let i = 0; i < grid.nx; i++) {
      const mmi = grid.mmi[j * grid.nx + i];
      if (Number.isFinite(mmi))
        loma.push({ lng: grid.lonMin + i * grid.dLonDeg, lat, mmi, weight: Math.cos((lat * Math.PI) / 180) });
    }
  }
  const lomaMap = parseShakeMap(lomaText, 'lomaprieta1989_grid.xml');

  // Napa: event.xml (M6.0, 11.1 km, 38.2152 N 122.3123 W); DYFI cells as they are.
  const dyfi = JSON.parse(read('napa2014_nc72282711_dyfi_geo_10km.geojson')) as {
    features: Feature<Polygon, { cdi: number }>[];
  };
  const napa: IntensitySample[] = dyfi.features.map((f) => {
    const ring = f.geometry.coordinates[0];
    const lng = ring.reduce((s, p) => s + p[0], 0) / ring.length;
    const lat = ring.reduce((s, p) => s + p[1], 0) / ring.length;
    return { lng, lat, mmi: f.properties.cdi, weight: area(f) };
  });

  // Napa stations: <station lat=... lon=... intensity=...> of the ShakeMap input station list.
  const napaStations: IntensitySample[] = [];
  for (const m of read('napa2014_nc72282711_stationlist.xml').matchAll(/<station\s([^>]*)>/g)) {
    const attr = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
    const [lat, lng, mmi] = [Number(attr.lat), Number(attr.lon), Number(attr.intensity)];
    if (attr.intensity && [lat, lng, mmi].every(Number.isFinite)) napaStations.push({ lat, lng, mmi, weight: 1 });
  }

  // Hebgen Lake: contours of the ShakeMap Atlas; a lattice point's MMI is the highest ring level whose
  // area holds it (0 below IV), which is all the metric needs.
  const hebgenMap = parseShakeMap(
    read('hebgenlake1959_iscgem882673_cont_mmi.json'),
    'hebgenlake1959_iscgem882673_cont_mmi.json',
  );
  const hebgen: IntensitySample[] = [];
  const [w, s, e, n] = [-115.583333, 40.966628, -105.583306, 48.083333]; // the file's bbox
  for (let lat = s; lat <= n; lat += 0.02) {
    for (let lng = w; lng <= e; lng += 0.02) {
      const level = hebgenMap.areas.levels.find((l) => booleanPointInPolygon([lng, lat], l.geometry));
      hebgen.push({ lng, lat, mmi: level ? level.mmi : 0, weight: Math.cos((lat * Math.PI) / 180) });
    }
  }

  const ringsOf = (areas: typeof lomaMap.areas, lat: number, lng: number) =>
    earthquakeRings({ kind: 'earthquake', magnitude: 0, depthKm: 0, region: 'west', shakemap: areas }, { lat, lng });
  return [
    {
      name: 'Loma Prieta 1989 (M6.9)',
      reference: 'ShakeMap grid',
      magnitude: 6.9,
      depthKm: 18,
      lat: 37.04,
      lng: -121.88,
      samples: loma,
      shakemapRings: ringsOf(lomaMap.areas, 37.04, -121.88),
    },
    {
      name: 'South Napa 2014 (M6.0)',
      reference: 'DYFI 10-km cells',
      magnitude: 6.0,
      depthKm: 11.1,
      lat: 38.2152,
      lng: -122.3123,
      samples: napa,
    },
    {
      name: 'South Napa 2014 (M6.0)',
      reference: 'ShakeMap stations',
      magnitude: 6.0,
      depthKm: 11.1,
      lat: 38.2152,
      lng: -122.3123,
      samples: napaStations,
    },
    // ISC-GEM gives no depth in the contour file; 10 km is our default for a missing depth.
    {
      name: 'Hebgen Lake 1959 (M7.3)',
      reference: 'ShakeMap Atlas contours',
      magnitude: 7.3,
      depthKm: 10,
      lat: 44.63,
      lng: -110.891,
      samples: hebgen,
      shakemapRings: ringsOf(hebgenMap.areas, 44.63, -110.891),
    },
  ];
}

export interface SkillRow {
  event: string;
  reference: string;
  method: 'before' | 'after' | 'shakemap';
  skill: RingSkill[];
}

/** Recall and precision of each ring level, per event: uncorrected equation, corrected equation, ShakeMap. */
export function ringSkillTable(sharedData: string): SkillRow[] {
  const rows: SkillRow[] = [];
  for (const ev of referenceEvents(sharedData)) {
    const input = {
      kind: 'earthquake' as const,
      magnitude: ev.magnitude,
      depthKm: ev.depthKm,
      region: 'west' as const,
    };
    const centre = { lat: ev.lat, lng: ev.lng };
    rows.push({
      event: ev.name,
      reference: ev.reference,
      method: 'before',
      skill: ringSkill(earthquakeRings(input, centre, UNCORRECTED_IPE), ev.samples, RING_MMI_LEVELS),
    });
    rows.push({
      event: ev.name,
      reference: ev.reference,
      method: 'after',
      skill: ringSkill(earthquakeRings(input, centre), ev.samples, RING_MMI_LEVELS),
    });
    if (ev.shakemapRings)
      rows.push({
        event: ev.name,
        reference: ev.reference,
        method: 'shakemap',
        skill: ringSkill(ev.shakemapRings, ev.samples, RING_MMI_LEVELS),
      });
  }
  return rows;
}

const METHOD: Record<SkillRow['method'], string> = {
  before: 'equation, uncorrected',
  after: 'equation, corrected',
  shakemap: 'ShakeMap rings',
};
const pct = (x: number | null) => (x === null ? '–' : `${Math.round(x * 100)} %`);
const ratio = (x: number | null) => (x === null ? '–' : x.toFixed(2));

/** The Markdown table of docs/validation.md ("Earthquake rings"), one line per event, reference and method. */
export function formatSkillTable(rows: SkillRow[]): string[] {
  const out = [
    '| event | reference | rings | VIII recall / precision / size | VI recall / precision / size | IV recall / precision / size |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const cells = row.skill.map((s) => `${pct(s.recall)} / ${pct(s.precision)} / ${ratio(s.sizeRatio)}`);
    out.push(`| ${row.event} | ${row.reference} | ${METHOD[row.method]} | ${cells.join(' | ')} |`);
  }
  return out;
}

/** F1 (harmonic mean of recall and precision) averaged over every ring level a reference reaches; a missing ring scores 0. */
export function meanF1(rows: SkillRow[], method: SkillRow['method']): number {
  const f1s = rows
    .filter((r) => r.method === method)
    .flatMap((r) => r.skill.filter((s) => s.recall !== null))
    .map((s) =>
      s.precision === null || s.recall! + s.precision === 0
        ? 0
        : (2 * s.recall! * s.precision) / (s.recall! + s.precision),
    );
  return f1s.reduce((a, b) => a + b, 0) / f1s.length;
}
