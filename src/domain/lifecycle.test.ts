import { describe, expect, it } from 'vitest';
import { lifecycleOf, statusAt } from './lifecycle.js';

const at = (iso: string) => new Date(iso);

describe('event lifecycle', () => {
  it('ages an earthquake: active for a day, monitoring for the week, then ended', () => {
    const l = lifecycleOf({
      eventType: 'earthquake',
      startedAt: '2020-07-01T00:00:00Z',
      sourceUpdatedAt: '2020-07-03T00:00:00Z',
      signals: {},
    });
    expect(statusAt(l, at('2020-07-01T23:59:00Z'))).toBe('active');
    expect(statusAt(l, at('2020-07-02T00:00:00Z'))).toBe('monitoring');
    expect(statusAt(l, at('2020-07-07T23:00:00Z'))).toBe('monitoring');
    expect(statusAt(l, at('2020-07-08T00:00:00Z'))).toBe('ended');
  });

  it('keeps an NWS alert active until it expires, then monitors it for a day at most', () => {
    const l = lifecycleOf({
      eventType: 'flood',
      startedAt: '2024-05-01T00:00:00Z',
      sourceUpdatedAt: '2024-05-01T00:00:00Z',
      signals: { expiresAt: '2024-05-01T06:00:00Z' },
    });
    expect(statusAt(l, at('2024-05-01T05:59:00Z'))).toBe('active');
    expect(statusAt(l, at('2024-05-01T06:00:00Z'))).toBe('monitoring');
    expect(statusAt(l, at('2024-05-02T06:00:00Z'))).toBe('ended');
  });

  it("lets the source's own signals win over age: winding -> monitoring now, endedAt -> ended then", () => {
    const base = {
      eventType: 'hurricane' as const,
      startedAt: '2022-09-22T18:00:00Z',
      sourceUpdatedAt: '2022-10-01T06:00:00Z',
    };
    expect(statusAt(lifecycleOf({ ...base, signals: { winding: true } }), at('2022-10-01T06:00:00Z'))).toBe(
      'monitoring',
    );
    const ended = lifecycleOf({ ...base, signals: { endedAt: '2022-10-01T06:00:00Z' } });
    expect(statusAt(ended, at('2022-10-01T05:00:00Z'))).toBe('active');
    expect(statusAt(ended, at('2022-10-01T06:00:00Z'))).toBe('ended');
  });
});
