/**
 * As of now (docs/contract.md#as-of-now, issue 8 item 1): an ingest keeps only what the source had published by the
 * clock, so replaying the whole Ian best track at six instants, through the real CLI, shows the storm as
 * it was at each: position, intensity, status and rings. Records published after the clock are skipped
 * with that reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
const ALL_DAY = sharedData('feeds/usgs_earthquakes/all_day.geojson');

interface Expected {
  clock: string;
  what: string;
  lngLat: [number, number];
  windKt: number;
  label: string;
  status: 'active' | 'monitoring' | 'ended';
  /** Wind-ring thresholds, innermost first. */
  rings: number[];
}

// Values from the BEST lines of bal092022.dat at or before each clock (the last fix is the state).
const CLOCKS: Expected[] = [
  {
    clock: '2022-09-23T07:00:00Z',
    what: 'genesis: a 30-kt depression south of Hispaniola (06 UTC fix)',
    lngLat: [-68.1, 13.7],
    windKt: 30,
    label: 'Tropical Depression',
    status: 'active',
    rings: [],
  },
  {
    clock: '2022-09-26T07:00:00Z',
    what: 'a hurricane near Grand Cayman (06 UTC fix)',
    lngLat: [-81.7, 17.7],
    windKt: 65,
    label: 'Category 1',
    status: 'active',
    rings: [64, 50, 34],
  },
  {
    clock: '2022-09-28T19:30:00Z',
    what: 'Florida landfall (19:05 UTC special fix)',
    lngLat: [-82.2, 26.7],
    windKt: 130,
    label: 'Category 4',
    status: 'active',
    rings: [64, 50, 34],
  },
  {
    clock: '2022-09-30T19:00:00Z',
    what: 'South Carolina landfall (18:05 UTC special fix)',
    lngLat: [-79.2, 33.3],
    windKt: 70,
    label: 'Category 1',
    status: 'active',
    rings: [64, 50, 34],
  },
  {
    clock: '2022-10-01T07:00:00Z',
    what: 'extratropical 30-kt low over North Carolina: winding down',
    lngLat: [-79.7, 35.3],
    windKt: 30,
    label: 'Tropical Depression',
    status: 'monitoring',
    rings: [],
  },
  {
    clock: '2022-10-04T00:00:00Z',
    what: 'two days after the last fix: ended',
    lngLat: [-79.7, 35.3],
    windKt: 30,
    label: 'Tropical Depression',
    status: 'ended',
    rings: [],
  },
];

