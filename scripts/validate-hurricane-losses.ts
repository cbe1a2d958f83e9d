/**
 * The "Hurricane design winds and losses" section of docs/validation.md:
 *   npx tsc -p tsconfig.json && node dist/scripts/validate-hurricane-losses.js [--from ../shared/data] --models DIR [--years 10000] [--seed 1] [--samples 0] [--write docs/validation.md]
 * Design winds: builds the track catalog (--years, --seed), takes every storm's peak gust at the ten
 * coastal cities (the model's wind field) and prints the 100- and 700-year gusts beside ASCE 7 where cited.
 * Losses, all through the one loss engine (runBook: keys lookup, Oasis input files, kernel): the NRI
 * building value as an OED book on the hurricane package in DIR/hurricane (`catintel model build
 * hurricane --out DIR/hurricane`), one book per state and per Florida county, AAL rates beside FEMA NRI's
 * hurricane expected annual building loss; Andrew 1992 and Ian 2022 as one-event packages (their HURDAT2
 * tracks footprinted by the package's own code, the package's vulnerability) beside NOAA's reported
 * losses. --samples 0 (the default) takes the kernel's analytical mean. --write replaces the text between
 * the hurricane-losses markers (appending a heading and the markers when the page has none).
 */
import { writePageSection } from './lib/page-section.js';
import { arg, requiredModelsDir, sharedDataDir, wholeNumber } from './lib/script-args.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spearman } from '../src/lib/stats.js';
import { landGrid } from '../src/models/hurricane/land-grid.js';
import { buildHurricaneTrackSet } from '../src/models/hurricane/track-set.js';
import { historicalTracks, readAtlanticStorms } from '../src/models/hurricane/historical-tracks.js';
import { PointSet, pointPeakGusts } from '../src/models/hurricane/domain/footprint/point-gusts.js';
import { areaperilId, cellOf } from '../src/models/hurricane/domain/footprint/grid.js';
import { intensityBins } from '../src/models/hurricane/domain/intensity-bins.js';
import { gustAtReturnPeriod, type HazardCurve } from '../src/models/hurricane/domain/hazard-curve.js';
import { stormFootprint } from '../src/models/hurricane/package/storm-footprint.js';
import { COASTAL_CITIES, HISTORY_FROM, HISTORY_TO, siteOf } from '../src/models/hurricane/wind-validation.js';
import {
  GULF_ATLANTIC_STATES,
  LOSS_STORMS,
  WIND_ONLY,
  billionDollarLoss,
  floridaCountyRates,
  historicalStormModels,
} from '../src/models/hurricane/loss-validation.js';
import { compareRates, nriStateRates, stateRates, type RateComparison } from '../src/models/shared/nri-rates.js';
import {
  groupBy,
  groupLosses,
  modelsForBook,
  nriCountyExposure,
  type CountyExposure,
} from '../src/models/shared/nri-exposure-book.js';
import { packageOf } from '../src/epcurve/model-packages.js';
import { packageInfo } from '../src/epcurve/run-book.js';
import { ASCE7_REFERENCE_WINDS } from './lib/asce7-reference-winds.js';

const START = '<!-- hurricane-losses:start -->';
const END = '<!-- hurricane-losses:end -->';

const dataDir = sharedDataDir();
const years = wholeNumber('--years', 10_000);
const seed = wholeNumber('--seed', 1);
const samples = wholeNumber('--samples', 0, 0);
const modelsDir = requiredModelsDir('hurricane', 'catintel model build hurricane --years 1000');
const log = (s: string) => process.stderr.write(s + '\n');
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(0);

const grid = landGrid();
const set = buildHurricaneTrackSet({ dataDir, years, seed });
log(`catalog: ${years} years, ${set.tracks.length} tracks (${secs()} s)`);
const cityPoints = COASTAL_CITIES.map((c) => siteOf(grid, c.lat, c.lng));
const pointSet = new PointSet(cityPoints);
const gusts = set.tracks.map((t) => pointPeakGusts(t, pointSet));
const rate = 1 / years;
log(`gusts at ${cityPoints.length} cities (${secs()} s)`);

