import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURES, sharedData } from '../../test/helpers/paths.js';
import type { ParseResult, SourceRecord } from '../domain/event.js';
import { hurricaneRings } from '../domain/rings/hurricane.js';
import { loadBaselineGrid } from '../reference-data/load-baseline.js';
import { CatintelError } from '../errors.js';
import { nhc } from './nhc.js';

const ctx = { now: new Date('2026-01-01T00:00:00Z'), sourceUrl: 'file:///bal092022.dat' };
const parse = (body: string) => nhc.parse(body, ctx) as ParseResult;
const ian = readFileSync(sharedData('hazard_history/hurricanes/bal092022.dat'), 'utf8');
const currentStorms = readFileSync(`${FIXTURES}/feeds/nhc/CurrentStorms.json`, 'utf8');
/** The b-deck as NHC served it at an earlier moment: the first n lines. */
const ianUpToLine = (n: number) => ian.split('\n').slice(0, n).join('\n');
const radiusScale = () => loadBaselineGrid().header.params['hurricane_wind.radius_scale'];
const ringsOf = (s: SourceRecord) =>
  s.ringInput.kind === 'hurricane' ? hurricaneRings(s.ringInput, s, radiusScale) : [];

function expectInvalidInput(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(CatintelError);
  expect((caught as CatintelError).code).toBe('invalid_input');
}

describe('nhc: ATCF b-deck (Hurricane Ian, bal092022.dat)', () => {
  it('groups its 89 BEST lines into one storm with 40 fixes', () => {
    const r = parse(ian);
    expect(r.skipped).toEqual([]);
    expect(r.records).toHaveLength(1);
    const s = r.records[0];
    expect(s).toMatchObject({
      source: 'nhc',
      sourceId: 'al092022',
      sourceUrl: 'https://ftp.nhc.noaa.gov/atcf/btk/bal092022.dat',
      title: 'Hurricane Ian (AL09 2022)',
      eventType: 'hurricane',
      startedAt: '2022-09-22T18:00:00.000Z',
      sourceUpdatedAt: '2022-10-01T06:00:00.000Z',
      confidence: 1,
    });
    expect(s.details).toMatchObject({
      fix_count: 40,
      peak_wind_kt: 140,
      min_pressure_mb: 937,
      classification: 'EX',
      peak_classification: 'HU',
    });
    const winds = s.observations.filter((o) => o.kind === 'wind_speed_kt');
    const pressures = s.observations.filter((o) => o.kind === 'central_pressure_mb');
    expect(winds).toHaveLength(40);
    expect(pressures).toHaveLength(40);
    // Special fixes keep their minutes: the 19:05 UTC Florida landfall at 130 kt / 941 mb.
    expect(winds).toContainEqual({
      observedAt: '2022-09-28T19:05:00.000Z',
      kind: 'wind_speed_kt',
      value: 130,
      unit: 'kt',
      lat: 26.7,
      lng: -82.2,
    });
    expect(pressures).toContainEqual({
      observedAt: '2022-09-28T19:05:00.000Z',
      kind: 'central_pressure_mb',
      value: 941,
      unit: 'mb',
      lat: 26.7,
      lng: -82.2,
    });
    expect(winds.map((o) => o.observedAt)).toEqual([...winds.map((o) => o.observedAt)].sort());
  });

  it('takes position, severity and radii from the latest fix: an extratropical 30-kt low, winding down', () => {
    const s = parse(ian).records[0];
    expect(s).toMatchObject({
      lat: 35.3,
      lng: -79.7,
      severity: 30,
      severityLabel: 'Tropical Depression',
      signals: { winding: true },
    });
    expect(s.ringInput).toEqual({ kind: 'hurricane', windRadiiNm: {}, maxWindKt: 30, pressureMb: 999 });
    expect(ringsOf(s)).toEqual([]);
  });

  it('at the Florida landfall fix (file cut after line 57) it carries the 34/50/64-kt quadrant radii', () => {
    const s = parse(ianUpToLine(57)).records[0];
    expect(s).toMatchObject({
      sourceUpdatedAt: '2022-09-28T19:05:00.000Z',
      severity: 130,
      severityLabel: 'Category 4',
      lat: 26.7,
      lng: -82.2,
    });
    expect(s.signals).toEqual({ winding: false });
    expect(s.ringInput).toEqual({
      kind: 'hurricane',
      windRadiiNm: {
        34: { ne: 130, se: 150, sw: 100, nw: 150 },
        50: { ne: 50, se: 60, sw: 70, nw: 80 },
        64: { ne: 30, se: 40, sw: 30, nw: 45 },
      },
      maxWindKt: 130,
      pressureMb: 941,
    });
    const rings = ringsOf(s);
    expect(rings.map((x) => [x.threshold, x.radiusKm])).toEqual([
      [64, 83.3],
      [50, 148.2],
      [34, 277.8],
    ]);
  });

  it('names a storm by its peak type and latest real name while it is still a depression', () => {
    const td = parse(ianUpToLine(5)).records[0];
    expect(td.title).toBe('Tropical Depression Nine (AL09 2022)');
    expect(td.ringInput).toEqual({ kind: 'hurricane', windRadiiNm: {}, maxWindKt: 30, pressureMb: 1006 });
    // Only the two pre-genesis LO fixes: not (yet) a tropical cyclone.
    expect(parse(ianUpToLine(2))).toEqual({
      records: [],
      skipped: [{ sourceId: 'al092022', reason: 'never a tropical or subtropical cyclone (types LO)' }],
    });
  });

  it('skips a malformed best-track line with its line number and keeps the rest', () => {
    const lines = ian.split('\n');
    lines[3] = lines[3].replace('142N', '14XN');
    const r = parse(lines.join('\n'));
    expect(r.skipped).toEqual([{ sourceId: null, reason: 'line 4: bad position "14XN, 693W"' }]);
    expect(r.records[0].details.fix_count).toBe(39);
  });
});

