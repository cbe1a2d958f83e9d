/**
 * Without --json, every command prints text a person can read (tables, key: value), never raw JSON; with
 * --json, the same commands print the JSON document. In tables, no two columns run together.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers/cli.js';
import { seedStore } from '../helpers/store.js';
import { REPO_ROOT } from '../helpers/paths.js';

const AS_OF = fs.readFileSync(path.join(REPO_ROOT, 'data/seed/as-of.txt'), 'utf8').trim();
const env = { CATINTEL_NOW: AS_OF, CATINTEL_JWT_SECRET: 'a-test-secret-of-at-least-32-characters!!' };
const IAN = 'hurricane-ian-al09-2022-2022-09-22-91a844';
let db: string;

beforeAll(async () => {
  db = await seedStore(); // `db seed` at AS_OF, the seed's instant
});

/** Not JSON: a person's text. */
function isText(stdout: string): boolean {
  try {
    JSON.parse(stdout);
    return false;
  } catch {
    return stdout.length > 0 && !stdout.trimStart().startsWith('{');
  }
}

/** The character offsets at which a table's header names start. */
const columnStarts = (header: string, names: string[]) => names.map((n) => header.indexOf(n));

async function both(argv: string[]) {
  const text = await cli(['--db', db, ...argv], env);
  const json = await cli(['--db', db, '--json', ...argv], env);
  expect(text.code, `${argv.join(' ')}: ${text.stderr}`).toBe(0);
  expect(json.code, argv.join(' ')).toBe(0);
  expect(isText(text.stdout), `${argv.join(' ')} prints text:\n${text.stdout}`).toBe(true);
  expect(() => json.json(), `${argv.join(' ')} --json prints JSON`).not.toThrow();
  return { text: text.stdout, json: json.json() };
}

