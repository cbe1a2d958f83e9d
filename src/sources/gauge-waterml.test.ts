import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import type { ParseResult } from '../domain/event.js';
import { readWaterMl } from './gauge-waterml.js';
import { usgsGauges } from './usgs-gauges.js';
import { invalidInput } from '../../test/helpers/errors.js';

const ctx = { now: new Date('2020-02-13T23:00:00Z'), sourceUrl: 'file:///dv.json' };
const DV = readFileSync(sharedData('feeds/usgs_water/waterservices_dv.json'), 'utf8');
const parse = (text: string) => usgsGauges.parse(text, ctx) as ParseResult;

/** The invalid_input message fn throws. */
const invalidInputMessage = (fn: () => unknown): string => invalidInput(fn).message;

/** The real DV document with Seneca Creek's daily mean discharge series turned into daily mean stage. */
function dvWithDailyStage(stageFt: string): string {
  const doc = JSON.parse(DV);
  for (const ts of doc.value.timeSeries) {
    if (ts.sourceInfo.siteCode[0].value === '01645000') {
      ts.variable.variableCode[0].value = '00065';
      ts.values[0].value[0].value = stageFt;
    }
  }
  return JSON.stringify(doc);
}

describe('usgs-gauges: the real daily-values sample (waterservices_dv.json)', () => {
  it('has no daily gage height at all: both sites skipped, saying they only have daily discharge', () => {
    expect(parse(DV)).toEqual({
      records: [],
      skipped: ['01491000', '01645000'].map((sourceId) => ({
        sourceId,
        reason:
          'no daily mean gage height (00065) in this daily-values (nwis/dv) file, only daily mean discharge (00060); flood categories need stage',
      })),
    });
  });

  it('reads the daily mean only (not max/min) and dates it at the start of the local standard-time day', () => {
    const sites = readWaterMl(DV, 'dv.json');
    expect(sites.map((s) => [s.site, s.daily, s.stage.length, s.discharge])).toEqual([
      ['01491000', true, 0, [{ at: '2020-02-12T05:00:00.000Z', value: 458, qualifiers: ['P'] }]],
      ['01645000', true, 0, [{ at: '2020-02-12T05:00:00.000Z', value: 242, qualifiers: ['P'] }]],
    ]);
  });

  it('a daily mean stage, when the file has one, is rated like a reading and says it is a daily mean', () => {
    const r = parse(dvWithDailyStage('8.1'));
    expect(r.records.map((x) => x.sourceId)).toEqual(['01645000']);
    expect(r.records[0]).toMatchObject({
      severity: 8.1,
      severityLabel: 'minor flood',
      sourceUpdatedAt: '2020-02-12T05:00:00.000Z',
      details: { nws_lid: 'DAWM2', flood_category: 'minor', reading: 'daily mean (nwis/dv)' },
    });
  });
});

describe('usgs-gauges: RDB text and the NWPS report are refused by name', () => {
  it('names the annual-peak and site-service tables', () => {
    expect(
      invalidInputMessage(() => parse(readFileSync(sharedData('feeds/usgs_water/waterservices_peaks.txt'), 'utf8'))),
    ).toBe(
      'file:///dv.json: a USGS annual peak-flow table (RDB text, nwis/peak): one historical peak per water year, not live gauge readings; ' +
        'usgs-gauges reads NWIS instantaneous values as WaterML-JSON (waterservices.usgs.gov/nwis/iv/?format=json)',
    );
    expect(
      invalidInputMessage(() => parse(readFileSync(sharedData('feeds/usgs_water/waterservices_site.txt'), 'utf8'))),
    ).toMatch(
      /: a USGS site-service table \(RDB text, nwis\/site\): site names and locations, no gauge readings; usgs-gauges reads/,
    );
    expect(invalidInputMessage(() => parse('#\n# x\nagency_cd\tsite_no\tdatetime\ttz_cd\t69513_00065\n'))).toMatch(
      /gauge values as RDB text \(format=rdb\); ask the service for format=json/,
    );
  });

  it('names the NWPS all-gauges report, the reference table data/flood-stages.csv is built from', () => {
    const head = readFileSync(sharedData('feeds/nwps/nwps_all_gauges_report.csv'), 'utf8').slice(0, 5000);
    expect(invalidInputMessage(() => parse(head))).toMatch(
      /: the NOAA NWPS all-gauges report \(CSV\): flood-category reference data that `make data` builds into data\/flood-stages\.csv, not gauge readings; usgs-gauges reads/,
    );
  });
});
