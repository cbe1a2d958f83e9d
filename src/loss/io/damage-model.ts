/**
 * A model's damage side, as the kernel reads it: damage_bin_dict.csv and vulnerability.csv turned into
 * the damage bins, the vulnerability moments (mean and maximum damage ratio by intensity bin) and the
 * dense damage distributions the sampler draws from. Kept per process while the two files are unchanged
 * (lib/file-memo.ts): parsing a package's vulnerability.csv is most of the CPU of reading a model, and a
 * server or worker running EP curves reads the same package for every request. Callers only read what
 * it returns.
 */
import path from 'node:path';
import { fileMemo } from '../../lib/file-memo.js';
import { damageBins, vulnerabilityMoments } from '../domain/vulnerability.js';
import type { DamageDistributions } from '../domain/cdf-cutoff.js';
import type { DamageBins, VulnerabilityMoments } from '../domain/types.js';
import { readTable } from './csv.js';
import { denseVulnerability } from './read-model.js';

export interface DamageModel {
  bins: DamageBins;
  vuln: VulnerabilityMoments;
  damage: DamageDistributions;
  /** damage_bin_dict's bin_from by damage bin index, float32 as Oasis holds it. */
  binFrom: Float32Array;
}

// Three: a hurricane and an earthquake package side by side (a multi-peril EP curve) stay read while a
// book's own vulnerabilities are run from a package copy with them added (epcurve/package-overlay.ts).
const kept = fileMemo<DamageModel>(3);

/** The two files the damage side is read from. */
const filesOf = (modelDir: string) => [
  path.join(modelDir, 'damage_bin_dict.csv'),
  path.join(modelDir, 'vulnerability.csv'),
];

/** The damage side this process keeps for the model (read before, its files unchanged), if any. */
export function keptDamageModel(modelDir: string): DamageModel | undefined {
  return kept.peek(filesOf(modelDir));
}

/** Keeps a damage side read on another thread as if read here (the next run on the same model reads nothing). */
export function keepDamageModel(modelDir: string, model: DamageModel): DamageModel {
  return kept(filesOf(modelDir), () => model);
}

export function readDamageModel(modelDir: string): DamageModel {
  const [dbdFile, vulnFile] = filesOf(modelDir);
  return kept([dbdFile, vulnFile], () => {
    const dbd = readTable(dbdFile, ['bin_index', 'bin_from', 'bin_to', 'interpolation']);
    const bins = damageBins(dbd.col('bin_index'), dbd.col('bin_to'), dbd.col('interpolation'));
    const vt = readTable(vulnFile, ['vulnerability_id', 'intensity_bin_id', 'damage_bin_id', 'probability']);
    const vrows = {
      vulnerability: vt.col('vulnerability_id'),
      intensityBin: vt.col('intensity_bin_id'),
      damageBin: vt.col('damage_bin_id'),
      prob: vt.col('probability'),
    };
    const vuln = vulnerabilityMoments(vrows, bins);
    // damage_bin_dict by position (bin_index - 1), in float32 as Oasis holds it.
    const nDamage = bins.interp.length - 1;
    const order = Array.from(dbd.col('bin_index'), (b, i) => [b, i]).sort((a, b) => a[0] - b[0]);
    const col = (name: string) => Float32Array.from(order, ([, i]) => dbd.col(name)[i]);
    return {
      bins,
      vuln,
      damage: {
        probs: denseVulnerability(vrows, nDamage),
        nDamage,
        binTo: col('bin_to'),
        interp: col('interpolation'),
      },
      binFrom: col('bin_from'),
    };
  });
}
