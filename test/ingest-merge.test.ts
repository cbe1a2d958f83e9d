/**
 * One event, several feeds of its source (issue 8 item 5), through the real CLI: the WFIGS point and
 * perimeter of one incident become one event with the mapped perimeter as its ring, whichever layer
 * comes first; a storm keeps its wind rings when its GIS cone arrives, and keeps the cone when a newer
 * wind record arrives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { FIXTURES, sharedData } from './helpers/paths.js';

const POINTS = path.join(FIXTURES, 'feeds/nifc/wfigs_incident_locations.geojson');
const PERIMETERS = path.join(FIXTURES, 'feeds/nifc/wfigs_interagency_perimeters.geojson');
const CURRENT_STORMS = path.join(FIXTURES, 'feeds/nhc/CurrentStorms.json');
const SERGIO_GIS = sharedData('feeds/nhc/gis/ep212018_5day_latest.zip');

async function ingestAll(db: string, now: string, runs: Array<[source: string, file: string]>) {
  for (const [source, file] of runs) {
    const r = await cli(['--db', db, '--json', 'ingest', source, '--from', file], { CATINTEL_NOW: now });
    expect(r.code, r.stderr).toBe(0);
  }
}

async function ringsOfTitle(db: string, now: string, title: RegExp) {
  const live = (await cli(['--db', db, '--json', 'events', 'live', '--limit', '1000'], { CATINTEL_NOW: now })).json();
  const matching = live.features.filter((f: any) => title.test(f.properties.title));
  expect(matching).toHaveLength(1); // one event, not one per feed
  const rings = (
    await cli(['--db', db, '--json', 'events', 'rings', matching[0].properties.id], { CATINTEL_NOW: now })
  ).json();
  return {
    event: matching[0],
    rings: rings.features.map((f: any) => ({
      kind: f.properties.kind,
      label: f.properties.label,
      type: f.geometry.type,
    })),
  };
}

describe('WFIGS point and perimeter of one incident', () => {
  const now = '2025-08-09T18:00:00Z';
  const perimeterRings = [
    { kind: 'fire_perimeter', label: 'Mapped fire perimeter (18,450 acres)', type: 'Polygon' },
    { kind: 'ember_zone', label: 'Short-range spotting zone (within 0.1 km of the fire)', type: 'Polygon' },
    { kind: 'ember_zone', label: 'Long-range spotting zone (within 0.5 km of the fire)', type: 'Polygon' },
    { kind: 'ember_zone', label: 'Ember watch zone (within 2 km of the fire)', type: 'Polygon' },
  ];

  it('perimeters, then points: one event, the mapped perimeter stays its ring', async () => {
    const db = path.join(tempDir(), 'fire1.duckdb');
    await ingestAll(db, now, [
      ['nifc-wildfires', PERIMETERS],
      ['nifc-wildfires', POINTS],
    ]);
    const { rings } = await ringsOfTitle(db, now, /^Ridgeline Fire/);
    expect(rings).toEqual(perimeterRings);
  });

  it('a later point update (more acres, more containment) updates the event and keeps the perimeter', async () => {
    const db = path.join(tempDir(), 'fire3.duckdb');
    const doc = JSON.parse(fs.readFileSync(POINTS, 'utf8'));
    const ridgeline = doc.features.find((f: any) => f.properties.IncidentName === 'RIDGELINE').properties;
    ridgeline.ModifiedOnDateTime_dt += 3_600_000;
    ridgeline.IncidentSize = 19100;
    ridgeline.PercentContained = 55;
    const later = path.join(tempDir(), 'wfigs_incident_locations_later.geojson');
    fs.writeFileSync(later, JSON.stringify(doc));
    await ingestAll(db, now, [
      ['nifc-wildfires', PERIMETERS],
      ['nifc-wildfires', later],
    ]);
    const { event, rings } = await ringsOfTitle(db, now, /^Ridgeline Fire/);
    expect(event.properties).toMatchObject({ severity: 19100, updated_at: '2025-08-09T15:05:12Z' });
    expect(rings).toEqual(perimeterRings);
  });

  it('points, then perimeters: the perimeter replaces the circle drawn from the reported size', async () => {
    const db = path.join(tempDir(), 'fire2.duckdb');
    await ingestAll(db, now, [['nifc-wildfires', POINTS]]);
    expect((await ringsOfTitle(db, now, /^Ridgeline Fire/)).rings[0].label).toBe(
      'Fire area as a circle of 18,450 acres (no mapped perimeter)',
    );
    await ingestAll(db, now, [['nifc-wildfires', PERIMETERS]]);
    expect((await ringsOfTitle(db, now, /^Ridgeline Fire/)).rings).toEqual(perimeterRings);
    // Re-ingesting either layer changes nothing any more.
    for (const file of [POINTS, PERIMETERS]) {
      const again = (
        await cli(['--db', db, '--json', 'ingest', 'nifc-wildfires', '--from', file], { CATINTEL_NOW: now })
      ).json().runs[0];
      expect(again.inserted + again.updated, file).toBe(0);
    }
    expect((await ringsOfTitle(db, now, /^Ridgeline Fire/)).rings).toEqual(perimeterRings);
  });
});

describe('a storm keeps its wind rings and adds the GIS cone as its own ring kind', () => {
  const now = '2018-10-08T22:00:00Z';
  const expected = ['wind_kt', 'wind_kt', 'wind_kt', 'forecast_cone'];

  it('wind rings first (CurrentStorms.json), then the GIS advisory zip', async () => {
    const db = path.join(tempDir(), 'storm1.duckdb');
    await ingestAll(db, now, [
      ['nhc', CURRENT_STORMS],
      ['nhc', SERGIO_GIS],
    ]);
    const { rings } = await ringsOfTitle(db, now, /Sergio/);
    expect(rings.map((r: { kind: string }) => r.kind)).toEqual(expected);
    // Both feeds speak of the same advisory (21 UTC): re-ingesting either changes nothing.
    for (const file of [CURRENT_STORMS, SERGIO_GIS]) {
      const again = (await cli(['--db', db, '--json', 'ingest', 'nhc', '--from', file], { CATINTEL_NOW: now })).json()
        .runs[0];
      expect(again.inserted + again.updated, file).toBe(0);
    }
  });

  it('the cone first, then a wind record: the cone stays', async () => {
    const db = path.join(tempDir(), 'storm2.duckdb');
    await ingestAll(db, now, [
      ['nhc', SERGIO_GIS],
      ['nhc', CURRENT_STORMS],
    ]);
    const { rings } = await ringsOfTitle(db, now, /Sergio/);
    expect(rings.map((r: { kind: string }) => r.kind)).toEqual(expected);
  });
});
