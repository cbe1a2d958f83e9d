/**
 * A stored portfolio's loss from one version of an event (docs/event-loss.md): the event's footprints
 * (event-footprints.ts) through the one loss engine (run-event-loss.ts), answered as GET
 * /portfolio/event-loss answers. The handler runs it on the event as stored now; the stream's loss queue
 * and `events diff` on a stored product version (src/store/event-history.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../context.js';
import { provenanceOf, type Provenance } from '../domain/provenance.js';
import { CatintelError } from '../errors.js';
import { packageRoot } from '../lib/package-root.js';
import type { PortfolioLocation } from '../portfolios/read.js';
import type { PgaGrid } from '../domain/pga-grid.js';
import type { EventRow, ObservationRow } from '../store/events-read.js';
import type { FootprintSource } from './event-footprints.js';
import type { LossBand } from './loss-band.js';

/** A band in the answer: money to the cent, ACORD-style names as every insurance output. */
export interface BandBody {
  MeanLossAmt: number;
  P10LossAmt: number;
  P50LossAmt: number;
  P90LossAmt: number;
}

export interface PerspectiveBody extends BandBody {
  /** The loss of the track observed so far alone (a hurricane), its analytical mean; null for an earthquake. */
  ObservedSoFarLossAmt: number | null;
  by_peril: Record<string, BandBody & { ObservedSoFarLossAmt: number | null }>;
}

export interface EventLossBody extends Provenance {
  PortfolioId: string;
  event: {
    id: string;
    slug: string;
    title: string;
    event_type: string;
    source: string;
    source_id: string;
    status: string;
  };
  /** The product and version the footprints were made from. */
  footprint: FootprintSource;
  perils: string[];
  members: number;
  samples: number;
  seed: number;
  model_version: string;
  CurCd: string | null;
  NumLocations: number;
  NumLocationsModelled: number;
  NumLocationsInFootprint: number;
  TotalInsuranceAmt: number;
  TIVInFootprintAmt: number;
  TIVInFootprintAmtByPeril: Record<string, number>;
  gul: PerspectiveBody;
  il: PerspectiveBody;
  as_of: string;
  method: string;
}

const cents = (x: number) => Math.round(x * 100) / 100;
const band = (b: LossBand): BandBody => ({
  MeanLossAmt: cents(b.mean),
  P10LossAmt: cents(b.p10),
  P50LossAmt: cents(b.p50),
  P90LossAmt: cents(b.p90),
});
export interface EventLossOf {
  portfolioId: string;
  locations: readonly PortfolioLocation[];
  /** The event as read (now, or a stored product version), and its observations (a hurricane's fixes). */
  row: Omit<EventRow, 'sort_us'>;
  observations: ObservationRow[];
  members: number;
  samples: number;
  seed: number;
  /** A grid.xml given (the CLI's --shakemap); without it an earthquake runs on the ShakeMap grid the store kept by `at`, if any. */
  shakemap?: { grid: PgaGrid; name: string };
  /** The instant whose stored ShakeMap grid counts: a stored version's stored_at; the clock when not given. */
  at?: string;
  modelsDir?: string;
}

