/**
 * What each benchmark is for: a one-line name for people, how its JSON line reads as a result, its goal,
 * and whether the line meets it. scripts/performance-table.ts writes the README's Performance rows from
 * these and bench/results.jsonl; a benchmark without an entry here still gets a plain row.
 */
import type { Measurement } from './report.js';
import type { UntypedRecord } from '../src/lib/untyped-json.js';

export interface Goal {
  /** The benchmark, for a reader of the README. */
  label: (m: Measurement) => string;
  result: (m: Measurement) => string;
  /** The goal in words; undefined: measured for reference, no goal. */
  target?: string;
  met?: (m: Measurement) => boolean;
}

/** A line with the fields its own benchmark adds (each goal reads the fields its benchmark emits). */
type Line = Measurement & UntypedRecord;

/** 12900 -> "12,900"; 0.065 -> "0.065". */
export const num = (x: number) => (Math.abs(x) >= 1000 ? Math.round(x).toLocaleString('en-US') : String(x));
const mb = (x: number) => (x >= 1000 ? `${Math.round(x / 100) / 10} GB` : `${num(x)} MB`);

/** An uncached /events/* mix against a bare h3 handler serving the same body sizes. */
const uncached = (what: string): Goal => ({
  label: () => `${what}, uncached (the live index answers), vs a bare h3 handler`,
  result: (m: Line) =>
    `${num(m.per_second)} req/s (p99 ${m.p99_ms} ms) vs ${num(m.bare_per_second)}: ratio ${m.ratio_to_bare}; CPU ${m.cpu_us_per_request} vs ${m.bare_cpu_us_per_request} µs a request`,
  target: 'ratio ≥ 0.5',
  met: (m: Line) => m.ratio_to_bare >= m.target_ratio,
});

/** Oasis loss runs against oasislmf's own generate-losses on the same files. */
const oasisRun = (what: string, target?: number): Goal => ({
  label: () => `\`catintel oasis run\` vs oasislmf \`generate-losses\`, ${what}`,
  result: (m: Line) =>
    `${m.seconds} s vs ${m.referee_seconds} s: ${m.ratio}×${m.peak_rss_mb ? `, peak RSS ${mb(m.peak_rss_mb)}` : ''}`,
  ...(target ? { target: `≥ ${target}×`, met: (m: Line) => m.ratio >= target } : {}),
});

/** Load averages as the benchmark recorded them (the machine is shared): "load 3.1 -> 4.2". */
const tenth = (x: number) => num(Math.round(x * 10) / 10);
const loadOf = (m: Line) =>
  `load ${[m.load_average]
    .flat()
    .map((x: number) => x.toFixed(1))
    .join(' -> ')} on ${m.cores} cores`;

/** `catintel model build <model>` of a package for the EP benchmark. */
const epBuild = (model: string): Goal => ({
  label: (m: Line) => `\`catintel model build ${model} --years ${num(m.years)}\` (${num(m.events)} events)`,
  result: (m: Line) =>
    `${tenth(m.seconds)} s (${tenth(m.cpu_seconds)} s of CPU), ${mb(m.package_mb)} on disk, peak RSS ${mb(m.peak_rss_mb)}; ${loadOf(m)}`,
});

/** `portfolio ep-curve` of a 100,000-location book on a model package, ground-up and insured. */
const epRun = (model: string, book: string): Goal => ({
  label: (m: Line) =>
    `\`portfolio ep-curve\` on the ${model} model (${m.model}): ${num(m.locations)} locations (${book}, location and policy terms) x ${num(m.years)} years x ${m.samples} samples`,
  result: (m: Line) =>
    `${tenth(m.seconds)} s (${tenth(m.cpu_seconds)} s of CPU), peak RSS ${mb(m.peak_rss_mb)}; ${loadOf(m)}`,
  target: '100,000 locations x 10,000 years x 10 samples: < 60 s, < 4 GB',
  met: (m: Line) =>
    m.locations >= m.target.locations &&
    m.years >= m.target.years &&
    m.seconds < m.target.seconds &&
    m.peak_rss_mb < m.target.peak_rss_mb,
});

