import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import {
  CHARACTERISTIC_SOURCES,
  magnitudeFromArea,
  momentOf,
  nshmFaultRuptures,
  ruptureDistanceKm,
  type Plane,
} from './eq-faults.js';

describe('fault source arithmetic', () => {
  it('Wells & Coppersmith (1994) rupture-area magnitude and Hanks & Kanamori moment', () => {
    expect(magnitudeFromArea(1000)).toBeCloseTo(7.01, 2); // 4.07 + 0.98 * 3
    expect(momentOf(7)).toBeCloseTo(10 ** 19.55, -15);
  });

  it('rupture distance: on the trace of a vertical fault it is the top depth; the hanging wall of a thrust is closer than the foot wall', () => {
    const vertical: Plane = {
      trace: [
        [-122, 37],
        [-122, 38],
      ],
      dipDeg: 90,
      dipDir: [0, 0],
      upKm: 0,
      lowKm: 15,
    };
    expect(ruptureDistanceKm(37.5, -122, vertical)).toBeCloseTo(0, 6);
    expect(ruptureDistanceKm(37.5, -121.8868, vertical)).toBeCloseTo(10, 0);
    const thrust: Plane = {
      trace: [
        [-118, 34],
        [-118, 35],
      ],
      dipDeg: 30,
      dipDir: [1, 0],
      upKm: 2,
      lowKm: 17,
    };
    const east = ruptureDistanceKm(34.5, -117.8, thrust); // ~18 km over the dipping plane
    const west = ruptureDistanceKm(34.5, -118.2, thrust);
    expect(east).toBeLessThan(west);
    expect(east).toBeLessThan(12);
  });
});

describe.skipIf(!fs.existsSync(sharedData('hazard_history/earthquakes/nshm2023_faults/NSHM23_FSD_v3.geojson')))(
  'NSHM 2023 fault ruptures',
  () => {
    const dir = 'hazard_history/earthquakes/nshm2023_faults/';
    const read = (f: string) => fs.readFileSync(sharedData(dir + f), 'utf8');
    const built = nshmFaultRuptures(
      read('NSHM23_FSD_v3.geojson'),
      read('NSHM23_GeolDefMod_v1p4.geojson'),
      read('special_faults.json'),
    );

    it('uses every section with a slip rate, plus one multi-section rupture per special group', () => {
      expect(built.sections).toBe(1016);
      expect(built.ruptures.filter((r) => r.basis === 'special_faults.json group')).toHaveLength(15);
    });

    it('balances moment: the ruptures release exactly the sections’ seismic moment rate', () => {
      const released = built.ruptures.reduce((t, r) => t + r.rate * momentOf(r.magnitude), 0);
      expect(released / built.momentRate).toBeCloseTo(1, 9);
    });

    it('gives the San Andreas (Peninsula) an M7 every century or two, as UCERF-class models do', () => {
      const pen = built.ruptures.find((r) => r.name === 'San Andreas (Peninsula)')!;
      expect(pen.magnitude).toBeGreaterThan(6.9);
      expect(pen.magnitude).toBeLessThan(7.4);
      expect(1 / pen.rate).toBeGreaterThan(80);
      expect(1 / pen.rate).toBeLessThan(250);
    });

    it('the characteristic sources are cited values: Cascadia M9.0 / 526 yr, New Madrid M7.5 / 500 yr, Charleston M7.3 / 550 yr', () => {
      const by = (s: string) => CHARACTERISTIC_SOURCES.find((r) => r.name.startsWith(s))!;
      expect([by('Cascadia interface, full').magnitude, Math.round(1 / by('Cascadia interface, full').rate)]).toEqual([
        9, 526,
      ]);
      expect([by('New Madrid').magnitude, Math.round(1 / by('New Madrid').rate)]).toEqual([7.5, 500]);
      expect([by('Charleston').magnitude, Math.round(1 / by('Charleston').rate)]).toEqual([7.3, 550]);
    });
  },
);
