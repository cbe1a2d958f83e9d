/**
 * Hostile CSV rows for bulk scoring (issue 9 part 6): portfolios with random and malformed fields (SQL
 * text, traversal, NaN and Infinity, huge numbers, stray and unclosed quotes, line breaks, NUL bytes,
 * invalid UTF-8, fields of 100 KB, headers that repeat or lack a coordinate column) through the real CLI.
 * Each run ends with exit 0 (every row accounted for: rows = scored + errors + outside_coverage) or exit 2
 * with one line on stderr, never a crash, exit 1 or a hang. Seeded and bounded.
 */
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { HOSTILE_STRINGS, SEED } from './helpers/hostile.js';

const HEADERS = [
  'LocNumber',
  'Latitude',
  'Longitude',
  'BuildingTIV',
  'OccupancyCode',
  'id',
  'lat',
  'lng',
  'Latitude',
  '__proto__',
  "'; DROP TABLE x; --",
  '',
];
const GOOD: [string, string][] = [
  ['39.74', '-104.99'],
  ['32.78', '-96.8'],
  ['25.77', '-80.19'],
  ['47.6', '-122.33'],
];

const field = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 200_000)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '"',
      '""',
      '"a""b"',
      '"open',
      'inch 12" wall',
      'a,b',
      '"a\nb"',
      '\r',
      '\u0000',
      '1e5',
      '-0.0',
      '+39.7',
      ' 39.7 ',
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 2, arbitrary: fc.constantFrom(...GOOD.flat()) },
);

const portfolio = fc.record({
  header: fc.oneof(
    { weight: 4, arbitrary: fc.constant(['LocNumber', 'Latitude', 'Longitude', 'BuildingTIV']) },
    { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...HEADERS), { minLength: 1, maxLength: 6 }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...HEADERS), { minLength: 1, maxLength: 6 }) },
  ),
  rows: fc.array(
    fc.oneof(
      fc.array(field, { minLength: 0, maxLength: 7 }),
      fc.constantFrom(...GOOD).map(([a, b]) => ['L1', a, b, '100000']),
    ),
    { minLength: 0, maxLength: 25 },
  ),
  sep: fc.constantFrom('\n', '\r\n', '\r'),
  tail: fc.constantFrom('', '\n', '\n\n', '"', '\u0000', '\uFFFD'),
  bytes: fc.option(
    fc.constantFrom(Buffer.from([0xff, 0xfe]), Buffer.from([0xc3, 0x28]), Buffer.from([0xef, 0xbb, 0xbf])),
    { nil: undefined },
  ),
});

describe('hostile CSV rows through `catintel score --input`', () => {
  it('every portfolio ends with exit 0 and every row accounted for, or exit 2 with one line', async () => {
    const dir = tempDir('catintel-hostile-csv-');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(portfolio, fc.constantFrom('csv', 'json', 'oasis'), async (p, format) => {
        const text = [p.header.join(','), ...p.rows.map((r) => r.join(','))].join(p.sep) + p.tail;
        const file = path.join(dir, `in-${n}.csv`);
        fs.writeFileSync(file, p.bytes ? Buffer.concat([p.bytes, Buffer.from(text)]) : text);
        const out = path.join(dir, `out-${n++}`);
        const r = await cli(['--json', 'score', '--input', file, '--out', out, '--format', format]);
        expect([0, 2], `${JSON.stringify(text).slice(0, 300)}: ${r.stderr}`).toContain(r.code);
        if (r.code === 0) {
          const s = r.json();
          expect(s.rows).toBe(s.scored + s.errors + s.outside_coverage);
        } else {
          const problem = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
          expect(problem.code).toBe('invalid_input');
          expect(problem.detail.length).toBeGreaterThan(0);
        }
      }),
      { seed: SEED, numRuns: 120 },
    );
  });
});
