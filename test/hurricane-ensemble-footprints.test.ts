/**
 * A live storm's ensemble footprints, made fast without changing a byte: the surge's ceiling skips only
 * (step, cell) pairs that could not raise the cell's peak, and an ensemble split between threads (each
 * taking tracks from one counter, each footprinting the shared steps itself) gives every track the rows
 * one thread gives it, and the same reach; a catalog's storms, footprinted alone on threads, come back in
 * order with the rows one thread gives. The surge's floor skips pairs below the lowest height a footprint keeps.
 * A footprint restricted to some cells (a small book's) gives the whole grid's rows and reach on them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellOf, cellOfAreaperil, GRID_CELLS, GRID_COLS } from '../src/models/hurricane/domain/footprint/grid.js';
import { SURGE_AREAPERIL_BASE } from '../src/models/hurricane/domain/surge/surge-bins.js';
import {
  addSurgeSteps,
  MIN_HEIGHT_M,
  newSurgePeaks,
  surgeHeightsOf,
} from '../src/models/hurricane/domain/surge/surge-heights.js';
import type { Track } from '../src/models/hurricane/domain/track.js';
import { stormSteps } from '../src/models/hurricane/domain/wind-field/storm-steps.js';
import { historicalTracks, readAtlanticStorms } from '../src/models/hurricane/historical-tracks.js';
import { landGrid } from '../src/models/hurricane/land-grid.js';
import {
  claimedFootprints,
  footprintCellsOf,
  stormFootprint,
  stormFootprints,
  type Reach,
} from '../src/models/hurricane/package/storm-footprint.js';
import { LEE_HOMES } from './helpers/event-loss-books.js';
import { REPO_ROOT, SHARED_DATA } from './helpers/paths.js';

const grid = landGrid();
const records = new Map<string, Track>();
beforeAll(() => {
  // Katrina 2005 (the northern Gulf), Ian 2022 (south-west Florida), Andrew 1992 (Biscayne Bay), Hugo 1989 (South Carolina).
  const ids = ['AL122005', 'AL092022', 'AL041992', 'AL111989'];
  const storms = readAtlanticStorms(SHARED_DATA).filter((s) => ids.includes(s.id));
  for (const t of historicalTracks(storms, grid, 1900, 2024)) records.set(t.parentId, t);
});

/** An ensemble of `members` tracks: the record to its `shared`th fix, then each member's own displaced, weakened rest. */
function ensemble(record: Track, shared: number, members: number): Track[] {
  const own = (m: number): Track => ({
    eventId: m + 2,
    parentId: record.parentId,
    fixes: record.fixes.map((f, i) =>
      i < shared ? f : { ...f, lat: f.lat + 0.15 * (m - 1), lng: f.lng - 0.1 * m, windKt: f.windKt * (1 - 0.04 * m) },
    ),
  });
  return [{ ...record, fixes: record.fixes.slice(0, shared) }, ...Array.from({ length: members }, (_, m) => own(m))];
}

function newReach(): Reach {
  return { wind: new Uint8Array(GRID_CELLS), surge: new Uint8Array(GRID_CELLS) };
}

describe("the surge's ceiling", () => {
  it.each(['AL122005', 'AL092022', 'AL041992', 'AL111989'])(
    'leaves the peaks of %s exactly as evaluating every pair does, whole and added in two parts',
    (id) => {
      const steps = stormSteps(records.get(id)!);
      const half = Math.floor(steps.length * 0.8);
      for (const parts of [[steps], [steps.slice(0, half), steps.slice(half)]]) {
        const fast = newSurgePeaks(grid);
        const every = newSurgePeaks(grid);
        for (const part of parts) {
          addSurgeSteps(fast, part, grid);
          addSurgeSteps(every, part, grid, false);
        }
        expect(fast.some((h) => h > 1)).toBe(true);
        expect(Buffer.from(fast.buffer).equals(Buffer.from(every.buffer))).toBe(true);
      }
    },
  );
});

