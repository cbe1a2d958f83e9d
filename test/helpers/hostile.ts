/**
 * Hostile values for the property tests (test/hostile-input*.test.ts): what attackers, fuzzers and broken
 * clients send. SQL text, path traversal, NaN and Infinity, numbers past double range, dates past year
 * 9999, control characters and lone surrogates, malformed percent-encoding, deep nesting, oversized values.
 */
import fc from 'fast-check';

export const SEED = 20261125;

export const HOSTILE_STRINGS: string[] = [
  "' OR '1'='1",
  '1; DROP TABLE events; --',
  "') UNION SELECT key_hash FROM api_keys --",
  '$1',
  '?',
  '%s%s%s%n',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'file:///etc/passwd',
  '/dev/zero',
  '/proc/self/environ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e-400',
  '9'.repeat(400),
  '-0',
  '0x1F',
  '1_000',
  ' 1 ',
  '1,5',
  '',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '\uDC00x',
  '\u202E',
  '💥',
  'é',
  '\r\n',
  '\t',
  ' ',
  'a'.repeat(100_000),
  ','.repeat(5000),
  '-180,-90,180,90',
  '180,90,-180,-90',
  '1,2,3,4,5',
  'NaN,NaN,NaN,NaN',
  '2024-13-45T25:61:61Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '2024-02-30',
  '1970-01-01T00:00:00+99:99',
  '['.repeat(5000),
  '{"a":'.repeat(2000),
  'ci_live_' + 'A'.repeat(43),
  'Bearer x',
  'eyJhbGciOiJub25lIn0.eyJ0aWVyIjoiZW50ZXJwcmlzZSJ9.',
];

/** Raw (already percent-encoded or deliberately malformed) query and path fragments. */
export const RAW_FRAGMENTS: string[] = [
  '%',
  '%FF',
  '%C3%28',
  '%00',
  '%E0%80%80',
  '%ED%A0%80',
  '%2e%2e%2f%2e%2e%2f',
  '%%',
  '%zz',
  '%C0%AF',
  '+',
  '%2B%20',
];

/** A hostile string value: a known bad one, or random text of any script and length. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  {
    weight: 1,
    arbitrary: fc
      .date({ noInvalidDate: false })
      .map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString())),
  },
);

/** A query value as it goes on the wire: percent-encoded text, or a raw malformed fragment. */
export const wireValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: hostileString.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_FRAGMENTS) },
);

/** Deeply nested JSON text (arrays or objects), past any sane recursion depth. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Any JSON-ish value with hostile leaves, including numbers JSON cannot carry (they become null or strings). */
export const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(
    NaN,
    Infinity,
    -Infinity,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    -0,
    0,
    1,
    -1,
    true,
    false,
    null,
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 5 }),
);

/** Bytes that are not UTF-8. */
export const INVALID_UTF8 = [
  Uint8Array.from([0xff, 0xfe, 0xfd]),
  Uint8Array.from([0xc3, 0x28]),
  Uint8Array.from([0xed, 0xa0, 0x80]),
  Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), // {"a":"<overlong />"}
];
