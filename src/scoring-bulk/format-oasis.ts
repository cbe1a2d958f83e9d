/**
 * `--format oasis`: location.csv (OED 5.0.0, the input's columns kept, scores in FlexiLoc columns), and
 * keys.csv and keys-errors.csv (docs/scoring.md#11-oasis-lmf-export---format-oasis-formatoasis). Rows are copied byte for byte where the input allows it
 * (comma-delimited, no column dropped), so the OED values reach Oasis exactly as the user wrote them; the
 * one change is a text cell a spreadsheet would run as a formula, written as `'=...` (src/lib/csv-cell.ts;
 * numbers, negative ones included, are not touched). The keys pass writes the key fields the same way, so
 * LocIDs rank the values location.csv holds.
 *
 * The keys need LocID, oasislmf's loc_id: the rank of (PortNumber, AccNumber, LocNumber) in sorted order,
 * known only once every row has been read. A second pass over the input (the keys job, oasis-keys/keys-job.ts)
 * collects the keys and has DuckDB rank them; this pass records what became of each row (oasis-keys/side-files.ts
 * SideWriter) and hands that over at the end. From compiled code the keys job runs in a worker thread beside
 * this one, so on two cores the ranking happens while location.csv is written; under the TypeScript test
 * runner (no compiled worker to start) it runs here after the main pass. Same code both ways.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CatintelError } from '../errors.js';
import { COVERAGE_TIV_FIELDS } from '../oed/oed-fields.js';
import { countryOfFips, oedCodesOf } from '../oed/perils.js';
import { csvTextCell } from '../lib/csv-cell.js';
import { rowHasFormula } from './formula-field.js';
import { sidePaths, type SideOfMain } from './oasis-keys/write-keys.js';
import {
  OED_VERSION,
  SYNTH_ACC,
  SYNTH_CURRENCY,
  SYNTH_PORT,
  planOasisColumns,
  type OasisPlan,
} from './location-columns.js';
import { OutFile, TempName } from './out-file.js';
import { SideWriter, inLocationFile } from './oasis-keys/side-files.js';
import {
  MessageFeed,
  keysJob,
  type KeysJob,
  type KeysOutcome,
  type KeysResult,
  type MainMessage,
} from './oasis-keys/keys-job.js';
import { COMMA, CellMemo, copyField } from './format-cells.js';
import type { FileDigest, FormatSink, OutputEntry, RowInfo, RunSetup } from './types.js';
import { sha256Of } from './manifest.js';

const WORKER_URL = new URL('./oasis-keys/keys-job.js', import.meta.url);

export class OasisSink implements FormatSink {
  readonly files: { commit(): Promise<void> }[];
  private readonly plan: OasisPlan;
  private readonly job: KeysJob;
  private readonly wholeRow: boolean;
  private readonly tail: CellMemo;
  private readonly outsideTail: Buffer;
  private readonly keys: TempName;
  private readonly keysErrors: TempName;
  private worker: Worker | null = null;
  /** The keys job's outcome, when a worker runs it. */
  private outcome: Promise<KeysOutcome> | null = null;
  private keysRows = 0;
  private keysErrorRows = 0;
  private locationDigest: FileDigest | null = null;

  private constructor(
    private readonly s: RunSetup,
    private readonly location: OutFile,
    private readonly side: SideWriter,
  ) {
    const h = s.header;
    this.keys = new TempName(s.outDir, 'keys.csv', s.token);
    this.keysErrors = new TempName(s.outDir, 'keys-errors.csv', s.token);
    this.files = [location, this.keys, this.keysErrors];
    this.plan = planOasisColumns(h.columns, h.latIndex, h.lngIndex, s.perils);
    const p = this.plan;
    this.job = {
      kind: 'catintel-keys-job',
      file: h.file,
      dataStart: h.dataStart,
      outDir: s.outDir,
      token: s.token,
      columns: side.columns,
      expectFields: h.columns.length,
    };
    this.wholeRow = p.keep === null && h.delimiter === COMMA;
    // LocPerilsCovered is required; with only un-coded perils (heat, drought) a location covers all (AA1).
    const codes = oedCodesOf(s.perils) || 'AA1';
    const constants = (country: string | null) =>
      (p.addCountry ? `,${country ?? ''}` : '') +
      (p.addPerilsCovered ? `,${codes}` : '') +
      (p.addCurrency ? `,${SYNTH_CURRENCY}` : '') +
      (p.addVersion ? `,${OED_VERSION}` : '');
    const fips = s.grid.header.counties.fips;
    this.tail = new CellMemo(s.grid.nCells, (cell) => {
      const scores = s.scores.get(cell).map((v) => v.toFixed(2));
      const country = countryOfFips(fips[s.grid.county[cell]]);
      return `${constants(country)},${scores.join(',')},${s.scenarioLabel},${s.modelVersion}\n`;
    });
    this.outsideTail = Buffer.from(constants(null) + ','.repeat(p.scoreColumns.length) + '\n');
  }

  static async create(s: RunSetup, opts: { worker?: boolean } = {}): Promise<OasisSink> {
    const h = s.header;
    const p = planOasisColumns(h.columns, h.latIndex, h.lngIndex, s.perils);
    const columns = {
      delimiter: h.delimiter,
      latIndex: h.latIndex,
      lngIndex: h.lngIndex,
      port: p.port,
      acc: p.acc,
      loc: p.loc,
      perilsCovered: p.perilsCovered,
      tiv: COVERAGE_TIV_FIELDS.map((name) => h.columns.findIndex((c) => c.toLowerCase() === name.toLowerCase())),
      addCountry: p.addCountry,
      perils: s.perils,
    };
    const [location, side, sideErrors, excluded] = await Promise.all(
      ['location.csv', 'keys-side.bin', 'keys-side-errors.csv', 'keys-excluded.csv'].map((n) =>
        OutFile.create(s.outDir, n, s.token),
      ),
    );
    const sink = new OasisSink(s, location, new SideWriter(columns, { side, sideErrors, excluded }));
    if (opts.worker !== false && fs.existsSync(fileURLToPath(WORKER_URL))) sink.startWorker();
    return sink;
  }

  private startWorker(): void {
    // execArgv: [] so flags of the parent (--input-type, -e, --cpu-prof) do not break or slow the worker.
    const worker = new Worker(WORKER_URL, { workerData: this.job, execArgv: [] });
    this.worker = worker;
    const result = new Promise<KeysResult>((resolve, reject) => {
      worker.once('message', (m: KeysResult) => resolve(m));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the keys worker stopped (exit code ${code})`)));
    });
    this.outcome = result.then((r) => {
      if (r.ok) return r;
      throw r.code === 'invalid_input'
        ? new CatintelError('invalid_input', r.message)
        : new Error(`keys worker: ${r.message}`);
    });
    this.outcome.catch(() => undefined); // awaited in finish(); this only keeps an early failure from being unhandled
  }

  header(): void {
    this.location.utf8(this.plan.header.map(csvTextCell).join(',') + '\n');
  }

  row(x: RowInfo): void {
    const { r, row, cell } = x;
    const p = this.plan;
    // Without a CountryCode column we cannot name the country of a point we do not cover: leave it out
    // (it is in errors.csv), rather than write a made-up code.
    if (!inLocationFile(cell, p.addCountry)) return this.side.exclude(row - 1);
    const out = this.location;
    const { latIndex, lngIndex } = this.s.header;
    // Coordinates parsed as numbers (they may start with a sign or a tab): only the other fields can be formulas.
    if (this.wholeRow && !r.strayQuotes && !rowHasFormula(r, 0, r.fieldCount - 1, latIndex, lngIndex))
      out.bytes(r.buf, r.rowStart, r.rowEnd);
    else {
      const keep = p.keep;
      const n = keep ? keep.length : r.fieldCount;
      const delim = this.s.header.delimiter;
      for (let k = 0; k < n; k++) {
        if (k > 0) out.byte(COMMA);
        const i = keep ? keep[k] : k;
        copyField(out, r, i, delim, i !== latIndex && i !== lngIndex);
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
    this.side.location(r, row - 1, cell);
  }

  skip(row: number): void {
    this.side.exclude(row - 1);
  }

  async drain(): Promise<void> {
    const f = this.side.f;
    this.side.flush();
    await Promise.all([this.location.drain(), f.side.drain(), f.sideErrors.drain(), f.excluded.drain()]);
    // The keys job follows the (mask, cell) pairs as they reach the file: tell it once they are written
    // (the writes run on while this pass goes on; a failed one is rethrown by the next drain or finish).
    const worker = this.worker;
    if (!worker) return;
    const flushed: MainMessage = {
      type: 'flushed',
      locationRows: this.side.locationRows,
      excluded: this.side.excluded,
    };
    f.side.settled().then(
      () => this.worker === worker && worker.postMessage(flushed),
      () => undefined,
    );
  }

  async finish(): Promise<void> {
    const f = this.side.f;
    this.side.flush();
    await Promise.all([this.location.close(), f.side.close(), f.sideErrors.close(), f.excluded.close()]);
    const main: SideOfMain = {
      locationRows: this.side.locationRows,
      errorRows: this.side.errorRows,
      excluded: this.side.excluded,
    };
    if (main.locationRows !== this.location.rows)
      throw new Error(`side files count ${main.locationRows} locations, location.csv has ${this.location.rows}`);
    const done: MainMessage = { type: 'done', main };
    // location.csv is complete: hash it for the manifest while the keys job runs (this thread would wait idle).
    const locationDigest = sha256Of(this.location.tempPath);
    locationDigest.catch(() => undefined); // awaited below; a failure there fails the run
    let n: KeysOutcome;
    if (this.worker && this.outcome) {
      this.worker.postMessage(done);
      n = await this.outcome;
      await this.worker.terminate();
      this.worker = null;
    } else {
      const feed = new MessageFeed();
      feed.push(done);
      n = await keysJob(this.job, feed);
    }
    await this.removeSideFiles();
    this.keysRows = n.keys;
    this.keysErrorRows = n.keysErrors;
    this.locationDigest = await locationDigest;
  }

  digests(): Map<string, FileDigest> {
    return new Map(this.locationDigest ? [[this.location.finalPath, this.locationDigest]] : []);
  }

  private async removeSideFiles(): Promise<void> {
    const p = sidePaths(this.s.outDir, this.s.token);
    const ranks = path.join(this.s.outDir, `.keys-ranks.csv.${this.s.token}.tmp`);
    await Promise.all(
      [p.pendingPath, p.sidePath, p.sideErrorsPath, p.excludedPath, ranks].map((x) =>
        fs.promises.rm(x, { force: true }),
      ),
    );
    await fs.promises.rm(path.join(this.s.outDir, `.duckdb-spill.${this.s.token}.tmp`), {
      recursive: true,
      force: true,
    });
  }

  async discard(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
    await this.outcome?.catch(() => undefined);
    await Promise.all(
      [this.location, this.keys, this.keysErrors, this.side.f.side, this.side.f.sideErrors, this.side.f.excluded].map(
        (x) => x.discard(),
      ),
    );
    await this.removeSideFiles();
  }

  outputs(): OutputEntry[] {
    return [
      { file: this.location.finalPath, rows: this.location.rows },
      { file: this.keys.finalPath, rows: this.keysRows },
      { file: this.keysErrors.finalPath, rows: this.keysErrorRows },
    ];
  }
}
