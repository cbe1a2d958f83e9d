/**
 * FEMA National Risk Index building value as an OED book, for checking a model's losses against NRI's
 * expected annual building loss and against reported event losses: every county's NRI building value
 * (BUILDVALUE) at its 2020 Census centre of population, spread over a building mix of OED occupancy and
 * construction codes, one location per county and mix entry with that share as its BuildingTIV. The book
 * is run like any other: the model package's keys lookup, the Oasis input files and the loss kernel
 * (runBook), so the checked losses are the losses every EP curve gives. Both models read the same book;
 * each maps the codes to its own HAZUS building types.
 *
 * NRI gives no breakdown of a county's value by construction, so the mix is ours: round shares, set before
 * any comparison and not fitted to one (docs/hurricane-validation.md, "The building mix"). Residential
 * about 70 % of building value and commercial/industrial about 30 %; wood frame for about nine in ten
 * single-family homes outside Florida, concrete block for about seven in ten in Florida. Year built,
 * storeys (but for the strip mall), roof and the rest are left blank, so each model averages over what
 * they could be, as it does for any OED row that does not give them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseCenPop } from '../../reference-data/census.js';
import { parseNriCounties } from '../../reference-data/nri-counties.js';
import type { Peril } from '../../domain/scoring/perils.js';
import { aalOf, runBook } from '../../epcurve/run-book.js';
import { writeDefaultAccount } from '../../epcurve/book-files.js';
import type { ModelPackage } from '../../epcurve/model-packages.js';

export const NRI_EXPOSURE_FILES = {
  counties: 'hazard_history/fema_nri/NRI_Table_Counties_summary-columns-subset.csv',
  centres: 'exposure/CenPop2020_Mean_CO.txt',
} as const;

export interface CountyExposure {
  fips: string;
  county: string;
  state: string;
  /** NRI building value (USD). */
  value: number;
  lat: number;
  lng: number;
}

/** One entry of a building mix: a share of value and the OED codes it is written with. */
export interface MixEntry {
  /** The HAZUS hurricane type the codes map to (the hurricane model's name for it; the earthquake model maps the same codes to its own). */
  label: string;
  share: number;
  occupancyCode: number;
  constructionCode: number;
  storeys?: number;
}

const entry = (label: string, share: number, occupancyCode: number, constructionCode: number, storeys?: number): MixEntry => ({ label, share, occupancyCode, constructionCode, storeys });

/**
 * OED codes: 1050 single-family, 1052 multi-family, 1101 retail, 1104 office/commercial, 1102 warehouse,
 * 1150 industrial; 5050 wood frame, 5100 masonry, 5150 reinforced concrete, 5201 light metal, 5350
 * manufactured home.
 */
function mix(wsf: number, msf: number, wmuh: number, mmuh: number): MixEntry[] {
  return [
    entry('W.SF wood single-family', wsf, 1050, 5050),
    entry('M.SF masonry single-family', msf, 1050, 5100),
    entry('MH manufactured home', 0.02, 1050, 5350),
    entry('W.MUH wood multi-unit housing', wmuh, 1052, 5050),
    entry('M.MUH masonry multi-unit housing', mmuh, 1052, 5100),
    entry('M.LRM.1 masonry strip mall', 0.05, 1101, 5100, 1),
    entry('C.ECB.L concrete engineered commercial, low-rise', 0.1, 1104, 5150),
    entry('S.PMB steel pre-engineered metal building', 0.08, 1102, 5201),
    entry('M.LRI masonry low-rise industrial', 0.05, 1150, 5100),
  ];
}

/** Outside Florida: wood-frame housing, masonry and concrete commercial. */
export const MIX_US: readonly MixEntry[] = mix(0.55, 0.05, 0.07, 0.03);
/** Florida: the same occupancy split, single-family and multi-unit housing mostly concrete block. */
export const MIX_FLORIDA: readonly MixEntry[] = mix(0.18, 0.42, 0.04, 0.06);

export function mixFor(stateAbbr: string): readonly MixEntry[] {
  return stateAbbr === 'FL' ? MIX_FLORIDA : MIX_US;
}

for (const m of [MIX_US, MIX_FLORIDA]) {
  const total = m.reduce((s, e) => s + e.share, 0);
  if (Math.abs(total - 1) > 1e-9) throw new Error(`building mix shares sum to ${total}, not 1; fix the mix`);
}

