/** A request of the load mix and the measures of one phase (load.ts drives them, readers-writers.ts reuses both). */
export interface Req {
  kind: string;
  path: string;
  auth?: string;
  ip?: string;
}

export interface Phase {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  byKind: Record<string, Record<string, number>>;
}
