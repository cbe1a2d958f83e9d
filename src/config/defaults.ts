/** Every default in one place, one commented line each. Precedence: flags > CATINTEL_* env > defaults. */
export const defaults = {
  /** The DuckDB store file. */
  dbPath: './catintel.duckdb',
  /** `catintel serve` binds loopback by default; pass --host 0.0.0.0 to expose it. */
  host: '127.0.0.1',
  port: 8080,
  /** Paging of collections (docs/contract.md#events). */
  pageLimit: 100,
  pageLimitMax: 1000,
  /** /events/nearby radius (docs/contract.md#events). */
  nearbyRadiusKm: 100,
  nearbyRadiusKmMax: 2000,
  /** Online feed requests: per-attempt timeout, attempts, first backoff (doubles each retry). */
  fetchTimeoutMs: 20_000,
  fetchAttempts: 3,
  fetchBackoffMs: 500,
  /** Bodies at or above this size are gzip/br compressed when the client accepts it. */
  compressMinBytes: 1024,
  userAgent: 'catintel/0.1 (+https://github.com/catintel/catintel; catastrophe intelligence toolkit)',
} as const;

export interface Config {
  dbPath: string;
  /** Online feed requests. */
  fetchTimeoutMs: number;
  fetchAttempts: number;
  fetchBackoffMs: number;
  userAgent: string;
  /**
   * The CATINTEL_* environment as the adapter (cli/, http/) read it. Handlers that need a secret from
   * the environment (token issue: CATINTEL_JWT_SECRET) read it here, never from process.env.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return {
    dbPath: defaults.dbPath,
    fetchTimeoutMs: defaults.fetchTimeoutMs,
    fetchAttempts: defaults.fetchAttempts,
    fetchBackoffMs: defaults.fetchBackoffMs,
    userAgent: defaults.userAgent,
    ...overrides,
  };
}
