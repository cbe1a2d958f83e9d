/**
 * The "Hurricane design winds and losses" section of docs/validation.md, from the stochastic catalog:
 *   npx tsc -p tsconfig.json && node dist/scripts/validate-hurricane-losses.js [--from ../shared/data] [--years 10000] [--seed 1] [--write docs/validation.md]
 * Builds the catalog, takes every storm's peak gust at the ten coastal cities and at every county's centre
 * of population (the model's wind field), and prints: the 100- and 700-year gusts at the cities beside
 * ASCE 7 where cited; state and Florida county AAL rates on the NRI building value beside FEMA NRI's
 * hurricane expected annual building loss; Andrew 1992 and Ian 2022 through the same wind and
 * vulnerability beside NOAA's reported losses. --write replaces the text between the hurricane-losses
 * markers (appending a heading and the markers when the page has none).
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/lib/package-root.js';
import { spearman } from '../src/lib/stats.js';
import { landGrid } from '../src/models/hurricane/land-grid.js';
import { buildHurricaneTrackSet } from '../src/models/hurricane/track-set.js';
import { historicalTracks, readAtlanticStorms } from '../src/models/hurricane/historical-tracks.js';
import { PointSet, pointPeakGusts } from '../src/models/hurricane/domain/footprint/point-gusts.js';
import { binOfGust } from '../src/models/hurricane/domain/intensity-bins.js';
import { gustAtReturnPeriod, type HazardCurve } from '../src/models/hurricane/domain/hazard-curve.js';
import { indexConfigurations } from '../src/models/hurricane/domain/vulnerability/vulnerability-table.js';
import { readHazusHurricane } from '../src/models/hurricane/io/hazus-hurricane-data.js';
import { HAZUS_HURRICANE_DIR } from '../src/models/hurricane/package/build.js';
import { MIX_FLORIDA, MIX_US, mixFor, mixMeanDamageByBin } from '../src/models/hurricane/building-mix.js';
import { COASTAL_CITIES, HISTORY_FROM, HISTORY_TO, siteOf } from '../src/models/hurricane/wind-validation.js';
import { GULF_ATLANTIC_STATES, LOSS_STORMS, aalByPoint, compareRates, billionDollarLoss, catalogPointGusts, floridaCountyRates, nriExposure, stateRates, stormLoss, type ExposurePoint, type RateComparison } from '../src/models/hurricane/loss-validation.js';
import { ASCE7_REFERENCE_WINDS } from './lib/asce7-reference-winds.js';

const START = '<!-- hurricane-losses:start -->';
const END = '<!-- hurricane-losses:end -->';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
function wholeNumber(name: string, fallback: number): number {
  const raw = arg(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`${name} must be a positive whole number, got "${raw}"\n`);
    process.exit(2);
  }
  return n;
}
const dataDir = path.resolve(arg('--from') ?? path.join(packageRoot(), '..', 'shared', 'data'));
const years = wholeNumber('--years', 10_000);
const seed = wholeNumber('--seed', 1);
const log = (s: string) => process.stderr.write(s + '\n');
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(0);

const grid = landGrid();
const set = buildHurricaneTrackSet({ dataDir, years, seed });
log(`catalog: ${years} years, ${set.tracks.length} tracks (${secs()} s)`);
const counties = nriExposure(dataDir, grid);
const cityPoints: ExposurePoint[] = COASTAL_CITIES.map((c) => ({ ...siteOf(grid, c.lat, c.lng), fips: '', county: c.name, state: '', value: 0 }));
const points = [...counties, ...cityPoints];
const pointSet = new PointSet(points);
const gusts = catalogPointGusts(set.tracks, pointSet);
log(`gusts at ${counties.length} county centres and ${cityPoints.length} cities (${secs()} s)`);

const hazus = indexConfigurations(readHazusHurricane(path.join(dataDir, HAZUS_HURRICANE_DIR)));
const mdr = { FL: mixMeanDamageByBin(MIX_FLORIDA, hazus), US: mixMeanDamageByBin(MIX_US, hazus) };
const mdrOf = (p: ExposurePoint) => (mixFor(p.state) === MIX_FLORIDA ? mdr.FL : mdr.US);
const rate = 1 / years;
const aal = aalByPoint(gusts, rate, points, mdrOf);
const states = stateRates(dataDir, counties, aal);
const florida = floridaCountyRates(dataDir, counties, aal);

const storms = readAtlanticStorms(dataDir);
const history = historicalTracks(storms, grid, HISTORY_FROM, HISTORY_TO);
const eventRows = LOSS_STORMS.map((s) => {
  const t = history.find((x) => x.parentId === s.parentId);
  if (!t) throw new Error(`${s.parentId} is not in HURDAT2 ${HISTORY_FROM}–${HISTORY_TO}`);
  const g = pointPeakGusts(t, pointSet);
  const loss = stormLoss(g, points, mdrOf);
  let counted = 0;
  g.points.forEach((i, j) => {
    if (i < counties.length && g.gustMph[j] >= 74) counted++;
  });
  // The counties that carry most of the modelled loss, to read what drives it.
  const top = [...g.points]
    .map((i, j) => ({ i, gust: g.gustMph[j] }))
    .filter((x) => x.i < counties.length)
    .map((x) => ({ ...x, loss: counties[x.i].value * mdrOf(counties[x.i])[binOfGust(x.gust) - 1] }))
    .sort((a, b) => b.loss - a.loss)
    .slice(0, 3);
  return { ...s, loss, reported: billionDollarLoss(dataDir, s.noaaName), countiesAt74: counted, top };
});
log(`losses (${secs()} s)`);

// ---- format
const out: string[] = [];
const line = (s = '') => out.push(s);
const f0 = (x: number | null | undefined) => (x == null || !Number.isFinite(x) ? '' : x.toFixed(0));
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const pct = (x: number) => (x * 100 >= 0.01 ? (x * 100).toFixed(3) : (x * 100).toPrecision(2)) + ' %';
const bn = (x: number) => '$' + (x / 1e9).toFixed(1) + ' B';

line(`Generated by \`node dist/scripts/validate-hurricane-losses.js --years ${years} --seed ${seed} --write docs/validation.md\` (${secs()} s on this two-core machine while it was shared) from the stochastic catalog of ${years.toLocaleString('en-US')} years from seed ${seed} (${set.tracks.length.toLocaleString('en-US')} tracks, each 1/${years} per year), the wind field of docs/hurricane-model.md and the HAZUS 5.1 vulnerability the model package uses. Method and building mix: [hurricane-validation.md](hurricane-validation.md).`);
line();
line('### Design winds: return-period gusts at coastal cities against ASCE 7');
line();
line('| city | storms ≥ 40 mph a century | 100-yr gust | 700-yr gust | ASCE 7 RC II (700-yr) | ours / ASCE 7 | source |');
line('|---|---|---|---|---|---|---|');
const cityRows = COASTAL_CITIES.map((city, c) => {
  const i = counties.length + c;
  const peaks: HazardCurve['peaks'] = [];
  gusts.forEach((g, k) => {
    const j = g.points.indexOf(i);
    if (j >= 0) peaks.push({ gustMph: g.gustMph[j], rate, parentId: set.tracks[k].parentId });
  });
  peaks.sort((a, b) => b.gustMph - a.gustMph);
  const curve: HazardCurve = { peaks, spanYears: years, rateAboveEdge: peaks.length * rate };
  const ref = ASCE7_REFERENCE_WINDS.find((r) => r.city === city.name);
  return { city, perCentury: peaks.length * rate * 100, g100: gustAtReturnPeriod(curve, 100).gustMph, g700: gustAtReturnPeriod(curve, 700).gustMph, ref };
});
for (const r of cityRows) {
  const ratio = r.ref && r.g700 ? r.g700 / r.ref.mph700 : NaN;
  line(`| ${r.city.name} | ${r.perCentury.toFixed(0)} | ${f0(r.g100)} | ${f0(r.g700)} | ${f0(r.ref?.mph700)} | ${Number.isFinite(ratio) ? f2(ratio) : ''} | ${r.ref?.source ?? ''} |`);
}
const withRef = cityRows.filter((r) => r.ref && r.g700);
const within10 = withRef.filter((r) => Math.abs(r.g700! / r.ref!.mph700 - 1) <= 0.1).length;
line();
line(`Both return periods are read from the catalog directly (no tail fit: 700 years is well inside its ${years.toLocaleString('en-US')}). Cited ASCE 7 values: ${withRef.length} of ${cityRows.length} cities; ${within10} of them within 10 %. Spearman ρ over the cities needs the other values (${withRef.length >= 3 ? f2(spearman(withRef.map((r) => r.g700!), withRef.map((r) => r.ref!.mph700))) : 'not computed with fewer than 3 cited cities'}); the 700-year ranking of our ten is ${[...cityRows].sort((a, b) => (b.g700 ?? 0) - (a.g700 ?? 0)).map((r) => r.city.name.replace(/,.*/, '')).join(' > ')}.`);
line();

const rateTable = (title: string, cmp: RateComparison, nameHead: string, nriHead: string) => {
  line(title);
  line();
  line(`| ${nameHead} | building value | our AAL rate | ${nriHead} | ours / NRI |`);
  line('|---|---|---|---|---|');
  for (const r of cmp.rows) line(`| ${r.name} | ${bn(r.value)} | ${pct(r.ours)} | ${pct(r.nri)} | ${r.nri > 0 ? f2(r.ours / r.nri) : ''} |`);
  line();
  line(`Spearman ρ = **${f2(cmp.rho)}** over ${cmp.rows.filter((r) => r.nri > 0).length}; median ratio ours / NRI = **${f2(cmp.medianRatio)}**.`);
  line();
};
rateTable('### Losses: state AAL rate against FEMA NRI v1.20 (hurricane, buildings)', states, 'state', 'NRI HRCN_EALB / BUILDVALUE');
const coastal = compareRates(states.rows.filter((r) => GULF_ATLANTIC_STATES.includes(r.name)));
line(`Over the ${coastal.rows.length} Gulf and Atlantic coastal states alone (${GULF_ATLANTIC_STATES.join(', ')}): Spearman ρ = **${f2(coastal.rho)}**, median ratio **${f2(coastal.medianRatio)}**. The inland states' NRI rates are a few millionths a year, from the remnants of storms whose weakened wind fields the model's vortex (tropical stages only) does not carry that far.`);
line();
rateTable('### Losses: Florida counties against FEMA NRI v1.19', florida, 'county', 'NRI HRCN_EALB / BUILDVALUE');

line('### Losses: Andrew 1992 and Ian 2022 on today\'s exposure against their reported losses');
line();
line('| storm | counties with a gust ≥ 74 mph at their centre | modelled building wind loss | NOAA total direct loss (2024 $) | (as reported) | modelled / NOAA (2024 $) |');
line('|---|---|---|---|---|---|');
for (const e of eventRows) line(`| ${e.storm} | ${e.countiesAt74} | ${bn(e.loss)} | ${bn(e.reported.cpiAdjusted)} | ${bn(e.reported.unadjusted)} | ${f2(e.loss / e.reported.cpiAdjusted)} |`);
line();
line('Where the modelled loss comes from (the three counties with the largest, their gust at the centre of population and their loss):');
line();
for (const e of eventRows) line(`- ${e.storm}: ${e.top.map((t) => `${counties[t.i].county} ${counties[t.i].state} ${f0(t.gust)} mph, ${bn(t.loss)} of ${bn(counties[t.i].value)}`).join('; ')}.`);
line();
line('NOAA NCEI\'s billion-dollar list (`losses/noaa_billion_dollar`) gives total direct losses: insured and uninsured, buildings, contents, vehicles, infrastructure and agriculture, wind and water. The model\'s figure is the wind damage to buildings only, on NRI\'s present building value, so for a storm of long ago it includes the growth of exposure since, which the CPI adjustment does not.');
line();

const text = out.join('\n');
const page = arg('--write');
if (page) {
  const file = path.resolve(page);
  let doc = fs.readFileSync(file, 'utf8');
  if (!doc.includes(START)) doc = doc.replace(/\n*$/, '\n\n## Hurricane design winds and losses against ASCE 7, FEMA NRI and reported losses\n\n' + START + '\n' + END + '\n');
  const a = doc.indexOf(START) + START.length;
  const b = doc.indexOf(END);
  if (b < a) throw new Error(`${file}: the marker ${END} must follow ${START}; fix the page and run again`);
  fs.writeFileSync(file, doc.slice(0, a) + '\n' + text + '\n' + doc.slice(b));
  log(`wrote the hurricane losses section of ${file}`);
} else process.stdout.write(text + '\n');
