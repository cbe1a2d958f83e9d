/**
 * The "Earthquake losses" section of docs/validation.md:
 *   npx tsc -p tsconfig.json && node dist/scripts/validate-earthquake-losses.js [--from ../shared/data] --models DIR [--samples 0] [--write docs/validation.md]
 * Every loss through the one loss engine (runBook: keys lookup, Oasis input files, kernel): the NRI
 * building value as an OED book on the earthquake package in DIR/earthquake (`catintel model build
 * earthquake --years N --out DIR/earthquake`), one book per state and per California county, AAL rates
 * beside FEMA NRI's earthquake expected annual building loss; Northridge 1994 and Loma Prieta 1989 as
 * one-event packages (published rupture planes footprinted by the package's own ground-motion code, the
 * package's vulnerability) beside their reported losses; the Loma Prieta ShakeMap's PGA beside our median.
 * --samples 0 (the default) takes the kernel's analytical mean. --write replaces the text between the
 * earthquake-losses markers (appending a heading and the markers when the page has none).
 */
import { writePageSection } from './lib/page-section.js';
import { arg, requiredModelsDir, sharedDataDir, wholeNumber } from './lib/script-args.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageOf } from '../src/epcurve/model-packages.js';
import { packageInfo } from '../src/epcurve/run-book.js';
import { faultDistances } from '../src/models/earthquake/domain/rupture-set.js';
import {
  HISTORICAL_QUAKES,
  SHAKE_ONLY,
  californiaCountyRates,
  historicalQuakeModels,
  noaaCpiFactor,
  shakeMapComparison,
} from '../src/models/earthquake/loss-validation.js';
import {
  groupBy,
  groupLosses,
  modelsForBook,
  nriCountyExposure,
  type CountyExposure,
} from '../src/models/shared/nri-exposure-book.js';
import { compareRates, nriStateRates, stateRates, type RateComparison } from '../src/models/shared/nri-rates.js';

const START = '<!-- earthquake-losses:start -->';
const END = '<!-- earthquake-losses:end -->';

const dataDir = sharedDataDir();
const samples = wholeNumber('--samples', 0, 0);
const modelsDir = requiredModelsDir('earthquake', 'catintel model build earthquake --years 5000');
const log = (s: string) => process.stderr.write(s + '\n');
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(0);

