/** The pure parts of portfolios: OED peril codes and groups, the row check, ring geometry. */
import { describe, expect, it } from 'vitest';
import { checkRow, scorePerilsOf } from '../src/portfolios/domain/oed-row.js';
import { degreesAround, distanceToAreaKm, pointInArea, prepareArea } from '../src/portfolios/domain/geometry.js';
import { eventTypeBit, eventTypeMask, parseCover } from '../src/portfolios/domain/perils.js';
import { circlePolygon, haversineKm } from '../src/lib/geo.js';

describe('LocPerilsCovered', () => {
  it('expands groups, normalises case and spacing, and names unknown codes', () => {
    expect(parseCover('ww1; qq1')).toEqual({
      normalised: 'WW1;QQ1',
      codes: ['QEQ', 'QFF', 'QTS', 'QSL', 'QLS', 'QLF', 'WTC', 'WEC', 'WSS'],
      codesText: 'QEQ;QFF;QTS;QSL;QLS;QLF;WTC;WEC;WSS',
      unknown: [],
    });
    expect(parseCover('WTC;XYZ;;').unknown).toEqual(['XYZ']);
    expect(parseCover('AA1').codes).toHaveLength(33);
  });

  it('maps covered codes to the event types they insure against', () => {
    const mask = eventTypeMask(parseCover('WW2').codes); // wind without surge: still a hurricane peril
    expect(mask & eventTypeBit('hurricane')).not.toBe(0);
    expect(mask & eventTypeBit('earthquake')).toBe(0);
    expect(eventTypeMask(parseCover('AA1').codes) & eventTypeBit('extreme_heat')).toBe(0); // no OED code for heat
    expect(eventTypeMask(parseCover('OO1').codes) & eventTypeBit('flood')).not.toBe(0);
    expect(scorePerilsOf('WW1')).toEqual(['hurricane_wind', 'storm_surge']);
  });
});

describe('an OED row', () => {
  const row = (v: Record<string, unknown>) => checkRow((f) => v[f]);
  it('defaults blank TIVs to 0, LocPerilsCovered to AA1, LocCurrency to USD', () => {
    expect(row({ LocNumber: 'A', Latitude: '25.7', Longitude: '-80.2' }).row).toMatchObject({
      buildingTiv: 0,
      perilsCovered: 'AA1',
      currency: 'USD',
      occupancyCode: null,
    });
  });
  it('names every bad field of the row', () => {
    const { row: r, problems } = row({
      LocNumber: 'x'.repeat(21),
      Latitude: 'north',
      Longitude: 200,
      BuildingTIV: '1,000',
      OccupancyCode: '10.5',
      LocCurrency: 'usdollar',
    });
    expect(r).toBeNull();
    expect(problems.map((p) => p.field)).toEqual([
      'LocNumber',
      'Latitude',
      'Longitude',
      'OccupancyCode',
      'BuildingTIV',
      'LocCurrency',
    ]);
  });
});

describe('ring geometry', () => {
  const circle = circlePolygon(26.64, -81.87, 50);
  const area = prepareArea(circle);
  it('tells inside from outside and measures the distance to the edge', () => {
    expect(pointInArea(-81.87, 26.64, circle)).toBe(true);
    expect(distanceToAreaKm(-81.87, 26.64, area)).toBe(0);
    // A point 80 km due north is about 30 km from a 50-km circle (the polygon's chords sit a little inside).
    const north = 26.64 + 80 / 111.2;
    expect(haversineKm(26.64, -81.87, north, -81.87)).toBeCloseTo(80, 0);
    expect(distanceToAreaKm(-81.87, north, area)).toBeGreaterThan(29.5);
    expect(distanceToAreaKm(-81.87, north, area)).toBeLessThan(30.5);
  });
  it('keeps holes outside', () => {
    const ring = {
      type: 'Polygon' as const,
      coordinates: [circle.coordinates[0], circlePolygon(26.64, -81.87, 10).coordinates[0]],
    };
    expect(pointInArea(-81.87, 26.64, ring)).toBe(false);
    expect(pointInArea(-81.87, 26.64 + 30 / 111.2, ring)).toBe(true);
  });
  it('spans a radius box wide enough for the radius', () => {
    const { dLat, dLng } = degreesAround(60, 100);
    expect(dLat).toBeCloseTo(0.9, 1);
    expect(dLng).toBeCloseTo(1.8, 1);
  });
});
