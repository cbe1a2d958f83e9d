/**
 * The side files the Oasis keys are made from (write-keys.ts). Data rows are numbered d = 0, 1, ... in
 * file order (blank lines are not rows), the same way by both passes.
 *
 * The keys pass (keys-job.ts) reads the input on its own and writes, for every data row:
 *   keys-pending.csv      d,PortNumber,AccNumber,LocNumber      what DuckDB ranks into LocIDs
 * The main pass, which knows each row's fate, writes:
 *   keys-side.bin         Int32 triples (covered-perils mask, grid cell or -1, coverage-types mask), one per
 *                         location.csv row
 *   keys-side-errors.csv  d,mask,cell,coverages,lat,lng,LocPerilsCovered  location.csv rows that get
 *                         keys-errors rows
 *   keys-excluded.csv     d                                     data rows left out of location.csv
 */
import type { Peril } from '../../domain/scoring/perils.js';
import { coveredMask, oedCodesOf } from '../../oed/perils.js';
import { isBlank, type ScannedRow } from '../../csv/scanner.js';
import { SYNTH_ACC, SYNTH_PORT } from '../location-columns.js';
import type { OutFile } from '../out-file.js';
import { rowHasFormula } from '../formula-field.js';
import { rowUtf8Problem } from '../../csv/utf8-row.js';
import { COMMA, NEWLINE, copyField } from '../format-cells.js';
import { OUTSIDE } from '../row-verdict.js';

/** Where the key fields are (a plain object: it crosses to the worker). */
export interface KeyColumns {
  delimiter: number;
  latIndex: number;
  lngIndex: number;
  /** Input index of each field, or -1 when the writer adds it. */
  port: number;
  acc: number;
  loc: number;
  perilsCovered: number;
  /** Input index of BuildingTIV, OtherTIV, ContentsTIV and BITIV (coverage types 1 to 4), -1 when absent. */
  tiv: number[];
  /** CountryCode is added: rows outside the covered area are left out of location.csv. */
  addCountry: boolean;
  perils: Peril[];
}

/** Whether a row with usable coordinates (verdict = its cell, or OUTSIDE) is written to location.csv. */
export function inLocationFile(verdict: number, addCountry: boolean): boolean {
  return verdict >= 0 || (verdict === OUTSIDE && !addCountry);
}

const PAIR_BLOCK = 16384;
/** Int32s per location in keys-side.bin: peril mask, cell, coverage-types mask. */
export const SIDE_INTS = 3;
/** Coverage type 1 (buildings) alone: a row without a positive TIV is still keyed, as buildings. */
const BUILDINGS = 1;

/**
 * Whether a TIV field holds a positive number. Plain decimals (the usual case) are read from the bytes:
 * positive when any digit is not 0; anything else (quotes, a sign, an exponent) goes through Number.
 */
function positiveField(b: Buffer, start: number, end: number): boolean {
  let nonZero = false;
  for (let k = start; k < end; k++) {
    const c = b[k];
    if (c > 0x30 && c <= 0x39) nonZero = true;
    else if (c !== 0x30 && c !== 0x2e) return Number(b.toString('latin1', start, end).replaceAll('"', '').trim()) > 0;
  }
  return nonZero;
}

/** The keys pass: `d,P,A,L` for every data row; returns false for a blank line (not a row). */
export class KeyLineWriter {
  private readonly adjacent: boolean;
  /** The last key field's index: the keys pass splits no further (readRows fieldLimit = last + 1). */
  readonly last: number;
  rows = 0;
  /** d as decimal digits in num[numStart, 16), counted up in place: cheaper than formatting 1M numbers. */
  private readonly num = Buffer.alloc(16, 0x30);
  private numStart = 15;

  constructor(
    private readonly c: KeyColumns,
    private readonly out: OutFile,
  ) {
    this.adjacent = c.delimiter === COMMA && c.port >= 0 && c.acc === c.port + 1 && c.loc === c.acc + 1;
    this.last = Math.max(c.port, c.acc, c.loc);
  }

  row(r: ScannedRow): void {
    if (isBlank(r)) return;
    const c = this.c;
    const w = this.out;
    const d = this.rows++;
    w.bytes(this.num, this.numStart, 16);
    this.countUp();
    w.byte(COMMA);
    // A short row, or one that is not UTF-8 (DuckDB would refuse the file): the main pass leaves it out,
    // so its key never counts.
    if (r.fieldCount <= this.last || rowUtf8Problem(r)) {
      w.latin1(',,\n');
      return;
    }
    // The key fields as location.csv holds them (a would-be formula as '=...), so LocIDs rank those values.
    if (this.adjacent && !r.strayQuotes && !rowHasFormula(r, c.port, c.loc))
      w.bytes(r.buf, r.starts[c.port], r.ends[c.loc]); // "P,A,L" as one span
    else {
      if (c.port >= 0) copyField(w, r, c.port, c.delimiter, true);
      else w.latin1(SYNTH_PORT);
      w.byte(COMMA);
      if (c.acc >= 0) copyField(w, r, c.acc, c.delimiter, true);
      else w.latin1(SYNTH_ACC);
      w.byte(COMMA);
      if (c.loc >= 0) copyField(w, r, c.loc, c.delimiter, true);
      else w.int(d + 1); // LocNumber we add is the row number
    }
    w.byte(NEWLINE);
  }