export const GOALS: Record<string, Goal> = {
  'ingest.usgs_week_feed': {
    label: (m) => `ingest of the ${num(m.n)}-event USGS week feed into a new store (median of ${m.runs})`,
    result: (m) => `${m.seconds} s (${num(m.per_second)} records/s), peak RSS ${mb(m.peak_rss_mb)}`,
    target: '< 1 s',
    met: (m: Line) => m.seconds < m.target_seconds,
  },
  'http.events_live.catintel': {
    label: (m: Line) => `\`GET /events/live?limit=100\` (${m.body_kb} KB), 2 s cache on, vs a bare h3 handler`,
    result: (m: Line) =>
      `${num(m.per_second)} req/s (p99 ${m.p99_ms} ms) vs ${num(m.bare_per_second)}: ratio ${m.ratio_to_bare}`,
    target: 'ratio ≥ 0.5',
    met: (m: Line) => m.ratio_to_bare >= m.target_ratio,
  },
  'http.events_live.catintel_uncached': uncached('`GET /events/live?limit=100`'),
  'http.events_live.varied_uncached': uncached('`/events/live`, 300 varied URLs'),
  'http.events_nearby.varied_uncached': uncached('`/events/nearby`, 300 varied URLs'),
  'http.events_show.varied_uncached': uncached('`/events/{id}`, 300 varied URLs'),
  'http.events_live.varied_uncached_sql': {
    label: () => '`/events/live`, 300 varied URLs, read from DuckDB (the path before the live index)',
    result: (m: Line) => `${num(m.per_second)} req/s, p99 ${num(m.p99_ms)} ms: ratio ${m.ratio_to_bare}`,
  },
  'load.mix': {
    label: (m: Line) =>
      `\`npm run load\`: the request mix on a real \`catintel serve\`, ${m.connections} connections, ${m.seconds} s`,
    result: (m: Line) =>
      `${num(m.per_second)} req/s, p50 ${m.p50_ms} ms, p99 ${m.p99_ms} ms, ${m.errors} errors, ${m.rate_limited_in_mix} unexpected 429s`,
    target: 'no errors',
    met: (m: Line) => m.errors === 0 && m.rate_limited_in_mix === 0,
  },
  'load.rate_limit_probes': {
    label: () => '`npm run load`: the rate limiter, probed from one address and one agency key',
    result: (m: Line) =>
      `${m.free_ip_60_per_min['200']} of ${m.free_ip_60_per_min['200'] + m.free_ip_60_per_min['429']} from one address, ${m.agency_key_300_per_min['200']} of ${m.agency_key_300_per_min['200'] + m.agency_key_300_per_min['429']} from one agency key`,
    target: 'exactly 60 and 300 a minute',
    met: (m: Line) => m.exact === true,
  },
  'load.soak': {
    label: (m: Line) => `\`npm run load\`: ${m.seconds} s soak`,
    result: (m: Line) => `RSS ${mb(m.rss_start_mb)} at start, ${mb(m.rss_end_mb)} at end, ${m.errors} errors`,
    // "Flat": the end within a tenth of the start.
    target: 'RSS flat (end ≤ start + 10 %)',
    met: (m: Line) => m.rss_end_mb <= m.rss_start_mb * 1.1 && m.errors === 0,
  },
  'load.readers_beside_writers': {
    label: (m: Line) =>
      `readers (live, nearby, score; ${m.connections} connections) beside ${m.writers.loops} CLI writer loops, ${m.seconds} s`,
    result: (m: Line) =>
      `p99 ${m.beside_writers.p99_ms} ms (max ${num(m.beside_writers.max_ms)}) vs ${m.alone.p99_ms} ms alone; ${num(m.per_second)} req/s, ${m.writers.commands} writer commands`,
    target: 'p99 < 50 ms',
    met: (m: Line) => m.beside_writers.p99_ms < m.goal_p99_ms,
  },
  'score.oasis': {
    label: (m) =>
      `\`catintel score --format oasis\` of a ${num(m.n)}-row OED file vs DuckDB reading and writing it (median of ${m.runs})`,
    result: (m: Line) =>
      `${m.seconds} s vs ${m.baseline_seconds} s: ratio ${m.ratio_to_duckdb} (work alone ${m.work_ratio_to_duckdb}), peak RSS ${mb(m.peak_rss_mb)}`,
    target: 'ratio ≤ 2, RSS < 1.5 GB',
    met: (m: Line) => m.ratio_to_duckdb <= m.target_ratio && m.peak_rss_mb < m.target_peak_rss_mb,
  },
  'arrow.score.csv': {
    label: (m) =>
      `\`catintel score --format csv\` of a ${num(m.n)}-row US portfolio (the reference for arrow and parquet, same run)`,
    result: (m: Line) => `${m.seconds} s (${num(m.per_second)} rows/s), ${m.file_mb} MB, peak RSS ${mb(m.peak_rss_mb)}`,
  },
  'arrow.score.parquet': {
    label: (m) => `\`catintel score --format parquet\` of a ${num(m.n)}-row US portfolio, same run`,
    result: (m: Line) =>
      `${m.seconds} s (${num(m.per_second)} rows/s), ${m.file_mb} MB, peak RSS ${mb(m.peak_rss_mb)}: ${m.ratio_to_csv}× the csv run`,
  },
  'arrow.score.arrow': {
    label: (m) =>
      `\`catintel score --format arrow\` (Arrow IPC, record batches) of a ${num(m.n)}-row US portfolio vs the csv run`,
    result: (m: Line) =>
      `${m.seconds} s (${num(m.per_second)} rows/s), ${m.file_mb} MB, peak RSS ${mb(m.peak_rss_mb)}: ${m.ratio_to_csv}× the csv run`,
    target: '≤ 1.1× the csv run',
    met: (m: Line) => m.ratio_to_csv <= 1.1,
  },
  'arrow.events_live.json': {
    label: () => '`GET /events/live?limit=1000` as JSON, the live index answering, cache off (the reference for Arrow)',
    result: (m: Line) => `${m.ms_per_request} ms a request (${num(m.per_second)} req/s), ${num(m.body_kb)} KB`,
  },
  'arrow.events_live.arrow': {
    label: () => '`GET /events/live?limit=1000` with `Accept: application/vnd.apache.arrow.stream`, same run',
    result: (m: Line) =>
      `${m.ms_per_request} ms a request (${num(m.per_second)} req/s), ${num(m.body_kb)} KB: ${m.ratio_to_json}× the JSON time`,
    target: '≤ 3× the JSON time',
    met: (m: Line) => m.ratio_to_json <= 3,
  },
  'oasis.piwind': oasisRun('PiWind', 50),
  'oasis.scaled_100k': oasisRun('100,000 PiWind-like locations', 20),
  'oasis.scaled_10k_10_samples': oasisRun('10,000 locations, 10 samples'),
  'oasis_files.synthetic': {
    label: (m: Line) =>
      `\`catintel oasis files\` vs oasislmf \`generate-oasis-files\`, ${num(m.n)} locations with site terms and two layers`,
    result: (m: Line) =>
      `${m.cpu_seconds} s of CPU vs ${m.referee_cpu_seconds} s: ${m.ratio_cpu ?? m.ratio}× in CPU (${m.ratio}× wall); peak RSS ${mb(m.peak_rss_mb)} vs ${mb(m.referee_peak_rss_mb)}; every file agrees`,
    target: '≥ 20× at 1,000,000 locations, < 4 GB',
    met: (m: Line) =>
      m.n >= m.target_n &&
      Math.min(m.ratio, m.ratio_cpu ?? m.ratio) >= m.target_ratio &&
      m.peak_rss_mb < m.target_peak_rss_mb,
  },
  'oasis_run.synthetic_oed_il': {
    label: (m: Line) =>
      `\`catintel oasis run --oed-*\` (files and insured losses) vs oasislmf \`generate-losses\`, ${num(m.n)} locations with site terms and two layers, ${m.samples} samples`,
    result: (m: Line) =>
      `${m.cpu_seconds} s of CPU vs ${m.referee_losses_cpu_seconds} s: ${m.ratio_losses_cpu}× in CPU (${m.ratio_losses}× wall; with generate-oasis-files ${m.ratio_files_and_losses_cpu}×); peak RSS ${mb(m.peak_rss_mb)}; PALT ${m.palt_agrees ? 'agrees' : 'differs'}`,
    target: '≥ 20×',
    met: (m: Line) => Math.min(m.ratio_losses, m.ratio_losses_cpu) >= 20,
  },
  'epcurve.engine': {
    label: (m: Line) =>
      `EP curve through the loss engine (OED, model packages, kernel; ground-up and insured): ${num(m.locations)} locations x ${num(m.years)} years x ${m.samples} samples`,
    result: (m: Line) => `${m.seconds} s, peak RSS ${mb(m.peak_rss_mb)} (${m.models.join('; ')})`,
    target: '100,000 locations x 10,000 years x 10 samples: < 60 s, < 4 GB',
    met: (m: Line) => m.locations >= 100_000 && m.years >= 10_000 && m.seconds < 60 && m.peak_rss_mb < 4096,
  },
  bigbook: {
    label: (m: Line) =>
      `a book of ${num(m.n)} locations (Florida-heavy): \`portfolio import\`, \`portfolio exposure\` with no live event and with Ian at landfall, \`portfolio ep-curve\` (${m.ep_years} years, \`--max-memory ${m.ep_max_memory}\`: ${m.ep_chunks} chunks)`,
    result: (m: Line) =>
      `import ${tenth(m.import_seconds)} s (${tenth(m.import_ratio)}× DuckDB alone), ${mb(Math.round(m.import_peak_rss_mb))}; no event ${m.exposure_none_seconds.toFixed(2)} s, ${mb(Math.round(m.exposure_none_peak_rss_mb))}; Ian ${tenth(m.exposure_ian_seconds)} s (${num(m.locations_exposed_ian)} exposed), ${mb(m.exposure_ian_peak_rss_mb)}; EP ${tenth(m.ep_seconds)} s, ${mb(m.ep_peak_rss_mb)}`,
    target: '10,000,000 locations: each < 4 GB; no event < 1 s; import ≤ 2× DuckDB',
    met: (m: Line) => m.n >= 10_000_000 && m.peak_rss_mb < 4096 && m.exposure_none_seconds < 1 && m.import_ratio <= 2,
  },
  'ep.hurricane.build': epBuild('hurricane'),
  'ep.earthquake.build': epBuild('earthquake'),
  'ep.hurricane.run': epRun('hurricane', 'a Florida-heavy book'),
  'ep.earthquake.run': epRun('earthquake', 'California'),
  'ep.earthquake.hazard_curve': {
    label: (m: Line) =>
      `\`catintel hazard curve --peril earthquake --imt pga\` at (${m.point.join(', ')}) on the ${m.model} package`,
    result: (m: Line) =>
      `${num(m.seconds * 1000)} ms a call (median of ${m.n - 1}), ${m.first_call_seconds} s the first in a fresh process; peak RSS ${mb(m.peak_rss_mb)}`,
  },
  'event_loss.hurricane': {
    label: (m: Line) =>
      `\`portfolio event-loss\` of Ian as of its last fix before landfall: ${num(m.locations)} Gulf-coast locations x ${m.members} ensemble members x ${m.samples} samples (${m.model})`,
    result: (m: Line) =>
      `${tenth(m.seconds)} s (${tenth(m.cpu_seconds)} s of CPU), peak RSS ${mb(m.peak_rss_mb)}; ${loadOf(m)}`,
    target: '100,000 locations x 50 members: < 10 s',
    met: (m: Line) =>
      m.locations >= m.target.locations && m.members >= m.target.members && m.seconds < m.target.seconds,
  },
  'triggers.evaluate': {
    label: (m: Line) => `one trigger evaluation round: ${num(m.n)} triggers against ${num(m.events)} live events`,
    result: (m) => `${m.seconds} s`,
    target: '< 0.25 s',
    met: (m: Line) => m.seconds < m.target_seconds,
  },
  'triggers.backtest_120y': {
    label: (m: Line) => `${m.years}-year backtest of ${num(m.n)} triggers`,
    result: (m) => `${m.seconds} s`,
    target: '< 2 s',
    met: (m: Line) => m.seconds < m.target_seconds,
  },
  'intelligence.infrastructure_near': {
    label: (m: Line) =>
      `${num(m.n)} \`/infrastructure\` queries (25 km) through the index vs a scan of ${num(m.facilities)} facilities`,
    result: (m: Line) => `${m.seconds} s vs ${m.scan_seconds} s: ${m.index_speedup}× faster`,
  },
  'intelligence.exposure_hurricane': {
    label: (m) => `exposure of a Category 4's ${m.n} wind rings (county clips, every facility)`,
    result: (m: Line) => `${m.seconds} s (${m.county_terms} county clips)`,
  },
  'portfolios.import': {
    label: (m: Line) =>
      `\`catintel portfolio import\` of a ${num(m.n)}-row OED file (${m.file_mb} MB) vs DuckDB loading it`,
    result: (m: Line) =>
      `${m.seconds} s (${num(m.per_second)} rows/s) vs ${m.baseline_seconds} s: ratio ${m.ratio}; peak RSS ${mb(m.peak_rss_mb)}`,
  },
  'portfolios.exposure': {
    label: (m) => `exposure of a ${num(m.n)}-location portfolio to the seed's live events`,
    result: (m: Line) =>
      `${m.seconds} s warm, ${m.cold_seconds} s cold; ${num(m.locations_exposed)} locations exposed; peak RSS ${mb(m.peak_rss_mb)}`,
    target: '< 1 s',
    met: (m: Line) => m.seconds < m.target_seconds,
  },
};

/** A benchmark without a goal here: its own figures, and a goal only when its line names one. */
export function plainGoal(m: Measurement): Goal {
  const line = m as Line;
  return {
    label: () => `\`${m.name}\`${m.n ? ` (n = ${num(m.n)})` : ''}`,
    result: () =>
      [
        `${m.seconds} s`,
        m.per_second ? `${num(m.per_second)}/s` : '',
        m.peak_rss_mb ? `peak RSS ${mb(m.peak_rss_mb)}` : '',
      ]
        .filter(Boolean)
        .join(', '),
    ...(typeof line.target_seconds === 'number'
      ? { target: `< ${line.target_seconds} s`, met: () => m.seconds < line.target_seconds }
      : typeof line.target === 'string'
        ? { target: line.target }
        : {}),
  };
}
