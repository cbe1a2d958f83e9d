/**
 * The one context passed to every handler: { config, db, clock, log, progress, signal }. Tests pass a
 * silent context with an in-memory store and a fixed clock.
 */
import type { Store } from './store/db.js';
import type { Config } from './config/defaults.js';
import type { EventReader } from './domain/event-reader.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Logger = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

/** A progress event: the CLI renders it with ink on a TTY, or as NDJSON lines otherwise. */
export interface ProgressEvent {
  task: string;
  done: number;
  total?: number;
  /** What done and total count ('bytes', 'rows', ...), so a reader of the NDJSON lines need not guess. */
  unit?: string;
  message?: string;
}

export interface Context {
  config: Config;
  db: Store;
  /** "now"; CATINTEL_NOW pins it so replays and tests are reproducible. */
  clock: () => Date;
  log: Logger;
  progress: (e: ProgressEvent) => void;
  signal?: AbortSignal;
  /**
   * The server's in-memory live-event index (src/live-index/), as the event reader it implements: the HTTP app
   * answers /events/live, /nearby and /{id} from it. Absent in the CLI and in commands run through the local
   * channel, which read the store.
   */
  liveIndex?: EventReader;
}
