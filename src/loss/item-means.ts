/**
 * Each item's average annual loss from the kernel's analytical mean (sidx -1): the same ground-up step
 * the event loop runs (domain/gul.ts in the kernel's module, the cdf cut as Oasis cuts it), summed over
 * the occurrence per item instead of over the items per event. The event loop sums an event's items into
 * one summary record; a table of one figure a location (a damage ratio per grid cell, for the scores)
 * needs the items kept apart, which is all this adds. No sampling: the mean is the expectation the
 * sampled AAL converges to.
 */
import path from 'node:path';
import { itemsByAreaperil, EventGul } from './domain/gul.js';
import type { GulContext } from './domain/kernel-inputs.js';
import { KernelModule } from './wasm/kernel-module.js';
import type { DamageDistributions } from './domain/cdf-cutoff.js';
import type { Occurrence, VulnerabilityMoments } from './domain/types.js';
import { damageBins, vulnerabilityMoments } from './domain/vulnerability.js';
import { readTable } from './io/csv.js';
import {
  denseVulnerability,
  readCoverages,
  readEvents,
  readFootprint,
  readItems,
  readOccurrence,
} from './io/read-model.js';

/** The parts of a model directory the means need, read once for any number of input directories. */
export interface MeansModel {
  dir: string;
  occurrence: Occurrence;
  /** How many times each event occurs in the occurrence. */
  occurrences: Map<number, number>;
  events: Int32Array;
  vuln: VulnerabilityMoments;
  damage: DamageDistributions;
}

export function readMeansModel(modelDir: string): MeansModel {
  const occurrence = readOccurrence(modelDir);
  const occurrences = new Map<number, number>();
  for (const e of occurrence.eventId) occurrences.set(e, (occurrences.get(e) ?? 0) + 1);
  const events = readEvents(modelDir);
  const dbd = readTable(path.join(modelDir, 'damage_bin_dict.csv'), [
    'bin_index',
    'bin_from',
    'bin_to',
    'interpolation',
  ]);
  const bins = damageBins(dbd.col('bin_index'), dbd.col('bin_to'), dbd.col('interpolation'));
  const vt = readTable(path.join(modelDir, 'vulnerability.csv'), [
    'vulnerability_id',
    'intensity_bin_id',
    'damage_bin_id',
    'probability',
  ]);
  const vrows = {
    vulnerability: vt.col('vulnerability_id'),
    intensityBin: vt.col('intensity_bin_id'),
    damageBin: vt.col('damage_bin_id'),
    prob: vt.col('probability'),
  };
  // damage_bin_dict by position (bin_index - 1), in float32 as Oasis holds it (as computeLosses reads it).
  const nDamage = bins.interp.length - 1;
  const order = Array.from(dbd.col('bin_index'), (b, i) => [b, i]).sort((a, b) => a[0] - b[0]);
  const col = (name: string) => Float32Array.from(order, ([, i]) => dbd.col(name)[i]);
  return {
    dir: modelDir,
    occurrence,
    occurrences,
    events,
    vuln: vulnerabilityMoments(vrows, bins),
    damage: { probs: denseVulnerability(vrows, nDamage), nDamage, binTo: col('bin_to'), interp: col('interpolation') },
  };
}

export interface ItemMeans {
  itemId: Int32Array;
  areaperil: Float64Array;
  vulnerability: Int32Array;
  /** The item's coverage TIV. */
  tiv: Float64Array;
  /** Ground-up average annual loss: Σ over the occurrence of the event's analytical mean / periods. */
  aal: Float64Array;
  periods: number;
}

/** Every item's ground-up AAL (gul_alloc_rule 1) on the Oasis input directory `inputDir`. */
export function itemAnnualMeans(model: MeansModel, inputDir: string): ItemMeans {
  const items = readItems(inputDir);
  const tiv = readCoverages(inputDir);
  const footprint = readFootprint(model.dir, { events: model.events, areaperils: new Set(items.areaperil) });
  const gul: GulContext = {
    items,
    tiv,
    vuln: model.vuln,
    damage: model.damage,
    footprint,
    allocRule: 1,
    itemsByAreaperil: itemsByAreaperil(items),
  };
  const module = new KernelModule(gul, undefined, undefined, false);
  const ev = new EventGul(gul, module);
  const n = items.itemId.length;
  const sum = new Float64Array(n);
  for (const eventId of model.events) {
    const times = model.occurrences.get(eventId) ?? 0;
    if (times > 0 && ev.compute(eventId, true)) {
      for (let k = 0; k < ev.count; k++) {
        const i = ev.reached[k];
        if (ev.hit[i]) sum[i] += times * ev.mean[i];
      }
    }
    // As the event loop leaves an event (kernel.ts clear, unfused): the reached items back to zeros.
    module.wasm.clearEvent(0);
    ev.count = 0;
  }
  const periods = model.occurrence.periods;
  const aal = sum.map((s) => s / periods);
  return {
    itemId: items.itemId,
    areaperil: items.areaperil,
    vulnerability: items.vulnerability,
    tiv: Float64Array.from(items.coverageId, (c) => tiv[c]),
    aal,
    periods,
  };
}
