/**
 * The briefing's live-loss section (docs/reports.md, docs/event-loss.md "In the briefing"): for each of the
 * caller's portfolios the briefed hurricane or earthquake reached (a portfolio alert of the event), its loss
 * band on the event's latest stored version, with that version. The band the stream's loss queue kept for
 * that version (portfolio_event_losses) when there is one; else computed now through the one loss engine at
 * the server's caps (src/stream/portfolio-loss.ts), at most COMPUTED_PER_BRIEFING of them so that a
 * briefing stays a few seconds a portfolio; the rest are listed as not computed.
 */
import type { Caller } from '../caller.js';
import type { Context } from '../context.js';
import { listEventVersions, readEventVersion } from '../store/event-history.js';
import { observationsOf, type EventRow } from '../store/events-read.js';
import { STREAM_MEMBERS, STREAM_SAMPLES, STREAM_SEED } from '../stream/portfolio-loss.js';
import type { PortfolioLossRow } from './domain/inputs.js';

export const COMPUTED_PER_BRIEFING = 3;

export async function portfolioLossesOf(
  ctx: Context,
  caller: Caller,
  eventId: string,
): Promise<{ rows: PortfolioLossRow[] } | { rows: []; reason: string }> {
  if (caller.account === undefined || caller.account.startsWith('ip:'))
    return { rows: [], reason: 'your portfolios are shown to an authenticated caller only' };
  const [row] = await ctx.db.all<{ event_type: string }>(`SELECT event_type FROM events WHERE id = $id::UUID`, {
    id: eventId,
  });
  if (!row || !['hurricane', 'earthquake'].includes(row.event_type))
    return {
      rows: [],
      reason: 'live losses are computed for hurricanes and earthquakes, the perils with a model package',
    };
  const exposed = await ctx.db.all<{ id: string; name: string }>(
    `SELECT DISTINCT p.id, p.name FROM portfolio_alerts a JOIN portfolios p ON p.id = a.portfolio_id
      WHERE a.event_id = $event AND p.account = $account ORDER BY p.name, p.id`,
    { event: eventId, account: caller.account },
  );
  if (exposed.length === 0) return { rows: [], reason: "no portfolio of yours is inside the event's rings" };
  const now = ctx.clock().toISOString();
  const versions = await listEventVersions(ctx.db, eventId, now);
  const latest = versions.length ? versions[versions.length - 1] : null;
  const out: PortfolioLossRow[] = [];
  let computed = 0;
  for (const p of exposed) {
    const kept = latest
      ? await ctx.db.all<{ body: string }>(
          `SELECT body::VARCHAR AS body FROM portfolio_event_losses WHERE portfolio_id = $p AND event_id = $e::UUID AND version = $v`,
          { p: p.id, e: eventId, v: latest.version },
        )
      : [];
    let body = kept.length ? JSON.parse(kept[0].body) : null;
    const how = kept.length ? 'kept by the stream' : 'computed for this briefing';
    if (!body && computed < COMPUTED_PER_BRIEFING) {
      computed++;
      try {
        body = await lossNow(ctx, caller.account, p.id, eventId, latest?.version ?? null, now);
      } catch (err) {
        out.push({
          portfolio: p.name,
          id: p.id,
          version: latest?.product_version ?? null,
          band: null,
          reason: (err as Error).message,
        });
        continue;
      }
    }
    out.push(
      body
        ? {
            portfolio: p.name,
            id: p.id,
            version: body.footprint.version,
            band: {
              mean: body.gul.MeanLossAmt,
              p10: body.gul.P10LossAmt,
              p50: body.gul.P50LossAmt,
              p90: body.gul.P90LossAmt,
              tivInFootprint: body.TIVInFootprintAmt,
              currency: body.CurCd,
              members: body.members,
              samples: body.samples,
              how,
            },
          }
        : {
            portfolio: p.name,
            id: p.id,
            version: latest?.product_version ?? null,
            band: null,
            reason: `not computed (at most ${COMPUTED_PER_BRIEFING} a briefing): catintel portfolio event-loss ${p.id} --event ${eventId}`,
          },
    );
  }
  return { rows: out };
}

async function lossNow(
  ctx: Context,
  account: string,
  portfolioId: string,
  eventId: string,
  version: number | null,
  now: string,
) {
  const [{ readPortfolioLocations }, { eventLossOf }, { eventsByIds }] = await Promise.all([
    import('../portfolios/read.js'),
    import('../event-loss/portfolio-loss.js'),
    import('../store/events-read.js'),
  ]);
  const locations = await readPortfolioLocations(ctx.db, account, portfolioId);
  if (!locations) throw new Error('portfolio gone');
  const v = version === null ? null : await readEventVersion(ctx.db, eventId, version);
  const row: Omit<EventRow, 'sort_us'> = v ? v.event : (await eventsByIds(ctx.db, [eventId], now))[0];
  const observations = v ? v.observations : await observationsOf(ctx.db, eventId);
  const { body } = await eventLossOf(
    { ...ctx, progress: () => {} },
    {
      portfolioId,
      locations,
      row,
      observations,
      at: v ? v.stored_at : now, // the ShakeMap grid stored with this version (or by now)
      members: STREAM_MEMBERS,
      samples: STREAM_SAMPLES,
      seed: STREAM_SEED,
    },
  );
  return body;
}
