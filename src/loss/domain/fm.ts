/**
 * The financial module, level by level as fm_programme lays it out: level 1 sums item losses
 * (from_agg_id = item_id) into its aggregation ids, each (level, agg_id, layer_id) of fm_policytc
 * applies its profile, and each level's result feeds the next. Layers may split only at the last
 * level (as in PiWind and every programme oasislmf generates from OED without reinsurance); the
 * insured loss of an event is the sum over the last level's layers. An agg_id with no policy row
 * passes its loss through.
 */
import { CatintelError } from '../../errors.js';
import { applyCalcrule, checkCalcrule } from './calcrules.js';
import type { FmInput, Profile } from './types.js';

interface Level {
  level: number;
  /** index by from id -> to agg id (0 = not mapped). */
  toAgg: Int32Array;
  maxAgg: number;
  /** per agg id: the profiles of its layers, in layer order. */
  layers: (Profile[] | undefined)[];
}

export interface FmPlan {
  levels: Level[];
}

export function planFm(fm: FmInput): FmPlan {
  for (const [id, p] of fm.profiles) checkCalcrule(id, p);
  const levelIds = [...new Set(fm.programme.level)].sort((a, b) => a - b);
  const levels: Level[] = levelIds.map((level) => {
    let maxFrom = 0;
    let maxAgg = 0;
    for (let i = 0; i < fm.programme.level.length; i++) {
      if (fm.programme.level[i] !== level) continue;
      maxFrom = Math.max(maxFrom, fm.programme.from[i]);
      maxAgg = Math.max(maxAgg, fm.programme.to[i]);
    }
    const toAgg = new Int32Array(maxFrom + 1);
    for (let i = 0; i < fm.programme.level.length; i++) if (fm.programme.level[i] === level) toAgg[fm.programme.from[i]] = fm.programme.to[i];
    const byAgg = new Map<number, [number, Profile][]>();
    for (let i = 0; i < fm.policy.level.length; i++) {
      if (fm.policy.level[i] !== level) continue;
      const profile = fm.profiles.get(fm.policy.profile[i]);
      if (!profile) throw new CatintelError('invalid_input', `fm_policytc.csv: profile_id ${fm.policy.profile[i]} (level ${level}, agg_id ${fm.policy.agg[i]}) is not in fm_profile.csv`);
      const list = byAgg.get(fm.policy.agg[i]) ?? [];
      list.push([fm.policy.layer[i], profile]);
      byAgg.set(fm.policy.agg[i], list);
    }
    const layers: (Profile[] | undefined)[] = new Array(maxAgg + 1);
    for (const [agg, list] of byAgg) layers[agg] = list.sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    return { level, toAgg, maxAgg, layers };
  });
  levels.forEach((l, i) => {
    if (i === levels.length - 1) return;
    if (l.layers.some((p) => p && p.length > 1)) {
      throw new CatintelError('invalid_input', `fm_policytc.csv: level ${l.level} has more than one layer on an agg_id, but layers are supported only at the last level (${levels[levels.length - 1].level})`);
    }
  });
  return { levels };
}

/**
 * The insured loss of events, one after another, with each level's aggregation buffer allocated once.
 * `dense` takes per-item losses indexed by item_id; `sparse` the same losses given only for the items
 * that have one, in ascending item_id order: level 1 adds them in the same order as the dense loop
 * (whose other terms are zeros), so both give the same number to the bit.
 */
export class InsuredLoss {
  private readonly aggs: Float64Array[];
  /** Level 1's buffers for levelOne: `many` when given (the kernel's module fills them), else made here. */
  constructor(
    private readonly plan: FmPlan,
    private readonly many: Float64Array[] = [],
  ) {
    this.aggs = plan.levels.map((l) => new Float64Array(l.maxAgg + 1));
  }

  dense(byItemId: Float64Array): number {
    if (this.plan.levels.length === 0) {
      let total = 0;
      for (let i = 1; i < byItemId.length; i++) total += byItemId[i];
      return total;
    }
    const l = this.plan.levels[0];
    const agg = this.aggs[0];
    agg.fill(0);
    const n = Math.min(byItemId.length, l.toAgg.length);
    for (let from = 1; from < n; from++) if (l.toAgg[from] > 0) agg[l.toAgg[from]] += byItemId[from];
    return this.fromLevel(0);
  }

  /** ids[list[k]] ascending; values[offset + list[k]] is the loss of item ids[list[k]]; only entries with keep[list[k]] count. */
  sparse(list: Int32Array, count: number, keep: Uint8Array, ids: Int32Array, values: Float64Array, offset: number): number {
    if (this.plan.levels.length === 0) {
      let total = 0;
      for (let k = 0; k < count; k++) if (keep[list[k]] && ids[list[k]] >= 1) total += values[offset + list[k]];
      return total;
    }
    const l = this.plan.levels[0];
    const agg = this.aggs[0];
    agg.fill(0);
    const toAgg = l.toAgg;
    for (let k = 0; k < count; k++) {
      const i = list[k];
      if (!keep[i]) continue;
      const from = ids[i];
      if (from >= 1 && from < toAgg.length && toAgg[from] > 0) agg[toAgg[from]] += values[offset + i];
    }
    return this.fromLevel(0);
  }

  /** Level 1's aggregation: to_agg_id by item id (from_agg_id), 0 where none. Undefined for a programme without levels. */
  get itemToAgg(): Int32Array | undefined {
    return this.plan.levels[0]?.toAgg;
  }

  /**
   * K buffers for level 1 zeroed, into which a caller adds the losses of K loss vectors at once
   * (buffer[toAgg[item id]] += loss, items in ascending item id order, as `sparse` adds them); finish(k)
   * then gives vector k's insured loss.
   */
  levelOne(K: number): Float64Array[] {
    const size = this.plan.levels[0].maxAgg + 1;
    while (this.many.length < K) this.many.push(new Float64Array(size));
    for (let k = 0; k < K; k++) this.many[k].fill(0);
    return this.many;
  }

  finish(k: number): number {
    const own = this.aggs[0];
    this.aggs[0] = this.many[k];
    try {
      return this.fromLevel(0);
    } finally {
      this.aggs[0] = own;
    }
  }

  /** Applies level li's profiles to its aggregated losses (already summed into its buffer) and runs the levels above. */
  private fromLevel(first: number): number {
    const levels = this.plan.levels;
    for (let li = first; li < levels.length; li++) {
      const l = levels[li];
      const agg = this.aggs[li];
      if (li > first) {
        const input = this.aggs[li - 1];
        agg.fill(0);
        const n = Math.min(input.length, l.toAgg.length);
        for (let from = 1; from < n; from++) if (l.toAgg[from] > 0) agg[l.toAgg[from]] += input[from];
      }
      if (li === levels.length - 1) {
        let total = 0;
        for (let a = 1; a <= l.maxAgg; a++) {
          const profiles = l.layers[a];
          if (!profiles) total += agg[a];
          else for (const p of profiles) total += applyCalcrule(p, agg[a]);
        }
        return total;
      }
      for (let a = 1; a <= l.maxAgg; a++) {
        const p = l.layers[a]?.[0];
        if (p) agg[a] = applyCalcrule(p, agg[a]);
      }
    }
    return 0; // not reached: the last level returns
  }
}
