/**
 * Bulk scoring (`catintel score --input FILE.csv --out DIR`): stream a portfolio CSV through the hazard
 * grid and write scores in one of five formats (docs/scoring.md "Bulk scoring"). The CSV reading (header,
 * scanner, rows, coordinates) is src/csv/'s.
 *
 *   header    refuse an unusable file before anything is written; read the header
 *   scanner   rows and field spans from 4 MiB chunks, no per-field strings
 *   per row   parse the two coordinates, cellAt (O(1)), then the format writes the row: scores come from
 *             a cell's scores (perilScoreValue, as in score-table.ts), computed and formatted once per cell
 *   errors    unusable rows (malformed or not UTF-8, bad coordinates, outside coverage) go to errors.csv with their row
 *             and line number, kind and reason; the run goes on. rows = scored + errors + outside_coverage
 *             is checked before anything is committed, and a run that scored nothing fails (exit 2) after
 *             committing its outputs
 *   finish    the Oasis keys (format-oasis.ts: a worker thread beside this pass) or the Parquet conversion,
 *             then every output is renamed from its temporary name at once: a failed run leaves nothing
 *             behind; manifest.json (rows, sizes, SHA-256) is written last, and removed before the first
 *             rename, so a directory without one holds an interrupted commit (manifest.ts)
 *
 * Memory stays flat as the file grows: one input chunk, the output bytes of that chunk, and DuckDB's
 * capped buffer pool (scratch-duckdb.ts) at the end.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ProgressEvent } from '../context.js';
import { climateCase, type Horizon, type Scenario } from '../domain/climate.js';
import { defaultBaselineDir, loadBaselineGrid } from '../reference-data/load-baseline.js';
import { PERILS, type Peril } from '../domain/scoring/perils.js';
import { outsideCoverageMessage } from '../domain/scoring/score-point.js';
import { CatintelError } from '../errors.js';
import { scenarioLabel } from '../oed/perils.js';
import { coordinateProblem } from '../csv/coordinates.js';
import { csvTextCell } from '../lib/csv-cell.js';
import { fieldText, type ScannedRow } from '../csv/scanner.js';
import { OasisSink } from './format-oasis.js';
import { JsonSink } from './format-json.js';
import { TableSink } from './format-table.js';
import { idColumns } from './id-columns.js';
import { keptColumns, type KeepColumns } from './keep-columns.js';
import { readInputHeader } from '../csv/header.js';
import { prepareOutDir, removeEmpty } from './out-dir.js';
import { fsError, nothingScored, unterminatedReason } from './run-outcome.js';
import { OutFile } from './out-file.js';
import { beginCommit, removeStaleTemps, writeManifest } from './manifest.js';
import { CellScores } from './format-cells.js';
import { fieldIsUtf8, rowUtf8Problem, utf8ProblemText } from '../csv/utf8-row.js';
import {
  BAD_COORDINATES,
  BLANK,
  INVALID_UTF8,
  OUTSIDE,
  UNTERMINATED,
  WRONG_FIELD_COUNT,
  classifyRow,
  lastCoordinates,
  type RowRules,
} from './row-verdict.js';
import { readRows } from '../csv/read-rows.js';
import type { BulkFormat, BulkSummary, ErrorKind, FormatSink, RowInfo, RunSetup } from './types.js';
import type { RowRange } from './row-ranges.js';

export interface BulkRunOptions {
  input: string;
  outDir: string;
  format: BulkFormat;
  perils: Peril[];
  scenario: Scenario;
  horizon: Horizon | null;
  /** Input columns in the csv / json / parquet tables: all (default) or the identifying ones. */
  keepColumns?: KeepColumns;
  /** The hazard baseline directory (default data/baseline of the package). */
  baselineDir?: string;
  /** Use a worker thread for the Oasis keys pass when the compiled worker exists (default true). */
  workers?: boolean;
  progress?: (e: ProgressEvent) => void;
  signal?: AbortSignal;
  /** Bytes read per step (default 4 MiB). */
  chunkBytes?: number;
  /**
   * Score only these rows of the input (one chunk of a `--queue` run, docs/scale-out.md): row and line
   * numbers continue from the rows before it, the tables' header rows are written only by the range that
   * starts at the first row, and a range that scores nothing is not a failure (the whole run decides that).
   */
  range?: RowRange;
}

