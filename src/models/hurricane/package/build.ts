/**
 * Builds the hurricane model as an Oasis model_data directory that oasislmf 2.5.8 and our kernel both run
 * (docs/hurricane-model.md, "The model package"): the stochastic event set and its occurrence, one
 * footprint row a land cell (the bin of the storm's peak gust there, probability 1) as footprint.bin and
 * footprint.idx, the HAZUS vulnerabilities with the gust's spread folded in, the dictionaries, and the
 * highest intensity bin each cell sees over the catalog (the keys lookup's test of whether the model
 * reaches a location). Storm surge rides in the same events: each storm's peak surge height per near-coast
 * cell follows its wind rows in the event's footprint, under surge areaperils and surge intensity bins
 * (surge-bins.ts), with HAZUS flood depth-damage vulnerabilities per first-floor elevation band. Written as one output set: the manifest, last, says the package is whole and
 * records what it was built from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { OutputSet } from '../../../lib/output-set.js';
import { GRID_CELLS } from '../domain/footprint/grid.js';
import { intensityBinDictCsv } from '../domain/footprint/oasis-footprint.js';
import { BUILDING_TYPES, DEFAULT_TERRAIN_CM, vulnerabilityIdOf } from '../domain/vulnerability/building-types.js';
import { damageBins } from '../../shared/vulnerability/damage-bins.js';
import { landGrid } from '../land-grid.js';
import { buildHurricaneTrackSet } from '../track-set.js';
import { packageVulnerabilityFiles } from '../io/package-vulnerability.js';
import { damageBinDictBin } from '../../shared/package/oasis-binaries.js';
import { writeBin as writeBinInto, writeEventSetFiles } from '../../shared/package/event-set-files.js';
import { PACKAGE_INTENSITY_BIN_COUNT, surgeIntensityBinDictRows } from '../domain/surge/surge-bins.js';
import { defaultSurgeVulnerabilityIds, isSurgeVulnerabilityId } from '../io/write-surge-vulnerability.js';
import { HAZUS_FLOOD_DIR } from '../io/hazus-flood-data.js';
import { FootprintThreads } from './footprint-threads.js';
import { CELL_MAX_BIN_FILE, CELL_MAX_SURGE_BIN_FILE, PACKAGE_MODEL } from './package-files.js';

export const HAZUS_HURRICANE_DIR = 'vulnerability/hazus_hurricane_hazus51';

export interface BuildPackageOptions {
  dataDir: string;
  years: number;
  seed: number;
  out: string;
  /** vulnerability_ids to hold beside the default set (e.g. a book's, from the keys lookup). */
  extraVulnerabilityIds?: Iterable<number>;
  progress?: (done: number, total: number, message: string) => void;
}

export interface BuildPackageResult {
  out: string;
  years: number;
  seed: number;
  events: number;
  footprintEvents: number;
  footprintRows: number;
  /** Footprint rows of surge (of footprintRows) and the events with any (a hurricane package only). */
  surgeRows?: number;
  surgeEvents?: number;
  vulnerabilities: number;
  files: { file: string; bytes: number }[];
  seconds: { events: number; footprint: number; vulnerability: number; total: number };
}

/**
 * The vulnerabilities every package holds: each HAZUS building type with the year built unknown or in
 * each era, nothing else given, the default terrain, all four coverages (40 × 4 × 4 ids). A book whose
 * keys name others gets them added by `model build --oed-location` or at the run.
 */
export function defaultVulnerabilityIds(): number[] {
  const ids: number[] = [];
  for (const buildingType of BUILDING_TYPES) {
    for (const era of [0, 1, 2, 3] as const) {
      for (const coverageType of [1, 2, 3, 4]) ids.push(vulnerabilityIdOf({ buildingType, era, known: {}, terrainCm: DEFAULT_TERRAIN_CM, coverageType }));
    }
  }
  return ids;
}


