/**
 * Terminal escapes in feed text (issue 27 item 5): a real USGS day feed with one earthquake's title and
 * place altered to hold ESC[31m (red), a CR and a NUL. The text output of `events live` and `events show`
 * holds no raw control character (the title shows `\u001b[31m`, `\r`, `\u0000` instead) and keeps one row
 * per event; `--json` still prints the title exactly as stored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers/cli.js';
import { sharedData } from '../helpers/paths.js';

const NOW = '2022-09-29T03:32:09Z'; // all_day.geojson holds earthquakes up to this instant
const HOSTILE = 'M 1.0 - \u001b[31mRED\r\u0000 of Cobb, CA';
/** Any C0 control but LF (the line separator), DEL, or a C1 control. */
// eslint-disable-next-line no-control-regex -- finding raw control characters in the output is the test
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('control characters in feed titles, shown on a terminal', () => {
  let db: string;
  const run = (argv: string[]) => cli(['--db', db, ...argv], { CATINTEL_NOW: NOW });
  beforeAll(async () => {
    const dir = tempDir('catintel-escapes-');
    db = path.join(dir, 'store.duckdb');
    const feed = JSON.parse(fs.readFileSync(sharedData('feeds/usgs_earthquakes/all_day.geojson'), 'utf8'));
    feed.features[0].properties.title = HOSTILE;
    feed.features[0].properties.place = '7km WNW of \u001b]0;pwned\u0007Cobb\r, CA';
    const file = path.join(dir, 'all_day.geojson');
    fs.writeFileSync(file, JSON.stringify(feed));
    const r = await run(['--quiet', 'ingest', 'usgs-earthquakes', '--from', file]);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it('events live: no raw control character, one row per event, the title shown escaped', async () => {
    const text = await run(['events', 'live', '--event-type', 'earthquake', '--limit', '1000']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toMatch(RAW_CONTROL);
    expect(text.stdout).toContain('M 1.0 - \\u001b[31mRED\\r\\u0000 of Cobb, CA');
    const json = (await run(['--json', 'events', 'live', '--event-type', 'earthquake', '--limit', '1000'])).json();
    // A header, then two lines per event (its row, its id), then the count.
    expect(text.stdout.trimEnd().split('\n')).toHaveLength(1 + 2 * json.numberReturned + 1);
    expect(json.features.map((f: any) => f.properties.title)).toContain(HOSTILE); // --json: exact
  });

  it('events show: the card holds no raw control character either', async () => {
    const json = (await run(['--json', 'events', 'live', '--event-type', 'earthquake', '--limit', '1000'])).json();
    const id = json.features.find((f: any) => f.properties.title === HOSTILE).properties.id;
    const card = await run(['events', 'show', id]);
    expect(card.code, card.stderr).toBe(0);
    expect(card.stdout).not.toMatch(RAW_CONTROL);
    expect(card.stdout.split('\n')[0]).toBe('M 1.0 - \\u001b[31mRED\\r\\u0000 of Cobb, CA');
  });
});
