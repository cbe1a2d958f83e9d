import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import type { ParseResult, SourceRecord } from '../domain/event.js';
import { buildRings } from '../domain/rings/index.js';
import { usgsGauges } from './usgs-gauges.js';
import { invalidInput } from '../../test/helpers/errors.js';

const ctx = { now: new Date('2020-02-13T23:00:00Z'), sourceUrl: 'file:///iv.json' };
const IV = readFileSync(sharedData('feeds/usgs_water/waterservices_iv_01491000_01645000.json'), 'utf8');
const parse = (text: string) => usgsGauges.parse(text, ctx) as ParseResult;
const bySite = (r: ParseResult, site: string) => r.records.find((x) => x.sourceId === site) as SourceRecord;

/**
 * The real IV document with Seneca Creek's stage (01645000, NWS DAWM2: action 5, flood 7.5, moderate 11,
 * major 16 ft) set to `stageFt`, so every category rule runs on the real wire format.
 */
function ivWithStage(stageFt: string): string {
  const doc = JSON.parse(IV);
  for (const ts of doc.value.timeSeries) {
    if (ts.sourceInfo.siteCode[0].value === '01645000' && ts.variable.variableCode[0].value === '00065')
      ts.values[0].value[0].value = stageFt;
  }
  return JSON.stringify(doc);
}

describe('usgs-gauges: the real IV sample (2 sites x stage + discharge)', () => {
  const r = parse(IV);

  it('gives one record per site, nothing skipped', () => {
    expect(r.records.map((x) => x.sourceId)).toEqual(['01491000', '01645000']);
    expect(r.skipped).toEqual([]);
  });

  it('Choptank River maps field by field; the NWS defines no categories there, so it says so', () => {
    expect(bySite(r, '01491000')).toEqual({
      source: 'usgs-gauges',
      sourceId: '01491000',
      sourceUrl: 'https://waterdata.usgs.gov/monitoring-location/01491000/',
      title: 'CHOPTANK RIVER NEAR GREENSBORO, MD (USGS 01491000)',
      eventType: 'flood',
      severity: 4.36,
      severityLabel: 'flood stages unknown',
      startedAt: '2020-02-13T22:15:00.000Z',
      sourceUpdatedAt: '2020-02-13T22:15:00.000Z',
      lat: 38.99719444,
      lng: -75.7858056,
      confidence: 0.45,
      signals: { winding: true },
      ringInput: {
        kind: 'gauge',
        stageFt: 4.36,
        stages: { actionFt: null, floodFt: null, moderateFt: null, majorFt: null },
      },
      observations: [
        {
          observedAt: '2020-02-13T22:15:00.000Z',
          kind: 'gauge_stage_ft',
          value: 4.36,
          unit: 'ft',
          lat: 38.99719444,
          lng: -75.7858056,
        },
        {
          observedAt: '2020-02-13T22:15:00.000Z',
          kind: 'discharge_cfs',
          value: 439,
          unit: 'cfs',
          lat: 38.99719444,
          lng: -75.7858056,
        },
      ],
      details: {
        site_name: 'CHOPTANK RIVER NEAR GREENSBORO, MD',
        usgs_site: '01491000',
        nws_lid: null,
        flood_category: 'unknown',
        flood_stages_ft: null,
        latest_stage_ft: 4.36,
        latest_stage_at: '2020-02-13T22:15:00.000Z',
        latest_discharge_cfs: 439,
        qualifiers: ['P'],
        huc: '02060005',
        county_fips: '24011',
      },
    });
    expect(buildRings(bySite(r, '01491000').ringInput, bySite(r, '01491000'))).toEqual([]);
  });

  it('Seneca Creek has NWS categories (DAWM2): 2.68 ft is below action stage, so the flood is over', () => {
    const s = bySite(r, '01645000');
    expect(s).toMatchObject({
      severity: 2.68,
      severityLabel: 'below action stage',
      confidence: 0.9,
      startedAt: '2020-02-13T21:50:00.000Z',
      lat: 39.1280833,
      lng: -77.33577778,
      signals: { endedAt: '2020-02-13T21:50:00.000Z' },
      ringInput: { kind: 'gauge', stageFt: 2.68, stages: { actionFt: 5, floodFt: 7.5, moderateFt: 11, majorFt: 16 } },
      details: { nws_lid: 'DAWM2', flood_category: 'below_action', latest_discharge_cfs: 260 },
    });
    expect(buildRings(s.ringInput, s)).toEqual([]);
  });
});

describe('usgs-gauges: NWS flood categories from data/flood-stages.csv', () => {
  const at = (stage: string) => bySite(parse(ivWithStage(stage)), '01645000');

  it('rates the stage and sets the lifecycle signal', () => {
    expect(at('5.0')).toMatchObject({ severityLabel: 'action stage', signals: { winding: true } });
    expect(at('7.5')).toMatchObject({ severityLabel: 'minor flood', signals: {}, severity: 7.5 });
    expect(at('12.3')).toMatchObject({ severityLabel: 'moderate flood', signals: {} });
    const major = at('17');
    expect(major).toMatchObject({ severityLabel: 'major flood', details: { flood_category: 'major' } });
    expect(buildRings(major.ringInput, major).map((x) => [x.threshold, x.radiusKm])).toEqual([
      [5, 1],
      [7.5, 2],
      [11, 5],
      [16, 10],
    ]);
  });

  it('drops no-data values (-999999) and skips a site left without a stage reading', () => {
    const r = parse(ivWithStage('-999999'));
    expect(r.skipped).toEqual([{ sourceId: '01645000', reason: 'no gage height (00065) reading' }]);
    expect(r.records.map((x) => x.sourceId)).toEqual(['01491000']);
  });
});

describe('usgs-gauges: wrong formats are invalid_input', () => {
  it('rejects NWS alerts GeoJSON and text', () => {
    expect(
      invalidInput(() =>
        parse(readFileSync(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'), 'utf8')),
      ).message,
    ).toMatch(/WaterML/);
    invalidInput(() => parse('#\n# US Geological Survey\nagency_cd\tsite_no\n'));
  });
});

describe('usgs-gauges: as of the clock (src/sources/as-of.ts)', () => {
  it('keeps only the readings taken by then; a site whose every stage reading is later is skipped with that reason', () => {
    // Seneca Creek read at 21:50 UTC, Choptank River at 22:15 UTC.
    const r = usgsGauges.parse(IV, {
      now: new Date('2020-02-13T22:00:00Z'),
      sourceUrl: 'file:///iv.json',
    }) as ParseResult;
    expect(r.records.map((x) => [x.sourceId, x.sourceUpdatedAt])).toEqual([['01645000', '2020-02-13T21:50:00.000Z']]);
    expect(r.skipped).toEqual([
      {
        sourceId: '01491000',
        reason: 'published after the clock (2020-02-13T22:00:00.000Z); set CATINTEL_NOW or --as-of later to include it',
      },
    ]);
  });
});
