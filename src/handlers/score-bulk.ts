/**
 * `catintel score --input FILE.csv --out DIR [--format oasis|csv|json|parquet|arrow]`: bulk hazard scores for a
 * portfolio (an OED location file or any CSV with latitude/longitude columns). CLI only: a file in, files
 * out (docs/scoring.md "Bulk scoring"). The work streams (src/scoring-bulk/run.ts); progress goes through
 * ctx.progress (ink on a terminal, NDJSON otherwise); the body is the run's summary. A run that scores no
 * row fails (invalid_input, exit 2) after writing its outputs, which say why row by row.
 */
import { PERILS, PERIL_ALIASES, type Peril } from '../domain/scoring/perils.js';
import { invalidParameter } from '../errors.js';
import { KEEP_COLUMNS, type KeepColumns } from '../scoring-bulk/keep-columns.js';
import { scoreCsv } from '../scoring-bulk/run.js';
import { BULK_FORMATS, type BulkFormat, type BulkSummary } from '../scoring-bulk/types.js';
import { QUEUE_FORMATS, queueUrl } from '../cluster/queue-url.js';
import { int, list, required, str } from './params.js';
import { SCORE_OPTIONS, parseClimate } from './score-point.js';
import { defineHandler } from './types.js';
import type { Horizon, Scenario } from '../domain/climate.js';

export interface ScoreBulkInput {
  input: string;
  out: string;
  format: BulkFormat;
  keepColumns: KeepColumns;
  perils: Peril[];
  scenario: Scenario;
  horizon: Horizon | null;
  /** Scale-out (docs/scale-out.md): the chunks go to `catintel worker` processes through this PostgreSQL. */
  queue?: { url: string; chunks: number; workDir?: string; chunkExpirySeconds: number };
}

export const scoreBulk = defineHandler<ScoreBulkInput, BulkSummary>({
  name: 'score.bulk',
  summary:
    'Hazard scores for a portfolio CSV (OED location file or any CSV with latitude/longitude); subcommand: point',
  cli: {
    command: ['score'],
    options: [
      {
        flags: '--input <file>',
        description: 'CSV with a header row and latitude/longitude columns (an OED location file, for example)',
      },
      {
        flags: '--out <dir>',
        description: 'directory for the outputs (created if missing; files are replaced only when the run succeeds)',
      },
      {
        flags: '--format <format>',
        description:
          'csv (default): scores.csv | json: scores.ndjson | parquet: scores.parquet | arrow: scores.arrow (Arrow IPC file) | oasis: location.csv, keys.csv, keys-errors.csv',
      },
      {
        flags: '--keep-columns <which>',
        description:
          'input columns in the csv/json/parquet/arrow tables: all (default: every input column beside the scores) | ids (the identifying columns, latitude, longitude)',
      },
      ...SCORE_OPTIONS,
      {
        flags: '--queue <url>',
        description:
          'score on `catintel worker` processes: postgres://USER@HOST:PORT/DATABASE of the job queue (docs/scale-out.md); csv and json formats',
      },
      { flags: '--chunks <n>', description: 'with --queue: row ranges to cut the input into (default 8)' },
      {
        flags: '--work-dir <dir>',
        description:
          'with --queue: shared directory every worker can write for the chunk parts (default: a hidden directory in --out)',
      },
      {
        flags: '--chunk-expiry <seconds>',
        description:
          'with --queue: seconds a worker may hold a chunk before it is taken for dead and the chunk retried (default 900)',
      },
    ],
    examples: [
      'catintel score --input portfolio.csv --out scores/',
      'catintel score --input SourceLocOED.csv --out oasis/ --format oasis --scenario ssp245 --horizon 2050',
      'catintel score --input sites.csv --out out/ --format parquet --perils hurricane_wind,storm_surge --json',
      'catintel score --input portfolio.csv --out scores/ --queue postgres://catintel@db:5432/catintel --chunks 16',
      'catintel score point --lat 25.77 --lng -80.19',
    ],
  },
  storeless: true,
  parse(raw) {
    const input = required(raw, 'input');
    const out = required(raw, 'out');
    const format = str(raw, 'format') ?? 'csv';
    if (!(BULK_FORMATS as readonly string[]).includes(format))
      throw invalidParameter('format', `"${format}" is not one of ${BULK_FORMATS.join(', ')}`);
    const keep = str(raw, 'keep_columns') ?? 'all';
    if (!(KEEP_COLUMNS as readonly string[]).includes(keep))
      throw invalidParameter('keep_columns', `"${keep}" is not one of ${KEEP_COLUMNS.join(', ')}`);
    const perils = list(raw, 'perils', PERILS, PERIL_ALIASES) ?? [...PERILS];
    const queue = parseQueue(raw, format);
    return {
      input,
      out,
      format: format as BulkFormat,
      keepColumns: keep as KeepColumns,
      perils,
      ...parseClimate(raw),
      ...(queue && { queue }),
    };
  },
  async run(ctx, input) {
    const run = {
      input: input.input,
      outDir: input.out,
      format: input.format,
      keepColumns: input.keepColumns,
      perils: input.perils,
      scenario: input.scenario,
      horizon: input.horizon,
      progress: ctx.progress,
      signal: ctx.signal,
    };
    if (input.queue) {
      // Loaded only for --queue: the single-node run never loads pg-boss.
      const { scoreOnQueue } = await import('../cluster/submit.js');
      const summary = await scoreOnQueue({
        ...run,
        log: ctx.log,
        queue: input.queue.url,
        chunks: input.queue.chunks,
        workDir: input.queue.workDir,
        chunkExpirySeconds: input.queue.chunkExpirySeconds,
      });
      return { body: summary };
    }
    return { body: await scoreCsv(run) };
  },
});

function parseQueue(raw: Record<string, unknown>, format: string): ScoreBulkInput['queue'] {
  const url = str(raw, 'queue');
  if (url === undefined) {
    for (const name of ['chunks', 'work_dir', 'chunk_expiry'])
      if (str(raw, name) !== undefined) throw invalidParameter(name, `--${name.replace('_', '-')} goes with --queue`);
    return undefined;
  }
  if (!QUEUE_FORMATS.includes(format))
    throw invalidParameter(
      'format',
      `--format ${format} does not work with --queue yet; give ${QUEUE_FORMATS.join(' or ')}, or score ${format} without --queue`,
    );
  return {
    url: queueUrl(url),
    chunks: int(raw, 'chunks', { min: 1, max: 10_000 }, 8),
    workDir: str(raw, 'work_dir'),
    chunkExpirySeconds: int(raw, 'chunk_expiry', { min: 1, max: 86_400 }, 900),
  };
}