describe("the surge's floor", () => {
  it.each(['AL122005', 'AL041992'])('leaves the surge footprint of %s as evaluating every pair does', (id) => {
    const steps = stormSteps(records.get(id)!);
    const floored = newSurgePeaks(grid);
    const every = newSurgePeaks(grid);
    addSurgeSteps(floored, steps, grid, true, MIN_HEIGHT_M);
    addSurgeSteps(every, steps, grid, false);
    const [a, b] = [surgeHeightsOf(floored, grid), surgeHeightsOf(every, grid)];
    expect(a.areaperils.length).toBeGreaterThan(0);
    expect(Buffer.from(a.areaperils.buffer).equals(Buffer.from(b.areaperils.buffer))).toBe(true);
    expect(Buffer.from(a.heightM.buffer).equals(Buffer.from(b.heightM.buffer))).toBe(true);
  });
});

describe('an ensemble split between threads', () => {
  it('gives every track the rows and the reach one thread gives', () => {
    const ian = records.get('AL092022')!;
    const tracks = ensemble(ian, ian.fixes.length - 5, 5);
    const reachOne = newReach();
    const one = [...stormFootprints(tracks, grid, reachOne)].map((fp) => fp.rows);

    // Two shares taking turns at one counter, as two threads would.
    let next = 0;
    const reaches = [newReach(), newReach()];
    const shares = reaches.map((r) => claimedFootprints(tracks, grid, () => next++, r));
    const split: Buffer[] = new Array(tracks.length);
    for (let turn = 0, live = 2; live > 0; turn++) {
      const got = shares[turn % 2].next();
      if (got.done) live--;
      else split[got.value[0]] = got.value[1].rows;
    }
    expect(split.map((b) => b.toString('hex'))).toEqual(one.map((b) => b.toString('hex')));
    expect(one.every((b) => b.length > 0)).toBe(true);
    const merged = newReach();
    for (const r of reaches)
      for (const key of ['wind', 'surge'] as const)
        r[key].forEach((v, k) => {
          if (v > merged[key][k]) merged[key][k] = v;
        });
    expect(Buffer.from(merged.wind).equals(Buffer.from(reachOne.wind))).toBe(true);
    expect(Buffer.from(merged.surge).equals(Buffer.from(reachOne.surge))).toBe(true);
  });

  // The threads themselves run only from the compiled code (a worker is a .js file beside the module).
  const compiled = path.join(REPO_ROOT, 'dist/src/models/hurricane/package/footprint-threads.js');
  /** The compiled threads, and Ian's ensemble of 9 members from its fifth-last fix. */
  const threadsAndIanTracks = async () => {
    const { FootprintThreads } = (await import(
      pathToFileURL(compiled).href
    )) as typeof import('../src/models/hurricane/package/footprint-threads.js');
    const ian = records.get('AL092022')!;
    return { FootprintThreads, tracks: ensemble(ian, ian.fixes.length - 5, 9) };
  };
  it.skipIf(!fs.existsSync(compiled))(
    'gives on two real threads what one thread gives',
    async () => {
      const { FootprintThreads, tracks } = await threadsAndIanTracks();
      const reachOne = newReach();
      const one = [...stormFootprints(tracks, grid, reachOne)].map((fp) => fp.rows.toString('hex'));
      const threads = new FootprintThreads(tracks.length, 2);
      try {
        threads.useGrid(grid);
        const reachTwo = newReach();
        const two = await threads.footprints(tracks, grid, { reach: reachTwo });
        expect(two.map((fp) => fp.rows.toString('hex'))).toEqual(one);
        expect(Buffer.from(reachTwo.wind).equals(Buffer.from(reachOne.wind))).toBe(true);
        expect(Buffer.from(reachTwo.surge).equals(Buffer.from(reachOne.surge))).toBe(true);
      } finally {
        threads.close();
      }
    },
    60_000,
  );

  it.skipIf(!fs.existsSync(compiled))(
    'without surge (a book the surge keys place nowhere), gives each track its wind rows alone, on two real threads',
    async () => {
      const { FootprintThreads, tracks } = await threadsAndIanTracks();
      // The wind rows come first, on the wind grid's areaperils (1 .. GRID_CELLS); the surge rows follow.
      const windRows = (rows: Buffer) => {
        let end = 0;
        while (end < rows.length && rows.readUInt32LE(end) <= GRID_CELLS) end += 12;
        return rows.subarray(0, end).toString('hex');
      };
      const full = [...stormFootprints(tracks, grid)].map((fp) => fp.rows);
      expect(full.some((rows) => windRows(rows).length < rows.length * 2)).toBe(true);
      const threads = new FootprintThreads(tracks.length, 2);
      try {
        threads.useGrid(grid);
        const reach = newReach();
        const wind = await threads.footprints(tracks, grid, { reach, surge: false });
        expect(wind.map((fp) => fp.rows.toString('hex'))).toEqual(full.map(windRows));
        expect(reach.surge.every((v) => v === 0)).toBe(true);
        expect(reach.wind.some((v) => v > 0)).toBe(true);
      } finally {
        threads.close();
      }
    },
    60_000,
  );

  it.skipIf(!fs.existsSync(compiled))(
    "gives a catalog's storms, each alone, on two real threads and in order, what one thread gives",
    async () => {
      const { FootprintThreads } = (await import(
        pathToFileURL(compiled).href
      )) as typeof import('../src/models/hurricane/package/footprint-threads.js');
      const tracks = [...records.values()];
      const reachOne = newReach();
      const one = tracks.map((t) => stormFootprint(t, grid, reachOne).rows.toString('hex'));
      const threads = new FootprintThreads(tracks.length, 2);
      try {
        threads.useGrid(grid);
        const reachTwo = newReach();
        const two: string[] = [];
        const made = threads.inTrackOrder(tracks, grid, {
          reach: reachTwo,
          shareSteps: false,
          between: () => new Promise((resolve) => setImmediate(resolve)),
        });
        for await (const fp of made) two.push(fp.rows.toString('hex'));
        expect(two).toEqual(one);
        expect(Buffer.from(reachTwo.wind).equals(Buffer.from(reachOne.wind))).toBe(true);
        expect(Buffer.from(reachTwo.surge).equals(Buffer.from(reachOne.surge))).toBe(true);
      } finally {
        threads.close();
      }
    },
    60_000,
  );
});

