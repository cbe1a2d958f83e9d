/**
 * GET /portfolio/event-loss?portfolio_id=&event_id=&members=&samples=&seed= and
 * `catintel portfolio event-loss ID --event EVENT [--members N] [--samples N] [--seed S] [--shakemap grid.xml]
 * [--models DIR]` (docs/event-loss.md): a portfolio's loss from an event that is happening. The event's
 * footprints (a hurricane's observed track and an ensemble of its forecast, an earthquake's ShakeMap or the
 * model's ground motion from its origin) run through the model package's vulnerabilities and the loss
 * kernel: ground-up and insured loss, mean and P10/P50/P90 over the ensemble and the damage samples, by
 * peril, with the TIV in the footprint and the product version the footprints came from. `--shakemap` and
 * `--models` are the CLI's: over HTTP the server reads no file of the caller's.
 */
import { provenanceOf, type Provenance } from '../domain/provenance.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatintelError, invalidParameter } from '../errors.js';
import { packageRoot } from '../lib/package-root.js';
import { int, required, str } from './params.js';
import { defineHandler } from './types.js';
import type { FootprintSource } from '../event-loss/event-footprints.js';
import type { LossBand } from '../event-loss/loss-band.js';

export const DEFAULT_MEMBERS = 50;
export const MAX_MEMBERS = 500;
export const DEFAULT_EVENT_SEED = 1;
export const DEFAULT_EVENT_SAMPLES = 10;
export const MAX_EVENT_SAMPLES = 1000;
/**
 * Over HTTP the loss runs in the server process, beside every other request: its members and samples are
 * capped so one request costs a few seconds of CPU (docs/event-loss.md "Limits": about 0.2 s of CPU per
 * member on a 10-location book, the base cost 2 to 3 s). The CLI, on the caller's own machine, keeps the
 * larger limits above.
 */
export const HTTP_MAX_MEMBERS = 20;
export const HTTP_MAX_EVENT_SAMPLES = 100;
export const HTTP_DEFAULT_MEMBERS = HTTP_MAX_MEMBERS;

export interface EventLossInput {
  portfolioId: string;
  eventId: string;
  members: number;
  samples: number;
  seed: number;
  shakemap?: string;
  modelsDir?: string;
}

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
const CLI_ONLY = ['shakemap', 'models'] as const;

