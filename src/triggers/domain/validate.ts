/**
 * The trigger creation body (docs/contract.md#triggers): required name, peril, lat, lng, radius_km, threshold_type,
 * threshold_value; optional alert_at_pct (default 80) and notes. Every problem is reported at once, each
 * with its field and what would be accepted. A threshold type that does not fit the peril (magnitude on a
 * hurricane) is a problem of threshold_type, naming the types that fit.
 */
import { EVENT_TYPES, type EventType } from '../../domain/event.js';
import type { FieldProblem } from '../../errors.js';
import {
  PERILS_BY_THRESHOLD,
  REFUSED,
  THRESHOLD_TYPES,
  THRESHOLD_UNIT,
  type ThresholdType,
  type TriggerFields,
} from './types.js';

export type { TriggerFields };

/**
 * The text as valid Unicode: a lone UTF-16 surrogate (valid in JSON text, "\ud800") becomes U+FFFD, as
 * String.prototype.toWellFormed does; the store keeps UTF-8, which cannot hold one.
 */
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

export const TRIGGER_FIELDS = [
  'name',
  'peril',
  'lat',
  'lng',
  'radius_km',
  'threshold_type',
  'threshold_value',
  'alert_at_pct',
  'notes',
] as const;
export const DEFAULT_ALERT_AT_PCT = 80;

/** The threshold types that fit a peril (the inverse of PERILS_BY_THRESHOLD). */
export function thresholdsFor(peril: EventType): ThresholdType[] {
  return THRESHOLD_TYPES.filter((t) => PERILS_BY_THRESHOLD[t].includes(peril));
}

export function validateTrigger(v: Record<string, unknown>): { fields?: TriggerFields; errors: FieldProblem[] } {
  const errors: FieldProblem[] = [];
  for (const k of Object.keys(v)) {
    if (!(TRIGGER_FIELDS as readonly string[]).includes(k))
      errors.push({ field: k, message: `unknown field; allowed: ${TRIGGER_FIELDS.join(', ')}` });
  }
  const num = (field: string, ok: (x: number) => boolean, what: string, optional = false): number | undefined => {
    const x = v[field];
    if (x === undefined && optional) return undefined;
    if (typeof x !== 'number' || !Number.isFinite(x) || !ok(x)) {
      errors.push({ field, message: x === undefined ? `required: ${what}` : `${JSON.stringify(x)} is not ${what}` });
      return undefined;
    }
    return x;
  };
  const name = v.name;
  const nameLen = typeof name === 'string' ? [...name].length : 0;
  // Any text of 1-200 characters (code points, as the OpenAPI document counts them): a label is the owner's choice.
  if (typeof name !== 'string' || nameLen < 1 || nameLen > 200) {
    errors.push({
      field: 'name',
      message: name === undefined ? 'required: a name of 1 to 200 characters' : 'a name of 1 to 200 characters',
    });
  }
  const peril = v.peril;
  const perilOk = typeof peril === 'string' && (EVENT_TYPES as readonly string[]).includes(peril);
  if (!perilOk)
    errors.push({
      field: 'peril',
      message: `${peril === undefined ? 'required' : `${JSON.stringify(peril)} is not a peril`}: one of ${EVENT_TYPES.join(', ')}`,
    });
  const lat = num('lat', (x) => x >= -90 && x <= 90, 'a latitude in [-90, 90]');
  const lng = num('lng', (x) => x >= -180 && x <= 180, 'a longitude in [-180, 180]');
  const radius = num('radius_km', (x) => x > 0 && x <= 2000, 'a radius in km, more than 0 and at most 2000');
  const tt = v.threshold_type;
  const ttOk = typeof tt === 'string' && (THRESHOLD_TYPES as readonly string[]).includes(tt);
  if (!ttOk) {
    errors.push({
      field: 'threshold_type',
      message: `${tt === undefined ? 'required' : `${JSON.stringify(tt)} is not a threshold type`}: one of ${THRESHOLD_TYPES.join(', ')}`,
    });
  } else if (perilOk && !PERILS_BY_THRESHOLD[tt as ThresholdType].includes(peril as EventType)) {
    const why = REFUSED[tt as ThresholdType]?.[peril as EventType];
    const fits = `for ${peril} use ${thresholdsFor(peril as EventType).join(', ')}`;
    errors.push({
      field: 'threshold_type',
      message: why ? `${tt} on peril ${peril}: ${why}; ${fits}` : `${tt} does not fit peril ${peril}; ${fits}`,
    });
    // A refusal of the pair, not of either value alone: the peril is named too.
    if (why) errors.push({ field: 'peril', message: `${peril} with ${tt}: ${why}` });
  }
  const unit = ttOk ? ` (${THRESHOLD_UNIT[tt as ThresholdType]})` : '';
  const value = num('threshold_value', (x) => x > 0, `a threshold above 0${unit}`);
  const alert = num(
    'alert_at_pct',
    (x) => x > 0 && x <= 100,
    'a percentage of the threshold, more than 0 and at most 100',
    true,
  );
  const notes = v.notes;
  if (notes !== undefined && notes !== null && (typeof notes !== 'string' || [...notes].length > 2000)) {
    errors.push({ field: 'notes', message: 'free text of at most 2000 characters' });
  }
  if (errors.length > 0) return { errors };
  return {
    errors,
    fields: {
      name: wellFormed(name as string),
      peril: peril as EventType,
      lat: lat!,
      lng: lng!,
      radius_km: radius!,
      threshold_type: tt as ThresholdType,
      threshold_value: value!,
      alert_at_pct: alert ?? DEFAULT_ALERT_AT_PCT,
      notes: typeof notes === 'string' ? wellFormed(notes) : null,
    },
  };
}
