import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURES, sharedData } from '../../test/helpers/paths.js';
import type { ParseResult } from '../domain/event.js';
import { nhc } from './nhc.js';
import { nhcLocalTime } from './nhc-time.js';
import { invalidInput } from '../../test/helpers/errors.js';

const ctx = { now: new Date('2026-01-01T00:00:00Z'), sourceUrl: 'file:///index-at.xml' };
const parse = (body: string) => nhc.parse(body, ctx) as ParseResult;
const indexAt = readFileSync(sharedData('feeds/nhc/index-at_2024-09-02.xml'), 'utf8');
const gtwo = readFileSync(sharedData('feeds/nhc/gtwo_2024-09-02.xml'), 'utf8');
/** Hand-written in the index-ep.xml format (see its header comment and docs/sources/nhc.md). */
const sergio = readFileSync(`${FIXTURES}/feeds/nhc/index-ep_2018-10-08_sergio.xml`, 'utf8');

/** The invalid_input message fn throws. */
const invalidInputMessage = (fn: () => unknown): string => invalidInput(fn).message;

describe('nhc: RSS, the real quiet-day samples (2024-09-02)', () => {
  it('index-at.xml: the outlook and the no-storm notice are skipped, each named', () => {
    expect(parse(indexAt)).toEqual({
      records: [],
      skipped: [
        { sourceId: null, reason: 'tropical weather outlook, not a storm ("Atlantic Tropical Weather Outlook")' },
        { sourceId: null, reason: 'no-storm notice, not a storm ("There are no tropical cyclones at this time.")' },
      ],
    });
  });

  it('gtwo.xml: three basin outlooks, no storm', () => {
    expect(parse(gtwo)).toEqual({
      records: [],
      skipped: ['NHC Atlantic Outlook', 'NHC Eastern North Pacific Outlook', 'CPHC Central North Pacific Outlook'].map(
        (t) => ({
          sourceId: null,
          reason: `tropical weather outlook, not a storm ("${t}")`,
        }),
      ),
    });
  });
});

