/**
 * `--format oasis`: location.csv (OED 5.0.0, the input's columns kept, scores in FlexiLoc columns), then
 * keys.csv and keys-errors.csv (oasis.md §7) made by DuckDB from a slim side file, because LocID is
 * oasislmf's loc_id: the rank of (PortNumber, AccNumber, LocNumber) in sorted order, known only once every
 * row has been read. Rows are copied byte for byte where the input allows it (comma-delimited, no column
 * dropped), so the OED values reach Oasis exactly as the user wrote them.
 */
import { countryOfFips, coveredMask, oedCodesOf } from '../oasis/perils.js';
import { csvField } from './csv-scan.js';
import { writeOasisKeys } from './oasis-keys.js';
import { OED_VERSION, SYNTH_ACC, SYNTH_CURRENCY, SYNTH_PORT, planOasisColumns, type OasisPlan } from './oasis-plan.js';
import { OutFile } from './out-file.js';
import { COMMA, CellMemo, NEWLINE, copyField, overallScore } from './row-text.js';
import type { FormatSink, OutputEntry, RowInfo, RunSetup } from './types.js';

export class OasisSink implements FormatSink {
  readonly files: OutFile[];
  private readonly plan: OasisPlan;
  private readonly wholeRow: boolean;
  private readonly tail: CellMemo;
  private readonly outsideTail: Buffer;
  private readonly allMask: number;
  private readonly maskCache = new Map<string, number>();
  private keysRows = 0;
  private keysErrorRows = 0;

  private constructor(
    private readonly s: RunSetup,
    private readonly location: OutFile,
    private readonly pending: OutFile,
    private readonly keys: OutFile,
    private readonly keysErrors: OutFile,
  ) {
    this.files = [location, keys, keysErrors];
    const h = s.header;
    this.plan = planOasisColumns(h.columns, h.latIndex, h.lngIndex, s.perils);
    this.wholeRow = this.plan.keep === null && h.delimiter === COMMA;
    const codes = oedCodesOf(s.perils);
    this.allMask = coveredMask(codes, s.perils);
    const constants = (country: string | null) =>
      (this.plan.addCountry ? `,${country ?? ''}` : '')
      + (this.plan.addPerilsCovered ? `,${codes}` : '')
      + (this.plan.addCurrency ? `,${SYNTH_CURRENCY}` : '')
      + (this.plan.addVersion ? `,${OED_VERSION}` : '');
    const fips = s.grid.header.counties.fips;
    this.tail = new CellMemo(s.grid.nCells, (cell) => {
      const scores = s.perils.map((p) => s.table[p][cell].toFixed(2));
      const country = countryOfFips(fips[s.grid.county[cell]]);
      return `${constants(country)},${scores.join(',')},${overallScore(s.table, s.perils, cell).toFixed(2)},${s.scenarioLabel},${s.modelVersion}\n`;
    });
    this.outsideTail = Buffer.from(constants(null) + ','.repeat(this.plan.scoreColumns.length) + '\n');
  }

  static async create(s: RunSetup): Promise<OasisSink> {
    const [location, pending, keys, keysErrors] = await Promise.all([
      OutFile.create(s.outDir, 'location.csv', s.token),
      OutFile.create(s.outDir, 'keys-pending.csv', s.token),
      OutFile.create(s.outDir, 'keys.csv', s.token),
      OutFile.create(s.outDir, 'keys-errors.csv', s.token),
    ]);
    return new OasisSink(s, location, pending, keys, keysErrors);
  }

  header(): void {
    this.location.utf8(this.plan.header.map(csvField).join(',') + '\n');
  }

  row(x: RowInfo): void {
    const { r, row, cell } = x;
    const p = this.plan;
    // Without a CountryCode column we cannot name the country of a point we do not cover: leave it out
    // (it is in errors.csv), rather than write a made-up code.
    if (cell < 0 && p.addCountry) return;
    const out = this.location;
    const delim = this.s.header.delimiter;
    if (this.wholeRow) out.bytes(r.buf, r.rowStart, r.rowEnd);
    else {
      const keep = p.keep;
      const n = keep ? keep.length : r.fieldCount;
      for (let k = 0; k < n; k++) {
        if (k > 0) out.byte(COMMA);
        copyField(out, r, keep ? keep[k] : k, delim);
      }
    }
    if (p.addPort) out.latin1(`,${SYNTH_PORT}`);
    if (p.addAcc) out.latin1(`,${SYNTH_ACC}`);
    if (p.addLoc) {
      out.byte(COMMA);
      out.int(row);
    }
    out.buffer(cell >= 0 ? this.tail.get(cell) : this.outsideTail);
    out.rows++;

    // The side file DuckDB ranks: row, Port, Acc, Loc, covered-perils mask, cell, lat, lng, LocPerilsCovered.
    const w = this.pending;
    w.int(row);
    w.byte(COMMA);
    if (p.port >= 0) copyField(w, r, p.port, delim);
    else w.latin1(SYNTH_PORT);
    w.byte(COMMA);
    if (p.acc >= 0) copyField(w, r, p.acc, delim);
    else w.latin1(SYNTH_ACC);
    w.byte(COMMA);
    if (p.loc >= 0) copyField(w, r, p.loc, delim);
    else w.int(row);
    w.byte(COMMA);
    const mask = p.perilsCovered >= 0 ? this.maskOf(r.buf.latin1Slice(r.starts[p.perilsCovered], r.ends[p.perilsCovered])) : this.allMask;
    w.int(mask);
    w.byte(COMMA);
    w.int(cell);
    w.byte(COMMA);
    if (cell < 0) {
      copyField(w, r, this.s.header.latIndex, delim);
      w.byte(COMMA);
      copyField(w, r, this.s.header.lngIndex, delim);
    } else w.byte(COMMA);
    w.byte(COMMA);
    if (mask === 0 && p.perilsCovered >= 0) copyField(w, r, p.perilsCovered, delim);
    w.byte(NEWLINE);
  }

  private maskOf(raw: string): number {
    let m = this.maskCache.get(raw);
    if (m === undefined) {
      m = coveredMask(raw.replaceAll('"', ''), this.s.perils);
      if (this.maskCache.size < 10_000) this.maskCache.set(raw, m);
    }
    return m;
  }

  async drain(): Promise<void> {
    await Promise.all([this.location.drain(), this.pending.drain()]);
  }

  async finish(): Promise<void> {
    await this.location.close();
    await this.pending.close();
    await this.keys.close();
    await this.keysErrors.close();
    try {
      const n = await writeOasisKeys({
        pendingPath: this.pending.tempPath,
        keysPath: this.keys.tempPath,
        keysErrorsPath: this.keysErrors.tempPath,
        perils: this.s.perils,
        tmpDir: this.s.outDir,
        token: this.s.token,
      });
      this.keysRows = n.keys;
      this.keysErrorRows = n.keysErrors;
    } finally {
      await this.pending.discard();
    }
  }

  async discard(): Promise<void> {
    await Promise.all([this.location, this.pending, this.keys, this.keysErrors].map((f) => f.discard()));
  }

  outputs(): OutputEntry[] {
    return [
      { file: this.location.finalPath, rows: this.location.rows },
      { file: this.keys.finalPath, rows: this.keysRows },
      { file: this.keysErrors.finalPath, rows: this.keysErrorRows },
    ];
  }
}
