import { readFileSync } from 'node:fs';
import { booleanClockwise } from '@turf/boolean-clockwise';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import type { ParseResult, SourceRecord } from '../domain/event.js';
import { nwsAlerts } from './nws-alerts.js';
import { isPlausibleUsPoint } from './reference/us-extent.js';
import { invalidInput } from '../../test/helpers/errors.js';

const NOW = new Date('2026-07-15T20:00:44Z');
const ctx = { now: NOW, sourceUrl: 'file:///alerts.json' };
const SAMPLE = 'feeds/nws_alerts/alerts_active_national_templated-times.json';
const body = readFileSync(sharedData(SAMPLE), 'utf8');
const parse = (text: string) => nwsAlerts.parse(text, ctx) as ParseResult;
const tally = (xs: string[]) => xs.reduce<Record<string, number>>((acc, x) => ((acc[x] = (acc[x] ?? 0) + 1), acc), {});
const details = (r: SourceRecord) => r.details as Record<string, unknown>;
const geometryOf = (r: SourceRecord) => (r.ringInput as { geometry: Polygon | MultiPolygon }).geometry;

function expectValidRings(g: Polygon | MultiPolygon) {
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  for (const rings of polys) {
    rings.forEach((ring, i) => {
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(booleanClockwise(ring)).toBe(i > 0); // exterior counter-clockwise, holes clockwise
      for (const [lng, lat] of ring) expect(Math.abs(lat) <= 90 && Math.abs(lng) <= 180).toBe(true);
    });
  }
}

/** One synthetic alert in the real wire shape, for the rules the sample does not exercise. */
function alert(over: Record<string, unknown>, geometry: unknown = null): string {
  const base = JSON.parse(body).features[0];
  const feature = {
    ...base,
    id: `https://api.weather.gov/alerts/${String(over.id ?? 'urn:test')}`,
    geometry,
    properties: { ...base.properties, references: [], ...over },
  };
  return JSON.stringify({ type: 'FeatureCollection', features: [feature] });
}

describe('nws-alerts: the recorded national bundle (396 features)', () => {
  const r = parse(body);

  it('keeps 149 peril alerts and skips 247, each with a reason', () => {
    expect(r.records).toHaveLength(149);
    expect(r.skipped).toHaveLength(247);
    expect(r.records.length + r.skipped.length).toBe(396);
    expect(tally(r.skipped.map((s) => s.reason))).toEqual({
      'not a catastrophe peril (Air Quality Alert)': 128,
      'not a catastrophe peril (Small Craft Advisory)': 71,
      'not a catastrophe peril (Red Flag Warning)': 11,
      'not a catastrophe peril (Dense Smoke Advisory)': 11,
      'not a catastrophe peril (Special Weather Statement)': 10,
      'not a catastrophe peril (Rip Current Statement)': 3,
      'duplicate of an earlier feature in the same body': 3,
      'not a catastrophe peril (Special Marine Warning)': 2,
      'not a catastrophe peril (Fire Weather Watch)': 2,
      'not a catastrophe peril (Beach Hazards Statement)': 2,
      'not a catastrophe peril (Wind Advisory)': 1,
      'not a catastrophe peril (Civil Emergency Message)': 1,
      'not a catastrophe peril (Gale Warning)': 1,
      'not a catastrophe peril (Hydrologic Outlook)': 1,
    });
    expect(r.skipped.every((s) => typeof s.sourceId === 'string' && s.sourceId !== '')).toBe(true);
    expect(new Set(r.records.map((x) => x.sourceId)).size).toBe(149);
  });

  it('maps NWS event names to event types and locates by polygon or by counties', () => {
    expect(tally(r.records.map((x) => `${x.eventType}/${String(details(x).located_by)}`))).toEqual({
      'flood/polygon': 60,
      'flood/counties': 19,
      'extreme_heat/counties': 68,
      'severe_storm/polygon': 2,
    });
    expect(tally(r.records.map((x) => x.severityLabel))).toEqual({ Severe: 76, Moderate: 53, Minor: 20 });
    expect(tally(r.records.map((x) => String(x.confidence)))).toEqual({ '1': 14, '0.8': 120, '0.5': 15 }); // Observed, Likely, Possible
    for (const x of r.records)
      expect(x.severity).toBe({ Extreme: 4, Severe: 3, Moderate: 2, Minor: 1, Unknown: 0 }[x.severityLabel]);
  });

  it('the first Flash Flood Warning maps field by field, placeholder times resolved against now', () => {
    const ff = r.records.find(
      (x) => x.sourceId === 'urn:oid:2.49.0.1.840.0.46764a246ef72c63d5540a40a309f0d7737ea29d.001.1',
    )!;
    expect(ff).toMatchObject({
      source: 'nws-alerts',
      sourceUrl: 'https://api.weather.gov/alerts/urn:oid:2.49.0.1.840.0.46764a246ef72c63d5540a40a309f0d7737ea29d.001.1',
      title: 'Flash Flood Warning issued July 15 at 2:00PM MDT until July 15 at 3:15PM MDT by NWS Pueblo CO',
      eventType: 'flood',
      severity: 3,
      severityLabel: 'Severe',
      confidence: 0.8,
      startedAt: '2026-07-15T20:00:00.000Z', // "date:now -44 seconds"
      sourceUpdatedAt: '2026-07-15T20:00:00.000Z',
      signals: { expiresAt: '2026-07-15T21:14:59.000Z' }, // "date:now +4455 seconds"
      observations: [],
    });
    expect(ff.ringInput).toMatchObject({
      kind: 'polygon',
      label: 'Flash Flood Warning area',
      geometry: { type: 'Polygon' },
    });
    expect(ff.lat).toBeCloseTo(38.68, 1);
    expect(ff.lng).toBeCloseTo(-106.3, 1);
    expect(details(ff)).toMatchObject({
      message_type: 'Update',
      ugc: ['COC015'],
      supersedes: ['urn:oid:2.49.0.1.840.0.3864c99e5b14ea65ea85a5300a0706927ff3fe0b.001.1'],
    });
  });

  it('every record is in the US, with a valid RFC 7946 polygon that contains its point', () => {
    for (const x of r.records) {
      expect(isPlausibleUsPoint(x.lat, x.lng)).toBe(true);
      const g = geometryOf(x);
      expectValidRings(g);
      if (details(x).located_by === 'counties') expect(booleanPointInPolygon([x.lng, x.lat], g)).toBe(true);
    }
  });

  it('zone-only alerts are located by the counties of their SAME codes', () => {
    const zoneOnly = r.records.filter((x) => details(x).located_by === 'counties');
    expect(zoneOnly).toHaveLength(87);
    const sd = zoneOnly.find((x) => (details(x).same as string[]).includes('046089'))!; // Heat Advisory, NWS Aberdeen SD
    expect(sd.eventType).toBe('extreme_heat');
    expect(sd.ringInput).toMatchObject({
      kind: 'polygon',
      label: 'Heat Advisory (counties named by the alert)',
      geometry: { type: 'MultiPolygon' },
    });
    expect(details(sd).counties).toHaveLength(11);
    expect(sd.lat).toBeGreaterThan(43);
    expect(sd.lat).toBeLessThan(46.5);
    expect(sd.lng).toBeGreaterThan(-101);
    expect(sd.lng).toBeLessThan(-96);
  });
});