describe('nhc: CurrentStorms.json (hand-written fixture in the documented format)', () => {
  it('maps both active storms', () => {
    const r = parse(currentStorms);
    expect(r.skipped).toEqual([]);
    expect(r.records.map((x) => [x.sourceId, x.title, x.severity, x.severityLabel])).toEqual([
      ['al092022', 'Hurricane Ian (AL09 2022)', 140, 'Category 5'],
      ['ep212018', 'Hurricane Sergio (EP21 2018)', 75, 'Category 1'],
    ]);
    const [ianNow, sergio] = r.records;
    expect(ianNow).toMatchObject({
      sourceUrl: 'https://www.nhc.noaa.gov/text/MIATCPAT4.shtml',
      startedAt: '2022-09-28T12:00:00.000Z',
      sourceUpdatedAt: '2022-09-28T12:00:00.000Z',
      lat: 26,
      lng: -82.7,
      confidence: 0.9,
      signals: { winding: false },
      ringInput: { kind: 'hurricane', windRadiiNm: {}, maxWindKt: 140, pressureMb: 937 },
      observations: [
        { observedAt: '2022-09-28T12:00:00.000Z', kind: 'wind_speed_kt', value: 140, unit: 'kt', lat: 26, lng: -82.7 },
        {
          observedAt: '2022-09-28T12:00:00.000Z',
          kind: 'central_pressure_mb',
          value: 937,
          unit: 'mb',
          lat: 26,
          lng: -82.7,
        },
      ],
    });
    expect(ianNow.details).toMatchObject({
      bin_number: 'AT4',
      classification: 'HU',
      advisory_number: '023A',
      movement_dir_deg: 15,
    });
    expect(sergio).toMatchObject({ lat: 15.7, lng: -128.5, ringInput: { maxWindKt: 75, pressureMb: 978 } });
  });

  it('gives the parametric wind rings (no radii in this file)', () => {
    const [ianNow, sergio] = parse(currentStorms).records;
    const ianRings = ringsOf(ianNow);
    expect(ianRings.map((x) => x.threshold)).toEqual([64, 50, 34]);
    expect(ianRings.every((x) => x.label.endsWith('(parametric estimate)'))).toBe(true);
    expect(ringsOf(sergio).map((x) => x.threshold)).toEqual([64, 50, 34]);
  });

  it('marks a post-tropical (PTC) storm as winding and skips a storm without intensity', () => {
    const doc = JSON.parse(currentStorms);
    doc.activeStorms[0].classification = 'PTC';
    doc.activeStorms[1].intensity = '';
    const r = parse(JSON.stringify(doc));
    expect(r.records).toHaveLength(1);
    expect(r.records[0]).toMatchObject({ title: 'Post-Tropical Cyclone Ian (AL09 2022)', signals: { winding: true } });
    expect(r.skipped).toEqual([{ sourceId: 'ep212018', reason: 'no intensity (kt)' }]);
  });

  it('an empty activeStorms list is a valid quiet day', () => {
    expect(parse('{"activeStorms": []}')).toEqual({ records: [], skipped: [] });
  });
});

describe('nhc: not this format', () => {
  it('rejects the NWS alerts JSON, a USGS feed, random text and an a-deck without BEST lines', () => {
    expectInvalidInput(() =>
      parse(readFileSync(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'), 'utf8')),
    );
    expectInvalidInput(() => parse(readFileSync(sharedData('feeds/usgs_earthquakes/4.5_month.csv'), 'utf8')));
    expectInvalidInput(() => parse('Hurricane Ian made landfall near Cayo Costa.'));
    expectInvalidInput(() => parse('{"activeStorms": '));
    expectInvalidInput(() => parse('AL, 09, 2022092800, 03, OFCL,   0, 244N,  830W, 105,  947, HU'));
  });
});
