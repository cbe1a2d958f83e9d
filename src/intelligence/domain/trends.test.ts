/** The documented wildfire and gauge rules of the prediction (docs/intelligence.md), on hand-made series. */
import { describe, expect, it } from 'vitest';
import { fireOutlook, stageOutlook } from './trends.js';

const STAGES = { actionFt: 10, floodFt: 12, moderateFt: 15, majorFt: 18 };

describe('fireOutlook', () => {
  it('carries the latest daily growth forward, scaled by the uncontained share', () => {
    const o = fireOutlook(
      [
        { at: '2025-08-01T00:00:00Z', value: 1000 },
        { at: '2025-08-02T00:00:00Z', value: 3000 },
      ],
      [{ at: '2025-08-02T00:00:00Z', value: 50 }],
      '2025-08-02T00:00:00Z',
    );
    expect(o.growth_acres_per_day).toBe(2000);
    expect(o.projected).toEqual([
      { hours: 24, at: '2025-08-03T00:00:00.000Z', acres: 4000 },
      { hours: 72, at: '2025-08-05T00:00:00.000Z', acres: 6000 },
    ]);
    expect(o.trend).toBe('growing');
  });

  it('with one report: no rate, held from 90 % containment, contained at 100 %', () => {
    const one = [{ at: '2025-08-01T00:00:00Z', value: 640 }];
    expect(fireOutlook(one, [], '2025-08-02T00:00:00Z').trend).toBe('unknown');
    expect(fireOutlook(one, [{ at: '2025-08-01T00:00:00Z', value: 92 }], '2025-08-02T00:00:00Z').trend).toBe('holding');
    expect(fireOutlook(one, [{ at: '2025-08-01T00:00:00Z', value: 100 }], '2025-08-02T00:00:00Z').trend).toBe(
      'contained',
    );
  });
});

describe('stageOutlook', () => {
  it('projects the least-squares slope of the last 6 h and names each projected category', () => {
    const readings = [0, 1, 2, 3].map((h) => ({
      at: new Date(Date.UTC(2025, 0, 1, h)).toISOString(),
      value: 10 + 0.5 * h,
    }));
    const o = stageOutlook(readings, STAGES, '2025-01-01T03:00:00.000Z');
    expect(o.trend_ft_per_hour).toBe(0.5);
    expect(o.trend).toBe('rising');
    expect(o.category).toBe('action stage');
    expect(o.projected).toEqual([
      { hours: 6, at: '2025-01-01T09:00:00.000Z', stage_ft: 14.5, category: 'minor flood' },
      { hours: 24, at: '2025-01-02T03:00:00.000Z', stage_ft: 23.5, category: 'major flood' },
    ]);
  });

  it('needs three readings for a trend', () => {
    const o = stageOutlook(
      [
        { at: '2025-01-01T00:00:00Z', value: 11 },
        { at: '2025-01-01T01:00:00Z', value: 12 },
      ],
      STAGES,
      '2025-01-01T01:00:00Z',
    );
    expect([o.trend, o.projected.length, o.category]).toEqual(['unknown', 0, 'minor flood']);
  });
});
