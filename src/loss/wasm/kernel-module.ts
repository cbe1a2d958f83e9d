/**
 * The loss kernel's WebAssembly module (src/loss/assembly, compiled into kernel-wasm.ts): one instance
 * per kernel, its memory laid out here once with every array an event's loops read and write (the
 * per-item constants, the event's per-item results, the draws, the sums), so that the loops run in the
 * module with nothing allocated, and the host reads the results through views of the same memory.
 */
import type { GulContext, SampleContext } from '../domain/kernel-inputs.js';
import { cdfTableEntry, NORM_TABLE } from '../domain/normal.js';
import { correlationHash, damageHash, hazardHash } from '../domain/rng.js';
import { damageCdfs, dense } from '../domain/sample-tables.js';
import { WASM_BASE64 } from './kernel-wasm.js';
import { layOut, type Views } from './wasm-memory.js';

/** The exports of src/loss/assembly/index.ts. */
export interface KernelExports {
  memory: WebAssembly.Memory;
  setupPositions(items: number, samples: number, item: number): void;
  setupGul(...offsets: number[]): void;
  gulRow(first: number, end: number, ib: number, prob: number): number;
  gulAt(p: number, m: number, mx: number): void;
  setupCuts(positionCut: number, means: number, maxes: number, has: number): void;
  gulCuts(first: number, end: number): number;
  collect(): number;
  capAtTiv(): void;
  setupSampler(...offsets: number[]): void;
  startEvent(epoch: number, damageTerm: number, corrTerm: number, hazardTerm: number): void;
  sampleRun(first: number, end: number, nHaz: number, bin0: number): void;
  drawSeed(seed: number, to: number): void;
  toNormOf(u: number): number;
  fromNormOf(z: number): number;
  setupRecords(...offsets: number[]): void;
  sumCoverages(rule1: number): void;
  addUp(rule1: number, fm: number, carried: number): void;
  clearEvent(rule1: number): void;
}

let compiled: WebAssembly.Module | undefined;

/** A new instance (the module compiled once per thread), with an empty memory of its own. */
export function kernelInstance(): KernelExports {
  compiled ??= new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'));
  // Math.log itself: V8 calls its own log for this import, so the module's logarithms are JavaScript's to the bit.
  const imports = { env: { log: Math.log, cdfEntry: cdfTableEntry } };
  return new WebAssembly.Instance(compiled, imports).exports as unknown as KernelExports;
}

/**
 * Items laid out by areaperil: position p holds item pItem[p]; an areaperil's items are positions
 * apStart[a] .. apStart[a + 1] - 1 (a = apIndex of the areaperil), in item order, areaperils in order of
 * first appearance. An event's footprint reaches whole areaperils, so its items are read in runs.
 */
export interface Positions {
  apIndex: Map<number, number>;
  apStart: Int32Array;
  pItem: Int32Array;
  /** The most items on one areaperil. */
  maxRun: number;
}

export function positionsOf(itemsByAreaperil: Map<number, number[]>, n: number): Positions {
  const apIndex = new Map<number, number>();
  const apStart = new Int32Array(itemsByAreaperil.size + 1);
  const pItem = new Int32Array(n);
  let p = 0;
  let maxRun = 0;
  for (const [ap, list] of itemsByAreaperil) {
    apStart[apIndex.size] = p;
    apIndex.set(ap, apIndex.size);
    for (const i of list) pItem[p++] = i;
    maxRun = Math.max(maxRun, list.length);
  }
  apStart[apIndex.size] = p;
  return { apIndex, apStart, pItem, maxRun };
}

/** Level 1 of the financial module, for the records' fused pass: to_agg_id by item id and the largest agg_id. */
export interface LevelOne {
  toAgg: Int32Array;
  maxAgg: number;
}

