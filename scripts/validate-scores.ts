/**
 * Reproduce the figures of docs/validation.md from the committed baseline and the shared data:
 *   node dist/scripts/validate-scores.js --from ../shared/data > validation-figures.md
 * Prints Markdown tables: state-level Spearman ρ against FEMA NRI per peril, a county-level composite
 * comparison, and the ranking of the NSHM 2023 test sites by our earthquake frequency.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { cellAt } from '../src/domain/scoring/grid.js';
import { PERILS, PERIL_INFO } from '../src/domain/scoring/perils.js';
import { parseCenPop } from '../src/databuild/census.js';
import { loadBaselineGrid } from '../src/databuild/load-baseline.js';
import { parseNriStates } from '../src/databuild/nri.js';
import { compareStates, scoreCountyCentres, spearman } from '../src/databuild/validation.js';
import { flatDistanceKm } from '../src/databuild/cell-query.js';
import { packageRoot } from '../src/lib/package-root.js';
import { aww14Mmi } from '../src/domain/rings/earthquake.js';
import { ruptureDistanceKm, type Plane } from '../src/databuild/eq-faults.js';
import { referenceEvents } from './ring-references.js';

const i = process.argv.indexOf('--from');
const from = path.resolve(i >= 0 ? process.argv[i + 1] : path.join(packageRoot(), '..', 'shared', 'data'));
const read = (p: string) => fs.readFileSync(path.join(from, p), 'utf8').replace(/^\uFEFF/, '');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const out: string[] = [];
const line = (s = '') => out.push(s);

const grid = loadBaselineGrid();
const centres = parseCenPop(read('exposure/CenPop2020_Mean_CO.txt'));
const counties = scoreCountyCentres(grid, centres);
const nri = parseNriStates(read('hazard_history/fema_nri/NRI_Table_States.csv'));

line(`Baseline ${grid.header.dataVersion} / ${grid.header.modelVersion}; ${counties.length} of ${centres.length} county population centres covered.`);
line();
line('## 1. States: our population-weighted mean score vs FEMA NRI v1.20');
line();
line('| peril | basis of our score | states | ρ vs NRI loss rate | ρ vs NRI EAL score |');
line('|---|---|---|---|---|');
for (const p of PERILS) {
  const c = compareStates(counties, nri, p);
  const basis = PERIL_INFO[p].kind === 'relative' ? 'NRI state table (circular)' : 'catalog model';
  line(`| ${p} | ${basis} | ${c.states} | ${f2(c.rhoLossRate)} | ${f2(c.rhoEalScore)} |`);
}
line();

line('## 2. Counties: mean of our nine scores vs the NRI composite (older county subset)');
line();
const sub = parse(read('hazard_history/fema_nri/NRI_Table_Counties_summary-columns-subset.csv'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
const byFips = new Map(sub.map((r) => [r.STCOFIPS.padStart(5, '0'), r]));
const ours: number[] = [];
const risk: number[] = [];
const lossRatio: number[] = [];
for (const c of counties) {
  const r = byFips.get(c.centre.fips);
  const buildValue = Number(r?.BUILDVALUE);
  if (!r || !(buildValue > 0) || r.RISK_SCORE === '') continue;
  ours.push(PERILS.reduce((s, p) => s + c.scores[p], 0) / PERILS.length);
  risk.push(Number(r.RISK_SCORE));
  lossRatio.push(Number(r.EAL_VALB) / buildValue);
}
line(`| counties | ρ vs RISK_SCORE | ρ vs EAL_VALB / BUILDVALUE |`);
line('|---|---|---|');
line(`| ${ours.length} | ${f2(spearman(ours, risk))} | ${f2(spearman(ours, lossRatio))} |`);
line();

line('## 3. Earthquake: NSHM 2023 test sites ranked by our λ(MMI ≥ VI)');
line();
const siteRows = parse(read('hazard_history/earthquakes/usgs_nshm2023_conus/nshm_sites.csv'), { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
const lamVI = grid.channels.get('earthquake.lambda_damaging')!;
const sites = siteRows
  .map((r) => ({ name: r.name, lat: Number(r.lat), lng: Number(r.lon) }))
  .map((s) => ({ ...s, cell: cellAt(grid, s.lat, s.lng) }))
  .filter((s) => s.cell >= 0)
  .map((s) => ({ ...s, lam: lamVI[s.cell], state: s.name.slice(-2) }))
  .sort((a, b) => b.lam - a.lam || a.name.localeCompare(b.name));
const fmt = (s: (typeof sites)[number]) => `${s.name} (1/${Math.round(1 / s.lam)} yr)`;
line(`${sites.length} sites. Highest 15: ${sites.slice(0, 15).map(fmt).join(', ')}.`);
line();
line(`Lowest 10: ${sites.slice(-10).map(fmt).join(', ')}.`);
line();
const abbr = new Map([...nri.values()].map((s) => [s.STATEABBRV, s]));
const withState = sites.filter((s) => abbr.has(s.state));
const alr = withState.map((s) => Number(abbr.get(s.state)!.ERQK_ALRB));
line(`ρ between our site λ(MMI ≥ VI) and the NRI earthquake loss rate of the site's state: ${f2(spearman(withState.map((s) => s.lam), alr))} (${withState.length} sites).`);
line();
const ext = parse(read('hazard_history/earthquakes/usgs_nshm2023_conus/active-crust_grid_pdf-ext-adaptive.csv'), { columns: true }) as Record<string, string>[];
const extCells = ext.map((r) => ({ lat: Number(r.lat), lng: Number(r.lon), pdf: Number(r.pdf) })).filter((c) => c.pdf > 1e-7);
const inExt = sites
  .map((s) => ({ s, density: extCells.reduce((t, c) => (Math.abs(c.lat - s.lat) < 1 && Math.abs(c.lng - s.lng) < 1.3 && flatDistanceKm(s.lat, s.lng, c.lat, c.lng) <= 100 ? t + c.pdf : t), 0) }))
  .filter((x) => x.density > 1e-3);
line(`Inside NSHM's extensional (Basin and Range) grid, which our WUS smoothing replaces: ρ between our λ(MMI ≥ VI) and the NSHM 2023 source density within 100 km = ${f2(spearman(inExt.map((x) => x.s.lam), inExt.map((x) => x.density)))} (${inExt.length} sites).`);

line();

line('## 4. Earthquake intensity model against the ShakeMaps, by distance');
line();
// The hazard's median: AWW14 with the rupture distance for a finite fault, plus the western site term.
const siteTerm = grid.header.params['earthquake.site_term_mmi_west'] ?? 0;
// Loma Prieta 1989: ~40 km rupture striking N128°E through the hypocentre, dipping 70° SW, 5-18 km deep
// (USGS finite-fault summaries; simplified).
const lomaPlane: Plane = { trace: [[-122.06, 37.15], [-121.7, 36.93]], dipDeg: 70, dipDir: [Math.sin((218 * Math.PI) / 180), Math.cos((218 * Math.PI) / 180)], upKm: 5, lowKm: 18 };
const bins = [0, 25, 50, 100, 150, 250];
line(`Observed minus modelled MMI (AWW14 median, rupture distance for Loma Prieta, hypocentral for South Napa, + the ${siteTerm.toFixed(1)} MMI site term), weighted mean per distance band (count):`);
line();
line(`| reference | ${bins.slice(0, -1).map((b, k) => `${b}-${bins[k + 1]} km`).join(' | ')} |`);
line(`|---|${bins.slice(0, -1).map(() => '---').join('|')}|`);
for (const ev of referenceEvents(from).filter((e) => !e.name.startsWith('Hebgen'))) {
  const acc = bins.slice(0, -1).map(() => ({ w: 0, r: 0, n: 0 }));
  for (const smp of ev.samples) {
    const loma = ev.name.startsWith('Loma');
    const d = loma ? ruptureDistanceKm(smp.lat, smp.lng, lomaPlane) : flatDistanceKm(ev.lat, ev.lng, smp.lat, smp.lng);
    const model = aww14Mmi(ev.magnitude, d, loma ? 0 : ev.depthKm, 'west') + siteTerm;
    const k = bins.findIndex((b, i) => i < bins.length - 1 && d >= b && d < bins[i + 1]);
    if (k < 0) continue;
    acc[k].w += smp.weight;
    acc[k].r += smp.weight * (smp.mmi - model);
    acc[k].n++;
  }
  line(`| ${ev.name}, ${ev.reference} | ${acc.map((a) => (a.n ? `${(a.r / a.w >= 0 ? '+' : '') + (a.r / a.w).toFixed(2)} (${a.n})` : 'n/a')).join(' | ')} |`);
}
line();

line('## 5. Wildfire inputs: what the cleaning of the ICS-209 reports removed');
line();
const manifest = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'data', 'baseline', 'manifest.json'), 'utf8'));
const wc = manifest.cleaning.wildfire;
line(`| reports read | not a wildfire | origin outside its state: dropped | repaired (swapped or unsigned coordinates) | duplicate reports merged | fires kept |`);
line('|---|---|---|---|---|---|');
line(`| ${wc.reports} | ${wc.not_wildfire} | ${wc.dropped_origin_outside_state} | ${wc.relocated_fixed_coordinates} | ${wc.merged_duplicates} | ${wc.fires} |`);
line();
line(`Urban cores where the smoothing stops: ${manifest.stats['wildfire.urban_core_cells']} cells of ${manifest.stats['wildfire.urban_core_counties']} counties. Structures destroyed in the fires kept: ${manifest.stats['wildfire.structures_destroyed']}.`);
line();
for (const [what, list] of Object.entries(wc.examples as Record<string, string[]>)) line(`- ${what.replace('_', ' ')}, first by id: ${list.join('; ')}`);

process.stdout.write(out.join('\n') + '\n');
