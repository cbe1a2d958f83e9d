/**
 * Every file under ../shared/data/feeds, and what catintel does with it, through the real CLI: ingested
 * by a source with exact record and skip counts and every skip reason (records + skipped = the upstream
 * items, counted without our parsers), refused with exit code 2 and one line naming what the file is,
 * reference data that `make data` reads, or a feed catintel does not ingest. The list is read from the
 * disk, so a sample added later fails here until it is accounted for (here and in docs/sources/README.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { SOURCE_IDS } from '../src/domain/event.js';
import { cli, tempDir } from './helpers/cli.js';
import { FIXTURES, REPO_ROOT, sharedData } from './helpers/paths.js';

const FEEDS = sharedData('feeds');
const NOW = '2026-01-01T00:00:00Z';

type Fate =
  | {
      fate: 'ingested';
      source: string;
      /** Upstream items in the file, counted independently of our parsers. */
      upstream: () => number;
      records: number;
      /** Every skip reason with its count. */
      skipped: Array<[reason: string, count: number]>;
    }
  | { fate: 'refused'; source: string; message: RegExp }
  | { fate: 'reference'; consumers: string[]; refusedBy: { source: string; message: RegExp } }
  | { fate: 'not_ingested'; what: string };

const read = (rel: string) => fs.readFileSync(path.join(FEEDS, rel), 'utf8');
const features = (rel: string) => () => (JSON.parse(read(rel)).features as unknown[]).length;
const csvRows = (rel: string) => () => read(rel).trim().split('\n').length - 1;
const rssItems = (rel: string) => () => read(rel).match(/<item>/g)?.length ?? 0;
const wmlSites = (rel: string) => () =>
  new Set(
    (JSON.parse(read(rel)).value.timeSeries as Array<{ sourceInfo: { siteCode: Array<{ value: string }> } }>).map(
      (t) => t.sourceInfo.siteCode[0].value,
    ),
  ).size;
/** Storms in an NHC GIS zip: distinct ATCF ids among its _5day_pts shapefiles (names only, nothing decompressed). */
const zipStorms = (rel: string) => () => {
  const ids = new Set<string>();
  unzipSync(new Uint8Array(fs.readFileSync(path.join(FEEDS, rel))), {
    filter: (f) => (/_5day_pts\.shp$/.test(f.name) && ids.add(f.name.slice(0, 8)), false),
  });
  return ids.size;
};
const notAPeril = (event: string, n: number): [string, number] => [`not a catastrophe peril (${event})`, n];

