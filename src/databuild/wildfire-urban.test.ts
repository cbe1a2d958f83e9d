import { describe, expect, it } from 'vitest';
import { EMBER_REACH_KM, emberExposure, parseFacilityPoints } from './wildfire-urban.js';

describe("ember exposure of a building from a fire's point of origin", () => {
  it('is 1 at the origin, 5 % at the 2.4 km reach of the interface WUI, and 0 beyond', () => {
    expect(emberExposure(0)).toBe(1);
    expect(emberExposure(EMBER_REACH_KM)).toBeCloseTo(Math.exp(-3), 12);
    expect(emberExposure(EMBER_REACH_KM + 0.01)).toBe(0);
    expect(emberExposure(15)).toBe(0); // Hialeah from the Everglades fires
  });
});

describe('HIFLD facility points', () => {
  it('reads LATITUDE/LONGITUDE where the file has them and X/Y otherwise, skipping 0,0 and blanks', () => {
    const hospitals = '\uFEFFX,Y,NAME,LATITUDE,LONGITUDE\n-86.49,31.29,A,31.29579533,-86.49454911\n0,0,B,0,0\n';
    const police = 'OBJECTID,NAME,X,Y\n1,GROVE HILL PD,-87.774662,31.7088269\n2,MOBILE UNIT,,\n';
    expect(parseFacilityPoints(hospitals)).toEqual([{ lat: 31.29579533, lng: -86.49454911 }]);
    expect(parseFacilityPoints(police)).toEqual([{ lat: 31.7088269, lng: -87.774662 }]);
  });
});
