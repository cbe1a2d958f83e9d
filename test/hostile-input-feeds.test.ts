/**
 * Hostile feed records (issue 9 part 6): the real sample of every source, its records mutated at random
 * (fields set to NaN, Infinity, huge numbers, wrong types, SQL text, traversal, control characters, deep
 * nesting; keys deleted; records replaced), and whole bodies broken (truncated, an HTML error page, another
 * feed's format). Each source's parser either reads the body (a bad record skipped with a reason) or refuses
 * it with a clear invalid_input, never a TypeError; a full ingest of the mutated body into a store ends the
 * same way and leaves a store every read query still answers. Seeded and bounded.
 */
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { CatintelError } from '../src/errors.js';
import { ingestSource } from '../src/ingest/run.js';
import { listEvents } from '../src/store/events-read.js';
import { Store } from '../src/store/db.js';
import { SOURCES } from '../src/sources/registry.js';
import type { SourceModule } from '../src/sources/types.js';
import { parseGuarded } from '../src/sources/guard.js';
import { tempDir } from './helpers/cli.js';
import { FIXTURES, sharedData } from './helpers/paths.js';
import { deepJson, HOSTILE_STRINGS, hostileJsonValue, SEED } from './helpers/hostile.js';

interface Sample {
  source: SourceModule;
  file: string;
  now: string;
  /** Where the records sit in the JSON document (text formats: undefined). */
  records?: string[];
}

const SAMPLES: Sample[] = [
  {
    source: SOURCES['usgs-earthquakes'],
    file: sharedData('feeds/usgs_earthquakes/all_day.geojson'),
    now: '2022-09-29T03:32:09Z',
    records: ['features'],
  },
  {
    source: SOURCES['usgs-earthquakes'],
    file: sharedData('feeds/usgs_earthquakes/4.5_month.csv'),
    now: '2022-09-29T03:32:09Z',
  },
  {
    source: SOURCES['nws-alerts'],
    file: sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'),
    now: '2025-01-01T00:00:00Z',
    records: ['features'],
  },
  {
    source: SOURCES['nifc-wildfires'],
    file: path.join(FIXTURES, 'feeds/nifc/wfigs_incident_locations.geojson'),
    now: '2025-01-01T00:00:00Z',
    records: ['features'],
  },
  {
    source: SOURCES.nhc,
    file: path.join(FIXTURES, 'feeds/nhc/CurrentStorms.json'),
    now: '2025-01-01T00:00:00Z',
    records: ['activeStorms'],
  },
  {
    source: SOURCES.nhc,
    file: path.join(FIXTURES, 'feeds/nhc/index-ep_2018-10-08_sergio.xml'),
    now: '2018-10-09T00:00:00Z',
  },
  { source: SOURCES.nhc, file: sharedData('hazard_history/hurricanes/bal092022.dat'), now: '2022-10-05T00:00:00Z' },
  {
    source: SOURCES['usgs-gauges'],
    file: sharedData('feeds/usgs_water/waterservices_iv_01491000_01645000.json'),
    now: '2025-01-01T00:00:00Z',
    records: ['value', 'timeSeries'],
  },
];

const MAX_RECORDS = 12;
const MAX_TEXT_LINES = 200;

/** Every leaf path of a value, up to a depth (where a mutation can land). */
function leafPaths(
  v: unknown,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
  depth = 0,
): (string | number)[][] {
  if (depth > 8 || v === null || typeof v !== 'object') {
    out.push(prefix);
    return out;
  }
  const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v as object);
  out.push(prefix); // the container itself can be replaced too
  for (const [k, x] of entries.slice(0, 40)) leafPaths(x, [...prefix, k], out, depth + 1);
  return out;
}

function setPath(root: any, p: (string | number)[], value: unknown): any {
  if (p.length === 0) return value;
  let o = root;
  for (const k of p.slice(0, -1)) o = o?.[k];
  if (o && typeof o === 'object') {
    if (value === undefined) delete o[p[p.length - 1]];
    else o[p[p.length - 1]] = value;
  }
  return root;
}

