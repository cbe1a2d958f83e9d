/**
 * The briefing for every peril the store holds (earthquake, hurricane, NWS alerts, a flood gauge, a wildfire),
 * where a section without data says so in one line; the caller's insured TIV as a key figure; and
 * `catintel briefing` beside a running `catintel serve` on the same store (the local channel), writing the
 * same bytes as the standalone command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { buildBriefing } from '../src/reports/domain/briefing.js';
import { buildIcs209 } from '../src/reports/domain/ics209.js';
import { gatherInputs } from '../src/reports/gather.js';
import { reportSources } from '../src/handlers/report-sources.js';
import { renderBriefingPdf } from '../src/reports/pdf.js';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { seedStore } from './helpers/store.js';
import { FIXTURES, REPO_ROOT } from './helpers/paths.js';

const SEED_NOW = fs.readFileSync(path.join(REPO_ROOT, 'data', 'seed', 'as-of.txt'), 'utf8').trim();
const FIRE_NOW = '2025-08-09T18:00:00Z';
const dir = tempDir('catintel-reports-perils-');
const seedDb = path.join(dir, 'seed.duckdb');
const fireDb = path.join(dir, 'fire.duckdb');
const OPERATOR = { tier: 'enterprise' as const, account: 'local' };

beforeAll(async () => {
  fs.copyFileSync(await seedStore(), seedDb); // `db seed` at SEED_NOW, the seed's instant
  for (const f of ['wfigs_interagency_perimeters.geojson', 'wfigs_incident_locations.geojson']) {
    const r = await cli(['--db', fireDb, 'ingest', 'nifc-wildfires', '--from', path.join(FIXTURES, 'feeds/nifc', f)], {
      CATINTEL_NOW: FIRE_NOW,
    });
    expect(r.code, r.stderr).toBe(0);
  }
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function onStore<T>(db: string, now: string, f: (ctx: Context) => Promise<T>): Promise<T> {
  const store = await Store.open(db, { readOnly: true, holder: 'test' });
  try {
    return await f({
      config: defaultConfig({ dbPath: db }),
      db: store,
      clock: () => new Date(now),
      log: () => {},
      progress: () => {},
    });
  } finally {
    await store.close();
  }
}

/** One event per (source, event type) of the store, live or not: the peril mix a briefing must handle. */
async function onePerPeril(db: string, now: string): Promise<{ id: string; key: string }[]> {
  const rows = await onStore(db, now, (ctx) =>
    ctx.db.all<{ id: string; key: string }>(
      "SELECT min(id) AS id, source || '/' || event_type AS key FROM events GROUP BY source, event_type ORDER BY key",
    ),
  );
  return rows.map((r) => ({ id: String(r.id), key: String(r.key) }));
}

