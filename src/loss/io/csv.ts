/**
 * Numeric CSV tables of the Oasis formats: a header line, then comma-separated numbers. Columns are
 * read by name into Float64Arrays (the files are small next to memory, and parsing by hand keeps the
 * 40 000-row footprint well under a tenth of a second). Errors name the file, the line and the fix.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../errors.js';

export interface Table {
  file: string;
  rows: number;
  columns: string[];
  col(name: string): Float64Array;
  has(name: string): boolean;
  /** Raw text values of a column (for OED text fields such as LocNumber). */
  text(name: string): string[];
}

export function readTable(file: string, required: string[]): Table {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    throw new CatintelError('invalid_input', `${path.basename(file)} not found in ${path.dirname(file)}; the Oasis model and input directories must hold it`);
  }
  const lines = raw.split(/\r?\n/).filter((l) => l.length > 0);
  if (lines.length === 0) throw new CatintelError('invalid_input', `${file} is empty; it needs a header line (${required.join(',')})`);
  const columns = lines[0].split(',').map((c) => c.trim());
  for (const c of required) {
    if (!columns.includes(c)) throw new CatintelError('invalid_input', `${file}: column ${c} is missing (header: ${lines[0]}); expected ${required.join(',')}`);
  }
  const cells = lines.slice(1).map((l) => l.split(','));
  const cache = new Map<string, Float64Array>();
  return {
    file,
    rows: cells.length,
    columns,
    has: (name) => columns.includes(name),
    text(name) {
      const j = columns.indexOf(name);
      return cells.map((r) => (r[j] ?? '').trim());
    },
    col(name) {
      const hit = cache.get(name);
      if (hit) return hit;
      const j = columns.indexOf(name);
      if (j < 0) throw new CatintelError('invalid_input', `${file}: column ${name} is missing (header: ${lines[0]})`);
      const out = new Float64Array(cells.length);
      for (let i = 0; i < cells.length; i++) {
        const v = Number(cells[i][j]);
        if (!Number.isFinite(v)) throw new CatintelError('invalid_input', `${file} line ${i + 2}: ${name} "${cells[i][j] ?? ''}" is not a number`);
        out[i] = v;
      }
      cache.set(name, out);
      return out;
    },
  };
}
