/**
 * The embedded default: `catintel db seed` loads data/seed/ so that the snapshot's events are live at its
 * instant. Its byte-for-byte rebuild from ../shared/data is in test/data-check/seed.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';

const SEED = path.join(REPO_ROOT, 'data/seed');

describe('embedded seed', () => {
  it('loads into a fresh store, serves multi-peril live events at its instant, and reloads idempotently', async () => {
    const db = path.join(tempDir(), 'seed.duckdb');
    const asOf = fs.readFileSync(path.join(SEED, 'as-of.txt'), 'utf8').trim();
    const first = await cli(['--db', db, '--json', 'db', 'seed']);
    expect(first.code, first.stderr).toBe(0);
    const inserted = first.json().runs.reduce((n: number, r: { inserted: number }) => n + r.inserted, 0);
    expect(inserted).toBeGreaterThan(300);

    const live = (
      await cli(['--db', db, '--json', 'events', 'live', '--limit', '1000'], { CATINTEL_NOW: asOf })
    ).json();
    const types = new Set(live.features.map((f: any) => f.properties.event_type));
    expect([...types].sort()).toEqual(expect.arrayContaining(['earthquake', 'flood', 'hurricane']));
    const ian = live.features.find((f: any) => f.properties.event_type === 'hurricane');
    expect(ian.properties.title).toMatch(/Ian/);
    const rings = (await cli(['--db', db, '--json', 'events', 'rings', ian.properties.id])).json();
    expect(rings.features.map((f: any) => f.properties.threshold)).toEqual([64, 50, 34]);

    const again = (await cli(['--db', db, '--json', 'db', 'seed'])).json();
    expect(again.runs.every((r: { inserted: number; updated: number }) => r.inserted === 0 && r.updated === 0)).toBe(
      true,
    );
  });
});
