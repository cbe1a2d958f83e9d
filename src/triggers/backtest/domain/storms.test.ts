import { describe, expect, it } from 'vitest';
import { buildStormIndex, replayStorms, type CatalogStorm } from './storms.js';

/** A straight west-bound storm at 26°N moving 1° (about 100 km) every 6 h: fixes at -77.5, -78.5, ..., -82.5. */
function storm(id: string, year: number, windKt: number, pressureMb: number | null, lat = 26): CatalogStorm {
  const fixes = [];
  for (let i = 0; i < 6; i++) fixes.push({ hours: 500_000 + 6 * i, lat, lng: -77.5 - i, windKt, pressureMb });
  return { id, name: id, year, basin: 'atlantic', fixes };
}

describe('storm replay', () => {
  // A 20-km circle at -80, halfway between the fixes at -79.5 and -80.5: no fix is within 50 km of it.
  const site = { lat: 26, lng: -80, radiusKm: 20 };

  it('catches a storm whose centre crosses a small circle between two 6-hourly fixes', () => {
    const idx = buildStormIndex([storm('AL012000', 2000, 120, 940)]);
    const [hit] = replayStorms(idx, { ...site, thresholdType: 'central_pressure_mb' }, 0.5, 1900, 2024);
    expect(hit.value).toBe(940);
    expect(hit.distanceKm).toBeLessThanOrEqual(20);
    const [w] = replayStorms(idx, { ...site, thresholdType: 'wind_speed_kt' }, 0.5, 1900, 2024);
    // The eye passes over the site: the worst wind is near the radius of maximum wind, not at the centre.
    expect(w.value).toBeGreaterThan(110);
    expect(w.value).toBeLessThanOrEqual(120);
    expect(w.distanceKm).toBeGreaterThan(3);
  });

  it('ignores storms outside the circle, outside the years, and pressure-less positions for a pressure trigger', () => {
    const far = storm('AL022000', 2000, 120, 940, 28); // 220 km north
    const old = storm('AL011890', 1890, 120, 940);
    const noP = storm('AL032001', 2001, 120, null);
    const idx = buildStormIndex([far, old, noP]);
    expect(replayStorms(idx, { ...site, thresholdType: 'central_pressure_mb' }, 0.5, 1900, 2024)).toEqual([]);
    expect(
      replayStorms(idx, { ...site, thresholdType: 'wind_speed_kt' }, 0.5, 1900, 2024).map((h) => h.storm.id),
    ).toEqual(['AL032001']);
  });

  it('reports each storm once, at its worst position', () => {
    const a = storm('AL042005', 2005, 90, 970);
    const b = storm('AL052005', 2005, 130, 920);
    const hits = replayStorms(
      buildStormIndex([a, b]),
      { ...site, thresholdType: 'central_pressure_mb' },
      0.5,
      1900,
      2024,
    );
    expect(hits.map((h) => [h.storm.id, h.value])).toEqual([
      ['AL042005', 970],
      ['AL052005', 920],
    ]);
  });
});