describe('the briefing for every peril the store holds', () => {
  it('renders each, with every section present and, where a peril has no data, a one-line reason instead of an empty table', async () => {
    const cases = [
      ...(await onePerPeril(seedDb, SEED_NOW)).map((c) => ({ ...c, db: seedDb, now: SEED_NOW })),
      ...(await onePerPeril(fireDb, FIRE_NOW)).map((c) => ({ ...c, db: fireDb, now: FIRE_NOW })),
    ];
    expect(cases.map((c) => c.key).sort()).toEqual(
      expect.arrayContaining([
        'nhc/hurricane',
        'nifc-wildfires/wildfire',
        'nws-alerts/flood',
        'nws-alerts/extreme_heat',
        'usgs-earthquakes/earthquake',
        'usgs-gauges/flood',
      ]),
    );
    for (const c of cases) {
      await onStore(c.db, c.now, async (ctx) => {
        const inputs = await gatherInputs(ctx, c.id, OPERATOR, reportSources(ctx, OPERATOR));
        const b = buildBriefing(inputs);
        expect(
          b.sections.map((s) => s.heading),
          c.key,
        ).toEqual(['Consequence rings', 'Exposure by ring', 'Prediction (indicative)', 'Timeline']);
        for (const s of b.sections) {
          expect(s.blocks.length, `${c.key} ${s.heading}`).toBeGreaterThan(0);
          const unavailable = s.blocks.filter((x) => x.kind === 'unavailable');
          for (const u of unavailable)
            expect(u.kind === 'unavailable' && !u.text.includes('\n'), `${c.key} ${s.heading}`).toBe(true);
          for (const t of s.blocks)
            if (t.kind === 'table') expect(t.table.rows.length, `${c.key} ${s.heading} table`).toBeGreaterThan(0);
        }
        expect(b.keyFigures.length, c.key).toBeGreaterThanOrEqual(3);
        expect(b.keyFigures.length, c.key).toBeLessThanOrEqual(5);
        const { pdf, pages } = await renderBriefingPdf(b, inputs);
        expect(pdf.subarray(0, 5).toString(), c.key).toBe('%PDF-');
        expect(pages, c.key).toBeGreaterThanOrEqual(2);
        // The ICS-209 of the same event: 53 blocks whatever the peril.
        expect(buildIcs209(inputs).blocks.length, c.key).toBe(53);
      });
    }
  }, 120_000);

  it('a gauge (no rings) says in one line that it has no rings and no exposure', async () => {
    const gauge = (await onePerPeril(seedDb, SEED_NOW)).find((c) => c.key === 'usgs-gauges/flood')!;
    const b = await onStore(seedDb, SEED_NOW, async (ctx) =>
      buildBriefing(await gatherInputs(ctx, gauge.id, OPERATOR, reportSources(ctx, OPERATOR))),
    );
    const [rings, exposure] = b.sections;
    expect(rings.blocks).toEqual([{ kind: 'unavailable', text: expect.stringMatching(/^Rings: none for this event/) }]);
    expect(exposure.blocks).toEqual([{ kind: 'unavailable', text: expect.stringMatching(/^Exposure: no ring/) }]);
  });

  it("shows the caller's insured TIV inside the rings as a key figure (their portfolio, not another account's)", async () => {
    const db = path.join(dir, 'tiv.duckdb');
    fs.copyFileSync(seedDb, db);
    const csv = path.join(dir, 'location.csv');
    fs.writeFileSync(
      csv,
      [
        'PortNumber,AccNumber,LocNumber,Latitude,Longitude,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,BITIV,LocPerilsCovered,LocCurrency,CountryCode',
        '1,A1,PUNTAGORDA,26.93,-82.05,1050,5050,1000000,200000,50000,WW1,USD,US',
        '1,A1,ORLANDO,28.54,-81.38,1100,5100,2000000,0,0,WW1,USD,US',
      ].join('\n') + '\n',
    );
    const acct = ['--account', 'dana@example.com'];
    const imported = await cli(['--db', db, ...acct, 'portfolio', 'import', csv, '--name', 'book'], {
      CATINTEL_NOW: SEED_NOW,
    });
    expect(imported.code, imported.stderr).toBe(0);
    const figures = (account: string) =>
      onStore(
        db,
        SEED_NOW,
        async (ctx) =>
          buildBriefing(
            await gatherInputs(
              ctx,
              'AL092022',
              { tier: 'analyst', account },
              reportSources(ctx, { tier: 'analyst', account }),
            ),
          ).keyFigures,
      );
    const dana = await figures('dana@example.com');
    expect(dana.find((k) => k.caption.startsWith('insured TIV'))).toMatchObject({
      value: '$3.3M',
      caption: expect.stringContaining('(2 locations'),
    });
    expect((await figures('someone@example.com')).some((k) => k.caption.startsWith('insured TIV'))).toBe(false);
  }, 60_000);
});

const BIN = path.join(REPO_ROOT, 'bin/catintel');
const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'));
let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

describe.skipIf(!built)(
  'catintel briefing and ics209 beside a running server (a real process; needs `make build`)',
  () => {
    it('write the same bytes through the server as standalone', async () => {
      const db = path.join(dir, 'served.duckdb');
      fs.copyFileSync(seedDb, db);
      const env = { CATINTEL_NOW: SEED_NOW };
      const alone = path.join(dir, 'alone.pdf');
      expect((await cli(['--db', db, 'briefing', 'AL092022', '--out', alone], env)).code).toBe(0);
      child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0', '--access-log', 'off'], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child!.stdout!.on('data', (d: Buffer) => {
          out += d;
          if (/ at http:\/\/\S+\/api\/v1 /.test(out)) resolve();
        });
        child!.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      // A relative --out is the caller's: resolved against the caller's directory, not the server's.
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        const r = await cli(['--db', db, '--json', 'briefing', 'AL092022', '--out', 'served.pdf'], env);
        expect(r.code, r.stderr).toBe(0);
        expect(r.json().path).toBe('served.pdf'); // named as given, as the standalone command names it
      } finally {
        process.chdir(cwd);
      }
      expect(fs.readFileSync(path.join(dir, 'served.pdf')).equals(fs.readFileSync(alone))).toBe(true);
      const form = await cli(['--db', db, '--json', 'ics209', 'AL092022'], env);
      expect(form.code, form.stderr).toBe(0);
      expect(form.json().blocks).toHaveLength(53);
    }, 60_000);
  },
);
