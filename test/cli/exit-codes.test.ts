/**
 * Errors a script can rely on (docs/contract.md#cli-exit-codes): an unknown id is bad input (exit 2), usage errors print the
 * problem object with --json, `--help` on a command that does not exist is an error, and --version works.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers/cli.js';
import { REPO_ROOT, sharedData } from '../helpers/paths.js';
import { WEEK_NOW } from '../helpers/store.js';

let db: string;
beforeAll(async () => {
  db = path.join(tempDir(), 'week.duckdb');
  const r = await cli(
    ['--db', db, 'ingest', 'usgs-earthquakes', '--from', sharedData('feeds/usgs_earthquakes/all_day.geojson')],
    { CATINTEL_NOW: WEEK_NOW },
  );
  expect(r.code, r.stderr).toBe(0);
});

describe('exit codes', () => {
  it('an unknown event id or key id exits 2 (bad input), naming the id', async () => {
    for (const argv of [
      ['events', 'show', 'nope'],
      ['events', 'rings', 'nope'],
      ['events', 'score', 'nope'],
      ['keys', 'revoke', 'key_0000000000000000'],
    ]) {
      const r = await cli(['--db', db, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/(nope|key_0000000000000000).*\[not_found\]\n$/);
    }
  });

  it('--help on a command that does not exist says so and exits 2 instead of printing the root help', async () => {
    for (const argv of [
      ['frobnicate', '--help'],
      ['help', 'frobnicate'],
      ['frobnicate'],
      ['events', 'bogus', '--help'],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^catintel: unknown command '(frobnicate|events bogus)'; the commands of catintel( events)? are [a-z0-9, ]+; see --help \[invalid_request\]\n$/,
      );
    }
    const known = await cli(['events', '--help']);
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/Usage: catintel events/);
    const optionValue = await cli(['--db', path.join(tempDir(), 'help.duckdb'), 'events', 'live', '--help']);
    expect(optionValue.code).toBe(0); // the value of --db is not taken for a command
  });

  it('with --json, usage errors print the problem object on stderr', async () => {
    for (const argv of [
      ['--json', 'frobnicate'],
      ['--json', 'keys', 'create', '--bogus'],
      ['--json', 'events', 'show'],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      const problem = JSON.parse(r.stderr);
      expect(problem).toMatchObject({ status: 400, code: 'invalid_request', title: 'Invalid request' });
      expect(problem.detail).toMatch(/frobnicate|--bogus|missing required argument 'id'/);
    }
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
  });
});
