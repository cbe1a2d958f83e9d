/**
 * Plain parse* functions for raw query/CLI values (DESIGN habit 2: validate at the edge). Each failure
 * names the parameter, the bad value and what would be accepted.
 */
import { invalidParameter } from '../errors.js';

export function str(raw: Record<string, unknown>, name: string): string | undefined {
  const v = raw[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (Array.isArray(v)) throw invalidParameter(name, `give ${name} once (got ${v.length} values)`);
  return String(v);
}

export function required(raw: Record<string, unknown>, name: string): string {
  const v = str(raw, name);
  if (v === undefined) throw invalidParameter(name, `${name} is required`);
  return v;
}

export function num(
  raw: Record<string, unknown>,
  name: string,
  range: { min: number; max: number; minExclusive?: boolean },
  fallback?: number,
): number {
  const v = str(raw, name);
  if (v === undefined) {
    if (fallback === undefined)
      throw invalidParameter(name, `${name} is required (a number from ${range.min} to ${range.max})`);
    return fallback;
  }
  const n = Number(v);
  const tooLow = range.minExclusive ? n <= range.min : n < range.min;
  if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v) || !Number.isFinite(n) || tooLow || n > range.max) {
    const bounds = `${range.minExclusive ? 'greater than' : 'from'} ${range.min} ${range.minExclusive ? 'and at most' : 'to'} ${range.max}`;
    throw invalidParameter(name, `"${v}" is not a number ${bounds}`);
  }
  return n;
}

export function int(
  raw: Record<string, unknown>,
  name: string,
  range: { min: number; max: number },
  fallback: number,
): number {
  const v = str(raw, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < range.min || Number(v) > range.max) {
    throw invalidParameter(name, `"${v}" is not a whole number from ${range.min} to ${range.max}`);
  }
  return Number(v);
}

/**
 * A comma list of allowed values, duplicates dropped. `aliases` maps other accepted names to an allowed
 * value (e.g. the event type `hurricane` for the peril `hurricane_wind`, docs/contract.md#scores).
 */
export function list<T extends string>(
  raw: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
  aliases: Readonly<Record<string, T>> = NO_ALIASES,
): T[] | undefined {
  const v = str(raw, name);
  if (v === undefined) return undefined;
  // One pass, no intermediate arrays: every events request parses one or two of these.
  const items: T[] = [];
  let bad: string | undefined;
  for (const part of v.split(',')) {
    const s = part.trim();
    if (s === '') continue;
    const item = Object.hasOwn(aliases, s) ? aliases[s] : s;
    if (!(allowed as readonly string[]).includes(item)) bad ??= item;
    else if (!items.includes(item as T)) items.push(item as T);
  }
  if (bad !== undefined || items.length === 0) {
    const also = Object.keys(aliases).length
      ? ` (or ${Object.entries(aliases)
          .map(([a, t]) => `${a} for ${t}`)
          .join(', ')})`
      : '';
    throw invalidParameter(name, `"${bad ?? v}" is not one of ${allowed.join(', ')}${also}`);
  }
  return items;
}

const NO_ALIASES: Readonly<Record<string, never>> = Object.freeze({});

export function isoTime(raw: Record<string, unknown>, name: string): string | undefined {
  const v = str(raw, name);
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t))
    throw invalidParameter(name, `"${v}" is not an ISO 8601 time such as 2024-09-26T00:00:00Z`);
  return new Date(t).toISOString();
}

/** bbox=minLng,minLat,maxLng,maxLat (OGC API - Features); minLng > maxLng crosses the antimeridian. */
export function bbox(raw: Record<string, unknown>, name = 'bbox'): [number, number, number, number] | undefined {
  const v = str(raw, name);
  if (v === undefined) return undefined;
  const parts = v.split(',').map(Number);
  const ok =
    parts.length === 4 &&
    parts.every(Number.isFinite) &&
    Math.abs(parts[0]) <= 180 &&
    Math.abs(parts[2]) <= 180 &&
    Math.abs(parts[1]) <= 90 &&
    Math.abs(parts[3]) <= 90 &&
    parts[1] <= parts[3];
  if (!ok) throw invalidParameter(name, `"${v}" is not minLng,minLat,maxLng,maxLat in degrees (e.g. -125,24,-66,50)`);
  return parts as [number, number, number, number];
}

/** Opaque cursors: base64url JSON. Clients pass back what `links.next` gave them. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T>(raw: Record<string, unknown>, check: (v: unknown) => v is T): T | undefined {
  const v = str(raw, 'cursor');
  if (v === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(v, 'base64url').toString('utf8'));
    if (check(value)) return value;
  } catch {
    /* fall through to the error below */
  }
  throw invalidParameter(
    'cursor',
    `"${v.slice(0, 40)}" is not a cursor this service issued; follow links.next or drop the cursor`,
  );
}
