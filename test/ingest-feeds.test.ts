/**
 * Every real feed sample in ../shared/data/feeds ingests through the CLI with zero unexplained drops:
 * each record is stored or skipped with a reason, and the counts are the ones we expect. A second
 * ingest of the same file adds and changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const NOW = '2026-01-01T00:00:00Z';

interface Case {
  source: string;
  file: string;
  /** Upstream records in the file, counted independently of our parser. */
  upstream: () => number;
  inserted: number;
}

const geojsonFeatures = (f: string) => () => JSON.parse(fs.readFileSync(f, 'utf8')).features.length as number;
const csvRows = (f: string) => () => fs.readFileSync(f, 'utf8').trim().split('\n').length - 1;

const CASES: Case[] = [
  {
    source: 'usgs-earthquakes',
    file: sharedData('feeds/usgs_earthquakes/all_week.geojson'),
    upstream: geojsonFeatures(sharedData('feeds/usgs_earthquakes/all_week.geojson')),
    inserted: -1,
  },
  {
    source: 'usgs-earthquakes',
    file: sharedData('feeds/usgs_earthquakes/all_day.geojson'),
    upstream: geojsonFeatures(sharedData('feeds/usgs_earthquakes/all_day.geojson')),
    inserted: -1,
  },
  {
    source: 'usgs-earthquakes',
    file: sharedData('feeds/usgs_earthquakes/4.5_month.csv'),
    upstream: csvRows(sharedData('feeds/usgs_earthquakes/4.5_month.csv')),
    inserted: -1,
  },
  {
    source: 'nws-alerts',
    file: sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'),
    upstream: geojsonFeatures(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json')),
    inserted: -1,
  },
  { source: 'nhc', file: sharedData('hazard_history/hurricanes/bal092022.dat'), upstream: () => 1, inserted: 1 },
  {
    source: 'usgs-gauges',
    file: sharedData('feeds/usgs_water/waterservices_iv_01491000_01645000.json'),
    upstream: () => 2,
    inserted: 2,
  },
];

describe('ingest of the real feed samples', () => {
  for (const c of CASES) {
    it(`${c.source} ${path.basename(c.file)}: every record stored or skipped with a reason; re-ingest changes nothing`, async () => {
      const db = path.join(tempDir(), 'store.duckdb');
      const first = await cli(['--db', db, '--json', 'ingest', c.source, '--from', c.file], { CATINTEL_NOW: NOW });
      expect(first.stderr.split('\n').filter((l) => l && !l.startsWith('{"progress"'))).toEqual([]);
      expect(first.code).toBe(0);
      const run1 = first.json().runs[0];
      expect(run1.fetched).toBe(c.upstream());
      expect(run1.inserted + run1.skipped).toBe(run1.fetched);
      const reasonTotal = run1.skipped_reasons.reduce((n: number, r: { count: number }) => n + r.count, 0);
      expect(reasonTotal).toBe(run1.skipped);
      for (const r of run1.skipped_reasons) expect(r.reason.length).toBeGreaterThan(5);
      if (c.inserted >= 0) expect(run1.inserted).toBe(c.inserted);

      const second = await cli(['--db', db, '--json', 'ingest', c.source, '--from', c.file], { CATINTEL_NOW: NOW });
      const run2 = second.json().runs[0];
      expect(run2).toMatchObject({ inserted: 0, updated: 0, unchanged: run1.inserted, skipped: run1.skipped });

      const info = await cli(['--db', db, '--json', 'db', 'info'], { CATINTEL_NOW: NOW });
      expect(info.json().events).toBe(run1.inserted);
    });
  }
});

describe('unreadable input', () => {
  it('a missing file fails with one line and exit code 2', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const r = await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', '/nonexistent/feed.geojson']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot read --from \/nonexistent\/feed.geojson: no such file/);
  });

  it('a file of the wrong format fails with exit code 2 and changes nothing', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    await cli([
      '--db',
      db,
      'ingest',
      'usgs-earthquakes',
      '--from',
      sharedData('feeds/usgs_earthquakes/all_day.geojson'),
    ]);
    const before = (await cli(['--db', db, '--json', 'db', 'info'])).json().events;
    const r = await cli([
      '--db',
      db,
      'ingest',
      'usgs-earthquakes',
      '--from',
      sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect((await cli(['--db', db, '--json', 'db', 'info'])).json().events).toBe(before);
  });

  it('an unknown source is a usage error naming the choices', async () => {
    const r = await cli(['--db', path.join(tempDir(), 's.duckdb'), 'ingest', 'usgs-quakes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown source "usgs-quakes"; choose from usgs-earthquakes/);
  });
});
