/**
 * The server's in-memory live-event index (issue 9 part 2): /events/live, /events/nearby and /events/{id}
 * answer from it without touching DuckDB. Each snapshot is a whole committed state of the store, swapped in
 * at once. After a write (the server's storeChanged() hook) the previous snapshot keeps answering while the
 * next one is built, so readers never wait for writers nor fall back to the store because of them; the
 * write's own caller is answered only once invalidate()'s promise resolves, when a snapshot that includes
 * its write is in (or, if that build failed, once the SQL path answers). A reader thus sees the state
 * before a write or after it, never half of it, and nothing older once the write is acknowledged. Writes
 * landing during a build are taken up by one more pass. A snapshot answers for every now at or after its build
 * instant (snapshot.ts); an earlier now (a clock stepped back) takes the SQL path. So the index can only
 * be late, never wrong.
 */
import type { Logger } from '../context.js';
import type { Store } from '../store/db.js';
import { loadSnapshot } from './load.js';
import type {
  EventAnswer,
  EventPage,
  EventReader,
  LiveEventPage,
  LivePageQuery,
  NearbyPageQuery,
  ReadInstant,
} from '../domain/event-reader.js';
import { livePageOf, nearbyPageOf, showOf } from './answer.js';
import type { Snapshot } from './snapshot.js';

export class LiveEventIndex implements EventReader {
  private current: Snapshot | undefined;
  private generation = 0;
  private building: Promise<void> | undefined;
  private again = false;
  /** Writers waiting for a snapshot of at least their generation (invalidate()'s promises). */
  private waiting: { generation: number; resolve: () => void }[] = [];
  /** Builds done (for the operator's log and the tests). */
  builds = 0;

  constructor(
    private readonly db: Store,
    private readonly clock: () => Date,
    private readonly log: Logger = () => {},
  ) {}

  /** The snapshot that answers at nowUs, or undefined: ask the store. */
  at(nowUs: number): Snapshot | undefined {
    const s = this.current;
    return s && nowUs >= s.builtAtUs ? s : undefined;
  }

  livePage(q: LivePageQuery): LiveEventPage | undefined {
    const s = this.at(q.nowUs);
    return s && livePageOf(s, q);
  }

  nearbyPage(q: NearbyPageQuery): EventPage | undefined {
    const s = this.at(q.nowUs);
    return s && nearbyPageOf(s, q);
  }

  show(key: string, at: ReadInstant): EventAnswer | undefined {
    const s = this.at(at.nowUs);
    return s && showOf(s, key, at.nowUs);
  }

  /**
   * The store changed: build a new snapshot, the old one answering until it is in. Resolves once answers
   * include the change (the new snapshot swapped in, or the SQL path answering after a failed build).
   */
  invalidate(): Promise<void> {
    const generation = ++this.generation;
    const included = new Promise<void>((resolve) => this.waiting.push({ generation, resolve }));
    if (this.building) this.again = true;
    else this.building = this.build();
    return included;
  }

  /** Resolves once no build is pending (tests, benchmarks, and a server that wants a warm index). */
  async ready(): Promise<void> {
    while (this.building) await this.building;
  }

  private async build(): Promise<void> {
    // `building` is cleared in the same turn as the last settle() and check of `again`, before any writer
    // it told runs again: an invalidate() from one of them starts a new build instead of waiting on this one.
    try {
      do {
        this.again = false;
        const generation = this.generation;
        try {
          const t0 = performance.now();
          // One committed state that has every write up to `generation` (it was read after them). A write
          // landing meanwhile may be in it or not, never in part: it is swapped in all the same, newer than
          // the one answering, and the next pass (invalidate() set `again`) brings in the rest.
          const snapshot = await loadSnapshot(this.db, this.clock(), this.current);
          this.current = snapshot;
          this.builds++;
          this.log('debug', 'live index built', {
            events: snapshot.main.length + snapshot.side.length,
            ms: Math.round(performance.now() - t0),
          });
        } catch (err) {
          // A store closing under us, or a query failing: the SQL path answers until the next write, never the old snapshot.
          this.current = undefined;
          this.log('warn', 'live index build failed; events are served from the store', {
            error: (err as Error).message,
          });
        }
        this.settle(generation);
      } while (this.again);
    } finally {
      this.building = undefined;
    }
  }

  /** Answers now include every write up to `generation`: its writers may be told so. */
  private settle(generation: number): void {
    if (this.current === undefined) generation = this.generation; // the store answers: up to date for everyone
    const done = this.waiting.filter((w) => w.generation <= generation);
    if (done.length === 0) return;
    this.waiting = this.waiting.filter((w) => w.generation > generation);
    for (const w of done) w.resolve();
  }
}
