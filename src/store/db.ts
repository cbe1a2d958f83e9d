/**
 * The DuckDB store (@duckdb/node-api). One Store per process: a read-write open takes DuckDB's file
 * lock (a second writer is refused with store_locked, exit code 4, naming the holder); read-only opens
 * can run side by side. Every SQL value is a bound parameter.
 *
 * Writes (run, transaction) take turns on one connection, reads (all, one, reads) on their own ones. DuckDB
 * gives each read the last committed state, so a read never sees half a transaction, and it never waits in
 * line behind one: `catintel serve` answers its readers while a long ingest that a CLI handed it over the
 * local channel is still writing. Rows are turned into objects a slice at a time, the event loop running
 * between slices, so a read of thousands of rows does not hold up the requests around it either
 * (docs/performance.md, "Readers beside writers").
 *
 * A new store file is created atomically (createAtomically): built with its whole schema under a
 * temporary name and linked into place, so a process killed while creating it leaves either no store
 * or a complete empty one, never a file without tables that read-only commands would refuse.
 */
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DuckDBConnection, DuckDBDataChunk, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { duckdb, type DuckDBInstance } from './duckdb.js';
import { CatintelError } from '../errors.js';
import { migrations } from './migrations.js';
import { clearLockHolder, describeHolder, writeLockHolder } from './lock.js';
import { createAtomically } from './create.js';
import { isLockError, storeFaultOf } from './faults.js';
import { assertStorePath } from './store-path.js';
import { extensionDirectory, extensionSettings, loadSpatial } from './extensions.js';
import { threadSettings } from './duckdb-threads.js';
import { isClusterAddress, parseClusterAddress, type ClusterAddress } from './cluster/store-url.js';
import type { ChangeNotices } from './cluster/change-notices.js';
import type { SharedRateWindow } from './cluster/shared-rate-window.js';

// Checked before DuckDB loads (src/cli/execute.ts); kept importable from here.
export { assertStorePath };

export type Row = Record<string, unknown>;
export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

/**
 * Bind types for the numbers the client would get wrong: it binds a JS number that is a whole number as
 * BIGINT, so a valid double past int64 (1e300, a threshold of 6.25e257 USD) fails to bind, a 500. Those go as
 * DOUBLE; everything else keeps the client's own choice (undefined).
 */
function typesOf(params?: Params): DuckDBType[] | Record<string, DuckDBType | undefined> | undefined {
  if (!params) return undefined;
  const wide = (v: DuckDBValue) =>
    typeof v === 'number' && Number.isInteger(v) && Math.abs(v) >= 2 ** 63 ? duckdb().DOUBLE : undefined;
  if (Array.isArray(params)) return params.some((v) => wide(v)) ? (params.map(wide) as DuckDBType[]) : undefined;
  const entries = Object.entries(params).filter(([, v]) => wide(v));
  return entries.length ? Object.fromEntries(entries.map(([k]) => [k, duckdb().DOUBLE])) : undefined;
}

export interface OpenOptions {
  readOnly?: boolean;
  /** The command holding the store, named to anyone refused the lock ("catintel serve"). */
  holder?: string;
  /** Where DuckDB's extensions are (src/store/extensions.ts); the project's duckdb-extensions/ when not given. */
  extensionDirectory?: string;
}

/** Read connections: a long read (the live index's build) leaves another for the short ones (an API key, freshness). */
const READ_CONNECTIONS = 2;
/** Rows converted between two turns of the event loop: a few milliseconds of work. */
const ROWS_PER_SLICE = 256;

interface ReadConnection {
  conn: DuckDBConnection;
  queue: Promise<unknown>;
  pending: number;
}

export class Store {
  private queue: Promise<unknown> = Promise.resolve();
  private spatialLoad?: Promise<void>;
  private rateWindow?: SharedRateWindow;

  private constructor(
    /** The DuckDB file, or a cluster store's address without its password. */
    readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly readConns: ReadConnection[],
    readonly readOnly: boolean,
    private readonly extensionDir: string,
    /** Set on a cluster store (src/store/cluster/): its writes are announced to the other processes. */
    private readonly notices?: ChangeNotices,
  ) {}

  /** 'file' for a DuckDB file (or memory), 'cluster' for DuckLake and PostgreSQL (docs/cluster-store.md). */
  get backend(): 'file' | 'cluster' {
    return this.notices ? 'cluster' : 'file';
  }

  /**
   * Calls onChange when another process commits a write to this cluster store (a `serve` replica refreshes
   * its live index then). A DuckDB file has one writer, this process, so there is nothing to hear.
   */
  async onChangeElsewhere(onChange: () => void): Promise<void> {
    await this.notices?.listen(onChange);
  }

