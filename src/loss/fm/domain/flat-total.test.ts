/**
 * The flat total (flat-total.ts) against the general engine (compute.ts) it stands in for: seeded
 * three-level programmes (coverages -> sites -> policies, with deductibles and limits at each; one or
 * several policy layers; minimum and maximum deductibles at the sites), many events each reaching a
 * random subset of coverages in id order, every sample bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../lib/random.js';
import { FinancialModule } from './compute.js';
import type { ProfileStep } from './profile.js';
import { FlatTotal } from './flat-total.js';
import { buildStructure, type FmFiles } from './structure.js';

const step = (
  profileId: number,
  calcrule: number,
  deductible1: number,
  limit1: number,
  deductible2 = 0,
  deductible3 = 0,
): ProfileStep => ({
  profileId,
  calcrule,
  deductible1,
  deductible2,
  deductible3,
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

/**
 * 400 coverages, 4 to a site (level 2), 20 sites to a policy (level 3); every third coverage has no terms.
 * `layers` policy layers; with `minMax`, every other site's deductible has a minimum and a maximum (the
 * running amounts then go up from the coverages), and the last policy's layers share one profile.
 */
function programme(layers = 1, minMax = false): FmFiles {
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
    terms(2, s, 1, minMax && s % 2 === 0 ? 6 : 3);
  }
  for (let p = 1; p <= 5; p++) for (let l = 1; l <= layers; l++) terms(3, p, l, minMax && p === 5 ? 4 : 3 + l);
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
      step(6, 13, 2_500, 0, 1_000, 9_000), // a deductible between a minimum and a maximum
      step(7, 2, 0, 150_000), // a third layer
    ],
    stepped: false,
    xref,
  };
}

/**
 * Events of random coverages (3 in 10, in id order; 1 in 100 for every fourth event, so that a policy is
 * often reached by one site alone) with random losses, some of them 0.
 */
function* events(K: number, count: number): Generator<[number, Float64Array][]> {
  const rand = mulberry32(7);
  for (let event = 0; event < count; event++) {
    const nodes: [number, Float64Array][] = [];
    const reach = event % 4 === 0 ? 0.01 : 0.3;
    for (let c = 1; c <= 400; c++) {
      if (rand() > reach) continue;
      nodes.push([c, Float64Array.from({ length: K }, () => (rand() < 0.1 ? 0 : rand() * 60_000))]);
    }
    yield nodes;
  }
}

describe('FlatTotal', () => {
  const cases: [string, FmFiles][] = [
    ['one layer', programme()],
    ['two layers', programme(2)],
    ['three layers, minimum and maximum deductibles', programme(3, true)],
  ];
  it.each(cases)('gives the general engine’s insured total bit for bit, event after event: %s', (_, files) => {
    const structure = buildStructure(files, 2);
    const K = 13;
    const general = new FinancialModule(structure, K);
    const flat = FlatTotal.of(structure, K);
    expect(flat).toBeDefined();
    for (const nodes of events(K, 200)) {
      const expected = general.total(1, nodes);
      flat!.start(1);
      for (const [agg, loss] of nodes) flat!.input(agg).set(loss);
      expect(Array.from(flat!.total())).toEqual(Array.from(expected));
    }
  });

  it('has running amounts to carry in the programme with minimum and maximum deductibles', () => {
    const structure = buildStructure(programme(3, true), 2);
    expect(structure.nodes[1].filter((n) => n?.hasExtras).length).toBeGreaterThan(0);
  });

  it('leaves cross-layer profiles to the general engine', () => {
    // A site with two layers under a policy with one: the policy's profile spans the site's layers.
    const files = programme();
    files.policytc.level.push(2);
    files.policytc.agg.push(1);
    files.policytc.layer.push(2);
    files.policytc.profile.push(5);
    const structure = buildStructure(files, 2);
    expect(structure.nodes[3].some((n) => n?.crossLayer)).toBe(true);
    expect(FlatTotal.of(structure, 13)).toBeUndefined();
  });
});
