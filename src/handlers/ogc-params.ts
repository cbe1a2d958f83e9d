/**
 * The query parameters of OGC API - Features items (OGC 17-069r4 §7.15.3-7.15.5): limit, bbox, datetime.
 * They differ from the contract paths in two documented ways: a limit above the maximum is read as the
 * maximum, not refused (§7.15.3: "SHALL NOT result in an error"), and datetime takes an instant or an interval
 * with open ends.
 */
import { defaults } from '../config/defaults.js';
import { invalidParameter } from '../errors.js';
import { str } from './params.js';

/** limit: 1 or more; above pageLimitMax the page holds pageLimitMax features. */
export function ogcLimit(raw: Record<string, unknown>): number {
  const v = str(raw, 'limit');
  if (v === undefined) return defaults.pageLimit;
  if (!/^\d+$/.test(v) || Number(v) < 1)
    throw invalidParameter('limit', `"${v.slice(0, 40)}" is not a whole number of 1 or more`);
  return Math.min(Number(v), defaults.pageLimitMax);
}

export interface Interval {
  start?: string;
  end?: string;
}

const OPEN = new Set(['', '..']);

/**
 * datetime: an instant (`2022-09-28T19:30:00Z`), or an interval `start/end` where either end may be `..`
 * or empty (open). An instant is the interval [t, t].
 */
export function ogcDatetime(raw: Record<string, unknown>): Interval | undefined {
  const v = str(raw, 'datetime');
  if (v === undefined) return undefined;
  const parts = v.split('/');
  if (parts.length > 2) throw badDatetime(v);
  const [start, end] = parts.map((p) => (OPEN.has(p) ? undefined : instant(p, v)));
  if (parts.length === 1) {
    if (start === undefined) throw badDatetime(v);
    return { start, end: start };
  }
  if (start && end && start > end) {
    throw invalidParameter('datetime', `"${v}" starts after it ends; give start/end with start first`);
  }
  return { start, end };
}

function instant(s: string, whole: string): string {
  const t = Date.parse(s);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) || Number.isNaN(t))
    throw badDatetime(whole);
  // An offset can carry 9999-12-31T23:59:59-23:59 into year 10000, which toISOString writes as +010000-...
  // (not a timestamp SQL reads). No stored event lies outside years 0000-9999, so clamping changes no answer.
  return new Date(Math.min(Math.max(t, MIN_MS), MAX_MS)).toISOString();
}

const MIN_MS = Date.parse('0000-01-01T00:00:00Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');

const badDatetime = (v: string) =>
  invalidParameter(
    'datetime',
    `"${v.slice(0, 80)}" is not an RFC 3339 instant or interval; e.g. 2022-09-28T19:30:00Z, 2022-09-26T00:00:00Z/2022-09-30T00:00:00Z or 2022-09-28T00:00:00Z/..`,
  );