// ---- losses: the NRI book through the package and the kernel
const pkg = packageOf('hurricane_wind')!;
const { info } = packageInfo(pkg, modelsDir);
const counties = nriCountyExposure(dataDir);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-hurricane-losses-'));
const run = {
  pkg,
  perils: ['hurricane_wind' as const],
  dataDir,
  workDir: work,
  samples,
  seed: 1,
  progress: (m: string) => log(`  ${m} (${secs()} s)`),
};
let states: RateComparison;
let florida: RateComparison;
let eventRows: {
  storm: string;
  loss: number;
  reported: { cpiAdjusted: number; unadjusted: number };
  countiesAt75: number;
  top: { c: CountyExposure; bin: string; loss: number }[];
}[];
try {
  const models = await modelsForBook(counties, WIND_ONLY, { ...run, modelsDir });
  const nri = nriStateRates(dataDir, 'HRCN');
  const byState = await groupLosses(
    groupBy(counties, (c) => (nri.has(c.state) ? c.state : undefined)),
    WIND_ONLY,
    { ...run, modelsDir: models, progress: undefined },
  );
  states = stateRates(nri, byState);
  log(`state AALs (${secs()} s)`);
  const byFips = await groupLosses(
    groupBy(counties, (c) => (c.state === 'FL' ? c.fips : undefined)),
    WIND_ONLY,
    { ...run, modelsDir: models, progress: undefined },
  );
  florida = floridaCountyRates(dataDir, counties, byFips);
  log(`Florida county AALs (${secs()} s)`);

  const history = historicalTracks(readAtlanticStorms(dataDir), grid, HISTORY_FROM, HISTORY_TO);
  const bins = intensityBins();
  const coastal = counties.filter((c) => GULF_ATLANTIC_STATES.includes(c.state));
  eventRows = [];
  for (const s of LOSS_STORMS) {
    const t = history.find((x) => x.parentId === s.parentId);
    if (!t) throw new Error(`${s.parentId} is not in HURDAT2 ${HISTORY_FROM}–${HISTORY_TO}`);
    const eventModels = await historicalStormModels(
      t,
      grid,
      path.join(models, pkg.folder),
      path.join(work, `event-${s.parentId}`),
    );
    const all = await groupLosses(new Map([['all', coastal]]), WIND_ONLY, {
      ...run,
      modelsDir: eventModels,
      progress: undefined,
    });
    // The bin of the storm's gust on each county centre's cell (the footprint's wind rows), and the counties of hurricane force.
    const fp = stormFootprint(t, grid);
    const binOf = new Map<number, number>();
    for (let i = 0; i < fp.windRows; i++) binOf.set(fp.rows.readUInt32LE(i * 12), fp.rows.readInt32LE(i * 12 + 4));
    const centreBin = (c: CountyExposure) => {
      const cell = cellOf(c.lat, c.lng);
      return cell ? (binOf.get(areaperilId(cell.row, cell.col)) ?? 1) : 1;
    };
    const strong = coastal.filter((c) => bins[centreBin(c) - 1].fromMph >= 75);
    const byCounty = await groupLosses(
      groupBy(strong, (c) => c.fips),
      WIND_ONLY,
      { ...run, modelsDir: eventModels, progress: undefined },
    );
    const top = strong
      .map((c) => ({
        c,
        bin: `${bins[centreBin(c) - 1].fromMph}–${bins[centreBin(c) - 1].toMph}`,
        loss: byCounty.get(c.fips)?.aal ?? 0,
      }))
      .sort((a, b) => b.loss - a.loss)
      .slice(0, 3);
    eventRows.push({
      storm: s.storm,
      loss: all.get('all')!.aal,
      reported: billionDollarLoss(dataDir, s.noaaName),
      countiesAt75: strong.length,
      top,
    });
  }
  log(`storm losses (${secs()} s)`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

// ---- format
const out: string[] = [];
const line = (s = '') => out.push(s);
const f0 = (x: number | null | undefined) => (x == null || !Number.isFinite(x) ? '' : x.toFixed(0));
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const pct = (x: number) => (x * 100 >= 0.01 ? (x * 100).toFixed(3) : (x * 100).toPrecision(2)) + ' %';
const bn = (x: number) => '$' + (x / 1e9).toFixed(1) + ' B';

line(
  `Generated by \`node dist/scripts/validate-hurricane-losses.js --models DIR --years ${years} --seed ${seed}${samples ? ` --samples ${samples}` : ''} --write docs/validation.md\` (${secs()} s on this two-core machine while it was shared). Design winds: the stochastic catalog of ${years.toLocaleString('en-US')} years from seed ${seed} (${set.tracks.length.toLocaleString('en-US')} tracks, each 1/${years} per year) and the wind field of docs/hurricane-model.md. Losses: the hurricane model package of ${info.years.toLocaleString('en-US')} years from seed ${info.seed} (${info.events.toLocaleString('en-US')} events; \`catintel model build hurricane --years ${info.years} --seed ${info.seed}\`) run by the loss kernel (runBook: keys lookup, Oasis input files, kernel; ${samples ? `${samples} samples an event` : 'the analytical mean, no sampling'}) on the NRI building value as an OED book, wind only. Method and building mix: [hurricane-validation.md](hurricane-validation.md).`,
);
line();
line('### Design winds: return-period gusts at coastal cities against ASCE 7');
line();
line(
  '| city | storms ≥ 40 mph a century | 100-yr gust | 700-yr gust | ASCE 7 RC II (700-yr) | ours / ASCE 7 | source |',
);
line('|---|---|---|---|---|---|---|');
const cityRows = COASTAL_CITIES.map((city, c) => {
  const i = c;
  const peaks: HazardCurve['peaks'] = [];
  gusts.forEach((g, k) => {
    const j = g.points.indexOf(i);
    if (j >= 0) peaks.push({ gustMph: g.gustMph[j], rate, parentId: set.tracks[k].parentId });
  });
  peaks.sort((a, b) => b.gustMph - a.gustMph);
  const curve: HazardCurve = { peaks, spanYears: years, rateAboveEdge: peaks.length * rate };
  const ref = ASCE7_REFERENCE_WINDS.find((r) => r.city === city.name);
  return {
    city,
    perCentury: peaks.length * rate * 100,
    g100: gustAtReturnPeriod(curve, 100).gustMph,
    g700: gustAtReturnPeriod(curve, 700).gustMph,
    ref,
  };
});
for (const r of cityRows) {
  const ratio = r.ref && r.g700 ? r.g700 / r.ref.mph700 : NaN;
  line(
    `| ${r.city.name} | ${r.perCentury.toFixed(0)} | ${f0(r.g100)} | ${f0(r.g700)} | ${f0(r.ref?.mph700)} | ${Number.isFinite(ratio) ? f2(ratio) : ''} | ${r.ref?.source ?? ''} |`,
  );
}
const withRef = cityRows.filter((r) => r.ref && r.g700);
const within10 = withRef.filter((r) => Math.abs(r.g700! / r.ref!.mph700 - 1) <= 0.1).length;
line();
line(
  `Both return periods are read from the catalog directly (no tail fit: 700 years is well inside its ${years.toLocaleString('en-US')}). Cited ASCE 7 values: ${withRef.length} of ${cityRows.length} cities; ${within10} of them within 10 %. Spearman ρ over the cities needs the other values (${
    withRef.length >= 3
      ? f2(
          spearman(
            withRef.map((r) => r.g700!),
            withRef.map((r) => r.ref!.mph700),
          ),
        )
      : 'not computed with fewer than 3 cited cities'
  }); the 700-year ranking of our ten is ${[...cityRows]
    .sort((a, b) => (b.g700 ?? 0) - (a.g700 ?? 0))
    .map((r) => r.city.name.replace(/,.*/, ''))
    .join(' > ')}.`,
);
line();

const rateTable = (title: string, cmp: RateComparison, nameHead: string, nriHead: string) => {
  line(title);
  line();
  line(`| ${nameHead} | building value | our AAL rate | ${nriHead} | ours / NRI |`);
  line('|---|---|---|---|---|');
  for (const r of cmp.rows)
    line(`| ${r.name} | ${bn(r.value)} | ${pct(r.ours)} | ${pct(r.nri)} | ${r.nri > 0 ? f2(r.ours / r.nri) : ''} |`);
  line();
  line(
    `Spearman ρ = **${f2(cmp.rho)}** over ${cmp.rows.filter((r) => r.nri > 0).length}; median ratio ours / NRI = **${f2(cmp.medianRatio)}**.`,
  );
  line();
};
rateTable(
  '### Losses: state AAL rate against FEMA NRI v1.20 (hurricane, buildings)',
  states,
  'state',
  'NRI HRCN_EALB / BUILDVALUE',
);
const coastal = compareRates(states.rows.filter((r) => GULF_ATLANTIC_STATES.includes(r.name)));
line(
  `Over the ${coastal.rows.length} Gulf and Atlantic coastal states alone (${GULF_ATLANTIC_STATES.join(', ')}): Spearman ρ = **${f2(coastal.rho)}**, median ratio **${f2(coastal.medianRatio)}**. The inland states' NRI rates are a few millionths a year, from the remnants of storms whose weakened wind fields the model's vortex (tropical stages only) does not carry that far.`,
);
line();
rateTable('### Losses: Florida counties against FEMA NRI v1.19', florida, 'county', 'NRI HRCN_EALB / BUILDVALUE');

line("### Losses: Andrew 1992 and Ian 2022 on today's exposure against their reported losses");
line();
line(
  "| storm | counties whose centre's cell gets a gust of 75 mph or more | modelled building wind loss | NOAA total direct loss (2024 $) | (as reported) | modelled / NOAA (2024 $) |",
);
line('|---|---|---|---|---|---|');
for (const e of eventRows)
  line(
    `| ${e.storm} | ${e.countiesAt75} | ${bn(e.loss)} | ${bn(e.reported.cpiAdjusted)} | ${bn(e.reported.unadjusted)} | ${f2(e.loss / e.reported.cpiAdjusted)} |`,
  );
line();
line(
  'Where the modelled loss comes from (the three counties with the largest, the gust bin of the footprint at their centre of population, and their loss, each county its own run):',
);
line();
for (const e of eventRows)
  line(
    `- ${e.storm}: ${e.top.map((t) => `${t.c.county} ${t.c.state} ${t.bin} mph, ${bn(t.loss)} of ${bn(t.c.value)}`).join('; ')}.`,
  );
line();
line(
  "NOAA NCEI's billion-dollar list (`losses/noaa_billion_dollar`) gives total direct losses: insured and uninsured, buildings, contents, vehicles, infrastructure and agriculture, wind and water. The model's figure is the kernel's ground-up wind loss to buildings only over the one-event package, on NRI's present building value of the Gulf and Atlantic coastal states, so for a storm of long ago it includes the growth of exposure since, which the CPI adjustment does not.",
);
line();

const text = out.join('\n');
const page = arg('--write');
if (page) {
  const file = path.resolve(page);
  writePageSection(
    file,
    {
      start: START,
      end: END,
      heading: 'Hurricane design winds and losses against ASCE 7, FEMA NRI and reported losses',
    },
    text,
  );
  log(`wrote the hurricane losses section of ${file}`);
} else process.stdout.write(text + '\n');
