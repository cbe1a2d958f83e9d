import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvTextCell, isFormulaText } from '../lib/csv-cell.js';
import { CsvScanner, fieldText } from '../csv/scanner.js';
import { isFormulaField } from './formula-field.js';

/** Field 0 of a one-row CSV line, as the scanner reads it: [is a formula by bytes, its text]. */
function scanned(line: string): [boolean, string] {
  const scanner = new CsvScanner(0x2c);
  let out: [boolean, string] = [false, ''];
  scanner.scan(Buffer.from(line + '\n'), 0, Buffer.byteLength(line) + 1, true, (r) => {
    out = [isFormulaField(r, 0), fieldText(r, 0)];
  });
  return out;
}

describe('would-be formulas', () => {
  it('the byte rule on raw fields agrees with the text rule on their text, quoted or not', () => {
    const piece = fc.constantFrom(
      '=',
      '+',
      '-',
      '@',
      '\t',
      ' ',
      '1',
      '2.5',
      '.',
      'e',
      'E',
      '-3',
      'a',
      '"',
      'SUM(A1)',
      '💥',
    );
    const text = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, fc.boolean(), (t, quote) => {
        const line = quote ? `"${t.replaceAll('"', '""')}"` : t.replaceAll('"', "'");
        const [byBytes, read] = scanned(line);
        expect(byBytes).toBe(isFormulaText(read));
      }),
      { numRuns: 3000, seed: 27 },
    );
  });

  it('prefixes formulas with a quote and quotes them; numbers and plain text stay', () => {
    expect(csvTextCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvTextCell('  @SUM(A1)')).toBe(`"'  @SUM(A1)"`);
    expect(csvTextCell('-cmd')).toBe(`"'-cmd"`);
    expect(csvTextCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvTextCell('\r=1')).toBe(`"'\r=1"`);
    for (const n of ['-12.5', '+3', ' -1e5 ', '-.5', '7.']) expect(csvTextCell(n)).toBe(n);
    expect(csvTextCell('a,b')).toBe('"a,b"');
    expect(csvTextCell('Main St')).toBe('Main St');
  });
});
