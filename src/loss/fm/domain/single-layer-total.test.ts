/**
 * The flat total (single-layer-total.ts) against the general engine (compute.ts) it stands in for: a
 * seeded three-level programme (coverages -> sites -> policies, with deductibles and limits at each),
 * many events each reaching a random subset of coverages in id order, every sample bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../lib/random.js';
import { FinancialModule } from './compute.js';
import type { ProfileStep } from './profile.js';
import { SingleLayerTotal } from './single-layer-total.js';
import { buildStructure, type FmFiles } from './structure.js';

const step = (profileId: number, calcrule: number, deductible1: number, limit1: number): ProfileStep => ({
  profileId,
  calcrule,
  deductible1,
  deductible2: 0,
  deductible3: 0,
  attachment1: 0,
  limit1,
  share1: 1,
  share2: 0,
  share3: 0,
  stepId: 1,
  triggerStart: 0,
  triggerEnd: 0,
  payoutStart: 0,
  payoutEnd: 0,
  limit2: 0,
  scale1: 0,
  scale2: 0,
});

/** 400 coverages, 4 to a site (level 2), 20 sites to a policy (level 3); every third coverage has no terms. */
function programme(layers = 1): FmFiles {
  const from: number[] = [];
  const level: number[] = [];
  const to: number[] = [];
  const tc = { level: [] as number[], agg: [] as number[], layer: [] as number[], profile: [] as number[] };
  const link = (f: number, l: number, t: number) => {
    from.push(f);
    level.push(l);
    to.push(t);
  };
  const terms = (l: number, agg: number, layer: number, profile: number) => {
    tc.level.push(l);
    tc.agg.push(agg);
    tc.layer.push(layer);
    tc.profile.push(profile);
  };
  for (let c = 1; c <= 400; c++) {
    link(c, 1, c);
    terms(1, c, 1, c % 3 === 0 ? 1 : 2);
  }
  for (let c = 1; c <= 400; c++) link(c, 2, Math.ceil(c / 4));
  for (let s = 1; s <= 100; s++) {
    link(s, 3, Math.ceil(s / 20));
    terms(2, s, 1, 3);
  }
  for (let p = 1; p <= 5; p++) for (let l = 1; l <= layers; l++) terms(3, p, l, 3 + l);
  const xref = { output: [] as number[], agg: [] as number[], layer: [] as number[] };
  for (let c = 1; c <= 400; c++) {
    for (let l = 1; l <= layers; l++) {
      xref.output.push(xref.output.length + 1);
      xref.agg.push(c);
      xref.layer.push(l);
    }
  }
  return {
    programme: { from, level, to },
    policytc: tc,
    profiles: [
      step(1, 12, 0, 0), // no terms: a deductible of 0
      step(2, 1, 1_000, 80_000), // deductible and limit
      step(3, 12, 2_500, 0), // deductible only
      step(4, 1, 10_000, 400_000),
      step(5, 2, 0, 300_000), // a second layer
    ],
    stepped: false,
    xref,
  };
}

describe('SingleLayerTotal', () => {
  it('gives the general engine’s insured total bit for bit, event after event', () => {
    const structure = buildStructure(programme(), 2);
    const K = 13;
    const general = new FinancialModule(structure, K);
    const flat = SingleLayerTotal.of(structure, K);
    expect(flat).toBeDefined();
    const rand = mulberry32(7);
    for (let event = 0; event < 200; event++) {
      const nodes: [number, Float64Array][] = [];
      for (let c = 1; c <= 400; c++) {
        if (rand() > 0.3) continue;
        nodes.push([c, Float64Array.from({ length: K }, () => (rand() < 0.1 ? 0 : rand() * 60_000))]);
      }
      const expected = general.total(1, nodes);
      flat!.start(1);
      for (const [agg, loss] of nodes) flat!.input(agg).set(loss);
      expect(Array.from(flat!.total())).toEqual(Array.from(expected));
    }
  });

  it('leaves programmes of several layers to the general engine', () => {
    expect(SingleLayerTotal.of(buildStructure(programme(2), 2), 13)).toBeUndefined();
  });
});
