/**
 * Importing a portfolio: an OED location CSV (a file, or a text/csv body written to a private temporary
 * file) or JSON rows, into one transaction. The CSV goes through the bulk scorer's reader (src/scoring-bulk:
 * readInputHeader refuses what is not a CSV and sniffs the delimiter, readRows streams 4 MiB chunks through
 * the byte scanner, parseCoordinate reads coordinates, src/oed/oed-fields names columns in any case), so
 * memory stays flat: rows go straight into DuckDB's appender, chunk by chunk.
 *
 * All or nothing: every row is checked; once one is bad nothing more is appended, the pass goes on to name
 * every bad row (the first MAX_REPORTED_PROBLEMS problems, each with its row, field and reason, and the
 * count of bad rows), and the transaction rolls back. A row with bytes that are not UTF-8 is a bad row
 * (src/csv/utf8-row.ts), so no U+FFFD is ever stored in place of what the file held. A re-run of the same content under the same name by
 * the same account answers the portfolio already stored (created: false), so a run killed after its
 * commit and started again leaves one portfolio, not two.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBAppender } from '@duckdb/node-api';
import type { ProgressEvent } from '../context.js';
import { CatintelError, type FieldProblem } from '../errors.js';
import { oedFieldName } from '../oed/oed-fields.js';
import { parseCoordinate } from '../csv/coordinates.js';
import { fieldText, type ScannedRow } from '../csv/scanner.js';
import { readInputHeader } from '../csv/header.js';
import { readRows } from '../csv/read-rows.js';
import { rowUtf8Problem, utf8ProblemText } from '../csv/utf8-row.js';
import type { Store, Tx } from '../store/db.js';
import { IMPORTED_FIELDS, checkRow, type ImportedField, type LocationRow } from './domain/oed-row.js';
import { getPortfolio, type PortfolioSummary } from './read.js';

/** Problems named in one refusal; the message also gives the total count of bad rows. */
export const MAX_REPORTED_PROBLEMS = 100;

export interface ImportOptions {
  account: string;
  name: string;
  now: string;
  progress?: (e: ProgressEvent) => void;
  signal?: AbortSignal;
}

export interface ImportResult {
  portfolio: PortfolioSummary;
  /** false: the same content was already stored under this name for this account (an idempotent re-run). */
  created: boolean;
}

interface Totals {
  count: number;
  building: number;
  contents: number;
  bi: number;
  other: number;
  currency: string | null;
  currencyRow: number;
  /** The box around the locations, [minLng, minLat, maxLng, maxLat]: kept on the portfolio row for exposure. */
  box: [number, number, number, number];
}

/** Collects row problems and decides when the import has failed. */
class Problems {
  readonly list: FieldProblem[] = [];
  badRows = 0;
  /** where: the field path of a row (row[3], locations[2]); prefix: what the message starts with (the CSV row and line). */
  constructor(
    private readonly where: (row: number) => string,
    private readonly prefix: (row: number) => string = () => '',
  ) {}
  add(row: number, problems: { field: string; message: string }[]): void {
    this.badRows++;
    for (const p of problems) {
      if (this.list.length < MAX_REPORTED_PROBLEMS)
        this.list.push({
          field: p.field === 'row' ? this.where(row) : `${this.where(row)}.${p.field}`,
          message: `${this.prefix(row)}${p.message}`,
        });
    }
  }
  get failed(): boolean {
    return this.badRows > 0;
  }
  error(total: number): CatintelError {
    const shown = this.list
      .slice(0, 5)
      .map((p) => `${p.field}: ${p.message}`)
      .join('; ');
    const more =
      this.list.length > 5
        ? `; ... (${this.list.length} problems listed in errors${this.badRows > this.list.length ? `, the first ${MAX_REPORTED_PROBLEMS}` : ''})`
        : '';
    return new CatintelError(
      'validation_failed',
      `nothing was imported: ${this.badRows} of ${total} location rows ${this.badRows === 1 ? 'is' : 'are'} invalid: ${shown}${more}`,
      { errors: this.list },
    );
  }
}