export const portfolioEventLoss = defineHandler<EventLossInput, EventLossBody>({
  name: 'portfolio.event_loss',
  summary:
    "A portfolio's loss from a live event: ground-up and insured mean and P10/P50/P90 over the event's footprint ensemble, by peril, with the TIV in the footprint and the advisory or ShakeMap version used",
  http: { method: 'GET', path: '/portfolio/event-loss', access: 'agency', perAccount: true },
  cli: {
    command: ['portfolio', 'event-loss'],
    args: ['portfolio_id'],
    options: [
      {
        flags: '--event <id>',
        description: 'the event (id, slug or source id, e.g. al092022): a hurricane or an earthquake',
      },
      {
        flags: '--members <n>',
        description: `hurricane: forecast ensemble members (default ${DEFAULT_MEMBERS}, 1 to ${MAX_MEMBERS})`,
      },
      {
        flags: '--samples <n>',
        description: `damage samples per member and location (default ${DEFAULT_EVENT_SAMPLES}, 0 to ${MAX_EVENT_SAMPLES}; 0: analytical means only)`,
      },
      {
        flags: '--seed <s>',
        description: `seed of the ensemble and the damage sampling (default ${DEFAULT_EVENT_SEED}); same inputs and seed, same answer`,
      },
      {
        flags: '--shakemap <file>',
        description:
          "earthquake: the USGS ShakeMap grid.xml whose PGA and its uncertainty make the footprint (without it, the model's ground motion from the origin)",
      },
      {
        flags: '--models <dir>',
        description:
          'the folder holding the model packages (default env CATINTEL_MODELS, else models/ under the project folder)',
      },
    ],
    examples: [
      'catintel portfolio event-loss <portfolio-id> --event al092022',
      'catintel --as-of 2022-09-28T12:00:00Z portfolio event-loss <portfolio-id> --event al092022 --json',
      'catintel portfolio event-loss <portfolio-id> --event nc216859 --shakemap grid.xml',
    ],
    paths: ['shakemap', 'models'],
  },
  parse(raw, caller) {
    const overHttp = caller.clientIp !== undefined;
    if (overHttp) {
      const used = CLI_ONLY.find((n) => str(raw, n) !== undefined);
      if (used)
        throw invalidParameter(
          used,
          'shakemap and models are options of the CLI; over HTTP give portfolio_id and event_id',
        );
    }
    const portfolioId = required(raw, 'portfolio_id');
    const eventId = str(raw, 'event_id') ?? str(raw, 'event');
    if (eventId === undefined)
      throw invalidParameter(
        overHttp ? 'event_id' : 'event',
        overHttp
          ? 'event_id is required: the live event (id, slug or source id)'
          : '--event EVENT is required: the live event (id, slug or source id, e.g. al092022)',
      );
    if (eventId.length > 200) throw invalidParameter('event_id', 'too long to be an event id, slug or source id');
    const resolved = (v: string | undefined) => (v === undefined ? undefined : path.resolve(v));
    return {
      portfolioId,
      eventId,
      members: int(
        raw,
        'members',
        { min: 1, max: overHttp ? HTTP_MAX_MEMBERS : MAX_MEMBERS },
        overHttp ? HTTP_DEFAULT_MEMBERS : DEFAULT_MEMBERS,
      ),
      samples: int(
        raw,
        'samples',
        { min: 0, max: overHttp ? HTTP_MAX_EVENT_SAMPLES : MAX_EVENT_SAMPLES },
        DEFAULT_EVENT_SAMPLES,
      ),
      seed: int(raw, 'seed', { min: 1, max: 2 ** 32 - 1 }, DEFAULT_EVENT_SEED),
      shakemap: resolved(str(raw, 'shakemap')),
      modelsDir: resolved(str(raw, 'models')),
    };
  },
  async run(ctx, input, caller) {
    const [{ readPortfolioLocations }, { requireEvent }, { observationsOf }, files, fp, { runEventLoss }] =
      await Promise.all([
        import('../portfolios/read.js'),
        import('./event-lookup.js'),
        import('../store/events-read.js'),
        import('../epcurve/book-files.js'),
        import('../event-loss/event-footprints.js'),
        import('../event-loss/run-event-loss.js'),
      ]);
    const task = 'event loss';
    ctx.progress({ task, done: 0, total: 3, unit: 'steps', message: 'reading the portfolio and the event' });
    const locations = await readPortfolioLocations(ctx.db, caller.account, input.portfolioId);
    if (!locations)
      throw new CatintelError(
        'not_found',
        `no portfolio ${input.portfolioId} in account ${caller.account}; \`catintel portfolio list\` shows yours`,
      );
    const row = await requireEvent(ctx, input.eventId);
    const dataDir = path.resolve(
      ctx.config.env?.CATINTEL_SHARED_DATA ?? path.join(packageRoot(), '..', 'shared', 'data'),
    );
    const modelsDir = path.resolve(
      input.modelsDir ?? ctx.config.env?.CATINTEL_MODELS ?? path.join(packageRoot(), 'models'),
    );
    if (input.shakemap !== undefined && row.event_type !== 'earthquake')
      throw invalidParameter(
        'shakemap',
        `--shakemap is an earthquake's ShakeMap; event ${row.slug} is a ${row.event_type}`,
      );
    ctx.progress({ task, done: 1, total: 3, unit: 'steps', message: 'footprints' });
    let made;
    if (row.event_type === 'hurricane') {
      made = await fp.hurricaneFootprints(row, await observationsOf(ctx.db, row.id), {
        members: input.members,
        seed: input.seed,
      });
    } else if (row.event_type === 'earthquake') {
      const { readShakeMapPgaFile } = await import('../sources/shakemap.js');
      const shakemap =
        input.shakemap !== undefined
          ? { grid: await readShakeMapPgaFile(input.shakemap), name: input.shakemap }
          : undefined;
      made = await fp.earthquakeFootprints(row, { dataDir, shakemap });
    } else {
      throw new CatintelError(
        'validation_failed',
        `event ${row.slug} is a ${row.event_type}: event losses are computed for hurricanes and earthquakes, the perils with a model package`,
        {
          errors: [{ field: 'event_id', message: `a ${row.event_type}, not a hurricane or an earthquake` }],
        },
      );
    }
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-event-loss-'));
    try {
      const location = files.writePortfolioLocations(work, locations);
      const account = files.writeDefaultAccount(work, location);
      ctx.progress({ task, done: 2, total: 3, unit: 'steps', message: 'keys, Oasis input files and losses' });
      const r = await runEventLoss(made.footprints, {
        location,
        account,
        modelsDir,
        dataDir,
        samples: input.samples,
        seed: input.seed,
        workDir: work,
        progress: (message) => ctx.progress({ task, done: 2, total: 3, unit: 'steps', message }),
      });
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
        if (m.locationsNotReached.length > 0)
          notes.push(
            `${m.locationsNotReached.length} locations are not reached by the ${m.folder} model for some of ${m.perils.join(', ')} and add no loss there: ${m.locationsNotReached[0].message}`,
          );
      if (row.event_type === 'earthquake' && input.shakemap === undefined)
        notes.push(
          "no ShakeMap grid given: the footprints are the model's ground motion from the origin (the CLI takes --shakemap grid.xml)",
        );
      if (made.source.forecast === 'persistence')
        notes.push(
          "no NHC forecast stored for this storm: its remaining track is persistence (the latest motion carried forward), spread by NHC's average forecast errors",
        );
      return { body, notes };
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  },
});

function methodText(s: FootprintSource, members: number, input: EventLossInput): string {
  const what =
    s.kind === 'observed_track_and_forecast_ensemble'
      ? `the observed track (${s.version}) and ${members} members of its remaining ${s.forecast_hours ?? 0} h (${s.forecast === 'nhc' ? "NHC's forecast" : s.forecast === 'persistence' ? 'persistence' : 'none: the storm has ended'}) shifted along and across the motion and in intensity by NHC's average forecast errors, each through the hurricane model's wind and surge footprint`
      : s.kind === 'shakemap'
        ? `the ${s.version} PGA with its STDPGA uncertainty on the earthquake package grid`
        : `the earthquake model's ground motion (median and σ) from the origin, ${members} rupture strikes`;
  return `${what} -> an event package beside the model package -> the stored locations (as OED, one account, no terms: insured equals ground-up) -> the package's keys, Oasis input files and catintel's loss kernel, ${input.samples} damage samples per member (seed ${input.seed}) -> mean and P10/P50/P90 over every (member, sample); docs/event-loss.md`;
}