const INVENTORY: Record<string, Fate> = {
  'usgs_earthquakes/all_week.geojson': {
    fate: 'ingested',
    source: 'usgs-earthquakes',
    upstream: features('usgs_earthquakes/all_week.geojson'),
    records: 3209,
    skipped: [
      ['not an earthquake (quarry blast)', 14],
      ['not an earthquake (explosion)', 13],
    ],
  },
  'usgs_earthquakes/all_day.geojson': {
    fate: 'ingested',
    source: 'usgs-earthquakes',
    upstream: features('usgs_earthquakes/all_day.geojson'),
    records: 239,
    skipped: [['not an earthquake (quarry blast)', 5]],
  },
  'usgs_earthquakes/4.5_month.csv': {
    fate: 'ingested',
    source: 'usgs-earthquakes',
    upstream: csvRows('usgs_earthquakes/4.5_month.csv'),
    records: 527,
    skipped: [],
  },
  'nws_alerts/alerts_active_national_templated-times.json': {
    fate: 'ingested',
    source: 'nws-alerts',
    upstream: features('nws_alerts/alerts_active_national_templated-times.json'),
    records: 149,
    skipped: [
      notAPeril('Air Quality Alert', 128),
      notAPeril('Small Craft Advisory', 71),
      notAPeril('Dense Smoke Advisory', 11),
      notAPeril('Red Flag Warning', 11),
      notAPeril('Special Weather Statement', 10),
      ['duplicate of an earlier feature in the same body', 3],
      notAPeril('Rip Current Statement', 3),
      notAPeril('Beach Hazards Statement', 2),
      notAPeril('Fire Weather Watch', 2),
      notAPeril('Special Marine Warning', 2),
      notAPeril('Civil Emergency Message', 1),
      notAPeril('Gale Warning', 1),
      notAPeril('Hydrologic Outlook', 1),
      notAPeril('Wind Advisory', 1),
    ],
  },
  'nhc/index-at_2024-09-02.xml': {
    fate: 'ingested',
    source: 'nhc',
    upstream: rssItems('nhc/index-at_2024-09-02.xml'),
    records: 0,
    skipped: [
      ['tropical weather outlook, not a storm ("Atlantic Tropical Weather Outlook")', 1],
      ['no-storm notice, not a storm ("There are no tropical cyclones at this time.")', 1],
    ],
  },
  'nhc/gtwo_2024-09-02.xml': {
    fate: 'ingested',
    source: 'nhc',
    upstream: rssItems('nhc/gtwo_2024-09-02.xml'),
    records: 0,
    skipped: ['NHC Atlantic Outlook', 'NHC Eastern North Pacific Outlook', 'CPHC Central North Pacific Outlook'].map(
      (t) => [`tropical weather outlook, not a storm ("${t}")`, 1],
    ),
  },
  'nhc/gis/ep212018_5day_latest.zip': {
    fate: 'ingested',
    source: 'nhc',
    upstream: zipStorms('nhc/gis/ep212018_5day_latest.zip'),
    records: 1,
    skipped: [],
  },
  'nhc/gis/wsp_120hr5km_latest_2018100818.zip': {
    fate: 'refused',
    source: 'nhc',
    message:
      /^wsp_120hr5km_latest_2018100818\.zip holds NHC wind speed probability shapefiles \(2018100818_wsp34knt120hr_5km and 2 more\): probability bands for all active storms, not a storm advisory; expected NHC CurrentStorms\.json/,
  },
  'usgs_water/waterservices_iv_01491000_01645000.json': {
    fate: 'ingested',
    source: 'usgs-gauges',
    upstream: wmlSites('usgs_water/waterservices_iv_01491000_01645000.json'),
    records: 2,
    skipped: [],
  },
  'usgs_water/waterservices_dv.json': {
    fate: 'ingested',
    source: 'usgs-gauges',
    upstream: wmlSites('usgs_water/waterservices_dv.json'),
    records: 0,
    skipped: [
      [
        'no daily mean gage height (00065) in this daily-values (nwis/dv) file, only daily mean discharge (00060); flood categories need stage',
        2,
      ],
    ],
  },
  'usgs_water/waterservices_peaks.txt': {
    fate: 'refused',
    source: 'usgs-gauges',
    message:
      /^file:\/\/\S+waterservices_peaks\.txt: a USGS annual peak-flow table \(RDB text, nwis\/peak\): one historical peak per water year, not live gauge readings; usgs-gauges reads NWIS instantaneous values as WaterML-JSON/,
  },
  'usgs_water/waterservices_site.txt': {
    fate: 'refused',
    source: 'usgs-gauges',
    message:
      /^file:\/\/\S+waterservices_site\.txt: a USGS site-service table \(RDB text, nwis\/site\): site names and locations, no gauge readings; usgs-gauges reads/,
  },
  'nwps/nwps_all_gauges_report.csv': {
    fate: 'reference',
    consumers: ['scripts/build-flood-stages.ts', 'Makefile'],
    refusedBy: {
      source: 'usgs-gauges',
      message:
        /: the NOAA NWPS all-gauges report \(CSV\): flood-category reference data that `make data` builds into data\/flood-stages\.csv, not gauge readings/,
    },
  },
  'nasa_eonet/eonet_v3_events.json': { fate: 'not_ingested', what: 'NASA EONET v3 events' },
};

function listFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    );
}

async function ingest(source: string, file: string, json: boolean, now = NOW) {
  const db = path.join(tempDir(), 'store.duckdb');
  return cli(['--db', db, ...(json ? ['--json'] : []), 'ingest', source, '--from', file], { CATINTEL_NOW: now });
}

/** Exit 2, nothing on stdout, one line `catintel: <message> [invalid_input]`. */
async function expectRefused(source: string, file: string, message: RegExp) {
  const r = await ingest(source, file, false);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^catintel: .* \[invalid_input\]$/);
  expect(lines[0].replace(/^catintel: /, '').replace(/ \[invalid_input\]$/, '')).toMatch(message);
}

const byReason = (a: [string, number], b: [string, number]) => a[0].localeCompare(b[0]);