  /**
   * Runs fn as the one process doing `role` on this store at a time (one ingest per source): on a cluster
   * store, a PostgreSQL advisory lock (src/store/cluster/leadership.ts), refused with store_locked while
   * another process holds it; on a DuckDB file, its lock already makes this process the only writer.
   */
  async asLeader<T>(role: string, fn: () => Promise<T>): Promise<T> {
    if (!this.notices) return fn();
    const { asLeader } = await import('./cluster/leadership.js');
    return asLeader(this.notices.address, role, fn);
  }

  /**
   * Runs fn while no other process runs work under the same key on this store: on a cluster store a
   * PostgreSQL advisory lock, waited for (src/store/cluster/leadership.ts); on a DuckDB file, whose writes
   * this process alone makes one at a time, fn at once. For a check-then-write that one transaction cannot
   * make exact across processes (an account's active trigger count).
   */
  async inTurn<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (!this.notices) return fn();
    const { inTurn } = await import('./cluster/leadership.js');
    return inTurn(this.notices.address, key, fn);
  }

  /**
   * A cluster store's rate window, shared by every `serve` replica of it (src/store/cluster/shared-rate-window.ts);
   * undefined for a DuckDB file, whose one server counts in memory. Closed with the store.
   */
  async sharedRateWindow(windowMs: number): Promise<SharedRateWindow | undefined> {
    if (!this.notices) return undefined;
    const { SharedRateWindow } = await import('./cluster/shared-rate-window.js');
    this.rateWindow ??= new SharedRateWindow(this.notices.address, windowMs);
    return this.rateWindow;
  }

  private static async readConnections(instance: DuckDBInstance): Promise<ReadConnection[]> {
    const out: ReadConnection[] = [];
    for (let i = 0; i < READ_CONNECTIONS; i++)
      out.push({ conn: await instance.connect(), queue: Promise.resolve(), pending: 0 });
    return out;
  }

  static async open(path: string, opts: OpenOptions = {}): Promise<Store> {
    if (isClusterAddress(path)) return Store.openCluster(parseClusterAddress(path), opts);
    const readOnly = Boolean(opts.readOnly) && path !== ':memory:';
    if (path !== ':memory:') assertStorePath(path);
    const threads = threadSettings(); // a bad CATINTEL_DUCKDB_THREADS is named before any file is made
    if (!readOnly && path !== ':memory:' && !fs.existsSync(path)) {
      try {
        await createAtomically(path, (file) => Store.buildSchemaAt(file));
      } catch (err) {
        throw storeFaultOf(path, err) ?? err;
      }
    }
    const extensionDir = opts.extensionDirectory ?? extensionDirectory();
    const settings = {
      ...extensionSettings(extensionDir),
      ...threads,
      ...(readOnly && { access_mode: 'READ_ONLY' }),
    };
    let instance: DuckDBInstance;
    try {
      instance = await duckdb().DuckDBInstance.create(path, settings);
    } catch (err) {
      throw translateOpenError(path, err, readOnly);
    }
    // From here on the file is open: a failure (a corrupt table, a full disk) closes it again and leaves no `<db>.lock`.
    let store: Store | undefined;
    try {
      const conn = await instance.connect();
      store = new Store(path, instance, conn, await Store.readConnections(instance), readOnly, extensionDir);
      if (!readOnly) {
        if (path !== ':memory:') writeLockHolder(path, opts.holder ?? 'catintel');
        await store.migrate();
      } else {
        await store.assertMigrated();
      }
      return store;
    } catch (err) {
      if (store) await store.close().catch(() => undefined);
      else instance.closeSync();
      throw storeFaultOf(path, err) ?? err;
    }
  }

  /** A cluster store (src/store/cluster/open-cluster.ts): loaded only when one is asked for. */
  private static async openCluster(address: ClusterAddress, opts: OpenOptions): Promise<Store> {
    const cluster = await import('./cluster/open-cluster.js');
    const { ChangeNotices } = await import('./cluster/change-notices.js');
    const extensionDir = opts.extensionDirectory ?? extensionDirectory();
    const instance = await duckdb().DuckDBInstance.create(':memory:', {
      ...extensionSettings(extensionDir),
      ...threadSettings(),
    });
    const conns: DuckDBConnection[] = [];
    try {
      conns.push(await instance.connect());
      await cluster.attachCluster(conns[0], address, extensionDir);
      await cluster.ensureClusterSchema(conns[0], address, migrations, Boolean(opts.readOnly));
      const readConns = await Store.readConnections(instance);
      conns.push(...readConns.map((r) => r.conn));
      for (const c of conns) await cluster.useCluster(c);
      const notices = new ChangeNotices(address);
      return new Store(address.shown, instance, conns[0], readConns, Boolean(opts.readOnly), extensionDir, notices);
    } catch (err) {
      for (const c of conns) c.closeSync();
      instance.closeSync();
      throw err;
    }
  }

  /**
   * DuckDB's spatial extension on this store (ST_Contains, ST_Buffer, ST_Read, ...), loaded the first time a
   * caller needs it, for every connection at once (src/store/extensions.ts says why not on open). Fails with
   * one line naming `make install` when the extension is missing or built for another DuckDB; a later call
   * tries again, so a server picks the extension up once it is installed.
   */
  spatial(): Promise<void> {
    this.spatialLoad ??= this.reading((conn) => loadSpatial(conn, this.extensionDir)).catch((err) => {
      this.spatialLoad = undefined;
      throw err;
    });
    return this.spatialLoad;
  }

  /**
   * Runs writes one at a time on the write connection, in call order. A corrupt block or a full disk met
   * by any statement is reported as such (src/store/faults.ts), not as an unexpected error.
   */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const guarded = () => this.faultsNamed(fn);
    const next = this.queue.then(guarded, guarded);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** fn, with a corrupt block, a full disk or an I/O error it meets reported as such (src/store/faults.ts). */
  private async faultsNamed<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw storeFaultOf(this.path, err) ?? err;
    }
  }

  /** Runs a read on the least busy read connection (each runs one statement at a time), beside whatever the writes are doing. */
  private reading<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const r = this.readConns.reduce((a, b) => (b.pending < a.pending ? b : a));
    r.pending++;
    const run = () => this.faultsNamed(() => fn(r.conn));
    const next = r.queue.then(run, run).finally(() => r.pending--);
    r.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * A read, on the read connection: it sees every write that was awaited before it, and nothing of a
   * transaction still open. Inside a transaction, read through its `tx`, which sees the transaction's own writes.
   */
  async all<T extends object = Row>(sql: string, params?: Params): Promise<T[]> {
    // Not cached as prepared statements on purpose: DuckDB 1.5 re-runs a cached plan with the column
    // statistics of when it was prepared, and after later inserts an ORDER BY over a compressed
    // materialization returns corrupted rows. Planning each time is the safe price (~1 ms).
    const result = await this.reading(async (conn) => {
      const r = await conn.run(sql, params, typesOf(params));
      return { names: r.deduplicatedColumnNames(), chunks: await r.fetchAllChunks() };
    });
    return rowObjects<T>(result.names, result.chunks); // the connection is free for the next read meanwhile
  }

  async one<T extends object = Row>(sql: string, params?: Params): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params?: Params): Promise<void> {
    await this.serial(() => this.conn.run(sql, params, typesOf(params)));
    await this.announce();
  }

  /** On a cluster store, tells the other processes a write committed; a lost notice is not a failed write. */
  private async announce(): Promise<void> {
    await this.notices?.announce().catch(() => undefined);
  }

  /**
   * Runs fn inside BEGIN/COMMIT; any throw rolls the whole unit back, so the store is left as it was.
   * fn must use the given `tx` (the same connection) and not call transaction() again.
   */
  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.serial(async () => {
      await this.conn.run('BEGIN TRANSACTION');
      try {
        const result = await fn(new Tx(this.conn, this.backend));
        await this.conn.run('COMMIT');
        return result;
      } catch (err) {
        await this.conn.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
    await this.announce();
    return result;
  }

  /**
   * Several reads of one committed state (a read-only transaction on the read connection): a write that
   * commits between them shows in none of them. Writes go through transaction().
   */
  async reads<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.reading(async (conn) => {
      await conn.run('BEGIN TRANSACTION READ ONLY');
      let result: T;
      try {
        result = await fn(new Tx(conn, this.backend));
      } catch (err) {
        await conn.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
      await conn.run('COMMIT');
      return result;
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.queue, ...this.readConns.map((r) => r.queue)].map((q) => q.catch(() => undefined)));
    for (const r of this.readConns) r.conn.closeSync();
    this.conn.closeSync();
    this.instance.closeSync();
    await this.notices?.close();
    await this.rateWindow?.close();
    if (!this.readOnly && this.path !== ':memory:' && !this.notices) clearLockHolder(this.path);
  }

  async schemaVersion(): Promise<number> {
    const exists = await this.one<{ n: bigint }>(
      // duckdb_tables(), not information_schema.tables: that view is duckdb_tables() with every view added,
      // 7 to 21 ms of each read-only open where this takes 2, for a name that is only ever a table.
      "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'schema_migrations'",
    );
    if (!exists || Number(exists.n) === 0) return 0;
    const row = await this.one<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
    return row?.v ?? 0;
  }

  /** A new database file at `file` with every migration applied and checkpointed; false if DuckDB cannot create it. */
  static async buildSchemaAt(file: string): Promise<boolean> {
    const settings = { ...extensionSettings(extensionDirectory()), ...threadSettings() };
    let instance: DuckDBInstance;
    try {
      instance = await duckdb().DuckDBInstance.create(file, settings);
    } catch {
      return false;
    }
    const conn = await instance.connect();
    const readConns = await Store.readConnections(instance);
    try {
      await new Store(file, instance, conn, readConns, false, extensionDirectory()).migrate();
      await conn.run('CHECKPOINT');
    } finally {
      for (const r of readConns) r.conn.closeSync();
      conn.closeSync();
      instance.closeSync();
    }
    return true;
  }

  private async migrate(): Promise<void> {
    await this.run(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMP)',
    );
    // Every migration not yet recorded, in order, rather than those past the highest recorded: numbers are
    // taken by parallel work (11 may be released before 10), and a store at 11 must still get 10.
    const applied = new Set(
      (await this.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
    );
    for (const m of migrations.filter((m) => !applied.has(m.version))) {
      await this.transaction(async (tx) => {
        await tx.exec(m.sql);
        await tx.run('INSERT INTO schema_migrations VALUES ($1, $2, current_timestamp::TIMESTAMP)', [
          m.version,
          m.name,
        ]);
      });
    }
  }

  private async assertMigrated(): Promise<void> {
    const latest = migrations[migrations.length - 1].version;
    if ((await this.schemaVersion()) < latest) {
      throw new CatintelError(
        'unavailable',
        `store ${this.path} is not initialised at schema version ${latest}; run a writing command such as \`catintel db seed\` (offline) or \`catintel ingest\` once to create or upgrade it`,
      );
    }
  }
}

/** The same connection inside a transaction. */
export class Tx {
  constructor(
    readonly conn: DuckDBConnection,
    /** The store's backend, for the few statements that differ on a cluster store (src/store/bulk.ts). */
    readonly backend: 'file' | 'cluster' = 'file',
  ) {}
  async exec(sql: string): Promise<void> {
    await this.conn.run(sql);
  }
  async run(sql: string, params?: Params): Promise<void> {
    await this.conn.run(sql, params, typesOf(params));
  }
  async all<T extends object = Row>(sql: string, params?: Params): Promise<T[]> {
    const r = await this.conn.run(sql, params, typesOf(params));
    return rowObjects<T>(r.deduplicatedColumnNames(), await r.fetchAllChunks());
  }
  /** An INSERT, UPDATE or DELETE: the number of rows it changed. */
  async change(sql: string, params?: Params): Promise<number> {
    return (await this.conn.run(sql, params, typesOf(params))).rowsChanged;
  }
}

/** getRowObjectsJS(), with a turn of the event loop after every ROWS_PER_SLICE rows of a large result. */
async function rowObjects<T>(names: string[], chunks: DuckDBDataChunk[]): Promise<T[]> {
  const { JSDuckDBValueConverter } = duckdb();
  const rows: Record<string, unknown>[] = [];
  let sliced = 0;
  for (const chunk of chunks) {
    const n = chunk.rowCount;
    for (let i = 0; i < n; i++) {
      const row: Record<string, unknown> = {};
      chunk.visitRowValues(
        i,
        (value, _i, c, type) => (row[names[c]] = JSDuckDBValueConverter(value, type, JSDuckDBValueConverter)),
      );
      rows.push(row);
      if (++sliced === ROWS_PER_SLICE) {
        sliced = 0;
        await nextTurn();
      }
    }
  }
  return rows as T[];
}

function translateOpenError(path: string, err: unknown, readOnly: boolean): CatintelError {
  const message = err instanceof Error ? err.message : String(err);
  const fault = storeFaultOf(path, err);
  if (fault) return fault;
  if (isLockError(err)) {
    return new CatintelError(
      'store_locked',
      `store ${path} is locked by ${describeHolder(path, message)}; wait for it to finish, stop it, or pass --db to use another store`,
    );
  }
  if (readOnly && /No such file|does not exist|Cannot open/i.test(message)) {
    return new CatintelError(
      'invalid_input',
      `store ${path} does not exist; create it with \`catintel db seed\` (the embedded snapshot, offline) or \`catintel ingest\` (the live feeds), or pass --db FILE`,
    );
  }
  // Any other I/O error (permission denied, a failing device): DuckDB's own first line names it.
  return new CatintelError('unavailable', `cannot open store ${path}: ${message.split('\n')[0]}`, { cause: err });
}
