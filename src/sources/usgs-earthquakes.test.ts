import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedData, FIXTURES } from '../../test/helpers/paths.js';
import type { ParseResult, SourceRecord } from '../domain/event.js';
import { usgsEarthquakes } from './usgs-earthquakes.js';
import { magnitudeClass, regionOf } from './usgs-record.js';
import { invalidInput } from '../../test/helpers/errors.js';

const ctx = { now: new Date('2026-01-01T00:00:00Z'), sourceUrl: 'file:///feed' };
const read = (...p: string[]) => readFileSync(sharedData(...p), 'utf8');
const parse = (body: string) => usgsEarthquakes.parse(body, ctx) as ParseResult;
const byId = (r: ParseResult, id: string) => r.records.find((x) => x.sourceId === id) as SourceRecord;
const tally = (xs: string[]) => xs.reduce<Record<string, number>>((acc, x) => ((acc[x] = (acc[x] ?? 0) + 1), acc), {});

describe('usgs-earthquakes: real GeoJSON feeds', () => {
  it('all_week.geojson: 3,209 earthquakes, 27 non-earthquakes skipped with their type', () => {
    const body = read('feeds/usgs_earthquakes/all_week.geojson');
    const r = parse(body);
    expect(r.records).toHaveLength(3209);
    expect(r.skipped).toHaveLength(27);
    expect(r.records.length + r.skipped.length).toBe(JSON.parse(body).features.length);
    expect(tally(r.skipped.map((s) => s.reason))).toEqual({
      'not an earthquake (quarry blast)': 14,
      'not an earthquake (explosion)': 13,
    });
    expect(r.skipped.every((s) => typeof s.sourceId === 'string' && s.sourceId !== '')).toBe(true);
    expect(new Set(r.records.map((x) => x.sourceId)).size).toBe(3209);
  });

  it('all_week.geojson: labels, regions and confidence follow the documented rules', () => {
    const r = parse(read('feeds/usgs_earthquakes/all_week.geojson'));
    expect(tally(r.records.map((x) => x.severityLabel))).toEqual({ Minor: 3081, Light: 106, Moderate: 20, Strong: 2 });
    // Md 3.97 is reported as "M 4.0", so it is Light, not Minor.
    expect(byId(r, 'nc73421981')).toMatchObject({
      title: 'M 4.0 - 2km NW of The Geysers, CA',
      severity: 3.97,
      severityLabel: 'Light',
    });
    expect(r.records.filter((x) => x.ringInput.kind === 'earthquake' && x.ringInput.region === 'east')).toHaveLength(
      137,
    );
    expect(tally(r.records.map((x) => String(x.confidence)))).toEqual({
      '1': 1402,
      '0.7': 1404,
      '0.8': 272,
      '0.56': 82,
      '0.72': 30,
      '0.9': 19,
    });
    // Kansas, automatic, azimuthal gap 316°: east, 0.7 × 0.8.
    const kansas = byId(r, 'ok2020nbiq');
    expect(kansas.title).toBe('M 3.1 - 5 km W of Kipp, Kansas');
    expect(kansas.ringInput).toEqual({ kind: 'earthquake', magnitude: kansas.severity, depthKm: 5, region: 'east' });
    expect(kansas.confidence).toBe(0.56);
  });

  it('all_day.geojson: 239 earthquakes + 5 quarry blasts; the M6.8 maps field by field', () => {
    const r = parse(read('feeds/usgs_earthquakes/all_day.geojson'));
    expect(r.records).toHaveLength(239);
    expect(r.skipped).toEqual(Array(5).fill(expect.objectContaining({ reason: 'not an earthquake (quarry blast)' })));
    const q = byId(r, 'us6000ip57');
    expect(q).toMatchObject({
      source: 'usgs-earthquakes',
      sourceUrl: 'https://earthquake.usgs.gov/earthquakes/eventpage/us6000ip57',
      title: 'M 6.8 - east of the South Sandwich Islands',
      eventType: 'earthquake',
      severity: 6.8,
      severityLabel: 'Strong',
      startedAt: '2022-09-29T03:03:24.147Z',
      sourceUpdatedAt: '2022-09-29T03:26:11.342Z',
      lat: -60.8035,
      lng: -20.0169,
      confidence: 1,
      signals: {},
      ringInput: { kind: 'earthquake', magnitude: 6.8, depthKm: 10, region: 'west' },
      observations: [
        {
          observedAt: '2022-09-29T03:26:11.342Z',
          kind: 'magnitude',
          value: 6.8,
          unit: 'mag',
          lat: -60.8035,
          lng: -20.0169,
        },
      ],
    });
    expect(q.details).toMatchObject({
      depth_km: 10,
      place: 'east of the South Sandwich Islands',
      mag_type: 'mww',
      usgs_status: 'reviewed',
      tsunami: true,
      alert: 'green',
      net: 'us',
      nst: 42,
      gap_deg: 85,
      ids: ['pt22272001', 'at00riyb5m', 'us6000ip57'],
    });
  });

  it('skips a feature with no magnitude or impossible coordinates, naming why', () => {
    const doc = JSON.parse(read('feeds/usgs_earthquakes/all_day.geojson'));
    doc.features[0].properties.mag = null;
    doc.features[1].geometry.coordinates = [-200, 19.25, 3];
    const r = parse(JSON.stringify(doc));
    expect(r.records).toHaveLength(237);
    expect(r.skipped).toContainEqual({ sourceId: 'nc73787051', reason: 'no magnitude' });
    expect(r.skipped).toContainEqual({ sourceId: 'hv73158067', reason: 'bad coordinates (lat 19.25, lng -200)' });
  });
});