function read(dataDir: string, rel: string): string {
  const file = path.join(dataDir, rel);
  if (!fs.existsSync(file)) throw new Error(`${file} not found; pass the shared data directory (the one holding hazard_history/ and exposure/)`);
  return fs.readFileSync(file, 'utf8');
}

/** Every county with an NRI building value, at its 2020 Census centre of population. */
export function nriCountyExposure(dataDir: string): CountyExposure[] {
  const counties = parseNriCounties(read(dataDir, NRI_EXPOSURE_FILES.counties));
  const out: CountyExposure[] = [];
  for (const c of parseCenPop(read(dataDir, NRI_EXPOSURE_FILES.centres))) {
    const nri = counties.get(c.fips);
    const value = Number(nri?.BUILDVALUE);
    if (!nri || !(value > 0)) continue;
    out.push({ fips: c.fips, county: c.county, state: nri.STATEABBRV, value, lat: c.lat, lng: c.lng });
  }
  return out;
}

const HEADER = 'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,NumberOfStoreys,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,LocCurrency';

/**
 * The counties' value as an OED location file (buildings only: NRI's building value) in `dir`, one
 * location per county and mix entry (LocNumber `<fips>-<entry>`), every location covered for
 * `perilsCovered` (OED peril codes, e.g. WTC); its path.
 */
