import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, sharedData } from '../../test/helpers/paths.js';
import type { ParseResult, SourceRecord } from '../domain/event.js';
import { buildRings } from '../domain/rings/index.js';
import { nifcWildfires, sizeClassOf } from './nifc-wildfires.js';
import { invalidInput } from '../../test/helpers/errors.js';

// Hand-written in the ArcGIS f=geojson wire format: no real WFIGS capture exists (SOURCES.md §1).
const fixture = (name: string) => readFileSync(path.join(FIXTURES, 'feeds/nifc', name), 'utf8');
const ctx = { now: new Date('2025-08-09T18:00:00Z'), sourceUrl: 'file:///wfigs.geojson' };
const parse = (text: string) => nifcWildfires.parse(text, ctx) as ParseResult;
const byName = (r: ParseResult, title: string) => r.records.find((x) => x.title === title) as SourceRecord;

describe('nifc-wildfires: WFIGS Incident Locations fixture (8 incidents)', () => {
  const r = parse(fixture('wfigs_incident_locations.geojson'));

  it('keeps 6 wildfires; skips the prescribed burn and the fire at 0,0', () => {
    expect(r.records.map((x) => x.title)).toEqual([
      'Ridgeline Fire (CA)',
      'Cougar Creek Fire (OR)',
      'Badger Wash Fire (AZ)',
      'Sheep Gulch Fire (MT)',
      'Salmon Breaks Complex (ID)',
      'Caddo Road Fire (TX)',
    ]);
    expect(r.skipped).toEqual([
      {
        sourceId: 'E4B2D9A1-6C07-4F3E-95A8-D31F0C7B2E96',
        reason: 'prescribed fire (IncidentTypeCategory RX), not a wildfire',
      },
      { sourceId: '0C9F2E7A-D4B1-4A63-8E05-B7A2C6D1F389', reason: 'no usable location (geometry [0,0], initial 0, 0)' },
    ]);
  });

  it('a large active fire maps field by field', () => {
    const f = byName(r, 'Ridgeline Fire (CA)');
    expect(f).toMatchObject({
      source: 'nifc-wildfires',
      sourceId: '3F2A9C61-7B1E-4D0A-9E55-2C8B7D41A0F3',
      eventType: 'wildfire',
      severity: 18450,
      severityLabel: 'Class G (5,000+ acres)',
      startedAt: '2025-08-02T21:14:00.000Z',
      sourceUpdatedAt: '2025-08-09T14:05:12.000Z',
      lat: 40.071421,
      lng: -122.056313,
      confidence: 0.9,
      signals: { endedAt: null, winding: false },
      ringInput: { kind: 'wildfire', acres: 18450 },
      observations: [
        {
          observedAt: '2025-08-09T14:05:12.000Z',
          kind: 'fire_size_acres',
          value: 18450,
          unit: 'acres',
          lat: 40.071421,
          lng: -122.056313,
        },
        {
          observedAt: '2025-08-09T14:05:12.000Z',
          kind: 'containment_pct',
          value: 45,
          unit: 'pct',
          lat: 40.071421,
          lng: -122.056313,
        },
      ],
    });
    expect(f.sourceUrl).toBe(
      'https://services3.arcgis.com/T4QMspbfLg3qTGWY/arcgis/rest/services/WFIGS_Incident_Locations_Current/FeatureServer/0/query' +
        "?where=IrwinID%3D'%7B3F2A9C61-7B1E-4D0A-9E55-2C8B7D41A0F3%7D'&outFields=*&f=geojson",
    );
    expect(f.details).toMatchObject({
      unique_fire_identifier: '2025-CATGU-009876',
      poo_state: 'CA',
      size_class: 'Class G (5,000+ acres)',
      layer: 'incident_locations',
    });
  });

  it('containment, control and fire-out drive the lifecycle signals', () => {
    expect(byName(r, 'Cougar Creek Fire (OR)').signals).toEqual({ endedAt: null, winding: true }); // 92 %
    expect(byName(r, 'Caddo Road Fire (TX)').signals).toEqual({ endedAt: null, winding: true }); // contained, not out
    expect(byName(r, 'Sheep Gulch Fire (MT)').signals).toEqual({ endedAt: '2025-08-09T09:00:00.000Z', winding: true });
    expect(byName(r, 'Salmon Breaks Complex (ID)').signals).toEqual({ endedAt: null, winding: false });
  });

  it('a new fire without a size: severity 0, size unknown, lower confidence, ember rings from the origin', () => {
    const f = byName(r, 'Badger Wash Fire (AZ)');
    expect(f).toMatchObject({ severity: 0, severityLabel: 'size unknown', confidence: 0.7, observations: [] });
    expect(buildRings(f.ringInput, f).map((x) => x.kind)).toEqual(['ember_zone', 'ember_zone', 'ember_zone']);
  });

  it('size classes follow NWCG', () => {
    expect(r.records.map((x) => x.severityLabel.slice(0, 7))).toEqual([
      'Class G',
      'Class E',
      'size un',
      'Class C',
      'Class G',
      'Class D',
    ]);
    expect(
      [0.25, 0.3, 9.9, 10, 99.9, 100, 299, 300, 999, 1000, 4999, 5000].map((a) => sizeClassOf(a)[6]).join(''),
    ).toBe('ABBCCDDEEFFG');
  });
});

describe('nifc-wildfires: WFIGS Interagency Perimeters layer', () => {
  it('reads attr_/poly_ fields, keeps the perimeter (rewound) and the same event id as the point layer', () => {
    const r = parse(fixture('wfigs_interagency_perimeters.geojson'));
    expect(r.skipped).toEqual([]);
    const f = r.records[0];
    expect(f).toMatchObject({
      sourceId: '3F2A9C61-7B1E-4D0A-9E55-2C8B7D41A0F3',
      title: 'Ridgeline Fire (CA)',
      severity: 18450,
      confidence: 1,
      lat: 40.07142,
      lng: -122.05631,
    });
    expect(f.details).toMatchObject({
      layer: 'perimeters',
      perimeter_acres: 17986.4,
      perimeter_at: '2025-08-09T09:00:00.000Z',
    });
    expect(f.sourceUrl).toContain('WFIGS_Interagency_Perimeters_Current');
    const rings = buildRings(f.ringInput, f);
    expect(rings.map((x) => x.kind)).toEqual(['fire_perimeter', 'ember_zone', 'ember_zone', 'ember_zone']);
    expect(rings[0].label).toBe('Mapped fire perimeter (18,450 acres)');
  });
});

describe('nifc-wildfires: wrong formats are invalid_input', () => {
  it('rejects NWS alerts, an ArcGIS error body and text', () => {
    expect(
      invalidInput(() =>
        parse(readFileSync(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'), 'utf8')),
      ).message,
    ).toMatch(/WFIGS incident fields/);
    expect(
      invalidInput(() => parse('{"error":{"code":400,"message":"Invalid query parameters","details":[]}}')).message,
    ).toMatch(/ArcGIS error 400: Invalid query parameters/);
    invalidInput(() => parse('<html>gateway timeout</html>'));
  });
});