/** Per position: the coverage TIV and the index of the vulnerability's moments (-1 without); the moments flattened. */
function gulArrays(ctx: GulContext, pos: Positions) {
  const { items, vuln, tiv } = ctx;
  const n = items.itemId.length;
  const gTiv = new Float64Array(n);
  const gVuln = new Int32Array(n);
  const index = new Map<number, number>();
  const means: Float64Array[] = [];
  const maxes: Float64Array[] = [];
  const cuts = cutIndex(ctx, pos);
  for (let p = 0; p < n; p++) {
    const i = pos.pItem[p];
    gTiv[p] = tiv[items.coverageId[i]];
    const v = items.vulnerability[i];
    let d = index.get(v);
    if (d === undefined) {
      const m = vuln.mean.get(v);
      const x = vuln.max.get(v);
      d = m && x ? means.length : -1;
      if (m && x) {
        means.push(m);
        maxes.push(x);
      }
      index.set(v, d);
    }
    gVuln[p] = d;
  }
  // One row of intensity bins per vulnerability, as long as the longest; a bin past a row's own is 0 (as
  // gul.ts reads `?? 0`).
  const bins = Math.max(1, ...means.map((m) => m.length), ...maxes.map((x) => x.length));
  const meanOf = new Float64Array(means.length * bins);
  const maxOf = new Float64Array(maxes.length * bins);
  means.forEach((m, v) => meanOf.set(m, v * bins));
  maxes.forEach((x, v) => maxOf.set(x, v * bins));
  const words = (n + 31) >>> 5;
  return {
    bins,
    cuts,
    arrays: {
      gTiv,
      gVuln,
      positionCut: cuts.positionCut,
      cutMean: [Float64Array, cuts.vulnerability.length],
      cutMax: [Float64Array, cuts.vulnerability.length],
      cutHas: cuts.has,
      meanOf,
      maxOf,
      itemMean: [Float64Array, n],
      itemMax: [Float64Array, n],
      itemHit: [Uint8Array, n],
      reachedBits: [Uint32Array, words],
      reachedList: [Int32Array, n],
      itemCov: items.coverageId,
      covTiv: tiv,
      covMean: [Float64Array, tiv.length],
      covMax: [Float64Array, tiv.length],
    } as const,
  };
}

/**
 * The items' vulnerabilities numbered (the cut index) for the ground-up pass, which works out one cut
 * per vulnerability on an areaperil (domain/gul.ts): per position its vulnerability's index, per index
 * the vulnerability and whether it has a distribution, and per areaperil the indices on it (those of
 * areaperil a at apCuts[apCutStart[a] .. apCutStart[a + 1] - 1], in order of first position).
 */
export interface CutIndex {
  positionCut: Int32Array;
  vulnerability: Int32Array;
  has: Uint8Array;
  apCutStart: Int32Array;
  apCuts: Int32Array;
  /** 1 for an areaperil with an item whose vulnerability has no distribution. */
  apWithout: Uint8Array;
}

function cutIndex(ctx: GulContext, pos: Positions): CutIndex {
  const { items, damage } = ctx;
  const n = items.itemId.length;
  const positionCut = new Int32Array(n);
  const indexOf = new Map<number, number>();
  const vulnerability: number[] = [];
  for (let p = 0; p < n; p++) {
    const v = items.vulnerability[pos.pItem[p]];
    let d = indexOf.get(v);
    if (d === undefined) {
      indexOf.set(v, (d = vulnerability.length));
      vulnerability.push(v);
    }
    positionCut[p] = d;
  }
  const has = Uint8Array.from(vulnerability, (v) => (damage.probs.has(v) ? 1 : 0));
  const areaperils = pos.apStart.length - 1;
  const apCutStart = new Int32Array(areaperils + 1);
  const apCuts: number[] = [];
  const apWithout = new Uint8Array(areaperils);
  const seen = new Int32Array(vulnerability.length).fill(-1);
  for (let a = 0; a < areaperils; a++) {
    apCutStart[a] = apCuts.length;
    for (let p = pos.apStart[a]; p < pos.apStart[a + 1]; p++) {
      const d = positionCut[p];
      if (seen[d] === a) continue;
      seen[d] = a;
      apCuts.push(d);
      if (!has[d]) apWithout[a] = 1;
    }
  }
  apCutStart[areaperils] = apCuts.length;
  return {
    positionCut,
    vulnerability: Int32Array.from(vulnerability),
    has,
    apCutStart,
    apCuts: Int32Array.from(apCuts),
    apWithout,
  };
}

