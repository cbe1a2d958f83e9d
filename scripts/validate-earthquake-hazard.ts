/**
 * PGA hazard at the 159 NSHM test sites from the earthquake model (Vs30 760 m/s), next to the published NSHM
 * 2018 values where we have them:
 *   node dist/scripts/validate-earthquake-hazard.js --from ../shared/data
 *   node dist/scripts/validate-earthquake-hazard.js --from ../shared/data --write docs/validation.md
 * (--write replaces the section between the earthquake-hazard markers, appending it when absent).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { arg, sharedDataDir } from './lib/script-args.js';
import { spearman } from '../src/lib/stats.js';
import { loadEarthquakeSources } from '../src/models/earthquake/io/load-sources.js';
import {
  groundMotionAtRate,
  HazardCalculator,
  RATE_10PCT_IN_50,
  RATE_2PCT_IN_50,
} from '../src/models/earthquake/domain/hazard-curve.js';
import { NSHM2018_REFERENCE_PGA } from './lib/nshm2018-reference-pga.js';

const START = '<!-- earthquake-hazard:start -->';
const END = '<!-- earthquake-hazard:end -->';
const SITES_FILE = 'hazard_history/earthquakes/usgs_nshm2023_conus/nshm_sites.csv';

const from = sharedDataDir();
const write = arg('--write');

const t0 = performance.now();
const sources = loadEarthquakeSources(from);
const loadMs = performance.now() - t0;
const calc = new HazardCalculator(sources);
const rows = (
  parse(fs.readFileSync(path.join(from, SITES_FILE), 'utf8'), {
    columns: true,
    skip_empty_lines: true,
    trim: true,
  }) as Record<string, string>[]
).map((r) => ({
  site: r.name,
  lat: Number(r.lat),
  lng: Number(r.lon),
}));

const t1 = performance.now();
const results = rows.map((r) => {
  const c = calc.curve(r.lat, r.lng);
  return { ...r, ours2: groundMotionAtRate(c, RATE_2PCT_IN_50), ours10: groundMotionAtRate(c, RATE_10PCT_IN_50) };
});
const msPerSite = (performance.now() - t1) / rows.length;

const refBySite = new Map(NSHM2018_REFERENCE_PGA.map((r) => [r.site, r]));
const g = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '< 0.0025');
const ratio = (a: number, b: number) => (Number.isFinite(a) && b > 0 ? (a / b).toFixed(2) : 'n/a');
const within = (a: number, b: number) => a / b <= 1.5 && a / b >= 1 / 1.5;

const paired = results.filter((r) => refBySite.has(r.site)).map((r) => ({ ...r, ref: refBySite.get(r.site)! }));
const share = (k: 'ours2' | 'ours10', rk: 'pga2in50' | 'pga10in50') =>
  paired.filter((p) => within(p[k], p.ref[rk])).length;
const rho2 = spearman(
  paired.map((p) => p.ours2),
  paired.map((p) => p.ref.pga2in50),
);
const rho10 = spearman(
  paired.map((p) => p.ours10),
  paired.map((p) => p.ref.pga10in50),
);

const out: string[] = [];
const line = (s = '') => out.push(s);
line('## Earthquake hazard: PGA at the NSHM test sites against the USGS');
line();
line(
  `Our PGA (g, Vs30 760 m/s) at 2 % and 10 % probability of exceedance in 50 years (annual rates ${RATE_2PCT_IN_50.toExponential(3)} and ${RATE_10PCT_IN_50.toExponential(3)}) at the ${rows.length} NSHM test sites, from the earthquake model's hazard curves (docs/earthquake-model.md). ` +
    `Published reference: the USGS NSHM 2018 hazard curves at ${NSHM2018_REFERENCE_PGA.length} of these sites (the end-to-end test curves of the USGS hazard code nshmp-haz, Vs30 760 m/s; scripts/lib/nshm2018-reference-pga.ts cites the files). Regenerate with \`node dist/scripts/validate-earthquake-hazard.js --from ../shared/data --write docs/validation.md\`.`,
);
line();
line(`| | 2 % in 50 years | 10 % in 50 years |`);
line('|---|---|---|');
line(`| sites with a published value | ${paired.length} | ${paired.length} |`);
line(
  `| within a factor of 1.5 | ${share('ours2', 'pga2in50')} of ${paired.length} | ${share('ours10', 'pga10in50')} of ${paired.length} |`,
);
line(`| Spearman ρ, ours vs NSHM 2018 | ${rho2.toFixed(2)} | ${rho10.toFixed(2)} |`);
line();
line('| site | NSHM 2018, 2 % | ours, 2 % | ratio | NSHM 2018, 10 % | ours, 10 % | ratio |');
line('|---|---|---|---|---|---|---|');
for (const p of paired)
  line(
    `| ${p.site} | ${g(p.ref.pga2in50)} | ${g(p.ours2)} | ${ratio(p.ours2, p.ref.pga2in50)} | ${g(p.ref.pga10in50)} | ${g(p.ours10)} | ${ratio(p.ours10, p.ref.pga10in50)} |`,
  );
line();
line("New Madrid's NSHM 2018 curve is 4.33e-4 at 2.19 g and zero at 3.28 g, so its 2 % value is a lower bound.");
line();
line(
  `Speed: sources loaded in ${(loadMs / 1000).toFixed(1)} s; ${msPerSite.toFixed(0)} ms per site over the ${rows.length} sites (distance tables built on first use included).`,
);
line();
line('<details><summary>All NSHM test sites (ours)</summary>');
line();
line('| site | lat | lng | PGA 2 % in 50 yr | PGA 10 % in 50 yr |');
line('|---|---|---|---|---|');
for (const r of results)
  line(`| ${r.site} | ${r.lat.toFixed(2)} | ${r.lng.toFixed(2)} | ${g(r.ours2)} | ${g(r.ours10)} |`);
line();
line('</details>');

const section = out.join('\n');
if (write) {
  const page = fs.existsSync(write) ? fs.readFileSync(write, 'utf8') : '';
  const s = page.indexOf(START);
  const e = page.indexOf(END);
  const body = `${START}\n${section}\n${END}`;
  const next =
    s >= 0 && e > s ? page.slice(0, s) + body + page.slice(e + END.length) : `${page.replace(/\n*$/, '\n\n')}${body}\n`;
  fs.writeFileSync(write, next);
  console.error(`wrote the earthquake-hazard section of ${write}`);
} else {
  process.stdout.write(section + '\n');
}
