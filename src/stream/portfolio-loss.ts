/**
 * `portfolio.loss` on the stream (docs/stream.md, docs/event-loss.md "On the stream"): when an ingest stores a
 * new version of a hurricane or an earthquake (src/store/event-history.ts), every portfolio the event's rings
 * reached (a portfolio alert of the event: covered locations inside a ring) gets its loss band recomputed on
 * that version and pushed to its account's streams, with the version used and the change from the band of the
 * last version pushed. Off the request path: the feed hands new versions to this queue and goes on; the queue
 * runs one loss at a time in the background, each at the server's caps (STREAM_MEMBERS, STREAM_SAMPLES, the
 * HTTP limits of GET /portfolio/event-loss), and holds at most MAX_PENDING jobs (the oldest dropped, logged:
 * a later version of the same event supersedes them anyway). Each band is kept in portfolio_event_losses.
 */
import type { Context } from '../context.js';
import { provenanceOf } from '../domain/provenance.js';
import { bandDelta } from '../event-loss/domain/version-diff.js';
import { listValue } from '../store/duckdb.js';
import { readEventVersion, versionsAfter } from '../store/event-history.js';
import type { ChangeBody } from './messages.js';

/** The server's caps of one loss (the HTTP limits of GET /portfolio/event-loss, docs/event-loss.md "Limits"). */
export const STREAM_MEMBERS = 20;
export const STREAM_SAMPLES = 10;
export const STREAM_SEED = 1;
export const MAX_PENDING = 100;

interface Job {
  event_id: string;
  version: number;
  portfolio_id: string;
  account: string;
  name: string;
}

const BAND_KEYS = ['MeanLossAmt', 'P10LossAmt', 'P50LossAmt', 'P90LossAmt'] as const;
type Band = Record<(typeof BAND_KEYS)[number], number>;
const bandOf = (b: Band): Band => Object.fromEntries(BAND_KEYS.map((k) => [k, b[k]])) as Band;

export class PortfolioLossQueue {
  private seen: Map<string, number> | undefined;
  private readonly pending: Job[] = [];
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly ctx: Context,
    private readonly publish: (body: ChangeBody, account: string) => void,
  ) {}

  /** The versions stored before the feed started are not pushed: only those an ingest adds from now on. */
  async start(): Promise<void> {
    this.seen = new Map((await versionsAfter(this.ctx.db, new Map(), this.now())).map((v) => [v.event_id, v.version]));
  }

  private now(): string {
    return this.ctx.clock().toISOString();
  }

  /** Called after every store change: queues the exposed portfolios of each new version and returns at once. */
  async check(): Promise<void> {
    if (!this.seen || this.closed) return;
    const fresh = await versionsAfter(this.ctx.db, this.seen, this.now());
    // One query for every new version: an ingest of a week's feed brings thousands (one query each took seconds).
    const exposedBy = new Map<string, { id: string; account: string; name: string }[]>();
    if (fresh.length > 0) {
      const rows = await this.ctx.db.all<{ event_id: string; id: string; account: string; name: string }>(
        `SELECT DISTINCT a.event_id, p.id, p.account, p.name FROM portfolio_alerts a JOIN portfolios p ON p.id = a.portfolio_id
          WHERE a.event_id IN (SELECT unnest($events::VARCHAR[])) ORDER BY a.event_id, p.id`,
        { events: listValue(fresh.map((v) => v.event_id)) },
      );
      for (const r of rows) {
        const list = exposedBy.get(r.event_id);
        if (list) list.push(r);
        else exposedBy.set(r.event_id, [r]);
      }
    }
    for (const v of fresh) {
      this.seen.set(v.event_id, v.version);
      for (const p of exposedBy.get(v.event_id) ?? [])
        this.pending.push({
          event_id: v.event_id,
          version: v.version,
          portfolio_id: p.id,
          account: p.account,
          name: p.name,
        });
    }
    while (this.pending.length > MAX_PENDING) {
      const dropped = this.pending.shift()!;
      this.ctx.log('warn', 'portfolio loss queue full: a loss dropped', { ...dropped });
    }
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  /** Resolves when every queued loss has run (tests, server stop). */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  close(): void {
    this.closed = true;
    this.pending.length = 0;
  }

  private async drain(): Promise<void> {
    for (let job = this.pending.shift(); job && !this.closed; job = this.pending.shift()) {
      try {
        const body = await this.run(job);
        if (body && !this.closed) this.publish(body, job.account);
      } catch (err) {
        this.ctx.log('warn', 'portfolio loss on the stream failed', { ...job, error: (err as Error).message });
      }
    }
  }

  private async run(job: Job): Promise<ChangeBody | null> {
    const [{ readPortfolioLocations }, { eventLossOf }] = await Promise.all([
      import('../portfolios/read.js'),
      import('../event-loss/portfolio-loss.js'),
    ]);
    const v = await readEventVersion(this.ctx.db, job.event_id, job.version);
    const locations = await readPortfolioLocations(this.ctx.db, job.account, job.portfolio_id);
    if (!v || !locations) return null;
    const quiet: Context = { ...this.ctx, progress: () => {} };
    const { body } = await eventLossOf(quiet, {
      portfolioId: job.portfolio_id,
      locations,
      row: v.event,
      observations: v.observations,
      at: v.stored_at, // the ShakeMap grid stored with this version
      members: STREAM_MEMBERS,
      samples: STREAM_SAMPLES,
      seed: STREAM_SEED,
    });
    const prev = await this.ctx.db.all<{ version: number; body: string }>(
      `SELECT version, body::VARCHAR AS body FROM portfolio_event_losses
        WHERE portfolio_id = $p AND event_id = $e::UUID AND version < $v ORDER BY version DESC LIMIT 1`,
      { p: job.portfolio_id, e: job.event_id, v: job.version },
    );
    await this.ctx.db.run(
      `INSERT INTO portfolio_event_losses VALUES ($p, $e::UUID, $v, $account, $now::TIMESTAMP, $body::JSON) ON CONFLICT DO NOTHING`,
      {
        p: job.portfolio_id,
        e: job.event_id,
        v: job.version,
        account: job.account,
        now: this.now(),
        body: JSON.stringify(body),
      },
    );
    const before = prev.length ? (JSON.parse(prev[0].body) as typeof body) : null;
    return {
      type: 'portfolio.loss',
      portfolio_id: job.portfolio_id,
      name: job.name,
      event_id: job.event_id,
      slug: v.event.slug,
      version: job.version,
      product_version: v.product_version,
      footprint: body.footprint,
      members: body.members,
      samples: body.samples,
      CurCd: body.CurCd,
      TIVInFootprintAmt: body.TIVInFootprintAmt,
      gul: bandOf(body.gul),
      il: bandOf(body.il),
      previous: before
        ? {
            version: Number(prev[0].version),
            product_version: before.footprint.version,
            TIVInFootprintAmt: before.TIVInFootprintAmt,
            gul: bandOf(before.gul),
          }
        : null,
      delta: before
        ? {
            TIVInFootprintAmt: Math.round((body.TIVInFootprintAmt - before.TIVInFootprintAmt) * 100) / 100,
            gul: bandDelta(bandOf(before.gul), bandOf(body.gul)),
          }
        : null,
      loss_url: `/api/v1/portfolio/event-loss?portfolio_id=${job.portfolio_id}&event_id=${job.event_id}`,
      ...provenanceOf(v.event),
    };
  }
}