/** The sampler's per-position constants (groups, seed terms, correlation), damage cdfs and scratch. */
function samplerArrays(ctx: SampleContext, pos: Positions, cuts: CutIndex) {
  const S = ctx.samples;
  const { items, footprint: fp } = ctx;
  const n = items.itemId.length;
  const corr = ctx.correlations;
  const { pItem } = pos;
  const at = (values: ArrayLike<number>): Float64Array => {
    const out = new Float64Array(n);
    for (let p = 0; p < n; p++) out[p] = values[pItem[p]];
    return out;
  };
  const terms = (keys: Float64Array, hash: typeof damageHash): Int32Array => {
    const out = new Int32Array(keys.length);
    for (let p = 0; p < keys.length; p++) out[p] = hash.group(keys[p]);
    return out;
  };
  // Dense group indices numbered in position order, so that an event's draws are stored in the order it makes them.
  const damageKey = at(items.groupId);
  // Hazard groups draw only where a cell has several intensity bins in one event: none in a deterministic footprint.
  const maxRows = maxRowsPerAreaperil(fp);
  const hazardKey = maxRows > 1 ? at(corr ? corr.hazardGroup : items.groupId) : new Float64Array(0);
  const g = dense(damageKey);
  const c = corr ? dense(at(corr.group)) : undefined;
  const h = dense(hazardKey);
  // Vulnerabilities numbered as the ground-up pass numbers them (its cut index, over the same items).
  const pVuln = cuts.positionCut;
  const vulnIds = Array.from(cuts.vulnerability);
  const pTiv = new Float32Array(n);
  const pCorr = new Int32Array(n).fill(-1);
  const pCorrTerm = new Int32Array(n);
  const pSqrtRho = new Float64Array(n);
  const pSqrtRest = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const i = pItem[p];
    pTiv[p] = ctx.tiv[items.coverageId[i]];
    const rho = corr ? corr.damageRho[i] : 0;
    pSqrtRho[p] = Math.sqrt(rho);
    pSqrtRest[p] = Math.sqrt(1 - rho);
    // Only a positive correlation draws the group's shared value (gulmc skips it otherwise).
    if (corr && c && rho > 0) {
      pCorr[p] = c.index[p];
      pCorrTerm[p] = correlationHash.group(corr.group[i]);
    }
  }
  let maxIntensity = 0;
  for (let r = 0; r < fp.intensityBin.length; r++) maxIntensity = Math.max(maxIntensity, fp.intensityBin[r]);
  const cdfs = damageCdfs(ctx, vulnIds, maxIntensity);
  const groups = { damage: g.count, corr: c?.count ?? 0, hazard: h.count };
  const m = pos.maxRun * S;
  // No group is drawn for an event yet (epochs start at 1).
  const unstamped = (count: number) => new Int32Array(count).fill(-1);
  return {
    intensityBins: maxIntensity + 1,
    arrays: {
      pTiv,
      pVuln,
      pDamage: g.index,
      pDamageTerm: terms(damageKey, damageHash),
      pCorr,
      pCorrTerm,
      pHazard: h.index,
      pHazardTerm: terms(hazardKey, hazardHash),
      pSqrtRho,
      pSqrtRest,
      damageValues: [Float64Array, groups.damage * S],
      damageStamp: unstamped(groups.damage),
      corrValues: [Float64Array, groups.corr * S],
      corrNorm: [Float64Array, groups.corr * S],
      corrStamp: unstamped(groups.corr),
      hazardValues: [Float64Array, groups.hazard * S],
      hazardStamp: unstamped(groups.hazard),
      cdfTable: [Float64Array, c ? NORM_TABLE.n : 0],
      cdfStart: cdfs.start,
      cdfLength: cdfs.length,
      cdfArena: cdfs.arena,
      binFrom: ctx.binFrom.subarray(0, ctx.nDamage),
      binTo: ctx.binTo.subarray(0, ctx.nDamage),
      binMean: ctx.binMean.subarray(0, ctx.nDamage),
      hazCdf: [Float32Array, maxRows],
      hazBin: [Int32Array, maxRows],
      losses: [Float64Array, n * S],
      runU: [Float64Array, m],
      runX: [Float64Array, m],
      runB: [Float64Array, m],
      runBin: [Int32Array, m],
      runC: [Uint8Array, m],
      perms: [Float64Array, S],
      runK: [Int32Array, S],
      cdfBelow: new Int32Array(cdfs.start.length).fill(-2),
      runList: [Int32Array, m],
    } as const,
  };
}

/** The most footprint rows one areaperil has in one event (its intensity bins). */
function maxRowsPerAreaperil(fp: SampleContext['footprint']): number {
  let most = 1;
  let run = 1;
  for (let r = 1; r < fp.areaperil.length; r++) {
    run = fp.areaperil[r] === fp.areaperil[r - 1] ? run + 1 : 1;
    most = Math.max(most, run);
  }
  return most;
}

/** The records' per-coverage sums, level 1's loss vectors (mean, max, exposure, each sample; agg_id by agg_id) and the event's totals. */
function recordArrays(ctx: GulContext, S: number, levelOne: LevelOne | undefined, covSamples: boolean) {
  const covers = ctx.tiv.length;
  const aggSize = levelOne ? levelOne.maxAgg + 1 : 0;
  return {
    aggSize,
    arrays: {
      itemIds: ctx.items.itemId,
      covSeen: [Uint8Array, covers],
      covHits: [Float64Array, covers],
      covSums: [Float64Array, covSamples ? covers * S : 0],
      toAgg: levelOne ? levelOne.toAgg : new Int32Array(0),
      aggBuffers: [Float64Array, (3 + S) * aggSize],
      sampleSums: [Float64Array, S],
      eventTotals: [Float64Array, 4],
    } as const,
  };
}