describe('feed inventory: every sample under ../shared/data/feeds is accounted for', () => {
  it('lists exactly the files on disk, and docs/sources/README.md names each one', () => {
    expect(listFiles(FEEDS).sort()).toEqual(Object.keys(INVENTORY).sort());
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'docs/sources/README.md'), 'utf8');
    for (const rel of Object.keys(INVENTORY)) expect(readme, rel).toContain(`\`${rel}\``);
  });

  for (const [rel, fate] of Object.entries(INVENTORY)) {
    const file = path.join(FEEDS, rel);
    if (fate.fate === 'ingested') {
      it(`${rel}: ingested by ${fate.source}, ${fate.records} records, ${fate.skipped.reduce((n, [, c]) => n + c, 0)} skipped with reasons`, async () => {
        const r = await ingest(fate.source, file, true);
        expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('{"progress"'))).toEqual([]);
        expect(r.code).toBe(0);
        const run = r.json().runs[0];
        const skippedTotal = fate.skipped.reduce((n, [, c]) => n + c, 0);
        expect(run.fetched).toBe(fate.upstream());
        expect(run.fetched).toBe(fate.records + skippedTotal);
        expect({ inserted: run.inserted, skipped: run.skipped }).toEqual({
          inserted: fate.records,
          skipped: skippedTotal,
        });
        const reasons = (run.skipped_reasons as Array<{ reason: string; count: number }>).map((x): [string, number] => [
          x.reason,
          x.count,
        ]);
        expect(reasons.sort(byReason)).toEqual([...fate.skipped].sort(byReason));
      });
    } else if (fate.fate === 'refused') {
      it(`${rel}: refused by ${fate.source} with exit code 2 and one line naming it`, () =>
        expectRefused(fate.source, file, fate.message));
    } else if (fate.fate === 'reference') {
      it(`${rel}: reference data read by make data (${fate.consumers.join(', ')}), not a feed to ingest`, async () => {
        for (const c of fate.consumers)
          expect(fs.readFileSync(path.join(REPO_ROOT, c), 'utf8'), c).toContain(path.basename(rel));
        expect(fs.readFileSync(path.join(REPO_ROOT, 'Makefile'), 'utf8')).toMatch(
          /^data:.*\n(\t.*\n)*\tnode dist\/scripts\/build-flood-stages\.js --from \S*nwps_all_gauges_report\.csv/m,
        );
        await expectRefused(fate.refusedBy.source, file, fate.refusedBy.message);
      });
    } else {
      it(`${rel}: ${fate.what}, not a feed catintel ingests: every source refuses it with exit code 2`, async () => {
        for (const source of SOURCE_IDS) await expectRefused(source, file, /./);
      });
    }
  }
});

describe('feed inventory: a zip goes only to the source that reads zips', () => {
  it('usgs-earthquakes refuses the NHC advisory zip before parsing, exit code 2', () =>
    expectRefused(
      'usgs-earthquakes',
      path.join(FEEDS, 'nhc/gis/ep212018_5day_latest.zip'),
      /^--from \S+ep212018_5day_latest\.zip is a zip archive, which usgs-earthquakes does not read \(it reads .*\); unzip it and pass the feed file$/,
    ));
});

describe('feed inventory: the NHC formats of one storm update one event', () => {
  it('the RSS summary (hand-written fixture) and the real GIS zip of Sergio advisory 38 give one event, with the forecast cone', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const now = { CATINTEL_NOW: '2018-10-08T22:00:00Z' };
    const run = async (from: string) => {
      const r = await cli(['--db', db, '--json', 'ingest', 'nhc', '--from', from], now);
      expect(r.code, r.stderr).toBe(0);
      return r.json().runs[0];
    };
    expect(await run(path.join(FIXTURES, 'feeds/nhc/index-ep_2018-10-08_sergio.xml'))).toMatchObject({
      inserted: 1,
      skipped: 3,
    });
    // Same advisory time, other content: it replaces the RSS version of the storm.
    expect(await run(path.join(FEEDS, 'nhc/gis/ep212018_5day_latest.zip'))).toMatchObject({ inserted: 0, updated: 1 });
    const live = (await cli(['--db', db, '--json', 'events', 'live'], now)).json();
    expect(live.features.map((f: { properties: { title: string } }) => f.properties.title)).toEqual([
      'Hurricane Sergio (EP21 2018)',
    ]);
    const rings = (await cli(['--db', db, '--json', 'events', 'rings', live.features[0].properties.id], now)).json();
    // The RSS advisory's wind rings stay; the cone is added as its own ring kind (issue 8 item 5).
    expect(
      rings.features.map((f: { properties: { kind: string; label: string } }) => [
        f.properties.kind,
        f.properties.label,
      ]),
    ).toEqual([
      ['wind_kt', '64 kt (hurricane-force) winds (parametric estimate)'],
      ['wind_kt', '50 kt (strong tropical-storm-force) winds (parametric estimate)'],
      ['wind_kt', '34 kt (tropical-storm-force) winds (parametric estimate)'],
      ['forecast_cone', '5-day forecast cone'],
    ]);
  });
});
