/**
 * What the host hands the kernel's WebAssembly module for a run: the model and input arrays the ground-up
 * pass (gul.ts) and the sampler (sample.ts) read. Here so those files and the module host (../wasm/kernel-module.ts)
 * can name them without importing each other.
 */
import type { DamageDistributions } from './cdf-cutoff.js';
import type { Footprint, Items, RiskMap, VulnerabilityMoments } from './types.js';

export interface GulContext {
  items: Items;
  /** TIV by coverage_id. */
  tiv: Float64Array;
  vuln: VulnerabilityMoments;
  /** The damage distributions themselves, to cut each item's cdfs where Oasis cuts them (cdf-cutoff.ts). */
  damage: DamageDistributions;
  footprint: Footprint;
  allocRule: 0 | 1;
  /** areaperil -> indices of the items on it. */
  itemsByAreaperil: Map<number, number[]>;
  /** The risk (location and building) of each item, for the number of affected risks; absent: coverages are counted. */
  risks?: RiskMap;
}

export interface Correlations {
  group: Int32Array;
  damageRho: Float64Array;
  hazardGroup: Float64Array;
}

export interface SampleContext {
  items: Items;
  tiv: Float64Array;
  footprint: Footprint;
  /** vulnerability_id -> dense float32 probabilities [intensity bin * nDamage + damage bin index]. */
  vulnProbs: Map<number, Float32Array>;
  nDamage: number;
  binFrom: Float32Array;
  binTo: Float32Array;
  binMean: Float32Array;
  correlations?: Correlations;
  samples: number;
}
