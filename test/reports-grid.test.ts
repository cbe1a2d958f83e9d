import { describe, expect, it } from 'vitest';
import { toUsng, toUtm } from '../src/reports/domain/grid.js';

describe('UTM and USNG (ICS-209 blocks 23, 26)', () => {
  // The coordinates are given to 1e-4 degree (about 9 m), so the 10 m reference is compared.
  it('the Washington Monument is 18S UJ 2348 0648 (the FGDC USNG standard example, 10 m)', () => {
    expect(toUsng(38.8895, -77.0352)!.replace(/(\d{4})\d\b/g, '$1')).toBe('18S UJ 2348 0648');
    const u = toUtm(38.8895, -77.0352)!;
    expect(u.zone).toBe(18);
    expect(Math.abs(u.easting - 323487)).toBeLessThan(10);
    expect(Math.abs(u.northing - 4306483)).toBeLessThan(10);
  });
  it('southern hemisphere northings carry the 10,000 km false northing', () => {
    expect(toUtm(-33.8568, 151.2153)!.northing).toBeGreaterThan(6_000_000);
    expect(toUtm(-33.8568, 151.2153)!.zone).toBe(56);
  });
  it('refuses points outside the UTM latitudes', () => {
    expect(toUsng(85, 0)).toBeNull();
  });
});