export function writeExposureLocations(dir: string, counties: readonly CountyExposure[], perilsCovered: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const lines = [HEADER];
  for (const c of counties) {
    mixFor(c.state).forEach((e, k) => {
      lines.push(['1', '1', `${c.fips}-${k + 1}`, c.lat, c.lng, 'US', e.occupancyCode, e.constructionCode, e.storeys ?? '', perilsCovered, (c.value * e.share).toFixed(2), 0, 0, 0, 'USD'].join(','));
    });
  }
  const file = path.join(dir, 'location.csv');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

export interface ExposureRunOptions {
  /** The folder holding the package's folder. */
  modelsDir: string;
  pkg: ModelPackage;
  perils: Peril[];
  /** The shared public data (for vulnerabilities the package lacks). */
  dataDir: string;
  /** Each group's runs go under it; the caller removes it. */
  workDir: string;
  /** Damage samples per event; 0: the kernel's analytical mean (no sampling error). */
  samples: number;
  seed: number;
  progress?: (message: string) => void;
}

export interface GroupLoss {
  value: number;
  /** Average annual ground-up loss (USD): over a one-event package, the event's loss. */
  aal: number;
  /** The book's locations the package keyed. */
  keyed: number;
  locations: number;
}

/**
 * The ground-up AAL of each group of counties (e.g. each state, each county of one state), each group one
 * book through runBook: the kernel's summary is the whole book, so a group is a run.
 */
export async function groupLosses(groups: ReadonlyMap<string, readonly CountyExposure[]>, perilsCovered: string, o: ExposureRunOptions): Promise<Map<string, GroupLoss>> {
  const out = new Map<string, GroupLoss>();
  let k = 0;
  for (const [name, counties] of groups) {
    const dir = path.join(o.workDir, `group-${++k}`);
    const location = writeExposureLocations(dir, counties, perilsCovered);
    const account = writeDefaultAccount(dir, location);
    o.progress?.(`${name}: ${counties.length} counties`);
    const r = await runBook({ location, account, modelsDir: o.modelsDir, dataDir: o.dataDir, packages: [{ pkg: o.pkg, perils: o.perils }], samples: o.samples, seed: o.seed, workDir: dir });
    const value = counties.reduce((s, c) => s + c.value, 0);
    const locations = counties.reduce((s, c) => s + mixFor(c.state).length, 0);
    out.set(name, { value, aal: aalOf(r.gul, r.occurrence).sampled, keyed: r.locationsKeyed, locations });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/**
 * The models folder to run the whole book on: a scratch package under `workDir` that links the package's
 * files but its vulnerability and footprint. Its vulnerability.csv holds only the package's rows for the
 * vulnerabilities the book's keys name (and those the package lacks, computed as a run would compute
 * them); its footprint only the rows on the book's areaperils. The kernel reads the same rows it would
 * read from the package (it keeps only the items' areaperils and vulnerabilities), but each run parses
 * the vulnerability file and scans the footprint, tens of megabytes and gigabytes in a package of
 * thousands of years, so a book run as many groups reads the package once.
 */
export async function modelsForBook(counties: readonly CountyExposure[], perilsCovered: string, o: ExposureRunOptions): Promise<string> {
  const dir = path.join(o.modelsDir, o.pkg.folder);
  const scratch = path.join(o.workDir, 'book-vulnerabilities');
  const location = writeExposureLocations(scratch, counties, perilsCovered);
  const keys = await o.pkg.keys(dir, location);
  const wanted = new Set(keys.keys.map((k) => k.vulnerabilityId));
  const missing = await o.pkg.missingVulnerabilities(dir, keys.keys);
  if (missing.length) o.progress?.(`${o.pkg.folder}: ${missing.length} vulnerabilities the book needs`);
  const models = path.join(o.workDir, 'models');
  const out = path.join(models, o.pkg.folder);
  fs.mkdirSync(out, { recursive: true });
  for (const f of fs.readdirSync(dir)) {
    if (f === 'vulnerability.csv' || f === 'footprint.bin' || f === 'footprint.idx' || f.startsWith('.')) continue;
    fs.symlinkSync(path.join(dir, f), path.join(out, f));
  }
  const extra = missing.length ? fs.readFileSync(await o.pkg.writeVulnerabilities(o.dataDir, missing, path.join(scratch, 'vulnerability')), 'utf8') : '';
  const own = fs.readFileSync(path.join(dir, 'vulnerability.csv'), 'utf8');
  const lines = [own.slice(0, own.indexOf('\n'))];
  for (const text of [own, extra]) {
    if (!text) continue;
    for (let i = text.indexOf('\n') + 1; i > 0 && i < text.length; ) {
      const end = text.indexOf('\n', i);
      const line = text.slice(i, end < 0 ? undefined : end);
      if (line && wanted.has(Number(line.slice(0, line.indexOf(','))))) lines.push(line);
      i = end < 0 ? -1 : end + 1;
    }
  }
  fs.writeFileSync(path.join(out, 'vulnerability.csv'), lines.join('\n') + '\n');
  footprintOn(dir, out, new Set(keys.keys.map((k) => k.areaPerilId)));
  return models;
}

/** The package's footprint.bin and footprint.idx in `from`, written into `to` with only the rows on `areaperils`. */
function footprintOn(from: string, to: string, areaperils: ReadonlySet<number>): void {
  const idx = fs.readFileSync(path.join(from, 'footprint.idx'));
  const inFd = fs.openSync(path.join(from, 'footprint.bin'), 'r');
  const outFd = fs.openSync(path.join(to, 'footprint.bin'), 'w');
  const outIdx = Buffer.alloc(idx.length);
  let idxAt = 0;
  try {
    const header = Buffer.alloc(8);
    fs.readSync(inFd, header, 0, 8, 0);
    fs.writeSync(outFd, header);
    let at = 8;
    let buf = Buffer.alloc(1 << 20);
    for (let k = 0; k < idx.length; k += 20) {
      const offset = Number(idx.readBigInt64LE(k + 4));
      const size = Number(idx.readBigInt64LE(k + 12));
      if (size > buf.length) buf = Buffer.alloc(size);
      fs.readSync(inFd, buf, 0, size, offset);
      let kept = 0;
      for (let r = 0; r + 12 <= size; r += 12) {
        if (!areaperils.has(buf.readUInt32LE(r))) continue;
        if (kept !== r) buf.copy(buf, kept, r, r + 12);
        kept += 12;
      }
      if (kept === 0) continue;
      fs.writeSync(outFd, buf, 0, kept);
      outIdx.writeInt32LE(idx.readInt32LE(k), idxAt);
      outIdx.writeBigInt64LE(BigInt(at), idxAt + 4);
      outIdx.writeBigInt64LE(BigInt(kept), idxAt + 12);
      idxAt += 20;
      at += kept;
    }
  } finally {
    fs.closeSync(inFd);
    fs.closeSync(outFd);
  }
  fs.writeFileSync(path.join(to, 'footprint.idx'), outIdx.subarray(0, idxAt));
}

/** Counties grouped by a key (state, county, …), groups in the order first met. */
export function groupBy(counties: readonly CountyExposure[], key: (c: CountyExposure) => string | undefined): Map<string, CountyExposure[]> {
  const m = new Map<string, CountyExposure[]>();
  for (const c of counties) {
    const k = key(c);
    if (k === undefined) continue;
    const list = m.get(k) ?? [];
    list.push(c);
    m.set(k, list);
  }
  return m;
}