describe('usgs-earthquakes: real CSV feed', () => {
  it('4.5_month.csv: all 527 rows are earthquakes', () => {
    const r = parse(read('feeds/usgs_earthquakes/4.5_month.csv'));
    expect(r.records).toHaveLength(527);
    expect(r.skipped).toHaveLength(0);
    expect(tally(r.records.map((x) => x.severityLabel))).toEqual({ Light: 370, Moderate: 142, Strong: 13, Major: 2 });
    const first = byId(r, 'us1000i3dq');
    expect(first).toMatchObject({
      title: 'M 4.9 - Nicaragua',
      sourceUrl: 'https://earthquake.usgs.gov/earthquakes/eventpage/us1000i3dq',
      severity: 4.9,
      severityLabel: 'Light',
      startedAt: '2018-12-06T09:43:55.570Z',
      sourceUpdatedAt: '2018-12-06T09:59:15.040Z',
      lat: 12.6113,
      lng: -86.9846,
      confidence: 1,
      ringInput: { kind: 'earthquake', magnitude: 4.9, depthKm: 156.67, region: 'west' },
    });
    expect(first.details).toMatchObject({
      mag_type: 'mww',
      usgs_status: 'reviewed',
      horizontal_error_km: 7.9,
      gap_deg: 124,
    });
  });

  it('every record carries one magnitude observation at its USGS update time', () => {
    const r = parse(read('feeds/usgs_earthquakes/4.5_month.csv'));
    expect(
      r.records.every((x) => x.observations.length === 1 && x.observations[0].observedAt === x.sourceUpdatedAt),
    ).toBe(true);
  });
});

describe('usgs-earthquakes: rules', () => {
  it('magnitude classes use the magnitude as reported (one decimal)', () => {
    expect([3.9, 4.0, 4.94, 4.96, 5.9, 6.0, 7.0, 8.0, 9.1, -0.5].map(magnitudeClass)).toEqual([
      'Minor',
      'Light',
      'Light',
      'Moderate',
      'Moderate',
      'Strong',
      'Major',
      'Great',
      'Great',
      'Minor',
    ]);
  });
  it('east = stable central/eastern North America; the Rockies, Alaska, Hawaii and Puerto Rico are west', () => {
    expect(regionOf(36.5, -89.6)).toBe('east'); // New Madrid
    expect(regionOf(37.7, -77.9)).toBe('east'); // Mineral, Virginia 2011
    expect(regionOf(39.7, -105.5)).toBe('west'); // Colorado Front Range, west of 105° W
    expect(regionOf(61.3, -149.9)).toBe('west'); // Anchorage
    expect(regionOf(19.4, -155.3)).toBe('west'); // Kilauea
    expect(regionOf(18.0, -66.8)).toBe('west'); // Puerto Rico
  });
});

describe('usgs-earthquakes: not this format', () => {
  it('rejects the NWS alerts FeatureCollection', () => {
    const e = invalidInput(() => parse(read('feeds/nws_alerts/alerts_active_national_templated-times.json')));
    expect(e.message).toMatch(/expected a USGS earthquake summary feed/);
  });
  it('rejects random text, broken JSON, and an NHC CurrentStorms file', () => {
    invalidInput(() => parse('hello, world\nthis is not a feed'));
    invalidInput(() => parse('{"type": "FeatureCollection", "features": ['));
    invalidInput(() => parse(readFileSync(`${FIXTURES}/feeds/nhc/CurrentStorms.json`, 'utf8')));
    invalidInput(() => parse(''));
  });
});
