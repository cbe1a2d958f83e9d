/**
 * The change feed of one server: the live set diffed after every store change (the `storeChanged()` hook
 * of `catintel serve`: an ingest in the server, or a command through the local channel) and on a timer,
 * each change numbered and kept in a bounded backlog (backlog.ts) for Last-Event-ID resume. Why a diff and
 * not a change log written by ingest: every writer already runs inside the server (the one owner of the
 * store), and a diff also sees what no writer does, an event ending because the clock passed its end.
 * The stored probabilities to trigger now are re-read only after a change that can move them (store-change.ts).
 */
import type { Context } from '../context.js';
import { eventFeature } from '../domain/features.js';
import { eventsByIds } from '../store/events-read.js';
import { Backlog } from './backlog.js';
import { diffLive, type Diffed } from './diff.js';
import { streamDefaults } from './limits.js';
import type { Change, EventFeature } from './messages.js';
import { liveSnapshot, type LiveSnapshot } from './snapshot.js';
import { diffProbabilities, probabilitySnapshot, type ProbabilitySnapshot } from './trigger-probability.js';
import { diffTriggers, movedTriggers, stateProvenance, triggerSnapshot, type TriggerSnapshot } from './triggers.js';
import { alertSnapshot, diffAlerts, type AlertSnapshot } from '../locations/stream-alerts.js';
import { PortfolioLossQueue } from './portfolio-loss.js';
import type { ChangeBody } from './messages.js';
import { ANY_CHANGE, CLOCK_ONLY, type StoreChange } from './store-change.js';

export type Resume = { kind: 'changes'; changes: Change[] } | { kind: 'reset'; reason: string };

export interface FeedOptions {
  backlogSize?: number;
  tickMs?: number;
}

export class ChangeFeed {
  /** Identifies this run of the feed in stream ids: an id from an earlier run cannot be resumed exactly. */
  readonly epoch = Date.now().toString(36);
  private snapshot: LiveSnapshot | undefined;
  private triggers: TriggerSnapshot | undefined;
  private probabilities: ProbabilitySnapshot | undefined;
  /**
   * Store changes that may have run an evaluation round, and how many of them `probabilities` has seen: a
   * count, not a flag, so that a round announced while a refresh is reading is not lost when that refresh
   * ends, and a refresh that fails leaves the rounds unseen for the next one.
   */
  private rounds = 0;
  private roundsRead = 0;
  /** Saved-location and portfolio alerts already seen (src/locations/stream-alerts.ts). */
  private alerts: AlertSnapshot | undefined;
  private seq = 0;
  private readonly backlog: Backlog;
  private readonly listeners = new Set<(changes: Change[]) => void>();
  private readonly closers = new Set<() => void>();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private starting: Promise<void> | undefined;
  private closed = false;
  /** New versions of hurricanes and earthquakes -> `portfolio.loss`, computed in the background (portfolio-loss.ts). */
  readonly losses: PortfolioLossQueue;

  constructor(
    private readonly ctx: Context,
    private readonly o: FeedOptions = {},
  ) {
    this.backlog = new Backlog(o.backlogSize ?? streamDefaults.backlogSize);
    this.losses = new PortfolioLossQueue(ctx, (body, account) => this.publish([{ body, account }]));
  }

  /** Takes the first live set (no messages for it) and starts the timer. Idempotent. */
  start(): Promise<void> {
    this.starting ??= (async () => {
      this.snapshot = await liveSnapshot(this.ctx.db, this.ctx.clock().toISOString());
      this.triggers = (await triggerSnapshot(this.ctx.db)).snapshot;
      this.probabilities = await probabilitySnapshot(this.ctx.db);
      this.alerts = (await alertSnapshot(this.ctx.db)).snapshot;
      await this.losses.start();
      const tickMs = this.o.tickMs ?? streamDefaults.tickMs;
      if (tickMs > 0 && !this.closed) {
        this.timer = setInterval(() => void this.refresh(CLOCK_ONLY), tickMs);
        this.timer.unref();
      }
    })();
    return this.starting;
  }

