/**
 * GET /portfolio/event-loss?portfolio_id=&event_id=&members=&samples=&seed= and
 * `catintel portfolio event-loss ID --event EVENT [--members N] [--samples N] [--seed S] [--shakemap grid.xml]
 * [--models DIR] [--over-versions [--plot band.svg|png]]` (docs/event-loss.md): a portfolio's loss from an event that is happening. The event's
 * footprints (a hurricane's observed track and an ensemble of its forecast, an earthquake's ShakeMap or the
 * model's ground motion from its origin) run through the model package's vulnerabilities and the loss
 * kernel: ground-up and insured loss, mean and P10/P50/P90 over the ensemble and the damage samples, by
 * peril, with the TIV in the footprint and the product version the footprints came from. `--over-versions`
 * answers the band at each stored version of the event instead (and `--plot` draws it). `--shakemap`,
 * `--models`, `--over-versions` and `--plot` are the CLI's: over HTTP the server reads and writes no file of
 * the caller's, and one request runs one version.
 */
import path from 'node:path';
import { CatintelError, invalidParameter } from '../errors.js';
import { int, required, str } from './params.js';
import { defineHandler } from './types.js';
import type { EventLossBody } from '../event-loss/portfolio-loss.js';
import type { LossOverVersionsBody } from '../event-loss/loss-over-versions.js';

export type { EventLossBody, LossOverVersionsBody };

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
const HTTP_DEFAULT_MEMBERS = HTTP_MAX_MEMBERS;

export interface EventLossInput {
  portfolioId: string;
  eventId: string;
  members: number;
  samples: number;
  seed: number;
  shakemap?: string;
  modelsDir?: string;
  overVersions: boolean;
  plot?: string;
}

const CLI_ONLY = ['shakemap', 'models', 'over_versions', 'plot'] as const;

function bool(raw: Record<string, unknown>, name: string): boolean {
  const v = raw[name];
  if (v === undefined || v === false || v === 'false' || v === '0' || v === '') return false;
  if (v === true || v === 'true' || v === '1') return true;
  throw invalidParameter(name, `"${String(v)}" is not true or false`);
}

export const portfolioEventLoss = defineHandler<EventLossInput, EventLossBody | LossOverVersionsBody>({
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
          "earthquake: the USGS ShakeMap grid.xml whose PGA and its uncertainty make the footprint (without it, the grid an ingest kept for the event, else the model's ground motion from the origin)",
      },
      {
        flags: '--over-versions',
        description:
          'the band at each stored version of the event (each advisory or ShakeMap an ingest kept), oldest first, instead of the event as it is now',
      },
      {
        flags: '--plot <file>',
        description:
          'with --over-versions: draw the band over the versions (mean, P50, P10-P90 by advisory time) to FILE, .svg or .png',
      },
      {
        flags: '--models <dir>',
        description:
          'the folder holding the model packages (default env CATINTEL_MODELS, else models/ under the project folder)',
      },
      {
        flags: '--format <format>',
        description:
          'json (default: the answer on stdout) | arrow: an Arrow IPC file of one row per perspective (gul, il) and peril (all, then each), with the JSON names (needs --out)',
      },
      { flags: '--out <file>', description: 'the file --format arrow writes (replaced whole when written)' },
    ],
    examples: [
      'catintel portfolio event-loss <portfolio-id> --event al092022',
      'catintel --as-of 2022-09-28T12:00:00Z portfolio event-loss <portfolio-id> --event al092022 --json',
      'catintel portfolio event-loss <portfolio-id> --event nc216859 --shakemap grid.xml',
      'catintel portfolio event-loss <portfolio-id> --event al092022 --over-versions --plot ian-loss-band.png',
      'catintel portfolio event-loss <portfolio-id> --event al092022 --format arrow --out ian-loss.arrow',
    ],
    paths: ['shakemap', 'models', 'plot', 'out'],
    tableFile: true,
  },
  parse(raw, caller) {
    const overHttp = caller.clientIp !== undefined;
    if (overHttp) {
      const used = CLI_ONLY.find((n) => str(raw, n) !== undefined);
      if (used)
        throw invalidParameter(
          used,
          'shakemap, models, over_versions and plot are options of the CLI; over HTTP give portfolio_id and event_id',
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
    const overVersions = bool(raw, 'over_versions');
    const plot = str(raw, 'plot');
    if (plot !== undefined && !overVersions)
      throw invalidParameter('plot', '--plot draws the band over the versions: give --over-versions too');
    if (plot !== undefined && !/\.(svg|png)$/i.test(plot))
      throw invalidParameter('plot', `"${plot}" must end in .svg or .png (the picture's format)`);
    if (overVersions && raw.format !== undefined && raw.format !== 'json')
      throw invalidParameter(
        'format',
        `--over-versions answers one band per version, which has no --format ${String(raw.format)}; give --json (or --plot)`,
      );
    if (overVersions && raw.shakemap !== undefined)
      throw invalidParameter(
        'shakemap',
        '--shakemap is one grid.xml; --over-versions runs the versions the store kept',
      );
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
      overVersions,
      plot: resolved(plot),
    };
  },
  async run(ctx, input, caller) {
    const [{ readPortfolioLocations }, { requireEvent }, { observationsOf }, { eventLossOf }] = await Promise.all([
      import('../portfolios/read.js'),
      import('./event-lookup.js'),
      import('../store/events-read.js'),
      import('../event-loss/portfolio-loss.js'),
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
    if (input.shakemap !== undefined && row.event_type !== 'earthquake')
      throw invalidParameter(
        'shakemap',
        `--shakemap is an earthquake's ShakeMap; event ${row.slug} is a ${row.event_type}`,
      );
    if (input.overVersions) {
      const { lossOverVersions } = await import('../event-loss/loss-over-versions.js');
      return lossOverVersions(ctx, {
        portfolioId: input.portfolioId,
        locations,
        row,
        members: input.members,
        samples: input.samples,
        seed: input.seed,
        modelsDir: input.modelsDir,
        plot: input.plot,
      });
    }
    let shakemap;
    if (input.shakemap !== undefined) {
      const { readShakeMapPgaFile } = await import('../sources/shakemap.js');
      shakemap = { grid: await readShakeMapPgaFile(input.shakemap), name: input.shakemap };
    }
    return eventLossOf(ctx, {
      portfolioId: input.portfolioId,
      locations,
      row,
      observations: row.event_type === 'hurricane' ? await observationsOf(ctx.db, row.id) : [],
      members: input.members,
      samples: input.samples,
      seed: input.seed,
      shakemap,
      modelsDir: input.modelsDir,
    });
  },
});