export async function buildHurricanePackage(o: BuildPackageOptions): Promise<BuildPackageResult> {
  const t0 = performance.now();
  const progress = o.progress ?? (() => {});
  const hazusDir = path.join(o.dataDir, HAZUS_HURRICANE_DIR);
  if (!fs.existsSync(hazusDir)) throw new Error(`HAZUS hurricane data not found at ${hazusDir}; pass the shared data directory (the one holding vulnerability/)`);
  if (!fs.existsSync(path.join(o.dataDir, HAZUS_FLOOD_DIR))) throw new Error(`HAZUS flood data not found at ${path.join(o.dataDir, HAZUS_FLOOD_DIR)}; pass the shared data directory (the one holding vulnerability/)`);
  progress(0, 3, `event set: ${o.years} years, seed ${o.seed}`);
  const set = buildHurricaneTrackSet({ dataDir: o.dataDir, years: o.years, seed: o.seed });
  const tracks = [...set.tracks].sort((a, b) => a.eventId - b.eventId);
  const tEvents = performance.now();

  const out = await OutputSet.open(o.out);
  try {
    const eventIds = tracks.map((t) => t.eventId);
    const write = (name: string, c: { text: string; rows: number }) => out.write(name, c.text, c.rows);
    const writeBin = (name: string, b: Buffer, rows: number) => writeBinInto(out, name, b, rows);
    writeEventSetFiles(out, eventIds, set.occurrences, o.years);
    // One dictionary for both perils: the wind's gust bins (mph), then the surge's height bins (m).
    write('intensity_bin_dict.csv', { text: intensityBinDictCsv() + surgeIntensityBinDictRows().join('\n') + '\n', rows: PACKAGE_INTENSITY_BIN_COUNT });

    // Footprint: streamed event by event (a 10,000-year catalog is over a gigabyte).
    progress(1, 3, `footprints of ${tracks.length} storms`);
    const grid = landGrid();
    const maxBin = new Uint8Array(GRID_CELLS);
    const maxSurgeBin = new Uint8Array(GRID_CELLS);
    let surgeRows = 0;
    let surgeEvents = 0;
    const fpFd = fs.openSync(out.tempPath('footprint.bin'), 'w');
    const idx = Buffer.alloc(tracks.length * 20);
    let idxRows = 0;
    let rows = 0;
    let at = 8;
    // The storms on every core, this thread taking its share and writing each storm's rows in event order.
    const threads = new FootprintThreads(tracks.length);
    try {
      threads.useGrid(grid);
      const header = Buffer.alloc(8);
      header.writeInt32LE(PACKAGE_INTENSITY_BIN_COUNT, 0);
      header.writeInt32LE(0, 4); // no intensity uncertainty in the footprint: it is in the vulnerability
      fs.writeSync(fpFd, header);
      let k = 0;
      const made = threads.inTrackOrder(tracks, grid, { reach: { wind: maxBin, surge: maxSurgeBin }, shareSteps: false, between: nextTurn });
      for await (const { rows: b, windRows: n, surgeRows: m } of made) {
        const track = tracks[k];
        if (++k % 500 === 0) progress(1, 3, `footprints: ${k} of ${tracks.length} storms`);
        if (n + m === 0) continue;
        if (m > 0) surgeEvents++;
        surgeRows += m;
        fs.writeSync(fpFd, b);
        idx.writeInt32LE(track.eventId, idxRows * 20);
        idx.writeBigInt64LE(BigInt(at), idxRows * 20 + 4);
        idx.writeBigInt64LE(BigInt(b.length), idxRows * 20 + 12);
        idxRows++;
        at += b.length;
        rows += n + m;
      }
    } finally {
      threads.close();
      fs.closeSync(fpFd);
    }
    out.add('footprint.bin', rows);
    writeBin('footprint.idx', idx.subarray(0, idxRows * 20), idxRows);
    writeBin(CELL_MAX_BIN_FILE, Buffer.from(maxBin.buffer), GRID_CELLS);
    writeBin(CELL_MAX_SURGE_BIN_FILE, Buffer.from(maxSurgeBin.buffer), GRID_CELLS);
    const tFootprint = performance.now();

    progress(2, 3, 'vulnerability (HAZUS hurricane, gust spread folded in; HAZUS flood for surge)');
    const extra = [...(o.extraVulnerabilityIds ?? [])];
    const ids = [...new Set([...defaultVulnerabilityIds(), ...extra.filter((id) => !isSurgeVulnerabilityId(id))])].sort((a, b) => a - b);
    const surgeIds = [...new Set([...defaultSurgeVulnerabilityIds(), ...extra.filter(isSurgeVulnerabilityId)])].sort((a, b) => a - b);
    for (const f of packageVulnerabilityFiles({ hazusDir, dataDir: o.dataDir, ids, surgeIds, scratch: path.join(o.out, `.vulnerability.${out.token}.`) })) {
      fs.writeFileSync(out.tempPath(f.name), f.bytes);
      out.add(f.name, f.rows);
    }
    writeBin('damage_bin_dict.bin', damageBinDictBin(damageBins()), damageBins().length);
    write('model_settings.json', { text: JSON.stringify(modelSettings(o), null, 2) + '\n', rows: 1 });
    const tVuln = performance.now();

    const seconds = { events: (tEvents - t0) / 1000, footprint: (tFootprint - tEvents) / 1000, vulnerability: (tVuln - tFootprint) / 1000, total: (performance.now() - t0) / 1000 };
    const manifest = await out.commit({ model: PACKAGE_MODEL, years: o.years, seed: o.seed, events: tracks.length, footprint_events: idxRows, footprint_rows: rows, surge_footprint_rows: surgeRows, surge_footprint_events: surgeEvents, vulnerabilities: ids.length + surgeIds.length, build_seconds: Math.round(seconds.total * 10) / 10 });
    const outputs = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { outputs: { file: string; bytes: number }[] }).outputs;
    progress(3, 3, 'done');
    return { out: o.out, years: o.years, seed: o.seed, events: tracks.length, footprintEvents: idxRows, footprintRows: rows, surgeRows, surgeEvents, vulnerabilities: ids.length + surgeIds.length, files: outputs.map((f) => ({ file: f.file, bytes: f.bytes })), seconds };
  } catch (err) {
    await out.discard();
    throw err;
  }
}

/** Lets the workers' messages in between this thread's own storms (they wait in the queue otherwise). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** model_settings.json as Oasis model settings: the model's description and its peril. */
function modelSettings(o: BuildPackageOptions) {
  return {
    name: 'catintel hurricane',
    description: `catintel's Atlantic/Gulf hurricane model: ${o.years} simulated years (seed ${o.seed}), peak 3-s gust and peak surge height footprints of the same storms on a 0.05° land grid, HAZUS 5.1 hurricane vulnerability for wind, HAZUS flood depth-damage by first-floor elevation band for surge`,
    // One event set and one occurrence, under the plain names (events.bin, occurrence.bin) Oasis takes when none is chosen.
    model_settings: {},
    lookup_settings: { supported_perils: [{ id: 'WTC', desc: 'Tropical Cyclone (wind)' }, { id: 'WSS', desc: 'Storm Surge' }] },
  };
}
