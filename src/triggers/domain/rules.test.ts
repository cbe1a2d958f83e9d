/** The value at a site per threshold type, proximity and state (docs/triggers.md "Rules"). */
import { describe, expect, it } from 'vitest';
import { evaluate, type TriggerCriteria } from './rules.js';
import { evaluateAll, type LiveEventInput } from './evaluate-all.js';
import type { TriggerSpec } from './types.js';

const site = { lat: 30, lng: -90 };
const crit = (o: Partial<TriggerCriteria>): TriggerCriteria => ({
  ...site,
  radius_km: 50,
  threshold_type: 'wind_speed_kt',
  threshold_value: 100,
  alert_at_pct: 80,
  ...o,
});
const reading = (at: string, value: number, dLat = 0) => ({
  at,
  value,
  unit: 'x',
  lat: site.lat + dLat,
  lng: site.lng,
});

describe('track triggers (cat-in-a-circle)', () => {
  // A 130-kt storm moving due north 300 km in 6 h, passing 0.1° (≈ 9.6 km) west of the site: neither fix is
  // within 100 km, so only the interpolated positions between them can put the centre inside the circle.
  const fixes = [
    { at: '2022-09-28T12:00:00Z', lat: 28.65, lng: -90.1, windKt: 130, pressureMb: 930 },
    { at: '2022-09-28T18:00:00Z', lat: 31.35, lng: -90.1, windKt: 130, pressureMb: 930 },
  ];
  it('fires on a storm that crosses the circle between two fixes, at the interpolated time', () => {
    const e = evaluate(crit({}), { kind: 'track', radius_scale: 0.49, fixes });
    expect(e.state).toBe('triggered');
    expect(e.observed_value!).toBeGreaterThan(100);
    expect(e.observed_at! > fixes[0].at && e.observed_at! < fixes[1].at).toBe(true);
    expect(e.observed_at).toMatch(/:00Z$/); // to the minute
  });
  it('pressure: the lowest central pressure inside the circle, proximity from the 1010 mb deficit', () => {
    const e = evaluate(crit({ threshold_type: 'central_pressure_mb', threshold_value: 935 }), {
      kind: 'track',
      radius_scale: 0.49,
      fixes,
    });
    expect(e).toMatchObject({ observed_value: 930, unit: 'mb', state: 'triggered', proximity_pct: 106.7 });
  });
  it('nothing inside the circle: no value, the nearest approach, proximity 0', () => {
    const far = fixes.map((f) => ({ ...f, lng: f.lng - 2 }));
    const e = evaluate(crit({}), { kind: 'track', radius_scale: 0.49, fixes: far });
    expect(e).toMatchObject({ observed_value: null, proximity_pct: 0, state: 'clear' });
    expect(e.distance_km!).toBeGreaterThan(150);
  });
});

describe('point readings', () => {
  it('magnitude: the latest revision counts, not the largest', () => {
    const e = evaluate(crit({ threshold_type: 'magnitude', threshold_value: 7 }), {
      kind: 'readings',
      readings: [reading('2022-01-01T00:00:00Z', 7.4), reading('2022-01-01T06:00:00Z', 6.9)],
    });
    expect(e).toMatchObject({ observed_value: 6.9, state: 'alert', proximity_pct: 98.6 });
  });
  it('gauge stage: the highest reading inside the circle; a gauge outside does not count', () => {
    const e = evaluate(crit({ threshold_type: 'gauge_stage_ft', threshold_value: 20 }), {
      kind: 'readings',
      readings: [
        reading('2022-01-01T00:00:00Z', 18),
        reading('2022-01-01T01:00:00Z', 12),
        reading('2022-01-01T02:00:00Z', 40, 2),
      ],
    });
    expect(e).toMatchObject({
      observed_value: 18,
      observed_at: '2022-01-01T00:00:00Z',
      proximity_pct: 90,
      state: 'alert',
    });
  });
  it('entered values: the latest report, entry order breaking a tie of times', () => {
    const at = '2022-10-05T00:00:00Z';
    const e = evaluate(crit({ threshold_type: 'industry_loss_usd', threshold_value: 30e9 }), {
      kind: 'entered',
      readings: [
        { id: 'b', seq: 2, at, value: 41e9, unit: 'USD', source: 'resurvey' },
        { id: 'a', seq: 1, at, value: 20e9, unit: 'USD', source: 'first' },
      ],
    });
    expect(e).toMatchObject({ observed_value: 41e9, state: 'triggered', distance_km: null });
  });
});

describe('evaluateAll', () => {
  const trigger = (o: Partial<TriggerSpec>): TriggerSpec => ({
    id: 't',
    account: 'a',
    name: 'n',
    peril: 'earthquake',
    ...site,
    radius_km: 50,
    threshold_type: 'magnitude',
    threshold_value: 7,
    alert_at_pct: 80,
    notes: null,
    status: 'active',
    created_at: '2022-01-01T00:00:00Z',
    ...o,
  });
  const quake = (id: string, dLat: number, type: LiveEventInput['event_type'] = 'earthquake'): LiveEventInput => ({
    event_id: id,
    source: 'usgs',
    source_id: id,
    title: id,
    event_type: type,
    source_version: 'v',
    fixes: [],
    readings: { magnitude: [reading('2022-01-01T00:00:00Z', 6, dLat)] },
  });
  it('pairs a trigger only with events of its peril inside its circle', () => {
    const pairs = evaluateAll(
      [trigger({})],
      [quake('near', 0.2), quake('far', 1), quake('other-peril', 0.1, 'volcano')],
      new Map(),
      () => 1,
    );
    expect(pairs.map((p) => p.event_id)).toEqual(['near']);
  });
});
