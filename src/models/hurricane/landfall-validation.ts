/**
 * The landfall referee of the hurricane event set: synthetic landfall rates by state and Saffir-Simpson
 * category against HURDAT2 1900-2024, as the Markdown section docs/validation.md carries between
 * <!-- hurricane-landfalls:start --> and <!-- hurricane-landfalls:end -->.
 */
import { buildTrackSet, HISTORICAL_PERIOD, historicalTracks } from './domain/track-set/build.js';
import { catalogLandfalls, COASTAL_STATES, countOf, recordLandfalls, tallyLandfalls, TERRITORIES, type LandfallTally } from './domain/track-set/landfall-rates.js';
import { poissonInterval } from './domain/track-set/poisson-interval.js';
import { readTrackSetInputs } from './track-set.js';

export const SECTION_START = '<!-- hurricane-landfalls:start -->';
export const SECTION_END = '<!-- hurricane-landfalls:end -->';

export interface LandfallComparison {
  state: string;
  minCategory: number;
  maxCategory: number;
  recordCount: number;
  recordRate: number;
  detectedCount: number;
  detectedRate: number;
  /** 90 % Poisson interval of the detected historical rate (per year). */
  low: number;
  high: number;
  syntheticRate: number;
  inside: boolean;
}

export interface LandfallValidation {
  years: number;
  seed: number;
  tracks: number;
  buildSeconds: number;
  recordYears: number;
  missingRecordYears: number[];
  states: LandfallComparison[];
  categories: LandfallComparison[];
  usTotal: LandfallComparison;
}

function compare(state: string, min: number, max: number, record: LandfallTally, detected: LandfallTally, synthetic: LandfallTally): LandfallComparison {
  const recordCount = countOf(record, state, min, max);
  const detectedCount = countOf(detected, state, min, max);
  const { low, high } = poissonInterval(detectedCount, 0.1);
  const syntheticRate = countOf(synthetic, state, min, max) / synthetic.years;
  return {
    state, minCategory: min, maxCategory: max,
    recordCount, recordRate: recordCount / record.years,
    detectedCount, detectedRate: detectedCount / detected.years,
    low: low / detected.years, high: high / detected.years,
    syntheticRate, inside: syntheticRate >= low / detected.years && syntheticRate <= high / detected.years,
  };
}

export function validateLandfalls(options: { dataDir: string; years: number; seed: number }): LandfallValidation {
  const inputs = readTrackSetInputs(options.dataDir);
  const t0 = performance.now();
  const set = buildTrackSet(inputs, options);
  const buildSeconds = (performance.now() - t0) / 1000;
  const historicalYears = HISTORICAL_PERIOD.lastYear - HISTORICAL_PERIOD.firstYear + 1;
  const synthetic = tallyLandfalls(catalogLandfalls(set.tracks, inputs.mask), set.years);
  const detected = tallyLandfalls(catalogLandfalls(historicalTracks(inputs), inputs.mask), historicalYears);
  const rec = recordLandfalls(inputs.storms, inputs.mask);
  const record = tallyLandfalls(rec.perStorm, rec.years);
  const states = [...COASTAL_STATES, ...TERRITORIES].map((s) => compare(s, 1, 5, record, detected, synthetic));
  const categories = [1, 2, 3, 4, 5].map((c) => compare('US', c, c, record, detected, synthetic));
  categories.push(compare('US', 3, 5, record, detected, synthetic));
  return {
    years: set.years, seed: set.seed, tracks: set.tracks.length, buildSeconds,
    recordYears: rec.years, missingRecordYears: rec.missingYears,
    states, categories, usTotal: compare('US', 1, 5, record, detected, synthetic),
  };
}

const r3 = (x: number) => x.toFixed(3);
/** Inside its interval but this far (relative) from the record's rate is still listed as a disagreement. */
const LOOSE = 0.25;

