/**
 * The hurricane ring fallback (a storm without published radii) runs the hazard baseline's calibrated
 * wind profile, the one scoring runs (issue 8 item 3). Checked against what NHC published for Ian: the
 * mean of the four b-deck quadrant radii at every fix that has them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBaselineGrid } from '../src/reference-data/load-baseline.js';
import { buildRings } from '../src/domain/rings/index.js';
import { KM_PER_NM } from '../src/lib/geo.js';
import { parseBdeck } from '../src/sources/nhc-bdeck.js';
import { cli, tempDir } from './helpers/cli.js';
import { FIXTURES, sharedData } from './helpers/paths.js';

const BDECK = fs.readFileSync(sharedData('hazard_history/hurricanes/bal092022.dat'), 'utf8');
const scale = () => loadBaselineGrid().header.params['hurricane_wind.radius_scale'];

/** Every fix time of the deck (with the minutes of special fixes). */
const fixTimes = [
  ...new Set(
    BDECK.split('\n')
      .filter((l) => l.includes('BEST'))
      .map((l) => {
        const f = l.split(',').map((x) => x.trim());
        return Date.UTC(+f[2].slice(0, 4), +f[2].slice(4, 6) - 1, +f[2].slice(6, 8), +f[2].slice(8, 10), +(f[3] || 0));
      }),
  ),
];

describe('hurricane fallback against the Ian b-deck radii', () => {
  it('the 64-kt radius is within 10 km of the observed quadrant mean on average over the track (uncalibrated: 53 km too wide)', () => {
    const errorsKm: number[] = [];
    for (const t of fixTimes) {
      const r = parseBdeck(BDECK, { now: new Date(t), sourceUrl: 'file:bal092022.dat' }).records[0];
      if (r?.ringInput.kind !== 'hurricane') continue;
      const q = r.ringInput.windRadiiNm[64];
      if (!q) continue;
      const observedKm = ((q.ne + q.se + q.sw + q.nw) / 4) * KM_PER_NM;
      const fallback = buildRings({ ...r.ringInput, windRadiiNm: {} }, r, { hurricaneRadiusScale: scale });
      const r64 = fallback.find((x) => x.threshold === 64)?.radiusKm ?? 0;
      errorsKm.push(r64 - observedKm);
    }
    expect(errorsKm).toHaveLength(23);
    const mae = errorsKm.reduce((s, e) => s + Math.abs(e), 0) / errorsKm.length;
    const bias = errorsKm.reduce((s, e) => s + e, 0) / errorsKm.length;
    expect(mae).toBeLessThan(10);
    expect(Math.abs(bias)).toBeLessThan(5);
  });

  it('through the CLI: CurrentStorms.json (no radii) gives Ian at 12 UTC on 28 Sep a 64-kt ring of 67 km (b-deck quadrant mean 69 km)', async () => {
    const db = path.join(tempDir(), 'cs.duckdb');
    const env = { CATINTEL_NOW: '2022-09-28T13:00:00Z' };
    expect(
      (await cli(['--db', db, 'ingest', 'nhc', '--from', path.join(FIXTURES, 'feeds/nhc/CurrentStorms.json')], env))
        .code,
    ).toBe(0);
    const live = (await cli(['--db', db, '--json', 'events', 'live'], env)).json();
    const ian = live.features.find((f: any) => /Ian/.test(f.properties.title));
    const rings = (await cli(['--db', db, '--json', 'events', 'rings', ian.properties.id], env)).json();
    const byKt = Object.fromEntries(rings.features.map((f: any) => [f.properties.threshold, f.properties]));
    expect(byKt[64].label).toBe('64 kt (hurricane-force) winds (parametric estimate)');
    expect(byKt[64].radius_km).toBeCloseTo(67, -0.5);
    expect(Object.keys(byKt).map(Number).sort()).toEqual([34, 50, 64]);
  });
});
