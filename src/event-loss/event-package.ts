/**
 * A live event's footprints as an Oasis model package of its own: a scratch model directory holding the
 * built package's files (vulnerabilities, damage bins, intensity bins, the keys lookup's cell files) as
 * links, and in place of its catalog the event's: one event per footprint (the observed track, then each
 * ensemble member), each in a period of its own, so the kernel's per-event losses are the members' losses
 * and nothing is summed across them. The built package is never changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eventsBin, occurrenceBin } from '../models/shared/package/oasis-binaries.js';
import { QUANTILES, RETURN_PERIODS } from '../models/shared/package/event-set-files.js';
import { float32Bin, int32Bin } from '../models/shared/package/oasis-binaries.js';

/** The catalog files an event package replaces; everything else of the built package is linked. */
const REPLACED = new Set([
  'footprint.bin',
  'footprint.idx',
  'footprint.csv',
  'events.bin',
  'events.csv',
  'occurrence.bin',
  'occurrence.csv',
  'periods.csv',
  'periods.bin',
  'manifest.json',
  'returnperiods.bin',
  'returnperiods.csv',
  'quantile.bin',
  'quantile.csv',
]);

export interface EventFootprint {
  /** 12-byte rows (uint32 areaperil_id, int32 intensity_bin_id, float32 probability), ascending areaperil. */
  rows: Buffer;
}

export interface EventPackageOptions {
  /** The built package this event runs on. */
  packageDir: string;
  /** Where the event package goes: `<modelsDir>/<folder>`. */
  modelsDir: string;
  folder: string;
  /** footprint.bin's header: number of intensity bins and whether rows carry probabilities below 1. */
  intensityBins: number;
  intensityUncertainty: boolean;
  /** One per event, event ids 1..n in this order. */
  footprints: EventFootprint[];
  /** What the manifest records of the event package (model, the event, its version). */
  manifest: Record<string, unknown>;
  seed: number;
  /** Files written in place of the built package's, by name. */
  files?: Record<string, Buffer>;
}

/** Writes the event package; its directory. */
export function writeEventPackage(o: EventPackageOptions): string {
  const dir = path.join(o.modelsDir, o.folder);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(o.packageDir)) {
    if (REPLACED.has(f) || f.startsWith('.') || (o.files && f in o.files)) continue;
    fs.symlinkSync(path.join(o.packageDir, f), path.join(dir, f));
  }
  for (const [name, bytes] of Object.entries(o.files ?? {})) fs.writeFileSync(path.join(dir, name), bytes);
  const n = o.footprints.length;
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  const header = Buffer.alloc(8);
  header.writeInt32LE(o.intensityBins, 0);
  header.writeInt32LE(o.intensityUncertainty ? 1 : 0, 4);
  const idx = Buffer.alloc(n * 20);
  let at = header.length;
  const parts: Buffer[] = [header];
  let k = 0;
  o.footprints.forEach((fp, i) => {
    if (fp.rows.length === 0) return; // an event with no row has no loss: oasislmf reads a missing event as empty
    idx.writeInt32LE(i + 1, k * 20);
    idx.writeBigInt64LE(BigInt(at), k * 20 + 4);
    idx.writeBigInt64LE(BigInt(fp.rows.length), k * 20 + 12);
    parts.push(fp.rows);
    at += fp.rows.length;
    k++;
  });
  fs.writeFileSync(path.join(dir, 'footprint.bin'), Buffer.concat(parts));
  fs.writeFileSync(path.join(dir, 'footprint.idx'), idx.subarray(0, k * 20));
  fs.writeFileSync(path.join(dir, 'events.bin'), eventsBin(ids));
  fs.writeFileSync(path.join(dir, 'events.csv'), ['event_id', ...ids.map(String)].join('\n') + '\n');
  // Event i in period i: a date is required by the occurrence file; the day is the same for all.
  const occurrences = ids.map((id) => ({ eventId: id, periodNo: id, occYear: id, occMonth: 1, occDay: 1 }));
  fs.writeFileSync(path.join(dir, 'occurrence.bin'), occurrenceBin(occurrences, n));
  fs.writeFileSync(
    path.join(dir, 'occurrence.csv'),
    [
      'event_id,period_no,occ_year,occ_month,occ_day',
      ...occurrences.map((r) => `${r.eventId},${r.periodNo},${r.occYear},1,1`),
    ].join('\n') + '\n',
  );
  fs.writeFileSync(
    path.join(dir, 'periods.csv'),
    ['period_no,weighting', ...ids.map((id) => `${id},${1 / n}`)].join('\n') + '\n',
  );
  fs.writeFileSync(path.join(dir, 'returnperiods.bin'), int32Bin(RETURN_PERIODS));
  fs.writeFileSync(path.join(dir, 'quantile.bin'), float32Bin(QUANTILES));
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ ...o.manifest, years: n, seed: o.seed, events: n }, null, 2) + '\n',
  );
  return dir;
}
