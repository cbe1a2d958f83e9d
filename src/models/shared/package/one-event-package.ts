/**
 * A model package holding one event: a storm or rupture of the record, footprinted by the model's own
 * footprint code, beside a built package's vulnerability, dictionaries and keys-lookup files. One
 * simulated year holds the event once, so a book's average annual loss through this package is the
 * event's loss, computed by the same keys lookup, Oasis input files and kernel as every EP curve.
 *
 * The built package's files other than the event set, the footprint and the manifest are linked, not
 * copied (a vulnerability file is tens of megabytes); the footprint keeps the built package's header
 * (intensity bin count and whether rows carry intensity uncertainty).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MANIFEST, OutputSet } from '../../../lib/output-set.js';
import { writeBin, writeEventSetFiles } from './event-set-files.js';

/** Files of the built package that are the event set's or the footprint's, written anew for the one event. */
const OWN = new Set(['events.csv', 'events.bin', 'occurrence.csv', 'occurrence.bin', 'periods.csv', 'returnperiods.csv', 'returnperiods.bin', 'quantile.csv', 'quantile.bin', 'footprint.bin', 'footprint.idx', MANIFEST]);

export interface OneEventPackageOptions {
  /** A built package of the model (its vulnerability and keys-lookup files are used). */
  basePackageDir: string;
  /** The new package's folder (created; must not hold a package already). */
  out: string;
  /** The event's footprint rows: 12 bytes each (uint32 areaperil_id, int32 intensity_bin_id, float32 probability), ascending areaperil. */
  rows: Buffer;
  /** What the event is, for the manifest. */
  event: string;
  /** Files of the event's own in place of the built package's (e.g. the keys lookup's reach of this event alone). */
  files?: Record<string, Buffer>;
}

/** Writes the one-event package; its folder. */
export async function writeOneEventPackage(o: OneEventPackageOptions): Promise<string> {
  const base = path.resolve(o.basePackageDir);
  const baseManifest = JSON.parse(fs.readFileSync(path.join(base, MANIFEST), 'utf8')) as { model?: string; seed?: number };
  if (o.rows.length % 12 !== 0) throw new Error(`footprint rows of ${o.event} are ${o.rows.length} bytes, not a whole number of 12-byte rows`);
  fs.mkdirSync(o.out, { recursive: true });
  for (const name of fs.readdirSync(base)) {
    if (OWN.has(name) || name.startsWith('.') || o.files?.[name]) continue;
    fs.symlinkSync(path.join(base, name), path.join(o.out, name));
  }
  const header = Buffer.alloc(8);
  const fd = fs.openSync(path.join(base, 'footprint.bin'), 'r');
  try {
    fs.readSync(fd, header, 0, 8, 0);
  } finally {
    fs.closeSync(fd);
  }
  const out = await OutputSet.open(o.out);
  try {
    writeEventSetFiles(out, [1], [{ eventId: 1, periodNo: 1, occYear: 1, occMonth: 1, occDay: 1 }], 1);
    for (const [name, bytes] of Object.entries(o.files ?? {})) writeBin(out, name, bytes, bytes.length);
    writeBin(out, 'footprint.bin', Buffer.concat([header, o.rows]), o.rows.length / 12);
    const idx = Buffer.alloc(20);
    idx.writeInt32LE(1, 0);
    idx.writeBigInt64LE(8n, 4);
    idx.writeBigInt64LE(BigInt(o.rows.length), 12);
    writeBin(out, 'footprint.idx', o.rows.length ? idx : Buffer.alloc(0), o.rows.length ? 1 : 0);
    await out.commit({ model: baseManifest.model, years: 1, seed: baseManifest.seed ?? 1, events: 1, event: o.event, built_from: base });
  } catch (err) {
    await out.discard();
    throw err;
  }
  return o.out;
}