describe('nhc: RSS storm summary (hand-written index-ep.xml fixture, Hurricane Sergio advisory 38)', () => {
  const r = parse(sergio);

  it('the nhc:Cyclone item becomes the storm; outlook, advisory text and graphics items are skipped by name', () => {
    expect(r.records).toHaveLength(1);
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'tropical weather outlook, not a storm ("Eastern North Pacific Tropical Weather Outlook")',
      'item without nhc:Cyclone (advisory text or graphics), not a storm summary ("Hurricane Sergio Public Advisory Number 38")',
      'item without nhc:Cyclone (advisory text or graphics), not a storm summary ("Hurricane Sergio Graphics")',
    ]);
  });

  it('maps the storm like CurrentStorms.json: same id, kt from mph, advisory time from the local time', () => {
    expect(r.records[0]).toMatchObject({
      source: 'nhc',
      sourceId: 'ep212018',
      sourceUrl: 'https://www.nhc.noaa.gov/text/refresh/MIATCPEP1+shtml/082052.shtml',
      title: 'Hurricane Sergio (EP21 2018)',
      eventType: 'hurricane',
      severity: 75,
      severityLabel: 'Category 1',
      startedAt: '2018-10-08T21:00:00.000Z',
      sourceUpdatedAt: '2018-10-08T21:00:00.000Z',
      lat: 15.7,
      lng: -128.5,
      confidence: 0.9,
      signals: { winding: false },
      ringInput: { kind: 'hurricane', windRadiiNm: {}, maxWindKt: 75, pressureMb: 978 },
      observations: [
        {
          observedAt: '2018-10-08T21:00:00.000Z',
          kind: 'wind_speed_kt',
          value: 75,
          unit: 'kt',
          lat: 15.7,
          lng: -128.5,
        },
        {
          observedAt: '2018-10-08T21:00:00.000Z',
          kind: 'central_pressure_mb',
          value: 978,
          unit: 'mb',
          lat: 15.7,
          lng: -128.5,
        },
      ],
      details: {
        feed: 'nhc_rss',
        bin_number: 'EP1',
        classification: 'HU',
        wind_as_published: '85 mph',
        movement: 'N at 3 mph',
        movement_dir_deg: 0,
        movement_speed_mph: 3,
        final_advisory: false,
        advisory_time_local: '2:00 PM PDT Mon Oct 8',
      },
    });
    // The same storm from the CurrentStorms.json fixture: one event between them.
    const current = nhc.parse(readFileSync(`${FIXTURES}/feeds/nhc/CurrentStorms.json`, 'utf8'), ctx) as ParseResult;
    const fromJson = current.records.find((x) => x.sourceId === 'ep212018');
    expect(fromJson).toMatchObject({
      title: r.records[0].title,
      severity: 75,
      lat: 15.7,
      lng: -128.5,
      sourceUpdatedAt: '2018-10-08T21:00:00.000Z',
    });
  });

  it('recovers the advisory kt from every NHC mph value (5-kt steps, mph rounded to 5)', () => {
    for (let kt = 20; kt <= 185; kt += 5) {
      const mph = Math.round((kt * 1.15078) / 5) * 5;
      expect(parse(sergio.replace('<nhc:wind>85 mph', `<nhc:wind>${mph} mph`)).records[0].severity).toBe(kt);
    }
  });

  it('a last advisory ends the storm; a post-tropical cyclone is winding', () => {
    const last = parse(
      sergio.replace(
        '<nhc:headline> ...SERGIO',
        '<nhc:headline> ...SERGIO BECOMES A REMNANT LOW... ...THIS IS THE LAST ADVISORY... ...SERGIO',
      ),
    ).records[0];
    expect(last.signals).toEqual({ winding: true, endedAt: '2018-10-08T21:00:00.000Z' });
    const ptc = parse(sergio.replace('<nhc:type>Hurricane</nhc:type>', '<nhc:type>Post-Tropical Cyclone</nhc:type>'))
      .records[0];
    expect(ptc).toMatchObject({ title: 'Post-Tropical Cyclone Sergio (EP21 2018)', signals: { winding: true } });
  });

  it('skips a summary with an unreadable wind or id, naming the field', () => {
    expect(parse(sergio.replace('<nhc:wind>85 mph', '<nhc:wind>strong')).skipped).toContainEqual({
      sourceId: 'ep212018',
      reason: 'no readable nhc:wind ("strong")',
    });
    expect(parse(sergio.replace('EP212018</nhc:atcf>', 'EP21</nhc:atcf>')).skipped).toContainEqual({
      sourceId: 'ep21',
      reason: 'bad storm id "ep21" in nhc:atcf',
    });
  });
});

describe('nhc: NHC local times', () => {
  it('reads both advisory forms, and takes the year nearest the feed time', () => {
    expect(nhcLocalTime('200 PM PDT Mon Oct 08 2018')).toBe('2018-10-08T21:00:00.000Z');
    expect(nhcLocalTime('11:00 PM AST Tue Dec 31', new Date('2025-01-01T03:05:00Z'))).toBe('2025-01-01T03:00:00.000Z');
    expect(nhcLocalTime('12:00 AM HST Sat Aug 10', new Date('2019-08-10T10:00:00Z'))).toBe('2019-08-10T10:00:00.000Z');
    expect(nhcLocalTime('2:00 PM XYZ Mon Oct 8', new Date())).toBeNull();
  });
});

describe('nhc: XML that is not NHC RSS is invalid_input', () => {
  it('rejects other RSS, other XML and broken XML', () => {
    expect(
      invalidInputMessage(() =>
        parse(
          '<rss version="2.0"><channel><link>https://alerts.weather.gov/</link><item><title>x</title></item></channel></rss>',
        ),
      ),
    ).toMatch(/RSS feed from https:\/\/alerts\.weather\.gov\/, not from NHC/);
    expect(
      invalidInputMessage(() =>
        parse(readFileSync(sharedData('hazard_history/earthquakes/shakemap/napa2014_nc72282711_event.xml'), 'utf8')),
      ),
    ).toMatch(/root <earthquake>, not an RSS feed/);
    expect(invalidInputMessage(() => parse(indexAt.slice(0, 2000)))).toMatch(/XML that does not parse/);
  });
});