interface Prepared {
  sample: Sample;
  base: string;
  doc?: any;
  paths: (string | number)[][];
}

function prepare(s: Sample): Prepared {
  const text = fs.readFileSync(s.file, 'utf8');
  if (!s.records) {
    const base = text.split(/\r?\n/).slice(0, MAX_TEXT_LINES).join('\n');
    return { sample: s, base, paths: [] };
  }
  const doc = JSON.parse(text);
  let arr = doc;
  for (const k of s.records.slice(0, -1)) arr = arr[k];
  const key = s.records[s.records.length - 1];
  arr[key] = arr[key].slice(0, MAX_RECORDS);
  const paths = leafPaths(doc);
  return { sample: s, base: JSON.stringify(doc), doc, paths };
}

const hostileLeaf = fc.oneof(
  hostileJsonValue,
  fc.constant(undefined),
  // eslint-disable-next-line no-loss-of-precision -- 2^53 + 1 is sent on purpose: a number JSON carries but a double cannot
  fc.constantFrom(1e308, -1e308, 9007199254740993, 1e21, -90.0000001, 180.0000001),
);

/** A mutated body: JSON leaves replaced, or text lines and fields broken. */
function mutated(p: Prepared): fc.Arbitrary<string> {
  if (p.doc) {
    return fc.array(fc.tuple(fc.nat(p.paths.length - 1), hostileLeaf), { minLength: 1, maxLength: 6 }).map((edits) => {
      let doc = JSON.parse(p.base);
      for (const [i, v] of edits) doc = setPath(doc, p.paths[i], v);
      // NaN and Infinity have no JSON form; a broken feed sends them as bare words.
      return (
        JSON.stringify(doc, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? `__${v}__` : v)) ?? ''
      ).replace(/"__(NaN|Infinity|-Infinity)__"/g, '$1');
    });
  }
  const lines = p.base.split('\n');
  return fc
    .array(
      fc.tuple(
        fc.nat(lines.length - 1),
        fc.nat(40),
        fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 2000)),
      ),
      { minLength: 1, maxLength: 6 },
    )
    .map((edits) => {
      const out = [...lines];
      for (const [line, field, value] of edits) {
        const sep = out[line].includes(',') ? ',' : out[line].includes('>') ? '>' : ' ';
        const parts = out[line].split(sep);
        parts[field % Math.max(1, parts.length)] = value;
        out[line] = parts.join(sep);
      }
      return out.join('\n');
    });
}

/** Bodies that are not the feed at all, or only part of it. */
function broken(p: Prepared): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat(p.base.length - 1).map((n) => p.base.slice(0, n)), // truncated mid-transfer
    fc.constantFrom(
      '',
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
      '{"error":{"code":429,"message":"Too Many Requests"}}',
      deepJson(20_000, 'array'),
      deepJson(20_000, 'object'),
      '\uFEFF' + p.base,
      p.base.replace(/"/g, "'"),
      'null',
      '[]',
    ),
  );
}

function expectClearRefusal(err: unknown, where: string): void {
  if (!(err instanceof CatintelError)) throw new Error(`${where}: ${(err as Error)?.name}: ${(err as Error)?.message}`);
  expect(err.status, `${where}: ${err.code} ${err.message}`).toBeGreaterThanOrEqual(400);
  expect(err.status, `${where}: ${err.code} ${err.message}`).toBeLessThan(500);
}

