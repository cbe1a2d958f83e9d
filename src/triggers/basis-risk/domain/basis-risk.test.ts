/** The basis-risk counts on a catalog small enough to count on paper (docs/basis-risk.md "The counts"). */
import { describe, expect, it } from 'vitest';
import { contingency, payoutLossCorrelation, thresholdSweep, type EventOutcome } from './basis-risk.js';

// Wind at the site (kt; null: never inside the circle) and the book's loss of six events over 10 years.
const EVENTS: EventOutcome[] = [
  { eventId: 1, value: 120, loss: 900 }, // pays, loses: hit
  { eventId: 2, value: 105, loss: 50 }, // pays, small loss: false alarm
  { eventId: 3, value: 90, loss: 700 }, // below the threshold, loses: miss
  { eventId: 4, value: null, loss: 600 }, // outside the circle, loses: miss
  { eventId: 5, value: 60, loss: 0 }, // quiet
  { eventId: 6, value: null, loss: 0 }, // touches neither: left out of the correlation
];

describe('basis-risk counts', () => {
  it('counts hits, misses and false alarms and their rates at a level', () => {
    expect(contingency(EVENTS, 'wind_speed_kt', 100, 500, 10)).toEqual({
      threshold: 100,
      hits: 1,
      misses: 2,
      false_alarms: 1,
      hit_rate: 1 / 3,
      miss_rate: 2 / 3,
      false_alarm_rate: 1 / 2,
      critical_success_index: 1 / 4,
      payouts_per_year: 0.2,
      loss_events_per_year: 0.3,
    });
  });

  it('reads a pressure threshold as the live rule does: it pays at or below it', () => {
    const storms: EventOutcome[] = [
      { eventId: 1, value: 940, loss: 800 },
      { eventId: 2, value: 960, loss: 800 },
    ];
    expect(contingency(storms, 'central_pressure_mb', 950, 500, 1)).toMatchObject({ hits: 1, misses: 1 });
  });

  it('correlates payout and loss over the events that concern either', () => {
    // Events 1-5: payout 1,1,0,0,0 against loss 900,50,700,600,0.
    const x = [1, 1, 0, 0, 0];
    const y = [900, 50, 700, 600, 0];
    const mx = 0.4;
    const my = 450;
    const sxy = x.reduce((s, xi, i) => s + (xi - mx) * (y[i] - my), 0);
    const sxx = x.reduce((s, xi) => s + (xi - mx) ** 2, 0);
    const syy = y.reduce((s, yi) => s + (yi - my) ** 2, 0);
    const r = payoutLossCorrelation(EVENTS, 'wind_speed_kt', 100);
    expect(r.events).toBe(5);
    expect(r.correlation).toBeCloseTo(sxy / Math.sqrt(sxx * syy), 12);
  });

  it('places the threshold where misses and false alarms are fewest', () => {
    const s = thresholdSweep(EVENTS, 'wind_speed_kt', 100, 500, 10);
    // At 90 kt event 3 becomes a hit; event 2 stays a false alarm until 110 kt, where event 1 still pays.
    expect(s.rows.find((r) => r.threshold === 90)).toMatchObject({ hits: 2, misses: 1, false_alarms: 1 });
    expect(s.rows.find((r) => r.threshold === 110)).toMatchObject({ hits: 1, misses: 2, false_alarms: 0 });
    expect(s.best).toMatchObject({ threshold: 90, hits: 2, misses: 1, false_alarms: 1 });
  });
});
