import { readFileSync } from 'node:fs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import { buildRings } from '../domain/rings/index.js';
import { CatintelError } from '../errors.js';
import { nhc } from './nhc.js';

const ctx = { now: new Date('2026-01-01T00:00:00Z'), sourceUrl: 'file:///data/ep212018_5day_latest.zip' };
const sergioZip = new Uint8Array(readFileSync(sharedData('feeds/nhc/gis/ep212018_5day_latest.zip')));
const wspZip = new Uint8Array(readFileSync(sharedData('feeds/nhc/gis/wsp_120hr5km_latest_2018100818.zip')));
const parseZip = (bytes: Uint8Array, c = ctx) => nhc.parseZip!(bytes, c);

async function invalidInput(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(CatintelError);
    expect((err as CatintelError).code).toBe('invalid_input');
    return (err as CatintelError).message;
  }
  throw new Error('expected invalid_input');
}

describe('nhc: GIS 5-day advisory zip (Hurricane Sergio EP21 2018, advisory 38, real)', () => {
  it('gives one storm record keyed like the other NHC formats, from the TAU 0 point', async () => {
    const r = await parseZip(sergioZip);
    expect(r.skipped).toEqual([]);
    expect(r.records).toHaveLength(1);
    const s = r.records[0];
    expect(s).toMatchObject({
      source: 'nhc',
      sourceId: 'ep212018',
      sourceUrl: 'https://www.nhc.noaa.gov/gis/forecast/archive/ep212018_5day_038.zip',
      title: 'Hurricane Sergio (EP21 2018)',
      severity: 75,
      severityLabel: 'Category 1',
      // TAU 0 is valid at 18 UTC ("08/1800"); the advisory was issued at 2 PM PDT = 21 UTC.
      startedAt: '2018-10-08T18:00:00.000Z',
      sourceUpdatedAt: '2018-10-08T21:00:00.000Z',
      lat: 15.7,
      lng: -128.5,
      confidence: 0.9,
      signals: { winding: false },
    });
    // Observations are observed values: the initial analysis only, never the forecast points.
    expect(s.observations).toEqual([
      { observedAt: '2018-10-08T18:00:00.000Z', kind: 'wind_speed_kt', value: 75, unit: 'kt', lat: 15.7, lng: -128.5 },
      {
        observedAt: '2018-10-08T18:00:00.000Z',
        kind: 'central_pressure_mb',
        value: 978,
        unit: 'mb',
        lat: 15.7,
        lng: -128.5,
      },
    ]);
    expect(s.details).toMatchObject({
      feed: 'nhc_gis_5day',
      classification: 'HU',
      advisory_number: '38',
      advisory_time_local: '200 PM PDT Mon Oct 08 2018',
      gust_kt: 90,
      movement_dir_deg: 360,
      movement_speed_kt: 3,
      forecast_hours: 120,
    });
  });

  it('keeps the seven forecast points (12-120 h) in details.forecast, 9999 read as not forecast', async () => {
    const forecast = (await parseZip(sergioZip)).records[0].details.forecast as Array<Record<string, unknown>>;
    expect(forecast.map((f) => [f.tau_h, f.valid_at, f.max_wind_kt, f.classification])).toEqual([
      [12, '2018-10-09T06:00:00.000Z', 70, 'HU'],
      [24, '2018-10-09T18:00:00.000Z', 70, 'HU'],
      [36, '2018-10-10T06:00:00.000Z', 65, 'HU'],
      [48, '2018-10-10T18:00:00.000Z', 60, 'TS'],
      [72, '2018-10-11T18:00:00.000Z', 55, 'TS'],
      [96, '2018-10-12T18:00:00.000Z', 40, 'TS'],
      [120, '2018-10-13T18:00:00.000Z', 25, 'STD'],
    ]);
    expect(forecast[6]).toMatchObject({
      lat: 33.5,
      lng: -102.5,
      pressure_mb: null,
      development: 'Subtropical Depression',
    });
  });

  it('serves the cone as one forecast_cone ring around the whole track', async () => {
    const s = (await parseZip(sergioZip)).records[0];
    const rings = buildRings(s.ringInput, s);
    expect(rings).toHaveLength(1);
    expect(rings[0]).toMatchObject({
      kind: 'forecast_cone',
      label: '5-day forecast cone',
      threshold: null,
      unit: null,
      radiusKm: null,
    });
    expect(rings[0].geometry.type).toBe('Polygon');
    const ring = (rings[0].geometry.coordinates as number[][][])[0];
    const lngs = ring.map((p) => p[0]);
    const lats = ring.map((p) => p[1]);
    // It encloses TAU 0 (15.7 N 128.5 W) and TAU 120 (33.5 N 102.5 W).
    expect(Math.min(...lngs)).toBeLessThan(-128.5);
    expect(Math.max(...lngs)).toBeGreaterThan(-102.5);
    expect(Math.min(...lats)).toBeLessThan(15.7);
    expect(Math.max(...lats)).toBeGreaterThan(33.5);
  });

  it('without the cone layer the storm still comes through, with parametric wind rings', async () => {
    const files = unzipSync(sergioZip);
    for (const n of Object.keys(files)) if (n.includes('_pgn')) delete files[n];
    const s = (await parseZip(zipSync(files))).records[0];
    expect(s.ringInput).toEqual({ kind: 'hurricane', windRadiiNm: {}, maxWindKt: 75, pressureMb: 978 });
  });
});

describe('nhc: zips that are not a storm advisory are invalid_input', () => {
  it('refuses the wind speed probability zip by name', async () => {
    const msg = await invalidInput(
      parseZip(wspZip, { ...ctx, sourceUrl: 'file:///d/wsp_120hr5km_latest_2018100818.zip' }),
    );
    expect(msg).toMatch(
      /^wsp_120hr5km_latest_2018100818\.zip holds NHC wind speed probability shapefiles \(2018100818_wsp34knt120hr_5km and 2 more\): probability bands for all active storms, not a storm advisory; expected NHC/,
    );
  });

  it('refuses a zip of something else, and bytes that do not unzip', async () => {
    expect(await invalidInput(parseZip(zipSync({ 'readme.txt': strToU8('hello') })))).toMatch(
      /a zip without NHC 5-day forecast shapefiles .*it holds readme\.txt/,
    );
    expect(await invalidInput(parseZip(sergioZip.slice(0, 100)))).toMatch(/a zip archive that does not unzip/);
  });
});