describe('replaying the Ian best track through six clocks (one store, ingest then read at each)', () => {
  it('shows the storm as it was at each instant', async () => {
    const db = path.join(tempDir(), 'replay.duckdb');
    let id: string | null = null;
    for (const c of CLOCKS) {
      const env = { CATINTEL_NOW: c.clock };
      const ingest = await cli(['--db', db, '--json', 'ingest', 'nhc', '--from', BDECK], env);
      expect(ingest.code, ingest.stderr).toBe(0);
      expect(ingest.json().runs[0].skipped, c.what).toBe(0);

      const live = (await cli(['--db', db, '--json', 'events', 'live'], env)).json();
      if (c.status === 'ended') expect(live.features, c.what).toEqual([]);
      else {
        expect(live.features, c.what).toHaveLength(1);
        id = live.features[0].properties.id;
      }
      const shown = await cli(['--db', db, '--json', 'events', 'show', id!], env);
      expect(shown.code, shown.stderr).toBe(0);
      const e = shown.json();
      expect(
        {
          at: c.clock,
          lngLat: e.geometry.coordinates,
          windKt: e.properties.severity,
          label: e.properties.severity_label,
          status: e.properties.status,
        },
        c.what,
      ).toEqual({ at: c.clock, lngLat: c.lngLat, windKt: c.windKt, label: c.label, status: c.status });

      const rings = (await cli(['--db', db, '--json', 'events', 'rings', id!], env)).json();
      expect(
        rings.features.map((f: any) => f.properties.threshold),
        c.what,
      ).toEqual(c.rings);
      for (const f of rings.features) expect(f.properties.label, c.what).not.toMatch(/estimate/); // NHC's own radii
    }
  });

  it('replaying backwards in one store rewinds the event: whole track first, then the landfall clock', async () => {
    const db = path.join(tempDir(), 'backwards.duckdb');
    expect(
      (await cli(['--db', db, 'ingest', 'nhc', '--from', BDECK], { CATINTEL_NOW: '2026-01-01T00:00:00Z' })).code,
    ).toBe(0);
    const env = { CATINTEL_NOW: '2022-09-28T19:30:00Z' };
    const again = (await cli(['--db', db, '--json', 'ingest', 'nhc', '--from', BDECK], env)).json().runs[0];
    expect(again).toMatchObject({ inserted: 0, updated: 1 });
    const id = (await cli(['--db', db, '--json', 'events', 'live'], env)).json().features[0].properties.id;
    const e = (await cli(['--db', db, '--json', 'events', 'show', id], env)).json();
    expect([e.geometry.coordinates, e.properties.severity_label, e.properties.status]).toEqual([
      [-82.2, 26.7],
      'Category 4',
      'active',
    ]);
    expect(e.properties.ingested_at).toBe('2022-09-28T19:30:00Z');
    // The fixes after the clock are gone from the event's observations too.
    expect(
      e.properties.observations
        .map((o: { observed_at: string }) => o.observed_at)
        .sort()
        .pop(),
    ).toBe('2022-09-28T19:05:00Z');
    const rings = (await cli(['--db', db, '--json', 'events', 'rings', id], env)).json();
    expect(rings.features.map((f: any) => f.properties.threshold)).toEqual([64, 50, 34]);
  });

  it('before the first fix there is nothing to show: the storm is skipped as published after the clock', async () => {
    const db = path.join(tempDir(), 'early.duckdb');
    const r = await cli(['--db', db, '--json', 'ingest', 'nhc', '--from', BDECK], {
      CATINTEL_NOW: '2022-09-22T12:00:00Z',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().runs[0]).toMatchObject({
      inserted: 0,
      skipped: 1,
      skipped_reasons: [
        {
          reason:
            'published after the clock (2022-09-22T12:00:00.000Z); set CATINTEL_NOW or --as-of later to include it',
          count: 1,
          examples: ['al092022'],
        },
      ],
    });
  });

  it('the docs/usage.md example: `catintel --as-of <landfall> ingest nhc --from bal092022.dat` shows Ian at landfall with its rings', async () => {
    const db = path.join(tempDir(), 'readme.duckdb');
    const asOf = ['--as-of', '2022-09-28T19:30:00Z'];
    // No CATINTEL_NOW: the global --as-of option alone pins the clock.
    expect((await cli(['--db', db, ...asOf, 'ingest', 'nhc', '--from', BDECK], {})).code).toBe(0);
    const live = await cli(['--db', db, ...asOf, 'events', 'live'], {});
    expect(live.stdout).toMatch(/active\s+hurricane\s+Category 4\s+Hurricane Ian \(AL09 2022\)/);
    const id = (await cli(['--db', db, ...asOf, '--json', 'events', 'live'], {})).json().features[0].properties.id;
    const rings = (await cli(['--db', db, ...asOf, '--json', 'events', 'rings', id], {})).json();
    expect(rings.features.map((f: any) => [f.properties.threshold, f.properties.radius_km])).toEqual([
      [64, 83.3],
      [50, 148.2],
      [34, 277.8],
    ]);
  });
});

describe('a record published after the clock is skipped with that reason', () => {
  it('no 2022 earthquake is ingested at a 1989 clock', async () => {
    const db = path.join(tempDir(), 'eq1989.duckdb');
    const r = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', ALL_DAY], {
      CATINTEL_NOW: '1989-10-18T00:04:00Z',
    });
    expect(r.code, r.stderr).toBe(0);
    const run = r.json().runs[0];
    expect(run).toMatchObject({ inserted: 0, fetched: 244, skipped: 244 });
    expect(run.skipped_reasons).toContainEqual(
      expect.objectContaining({
        reason: 'published after the clock (1989-10-18T00:04:00.000Z); set CATINTEL_NOW or --as-of later to include it',
        count: 239,
      }),
    );
    const live = (await cli(['--db', db, '--json', 'events', 'live'], { CATINTEL_NOW: '1989-10-18T00:04:00Z' })).json();
    expect(live.features).toEqual([]);
  });

  it('mid-feed, exactly the quakes updated by then are kept (counted from the file, not by our parser)', async () => {
    const clock = '2022-09-28T15:00:00Z';
    const feed = JSON.parse(fs.readFileSync(ALL_DAY, 'utf8')).features as Array<{
      properties: { updated: number; type: string };
    }>;
    const quakes = feed.filter((f) => f.properties.type === 'earthquake');
    const known = quakes.filter((f) => f.properties.updated <= Date.parse(clock)).length;
    expect(known).toBeGreaterThan(0);
    expect(known).toBeLessThan(quakes.length);

    const db = path.join(tempDir(), 'eqmid.duckdb');
    const run = (
      await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', ALL_DAY], { CATINTEL_NOW: clock })
    ).json().runs[0];
    expect(run.inserted).toBe(known);
    expect(run.skipped_reasons).toContainEqual(
      expect.objectContaining({
        reason: expect.stringMatching(/^published after the clock \(2022-09-28T15:00:00.000Z\)/),
        count: quakes.length - known,
      }),
    );
  });
});
