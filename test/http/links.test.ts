/**
 * Page links (hrefOf, src/domain/features.ts) read back as the query they were made from: numbers are written
 * without encodeURIComponent below 1e21, so every double and every string, however hostile, must still give
 * the text encodeURIComponent would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hrefOf } from '../../src/domain/features.js';

const encoded = (query: Record<string, string | number | undefined>): string => {
  const pairs = Object.entries(query).filter(([, v]) => v !== undefined && v !== '');
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
};

describe('page links', () => {
  it('write every number and string as encodeURIComponent does', () => {
    const value = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(1e21, -1e21, 1e-7, -0, 5e-324, Number.MAX_VALUE),
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z_]{1,12}$/), value), (query) => {
        const q = encoded(query);
        expect(hrefOf('/api/v1/events/nearby', query)).toBe(q ? `/api/v1/events/nearby?${q}` : '/api/v1/events/nearby');
      }),
      { numRuns: 5000 },
    );
  });

  it('read back through URLSearchParams as the values given', () => {
    const href = hrefOf('/p', {
      lat: -33.5,
      lng: 1e21,
      radius_km: 1e-7,
      status: 'active,monitoring',
      since: '2020-07-01T00:00:00+02:00',
    });
    expect(Object.fromEntries(new URL(href, 'http://x').searchParams)).toEqual({
      lat: '-33.5',
      lng: '1e+21',
      radius_km: '1e-7',
      status: 'active,monitoring',
      since: '2020-07-01T00:00:00+02:00',
    });
  });
});
