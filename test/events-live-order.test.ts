/**
 * Issue 7 item 13: "newest first" in /events/live means the time an event last changed at or before now.
 * The seed snapshot's NWS bundle holds watches and advisories issued for onsets up to days ahead; they must
 * not top the list, they are marked upcoming, and paging by cursor walks the same order without gaps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';
import { appOn } from './helpers/store.js';

const AS_OF = fs.readFileSync(path.join(REPO_ROOT, 'data/seed/as-of.txt'), 'utf8').trim();
let db: string;

interface Props {
  id: string;
  started_at: string;
  updated_at: string;
  upcoming: boolean;
  title: string;
}
const props = (body: any): Props[] => body.features.map((f: any) => f.properties);
/** The latest of started_at and updated_at that is not after now (what the list is sorted by). */
const lastChanged = (p: Props) =>
  Math.max(...[p.started_at, p.updated_at].map(Date.parse).filter((t) => t <= Date.parse(AS_OF)));

beforeAll(async () => {
  db = path.join(tempDir(), 'seed.duckdb');
  const r = await cli(['--db', db, '--json', 'db', 'seed']);
  if (r.code !== 0) throw new Error(r.stderr);
});

describe('events live order', () => {
  it('puts what last happened first, not alerts whose onset is days ahead, and marks those upcoming', async () => {
    const live = await cli(['--db', db, '--json', 'events', 'live', '--limit', '1000'], { CATINTEL_NOW: AS_OF });
    expect(live.code, live.stderr).toBe(0);
    const all = props(live.json());
    const future = all.filter((p) => Date.parse(p.started_at) > Date.parse(AS_OF));
    expect(future.length).toBeGreaterThan(10); // the seed's NWS bundle has watches for later onsets
    expect(future.every((p) => p.upcoming)).toBe(true);
    expect(all.filter((p) => !future.includes(p)).every((p) => p.upcoming === false)).toBe(true);

    // The first rows started or were updated last; none of them is an onset still ahead.
    expect(all.slice(0, 5).some((p) => p.upcoming)).toBe(false);
    const keys = all.map(lastChanged);
    expect(keys.every((k, i) => i === 0 || keys[i - 1] >= k)).toBe(true);
  });

  it('pages by cursor through exactly the one-page order (HTTP)', async () => {
    const { get, close } = await appOn(db, AS_OF);
    try {
      const whole = props(await (await get('/api/v1/events/live?limit=1000')).json());
      const walked: Props[] = [];
      let url: string | undefined = '/api/v1/events/live?limit=7';
      while (url) {
        const res = await get(url);
        expect(res.status).toBe(200);
        const body = await res.json();
        walked.push(...props(body));
        url = body.links.find((l: { rel: string }) => l.rel === 'next')?.href;
      }
      expect(walked.map((p) => p.id)).toEqual(whole.map((p) => p.id));
    } finally {
      await close();
    }
  });
});
