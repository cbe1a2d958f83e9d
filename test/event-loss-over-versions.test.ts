/**
 * `catintel portfolio event-loss ID --event EVENT --over-versions --plot FILE`: the live loss band at each
 * stored version of an event, and its picture. Ian 2022's b-deck replayed into one store at four fixes
 * before landfall and once after the storm (--as-of; each ingest keeps a version), a Lee County book: the
 * answer has one band per version in advisory order, each naming its best-track version; the SVG's points
 * carry the same figures (read back from their aria-labels, not from pixels); each version's band is the one
 * `portfolio event-loss` gives replaying that version alone; the final observed track's loss lies within the
 * last pre-landfall P10-P90. The PNG is the picture docs/event-loss.md shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { testModels } from './helpers/model-packages.js';
import { sharedData } from './helpers/paths.js';
import { OED_LOCATION_HEADER, leeCountyRows } from './helpers/event-loss-books.js';

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER = OED_LOCATION_HEADER;
/** The ten Lee County homes of test/event-loss.test.ts. */
const LEE = leeCountyRows();
/** About 31, 19, 7 and 1 hours before Ian's landfall, then after the storm. */
const REPLAY = [
  '2022-09-27T12:00:00Z',
  '2022-09-28T00:00:00Z',
  '2022-09-28T12:00:00Z',
  '2022-09-28T18:00:00Z',
  '2022-10-02T00:00:00Z',
];
const AFTER = REPLAY[REPLAY.length - 1];
const RUN = ['--members', '10', '--samples', '10'];

let dir: string;
let db: string;
let models: string;
let portfolio: string;

beforeAll(async () => {
  models = await testModels('hurricane');
  dir = tempDir('catintel-event-loss-versions-');
  db = path.join(dir, 'ian.duckdb');
  for (const asOf of REPLAY)
    expect((await cli(['--db', db, '--as-of', asOf, '--quiet', 'ingest', 'nhc', '--from', BDECK])).code).toBe(0);
  const file = path.join(dir, 'lee.csv');
  fs.writeFileSync(file, [HEADER, ...LEE].join('\n') + '\n');
  const r = await cli(['--db', db, '--as-of', AFTER, '--json', 'portfolio', 'import', file, '--name', 'Lee County']);
  expect(r.code, r.stderr).toBe(0);
  portfolio = r.json().id;
}, 900_000);

/** The figures each mean point of the SVG carries in its aria-label. */
function pointsOf(svg: string): Record<string, string>[] {
  return [...svg.matchAll(/aria-label="(version=[^"]*)"/g)].map(
    (m) => Object.fromEntries(m[1].split('; ').map((kv) => kv.split('='))) as Record<string, string>,
  );
}

describe('Ian 2022: the Lee County band over its five stored best-track versions, drawn', () => {
  let body: Record<string, any>;
  let svg: string;
  beforeAll(async () => {
    const plot = path.join(dir, 'band.svg');
    const r = await cli(
      [
        '--db',
        db,
        '--as-of',
        AFTER,
        '--json',
        'portfolio',
        'event-loss',
        portfolio,
        '--event',
        'al092022',
        '--over-versions',
        '--plot',
        plot,
        ...RUN,
      ],
      { CATINTEL_MODELS: models },
    );
    expect(r.code, r.stderr).toBe(0);
    body = r.json();
    svg = fs.readFileSync(plot, 'utf8');
    for (const v of body.versions)
      console.log(
        `Ian version ${v.version} (${v.product_version}) at ${v.advisory_time}: gul mean ${v.gul.MeanLossAmt} P10 ${v.gul.P10LossAmt} P50 ${v.gul.P50LossAmt} P90 ${v.gul.P90LossAmt}; observed so far ${v.gul.ObservedSoFarLossAmt}`,
      );
  }, 900_000);

  it('answers one band per stored version, in advisory order, each naming its best-track version', () => {
    expect(body.versions.map((v: any) => v.version)).toEqual([1, 2, 3, 4, 5]);
    expect(body.versions.map((v: any) => v.advisory_time)).toEqual([...REPLAY.slice(0, 4), expect.any(String)]);
    expect(body.versions[3].product_version).toBe('best track through 2022-09-28T18:00:00Z (27 fixes)');
    for (const v of body.versions) {
      expect(v.footprint.version).toBe(v.product_version);
      expect(v.gul.P10LossAmt).toBeLessThanOrEqual(v.gul.P50LossAmt);
      expect(v.gul.P50LossAmt).toBeLessThanOrEqual(v.gul.P90LossAmt);
    }
    expect(body.versions[4].footprint.forecast).toBe('none');
    expect(body).toMatchObject({ members: 10, samples: 10, TotalInsuranceAmt: 5_000_000, CurCd: 'USD' });
    expect(body.written).toMatchObject({ format: 'svg' });
    expect(body.written.bytes).toBe(Buffer.byteLength(svg));
  });

  it("the picture's points are the answer's bands, one per advisory", () => {
    const drawn = pointsOf(svg);
    expect(drawn).toHaveLength(5);
    for (const [i, v] of body.versions.entries())
      expect(drawn[i]).toEqual({
        version: String(v.version),
        at: v.advisory_time,
        mean: String(v.gul.MeanLossAmt),
        p10: String(v.gul.P10LossAmt),
        p50: String(v.gul.P50LossAmt),
        p90: String(v.gul.P90LossAmt),
      });
    expect(svg).toContain('P10-P90 band');
  });

  it("the latest version's band is the one `portfolio event-loss` gives for the event now; the final loss lies in the last pre-landfall band", async () => {
    const alone = await cli(
      ['--db', db, '--as-of', AFTER, '--json', 'portfolio', 'event-loss', portfolio, '--event', 'al092022', ...RUN],
      { CATINTEL_MODELS: models },
    );
    expect(alone.code, alone.stderr).toBe(0);
    const { by_peril: _, ...now } = alone.json().gul;
    void _;
    expect(body.versions[4].gul).toEqual(now);
    const final = body.versions[4].gul.ObservedSoFarLossAmt;
    expect(final).toBeGreaterThan(0);
    expect(final).toBeGreaterThanOrEqual(body.versions[3].gul.P10LossAmt);
    expect(final).toBeLessThanOrEqual(body.versions[3].gul.P90LossAmt);
  }, 300_000);

  it('--plot needs --over-versions and an .svg or .png name; over HTTP neither is taken', async () => {
    const no = await cli(['--db', db, 'portfolio', 'event-loss', portfolio, '--event', 'al092022', '--plot', 'x.svg']);
    expect(no.code).not.toBe(0);
    expect(no.stderr).toMatch(/--over-versions/);
    const ext = await cli([
      '--db',
      db,
      'portfolio',
      'event-loss',
      portfolio,
      '--event',
      'al092022',
      '--over-versions',
      '--plot',
      'x.gif',
    ]);
    expect(ext.code).not.toBe(0);
    expect(ext.stderr).toMatch(/\.svg or \.png/);
  });
});
