/**
 * Which input columns the csv / json / parquet tables carry (`--keep-columns`, docs/scoring.md §10):
 *   all (default)  every input column, in order, so a modeler has the scores beside their own data
 *                  without joining back; the coordinate columns keep their names and hold the parsed numbers
 *   ids            the identifying columns only (id-columns.ts), then `latitude`, `longitude`
 * An input column whose name is one of ours (`row`, a peril, `overall`, `scores`: re-scoring our own output)
 * is replaced by ours; a repeated or empty name gets a suffix, so every output name is unique (DuckDB's
 * Parquet conversion and JSON objects need that).
 */
import type { ScannedRow } from '../csv/scanner.js';
import type { OutFile } from './out-file.js';
import { rowHasFormula } from './formula-field.js';
import { COMMA, copyField } from './format-cells.js';

export const KEEP_COLUMNS = ['all', 'ids'] as const;
export type KeepColumns = (typeof KEEP_COLUMNS)[number];

/** One output column taken from the input: a field, or a parsed coordinate. */
export type KeptColumn = { name: string; input: number; coordinate: 'lat' | 'lng' | null };

export function keptColumns(
  mode: KeepColumns,
  columns: string[],
  latIndex: number,
  lngIndex: number,
  idIndexes: number[],
  reserved: readonly string[],
): KeptColumn[] {
  const coordinate = (i: number) => (i === latIndex ? 'lat' : i === lngIndex ? 'lng' : null);
  if (mode === 'ids') {
    return [
      ...idIndexes.map((i) => ({ name: columns[i], input: i, coordinate: null })),
      { name: 'latitude', input: latIndex, coordinate: 'lat' as const },
      { name: 'longitude', input: lngIndex, coordinate: 'lng' as const },
    ];
  }
  const ours = new Set(reserved.map((c) => c.toLowerCase()));
  const taken = new Set(ours);
  const kept: KeptColumn[] = [];
  columns.forEach((c, i) => {
    if (ours.has(c.toLowerCase()) && i !== latIndex && i !== lngIndex) return;
    const base = c || `column_${i + 1}`;
    let name = base;
    for (let k = 2; taken.has(name.toLowerCase()); k++) name = `${base}_${k}`;
    taken.add(name.toLowerCase());
    kept.push({ name, input: i, coordinate: coordinate(i) });
  });
  return kept;
}

/**
 * Writes the kept columns of a row as comma-separated fields (each preceded by a comma). Runs of adjacent
 * input fields of a comma-delimited file are copied as one span of bytes; coordinates are written as
 * the numbers we read. With `neutralise` (scores.csv, which a person may open in a spreadsheet; not the
 * CSV that only feeds the Parquet conversion), a text field that would be a formula is written as
 * `'=...` (format-cells.ts copyField), and a run holding one is copied field by field.
 */
export class KeptWriter {
  /** [first, last] positions in `kept` of runs of adjacent non-coordinate input fields. */
  private readonly runs: { from: number; to: number; coordinate: 'lat' | 'lng' | null }[] = [];

  constructor(
    private readonly kept: KeptColumn[],
    private readonly delimiter: number,
    private readonly neutralise: boolean,
  ) {
    for (let k = 0; k < kept.length; k++) {
      const c = kept[k];
      const last = this.runs.at(-1);
      if (!c.coordinate && last && !last.coordinate && kept[last.to].input === c.input - 1) last.to = k;
      else this.runs.push({ from: k, to: k, coordinate: c.coordinate });
    }
  }

  write(out: OutFile, r: ScannedRow, lat: number, lng: number): void {
    const kept = this.kept;
    const spans = this.delimiter === COMMA && !r.strayQuotes;
    for (const run of this.runs) {
      out.byte(COMMA);
      if (run.coordinate) {
        out.latin1(String(run.coordinate === 'lat' ? lat : lng));
        continue;
      }
      const first = kept[run.from].input;
      const last = kept[run.to].input;
      if (spans && !(this.neutralise && rowHasFormula(r, first, last))) {
        out.bytes(r.buf, r.starts[first], r.ends[last]);
        continue;
      }
      for (let k = run.from; k <= run.to; k++) {
        if (k > run.from) out.byte(COMMA);
        copyField(out, r, kept[k].input, this.delimiter, this.neutralise);
      }
    }
  }
}