  /**
   * Re-reads the live set and publishes what changed. Calls during a refresh fold into one more run.
   * `change` says what the store change may have touched; without it, anything.
   */
  refresh(change: StoreChange = ANY_CHANGE): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (change.evaluatedTriggers) this.rounds++;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.diffOnce();
        } while (this.again && !this.closed);
      } catch (err) {
        // A failed read (store closing) loses nothing: the next refresh diffs against the same snapshot.
        this.ctx.log('warn', 'event stream refresh failed', { error: (err as Error).message });
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async diffOnce(): Promise<void> {
    await this.start();
    const now = this.ctx.clock().toISOString();
    const next = await liveSnapshot(this.ctx.db, now, this.snapshot);
    const before = this.snapshot!;
    const gone = [...before.keys()].filter((id) => !next.has(id));
    const current = new Map<string, EventFeature>();
    for (const row of await eventsByIds(this.ctx.db, gone, now)) current.set(row.id, eventFeature(row) as EventFeature);
    // An event no longer known at the clock (a replay rewound before it) is reported ended as last seen.
    const ended = (f: EventFeature) =>
      current.get(f.properties.id) ?? { ...f, properties: { ...f.properties, status: 'ended' } };
    const trig = await triggerSnapshot(this.ctx.db);
    const moved = await stateProvenance(this.ctx.db, movedTriggers(this.triggers!, trig.snapshot));
    const alerts = await alertSnapshot(this.ctx.db);
    // The probabilities of active triggers move only with a round or with the set of active triggers.
    const rounds = this.rounds;
    const probabilities =
      rounds !== this.roundsRead || !sameKeys(this.triggers!.states, trig.snapshot.states)
        ? await probabilitySnapshot(this.ctx.db)
        : this.probabilities!;
    const diffed: Diffed[] = [
      ...diffLive(before, next, ended),
      ...diffTriggers(this.triggers!, trig.snapshot, trig.alerts, moved),
      ...diffProbabilities(this.probabilities!, probabilities),
      ...diffAlerts(this.alerts!, alerts.rows),
    ];
    this.snapshot = next;
    this.triggers = trig.snapshot;
    this.probabilities = probabilities;
    this.roundsRead = rounds;
    this.alerts = alerts.snapshot;
    // Only finds the new versions and queues their portfolios: the losses run in the background and publish when done.
    await this.losses.check();
    this.publish(diffed);
  }

  private publish(diffed: { body: ChangeBody; subject?: EventFeature; account?: string }[]): void {
    if (diffed.length === 0 || this.closed) return;
    const at = this.ctx.clock().toISOString();
    const changes = diffed.map((d): Change => {
      const seq = ++this.seq;
      return { id: `${this.epoch}-${seq}`, seq, at, body: d.body, subject: d.subject, account: d.account };
    });
    for (const c of changes) this.backlog.push(c);
    for (const l of this.listeners) l(changes);
  }

  /** The id a client is up to date at (sent when a stream opens). */
  get headId(): string {
    return `${this.epoch}-${this.seq}`;
  }

  /** What a client that last saw `lastEventId` missed, or a reset when that cannot be told exactly. */
  resume(lastEventId: string): Resume {
    const m = /^([0-9a-z]{1,12})-(\d{1,15})$/.exec(lastEventId.trim());
    if (!m)
      return { kind: 'reset', reason: `Last-Event-ID "${lastEventId.slice(0, 40)}" is not an id this stream sent` };
    if (m[1] !== this.epoch)
      return {
        kind: 'reset',
        reason: 'the server restarted since that id; changes made meanwhile are not in its backlog',
      };
    const seq = Number(m[2]);
    if (seq > this.seq) return { kind: 'reset', reason: `Last-Event-ID "${lastEventId}" is ahead of this stream` };
    const changes = this.backlog.after(seq, this.seq);
    if (!changes)
      return {
        kind: 'reset',
        reason: `more than the backlog of ${this.backlog.capacity} changes happened since that id`,
      };
    return { kind: 'changes', changes };
  }

  /** The live set as last read, newest change first (what a reset sends). */
  live(): EventFeature[] {
    return [...(this.snapshot?.values() ?? [])].map((e) => e.feature);
  }

  get backlogCapacity(): number {
    return this.backlog.capacity;
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  /** Listens for changes; `close` is called if the feed shuts down. Returns the unsubscribe function. */
  subscribe(listener: (changes: Change[]) => void, close: () => void): () => void {
    this.listeners.add(listener);
    this.closers.add(close);
    return () => {
      this.listeners.delete(listener);
      this.closers.delete(close);
    };
  }

  /** Server stop: every open stream ends (clients reconnect to the next server with their Last-Event-ID). */
  close(): void {
    this.closed = true;
    this.losses.close();
    if (this.timer) clearInterval(this.timer);
    for (const c of [...this.closers]) c();
    this.listeners.clear();
    this.closers.clear();
  }
}

function sameKeys(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  return a.size === b.size && [...a.keys()].every((k) => b.has(k));
}
