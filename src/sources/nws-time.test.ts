import { describe, expect, it } from 'vitest';
import { nwsTime } from './nws-time.js';

const now = new Date('2026-07-15T20:00:44Z');

describe('nwsTime', () => {
  it('resolves weather.gov bundle placeholders against now', () => {
    expect(nwsTime('date:now -44 seconds', now)).toBe('2026-07-15T20:00:00.000Z');
    expect(nwsTime('date:now +4455 seconds', now)).toBe('2026-07-15T21:14:59.000Z');
    expect(nwsTime('date:now +2 hours', now)).toBe('2026-07-15T22:00:44.000Z');
    expect(nwsTime('date:now', now)).toBe('2026-07-15T20:00:44.000Z');
  });

  it('reads ISO 8601 with offsets as UTC and refuses anything else', () => {
    expect(nwsTime('2026-07-15T14:00:00-06:00', now)).toBe('2026-07-15T20:00:00.000Z');
    expect([null, '', '7/15/2026', 'date:later', 42].map((v) => nwsTime(v, now))).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
