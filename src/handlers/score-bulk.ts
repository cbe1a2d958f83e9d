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
import { list, required, str } from './params.js';
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
    ],
    examples: [
      'catintel score --input portfolio.csv --out scores/',
      'catintel score --input SourceLocOED.csv --out oasis/ --format oasis --scenario ssp245 --horizon 2050',
      'catintel score --input sites.csv --out out/ --format parquet --perils hurricane_wind,storm_surge --json',
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
    return { input, out, format: format as BulkFormat, keepColumns: keep as KeepColumns, perils, ...parseClimate(raw) };
  },
  async run(ctx, input) {
    const summary = await scoreCsv({
      input: input.input,
      outDir: input.out,
      format: input.format,
      keepColumns: input.keepColumns,
      perils: input.perils,
      scenario: input.scenario,
      horizon: input.horizon,
      progress: ctx.progress,
      signal: ctx.signal,
    });
    return { body: summary };
  },
});
