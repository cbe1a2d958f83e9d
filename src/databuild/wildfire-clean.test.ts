import { describe, expect, it } from 'vitest';
import { baseName, cleanIcs209, type Ics209Report } from './wildfire-clean.js';

const FL = '12';
const VA = '51';
/** A toy map: Florida south of 31°N, Virginia north of 36.5°N. */
const ctx = {
  statesNear: (lat: number) => new Set(lat < 31 ? [FL] : lat > 36.5 ? [VA] : []),
  stateFips: new Map([
    ['FL', FL],
    ['VA', VA],
  ]),
};
const r = (o: Partial<Ics209Report>): Ics209Report => ({
  id: 'x',
  name: 'Fire',
  state: 'FL',
  county: null,
  date: '2017-04-06',
  areaKm2: 10,
  lat: 30.5,
  lng: -82.3,
  structuresDestroyed: null,
  ...o,
});

describe('ICS-209 cleaning', () => {
  it('drops a point of origin outside its own state, and repairs swapped coordinates', () => {
    const { fires, report } = cleanIcs209(
      [
        r({ id: 'a', name: 'West Mims', lat: 37.94, lng: -79.46 }),
        r({ id: 'b', name: 'Owl Creek', lat: 84.5, lng: -30.15 }),
      ],
      ctx,
    );
    expect(report.dropped_origin_outside_state).toBe(1);
    expect(report.relocated_fixed_coordinates).toBe(1);
    expect(fires).toEqual([{ lat: 30.15, lng: -84.5, areaKm2: 10, structuresDestroyed: 0 }]);
  });
  it('merges the zone reports of one incident by name and date, keeping the largest area and most structures', () => {
    const zones = [
      r({ id: '1', name: 'Las Conchas', areaKm2: 604, structuresDestroyed: 63 }),
      r({ id: '2', name: 'Las Conchas - North Zone', areaKm2: 634 }),
      r({ id: '3', name: 'Las Conchas - Northeast Zone', areaKm2: 516, structuresDestroyed: 13 }),
    ];
    const { fires, report } = cleanIcs209(zones, ctx);
    expect(report.merged_duplicates).toBe(2);
    expect(fires).toEqual([{ lat: 30.5, lng: -82.3, areaKm2: 634, structuresDestroyed: 63 }]);
    expect(baseName('Las Conchas - Northwest Zone')).toBe(baseName('LAS CONCHAS'));
  });
  it('keeps fires of the same name on other dates, and drops blowdown complexes', () => {
    const { fires, report } = cleanIcs209(
      [r({ id: '1' }), r({ id: '2', date: '2018-04-06' }), r({ id: '3', name: 'St. Croix Valley Blowdown Comp' })],
      ctx,
    );
    expect(fires).toHaveLength(2);
    expect(report.not_wildfire).toBe(1);
  });
});
