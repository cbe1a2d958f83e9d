/**
 * The first difference between an Oasis file we wrote and the one a case expects, as oasislmf's FM test
 * runner compares them: columns matched by the expected file's header (acc_idx left out: its value
 * depends on the order pandas merges in, not on the rules), rows in order, numbers within 0.001 (or 0.1 %
 * of larger values), text exactly.
 */
import fs from 'node:fs';

export interface Difference {
  file: string;
  /** 1-based line of the expected file (the header is line 1); absent when the difference is the file as a whole. */
  line?: number;
  detail: string;
}

/** Columns whose value is an artefact of how oasislmf joins its tables, not a rule (oasislmf skips it too). */
const IGNORED_COLUMNS = new Set(['acc_idx']);

function table(file: string): { header: string[]; rows: string[][] } {
  const lines = fs.readFileSync(file, 'utf8').replace(/\r/g, '').trim().split('\n');
  return {
    header: lines[0].split(','),
    rows: lines
      .slice(1)
      .filter((l) => l !== '')
      .map((l) => l.split(',')),
  };
}

export function sameCell(a: string | undefined, b: string | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === '' || b === '') return false;
  const x = Number(a);
  const y = Number(b);
  return !Number.isNaN(x) && !Number.isNaN(y) && Math.abs(x - y) <= 1e-3 * Math.max(1, Math.abs(x), Math.abs(y));
}

/** `name` is how the file is reported (e.g. RI_2/fm_profile.csv). */
export function firstFileDifference(name: string, ours: string, expected: string): Difference | undefined {
  if (!fs.existsSync(ours)) return { file: name, detail: 'not written' };
  const o = table(ours);
  const e = table(expected);
  const columns = e.header.filter((c) => !IGNORED_COLUMNS.has(c));
  const missing = columns.filter((c) => !o.header.includes(c));
  if (missing.length) return { file: name, line: 1, detail: `no column ${missing.join(', ')}` };
  const at = columns.map((c) => o.header.indexOf(c));
  const ex = columns.map((c) => e.header.indexOf(c));
  for (let r = 0; r < Math.max(o.rows.length, e.rows.length); r++) {
    const line = r + 2;
    if (r >= o.rows.length)
      return { file: name, line, detail: `expected ${e.rows[r].join(',')}, ours has ${o.rows.length} rows` };
    if (r >= e.rows.length)
      return { file: name, line, detail: `ours ${o.rows[r].join(',')}, expected has ${e.rows.length} rows` };
    for (let c = 0; c < columns.length; c++) {
      const got = o.rows[r][at[c]];
      const want = e.rows[r][ex[c]];
      if (!sameCell(got, want))
        return { file: name, line, detail: `${columns[c]}: expected ${want}, ours ${got ?? '(none)'}` };
    }
  }
  return undefined;
}
