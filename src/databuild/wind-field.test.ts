import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import fs from 'node:fs';
import { parseHurdat2 } from '../reference-data/hurdat2.js';
import { calibrateRadiusScale, radiusOfKm, windAtKm, windField } from './wind-field.js';

describe('parametric hurricane wind field', () => {
  it('reproduces the docs/methods.md#hurricane-wind example before calibration: Vmax 100 kt, pc 960 hPa, 28°N, 5 m/s -> Rm 34 km, R64 124 km', () => {
    const f = windField(100, 28, 960, 5, 1);
    expect(f.rmKm).toBeCloseTo(33.6, 0);
    expect(f.b).toBeCloseTo(1.31, 2);
    expect(radiusOfKm(f, 64)).toBeCloseTo(124, -1);
    expect(windAtKm(f, f.rmKm)).toBeCloseTo(100, 6);
  });

  it('scales every radius by the calibration factor', () => {
    const a = radiusOfKm(windField(100, 28, 960, 5, 1), 64)!;
    const b = radiusOfKm(windField(100, 28, 960, 5, 0.5), 64)!;
    expect(b / a).toBeCloseTo(0.5, 6);
  });

  it('has no hurricane-force radius for a tropical storm', () => {
    expect(radiusOfKm(windField(50, 25, null, 5, 1), 64)).toBeNull();
  });

  it.skipIf(!fs.existsSync(sharedData('hazard_history')))(
    'calibrates to HURDAT2 2004+ 64-kt radii at about half the textbook profile',
    () => {
      const storms = parseHurdat2(
        fs.readFileSync(sharedData('hazard_history/hurricanes/hurdat2-1851-2024-040425_reassembled.txt'), 'utf8'),
      );
      const c = calibrateRadiusScale(storms);
      expect(c.fixes).toBeGreaterThan(1000);
      expect(c.scale).toBeGreaterThan(0.35);
      expect(c.scale).toBeLessThan(0.7);
    },
  );
});
