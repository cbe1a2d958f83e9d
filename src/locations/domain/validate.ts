/**
 * A saved location (docs/contract.md#portfolios: { id, name, lat, lng, radius_km, perils, notes, created_at }). Bounds as for
 * triggers (docs/contract.md#triggers): name 1-200 characters, lat [-90, 90], lng [-180, 180], radius_km (0, 2000] (default
 * DEFAULT_RADIUS_KM), notes at most 2000 characters; perils are event types (docs/contract.md#events), none = all.
 */
import { EVENT_TYPES, type EventType } from '../../domain/event.js';
import type { FieldProblem } from '../../errors.js';

export const DEFAULT_RADIUS_KM = 25;
export const MAX_RADIUS_KM = 2000;
/** Saved locations per owner (an account, or an anonymous client address). */
export const MAX_SAVED_LOCATIONS = 100;

export interface LocationFields {
  name: string;
  lat: number;
  lng: number;
  radius_km: number;
  perils: EventType[];
  notes: string | null;
}

const KNOWN = ['name', 'lat', 'lng', 'radius_km', 'perils', 'notes'];

/** Lengths in characters (code points), as the OpenAPI document's maxLength counts them, not UTF-16 units. */
const codePoints = (s: string) => [...s].length;

/** A lone surrogate cannot be stored as UTF-8: such text is refused rather than mangled. */
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

export function validateLocation(v: Record<string, unknown>): {
  fields: LocationFields | null;
  errors: FieldProblem[];
} {
  const errors: FieldProblem[] = [];
  for (const k of Object.keys(v))
    if (!KNOWN.includes(k)) errors.push({ field: k, message: `unknown field; allowed: ${KNOWN.join(', ')}` });
  const name = v.name;
  if (name === undefined) errors.push({ field: 'name', message: 'is required' });
  else if (typeof name !== 'string' || name.trim().length === 0 || codePoints(name) > 200 || !wellFormed(name))
    errors.push({ field: 'name', message: 'must be text of 1-200 characters' });
  const numberIn = (field: string, lo: number, hi: number, loOpen: boolean, fallback?: number): number => {
    const x = v[field];
    if (x === undefined && fallback !== undefined) return fallback;
    if (x === undefined) errors.push({ field, message: 'is required' });
    else if (typeof x !== 'number' || !Number.isFinite(x)) errors.push({ field, message: 'must be a number' });
    else if ((loOpen ? x <= lo : x < lo) || x > hi)
      errors.push({ field, message: `must be in ${loOpen ? '(' : '['}${lo}, ${hi}]` });
    return x as number;
  };
  const lat = numberIn('lat', -90, 90, false);
  const lng = numberIn('lng', -180, 180, false);
  const radius = numberIn('radius_km', 0, MAX_RADIUS_KM, true, DEFAULT_RADIUS_KM);
  let perils: EventType[] = [];
  if (v.perils !== undefined) {
    if (
      !Array.isArray(v.perils) ||
      v.perils.some((p) => typeof p !== 'string' || !(EVENT_TYPES as readonly string[]).includes(p))
    ) {
      errors.push({ field: 'perils', message: `must be a list of event types: ${EVENT_TYPES.join(', ')}` });
    } else perils = [...new Set(v.perils as EventType[])].sort();
  }
  const notes = v.notes;
  if (
    notes !== undefined &&
    notes !== null &&
    (typeof notes !== 'string' || codePoints(notes) > 2000 || !wellFormed(notes))
  )
    errors.push({ field: 'notes', message: 'must be text of at most 2000 characters' });
  if (errors.length) return { fields: null, errors };
  return {
    fields: {
      name: (name as string).trim(),
      lat,
      lng,
      radius_km: radius,
      perils,
      notes: (notes as string | undefined) ?? null,
    },
    errors,
  };
}
