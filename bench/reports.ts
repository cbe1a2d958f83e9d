/**
 * Reports (docs/reports.md), on a store loaded with the embedded default (`catintel db seed`), timed after the
 * store is open:
 *  - reports.briefing_cold: the first briefing of the process (Hurricane Ian), which also reads the us-atlas
 *    outlines and the embedded facility and county data once;
 *  - reports.briefing_hurricane / reports.briefing_earthquake: median of 5 briefings of Ian and of the
 *    strongest earthquake of the snapshot (target: under 1 s), split into gathering the endpoint bodies (the
 *    baseline measured in the same run: what any client of those endpoints pays) and deciding + drawing the PDF;
 *  - reports.ics209: median of 5 ICS-209 forms of Ian as JSON.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../src/cli/main.js';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { packageRoot } from '../src/lib/package-root.js';
import { buildBriefing } from '../src/reports/domain/briefing.js';
import { buildIcs209 } from '../src/reports/domain/ics209.js';
import { gatherInputs } from '../src/reports/gather.js';
import { reportSources } from '../src/handlers/report-sources.js';
import { renderBriefingPdf } from '../src/reports/pdf.js';
import { Store } from '../src/store/db.js';
import { emit, median, peakRssMb } from './report.js';

const OPERATOR = { tier: 'enterprise' as const, account: 'local' };

export async function benchReports(): Promise<void> {
  const now = fs.readFileSync(path.join(packageRoot(), 'data', 'seed', 'as-of.txt'), 'utf8').trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-reports-'));
  const dbPath = path.join(dir, 'seed.duckdb');
  try {
    const silent = { stdout: () => {}, stderr: () => {}, env: { CATINTEL_NOW: now }, isTTY: false };
    if ((await run(['--db', dbPath, '--quiet', 'db', 'seed'], silent)) !== 0) throw new Error('db seed failed');
    const db = await Store.open(dbPath, { readOnly: true, holder: 'bench reports' });
    const ctx: Context = {
      config: defaultConfig({ dbPath }),
      db,
      clock: () => new Date(now),
      log: () => {},
      progress: () => {},
    };
    try {
      const [quake] = await db.all<{ id: string }>(
        `SELECT id FROM events WHERE event_type = 'earthquake' ORDER BY severity DESC, id LIMIT 1`,
      );
      const once = async (id: string) => {
        const t0 = performance.now();
        const inputs = await gatherInputs(ctx, id, OPERATOR, reportSources(ctx, OPERATOR));
        const t1 = performance.now();
        const { pdf, pages } = await renderBriefingPdf(buildBriefing(inputs), inputs);
        const t2 = performance.now();
        return { total: (t2 - t0) / 1000, gather: (t1 - t0) / 1000, pdf: (t2 - t1) / 1000, bytes: pdf.length, pages };
      };
      const cold = await once('AL092022');
      emit({
        name: 'reports.briefing_cold',
        n: 1,
        seconds: cold.total,
        per_second: 1 / cold.total,
        peak_rss_mb: peakRssMb(),
        bytes: cold.bytes,
        pages: cold.pages,
      });
      for (const [name, id] of [
        ['reports.briefing_hurricane', 'AL092022'],
        ['reports.briefing_earthquake', String(quake.id)],
      ] as const) {
        const runs = [];
        for (let i = 0; i < 5; i++) runs.push(await once(id));
        const total = median(runs.map((r) => r.total));
        const gather = median(runs.map((r) => r.gather));
        const pdf = median(runs.map((r) => r.pdf));
        emit({
          name,
          n: runs.length,
          seconds: total,
          per_second: 1 / total,
          peak_rss_mb: peakRssMb(),
          gather_seconds: gather,
          pdf_seconds: pdf,
          ratio_to_gather: Math.round((total / gather) * 100) / 100,
          bytes: runs[0].bytes,
          pages: runs[0].pages,
          under_1s: total < 1,
        });
      }
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        buildIcs209(await gatherInputs(ctx, 'AL092022', OPERATOR, reportSources(ctx, OPERATOR)));
        times.push((performance.now() - t0) / 1000);
      }
      const m = median(times);
      emit({ name: 'reports.ics209', n: times.length, seconds: m, per_second: 1 / m, peak_rss_mb: peakRssMb() });
    } finally {
      await db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
