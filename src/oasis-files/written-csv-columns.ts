/**
 * A CSV file's text columns kept by the code that wrote it, for the readers that read it next: a stored
 * portfolio written out as an OED location file is read back by the keys lookup, by `oasis files` and by
 * the live event loss's TIV count, each a scan of the whole file (a fifth of a second for 100,000
 * locations). readCsvColumns takes the columns from here while the file is the one written (its identity:
 * device, inode, size, modification and change times), so a file edited or replaced since is read again.
 * One file is kept at a time, until the next is written or the writer forgets it (its work folder removed).
 */
import path from 'node:path';
import { fileIdentity } from '../lib/file-memo.js';

interface Kept {
  file: string;
  identity: string;
  header: string[];
  /** Each column's cells, trimmed as the reader trims them, in header order. */
  columns: string[][];
}

let kept: Kept | null = null;

/**
 * Keeps the columns of `file`, just written: its header and, in the same order, each column's cells as
 * written before any quoting (a reader's value of each).
 */
export function rememberCsvColumns(file: string, header: readonly string[], columns: readonly string[][]): void {
  const identity = fileIdentity(file);
  kept =
    identity === undefined
      ? null
      : {
          file: path.resolve(file),
          identity,
          header: [...header],
          columns: columns.map(trimmed),
        };
}

/** The cells as the reader gives them, trimmed (the column itself when none needs it). */
function trimmed(cells: readonly string[]): string[] {
  for (const c of cells)
    if (c.length > 0 && !(visible(c.charCodeAt(0)) && visible(c.charCodeAt(c.length - 1))) && c.trim() !== c)
      return cells.map((x) => x.trim());
  return cells as string[];
}

/** A printable ASCII character, which String.prototype.trim keeps. */
const visible = (code: number) => code > 32 && code < 127;

/** Drops the columns kept for a file in `dir` (the folder is being removed). */
export function forgetCsvColumnsIn(dir: string): void {
  if (kept && !path.relative(path.resolve(dir), kept.file).startsWith('..')) kept = null;
}

/**
 * The `wanted` columns of `file` as readCsvColumns reads them (names matched without regard to case or
 * surrounding spaces, each read with arrays of its own), when its writer kept them and it is unchanged.
 */
export function writtenCsvColumns(
  file: string,
  wanted: readonly string[],
): { header: string[]; rows: number; cols: Map<string, string[]> } | undefined {
  if (kept === null || kept.file !== path.resolve(file)) return undefined;
  if (fileIdentity(file) !== kept.identity) {
    kept = null;
    return undefined;
  }
  const lower = kept.header.map((h) => h.trim().toLowerCase());
  const cols = new Map<string, string[]>();
  for (const name of wanted) {
    const at = lower.indexOf(name.toLowerCase());
    if (at >= 0) cols.set(name, kept.columns[at].slice());
  }
  return { header: [...kept.header], rows: kept.columns[0]?.length ?? 0, cols };
}