export async function scoreCsv(o: BulkRunOptions): Promise<BulkSummary> {
  const t0 = performance.now();
  const header = await readInputHeader(o.input);
  const grid = loadBaselineGrid(o.baselineDir ?? defaultBaselineDir());
  const outDir = o.outDir;
  const dir = await prepareOutDir(outDir);
  await removeStaleTemps(outDir); // a killed run's hidden temporaries
  const token = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const idIndexes = idColumns(header.columns);
  const setup: RunSetup = {
    header,
    grid,
    scores: new CellScores(grid, o.perils, climateCase(o.scenario, o.horizon)),
    perils: o.perils,
    scenarioLabel: scenarioLabel(o.scenario, o.horizon),
    modelVersion: grid.header.modelVersion,
    idIndexes,
    kept: keptColumns(o.keepColumns ?? 'all', header.columns, header.latIndex, header.lngIndex, idIndexes, [
      'row',
      ...PERILS,
      'overall',
      'scores',
    ]),
    outDir,
    token,
  };

  let sink: FormatSink | undefined;
  let errors: OutFile | undefined;
  let summary: BulkSummary;
  try {
    sink =
      o.format === 'oasis'
        ? await OasisSink.create(setup, { worker: o.workers })
        : o.format === 'json'
          ? await JsonSink.create(setup)
          : o.format === 'arrow'
            ? // apache-arrow (a quarter of a second of CPU to load) only for the Arrow output, not with this module
              await (await import('./format-arrow.js')).ArrowSink.create(setup)
            : await TableSink.create(setup, o.format === 'parquet');
    errors = await OutFile.create(outDir, 'errors.csv', token);
    const counts = await stream(o, setup, sink, errors);
    o.progress?.({
      task: 'score',
      done: header.sizeBytes,
      total: header.sizeBytes,
      unit: 'bytes',
      message: `${counts.rows} rows read; finishing ${o.format} output`,
    });
    const errorCount = counts.byKind.malformed_row + counts.byKind.invalid_coordinates;
    // Every row read is scored, an error, or outside coverage; a row in none of them would be a row lost.
    if (counts.rows !== counts.scored + errorCount + counts.outside || errors.rows !== errorCount + counts.outside) {
      throw new CatintelError(
        'internal_error',
        `bulk scoring lost track of rows: ${counts.rows} read, ${counts.scored} scored, ${errorCount} errors, ${counts.outside} outside coverage, ${errors.rows} in errors.csv`,
      );
    }
    await sink.finish();
    await errors.close();
    const written = [...sink.outputs(), { file: errors.finalPath }].map((o) => path.basename(o.file));
    const replaced = await beginCommit(outDir, token, written);
    for (const f of [...sink.files, errors]) await f.commit();
    summary = {
      input: o.input,
      format: o.format,
      scenario: o.scenario,
      horizon: o.horizon,
      perils: o.perils,
      rows: counts.rows,
      scored: counts.scored,
      errors: errorCount,
      outside_coverage: counts.outside,
      errors_by_kind: counts.byKind,
      outputs: [...sink.outputs(), { file: errors.finalPath, rows: errors.rows }],
      seconds: 0,
    };
    await writeManifest(outDir, token, replaced, summary, sink.digests?.());
    summary.seconds = Math.round(performance.now() - t0) / 1000;
  } catch (err) {
    await sink?.discard().catch(() => undefined);
    await errors?.discard().catch(() => undefined);
    await removeEmpty(dir.created); // only the directories this run made, and only if still empty
    throw fsError(err, outDir);
  }
  if (summary.scored === 0 && !o.range) throw nothingScored(summary, errors.finalPath);
  return summary;
}

interface Counts {
  rows: number;
  scored: number;
  outside: number;
  byKind: Record<'malformed_row' | 'invalid_coordinates', number>;
}