describe('human output', () => {
  it('events nearby: a padded table whose severity and distance columns are apart and aligned', async () => {
    const { text } = await both(['events', 'nearby', '--lat', '26.64', '--lng', '-81.87', '--radius-km', '300']);
    const lines = text.trimEnd().split('\n');
    const header = lines[0];
    const starts = columnStarts(header, ['started (UTC)', 'status', 'type', 'severity', 'distance', 'title']);
    expect(starts.every((s, i) => s >= 0 && (i === 0 || s > starts[i - 1]))).toBe(true);
    const rows = lines.filter((l) => /^\d{4}-\d{2}-\d{2} /.test(l));
    expect(rows.length).toBeGreaterThan(1);
    const distanceEnd = header.indexOf('distance') + 'distance'.length;
    for (const row of rows) {
      expect(row).toMatch(/\S  +\d+\.\d km  +\S/); // severity, then at least two blanks, then the distance
      expect(row.slice(header.indexOf('title'))).not.toMatch(/^ /); // titles start in their column
      expect(row.slice(distanceEnd - 2, distanceEnd)).toBe('km'); // distances right-aligned under their header
    }
    expect(text).toMatch(/Hurricane Ian \(AL09 2022\)\n {4}91a84440-0bef-5c8a-b29d-d19f8b4526a0\n/);
  });

  it('events live marks a weather alert whose onset is still ahead as upcoming', async () => {
    const { text, json } = await both(['events', 'live', '--limit', '1000']);
    const upcoming = json.features.filter((f: { properties: { upcoming: boolean } }) => f.properties.upcoming);
    expect(upcoming.length).toBeGreaterThan(0);
    for (const f of upcoming)
      expect(text).toMatch(
        new RegExp(
          `\\n${f.properties.started_at.slice(0, 16).replace('T', ' ')}  upcoming  [a-z_]+ .*\\n {4}${f.id}\\n`,
        ),
      );
    expect(text.match(/ {2}upcoming {2}/g)).toHaveLength(upcoming.length);
  });

  it('events show, rings and score', async () => {
    const show = await both(['events', 'show', IAN]);
    expect(show.text).toMatch(/^Hurricane Ian \(AL09 2022\)\n {2}id: +91a84440-0bef-5c8a-b29d-d19f8b4526a0\n/);
    expect(show.text).toMatch(/\n {2}severity_label: +Category 3\n/);
    expect(show.text).toMatch(/\ndetails:\n {2}feed: +atcf_bdeck\n/);
    expect(show.text).toMatch(
      /\nobservations \(latest 12 of 148; --json for all\):\n {2}observed \(UTC\) +kind +value +unit +lat +lng\n/,
    );
    expect(show.json.properties.observations).toHaveLength(148);

    const rings = await both(['events', 'rings', IAN]);
    expect(rings.text).toMatch(/^kind +threshold +radius +label +ring id\n/);
    expect(rings.text).toMatch(/\nwind_kt +34 kt +407\.4 km +34 kt \(tropical-storm-force\) winds +[0-9a-f-]{36}\n/);
    expect(rings.json.features).toHaveLength(3);

    const score = await both(['events', 'score', IAN]);
    expect(score.text).toMatch(/^Hurricane Ian \(AL09 2022\): hurricane, active, id 91a84440-/);
    // The damage ratio and where it came from: the model package, or the baseline where the table has none.
    expect(score.text).toMatch(/\n {2}hurricane_wind +\d+\.\d\d +[\d.]+ +[\d.]+% +(model|baseline) +medium\n/);
    expect(score.text).toMatch(/\n {2}drought +\d+\.\d\d +[\d.]+ +- +baseline +low\n/); // no building damage ratio in the data
  });

  it('score point, with the climate change column for a scenario', async () => {
    const { text, json } = await both([
      'score',
      'point',
      '--lat',
      '25.77',
      '--lng',
      '-80.19',
      '--scenario',
      'ssp585',
      '--horizon',
      '2080',
    ]);
    expect(text).toMatch(
      /^Hazard scores \(0-10\) at 25\.77, -80\.19: scenario ssp585, horizon 2080\n {2}peril +score +percentile +annual damage +from +confidence +climate change\n/,
    );
    const wind = json.perils.find((p: { peril: string }) => p.peril === 'hurricane_wind');
    expect(text).toMatch(
      new RegExp(
        `\n {2}hurricane_wind +${wind.score.toFixed(2)} +[\\d.]+ +[\\d.]+% +(model|baseline) +medium +[+-]\\d+\\.\\d\\d\\n`,
      ),
    );
  });

  it('db info, and the bulk summary as key: value lines', async () => {
    const info = await both(['db', 'info']);
    expect(info.text).toMatch(/^path: +.*seed\.duckdb\nschema_version: +\d+\nevents: +391\n/);
    expect(info.text).toMatch(/\nevents by type:\n {2}type +events\n {2}earthquake +239\n/);
    expect(info.text).toMatch(
      /\nrecent ingest runs:\n {2}started \(UTC\) +source +status +new +updated +unchanged +skipped\n/,
    );

    const dir = tempDir();
    const input = path.join(dir, 'sites.csv');
    fs.writeFileSync(input, 'id,latitude,longitude\n1,25.77,-80.19\n2,37.77,-122.42\n3,nope,1\n');
    const text = await cli(['--quiet', 'score', '--input', input, '--out', path.join(dir, 'out')]);
    expect(isText(text.stdout), text.stdout + text.stderr).toBe(true);
    expect(text.stdout).toMatch(/^rows: +3\nscored: +2\nerrors: +1\n/);
    expect(text.stdout).toMatch(/\noutputs:\n/);
  });

  it('keys create, list, revoke and token issue', async () => {
    const store = path.join(tempDir(), 'keys.duckdb');
    const created = await cli(['--db', store, 'keys', 'create', '--tier', 'agency', '--name', 'acme nightly'], env);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^key: ci_live_\S+\nStore this key now: it is not shown again\./);
    expect(created.stdout).toMatch(/\nid: +key_\w{16}\nname: +acme nightly\ntier: +agency\n/);
    const id = /\nid: +(key_\w{16})/.exec(created.stdout)![1];

    const list = await cli(['--db', store, 'keys', 'list'], env);
    expect(list.stdout).toMatch(
      new RegExp(
        `^id +name +tier +account +kind +prefix +created \\(UTC\\) +revoked\\n${id}  acme nightly  agency  local +live +ci_live_\\w{4}\\.\\.\\.  `,
      ),
    );
    expect(list.stdout).toMatch(/\n1 keys\n$/);

    const revoked = await cli(['--db', store, 'keys', 'revoke', id], env);
    expect(revoked.stdout).toMatch(new RegExp(`^Revoked ${id} at \\S+Z\\.\\n {2}id: +${id}\\n`));

    const token = await cli(['token', 'issue', '--tier', 'analyst', '--sub', 'alice@example.com'], env);
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(
      /^token: eyJ[\w-]+\.[\w-]+\.[\w-]+\n\ntoken_type: +Bearer\nsub: +alice@example\.com\naccount: +jwt:catintel\|alice@example\.com\ntier: +analyst\nexpires_at: +\S+\n/,
    );
    const asJson = await cli(['--json', 'token', 'issue', '--tier', 'analyst', '--sub', 'alice@example.com'], env);
    expect(asJson.json().token).toMatch(/^eyJ/);
  });
});