describe('nws-alerts: rules the sample does not exercise', () => {
  it('accepts real ISO times and stores them in UTC', () => {
    const r = parse(
      alert(
        {
          sent: '2026-07-15T14:00:00-06:00',
          effective: '2026-07-15T14:00:00-06:00',
          onset: null,
          ends: null,
          expires: '2026-07-15T15:15:00-06:00',
        },
        JSON.parse(body).features[0].geometry,
      ),
    );
    expect(r.records[0]).toMatchObject({
      startedAt: '2026-07-15T20:00:00.000Z',
      signals: { expiresAt: '2026-07-15T21:15:00.000Z' },
    });
  });

  it('a Cancel message is kept as ended; a Test message is skipped', () => {
    const geometry = JSON.parse(body).features[0].geometry;
    expect(parse(alert({ messageType: 'Cancel' }, geometry)).records[0].signals).toEqual({
      expiresAt: '2026-07-15T21:14:59.000Z',
      endedAt: '2026-07-15T20:00:00.000Z',
    });
    expect(parse(alert({ status: 'Test' }, geometry)).skipped).toEqual([
      { sourceId: expect.any(String), reason: 'not an actual alert (status Test)' },
    ]);
  });

  it('closes and rewinds a clockwise, unclosed polygon', () => {
    const cw = {
      type: 'Polygon',
      coordinates: [
        [
          [-97.5, 35.5],
          [-97.0, 35.5],
          [-97.0, 35.0],
          [-97.5, 35.0],
        ],
      ],
    };
    const r = parse(alert({ event: 'Tornado Warning' }, cw));
    expect(r.records[0].eventType).toBe('tornado');
    expectValidRings(geometryOf(r.records[0]));
    expect(r.records[0].lat).toBeCloseTo(35.25, 2);
  });

  it('skips marine-only and unknown-county alerts, and reads renamed Alaska census areas', () => {
    const surge = parse(
      alert({ event: 'Storm Surge Warning', geocode: { SAME: ['077237', '077255'], UGC: ['GMZ237'] } }),
    );
    expect(surge.skipped[0].reason).toBe('marine zones only (SAME 077237, 077255): no land county shape');
    const ct = parse(alert({ event: 'Flood Watch', geocode: { SAME: ['009110'], UGC: ['CTZ001'] } }));
    expect(ct.skipped[0].reason).toBe('no county shape for SAME 009110');
    const ak = parse(
      alert({ event: 'Winter Storm Warning', geocode: { SAME: ['002063', '057650'], UGC: ['AKZ141'] } }),
    );
    expect(ak.records[0]).toMatchObject({
      eventType: 'winter_storm',
      details: { counties: ['02261'], unresolved_same: ['057650'] },
    });
  });

  it('Red Flag Warning and Fire Weather Watch are not wildfires; Fire Warning is', () => {
    const geometry = JSON.parse(body).features[0].geometry;
    expect(parse(alert({ event: 'Fire Warning' }, geometry)).records[0].eventType).toBe('wildfire');
    expect(parse(alert({ event: 'Red Flag Warning' }, geometry)).skipped[0].reason).toBe(
      'not a catastrophe peril (Red Flag Warning)',
    );
  });
});

describe('nws-alerts: wrong formats are invalid_input', () => {
  it('rejects a USGS earthquake GeoJSON, a WaterML document and plain text', () => {
    expect(
      invalidInput(() => parse(readFileSync(sharedData('feeds/usgs_earthquakes/all_day.geojson'), 'utf8'))).message,
    ).toMatch(/CAP alert properties/);
    invalidInput(() =>
      parse(readFileSync(sharedData('feeds/usgs_water/waterservices_iv_01491000_01645000.json'), 'utf8')),
    );
    expect(invalidInput(() => parse('Service Unavailable')).message).toMatch(/not JSON/);
  });

  it('an empty collection is valid and yields nothing', () => {
    expect(parse('{"type":"FeatureCollection","features":[]}')).toEqual({ records: [], skipped: [] });
  });
});