async function stream(o: BulkRunOptions, s: RunSetup, sink: FormatSink, errors: OutFile): Promise<Counts> {
  const h = s.header;
  const latIndex = h.latIndex;
  const lngIndex = h.lngIndex;
  const rules: RowRules = { grid: s.grid, fieldCount: h.columns.length, latIndex, lngIndex };
  const counts: Counts = { rows: 0, scored: 0, outside: 0, byKind: { malformed_row: 0, invalid_coordinates: 0 } };
  const info: RowInfo = { r: undefined as unknown as ScannedRow, row: 0, lat: 0, lng: 0, cell: -1 };
  const range = o.range;
  let line = range ? range.firstLine : h.headerLines + 1;
  const rowsBefore = range ? range.rowsBefore : 0;
  // A range's rows are numbered on from the rows before it: the count starts there (and is made the range's
  // own at the end), so the per-row code is the whole-file run's, with no extra work per row.
  counts.rows = rowsBefore;

  if (rowsBefore === 0) {
    sink.header();
    // Every text cell of errors.csv goes through csvTextCell: ids, coordinates and reasons quote what the
    // row held, and a spreadsheet must not run it.
    errors.utf8(
      ['row', 'line', ...s.idIndexes.map((i) => h.columns[i]), 'latitude', 'longitude', 'kind', 'reason']
        .map(csvTextCell)
        .join(',') + '\n',
    );
  }
  const fail = (r: ScannedRow, row: number, rowLine: number, kind: ErrorKind, reason: string) => {
    if (kind === 'outside_coverage') counts.outside++;
    else counts.byKind[kind]++;
    errors.int(row);
    errors.byte(0x2c);
    errors.int(rowLine);
    // A field that is not UTF-8 is left empty: its row and line say where it is, and U+FFFD is never written.
    const text = (i: number) =>
      i < r.fieldCount && i < r.starts.length && fieldIsUtf8(r, i) ? csvTextCell(fieldText(r, i)) : '';
    for (const i of s.idIndexes) errors.utf8(`,${text(i)}`);
    errors.utf8(`,${text(latIndex)},${text(lngIndex)},${kind},${csvTextCell(reason)}\n`);
    errors.rows++;
  };

  const onRow = (r: ScannedRow): void => {
    const verdict = classifyRow(r, rules);
    if (verdict === BLANK) {
      line++; // a blank line is not a row
      return;
    }
    const row = ++counts.rows;
    const rowLine = line;
    line += 1 + r.innerLineBreaks;
    const { lat, lng } = lastCoordinates;
    switch (verdict) {
      case INVALID_UTF8:
        sink.skip?.(row);
        return fail(r, row, rowLine, 'malformed_row', utf8ProblemText(rowUtf8Problem(r)!, h.columns));
      case UNTERMINATED:
        sink.skip?.(row);
        return fail(r, row, rowLine, 'malformed_row', unterminatedReason(r, rules.fieldCount));
      case WRONG_FIELD_COUNT:
        sink.skip?.(row);
        return fail(
          r,
          row,
          rowLine,
          'malformed_row',
          `the row has ${r.fieldCount} fields; the header has ${rules.fieldCount}`,
        );
      case BAD_COORDINATES:
        sink.skip?.(row);
        return fail(
          r,
          row,
          rowLine,
          'invalid_coordinates',
          coordinateProblem(r, latIndex, lngIndex, h.columns[latIndex], h.columns[lngIndex], lat, lng) ??
            'unusable coordinates',
        );
      case OUTSIDE:
        fail(r, row, rowLine, 'outside_coverage', outsideCoverageMessage(lat, lng));
        break;
      default:
        counts.scored++;
    }
    info.r = r;
    info.row = row;
    info.lat = lat;
    info.lng = lng;
    info.cell = verdict;
    sink.row(info);
  };

  await readRows(
    {
      file: h.file,
      dataStart: range ? range.start : h.dataStart,
      dataEnd: range?.end,
      delimiter: h.delimiter,
      expectFields: h.columns.length,
      chunkBytes: o.chunkBytes,
      signal: o.signal,
      rowNumber: () => counts.rows,
      afterChunk: async (done) => {
        await sink.drain();
        await errors.drain();
        o.progress?.({ task: 'score', done, total: h.sizeBytes, unit: 'bytes', message: `${counts.rows} rows` });
      },
    },
    onRow,
  );
  counts.rows -= rowsBefore;
  return counts;
}
