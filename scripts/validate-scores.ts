/**
 * Reproduce the figures of docs/validation.md from the committed baseline and the shared data:
 *   node dist/scripts/validate-scores.js --from ../shared/data > validation-figures.md
 *   node dist/scripts/validate-scores.js --from ../shared/data --write docs/validation.md
 * (--write replaces the page's figures, from the "Baseline …" line up to "## Reading them", in place).
 * Prints Markdown tables: state-level Spearman ρ against FEMA NRI per peril, a county-level composite
 * comparison, and the ranking of the NSHM 2023 test sites by our earthquake frequency.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { cellAt } from '../src/domain/scoring/grid.js';
import { PERILS, PERIL_INFO } from '../src/domain/scoring/perils.js';
import { parseCenPop } from '../src/reference-data/census.js';
import { loadBaselineGrid } from '../src/reference-data/load-baseline.js';
import { parseNriStates } from '../src/reference-data/nri.js';
import { compareStates, scoreCountyCentres, stateMeans } from '../src/databuild/validation.js';
import { spearman } from '../src/lib/stats.js';
import { flatDistanceKm } from '../src/reference-data/cell-query.js';
import { packageRoot } from '../src/lib/package-root.js';
import { aww14Mmi } from '../src/domain/rings/earthquake.js';
import { ruptureDistanceKm, type Plane } from '../src/reference-data/eq-faults.js';
import { referenceEvents } from './ring-references.js';
import { relativePairScore } from '../src/domain/scoring/score-math.js';
import { floodStageFrequency, parseUsgsPeaks } from '../src/databuild/flood-frequency.js';
import { TC_RAIN_GAIN } from '../src/databuild/local-perils.js';
import {
  PINNED_POINTS,
  parseNfipStateClaims,
  pinnedPointHolds,
  rhoAgainstNfip,
  rhoAgainstNriCounties,
  rhoNriRateParts,
} from '../src/databuild/validation-losses.js';
import { parseNriCounties } from '../src/reference-data/nri-counties.js';
import { perilScoreValue } from '../src/domain/scoring/peril-score.js';
import { climateCase } from '../src/domain/climate.js';

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

line(
  `Baseline ${grid.header.dataVersion} / ${grid.header.modelVersion}; ${counties.length} of ${centres.length} county population centres covered.`,
);
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
const sub = parse(read('hazard_history/fema_nri/NRI_Table_Counties_summary-columns-subset.csv'), {
  columns: true,
  skip_empty_lines: true,
}) as Record<string, string>[];
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
const siteRows = parse(read('hazard_history/earthquakes/usgs_nshm2023_conus/nshm_sites.csv'), {
  columns: true,
  skip_empty_lines: true,
  trim: true,
}) as Record<string, string>[];
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
line(
  `ρ between our site λ(MMI ≥ VI) and the NRI earthquake loss rate of the site's state: ${f2(
    spearman(
      withState.map((s) => s.lam),
      alr,
    ),
  )} (${withState.length} sites).`,
);
line();
const ext = parse(read('hazard_history/earthquakes/usgs_nshm2023_conus/active-crust_grid_pdf-ext-adaptive.csv'), {
  columns: true,
}) as Record<string, string>[];
const extCells = ext
  .map((r) => ({ lat: Number(r.lat), lng: Number(r.lon), pdf: Number(r.pdf) }))
  .filter((c) => c.pdf > 1e-7);
const inExt = sites
  .map((s) => ({
    s,
    density: extCells.reduce(
      (t, c) =>
        Math.abs(c.lat - s.lat) < 1 &&
        Math.abs(c.lng - s.lng) < 1.3 &&
        flatDistanceKm(s.lat, s.lng, c.lat, c.lng) <= 100
          ? t + c.pdf
          : t,
      0,
    ),
  }))
  .filter((x) => x.density > 1e-3);
line(
  `Inside NSHM's extensional (Basin and Range) grid, which our WUS smoothing replaces: ρ between our λ(MMI ≥ VI) and the NSHM 2023 source density within 100 km = ${f2(
    spearman(
      inExt.map((x) => x.s.lam),
      inExt.map((x) => x.density),
    ),
  )} (${inExt.length} sites).`,
);

line();

line('## 4. Earthquake intensity model against the ShakeMaps, by distance');
line();
// The hazard's median: AWW14 with the rupture distance for a finite fault, plus the western site term.
const siteTerm = grid.header.params['earthquake.site_term_mmi_west'] ?? 0;
// Loma Prieta 1989: ~40 km rupture striking N128°E through the hypocentre, dipping 70° SW, 5-18 km deep
// (USGS finite-fault summaries; simplified).
const lomaPlane: Plane = {
  trace: [
    [-122.06, 37.15],
    [-121.7, 36.93],
  ],
  dipDeg: 70,
  dipDir: [Math.sin((218 * Math.PI) / 180), Math.cos((218 * Math.PI) / 180)],
  upKm: 5,
  lowKm: 18,
};
const bins = [0, 25, 50, 100, 150, 250];
line(
  `Observed minus modelled MMI (AWW14 median, rupture distance for Loma Prieta, hypocentral for South Napa, + the ${siteTerm.toFixed(1)} MMI site term), weighted mean per distance band (count):`,
);
line();
line(
  `| reference | ${bins
    .slice(0, -1)
    .map((b, k) => `${b}-${bins[k + 1]} km`)
    .join(' | ')} |`,
);
line(
  `|---|${bins
    .slice(0, -1)
    .map(() => '---')
    .join('|')}|`,
);
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
  line(
    `| ${ev.name}, ${ev.reference} | ${acc.map((a) => (a.n ? `${(a.r / a.w >= 0 ? '+' : '') + (a.r / a.w).toFixed(2)} (${a.n})` : 'n/a')).join(' | ')} |`,
  );
}
line();

line('## 5. Wildfire inputs: what the cleaning of the ICS-209 reports removed');
line();
const manifest = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'data', 'baseline', 'manifest.json'), 'utf8'));
const wc = manifest.cleaning.wildfire;
line(
  `| reports read | not a wildfire | origin outside its state: dropped | repaired (swapped or unsigned coordinates) | duplicate reports merged | fires kept |`,
);
line('|---|---|---|---|---|---|');
line(
  `| ${wc.reports} | ${wc.not_wildfire} | ${wc.dropped_origin_outside_state} | ${wc.relocated_fixed_coordinates} | ${wc.merged_duplicates} | ${wc.fires} |`,
);
line();
line(
  `Urban cores where the smoothing stops: ${manifest.stats['wildfire.urban_core_cells']} cells of ${manifest.stats['wildfire.urban_core_counties']} counties. Structures destroyed in the fires kept: ${manifest.stats['wildfire.structures_destroyed']}.`,
);
line();
for (const [what, list] of Object.entries(wc.examples as Record<string, string[]>))
  line(`- ${what.replace('_', ' ')}, first by id: ${list.join('; ')}`);

line();
line('## 6. Riverine flood, extreme heat and winter storm below state level');
line();
const P = grid.header.params;
const g6 = (k: string) => Number(P[k]).toFixed(3);
line(
  `Measured across the CONUS states (log10 per degree of latitude, Pearson r): winter-weather events per county-year ${g6('winter_storm.events_latitude_slope_per_deg')} (r ${g6('winter_storm.events_latitude_r')}), winter loss rate ${g6('winter_storm.loss_latitude_slope_per_deg')} (r ${g6('winter_storm.loss_latitude_r')}), heat-wave loss rate ${g6('extreme_heat.loss_latitude_slope_per_deg')} (r ${g6('extreme_heat.loss_latitude_r')}); not applied: heat-wave events ${g6('extreme_heat.events_latitude_slope_per_deg')} (r ${g6('extreme_heat.events_latitude_r')}), drought events ${g6('drought.events_latitude_slope_per_deg')} (r ${g6('drought.events_latitude_r')}).`,
);
line();
line(
  `Flood-category gauges used: ${manifest.stats['riverine_flood.flood_category_gauges']}; G_half (CONUS mean gauge density) = ${Number(P['riverine_flood.gauge_half']).toFixed(2)}. Counties at their population centre against the NRI county composite (older subset; no per-hazard county column, so this is the best county check the data allow, and a weak one: the composite sums 18 hazards):`,
);
line();
const floodF = grid.channels.get('riverine_flood.local_factor')!;
const lamF = grid.channels.get('riverine_flood.lambda_damaging')!;
const lossF = grid.channels.get('riverine_flood.loss_rate')!;
const anchors = ['frequency_log10_lo', 'frequency_log10_hi', 'loss_log10_lo', 'loss_log10_hi'].map((k) =>
  Number(P[`riverine_flood.${k}`]),
);
const rowsF = counties
  .map((c) => ({ c, cell: cellAt(grid, c.centre.lat, c.centre.lng), r: byFips.get(c.centre.fips) }))
  .filter((x) => x.r && Number(x.r.BUILDVALUE) > 0 && x.r.RISK_SCORE !== '' && x.cell >= 0);
const stateOnly = (cell: number) =>
  relativePairScore(
    lamF[cell] / floodF[cell],
    anchors[0],
    anchors[1],
    lossF[cell] / floodF[cell],
    anchors[2],
    anchors[3],
  );
const rRisk = rowsF.map((x) => Number(x.r!.RISK_SCORE));
const rLoss = rowsF.map((x) => Number(x.r!.EAL_VALB) / Number(x.r!.BUILDVALUE));
line('| our riverine-flood score | counties | ρ vs RISK_SCORE | ρ vs EAL_VALB / BUILDVALUE |');
line('|---|---|---|---|');
line(
  `| state level only (before this model) | ${rowsF.length} | ${f2(
    spearman(
      rowsF.map((x) => stateOnly(x.cell)),
      rRisk,
    ),
  )} | ${f2(
    spearman(
      rowsF.map((x) => stateOnly(x.cell)),
      rLoss,
    ),
  )} |`,
);
line(
  `| with the gauge and tropical-cyclone terms | ${rowsF.length} | ${f2(
    spearman(
      rowsF.map((x) => x.c.scores.riverine_flood),
      rRisk,
    ),
  )} | ${f2(
    spearman(
      rowsF.map((x) => x.c.scores.riverine_flood),
      rLoss,
    ),
  )} |`,
);
line();
const within: number[] = [];
const byState = new Map<string, typeof rowsF>();
for (const x of rowsF)
  byState.set(x.c.centre.fips.slice(0, 2), [...(byState.get(x.c.centre.fips.slice(0, 2)) ?? []), x]);
for (const [, xs] of [...byState].sort((a, b) => a[0].localeCompare(b[0]))) {
  if (xs.length < 20) continue;
  within.push(
    spearman(
      xs.map((x) => floodF[x.cell]),
      xs.map((x) => Number(x.r!.EAL_VALB) / Number(x.r!.BUILDVALUE)),
    ),
  );
}
within.sort((a, b) => a - b);
const q = (p: number) => within[Math.min(within.length - 1, Math.floor(p * within.length))];
line(
  `Within states (${within.length} states of 20 counties or more): ρ between our flood factor and the composite EAL_VALB / BUILDVALUE, median ${f2(q(0.5))} (quartiles ${f2(q(0.25))} to ${f2(q(0.75))}); positive in ${within.filter((r) => r > 0).length} states.`,
);
line();
// An independent state-level check (NRI is circular for these perils): FEMA declarations by state, 1953-2024.
const decl = parse(read('hazard_history/fema_declarations/FemaWebDisasterDeclarations.csv'), {
  columns: true,
  skip_empty_lines: true,
  bom: true,
}) as Record<string, string>[];
const fipsOfAbbr = new Map([...nri.values()].map((st) => [st.STATEABBRV, st.STATEFIPS.padStart(2, '0')]));
const declTypes: Array<[string, string[], string]> = [
  ['riverine_flood', ['Flood', 'Dam/Levee Break'], 'IFLD'],
  ['winter_storm', ['Snowstorm', 'Severe Ice Storm', 'Winter Storm', 'Freezing'], 'WNTW'],
  ['drought', ['Drought'], 'DRGT'],
];
line(
  'FEMA disaster and emergency declarations per state (1953-2024, by incident type; the declarations file has no county column) against our population-weighted state mean score:',
);
line();
line('| peril | incident types | declarations | states | ρ ours | ρ NRI state event count (EVNTS) |');
line('|---|---|---|---|---|---|');
for (const [peril, types, prefix] of declTypes) {
  const count = new Map<string, number>();
  let total = 0;
  for (const d of decl) {
    const f = fipsOfAbbr.get(d.stateCode);
    if (!f || !types.includes(d.incidentType) || !['Major Disaster', 'Emergency'].includes(d.declarationType)) continue;
    count.set(f, (count.get(f) ?? 0) + 1);
    total++;
  }
  const means = stateMeans(counties, peril as (typeof PERILS)[number]);
  const keys = [...means.keys()].filter((k) => fipsOfAbbr.size && [...fipsOfAbbr.values()].includes(k)).sort();
  const withEv = keys.filter((k) => Number.isFinite(Number(nri.get(k)?.[`${prefix}_EVNTS`])));
  const rhoNri = spearman(
    withEv.map((k) => Number(nri.get(k)![`${prefix}_EVNTS`])),
    withEv.map((k) => count.get(k) ?? 0),
  );
  line(
    `| ${peril} | ${types.join(', ')} | ${total} | ${keys.length} | ${f2(
      spearman(
        keys.map((k) => means.get(k)!),
        keys.map((k) => count.get(k) ?? 0),
      ),
    )} | ${f2(rhoNri)} |`,
  );
}
line();
const peaks = parseUsgsPeaks(read('feeds/usgs_water/waterservices_peaks.txt'));
const ff = floodStageFrequency(peaks, 19);
const bowie = cellAt(grid, 38.956, -76.694);
line(
  `Flood frequency at one gauge, the Patuxent River near Bowie MD (USGS 01594440 = NWPS BOWM2, flood stage 19 ft; ${ff.years} annual peaks ${peaks[0].waterYear}-${peaks[peaks.length - 1].waterYear}, ${ff.stageYears} with a stage):`,
);
line();
line('| route | annual chance of reaching the flood stage |');
line('|---|---|');
line(`| empirical (${ff.reached} of ${ff.stageYears} years) | ${ff.empirical.toFixed(3)} |`);
line(`| Gumbel on annual peak stages (100-year stage ${ff.stage100Ft.toFixed(1)} ft) | ${ff.gumbelStage.toFixed(3)} |`);
line(
  `| LP3 on annual peak flows (station skew ${ff.lp3.skew.toFixed(2)}; rating Q = ${ff.rating.a.toFixed(2)}·h^${ff.rating.b.toFixed(2)} from ${ff.rating.points} peaks gives ${Math.round(ff.floodFlowCfs)} cfs at 19 ft; Q100 ${Math.round(ff.q100Cfs)} cfs) | ${ff.lp3Flow.toFixed(3)} |`,
);
line();
line(
  `Our grid at that gauge: flood gauge density ${grid.channels.get('riverine_flood.gauge_density')![bowie].toFixed(1)}, tropical storms within 200 km ${grid.channels.get('riverine_flood.tc_storms_per_year')![bowie].toFixed(2)}/yr, local factor ${floodF[bowie].toFixed(2)}, riverine-flood score ${counties.length ? f2(relativePairScore(lamF[bowie], anchors[0], anchors[1], lossF[bowie], anchors[2], anchors[3])) : 'n/a'}.`,
);

line();
line('## 7. Riverine flood and wildfire against losses, and the points a user checks first');
line();
// NRI's state level alone (the grid's halves divided by the sub-state factor), as one value per state; and
// the state level of the model, NRI's times the state's population-weighted tropical-rain factor (the one
// term not normalised within the state, local-perils.ts).
const stateLevel = new Map<string, number>();
const tcAcc = new Map<string, { cell: number; wt: number; w: number }>();
const tcRate = grid.channels.get('riverine_flood.tc_storms_per_year')!;
for (const x of counties) {
  const cell = cellAt(grid, x.centre.lat, x.centre.lng);
  const st = x.centre.fips.slice(0, 2);
  if (!stateLevel.has(st)) stateLevel.set(st, stateOnly(cell));
  const a = tcAcc.get(st) ?? { cell, wt: 0, w: 0 };
  a.wt += x.centre.population * (1 + TC_RAIN_GAIN * tcRate[cell]);
  a.w += x.centre.population;
  tcAcc.set(st, a);
}
const modelStateLevel = new Map(
  [...tcAcc].map(([st, a]) => {
    const m = a.w > 0 ? a.wt / a.w : 1;
    const f = floodF[a.cell];
    return [
      st,
      relativePairScore(
        (lamF[a.cell] / f) * m,
        anchors[0],
        anchors[1],
        (lossF[a.cell] / f) * m,
        anchors[2],
        anchors[3],
      ),
    ];
  }),
);
const abbrOf = new Map([...nri.values()].map((st) => [st.STATEFIPS.padStart(2, '0'), st.STATEABBRV]));
const byAbbr = (m: Map<string, number>) =>
  new Map([...m].filter(([f]) => abbrOf.has(f)).map(([f, v]) => [abbrOf.get(f)!, v]));
const nfip = parseNfipStateClaims(read('losses/nfip_claims_aggregates/nfip_claims_state_1978-2019.csv'));
const stateBuildValue = new Map([...nri.values()].map((st) => [st.STATEABBRV, Number(st.BUILDVALUE)]));
const nfipLevel = rhoAgainstNfip(byAbbr(stateLevel), nfip, stateBuildValue);
const nfipModel = rhoAgainstNfip(byAbbr(modelStateLevel), nfip, stateBuildValue);
const nfipMean = rhoAgainstNfip(byAbbr(stateMeans(counties, 'riverine_flood')), nfip, stateBuildValue);
line(
  'NFIP claims paid 1978-2019 (building and contents, nominal $) per dollar of NRI building value, by state, against our riverine-flood score:',
);
line();
line('| our state value | states | ρ vs NFIP paid / building value |');
line('|---|---|---|');
line(
  `| NRI state level alone (events per unit area and loss rate, × flood-exposed share) | ${nfipLevel.states} | ${f2(nfipLevel.rho)} |`,
);
line(
  `| state level of the model: NRI's × the state's population-weighted tropical-rain factor 1 + ${TC_RAIN_GAIN}·(storms per year within 200 km) | ${nfipModel.states} | ${f2(nfipModel.rho)} |`,
);
line(`| population-weighted mean of the county-centre scores | ${nfipMean.states} | ${f2(nfipMean.rho)} |`);
line();
const nriCa = parseNriCounties(read('hazard_history/fema_nri/NRI_Table_Counties_California_v1.19.csv'));
const nriFl = parseNriCounties(read('hazard_history/fema_nri/NRI_Table_Counties_Florida_v1.19.csv'));
line(
  "Our score at each county's population centre against FEMA NRI v1.19 county expected annual loss rate (`<hazard>_EALB` / BUILDVALUE), the only per-hazard county tables in the shared data:",
);
line();
line('| peril | NRI hazard | state | counties | ρ |');
line('|---|---|---|---|---|');
for (const [peril, prefix, name, table] of [
  ['riverine_flood', 'RFLD', 'Florida', nriFl],
  ['riverine_flood', 'RFLD', 'California', nriCa],
  ['wildfire', 'WFIR', 'California', nriCa],
  ['wildfire', 'WFIR', 'Florida', nriFl],
] as const) {
  const r = rhoAgainstNriCounties(counties, table, peril, prefix);
  line(`| ${peril} | ${prefix} | ${name} | ${r.counties} | ${f2(r.rho)} |`);
}
line();
line(
  "NRI's county riverine rate is exposure × annualized frequency × historic loss ratio; which part carries its ranking, and how our county-centre flood score ranks against each part (ρ):",
);
line();
line('| state | part of NRI RFLD | ρ with NRI rate | ρ with our score |');
line('|---|---|---|---|');
for (const [name, table] of [
  ['Florida', nriFl],
  ['California', nriCa],
] as const)
  for (const p of rhoNriRateParts(counties, table, 'riverine_flood', 'RFLD'))
    line(`| ${name} | ${p.part} | ${f2(p.withRate)} | ${f2(p.withOurs)} |`);
line();
line(
  'The state level where the two loss references disagree most: NRI v1.20 inland flooding (IFLD_ALRB × IFLD_EXP_AREA/AREA, our loss half) against NFIP claims paid per dollar of building value:',
);
line();
line('| state | NRI loss rate × exposed share (/yr) | NFIP paid / building value (1978-2019) |');
line('|---|---|---|');
for (const st of [...nri.values()]
  .filter((s) => ['AZ', 'CA', 'FL', 'LA', 'TX'].includes(s.STATEABBRV))
  .sort((a, b) => a.STATEABBRV.localeCompare(b.STATEABBRV))) {
  const share = Number(st.IFLD_EXP_AREA) / Number(st.AREA);
  line(
    `| ${st.STATEABBRV} | ${(Number(st.IFLD_ALRB) * share).toExponential(1)} | ${((nfip.get(st.STATEABBRV) ?? NaN) / Number(st.BUILDVALUE)).toExponential(1)} |`,
  );
}
line();
line('Named points (the bounds `test/scores-flood-wildfire.test.ts` pins):');
line();
line('| place | lat, lng | peril | score | wanted | holds |');
line('|---|---|---|---|---|---|');
const baseCase = climateCase('baseline', null);
for (const p of PINNED_POINTS) {
  const cell = cellAt(grid, p.lat, p.lng);
  const s = cell >= 0 ? perilScoreValue(grid, cell, p.peril, baseCase) : NaN;
  const wanted = p.below !== undefined ? `< ${p.below}` : `> ${p.above}`;
  line(
    `| ${p.name} | ${p.lat}, ${p.lng} | ${p.peril} | ${f2(s)} | ${wanted} | ${pinnedPointHolds(p, s) ? 'yes' : 'no'} |`,
  );
}

const w = process.argv.indexOf('--write');
if (w >= 0) {
  const page = path.resolve(process.argv[w + 1]);
  const text = fs.readFileSync(page, 'utf8');
  const start = text.indexOf('\nBaseline ');
  const end = text.indexOf('\n## Reading them');
  if (start < 0 || end < start)
    throw new Error(`${page}: no "Baseline …" line followed by "## Reading them" to replace; give the validation page`);
  fs.writeFileSync(page, text.slice(0, start + 1) + out.join('\n') + '\n' + text.slice(end));
} else process.stdout.write(out.join('\n') + '\n');