  private countUp(): void {
    const num = this.num;
    let k = 15;
    while (num[k] === 0x39) num[k--] = 0x30;
    num[k]++; // a digit, or a '0' left of the number that becomes its new first digit '1'
    if (k < this.numStart) this.numStart = k;
  }
}

export interface SideFiles {
  side: OutFile;
  sideErrors: OutFile;
  excluded: OutFile;
}

/** The main pass: what each data row became, for the keys. */
export class SideWriter {
  /** location.csv rows, those of them that get keys-errors rows, and data rows left out. */
  locationRows = 0;
  errorRows = 0;
  excluded = 0;
  private readonly allMask: number;
  /** The LocPerilsCovered the Oasis writer adds when the input has none (format-oasis.ts). */
  private readonly addedCodes: string;
  /** LocPerilsCovered bytes -> mask, keyed by an FNV-1a hash of the bytes (checked byte for byte). */
  private readonly maskCache = new Map<number, { bytes: Buffer; mask: number }>();
  /** (mask, cell, coverages) triples not yet in the side file: copied there a block at a time, not a row at a time. */
  private readonly pairs = new Int32Array(SIDE_INTS * PAIR_BLOCK);
  private readonly pairBytes = Buffer.from(this.pairs.buffer);
  private nPairs = 0;

  constructor(
    readonly columns: KeyColumns,
    readonly f: SideFiles,
  ) {
    this.addedCodes = oedCodesOf(columns.perils) || 'AA1';
    this.allMask = coveredMask(this.addedCodes, columns.perils);
  }

  /** A location.csv row; d = its data-row index, cell -1 outside coverage. */
  location(r: ScannedRow, d: number, cell: number): void {
    const c = this.columns;
    this.locationRows++;
    const mask =
      c.perilsCovered >= 0 ? this.maskOf(r.buf, r.starts[c.perilsCovered], r.ends[c.perilsCovered]) : this.allMask;
    const coverages = this.coveragesOf(r);
    const n = this.nPairs++;
    this.pairs[SIDE_INTS * n] = mask;
    this.pairs[SIDE_INTS * n + 1] = cell;
    this.pairs[SIDE_INTS * n + 2] = coverages;
    if (n + 1 === PAIR_BLOCK) this.flush();
    if (cell >= 0 && mask !== 0) return;
    this.errorRows++;
    const e = this.f.sideErrors;
    e.int(d);
    e.byte(COMMA);
    e.int(mask);
    e.byte(COMMA);
    e.int(cell);
    e.byte(COMMA);
    e.int(coverages);
    e.byte(COMMA);
    copyField(e, r, c.latIndex, c.delimiter, false);
    e.byte(COMMA);
    copyField(e, r, c.lngIndex, c.delimiter, false);
    e.byte(COMMA);
    if (c.perilsCovered >= 0) copyField(e, r, c.perilsCovered, c.delimiter, true);
    else e.latin1(this.addedCodes);
    e.byte(NEWLINE);
  }

  /** Hands the pairs held here to the side file; call before draining it. */
  flush(): void {
    this.f.side.bytes(this.pairBytes, 0, this.nPairs * 4 * SIDE_INTS); // native byte order: every platform Node runs on is little-endian
    this.nPairs = 0;
  }

  /**
   * Bit t - 1 for each coverage type t (1 buildings, 2 other, 3 contents, 4 BI) whose TIV is positive, as
   * oasislmf makes items only for coverages with a value. A row with none (or an input without TIV
   * columns, scored for hazard alone) is keyed for buildings, so every scored location has its keys.
   */
  private coveragesOf(r: ScannedRow): number {
    const tiv = this.columns.tiv;
    let bits = 0;
    for (let t = 0; t < tiv.length; t++) {
      const i = tiv[t];
      if (i >= 0 && i < r.fieldCount && positiveField(r.buf, r.starts[i], r.ends[i])) bits |= 1 << t;
    }
    return bits || BUILDINGS;
  }

  /** A data row left out of location.csv (malformed, unusable coordinates, or outside with no country). */
  exclude(d: number): void {
    this.excluded++;
    this.f.excluded.int(d);
    this.f.excluded.byte(NEWLINE);
  }

  private maskOf(b: Buffer, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let k = start; k < end; k++) h = Math.imul(h ^ b[k], 0x01000193);
    h &= 0x3fffffff; // a small integer: a Map key V8 looks up without boxing a number
    const hit = this.maskCache.get(h);
    if (hit && hit.bytes.length === end - start) {
      let same = true;
      for (let k = start; k < end && same; k++) same = hit.bytes[k - start] === b[k];
      if (same) return hit.mask;
    }
    const mask = coveredMask(b.toString('latin1', start, end).replaceAll('"', ''), this.columns.perils);
    if (this.maskCache.size < 10_000) this.maskCache.set(h, { bytes: Buffer.from(b.subarray(start, end)), mask });
    return mask;
  }
}
