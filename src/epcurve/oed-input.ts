/**
 * `--input FILE.csv`: an OED location file read straight into the EP curve's locations, for a book that was
 * never imported as a portfolio. The file is opened and its header checked by the bulk scorer's reader
 * (refusals of binary, gzip, JSON, missing coordinate columns), rows are split by its CSV scanner, and each
 * row is checked by the portfolio importer's OED row rules (src/portfolios/domain/oed-row.ts), so a file
 * `portfolio import` accepts gives the same locations here. A bad row refuses the whole file (422), naming
 * the first rows and fields at fault, as the importer does: no curve from half a book.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { CatintelError } from '../errors.js';
import type { PortfolioLocation } from '../portfolios/read.js';
import { IMPORTED_FIELDS, checkRow, scorePerilsOf, type ImportedField } from '../portfolios/domain/oed-row.js';
import { CsvScanner, fieldText } from '../csv/scanner.js';
import { readInputHeader } from '../csv/header.js';
import { rowUtf8Problem, utf8ProblemText } from '../csv/utf8-row.js';

const SHOWN_PROBLEMS = 5;

export async function readOedLocations(file: string): Promise<PortfolioLocation[]> {
  const header = await readInputHeader(file);
  const lower = header.columns.map((c) => c.toLowerCase());
  const index = new Map<ImportedField, number>();
  for (const f of IMPORTED_FIELDS) {
    const i = lower.indexOf(f.toLowerCase());
    if (i >= 0) index.set(f, i);
  }
  const buf = await fs.promises.readFile(file);
  const scanner = new CsvScanner(header.delimiter);
  scanner.row.mayHoldInvalidUtf8 = !isUtf8(buf); // rows are checked one by one only when the file fails
  const out: PortfolioLocation[] = [];
  const problems: { field: string; message: string }[] = [];
  let rowNumber = 0;
  scanner.scan(buf, header.dataStart, buf.length, true, (r) => {
    rowNumber++;
    if (r.fieldCount === 1 && r.ends[0] === r.starts[0]) return; // a blank line
    const utf8 = rowUtf8Problem(r); // refused as the importer refuses it, never read with U+FFFD in it
    if (utf8) {
      problems.push({
        field: `row ${rowNumber} ${header.columns[utf8.field] ?? ''}`.trim(),
        message: utf8ProblemText(utf8, header.columns),
      });
      return;
    }
    const { row, problems: bad } = checkRow((f) => {
      const i = index.get(f);
      return i === undefined || i >= r.fieldCount ? undefined : fieldText(r, i);
    });
    if (!row) {
      for (const p of bad) problems.push({ field: `row ${rowNumber} ${p.field}`, message: p.message });
      return;
    }
    out.push({
      locNumber: row.locNumber,
      lat: row.lat,
      lng: row.lng,
      occupancyCode: row.occupancyCode,
      constructionCode: row.constructionCode,
      perils: scorePerilsOf(row.perilsCovered),
      perilsCovered: row.perilsCovered,
      tiv: { building: row.buildingTiv, contents: row.contentsTiv, bi: row.biTiv, other: row.otherTiv },
      currency: row.currency,
    });
  });
  if (problems.length) {
    const first = problems
      .slice(0, SHOWN_PROBLEMS)
      .map((p) => `${p.field} ${p.message}`)
      .join('; ');
    throw new CatintelError(
      'validation_failed',
      `input ${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in its OED rows (data rows numbered from 1): ${first}`,
      {
        errors: problems.slice(0, 100),
      },
    );
  }
  if (out.length === 0) throw new CatintelError('invalid_input', `input ${file} has a header but no location rows`);
  return out;
}
