/**
 * One record never fails the rest of a source's run (docs/contract.md#one-bad-record). The real USGS week feed, edited so
 * that two earthquakes share a title, an origin time and the first 24 bits of their event ids (their
 * slugs were one and the same, and every run of the week failed), and so that one record carries a start
 * time the store cannot hold: every other event lands, the refused record is skipped with its reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventIdOf } from '../src/lib/ids.js';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { WEEK_NOW } from './helpers/store.js';

const WEEK = sharedData('feeds/usgs_earthquakes/all_week.geojson');
/** Records the week feed holds as of WEEK_NOW (test/feed-inventory.test.ts). */
const WEEK_RECORDS = 3209;
/** Two USGS ids whose event UUIDs begin with the same six hex digits (fe744f…). */
const TWINS = ['ci90003888', 'ci90005281'];

interface Feature {
  id: string;
  properties: Record<string, unknown>;
}

function editedWeek(edit: (features: Feature[]) => void): string {
  const doc = JSON.parse(fs.readFileSync(WEEK, 'utf8')) as { features: Feature[] };
  edit(doc.features);
  const file = path.join(tempDir(), 'all_week_edited.geojson');
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

const renamed = (f: Feature, id: string) => {
  f.id = id;
  Object.assign(f.properties, { ids: `,${id},`, net: id.slice(0, 2), code: id.slice(2) });
};

describe('one record never fails the rest of a run', () => {
  it('stores two events of the same title and time whose ids share 24 bits, and the whole week with them', async () => {
    const [a, b] = TWINS.map((id) => eventIdOf('usgs-earthquakes', id).replace(/-/g, ''));
    expect(a.slice(0, 6)).toBe(b.slice(0, 6)); // the old slug suffix could not tell them apart
    const feed = editedWeek((features) => {
      renamed(features[0], TWINS[0]);
      renamed(features[1], TWINS[1]);
      features[1].properties.title = features[0].properties.title;
      features[1].properties.time = features[0].properties.time;
    });
    const db = path.join(tempDir(), 'store.duckdb');
    const first = await cli(['--db', db, '--json', '--quiet', 'ingest', 'usgs-earthquakes', '--from', feed], {
      CATINTEL_NOW: WEEK_NOW,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(first.json().runs[0]).toMatchObject({ status: 'ok', inserted: WEEK_RECORDS });

    const shown = await Promise.all(
      TWINS.map((id) => cli(['--db', db, '--json', 'events', 'show', id], { CATINTEL_NOW: WEEK_NOW })),
    );
    const slugs = shown.map((r) => r.json().properties.slug as string);
    expect(slugs[0]).not.toBe(slugs[1]);
    for (const slug of slugs) expect(slug).toMatch(/^m-0-6-6km-nw-of-the-geysers-ca-2020-07-08-[0-9a-f]{6,}$/);
    // Each slug names its own event, and a rerun keeps both (links stay stable).
    for (const [i, slug] of slugs.entries()) {
      const bySlug = await cli(['--db', db, '--json', 'events', 'show', slug], { CATINTEL_NOW: WEEK_NOW });
      expect(bySlug.json().properties.source_id).toBe(TWINS[i]);
    }
    const again = await cli(['--db', db, '--json', '--quiet', 'ingest', 'usgs-earthquakes', '--from', feed], {
      CATINTEL_NOW: WEEK_NOW,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().runs[0]).toMatchObject({ inserted: 0, unchanged: WEEK_RECORDS });
    const after = await cli(['--db', db, '--json', 'events', 'show', TWINS[1]], { CATINTEL_NOW: WEEK_NOW });
    expect(after.json().properties.slug).toBe(slugs[1]);
  });

  it('skips a record the store refuses, naming it and the reason, and stores every other (text and --json)', async () => {
    const feed = editedWeek((features) => {
      renamed(features[5], 'ci99999999');
      features[5].properties.time = Date.UTC(10000, 0, 1); // a start in the year 10000: JavaScript reads it, DuckDB cannot hold it
    });
    const db = path.join(tempDir(), 'store.duckdb');
    const r = await cli(['--db', db, '--json', '--quiet', 'ingest', 'usgs-earthquakes', '--from', feed], {
      CATINTEL_NOW: WEEK_NOW,
    });
    expect(r.code, r.stderr).toBe(0);
    const run = r.json().runs[0];
    expect(run).toMatchObject({ status: 'ok', inserted: WEEK_RECORDS - 1 });
    const refused = run.skipped_reasons.find((s: { examples: string[] }) => s.examples.includes('ci99999999'));
    expect(refused).toMatchObject({ count: 1 });
    expect(refused.reason).toMatch(/^the store refused it: .*\+010000-01-01/);

    const info = (await cli(['--db', db, '--json', 'db', 'info'])).json();
    expect(info.events).toBe(WEEK_RECORDS - 1);
    expect(info.recent_ingest_runs[0]).toMatchObject({ status: 'ok', skipped: run.skipped });

    // The text summary names it too, and a rerun is a no-op for the others.
    const text = await cli(['--db', db, '--quiet', 'ingest', 'usgs-earthquakes', '--from', feed], {
      CATINTEL_NOW: WEEK_NOW,
    });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/skipped 1: the store refused it: .*\+010000-01-01/);
    expect(text.stdout).toMatch(new RegExp(`0 new, 0 updated, ${WEEK_RECORDS - 1} unchanged`));
  });
});