function allArrays(
  gul: GulContext,
  sample: SampleContext | undefined,
  levelOne: LevelOne | undefined,
  covSamples: boolean,
  pos: Positions,
) {
  const S = sample?.samples ?? 0;
  const g = gulArrays(gul, pos);
  const s = sample ? samplerArrays(sample, pos, g.cuts) : undefined;
  const r = recordArrays(gul, S, levelOne, covSamples);
  return {
    g,
    s,
    r,
    spec: { pItem: pos.pItem, ...g.arrays, ...(s?.arrays ?? { losses: [Float64Array, 0] as const }), ...r.arrays },
  };
}

export type KernelViews = Views<ReturnType<typeof allArrays>['spec']> &
  Partial<Views<NonNullable<ReturnType<typeof samplerArrays>>['arrays']>>;

/**
 * One kernel's instance and memory: the per-item constants of the ground-up step, the sampler (with
 * sampling) and the records' sums (`covSamples`: per coverage and sample, for gul_alloc_rule 1 in the
 * fused pass; `levelOne`: the financial module's first level, for the fused pass).
 */
export class KernelModule {
  readonly wasm: KernelExports;
  readonly views: KernelViews;
  readonly positions: Positions;
  readonly cuts: CutIndex;
  /** Level 1's loss vectors (`views.aggBuffers`), agg_id by agg_id: mean, max, exposure, then each sample. */
  readonly levelOneVectors: Float64Array | undefined;

  constructor(gul: GulContext, sample: SampleContext | undefined, levelOne: LevelOne | undefined, covSamples: boolean) {
    const n = gul.items.itemId.length;
    const S = sample?.samples ?? 0;
    this.positions = positionsOf(gul.itemsByAreaperil, n);
    this.wasm = kernelInstance();
    const { g, s, r, spec } = allArrays(gul, sample, levelOne, covSamples, this.positions);
    const { views, offsets: o } = layOut(this.wasm.memory, spec);
    this.views = views as KernelViews;
    // gulmc's normal cdf table: NaN where an entry is not computed yet (the module computes one when it first reads it).
    this.views.cdfTable?.fill(NaN);
    const w = this.wasm;
    w.setupPositions(n, S, o.pItem);
    w.setupGul(
      o.gTiv,
      o.gVuln,
      o.meanOf,
      o.maxOf,
      g.bins,
      o.itemMean,
      o.itemMax,
      o.itemHit,
      o.reachedBits,
      o.reachedList,
      o.itemCov,
      o.covTiv,
      o.covMean,
      o.covMax,
    );
    w.setupCuts(o.positionCut, o.cutMean, o.cutMax, o.cutHas);
    this.cuts = g.cuts;
    if (s) {
      const p = o as typeof o & Record<keyof typeof s.arrays, number>;
      w.setupSampler(
        p.pTiv,
        p.pVuln,
        p.pDamage,
        p.pDamageTerm,
        p.pCorr,
        p.pCorrTerm,
        p.pHazard,
        p.pHazardTerm,
        p.pSqrtRho,
        p.pSqrtRest,
        p.damageValues,
        p.damageStamp,
        p.corrValues,
        p.corrNorm,
        p.corrStamp,
        p.hazardValues,
        p.hazardStamp,
        p.cdfTable,
        p.cdfStart,
        p.cdfLength,
        p.cdfArena,
        s.intensityBins,
        p.binFrom,
        p.binTo,
        p.binMean,
        p.hazCdf,
        p.hazBin,
        p.losses,
        p.runU,
        p.runX,
        p.runB,
        p.runBin,
        p.runC,
        p.perms,
        p.runK,
        p.cdfBelow,
        p.runList,
      );
    }
    w.setupRecords(
      o.itemCov,
      o.itemIds,
      o.itemMean,
      o.itemMax,
      o.itemHit,
      o.losses,
      o.covTiv,
      o.covSeen,
      o.covHits,
      o.covSums,
      o.covMean,
      o.covMax,
      o.toAgg,
      views.toAgg.length,
      o.aggBuffers,
      r.aggSize,
      o.sampleSums,
      o.eventTotals,
    );
    this.levelOneVectors = r.aggSize > 0 ? views.aggBuffers : undefined;
  }
}