const pkg = packageOf('earthquake')!;
const { info } = packageInfo(pkg, modelsDir);
const counties = nriCountyExposure(dataDir);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-earthquake-losses-'));
const run = {
  pkg,
  perils: ['earthquake' as const],
  dataDir,
  workDir: work,
  samples,
  seed: 1,
  progress: (m: string) => log(`  ${m} (${secs()} s)`),
};
let states: RateComparison;
let outside: string[] = [];
let california: RateComparison;
const quakeRows: {
  name: string;
  loss: number;
  cpi: number;
  reported: (typeof HISTORICAL_QUAKES)[number]['reported'];
  top: { c: CountyExposure; loss: number; rrupKm: number }[];
}[] = [];
try {
  const models = await modelsForBook(counties, SHAKE_ONLY, { ...run, modelsDir });
  log(`book vulnerabilities (${secs()} s)`);
  const nri = nriStateRates(dataDir, 'ERQK');
  const byState = await groupLosses(
    groupBy(counties, (c) => (nri.has(c.state) ? c.state : undefined)),
    SHAKE_ONLY,
    { ...run, modelsDir: models, progress: undefined },
  );
  states = stateRates(nri, byState);
  outside = states.rows.filter((r) => byState.get(r.name)!.keyed === 0).map((r) => r.name);
  log(`state AALs (${secs()} s)`);
  const ca = counties.filter((c) => c.state === 'CA');
  const byFips = await groupLosses(
    groupBy(ca, (c) => c.fips),
    SHAKE_ONLY,
    { ...run, modelsDir: models, progress: undefined },
  );
  california = californiaCountyRates(dataDir, counties, byFips);
  log(`California county AALs (${secs()} s)`);
  for (const q of HISTORICAL_QUAKES) {
    const eventModels = await historicalQuakeModels(
      q.rupture,
      dataDir,
      path.join(models, pkg.folder),
      path.join(work, `event-${quakeRows.length + 1}`),
    );
    const all = await groupLosses(new Map([['CA', ca]]), SHAKE_ONLY, {
      ...run,
      modelsDir: eventModels,
      progress: undefined,
    });
    // The counties whose centre of population is within 60 km of the rupture, each its own run, for where the loss comes from.
    const near = ca
      .map((c) => ({ c, rrupKm: faultDistances(c.lat, c.lng, q.rupture).rrupKm }))
      .filter((x) => x.rrupKm < 60);
    const byCounty = await groupLosses(
      groupBy(
        near.map((x) => x.c),
        (c) => c.fips,
      ),
      SHAKE_ONLY,
      { ...run, modelsDir: eventModels, progress: undefined },
    );
    const top = near
      .map((x) => ({ ...x, loss: byCounty.get(x.c.fips)?.aal ?? 0 }))
      .sort((a, b) => b.loss - a.loss)
      .slice(0, 3);
    quakeRows.push({
      name: q.name,
      loss: all.get('CA')!.aal,
      cpi: noaaCpiFactor(dataDir, q.cpiFrom),
      reported: q.reported,
      top,
    });
  }
  log(`earthquake losses (${secs()} s)`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
const loma = HISTORICAL_QUAKES.find((q) => q.name.startsWith('Loma'))!;
const bands = shakeMapComparison(dataDir, loma.rupture);

// ---- format
const out: string[] = [];
const line = (s = '') => out.push(s);
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const pct = (x: number) => (x * 100 >= 0.01 ? (x * 100).toFixed(3) : (x * 100).toPrecision(2)) + ' %';
const bn = (x: number) => '$' + (x / 1e9).toFixed(1) + ' B';

line(
  `Generated by \`node dist/scripts/validate-earthquake-losses.js --models DIR${samples ? ` --samples ${samples}` : ''} --write docs/validation.md\` (${secs()} s on this two-core machine while it was shared) from the earthquake model package of ${info.years.toLocaleString('en-US')} years from seed ${info.seed} (${info.events.toLocaleString('en-US')} events; \`catintel model build earthquake --years ${info.years} --seed ${info.seed}\`), run by the loss kernel (runBook: keys lookup, Oasis input files, kernel; ${samples ? `${samples} samples an event` : 'the analytical mean, no sampling'}) on the NRI building value as an OED book, earthquake shaking only. Method, building mix and what disagrees: [earthquake-validation.md](earthquake-validation.md).`,
);
line();
const rateTable = (title: string, cmp: RateComparison, nameHead: string) => {
  line(title);
  line();
  line(`| ${nameHead} | building value | our AAL rate | NRI ERQK_EALB / BUILDVALUE | ours / NRI |`);
  line('|---|---|---|---|---|');
  for (const r of cmp.rows)
    line(`| ${r.name} | ${bn(r.value)} | ${pct(r.ours)} | ${pct(r.nri)} | ${r.nri > 0 ? f2(r.ours / r.nri) : ''} |`);
  line();
  line(
    `Spearman ρ = **${f2(cmp.rho)}** over ${cmp.rows.filter((r) => r.nri > 0).length}; median ratio ours / NRI = **${f2(cmp.medianRatio)}**.`,
  );
  line();
};
rateTable('### State AAL rate against FEMA NRI v1.20 (earthquake, buildings)', states!, 'state');
const inside = compareRates(states!.rows.filter((r) => !outside.includes(r.name)));
line(
  `Over the ${inside.rows.length} states the model covers (not ${outside.join(' and ')}, outside its contiguous-US domain, where the package places no location): Spearman ρ = **${f2(inside.rho)}**, median ratio **${f2(inside.medianRatio)}**.`,
);
line();
rateTable('### California counties against FEMA NRI v1.19', california!, 'county');

line("### Northridge 1994 and Loma Prieta 1989 on today's exposure against their reported losses");
line();
line(
  '| earthquake | modelled building loss (California book) | reported total (as reported) | in 2024 $ | modelled / total | reported insured (as reported) | in 2024 $ | modelled / insured |',
);
line('|---|---|---|---|---|---|---|---|');
for (const q of quakeRows) {
  const total = q.reported.total * q.cpi;
  const insured = q.reported.insured * q.cpi;
  line(
    `| ${q.name} | ${bn(q.loss)} | ${bn(q.reported.total)} | ${bn(total)} | ${f2(q.loss / total)} | ${bn(q.reported.insured)} | ${bn(insured)} | ${f2(q.loss / insured)} |`,
  );
}
line();
line(
  'Reported figures: ' +
    quakeRows.map((q) => `${q.name}: ${q.reported.totalSource}; ${q.reported.insuredSource}`).join('. ') +
    ". NOAA's billion-dollar list (`losses/noaa_billion_dollar`) holds weather and climate disasters only, no earthquakes; its CPI adjustment of the event nearest in time (" +
    HISTORICAL_QUAKES.map((q, i) => `${q.cpiFrom}: ×${f2(quakeRows[i].cpi)}`).join('; ') +
    ') brings the reported figures to 2024 dollars.',
);
line();
line(
  'Where the modelled loss comes from (the three counties with the largest, the rupture distance of their centre of population, and their loss, each county its own run):',
);
line();
for (const q of quakeRows)
  line(
    `- ${q.name}: ${q.top.map((t) => `${t.c.county} ${t.rrupKm.toFixed(0)} km, ${bn(t.loss)} of ${bn(t.c.value)}`).join('; ')}.`,
  );
line();
line("### Loma Prieta 1989: the ShakeMap's PGA against our median");
line();
line(
  "ShakeMap PGA over our median PGA for the same rupture (geometric mean over the grid nodes, by rupture distance), with our median at Vs30 760 m/s (what the package's footprints use) and at each node's own Vs30 (the ShakeMap's SVEL field):",
);
line();
line("| rupture distance | nodes | ShakeMap / ours at 760 m/s | ShakeMap / ours at the node's Vs30 |");
line('|---|---|---|---|');
for (const b of bands) line(`| ${b.fromKm}–${b.toKm} km | ${b.nodes} | ${f2(b.ratio760)} | ${f2(b.ratioSite)} |`);
line();

const text = out.join('\n');
const page = arg('--write');
if (page) {
  const file = path.resolve(page);
  writePageSection(
    file,
    { start: START, end: END, heading: 'Earthquake losses against FEMA NRI and reported losses' },
    text,
  );
  log(`wrote the earthquake losses section of ${file}`);
} else process.stdout.write(text + '\n');
