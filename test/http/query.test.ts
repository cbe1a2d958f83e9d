/**
 * The query parameters a handler receives are URLSearchParams' reading of the request's query, whichever way
 * it was read (src/http/query.ts skips URLSearchParams when there is nothing to decode). Random query strings,
 * hostile ones among them, through both URL classes requests arrive with: the WHATWG URL and srvx's FastURL
 * (what h3 hands the pipeline behind `catintel serve`).
 */
import fc from 'fast-check';
import { FastURL } from 'srvx';
import { describe, expect, it } from 'vitest';
import { queryOf } from '../../src/http/query.js';
import { hostileString, SEED } from '../helpers/hostile.js';

/** URLSearchParams' reading, with repeated keys as arrays. */
function expected(url: URL): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = q[k];
    q[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return q;
}

const piece = fc.oneof(
  fc.constantFrom(
    'lat',
    'lng',
    'radius_km',
    'limit',
    'bbox',
    'status',
    'event_type',
    'cursor',
    'since',
    '',
    '=',
    '&',
    '%',
    '+',
    '%2C',
    '%zz',
    '%C3%A9',
    '%E9',
    '?',
    '#x',
    ' ',
    'é',
    ',',
    '-117.6',
    '1e3',
  ),
  fc.string({ maxLength: 6 }),
  hostileString,
);
const query = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

describe('queryOf', () => {
  it('reads what URLSearchParams reads, for any query string', () => {
    fc.assert(
      fc.property(query, (q) => {
        const text = `http://127.0.0.1/api/v1/events/nearby?${q}`;
        let native: URL;
        try {
          native = new URL(text);
        } catch {
          return; // not a URL a request can arrive with
        }
        expect(queryOf(native)).toEqual(expected(native));
        // As srvx's Node adapter makes it from the request target: parts given, parsed only when read.
        const fast = new FastURL({
          protocol: 'http:',
          host: '127.0.0.1',
          pathname: '/api/v1/events/nearby',
          search: `?${q}`,
        }) as unknown as URL;
        expect(queryOf(fast)).toEqual(expected(new URL(fast.href)));
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });

  it('gives a repeated key as an array, an empty value as the empty string, and skips empty pairs', () => {
    const url = new URL('http://x/p?status=active&&status=monitoring&flag&limit=&x=a=b');
    expect(queryOf(url)).toEqual({ status: ['active', 'monitoring'], flag: '', limit: '', x: 'a=b' });
  });

  it('decodes escapes and + when present', () => {
    const url = new URL('http://x/p?bbox=-125%2C32%2C-114%2C42&q=a+b&since=2020-07-01T21%3A00%3A00Z');
    expect(queryOf(url)).toEqual({ bbox: '-125,32,-114,42', q: 'a b', since: '2020-07-01T21:00:00Z' });
  });
});
