/**
 * Opening a bulk-scoring input: refuse at once, with one clear line, a file that cannot be a usable CSV
 * (missing, empty, binary, gzip/Parquet/ZIP, JSON, a header that is not UTF-8, no coordinate columns), and
 * read its header. Nothing
 * is written before this passes (docs/contract.md#cli-exit-codes: exit code 2, invalid_input).
 */
import fs from 'node:fs';
import { CatintelError } from '../errors.js';
import { invalidUtf8At } from '../lib/utf8.js';
import { CsvScanner, LF, QUOTE, fieldText } from './scanner.js';

export interface InputHeader {
  file: string;
  sizeBytes: number;
  delimiter: number;
  /** Header names as written (unquoted, trimmed). */
  columns: string[];
  /** Byte offset where the first data row starts. */
  dataStart: number;
  /** Physical lines the header took (1 unless a quoted name holds a line break). */
  headerLines: number;
  latIndex: number;
  lngIndex: number;
}

const SNIFF_BYTES = 1 << 20;
const DELIMITERS = [0x2c, 0x3b, 0x09, 0x7c]; // , ; TAB |
const LAT_NAMES = ['latitude', 'lat'];
const LNG_NAMES = ['longitude', 'lng', 'lon', 'long'];

function bad(message: string): CatintelError {
  return new CatintelError('invalid_input', message);
}

export async function readInputHeader(file: string): Promise<InputHeader> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    throw bad(`input ${file} does not exist; give the path of a CSV file with a header row`);
  }
  if (stat.isDirectory()) throw bad(`input ${file} is a directory; give the path of a CSV file`);
  if (stat.size === 0) throw bad(`input ${file} is empty; give a CSV file with a header row and one row per location`);

  const fh = await fs.promises.open(file, 'r');
  let head: Buffer;
  try {
    head = Buffer.alloc(Math.min(SNIFF_BYTES, stat.size));
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  refuseNonCsv(file, head);

  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const delimiter = sniffDelimiter(head, bom);
  const scanner = new CsvScanner(delimiter);
  const found: { columns?: string[]; lines: number; badByte?: number } = { lines: 1 };
  const dataStart = scanner.scan(head, bom, head.length, head.length === stat.size, (r) => {
    const bad = invalidUtf8At(r.buf, r.rowStart, r.rowEnd);
    if (bad >= 0) {
      found.badByte = bad;
      return false;
    }
    const columns: string[] = [];
    for (let i = 0; i < Math.min(r.fieldCount, scanner.maxFields); i++) columns.push(fieldText(r, i).trim());
    found.columns = columns;
    found.lines = 1 + r.innerLineBreaks;
    return false;
  });
  if (found.badByte !== undefined) {
    throw bad(
      `input ${file}: its header row is not valid UTF-8 at byte offset ${found.badByte} (0x${head[found.badByte].toString(16).padStart(2, '0')}); save the file as UTF-8 (Excel: "CSV UTF-8")`,
    );
  }
  if (!found.columns) throw bad(`input ${file} has no complete header row in its first MiB; is it a CSV file?`);
  const names = found.columns;
  const headerLines = found.lines;
  const find = (candidates: string[]) => {
    const lower = names.map((c) => c.toLowerCase());
    for (const c of candidates) {
      const i = lower.indexOf(c);
      if (i >= 0) return i;
    }
    return -1;
  };
  const latIndex = find(LAT_NAMES);
  const lngIndex = find(LNG_NAMES);
  if (latIndex < 0 || lngIndex < 0) {
    const missing =
      latIndex < 0 && lngIndex < 0
        ? 'no coordinate columns'
        : latIndex < 0
          ? 'no latitude column'
          : 'no longitude column';
    const shown =
      names
        .slice(0, 12)
        .map((c) => JSON.stringify(c))
        .join(', ') + (names.length > 12 ? `, ... (${names.length} columns)` : '');
    throw bad(
      `input ${file} has ${missing}: expected Latitude and Longitude (or lat, lng, lon, long, in any case); its header has ${shown}`,
    );
  }
  return { file, sizeBytes: stat.size, delimiter, columns: names, dataStart, headerLines, latIndex, lngIndex };
}

function refuseNonCsv(file: string, head: Buffer): void {
  if (head[0] === 0x1f && head[1] === 0x8b)
    throw bad(`input ${file} is gzip-compressed; decompress it first (gunzip) and give the CSV`);
  if (head.subarray(0, 4).toString('latin1') === 'PAR1')
    throw bad(
      `input ${file} is a Parquet file; give a CSV file (DuckDB can convert it: COPY (FROM '${file}') TO 'x.csv')`,
    );
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    throw bad(`input ${file} is a ZIP archive (an Excel workbook?); export the sheet as CSV and give that`);
  }
  if (head.indexOf(0) >= 0)
    throw bad(`input ${file} contains binary data (NUL bytes), not CSV text; give a CSV file with a header row`);
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0d || head[i] === LF)) i++;
  if (head[i] === 0x7b || head[i] === 0x5b) {
    throw bad(`input ${file} looks like JSON, not CSV; give a CSV file with a header row (Latitude, Longitude, ...)`);
  }
}

/**
 * The delimiter that occurs most often (outside quotes) in the header line; comma on a tie. As in the
 * scanner, a quote opens a quoted name only at the start of a field (`size (in")` is a literal quote).
 */
function sniffDelimiter(head: Buffer, from: number): number {
  const counts = [0, 0, 0, 0];
  let inQuotes = false;
  for (let i = from; i < head.length; i++) {
    const c = head[i];
    if (c === QUOTE) {
      if (inQuotes && head[i + 1] === QUOTE)
        i++; // a doubled quote inside quotes
      else if (inQuotes) inQuotes = false;
      else if (i === from || DELIMITERS.includes(head[i - 1]) || head[i - 1] === 0x20) inQuotes = true;
    } else if (!inQuotes && c === LF) break;
    else if (!inQuotes) {
      const k = DELIMITERS.indexOf(c);
      if (k >= 0) counts[k]++;
    }
  }
  let best = 0;
  for (let k = 1; k < counts.length; k++) if (counts[k] > counts[best]) best = k;
  return DELIMITERS[best];
}