describe('a footprint restricted to some cells', () => {
  /** The grid cell of a footprint row's areaperil, wind or surge. */
  const cellOfRow = (rows: Buffer, at: number) => {
    const id = rows.readUInt32LE(at);
    const { row, col } = cellOfAreaperil(id > GRID_CELLS ? id - SURGE_AREAPERIL_BASE : id);
    return row * GRID_COLS + col;
  };
  // Katrina's cells span several shelf segments, far from the Lee County homes; Ian's hold them.
  it.each(['AL122005', 'AL092022'])(
    'gives %s the rows and the reach the whole grid gives on those cells, and none elsewhere',
    (id) => {
      const track = records.get(id)!;
      const wholeReach = newReach();
      const whole = stormFootprint(track, grid, wholeReach);
      // Every 7th cell the storm floods or blows on, the Lee County homes' and cells no storm reaches (water, far inland).
      const cells = new Set<number>();
      for (let at = 0; at < whole.rows.length; at += 12 * 7) cells.add(cellOfRow(whole.rows, at));
      for (const [lat, lng] of [...LEE_HOMES, [25.0, -75.0], [40.0, -100.0]] as [number, number][]) {
        const cell = cellOf(lat, lng)!;
        cells.add(cell.row * GRID_COLS + cell.col);
      }
      const onlyReach = newReach();
      const only = stormFootprint(track, grid, onlyReach, footprintCellsOf(grid, cells));
      const kept: Buffer[] = [];
      for (let at = 0; at < whole.rows.length; at += 12)
        if (cells.has(cellOfRow(whole.rows, at))) kept.push(whole.rows.subarray(at, at + 12));
      expect(only.windRows).toBeGreaterThan(0);
      expect(only.surgeRows).toBeGreaterThan(0);
      expect(only.rows.toString('hex')).toEqual(Buffer.concat(kept).toString('hex'));
      for (const key of ['wind', 'surge'] as const) {
        const expected = wholeReach[key].map((v, k) => (cells.has(k) ? v : 0));
        expect(Buffer.from(onlyReach[key]).equals(Buffer.from(expected))).toBe(true);
      }
    },
  );
});
