/**
 * The messages a bulk run ends with when something is wrong: nothing scored, the file system refusing the
 * output directory, a stray quote (src/scoring-bulk/run.ts).
 */
import path from 'node:path';
import { CatintelError } from '../errors.js';
import type { ScannedRow } from '../csv/scanner.js';
import { fsReason } from './out-dir.js';
import type { BulkSummary } from './types.js';

/**
 * A run that scored no row is not a success a script should carry on from (exit code 2, invalid_input):
 * the outputs are written all the same, errors.csv first among them, because they say row by row why.
 */
export function nothingScored(s: BulkSummary, errorsPath: string): CatintelError {
  if (s.rows === 0)
    return new CatintelError('invalid_input', `input ${s.input} has a header but no data rows; nothing to score`);
  const parts = [
    s.outside_coverage && `${s.outside_coverage} outside the covered area (US states, DC and territories)`,
    s.errors_by_kind.invalid_coordinates && `${s.errors_by_kind.invalid_coordinates} with unusable coordinates`,
    s.errors_by_kind.malformed_row && `${s.errors_by_kind.malformed_row} malformed`,
  ].filter(Boolean);
  return new CatintelError(
    'invalid_input',
    `no row of ${s.input} could be scored: of ${s.rows} rows, ${parts.join(', ')}; ${errorsPath} lists each with its reason`,
  );
}

/** A refusal of the file system while writing (permissions, a full disk) names the directory. */
export function fsError(err: unknown, outDir: string): unknown {
  const { code, path: where } = (err ?? {}) as NodeJS.ErrnoException;
  if (err instanceof CatintelError || typeof code !== 'string') return err;
  if (where && !path.resolve(where).startsWith(path.resolve(outDir))) return err; // not an output (the input, say)
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new CatintelError('unavailable', `cannot write to --out ${outDir}: ${fsReason(err)}; nothing was written`, {
      cause: err,
    });
  if (/^E[A-Z]+$/.test(code))
    return new CatintelError(
      'invalid_input',
      `cannot write to --out ${outDir}: ${fsReason(err)}; give a directory you can write to`,
      { cause: err },
    );
  return err;
}

/** Why a row with a quote that does not close on its line was read as that line alone (src/csv/scanner.ts). */
export function unterminatedReason(r: ScannedRow, headerFields: number): string {
  const read = 'read as this line alone, and reading went on at the next line';
  if (r.mergedFields === 0)
    return `a quoted field opened on this line is not closed before the end of the file (or within 64 MiB); ${read}`;
  if (r.mergedFields < 0)
    return `a quoted field opened on this line runs on over whole rows of later lines: taken for a stray quote, ${read}`;
  if (r.mergedFields === headerFields)
    return `a quoted field opened on this line closes on a later line with text right after the closing quote: taken for a stray quote, ${read}`;
  return `a quoted field opened on this line closes on a later line, which would make a row of ${r.mergedFields} fields (the header has ${headerFields}): taken for a stray quote, ${read}`;
}
