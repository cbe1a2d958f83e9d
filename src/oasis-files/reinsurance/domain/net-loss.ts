/**
 * The loss net of one reinsurance inuring layer, from its RI_n FM files: every FM layer (one per
 * treaty) takes the same input, the previous inuring layer's net loss of each output; its ceded loss is
 * allocated back to the outputs in proportion to their losses at each level (fmpy's allocation rule 3,
 * the rule oasislmf runs reinsurance with), and each layer's net is the previous layer's net less what
 * this layer cedes (never below zero). fm_xref names the layer whose net each output reports.
 *
 * This evaluates only the calc rules reinsurance profiles use; it works on the files alone, so the
 * shared FM engine can take its place without touching the generator.
 */
import { CatintelError } from '../../../errors.js';
import { CALCRULE } from './treaty-terms.js';
import type { ProfileRow, ReinsuranceLayerFiles } from './types.js';

export type ReinsuranceFm = Pick<ReinsuranceLayerFiles, 'programme' | 'profiles' | 'policytc' | 'xref'>;

export function applyReinsuranceCalcrule(p: ProfileRow, loss: number): number {
  switch (p.calcruleId) {
    case CALCRULE.deductibleOnly:
      return loss <= p.deductible1 ? 0 : loss - p.deductible1;
    case CALCRULE.limitOnly:
      return loss <= p.limit1 ? loss : p.limit1;
    case CALCRULE.occurrenceLimitAndShare: {
      const share = p.share2 * p.share3;
      return loss <= p.limit1 ? loss * share : p.limit1 * share;
    }
    case CALCRULE.excessOfLoss: {
      if (p.share1 === 0) return 0;
      const attachment = p.attachment1 / p.share1;
      const exhaust = (p.limit1 + p.attachment1) / p.share1;
      if (loss <= attachment) return 0;
      if (loss <= exhaust) return loss * p.share1 * p.share2 * p.share3 - p.attachment1 * p.share2 * p.share3;
      return p.limit1 * p.share2 * p.share3;
    }
    default:
      throw new CatintelError('invalid_input', `fm_profile.csv: profile_id ${p.profileId} uses calcrule_id ${p.calcruleId}; reinsurance losses support calc rules 12, 14, 23 and 24`);
  }
}

interface Plan {
  /** levels[k]: parent agg id by child id, for level k + 1. */
  parentOf: Map<number, number>[];
  /** profile by level, layer and agg id. */
  profile: (level: number, layer: number, agg: number) => ProfileRow | undefined;
  layers: number;
  items: number[];
}

function plan(fm: ReinsuranceFm): Plan {
  const levelIds = [...new Set(fm.programme.map((r) => r.levelId))].sort((a, b) => a - b);
  levelIds.forEach((id, i) => {
    if (id !== i + 1) throw new CatintelError('invalid_input', `fm_programme.csv: levels must run 1, 2, 3 ... without gaps; found levels ${levelIds.join(', ')}`);
  });
  const parentOf = levelIds.map(() => new Map<number, number>());
  for (const r of fm.programme) parentOf[r.levelId - 1].set(r.fromAggId, r.toAggId);
  const profiles = new Map(fm.profiles.map((p) => [p.profileId, p]));
  // byLevel[level][layer]: profile by agg id.
  const byLevel: Map<number, ProfileRow>[][] = [];
  let layers = 1;
  for (const r of fm.policytc) {
    const p = profiles.get(r.profileId);
    if (!p) throw new CatintelError('invalid_input', `fm_policytc.csv: profile_id ${r.profileId} (level ${r.levelId}, agg_id ${r.aggId}, layer ${r.layerId}) is not in fm_profile.csv`);
    const ofLevel = (byLevel[r.levelId] ??= []);
    (ofLevel[r.layerId] ??= new Map()).set(r.aggId, p);
    layers = Math.max(layers, r.layerId);
  }
  return {
    parentOf,
    profile: (level, layer, agg) => byLevel[level]?.[layer]?.get(agg),
    layers,
    items: [...parentOf[0]?.keys() ?? []],
  };
}

/**
 * Net loss by output of one event. `input` holds the loss of each item (the previous stage's outputs);
 * missing items have no loss.
 */
export function netLossOfEvent(fm: ReinsuranceFm, input: ReadonlyMap<number, number>, p: Plan = plan(fm)): Map<number, number> {
  const netByLayer: Map<number, number>[] = [];
  let previous = new Map<number, number>();
  for (const item of p.items) previous.set(item, input.get(item) ?? 0);
  for (let layer = 1; layer <= p.layers; layer++) {
    const ceded = cededOfLayer(p, layer, input);
    const net = new Map<number, number>();
    for (const item of p.items) net.set(item, Math.max(previous.get(item)! - (ceded.get(item) ?? 0), 0));
    netByLayer[layer] = net;
    previous = net;
  }
  const out = new Map<number, number>();
  for (const x of fm.xref) {
    const net = netByLayer[x.layerId];
    if (!net) throw new CatintelError('invalid_input', `fm_xref.csv: output ${x.output} names layer ${x.layerId}, but fm_policytc.csv has ${p.layers} layer(s)`);
    out.set(x.output, net.get(x.aggId) ?? 0);
  }
  return out;
}

/** One layer's ceded loss by item: each level's result shared out in proportion to its children's results. */
function cededOfLayer(p: Plan, layer: number, input: ReadonlyMap<number, number>): Map<number, number> {
  // Up: each node's loss before (in) and after (out) its profile.
  let childOut = new Map<number, number>();
  for (const item of p.items) childOut.set(item, input.get(item) ?? 0);
  const factors: Map<number, number>[] = [];
  for (let k = 0; k < p.parentOf.length; k++) {
    const level = k + 1;
    const sums = new Map<number, number>();
    for (const [child, parent] of p.parentOf[k]) sums.set(parent, (sums.get(parent) ?? 0) + (childOut.get(child) ?? 0));
    const out = new Map<number, number>();
    const factor = new Map<number, number>();
    for (const [agg, loss] of sums) {
      const prof = p.profile(level, layer, agg);
      const after = prof ? applyReinsuranceCalcrule(prof, loss) : loss;
      out.set(agg, after);
      factor.set(agg, after === 0 ? 0 : after / loss);
    }
    factors.push(factor);
    childOut = out;
  }
  // Down: an item keeps its loss times the factor of every node above it.
  const ceded = new Map<number, number>();
  for (const item of p.items) {
    let loss = input.get(item) ?? 0;
    let node = item;
    for (let k = 0; k < p.parentOf.length && loss !== 0; k++) {
      node = p.parentOf[k].get(node)!;
      loss *= factors[k].get(node) ?? 0;
    }
    ceded.set(item, loss);
  }
  return ceded;
}

/** Runs each inuring layer on the previous one's net: the result of the last is the loss net of reinsurance. */
export function netOfReinsurance(layers: readonly ReinsuranceFm[], grossByOutput: ReadonlyMap<number, number>): Map<number, number>[] {
  const results: Map<number, number>[] = [];
  let current: ReadonlyMap<number, number> = grossByOutput;
  for (const fm of layers) {
    current = netLossOfEvent(fm, current);
    results.push(current as Map<number, number>);
  }
  return results;
}

export { plan as planReinsuranceFm };
