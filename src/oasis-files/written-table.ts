/**
 * An `oasis files` output kept in memory as what reading it gives, for a loss run that reads it next
 * (computeLosses' inputTables): nothing is written, and nothing parsed back. `read(required)` runs the
 * file's writer once into a ColumnWriter that keeps the required columns, as readTable reads those
 * together, and runs it again for any other column asked for, as readTable scans again for a column read
 * alone; each read has arrays of its own, as each parse of a file has. A file whose bytes alone say it
 * exactly (a quote or a line break in a text cell) gives no table: its bytes are made for the reader.
 */
import { CatintelError } from '../errors.js';
import type { Table } from '../loss/io/csv.js';
import type { TableSource } from '../loss/io/input-files.js';
import { ColumnWriter } from './column-writer.js';
import { LineWriter } from './line-writer.js';
import type { OutputFile } from './write-output-set.js';

export class WrittenTable implements TableSource {
  private inexact = false;
  private made?: Buffer;

  constructor(private readonly file: OutputFile) {}

  read(required: string[]): Table | undefined {
    if (this.inexact) return undefined;
    const { name, header } = this.file;
    const first = this.pass(required);
    if (!first.exact) {
      this.inexact = true;
      return undefined;
    }
    const { columns, rows } = first;
    for (const c of required) {
      if (!columns.includes(c))
        throw new CatintelError(
          'invalid_input',
          `${name}: column ${c} is missing (header: ${header}); expected ${required.join(',')}`,
        );
    }
    const passes = new Map<string, ColumnWriter>();
    const passOf = (column: string): ColumnWriter => {
      if (first.keeps(column)) return first;
      let w = passes.get(column);
      if (!w) passes.set(column, (w = this.pass([column])));
      return w;
    };
    const checked = new Map<string, Float64Array>();
    return {
      file: name,
      rows,
      columns,
      has: (column) => columns.includes(column),
      text(column) {
        if (!columns.includes(column)) return new Array<string>(rows).fill('');
        const w = passOf(column);
        return Array.from({ length: rows }, (_, i) => w.cellTextOf(column, i).trim());
      },
      col(column) {
        const hit = checked.get(column);
        if (hit) return hit;
        if (!columns.includes(column))
          throw new CatintelError('invalid_input', `${name}: column ${column} is missing (header: ${header})`);
        const w = passOf(column);
        const values = w.column(column);
        for (let i = 0; i < rows; i++) {
          if (!Number.isFinite(values[i]))
            throw new CatintelError(
              'invalid_input',
              `${name} line ${i + 2}: ${column} "${w.cellTextOf(column, i)}" is not a number`,
            );
        }
        checked.set(column, values);
        return values;
      },
    };
  }

  bytes(): Buffer {
    if (!this.made) {
      const out = new LineWriter();
      out.line(this.file.header);
      this.file.writeRows(out);
      this.made = out.bytes();
    }
    return this.made;
  }

  private pass(keep: readonly string[]): ColumnWriter {
    const w = new ColumnWriter(this.file.header, keep);
    this.file.writeRows(w);
    return w;
  }
}
