/**
 * After `db seed`, a plain `events live` at today's date lists nothing: the snapshot's events are live
 * only at its instant. The CLI says so and how to see them (--as-of, CATINTEL_NOW); a missing store names
 * `catintel db seed`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers/cli.js';
import { FORT_MYERS_OPTIONS } from '../helpers/fort-myers-trigger.js';
import { seedStore } from '../helpers/store.js';
import { REPO_ROOT } from '../helpers/paths.js';

const AS_OF = fs.readFileSync(path.join(REPO_ROOT, 'data/seed/as-of.txt'), 'utf8').trim();
const TODAY = '2026-11-20T12:00:00Z';
let db: string;

beforeAll(async () => {
  db = path.join(tempDir(), 'seed.duckdb');
  const r = await cli(['--db', db, '--quiet', 'db', 'seed'], { CATINTEL_NOW: TODAY });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain(
    `The snapshot is as of ${AS_OF}; see its live events with: catintel --as-of ${AS_OF} events live`,
  );
});

describe('events live on a store whose events are not live now', () => {
  it('says the store holds events, none live now, and the command that shows them', async () => {
    const r = await cli(['--db', db, 'events', 'live'], { CATINTEL_NOW: TODAY });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('0 of 0 events\n');
    expect(r.stderr).toMatch(
      /^hint: The store holds 391 events, but none is live at 2026-11-20T12:00:00Z; its latest update is 2022-09-29T03:31:25Z\.\n/,
    );
    expect(r.stderr).toContain(
      `hint: See them as of the snapshot instant ${AS_OF}: catintel --as-of ${AS_OF} events live   (or CATINTEL_NOW=${AS_OF})`,
    );
  });

  it('the suggested --as-of shows them, and wins over CATINTEL_NOW', async () => {
    const r = await cli(['--db', db, '--as-of', AS_OF, 'events', 'live', '--limit', '5'], { CATINTEL_NOW: TODAY });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n5 of 389 events \(more: --cursor /);
    expect(r.stderr).toBe('');
    const json = await cli(['--db', db, '--as-of', AS_OF, '--json', 'events', 'live', '--limit', '1']);
    expect(Date.parse(json.json().timeStamp)).toBe(Date.parse(AS_OF));
  });

  it('no hint with --json, --quiet, or when filters exclude events that are live', async () => {
    for (const argv of [
      ['--json', 'events', 'live'],
      ['--quiet', 'events', 'live'],
    ]) {
      const r = await cli(['--db', db, ...argv], { CATINTEL_NOW: TODAY });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
    const filtered = await cli(['--db', db, '--as-of', AS_OF, 'events', 'live', '--event-type', 'volcano']);
    expect(filtered.stdout).toBe('0 of 0 events\n');
    expect(filtered.stderr).toBe('');
  });

  it('an empty store suggests db seed or ingest; a missing store names db seed', async () => {
    const empty = path.join(tempDir(), 'empty.duckdb');
    expect((await cli(['--db', empty, 'keys', 'list'])).code).toBe(2); // read-only: not created
    expect((await cli(['--db', empty, 'keys', 'create', '--tier', 'agency', '--name', 'x'])).code).toBe(0);
    const r = await cli(['--db', empty, 'events', 'live']);
    expect(r.stderr).toBe(
      'hint: The store holds no events: load the embedded snapshot with `catintel db seed` (offline) or the live feeds with `catintel ingest`.\n',
    );
    const missing = await cli(['--db', path.join(tempDir(), 'none.duckdb'), 'events', 'live']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /store .*none\.duckdb does not exist; create it with `catintel db seed` \(the embedded snapshot, offline\) or `catintel ingest`/,
    );
  });

  it('refuses an --as-of that is not an ISO 8601 time, naming it', async () => {
    const r = await cli(['--db', db, '--as-of', 'yesterday', 'events', 'live']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'catintel: --as-of "yesterday" is not an ISO 8601 UTC time such as 2022-09-29T03:32:09Z [invalid_parameter]\n',
    );
  });
});

describe('trigger evaluate on a store whose events are not live now (the walk-through of docs/usage.md without make run)', () => {
  it('says none is live and how to evaluate at the snapshot instant; there the trigger sees Ian', async () => {
    const store = await seedStore(); // `db seed` at AS_OF, the seed's instant
    const created = await cli(['--db', store, '--json', 'trigger', 'create', ...FORT_MYERS_OPTIONS], {
      CATINTEL_NOW: AS_OF,
    });
    expect(created.code, created.stderr).toBe(0);
    const today = await cli(['--db', store, 'trigger', 'evaluate', '--fail-on-breach'], { CATINTEL_NOW: TODAY });
    expect(today.code).toBe(0);
    expect(today.stdout).toMatch(/1 trigger\(s\) against 0 live event\(s\)/);
    expect(today.stderr).toContain('but none is live at 2026-11-20T12:00:00Z');
    expect(today.stderr).toContain(
      `hint: See them as of the snapshot instant ${AS_OF}: catintel --as-of ${AS_OF} trigger evaluate   (or CATINTEL_NOW=${AS_OF})`,
    );
    const then = await cli(['--db', store, '--as-of', AS_OF, 'trigger', 'evaluate', '--fail-on-breach']);
    expect(then.code).toBe(3);
    expect(then.stdout).toContain('TRIGGERED: Fort Myers 100 kt');
    expect(then.stderr).toBe('');
  });
});