describe.each(SAMPLES.map((s) => [`${s.source.id} ${path.basename(s.file)}`, s] as const))(
  'hostile records: %s',
  (_, sample) => {
    const p = prepare(sample);
    const ctx = { now: new Date(sample.now), sourceUrl: `file://${sample.file}` };

    it('the parser reads the body (bad records skipped) or refuses it with invalid_input', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 3, arbitrary: mutated(p) }, { weight: 1, arbitrary: broken(p) }),
          async (body) => {
            try {
              const r = await parseGuarded(sample.source, body, ctx); // as ingest calls it
              expect(Array.isArray(r.records)).toBe(true);
            } catch (err) {
              expectClearRefusal(err, `${sample.source.id} parse`);
            }
          },
        ),
        { seed: SEED, numRuns: 120 },
      );
    });

    describe('a full ingest of the broken body', () => {
      let db: Store;
      let dir: string;
      beforeAll(async () => {
        db = await Store.open(':memory:');
        dir = tempDir('catintel-hostile-feed-');
      });
      afterAll(() => db.close());

      it('completes or fails with a clear reason, and the store still answers', async () => {
        const c: Context = {
          config: defaultConfig({ dbPath: ':memory:' }),
          db,
          clock: () => new Date(sample.now),
          log: () => {},
          progress: () => {},
        };
        let n = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.oneof({ weight: 3, arbitrary: mutated(p) }, { weight: 1, arbitrary: broken(p) }),
            async (body) => {
              const file = path.join(dir, `${n++}${path.extname(sample.file)}`);
              fs.writeFileSync(file, body);
              try {
                const s = await ingestSource(c, sample.source, file);
                expect(s.status).toMatch(/ok|not_modified/);
              } catch (err) {
                expectClearRefusal(err, `${sample.source.id} ingest`);
              }
              await listEvents(db, { now: sample.now, statuses: ['active', 'monitoring', 'ended'] }, { limit: 1000 });
            },
          ),
          { seed: SEED, numRuns: 20 },
        );
      });
    });
  },
);

describe('records the fuzzing found crashing their parser, now skipped with the reason', () => {
  it('an NWS alert whose polygon is not a list of rings, and a USGS quake with a time past the Date range', async () => {
    const nws = JSON.parse(
      fs.readFileSync(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'), 'utf8'),
    );
    const withPolygon = nws.features.findIndex((f: any) => f.geometry?.type === 'Polygon');
    nws.features[withPolygon].geometry.coordinates = [1e308];
    const a = await parseGuarded(SOURCES['nws-alerts'], JSON.stringify(nws), {
      now: new Date('2025-01-01T00:00:00Z'),
      sourceUrl: 'file://nws.json',
    });
    expect(a.skipped.filter((s) => s.reason.startsWith('unreadable record'))).toEqual([
      {
        sourceId: nws.features[withPolygon].properties.id,
        reason: expect.stringMatching(/^unreadable record \(.+\)$/),
      },
    ]);
    expect(a.records.length).toBeGreaterThan(0);

    const usgs = JSON.parse(fs.readFileSync(sharedData('feeds/usgs_earthquakes/all_day.geojson'), 'utf8'));
    usgs.features[0].properties.time = 1e300;
    const q = await parseGuarded(SOURCES['usgs-earthquakes'], JSON.stringify(usgs), {
      now: new Date('2022-09-29T03:32:09Z'),
      sourceUrl: 'file://all_day.geojson',
    });
    expect(q.skipped).toContainEqual({
      sourceId: usgs.features[0].id,
      reason: expect.stringMatching(/^unreadable record/),
    });
    expect(q.records.length).toBe(usgs.features.length - q.skipped.length);
  });

  it('a CSV feed broken mid-quote is refused with invalid_input naming the source, not a csv-parse crash', async () => {
    const csv = fs.readFileSync(sharedData('feeds/usgs_earthquakes/4.5_month.csv'), 'utf8').split('\n').slice(0, 5);
    csv[2] = csv[2].replace(',"', `,' OR '1'='1, "`);
    const err = await parseGuarded(SOURCES['usgs-earthquakes'], csv.join('\n'), {
      now: new Date('2022-09-29T03:32:09Z'),
      sourceUrl: 'file://q.csv',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(CatintelError);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(/^file:\/\/q\.csv is not a usgs-earthquakes feed this version can read \(/);
  });
});
