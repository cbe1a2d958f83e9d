/**
 * GET /events/{id}/diff?from=&to=[&portfolio_id=] and `catintel events diff EVENT --from VERSION --to VERSION
 * [--portfolio ID]` (agency, as the live loss; docs/event-diff.md): what changed between two stored product
 * versions of a hurricane or an earthquake (src/store/event-history.ts) so a desk sees why its number moved:
 * position and how far it moved, intensity, fixes added, rings added, removed and redrawn, the caller's
 * triggers' states at each version, and with a portfolio its TIV in the footprint and its loss band at each
 * version (the one loss engine, src/event-loss/portfolio-loss.ts) and their difference.
 */
import { provenanceOf } from '../domain/provenance.js';
import { CatintelError, invalidParameter } from '../errors.js';
import { eventIdParam, requireEvent } from './event-lookup.js';
import { int, str } from './params.js';
import { defineHandler } from './types.js';
import {
  DEFAULT_EVENT_SAMPLES,
  DEFAULT_EVENT_SEED,
  HTTP_MAX_EVENT_SAMPLES,
  HTTP_MAX_MEMBERS,
  MAX_EVENT_SAMPLES,
  MAX_MEMBERS,
} from './portfolio-event-loss.js';

/** Two versions' losses in one request: each is one event-loss answer, so the default members are the server's cap. */
export const DIFF_DEFAULT_MEMBERS = HTTP_MAX_MEMBERS;

interface DiffInput {
  id: string;
  from: number;
  to: number;
  portfolioId?: string;
  members: number;
  samples: number;
  seed: number;
}

