/**
 * Builds the earthquake model as an Oasis model_data directory that oasislmf 2.5.8 and our kernel both run
 * (docs/earthquake-model.md, "Model package"): the stochastic event set (ruptures drawn from the rupture
 * set's annual rates, events and occurrence), the footprint (per event and grid cell, probabilities over
 * the PGA intensity bins from the ground motion's median and σ) as footprint.bin and footprint.idx, the
 * HAZUS earthquake vulnerabilities and dictionaries, each cell's seismic zone for the keys lookup, and a
 * catalog of what each event is. Written as one output set: the manifest, last, says the package is whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { OutputSet } from '../../../lib/output-set.js';
import { damageBins } from '../../shared/vulnerability/damage-bins.js';
import { damageBinDictBin } from '../../shared/package/oasis-binaries.js';
import { csvOf, writeBin as writeBinInto, writeEventSetFiles } from '../../shared/package/event-set-files.js';
import type { BuildPackageOptions, BuildPackageResult } from '../../hurricane/package/build.js';
import { RATE_10PCT_IN_50 } from '../domain/hazard-curve.js';
import { INTENSITY_BIN_COUNT, intensityBins } from '../domain/intensity-bins.js';
import { BUILDING_TYPES, vulnerabilityIdOf } from '../domain/vulnerability/building-types.js';
import { SEISMIC_ZONES, seismicZoneOfPga475 } from '../domain/vulnerability/design-level.js';
import { loadEarthquakeSources } from '../io/load-sources.js';
import { readHazusEarthquake } from '../io/hazus-earthquake-data.js';
import { writeEarthquakeVulnerability } from '../io/write-vulnerability.js';
import { worstMeanDamageByBin } from './worst-damage.js';
import { sampleEventSet, type StochasticEvent } from './event-set.js';
import { DAMAGE_THRESHOLD_G, eventFootprint, MIN_EXPECTED_DAMAGE, ZONE_LEVELS_G } from './event-footprint.js';
import { GRID_CELLS } from './grid.js';
import { CELL_ZONE_FILE, EVENT_CATALOG_FILE, PACKAGE_MODEL } from './package-files.js';

export const HAZUS_EARTHQUAKE_DIR = 'vulnerability/hazus_eq_hazus61';
/** Vs30 (m/s) of every footprint: the B/C boundary of NSHM's maps; the shared data holds no Vs30 map. */
export const PACKAGE_VS30 = 760;

/**
 * The vulnerabilities every package holds: each HAZUS building type at each code level it has, for the
 * single-family occupancy (RES1), all four coverages. A book whose keys name others (another occupancy)
 * gets them added by `model build earthquake --oed-location`.
 */
export function defaultVulnerabilityIds(): number[] {
  const ids: number[] = [];
  for (const buildingType of BUILDING_TYPES) {
    for (const codeLevel of buildingType.levels) {
      for (const coverageType of [1, 2, 3, 4]) ids.push(vulnerabilityIdOf({ buildingType, codeLevel, occupancy: 'RES1', coverageType }));
    }
  }
  return ids;
}


function intensityBinDictCsv(): string {
  const lines = ['bin_index,bin_from,bin_to,interpolation,interval_type'];
  // The open top bin is written up to 10 g (no recorded PGA comes near it).
  for (const b of intensityBins()) lines.push(`${b.id},${b.fromG},${b.toG === Infinity ? 10 : b.toG},${b.representativeG},1201`);
  return lines.join('\n') + '\n';
}

function catalogRow(e: StochasticEvent): string {
  const r = e.rupture;
  if ('planes' in r) return `${e.eventId},"${r.name.replace(/"/g, '""')}",${r.tectonic},${r.magnitude},,,`;
  return `${e.eventId},gridded,${r.tectonic},${r.magnitude},${r.lat.toFixed(3)},${r.lng.toFixed(3)},${r.strikeDeg}`;
}

