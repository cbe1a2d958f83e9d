/**
 * A RowWriter that keeps, in place of a file's bytes, some of the columns reading those bytes would give
 * (readTable's, as the loss readers take them): each kept cell holds the number Number() makes of the
 * text LineWriter would write for it, which is what readTable reads, so a reader handed these columns
 * reads what it would have parsed, to the bit. A cell is split at commas, as a reader of the bytes splits
 * it. Text that a reader would take otherwise (a quote, which sends a summary map to the quoted reader;
 * a line break; a header that is empty) leaves the writer inexact: only the file's bytes then say it.
 */
import type { RowWriter } from './row-writer.js';

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** What the current cell holds so far: nothing, a number alone, or text. */
const EMPTY = 0;
const NUMBER = 1;
const TEXT = 2;

/** What the text LineWriter.int writes for n reads back as (it writes |n| in 32-bit digits below 2^31). */
function intValue(n: number): number {
  const negative = n < 0;
  const m = negative ? -n : n;
  const v = m >= 2 ** 31 ? m : m | 0;
  return negative ? -v : v;
}

/** The text LineWriter writes for a number cell, from the number it reads back as. */
function numberText(v: number): string {
  return Object.is(v, -0) ? '-0' : String(v);
}

export class ColumnWriter implements RowWriter {
  readonly columns: string[];
  /** Data lines written (empty lines are skipped, as readTable skips them). */
  rows = 0;
  exact = true;
  private readonly width: number;
  /** Per column, its place among the kept columns, or -1. */
  private readonly slot: Int32Array;
  private values: Float64Array[];
  /** Per kept column, the text of its cells written as text (null: a row short of the cell), made on the first. */
  private readonly texts: ((string | null)[] | undefined)[];
  /** Those texts once their column is read into numbers (for cellTextOf). */
  private readonly cellTexts = new Map<number, (string | null)[]>();
  private capacity = 4096;
  /** The current line's cell index, and what its current cell holds so far. */
  private cell = 0;
  private kind = EMPTY;
  private cellNumber = 0;
  private cellText = '';

  /** `keep`: the columns to keep, by name (the first column of a repeated name, as readTable takes it). */
  constructor(header: string, keep: readonly string[]) {
    this.columns = header.split(',').map((c) => c.trim());
    this.width = this.columns.length;
    if (header.trim() === '' || hasBreakOrQuote(header)) this.exact = false;
    this.slot = new Int32Array(this.width).fill(-1);
    let kept = 0;
    for (const name of new Set(keep)) {
      const j = this.columns.indexOf(name);
      if (j >= 0) this.slot[j] = kept++;
    }
    this.values = Array.from({ length: kept }, () => new Float64Array(this.capacity));
    this.texts = this.values.map(() => undefined);
  }

  num(x: number): this {
    if (Number.isSafeInteger(x)) return this.int(x);
    // `${x}` reads back as x: JavaScript prints a number in the fewest digits that read back as it.
    return this.numberCell(x);
  }

  int(n: number): this {
    return this.numberCell(intValue(n));
  }

  text(s: string): this {
    if (!this.exact || s.length === 0) return this;
    let from = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === COMMA) {
        this.textPart(s.slice(from, i));
        this.comma();
        from = i + 1;
      } else if (c <= QUOTE && (c === QUOTE || c === LF || c === CR)) {
        this.exact = false;
        return this;
      }
    }
    this.textPart(from === 0 ? s : s.slice(from));
    return this;
  }

  comma(): this {
    if (this.kind !== NUMBER) this.commitText();
    this.kind = EMPTY;
    this.cell++;
    return this;
  }

  end(): void {
    if (this.cell === 0 && this.kind === EMPTY) return;
    if (this.kind !== NUMBER) this.commitText();
    for (let j = this.cell + 1; j < this.width; j++) if (this.slot[j] >= 0) this.store(this.slot[j], null);
    this.kind = EMPTY;
    this.cell = 0;
    if (++this.rows === this.capacity) this.grow();
  }

  line(s: string): void {
    this.text(s).end();
  }

  /** Whether `name` is a kept column. */
  keeps(name: string): boolean {
    const j = this.columns.indexOf(name);
    return j >= 0 && this.slot[j] >= 0;
  }

  /**
   * A kept column's numbers, as readTable reads them: a text cell's is Number(text), a missing cell's
   * NaN. Its own array, made once.
   */
  column(name: string): Float64Array {
    const k = this.slot[this.columns.indexOf(name)];
    const t = this.texts[k];
    if (t !== undefined) {
      const out = this.values[k];
      for (let i = 0; i < t.length; i++) {
        const s = t[i];
        if (s !== undefined) out[i] = s === null ? NaN : Number(s);
      }
      this.texts[k] = undefined;
      this.cellTexts.set(k, t);
    }
    if (this.values[k].length !== this.rows) this.values[k] = this.values[k].slice(0, this.rows);
    return this.values[k];
  }

  /** The text of a kept column's cell i as the file has it ('' for a missing cell). */
  cellTextOf(name: string, i: number): string {
    const k = this.slot[this.columns.indexOf(name)];
    const s = (this.texts[k] ?? this.cellTexts.get(k))?.[i];
    if (s === null) return '';
    return s ?? numberText(this.values[k][i]);
  }

  private numberCell(v: number): this {
    if (this.kind === EMPTY) {
      // Kept at once: a number alone in its cell is the common case.
      const k = this.cell < this.width ? this.slot[this.cell] : -1;
      if (k >= 0) this.values[k][this.rows] = v;
      this.kind = NUMBER;
      this.cellNumber = v;
    } else this.textPart(numberText(v));
    return this;
  }

  private textPart(s: string): void {
    if (s.length === 0) return;
    if (this.kind === TEXT) this.cellText += s;
    else {
      this.cellText = this.kind === NUMBER ? numberText(this.cellNumber) + s : s;
      this.kind = TEXT;
    }
  }

  /** Keeps the current cell when it is text or empty (a number alone is kept as it comes). */
  private commitText(): void {
    const k = this.cell < this.width ? this.slot[this.cell] : -1;
    if (k >= 0) this.store(k, this.kind === TEXT ? this.cellText : '');
    this.cellText = '';
  }

  /** A cell held as its text (its number read when the column is), or a missing one (null). */
  private store(k: number, text: string | null): void {
    let t = this.texts[k];
    if (t === undefined) t = this.texts[k] = [];
    t[this.rows] = text;
  }

  private grow(): void {
    this.capacity *= 4;
    this.values = this.values.map((v) => {
      const wider = new Float64Array(this.capacity);
      wider.set(v);
      return wider;
    });
  }
}

function hasBreakOrQuote(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE || c === LF || c === CR) return true;
  }
  return false;
}