export const eventsDiff = defineHandler({
  name: 'events.diff',
  summary:
    "What changed between two stored versions of a hurricane or an earthquake: position, intensity, rings, the caller's triggers' states, and a portfolio's TIV in the footprint and loss band",
  http: { method: 'GET', path: '/events/{id}/diff', access: 'agency', perAccount: true },
  cli: {
    command: ['events', 'diff'],
    args: ['id'],
    options: [
      {
        flags: '--from <version>',
        description: 'the earlier version (1, 2, ...: `catintel events diff ID` lists them)',
      },
      { flags: '--to <version>', description: 'the later version (default: the latest)' },
      {
        flags: '--portfolio <id>',
        description: 'a portfolio of yours: its TIV in the footprint and loss band at each version',
      },
      {
        flags: '--members <n>',
        description: `hurricane: forecast ensemble members of each version's loss (default ${DIFF_DEFAULT_MEMBERS}, 1 to ${MAX_MEMBERS}; over HTTP at most ${HTTP_MAX_MEMBERS})`,
      },
      {
        flags: '--samples <n>',
        description: `damage samples per member and location (default ${DEFAULT_EVENT_SAMPLES}, 0 to ${MAX_EVENT_SAMPLES}; over HTTP at most ${HTTP_MAX_EVENT_SAMPLES})`,
      },
      {
        flags: '--seed <s>',
        description: `seed of the ensembles and the damage sampling (default ${DEFAULT_EVENT_SEED})`,
      },
    ],
    examples: [
      'catintel events diff al092022 --from 1 --to 2',
      'catintel events diff al092022 --from 1 --to 2 --portfolio <portfolio-id> --json',
    ],
  },
  parse(raw, caller): DiffInput {
    const overHttp = caller.clientIp !== undefined;
    const from = int(raw, 'from', { min: 1, max: 1_000_000 }, 0);
    return {
      id: eventIdParam(raw),
      from,
      to: int(raw, 'to', { min: 1, max: 1_000_000 }, 0),
      portfolioId: str(raw, 'portfolio_id') ?? str(raw, 'portfolio'),
      members: int(raw, 'members', { min: 1, max: overHttp ? HTTP_MAX_MEMBERS : MAX_MEMBERS }, DIFF_DEFAULT_MEMBERS),
      samples: int(
        raw,
        'samples',
        { min: 0, max: overHttp ? HTTP_MAX_EVENT_SAMPLES : MAX_EVENT_SAMPLES },
        DEFAULT_EVENT_SAMPLES,
      ),
      seed: int(raw, 'seed', { min: 1, max: 2 ** 32 - 1 }, DEFAULT_EVENT_SEED),
    };
  },
  async run(ctx, input, caller) {
    const [{ listEventVersions, readEventVersion }, { versionDiff, bandDelta }, { triggerStatesAt }] =
      await Promise.all([
        import('../store/event-history.js'),
        import('../event-loss/domain/version-diff.js'),
        import('../triggers/states-at.js'),
      ]);
    const now = ctx.clock().toISOString();
    const row = await requireEvent(ctx, input.id);
    const versions = await listEventVersions(ctx.db, row.id, now);
    const listed = versions.map((v) => `${v.version} (${v.product_version}, stored ${v.stored_at})`).join('; ');
    if (versions.length === 0)
      throw new CatintelError(
        'not_found',
        `event ${row.slug} has no stored version: versions are kept for hurricanes and earthquakes from the ingest that first changes them`,
      );
    if (input.from === 0)
      throw invalidParameter('from', `from is required: the earlier version; event ${row.slug}'s versions: ${listed}`);
    const to = input.to || versions[versions.length - 1].version;
    for (const [name, v] of [
      ['from', input.from],
      ['to', to],
    ] as const)
      if (!versions.some((x) => x.version === v))
        throw invalidParameter(name, `event ${row.slug} has no version ${v}; its versions: ${listed}`);
    if (input.from > to)
      throw invalidParameter('from', `from (${input.from}) must not be a later version than to (${to})`);
    const [a, b] = [await readEventVersion(ctx.db, row.id, input.from), await readEventVersion(ctx.db, row.id, to)];
    const diff = versionDiff(a!, b!);
    const side = (v: typeof a) => ({
      version: v!.version,
      stored_at: v!.stored_at,
      product_version: v!.product_version,
    });

    let portfolio = null;
    if (input.portfolioId !== undefined) {
      const [{ readPortfolioLocations }, { eventLossOf }] = await Promise.all([
        import('../portfolios/read.js'),
        import('../event-loss/portfolio-loss.js'),
      ]);
      const locations = await readPortfolioLocations(ctx.db, caller.account, input.portfolioId);
      if (!locations)
        throw new CatintelError(
          'not_found',
          `no portfolio ${input.portfolioId} in account ${caller.account}; \`catintel portfolio list\` shows yours`,
        );
      const lossAt = async (v: NonNullable<typeof a>) =>
        (
          await eventLossOf(ctx, {
            portfolioId: input.portfolioId!,
            locations,
            row: v.event,
            observations: v.observations,
            at: v.stored_at, // the ShakeMap grid stored with this version
            members: input.members,
            samples: input.samples,
            seed: input.seed,
          })
        ).body;
      const [lf, lt] = [await lossAt(a!), await lossAt(b!)];
      const pick = (x: typeof lf) => ({
        footprint: x.footprint,
        TIVInFootprintAmt: x.TIVInFootprintAmt,
        NumLocationsInFootprint: x.NumLocationsInFootprint,
        gul: x.gul,
        il: x.il,
      });
      const { by_peril: _f, ObservedSoFarLossAmt: of, ...gf } = lf.gul;
      const { by_peril: _t, ObservedSoFarLossAmt: ot, ...gt } = lt.gul;
      void _f;
      void _t;
      portfolio = {
        PortfolioId: input.portfolioId,
        CurCd: lt.CurCd,
        TotalInsuranceAmt: lt.TotalInsuranceAmt,
        members: lt.members,
        samples: lt.samples,
        seed: lt.seed,
        from: pick(lf),
        to: pick(lt),
        change: {
          TIVInFootprintAmt: Math.round((lt.TIVInFootprintAmt - lf.TIVInFootprintAmt) * 100) / 100,
          gul: {
            ...bandDelta(gf, gt),
            ObservedSoFarLossAmt: of === null || ot === null ? null : Math.round((ot - of) * 100) / 100,
          },
        },
      };
    }
    const triggers = await triggerStatesAt(ctx.db, caller.account, row.id, [a!.stored_at, b!.stored_at]);
    return {
      body: {
        event: { id: row.id, slug: row.slug, title: row.title, event_type: row.event_type },
        ...provenanceOf(row),
        from: side(a),
        to: side(b),
        ...diff,
        triggers: triggers.map((t) => ({
          trigger_id: t.trigger_id,
          name: t.name,
          from: t.states[0],
          to: t.states[1],
          changed: t.states[0].state !== t.states[1].state,
        })),
        portfolio,
        versions,
        as_of: now,
        method:
          "two stored versions of the event (each ingest that changed it kept its row, observations and rings' summaries; docs/event-diff.md): position = a storm's latest fix or a quake's epicentre, moved_km the great-circle distance between them; intensity = severity and the latest wind and pressure; rings by kind and label, redrawn when the geometry changed; triggers = each of your triggers' latest history entry on this event evaluated by each version's storing time; portfolio = GET /portfolio/event-loss run on each version (docs/event-loss.md) with the same members, samples and seed, and its change",
      },
    };
  },
});