/** One location row in portfolio_locations, by the appender (column order of migration 5). */
function appendRow(a: DuckDBAppender, portfolioId: string, seq: number, rowNumber: number, r: LocationRow): void {
  a.appendVarchar(portfolioId);
  a.appendInteger(seq);
  a.appendInteger(rowNumber);
  a.appendVarchar(r.locNumber);
  a.appendDouble(r.lat);
  a.appendDouble(r.lng);
  if (r.occupancyCode === null) a.appendNull();
  else a.appendInteger(r.occupancyCode);
  if (r.constructionCode === null) a.appendNull();
  else a.appendInteger(r.constructionCode);
  a.appendVarchar(r.perilsCovered);
  a.appendVarchar(r.perilCodes);
  a.appendDouble(r.buildingTiv);
  a.appendDouble(r.contentsTiv);
  a.appendDouble(r.biTiv);
  a.appendDouble(r.otherTiv);
  a.appendVarchar(r.currency);
  a.endRow();
}

/** Counts a good row into the totals; a second currency is a problem of that row (one portfolio, one currency). */
function tally(t: Totals, r: LocationRow, row: number): { field: string; message: string } | null {
  if (t.currency === null) {
    t.currency = r.currency;
    t.currencyRow = row;
  } else if (r.currency !== t.currency) {
    return {
      field: 'LocCurrency',
      message: `${r.currency} differs from ${t.currency} of row ${t.currencyRow}; a portfolio holds amounts in one currency (split the file by LocCurrency)`,
    };
  }
  t.count++;
  t.building += r.buildingTiv;
  t.contents += r.contentsTiv;
  t.bi += r.biTiv;
  t.other += r.otherTiv;
  if (r.lng < t.box[0]) t.box[0] = r.lng;
  if (r.lat < t.box[1]) t.box[1] = r.lat;
  if (r.lng > t.box[2]) t.box[2] = r.lng;
  if (r.lat > t.box[3]) t.box[3] = r.lat;
  return null;
}

const newTotals = (): Totals => ({
  count: 0,
  building: 0,
  contents: 0,
  bi: 0,
  other: 0,
  currency: null,
  currencyRow: 0,
  box: [Infinity, Infinity, -Infinity, -Infinity],
});

async function existingCopy(tx: Tx, o: ImportOptions, sha: string): Promise<string | undefined> {
  const rows = await tx.all<{ id: string }>(
    `SELECT id FROM portfolios WHERE account = $account AND name = $name AND content_sha256 = $sha ORDER BY created_at, id LIMIT 1`,
    { account: o.account, name: o.name, sha },
  );
  return rows[0]?.id;
}

async function insertPortfolio(
  tx: Tx,
  id: string,
  o: ImportOptions,
  source: 'csv' | 'json',
  sha: string,
  t: Totals,
): Promise<void> {
  await tx.run(
    `INSERT INTO portfolios (id, account, name, source, content_sha256, location_count, currency, building_tiv, contents_tiv, bi_tiv, other_tiv, created_at,
                             min_lng, min_lat, max_lng, max_lat)
     VALUES ($id, $account, $name, $source, $sha, $count, $currency, $b, $c, $bi, $o, $now::TIMESTAMP,
             $minLng::DOUBLE, $minLat::DOUBLE, $maxLng::DOUBLE, $maxLat::DOUBLE)`,
    {
      id,
      account: o.account,
      name: o.name,
      source,
      sha,
      count: t.count,
      currency: t.currency ?? 'USD',
      b: t.building,
      c: t.contents,
      bi: t.bi,
      o: t.other,
      now: o.now,
      // NULL for a portfolio without locations (no box).
      ...(t.count > 0
        ? { minLng: t.box[0], minLat: t.box[1], maxLng: t.box[2], maxLat: t.box[3] }
        : { minLng: null, minLat: null, maxLng: null, maxLat: null }),
    },
  );
}

/**
 * Runs `fill` (which appends rows) and writes the portfolio row, in one transaction; answers the stored
 * portfolio. The idempotent re-run check sits inside the transaction too.
 */
