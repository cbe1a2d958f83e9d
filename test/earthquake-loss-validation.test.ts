/**
 * The earthquake model's losses against reported losses and FEMA NRI (docs/validation.md, "Earthquake
 * losses"), every one through the loss engine (runBook: the package's keys lookup, the Oasis input files,
 * the kernel) on the NRI building value as an OED book: Northridge 1994 and Loma Prieta 1989 as one-event
 * packages footprinted by the package's own ground-motion code, on the shared 400-year test package; the
 * page shows those losses and the referees that hold; the page's own tables give the ρ and median ratios it
 * states; the Loma Prieta ShakeMap's PGA against our median.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageOf } from '../src/epcurve/model-packages.js';
import { spearman } from '../src/lib/stats.js';
import {
  HISTORICAL_QUAKES,
  historicalQuakeModels,
  noaaCpiFactor,
  SHAKE_ONLY,
  shakeMapComparison,
} from '../src/models/earthquake/loss-validation.js';
import {
  groupLosses,
  modelsForBook,
  nriCountyExposure,
  type CountyExposure,
} from '../src/models/shared/nri-exposure-book.js';
import { median } from '../src/models/shared/nri-rates.js';
import { EARTHQUAKE_TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { REPO_ROOT, SHARED_DATA } from './helpers/paths.js';

const pkg = packageOf('earthquake')!;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'earthquake-losses-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
let ca: CountyExposure[];
let models: string;
const run = () => ({ pkg, perils: ['earthquake' as const], dataDir: SHARED_DATA, workDir: work, samples: 0, seed: 1 });

beforeAll(async () => {
  ca = nriCountyExposure(SHARED_DATA).filter((c) => c.state === 'CA');
  models = await modelsForBook(ca, SHAKE_ONLY, {
    ...run(),
    modelsDir: await testModels('earthquake', { years: EARTHQUAKE_TEST_PACKAGE_YEARS }),
  });
}, 900_000);

const section = () => {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/validation.md'), 'utf8');
  return doc.slice(doc.indexOf('<!-- earthquake-losses:start -->'), doc.indexOf('<!-- earthquake-losses:end -->'));
};
const billions = (cell: string) => Number(cell.replace(/[$ B]/g, '')) * 1e9;

describe('Northridge 1994 and Loma Prieta 1989 as one-event packages on the NRI building value', () => {
  const losses = new Map<string, number>();
  beforeAll(async () => {
    for (const q of HISTORICAL_QUAKES) {
      const eventModels = await historicalQuakeModels(
        q.rupture,
        SHARED_DATA,
        path.join(models, pkg.folder),
        path.join(work, `event-${losses.size}`),
      );
      const r = await groupLosses(new Map([['CA', ca]]), SHAKE_ONLY, { ...run(), modelsDir: eventModels });
      losses.set(q.name, r.get('CA')!.aal);
    }
  }, 300_000);

  it("the kernel's losses are the page's (within 10 %: the page's package is longer, and a building's code level follows its cell's seismic zone in the package's catalog)", () => {
    for (const q of HISTORICAL_QUAKES) {
      const row = section()
        .split('\n')
        .find((l) => l.startsWith(`| ${q.name} |`));
      expect(row, `a row for ${q.name}`).toBeDefined();
      const page = billions(row!.split('|')[2]);
      expect(Math.abs(losses.get(q.name)! / page - 1)).toBeLessThan(0.1);
    }
  });

  it("both are within a factor of 2.5 of the reported total loss in 2024 dollars (NOAA's CPI factor for the month)", () => {
    expect(noaaCpiFactor(SHARED_DATA, 'Winter Storm, Cold Wave (January 1994)')).toBeCloseTo(2246.3 / 1040, 6);
    for (const q of HISTORICAL_QUAKES) {
      const ratio = losses.get(q.name)! / (q.reported.total * noaaCpiFactor(SHARED_DATA, q.cpiFrom));
      expect(ratio, q.name).toBeGreaterThan(1 / 2.5);
      expect(ratio, q.name).toBeLessThan(2.5);
    }
  });
});

describe("the page's rate tables", () => {
  const table = (heading: string) => {
    const text = section();
    const part = text.slice(text.indexOf(heading));
    const rows = part
      .split('\n')
      .filter((l) => /^\| [^-|][^|]* \| \$/.test(l))
      .map((l) => l.split('|').map((c) => c.trim()));
    const stated = /Spearman ρ = \*\*([0-9.-]+)\*\* over (\d+); median ratio ours \/ NRI = \*\*([0-9.]+)\*\*/.exec(
      part,
    )!;
    const pct = (s: string) => Number(s.replace(' %', '')) / 100;
    const body = rows.slice(0, Number(stated[2])).map((c) => ({ name: c[1], ours: pct(c[3]), nri: pct(c[4]) }));
    return { body, rho: Number(stated[1]), medianRatio: Number(stated[3]) };
  };

  it('give the ρ and median ratios the page states: California counties meet ρ >= 0.8; the states the model covers meet ρ >= 0.85 and a median ratio in [0.5, 2]; all 50 (Alaska and Hawaii outside the model) miss ρ >= 0.85, as the page says', () => {
    const inside =
      /Over the (\d+) states the model covers \(not ([A-Z]{2}) and ([A-Z]{2}),[^)]*\): Spearman ρ = \*\*([0-9.]+)\*\*, median ratio \*\*([0-9.]+)\*\*/.exec(
        section(),
      )!;
    expect(inside, 'the line over the states the model covers').not.toBeNull();
    expect([inside[2], inside[3]]).toEqual(['AK', 'HI']);
    const states = table('### State AAL rate');
    const covered = states.body.filter((r) => !['AK', 'HI'].includes(r.name));
    expect(covered.length).toBe(Number(inside[1]));
    expect(
      spearman(
        covered.map((r) => r.ours),
        covered.map((r) => r.nri),
      ),
    ).toBeCloseTo(Number(inside[4]), 1);
    expect(Number(inside[4])).toBeGreaterThanOrEqual(0.85);
    expect(Number(inside[5])).toBeGreaterThanOrEqual(0.5);
    expect(Number(inside[5])).toBeLessThanOrEqual(2);
    for (const [heading, check] of [
      [
        '### State AAL rate',
        (rho: number, m: number) => {
          expect(rho).toBeLessThan(0.85);
          expect(m).toBeGreaterThanOrEqual(0.5);
          expect(m).toBeLessThanOrEqual(2);
        },
      ],
      ['### California counties', (rho: number) => expect(rho).toBeGreaterThanOrEqual(0.8)],
    ] as const) {
      const t = table(heading);
      expect(t.body.length).toBeGreaterThan(30);
      expect(
        spearman(
          t.body.map((r) => r.ours),
          t.body.map((r) => r.nri),
        ),
      ).toBeCloseTo(t.rho, 1);
      expect(median(t.body.filter((r) => r.ours > 0).map((r) => r.ours / r.nri))).toBeCloseTo(t.medianRatio, 1);
      check(t.rho, t.medianRatio);
    }
  });
});

describe('Loma Prieta: the ShakeMap against our median ground motion', () => {
  it('the page shows the ratios this code computes; the ShakeMap is above our Vs30 760 median at every distance, more so far out', () => {
    const bands = shakeMapComparison(SHARED_DATA, HISTORICAL_QUAKES.find((q) => q.name.startsWith('Loma'))!.rupture);
    const rows = section().split('\n');
    for (const b of bands) {
      expect(b.nodes).toBeGreaterThan(100);
      expect(rows).toContain(
        `| ${b.fromKm}–${b.toKm} km | ${b.nodes} | ${b.ratio760.toFixed(2)} | ${b.ratioSite.toFixed(2)} |`,
      );
      expect(b.ratio760).toBeGreaterThan(1);
      // The node's own (softer) site takes part of the difference away.
      expect(b.ratioSite).toBeLessThan(b.ratio760);
    }
    expect(bands[bands.length - 1].ratio760).toBeGreaterThan(bands[0].ratio760);
  });
});