export async function buildEarthquakePackage(o: BuildPackageOptions): Promise<BuildPackageResult> {
  const t0 = performance.now();
  const progress = o.progress ?? (() => {});
  const hazusDir = path.join(o.dataDir, HAZUS_EARTHQUAKE_DIR);
  if (!fs.existsSync(hazusDir)) throw new Error(`HAZUS earthquake data not found at ${hazusDir}; pass the shared data directory (the one holding vulnerability/)`);
  progress(0, 3, `event set: ${o.years} years, seed ${o.seed}`);
  const set = sampleEventSet(loadEarthquakeSources(o.dataDir), o.years, o.seed);
  const tEvents = performance.now();

  const out = await OutputSet.open(o.out);
  try {
    const eventIds = set.events.map((e) => e.eventId);
    const write = (name: string, c: { text: string; rows: number }) => out.write(name, c.text, c.rows);
    const writeBin = (name: string, b: Buffer, rows: number) => writeBinInto(out, name, b, rows);
    writeEventSetFiles(out, eventIds, set.occurrences, o.years);
    write('intensity_bin_dict.csv', { text: intensityBinDictCsv(), rows: INTENSITY_BIN_COUNT });
    write(EVENT_CATALOG_FILE, csvOf('event_id,source,tectonic,magnitude,lat,lng,strike_deg', set.events.map(catalogRow)));

    // Footprint: streamed event by event (a 10,000-year catalog is gigabytes).
    progress(1, 3, `footprints of ${set.events.length} ruptures`);
    const zoneExceedance = new Float64Array(GRID_CELLS * ZONE_LEVELS_G.length);
    const worstDamage = worstMeanDamageByBin(readHazusEarthquake(hazusDir));
    const fpFd = fs.openSync(out.tempPath('footprint.bin'), 'w');
    const idx = Buffer.alloc(set.events.length * 20);
    let idxRows = 0;
    let rows = 0;
    let at = 8;
    try {
      const header = Buffer.alloc(8);
      header.writeInt32LE(INTENSITY_BIN_COUNT, 0);
      header.writeInt32LE(1, 4); // the footprint carries intensity uncertainty (the ground motion's σ)
      fs.writeSync(fpFd, header);
      let k = 0;
      for (const event of set.events) {
        if (++k % 1000 === 0) progress(1, 3, `footprints: ${k} of ${set.events.length} ruptures`);
        const fp = eventFootprint(event.rupture, zoneExceedance, worstDamage);
        if (fp.count === 0) continue;
        fs.writeSync(fpFd, fp.rows);
        idx.writeInt32LE(event.eventId, idxRows * 20);
        idx.writeBigInt64LE(BigInt(at), idxRows * 20 + 4);
        idx.writeBigInt64LE(BigInt(fp.rows.length), idxRows * 20 + 12);
        idxRows++;
        at += fp.rows.length;
        rows += fp.count;
      }
    } finally {
      fs.closeSync(fpFd);
    }
    out.add('footprint.bin', rows);
    writeBin('footprint.idx', idx.subarray(0, idxRows * 20), idxRows);
    writeBin(CELL_ZONE_FILE, cellZones(zoneExceedance, o.years), GRID_CELLS);
    const tFootprint = performance.now();

    progress(2, 3, 'vulnerability (HAZUS earthquake)');
    const ids = [...new Set([...defaultVulnerabilityIds(), ...(o.extraVulnerabilityIds ?? [])])].sort((a, b) => a - b);
    const vulnDir = fs.mkdtempSync(path.join(o.out, `.vulnerability.${out.token}.`));
    try {
      writeEarthquakeVulnerability(hazusDir, vulnDir, ids);
      for (const name of ['vulnerability.csv', 'damage_bin_dict.csv']) {
        fs.renameSync(path.join(vulnDir, name), out.tempPath(name));
        const lines = fs.readFileSync(out.tempPath(name), 'utf8').split('\n').length - 2;
        out.add(name, lines);
      }
    } finally {
      fs.rmSync(vulnDir, { recursive: true, force: true });
    }
    writeBin('damage_bin_dict.bin', damageBinDictBin(damageBins()), damageBins().length);
    write('model_settings.json', { text: JSON.stringify(modelSettings(o, set.annualRate), null, 2) + '\n', rows: 1 });
    const tVuln = performance.now();

    const seconds = { events: (tEvents - t0) / 1000, footprint: (tFootprint - tEvents) / 1000, vulnerability: (tVuln - tFootprint) / 1000, total: (performance.now() - t0) / 1000 };
    const manifest = await out.commit({ model: PACKAGE_MODEL, years: o.years, seed: o.seed, events: set.events.length, footprint_events: idxRows, footprint_rows: rows, vulnerabilities: ids.length, vs30_m_s: PACKAGE_VS30, damage_threshold_g: DAMAGE_THRESHOLD_G, min_expected_damage: MIN_EXPECTED_DAMAGE, build_seconds: Math.round(seconds.total * 10) / 10 });
    const outputs = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { outputs: { file: string; bytes: number }[] }).outputs;
    progress(3, 3, 'done');
    return { out: o.out, years: o.years, seed: o.seed, events: set.events.length, footprintEvents: idxRows, footprintRows: rows, vulnerabilities: ids.length, files: outputs.map((f) => ({ file: f.file, bytes: f.bytes })), seconds };
  } catch (err) {
    await out.discard();
    throw err;
  }
}

/**
 * Each cell's UBC zone from the catalog: the highest zone boundary whose annual exceedance rate (Σ over
 * events of P(PGA > level), over the years) reaches 10 % in 50 years. Stored as 1 + the zone's index.
 */
function cellZones(zoneExceedance: Float64Array, years: number): Buffer {
  const n = ZONE_LEVELS_G.length;
  const zones = Buffer.alloc(GRID_CELLS);
  for (let cell = 0; cell < GRID_CELLS; cell++) {
    let pga = 0;
    for (let l = 0; l < n; l++) if (zoneExceedance[cell * n + l] / years >= RATE_10PCT_IN_50) pga = ZONE_LEVELS_G[l];
    zones[cell] = 1 + SEISMIC_ZONES.indexOf(seismicZoneOfPga475(pga));
  }
  return zones;
}

/** model_settings.json as Oasis model settings: the model's description and its peril. */
function modelSettings(o: BuildPackageOptions, annualRate: number) {
  return {
    name: 'catintel earthquake',
    description: `catintel's contiguous-US earthquake model: ${o.years} simulated years (seed ${o.seed}) of ruptures from the NSHM 2023-based rupture set (${annualRate.toFixed(2)} a year), PGA footprints with the ground motion's aleatory σ on a 0.1° grid at Vs30 ${PACKAGE_VS30} m/s, HAZUS 6.1 earthquake vulnerability`,
    model_settings: {},
    lookup_settings: { supported_perils: [{ id: 'QEQ', desc: 'Earthquake - shake' }] },
  };
}