/** 1922, 1971, 1972, ... 1982 as "1922, 1971–1982". */
function yearRanges(years: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < years.length; ) {
    let j = i;
    while (j + 1 < years.length && years[j + 1] === years[j] + 1) j++;
    parts.push(i === j ? `${years[i]}` : `${years[i]}–${years[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

function row(label: string, c: LandfallComparison): string {
  const ratio = c.detectedRate > 0 ? (c.syntheticRate / c.detectedRate).toFixed(2) : '–';
  return `| ${label} | ${c.recordCount} (${r3(c.recordRate)}) | ${c.detectedCount} (${r3(c.detectedRate)}) | ${r3(c.low)}–${r3(c.high)} | ${r3(c.syntheticRate)} | ${ratio} | ${c.inside ? 'yes' : '**no**'} |`;
}

export function formatLandfallSection(v: LandfallValidation): string {
  const gapText = yearRanges(v.missingRecordYears) || 'no year';
  const out: string[] = [];
  const head = '| | HURDAT2 \'L\' records: storms (per year) | same detector on HURDAT2 tracks: storms (per year) | 90 % Poisson interval, per year | synthetic per year | synthetic / history | inside |';
  const rule = '|---|---|---|---|---|---|---|';
  out.push(
    SECTION_START,
    '## Hurricane event set: landfalls by state and category',
    '',
    'Printed by `node dist/scripts/validate-hurricane-landfalls.js --from ../shared/data --write docs/validation.md`',
    `(\`scripts/validate-hurricane-landfalls.ts\`; method in [hurricane-model.md](hurricane-model.md#event-set)). Catalog: ${v.years.toLocaleString('en-US')} simulated years, seed ${v.seed},`,
    `${v.tracks.toLocaleString('en-US')} tracks, built in ${v.buildSeconds.toFixed(1)} s. History: HURDAT2 ${HISTORICAL_PERIOD.firstYear}–${HISTORICAL_PERIOD.lastYear}.`,
    '',
    'A landfall is a hurricane (Cat 1–5) centre crossing from open water onto a state\'s land, counted once per storm and',
    'state at its strongest; the US total counts each storm once at its strongest US landfall (Puerto Rico apart). The',
    'reference is the same landfall detector run on the HURDAT2 tracks (every year, like for like with the catalog);',
    `the HURDAT2 'L' records placed on states are shown beside it as a check of the detector, over the ${v.recordYears} years`,
    `that have them (HURDAT2 has no 'L' records for ${gapText}). The interval is the exact 90 % Poisson interval of the`,
    'detected historical count; "inside" says whether the synthetic rate falls in it.',
    '',
    '### By state (Cat 1–5)',
    '',
    head,
    rule,
  );
  for (const c of v.states) out.push(row(c.state, c));
  out.push(row('**US total**', v.usTotal));
  const usRatio = v.usTotal.syntheticRate / v.usTotal.detectedRate;
  out.push('', `US total: synthetic / history = ${usRatio.toFixed(3)} (${usRatio >= 0.9 && usRatio <= 1.1 ? 'within' : '**outside**'} 10 %).`, '', '### US landfalls by Saffir-Simpson category', '', head, rule);
  for (const c of v.categories) out.push(row(c.minCategory === c.maxCategory ? `Cat ${c.minCategory}` : `Cat ${c.minCategory}–${c.maxCategory}`, c));
  const outside = [...v.states, ...v.categories].filter((c) => !c.inside);
  const label = (c: LandfallComparison) => (c.state === 'US' ? `US Cat ${c.minCategory}${c.maxCategory !== c.minCategory ? `–${c.maxCategory}` : ''}` : c.state);
  out.push('', '### What disagrees', '');
  if (!outside.length) out.push('Every state and category is inside its interval.');
  for (const c of outside) out.push(`- **Outside:** ${label(c)}: synthetic ${r3(c.syntheticRate)} per year against ${r3(c.detectedRate)} in the record (interval ${r3(c.low)}–${r3(c.high)}).`);
  const off = [...v.states, ...v.categories].filter((c) => c.inside && (c.detectedRate === 0 ? c.syntheticRate >= 0.005 : Math.abs(c.syntheticRate / c.detectedRate - 1) > LOOSE));
  if (off.length) {
    out.push(`- Inside the interval but more than ${LOOSE * 100} % from the record's rate (small counts, where the random walk moves landfalls between neighbours): ` +
      off.map((c) => `${label(c)} ${r3(c.syntheticRate)} vs ${r3(c.detectedRate)}`).join('; ') + '.');
  }
  const recordVsDetector = v.states.filter((c) => Math.abs(c.recordRate - c.detectedRate) > 0.015);
  if (recordVsDetector.length) {
    out.push(`- The detector against HURDAT2's own 'L' records (rates per year): ` + recordVsDetector.map((c) => `${label(c)} ${r3(c.detectedRate)} vs ${r3(c.recordRate)}`).join('; ') +
      `. The records cover ${v.recordYears} years, the detector all 125; the records mark the landfalls HURDAT2 judged official, the detector counts every crossing from open water at hurricane strength on the hourly track.`);
  }
  out.push(SECTION_END);
  return out.join('\n');
}

/** The page with the section replaced, or appended at the end when the markers are absent. */
export function withLandfallSection(page: string, section: string): string {
  const start = page.indexOf(SECTION_START);
  const end = page.indexOf(SECTION_END);
  if (start >= 0 && end > start) return page.slice(0, start) + section + page.slice(end + SECTION_END.length);
  return page.replace(/\s*$/, '\n\n') + section + '\n';
}
