/**
 * The ground-motion models against the USGS hazard code's own test tables: usgs/nshmp-haz
 * test/gov/usgs/earthquake/nshmp/gmm/data/{nga-west2,ceus-vs760,interface}-results.csv with their
 * *-inputs.csv, commit 35e140b8eb665e35d373dbd4a96d2204ce7f2592 (median PGA in g, σ in ln units).
 */
import { describe, expect, it } from 'vitest';
import { ab06LnPgaRock, AB06_SIGMA_LN } from './gmm-ab06.js';
import { am09LnPgaRock, AM09_SIGMA_LN } from './gmm-am09.js';
import { bssa14, type FaultStyle } from './gmm-bssa14.js';
import { toro97LnPgaRock, TORO97_SIGMA_LN } from './gmm-toro97.js';
import { groundMotion } from './ground-motion.js';

const close = (actual: number, expected: number) => expect(Math.abs(actual / expected - 1)).toBeLessThan(1e-6);

describe('BSSA14 PGA (nga-west2-results.csv, BSSA_14)', () => {
  const rows: Array<[number, number, number, FaultStyle, number, number]> = [
    // M, R_JB, Vs30, style (rake 90 reverse, 0 strike-slip), median g, σ
    [4, 12.6, 760, 'reverse', 0.0076816558, 0.800892627],
    [6, 5, 760, 'reverse', 0.275563295, 0.6050859443],
    [6.5, 0, 760, 'reverse', 0.4191323684, 0.6050859443],
    [7.5, 16, 760, 'reverse', 0.2068596322, 0.6050859443],
    [7, 5, 259, 'strike-slip', 0.4254647763, 0.576201023],
    [7, 5, 537, 'strike-slip', 0.4061630169, 0.6050859443],
    [7, 5, 1150, 'strike-slip', 0.2707504915, 0.6050859443],
    [7, 5, 2000, 'strike-slip', 0.2308517667, 0.6050859443],
  ];
  it.each(rows)('M%s R_JB %s km Vs30 %s (%s)', (m, rjb, vs30, style, median, sigma) => {
    const g = bssa14(m, rjb, vs30, style);
    close(Math.exp(g.lnMedian), median);
    close(g.sigma, sigma);
  });
});

describe('AB06 PGA, B/C rock, 140 bar (ceus-vs760-results.csv, AB_06_140BAR)', () => {
  const rows: Array<[number, number, number]> = [
    [4, 13.8, 0.0197707818],
    [5, 13.2, 0.0808871175],
    [6.5, 5, 0.9585247203],
    [7, 140, 0.038471631],
    [7.5, 700.1, 0.0058684138],
    [7.5, 0, 1.4993025001], // the 1.5 g cap
  ];
  it.each(rows)('M%s R_rup %s km', (m, rrup, median) => {
    close(Math.exp(ab06LnPgaRock(m, rrup)), median);
    close(AB06_SIGMA_LN, 0.6907755279);
  });
});

describe('Toro et al. 1997 PGA, Mw, B/C rock (ceus-vs760-results.csv, TORO_97_MW)', () => {
  const rows: Array<[number, number, number]> = [
    // M, R_JB, median g
    [4, 12.6, 0.0904561594],
    [5, 11.5, 0.2042783612],
    [6, 23, 0.2156144707],
    [6.5, 23, 0.3143341504],
    [7, 139.5, 0.0448241043],
    [7.5, 700, 0.0032070763],
  ];
  it.each(rows)('M%s R_JB %s km', (m, rjb, median) => {
    close(Math.exp(toro97LnPgaRock(m, rjb)), median);
    close(TORO97_SIGMA_LN, 0.7506);
  });
});

describe('AM09 interface PGA (interface-results.csv, AM_09_INTERFACE)', () => {
  const rows: Array<[number, number, number]> = [
    [7, 10, 1.073566863],
    [7, 91, 0.0678332239],
    [7.5, 286, 0.0105342493],
    [9, 24, 0.4772508607],
    [9, 700.1, 0.0040242763],
  ];
  it.each(rows)('M%s R_rup %s km', (m, rrup, median) => {
    close(Math.exp(am09LnPgaRock(m, rrup)), median);
    close(AM09_SIGMA_LN, 0.5526204223);
  });
});

describe('ground motion by setting, with a site term', () => {
  it('softer soil amplifies weak shaking, and 760 m/s is the reference rock of every setting', () => {
    for (const t of ['active', 'stable', 'interface'] as const) {
      const rock = groundMotion(t, 7, { rjbKm: 50, rrupKm: 51 });
      const soil = groundMotion(t, 7, { rjbKm: 50, rrupKm: 51 }, 270);
      expect(soil.lnMedian).toBeGreaterThan(rock.lnMedian);
      expect(rock.sigma).toBeGreaterThan(0.5);
    }
    // Stable crust: the equal-weight mix of AB06 and Toro 97, its σ wider than either model's.
    const mix = groundMotion('stable', 6, { rjbKm: 20, rrupKm: 20.6 });
    expect(mix.lnMedian).toBeCloseTo((ab06LnPgaRock(6, 20.6) + toro97LnPgaRock(6, 20)) / 2, 12);
    expect(mix.sigma).toBeGreaterThan(TORO97_SIGMA_LN);
  });
});