async function importInTransaction(
  db: Store,
  o: ImportOptions,
  source: 'csv' | 'json',
  sha: string,
  fill: (append: (seq: number, rowNumber: number, r: LocationRow) => void, flush: () => void) => Promise<Totals>,
): Promise<ImportResult> {
  const id = randomUUID();
  const outcome = await db.transaction(async (tx) => {
    const copy = await existingCopy(tx, o, sha);
    if (copy) return { id: copy, created: false };
    const appender = await tx.conn.createAppender('portfolio_locations');
    let totals: Totals;
    try {
      totals = await fill(
        (seq, rowNumber, r) => appendRow(appender, id, seq, rowNumber, r),
        () => appender.flushSync(),
      );
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
    await insertPortfolio(tx, id, o, source, sha, totals);
    return { id, created: true };
  });
  return { portfolio: (await getPortfolio(db, o.account, outcome.id))!, created: outcome.created };
}

async function sha256OfFile(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** The column index of each imported field (-1 when absent); header problems when a field is named twice or LocNumber is missing. */
function columnsOf(
  columns: string[],
  latIndex: number,
  lngIndex: number,
): { index: Record<ImportedField, number>; problems: FieldProblem[] } {
  const index = Object.fromEntries(IMPORTED_FIELDS.map((f) => [f, -1])) as Record<ImportedField, number>;
  const problems: FieldProblem[] = [];
  columns.forEach((c, i) => {
    const f = oedFieldName(c) as ImportedField | null;
    if (!f || !(IMPORTED_FIELDS as readonly string[]).includes(f)) return;
    if (index[f] >= 0)
      problems.push({
        field: `header.${f}`,
        message: `columns ${index[f] + 1} and ${i + 1} both name ${f} (headers are case-insensitive)`,
      });
    else index[f] = i;
  });
  // The bulk scorer's coordinate columns (Latitude/Longitude, or lat, lng, lon, long).
  if (index.Latitude < 0) index.Latitude = latIndex;
  if (index.Longitude < 0) index.Longitude = lngIndex;
  if (index.LocNumber < 0)
    problems.push({
      field: 'header.LocNumber',
      message: 'the header has no LocNumber column (OED location file: LocNumber, Latitude, Longitude, ...)',
    });
  return { index, problems };
}

/**
 * Imports an OED location CSV file. `label` names the input in messages (the file, or "the CSV body" for an
 * upload, whose temporary path must not leak).
 */
export async function importCsvFile(db: Store, file: string, o: ImportOptions, label = file): Promise<ImportResult> {
  const header = await readInputHeader(file).catch((err: unknown) => {
    if (err instanceof CatintelError && label !== file)
      throw new CatintelError('validation_failed', err.message.split(file).join(label), {
        errors: [{ field: 'body', message: err.message.split(file).join(label) }],
      });
    throw err;
  });
  const { index, problems: headerProblems } = columnsOf(header.columns, header.latIndex, header.lngIndex);
  if (headerProblems.length) {
    throw new CatintelError(
      label === file ? 'invalid_input' : 'validation_failed',
      `${label}: ${headerProblems.map((p) => p.message).join('; ')}; nothing was imported`,
      { errors: headerProblems },
    );
  }
  const sha = await sha256OfFile(file);
  const fieldCount = header.columns.length;
  return importInTransaction(db, o, 'csv', sha, async (append, flush) => {
    const totals = newTotals();
    // The line the current row starts on: a problem is named while its row is read, so no table of lines is
    // kept (one entry per row would grow with the file).
    let rowLine = 0;
    const problems = new Problems(
      (row) => `row[${row}]`,
      () => `line ${rowLine}: `,
    );
    let row = 0;
    let line = header.headerLines;
    let seq = 0;
    const get =
      (r: ScannedRow) =>
      (f: ImportedField): unknown => {
        const i = index[f];
        if (i < 0) return undefined;
        if (f === 'Latitude' || f === 'Longitude') {
          const v = parseCoordinate(r, i);
          return Number.isNaN(v) ? fieldText(r, i) : v;
        }
        return fieldText(r, i);
      };
    await readRows(
      {
        file,
        dataStart: header.dataStart,
        delimiter: header.delimiter,
        expectFields: fieldCount,
        signal: o.signal,
        rowNumber: () => row,
        afterChunk: async (bytes) => {
          flush();
          o.progress?.({ task: 'portfolio import', done: bytes, total: header.sizeBytes, unit: 'bytes' });
        },
      },
      (r) => {
        line += 1 + r.innerLineBreaks;
        if (r.fieldCount === 1 && r.rowEnd === r.rowStart) return; // a blank line is no row
        row++;
        rowLine = line - r.innerLineBreaks;
        const utf8 = rowUtf8Problem(r);
        if (utf8)
          return problems.add(row, [
            { field: header.columns[utf8.field] ?? 'row', message: utf8ProblemText(utf8, header.columns) },
          ]);
        if (r.unterminated) return problems.add(row, [{ field: 'row', message: 'a quoted field is never closed' }]);
        if (r.fieldCount !== fieldCount)
          return problems.add(row, [
            { field: 'row', message: `has ${r.fieldCount} fields; the header has ${fieldCount}` },
          ]);
        const { row: loc, problems: p } = checkRow(get(r));
        if (!loc) return problems.add(row, p);
        const mixed = tally(totals, loc, row);
        if (mixed) return problems.add(row, [mixed]);
        if (!problems.failed) append(++seq, row, loc);
      },
    );
    if (problems.failed) throw problems.error(row);
    if (totals.count === 0)
      throw new CatintelError(
        label === file ? 'invalid_input' : 'validation_failed',
        `${label} has a header but no location rows; nothing was imported`,
        { errors: [{ field: 'body', message: 'no location rows' }] },
      );
    return totals;
  });
}

/** Imports a text/csv body: written to a private temporary file (mode 0600) and read like a file. */
export async function importCsvText(db: Store, text: string, o: ImportOptions): Promise<ImportResult> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'catintel-portfolio-'));
  const file = path.join(dir, 'location.csv');
  try {
    await fs.promises.writeFile(file, text, { mode: 0o600 });
    return await importCsvFile(db, file, o, 'the CSV body');
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Imports JSON rows (POST /portfolio with application/json): OED field names, matched in any case. */
export async function importJsonRows(db: Store, rows: unknown[], o: ImportOptions): Promise<ImportResult> {
  if (rows.length === 0)
    throw new CatintelError('validation_failed', 'locations is empty; send at least one OED location row', {
      errors: [{ field: 'locations', message: 'at least one location' }],
    });
  const canonical = rows.map((r) => canonicalRow(r));
  // A missing field hashes as null; a JSON null (refused per row) hashes apart from it, so a body with a null
  // is never taken for stored content that omitted the field (and answered 200 without being checked).
  const sha = createHash('sha256')
    .update(
      JSON.stringify(
        canonical.map((c) => c && IMPORTED_FIELDS.map((f) => (c[f] === null ? { null: true } : (c[f] ?? null)))),
      ),
    )
    .digest('hex');
  return importInTransaction(db, o, 'json', sha, async (append) => {
    const totals = newTotals();
    const problems = new Problems((row) => `locations[${row - 1}]`);
    canonical.forEach((values, i) => {
      const row = i + 1;
      if (values === null) return problems.add(row, [{ field: 'row', message: 'is not a JSON object' }]);
      const { row: loc, problems: p } = checkRow((f) => values[f], { json: true });
      if (!loc) return problems.add(row, p);
      const mixed = tally(totals, loc, row);
      if (mixed) return problems.add(row, [mixed]);
      if (!problems.failed) append(row, row, loc);
    });
    if (problems.failed) throw problems.error(rows.length);
    return totals;
  });
}

/** The imported fields of a JSON row, keys matched as OED names in any case; null when it is not an object. */
function canonicalRow(r: unknown): Partial<Record<ImportedField, unknown>> | null {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return null;
  const out: Partial<Record<ImportedField, unknown>> = {};
  for (const [k, v] of Object.entries(r)) {
    const f = oedFieldName(k) as ImportedField | null;
    if (f && (IMPORTED_FIELDS as readonly string[]).includes(f)) out[f] = v;
  }
  return out;
}
