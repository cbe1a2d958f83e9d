/**
 * The server's in-memory live-event index (issue 9 part 2): /events/live, /events/nearby and /events/{id}
 * answer from it without touching DuckDB. It is consistent with the store by construction: a write marks
 * it stale at once (the server's storeChanged() hook), requests then take the SQL path until the rebuild
 * that follows is in place, and a rebuild overtaken by another write is thrown away. A snapshot answers
 * for every now at or after its build instant (snapshot.ts); an earlier now (a clock stepped back) takes
 * the SQL path too. So the index can only be late, never wrong.
 */
import type { Logger } from '../context.js';
import type { Store } from '../store/db.js';
import { loadSnapshot } from './load.js';
import type { Snapshot } from './snapshot.js';

export class LiveEventIndex {
  private current: Snapshot | undefined;
  private generation = 0;
  private building: Promise<void> | undefined;
  private again = false;
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

  /** The store changed: stop answering from the old snapshot now, and build a new one. */
  invalidate(): void {
    this.generation++;
    this.current = undefined;
    if (this.building) {
      this.again = true;
      return;
    }
    this.building = this.build().finally(() => (this.building = undefined));
  }

  /** Resolves once no build is pending (tests, benchmarks, and a server that wants a warm index). */
  async ready(): Promise<void> {
    while (this.building) await this.building;
  }

  private async build(): Promise<void> {
    do {
      this.again = false;
      const generation = this.generation;
      try {
        const t0 = performance.now();
        const snapshot = await loadSnapshot(this.db, this.clock());
        // A write landed meanwhile (invalidate() set `again`): this one may be stale, the next pass replaces it.
        if (generation !== this.generation) continue;
        this.current = snapshot;
        this.builds++;
        this.log('debug', 'live index built', { events: snapshot.main.length + snapshot.side.length, ms: Math.round(performance.now() - t0) });
      } catch (err) {
        // A store closing under us, or a query failing: the SQL path answers until the next write.
        this.log('warn', 'live index build failed; events are served from the store', { error: (err as Error).message });
      }
    } while (this.again);
  }
}