export async function eventLossOf(ctx: Context, input: EventLossOf): Promise<{ body: EventLossBody; notes: string[] }> {
  const [files, fp, { runEventLoss, prepareEventLoss }] = await Promise.all([
    import('../epcurve/book-files.js'),
    import('./event-footprints.js'),
    import('./run-event-loss.js'),
  ]);
  const { row, locations } = input;
  const task = 'event loss';
  const dataDir = path.resolve(
    ctx.config.env?.CATINTEL_SHARED_DATA ?? path.join(packageRoot(), '..', 'shared', 'data'),
  );
  const modelsDir = path.resolve(
    input.modelsDir ?? ctx.config.env?.CATINTEL_MODELS ?? path.join(packageRoot(), 'models'),
  );
  // A missing model package is known before seconds of footprints are spent (a server without models).
  const { packageInfo } = await import('../epcurve/run-book.js');
  const { packageOf } = await import('../epcurve/model-packages.js');
  const needed = packageOf(row.event_type === 'earthquake' ? 'earthquake' : 'hurricane_wind');
  if (needed && ['hurricane', 'earthquake'].includes(row.event_type)) packageInfo(needed, modelsDir);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-event-loss-'));
  // A hurricane's book side (keys, Oasis input tables, the kernel's threads) is made on the built package
  // while the footprint threads keep the other cores busy: a 100,000-location book's takes seconds.
  let prepared: ReturnType<typeof prepareEventLoss> | undefined;
  try {
    // The book as an OED location file, which the footprints do not need: written while the footprint
    // threads start on the ensemble's members. A stored portfolio holds TIVs and no financial terms, so
    // it has no account file: the run computes ground-up losses, its insured losses too (runBook).
    let book: { location: string } | undefined;
    const writeBook = () => (book = { location: files.writePortfolioLocations(work, locations) });
    // Step 2's messages; those of the book side made during the footprints are step 1's.
    const lossOptions = (b: { location: string }, step = 2) => ({
      ...b,
      modelsDir,
      dataDir,
      samples: input.samples,
      seed: input.seed,
      workDir: work,
      progress: (message: string) =>
        ctx.progress({
          task,
          done: step,
          total: 3,
          unit: 'steps',
          message: step === 1 ? `footprints; ${message}` : message,
        }),
    });
    ctx.progress({ task, done: 1, total: 3, unit: 'steps', message: 'footprints' });
    let made;
    let shakemap: EventLossOf['shakemap'];
    if (row.event_type === 'hurricane') {
      made = await fp.hurricaneFootprints(row as EventRow, input.observations, {
        members: input.members,
        seed: input.seed,
        bookColumns: files.PORTFOLIO_LOCATION_COLUMNS,
        meanwhile: async () => {
          prepared = prepareEventLoss(
            needed!,
            fp.HURRICANE_EVENT_PERILS,
            1 + input.members,
            lossOptions(writeBook(), 1),
          );
          // Awaited by the run below; not an unhandled rejection should the footprints fail first.
          prepared.catch(() => undefined);
          await prepared;
        },
      });
    } else if (row.event_type === 'earthquake') {
      shakemap = input.shakemap ?? (await storedShakeMap(ctx, row.id, input.at ?? ctx.clock().toISOString()));
      made = await fp.earthquakeFootprints(row as EventRow, { dataDir, shakemap });
    } else {
      throw new CatintelError(
        'validation_failed',
        `event ${row.slug} is a ${row.event_type}: event losses are computed for hurricanes and earthquakes, the perils with a model package`,
        { errors: [{ field: 'event_id', message: `a ${row.event_type}, not a hurricane or an earthquake` }] },
      );
    }
    ctx.progress({ task, done: 2, total: 3, unit: 'steps', message: 'keys, Oasis input files and losses' });
    const r = await runEventLoss(made.footprints, lossOptions(book ?? writeBook()), prepared);
    const perspective = (which: 'gul' | 'il'): PerspectiveBody => {
      const p = r[which];
      const obs = (x: number | null) => (x === null ? null : cents(x));
      return {
        ...band(p.band),
        ObservedSoFarLossAmt: obs(p.observedSoFar),
        by_peril: Object.fromEntries(
          Object.entries(p.byPeril).map(([peril, v]) => [
            peril,
            { ...band(v.band), ObservedSoFarLossAmt: obs(v.observedSoFar) },
          ]),
        ),
      };
    };
    const currencies = [...new Set(locations.map((l) => l.currency))];
    let tiv = 0;
    for (const l of locations)
      tiv += (l.tiv.building || 0) + (l.tiv.contents || 0) + (l.tiv.bi || 0) + (l.tiv.other || 0);
    const pkg = r.run.packages[0];
    const members = made.footprints.bandEvents.length;
    const body: EventLossBody = {
      PortfolioId: input.portfolioId,
      // The loss is made from the event's record (its fixes, origin, ShakeMap): that record's provenance.
      ...provenanceOf(row),
      event: {
        id: row.id,
        slug: row.slug,
        title: row.title,
        event_type: row.event_type,
        source: row.source,
        source_id: row.source_id,
        status: row.status,
      },
      footprint: made.source,
      perils: [...made.footprints.perils],
      members,
      samples: input.samples,
      seed: input.seed,
      model_version: pkg ? pkg.model : 'none',
      CurCd: currencies.length === 1 ? currencies[0] : null,
      NumLocations: locations.length,
      NumLocationsModelled: r.locationsKeyed,
      NumLocationsInFootprint: r.locationsInFootprint,
      TotalInsuranceAmt: cents(tiv),
      TIVInFootprintAmt: cents(r.tivInFootprint),
      TIVInFootprintAmtByPeril: Object.fromEntries(
        Object.entries(r.tivInFootprintByPeril).map(([p, v]) => [p, cents(v)]),
      ),
      gul: perspective('gul'),
      il: perspective('il'),
      as_of: ctx.clock().toISOString(),
      method: methodText(made.source, members, input),
    };
    ctx.progress({ task, done: 3, total: 3, unit: 'steps', message: 'done' });
    const notes: string[] = [];
    for (const m of r.run.packages)
      if (m.locationsNotReached > 0)
        notes.push(
          `${m.locationsNotReached} locations are not reached by the ${m.folder} model for some of ${m.perils.join(', ')} and add no loss there: ${m.notReachedReason}`,
        );
    if (row.event_type === 'earthquake' && shakemap === undefined)
      notes.push(
        "no ShakeMap grid stored for this earthquake (ingest its grid.xml: catintel ingest usgs-earthquakes --shakemap grid.xml) nor given (the CLI's --shakemap): the footprints are the model's ground motion from the origin",
      );
    else if (row.event_type === 'earthquake' && input.shakemap === undefined)
      notes.push(
        `the ShakeMap grid the store kept for this earthquake: ${made.source.version}, read from ${shakemap!.name}`,
      );
    if (made.source.forecast === 'persistence')
      notes.push(
        "no NHC forecast stored for this storm: its remaining track is persistence (the latest motion carried forward), spread by NHC's average forecast errors",
      );
    return { body, notes };
  } finally {
    // The kernel threads a prepared run started (a failure may come before the run that uses them).
    await prepared?.then(
      (p) => p.pool?.close(),
      () => undefined,
    );
    files.forgetPortfolioLocations(work);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The ShakeMap grid ingest kept for the earthquake by `at`, as a footprint source. */
async function storedShakeMap(ctx: Context, eventId: string, at: string): Promise<EventLossOf['shakemap']> {
  const { shakeMapGridAt } = await import('../store/shakemap-grids.js');
  const stored = await shakeMapGridAt(ctx.db, eventId, at);
  return stored ? { grid: stored.grid, name: stored.from } : undefined;
}

function methodText(s: FootprintSource, members: number, input: Pick<EventLossOf, 'samples' | 'seed'>): string {
  const what =
    s.kind === 'observed_track_and_forecast_ensemble'
      ? `the observed track (${s.version}) and ${members} members of its remaining ${s.forecast_hours ?? 0} h (${s.forecast === 'nhc' ? "NHC's forecast" : s.forecast === 'persistence' ? 'persistence' : 'none: the storm has ended'}) shifted along and across the motion and in intensity by NHC's average forecast errors, each through the hurricane model's wind and surge footprint`
      : s.kind === 'shakemap'
        ? `the ${s.version} PGA with its STDPGA uncertainty on the earthquake package grid`
        : `the earthquake model's ground motion (median and σ) from the origin, ${members} rupture strikes`;
  return `${what} -> an event package beside the model package -> the stored locations (as an OED location file; no financial terms: insured equals ground-up) -> the package's keys, Oasis input files and catintel's loss kernel, ${input.samples} damage samples per member (seed ${input.seed}) -> mean and P10/P50/P90 over every (member, sample); docs/event-loss.md`;
}
