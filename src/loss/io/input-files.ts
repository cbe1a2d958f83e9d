/**
 * The files of an Oasis input directory as the loss readers take them. A file handed over in memory
 * (the tables `oasis files` made for a run that reads them next) is read from there, any other from the
 * directory: every reader of the input goes through this one lookup, so a run reads the same numbers
 * whichever way its input came.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../errors.js';
import { readTable, type Table } from './csv.js';

/**
 * A file made in memory rather than written: `read(required)` gives the table readTable(file, required)
 * would give of its bytes (arrays of its own at each read), or undefined when only `bytes()`, the
 * file's bytes, say it exactly.
 */
export interface TableSource {
  read(required: string[]): Table | undefined;
  bytes(): Buffer;
}

/** An input file handed over in memory: made (a TableSource), or its bytes. */
export type InputTable = TableSource | Buffer;

/** Input files in memory by name in the input directory (a reinsurance level's as RI_1/fm_xref.csv). */
export type InputTables = ReadonlyMap<string, InputTable>;

export class InputFiles {
  private constructor(
    readonly dir: string,
    private readonly tables: InputTables | undefined,
    /** This folder's place in the input directory, before a file's name in `tables`. */
    private readonly prefix: string,
  ) {}

  /** The directory's files, those of `tables` taken from memory. */
  static of(input: string | InputFiles, tables?: InputTables): InputFiles {
    return typeof input === 'string' ? new InputFiles(input, tables, '') : input;
  }

  path(name: string): string {
    return path.join(this.dir, name);
  }

  has(name: string): boolean {
    return this.given(name) !== undefined || fs.existsSync(this.path(name));
  }

  /** The file's table with the `required` columns: made in memory, or read by readTable from its bytes. */
  table(name: string, required: string[]): Table {
    const got = this.tableOrBytes(name, required);
    return Buffer.isBuffer(got) ? readTable(this.path(name), required, got) : got;
  }

  /**
   * The file's table when it was made in memory, else its bytes (handed over, or read from the
   * directory), for a reader that looks at them first (a summary map with quoted text).
   */
  tableOrBytes(name: string, required: string[]): Table | Buffer {
    const got = this.given(name);
    if (got === undefined) {
      try {
        return fs.readFileSync(this.path(name));
      } catch {
        throw new CatintelError(
          'invalid_input',
          `${name} not found in ${this.dir}; the Oasis model and input directories must hold it`,
        );
      }
    }
    if (Buffer.isBuffer(got)) return got;
    return got.read(required) ?? got.bytes();
  }

  /** A folder of the input directory (RI_1), its files in memory when the directory's are. */
  folder(name: string): InputFiles {
    return new InputFiles(path.join(this.dir, name), this.tables, `${this.prefix}${name}/`);
  }

  private given(name: string): InputTable | undefined {
    return this.tables?.get(this.prefix + name);
  }
}
