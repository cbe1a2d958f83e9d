import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../scripts/make-us-portfolio.js';
import { parseCoordinate } from './coordinates.js';
import { CsvScanner, type ScannedRow } from './scanner.js';

function field(text: string): number {
  let value = NaN;
  new CsvScanner(0x2c).scan(Buffer.from(`${text}\n`), 0, text.length + 1, true, (r: ScannedRow) => {
    value = parseCoordinate(r, 0);
  });
  return value;
}

describe('coordinate parsing', () => {
  it('gives exactly the double Number() gives, for the decimals a portfolio holds', () => {
    const rand = mulberry32(7);
    for (let i = 0; i < 20_000; i++) {
      const digits = Math.floor(rand() * 10);
      const text = ((rand() - 0.5) * 360).toFixed(digits);
      expect(field(text)).toBe(Number(text));
    }
    for (const text of [
      '25.77',
      '-80.190000',
      '+12.5',
      '.5',
      '7.',
      '0',
      '-0.0',
      '1e2',
      '-1.5E-3',
      '12.3456789012345678',
      ' 40.7 ',
      '"-73.9"',
    ]) {
      expect(field(text)).toBe(Number(text.replaceAll('"', '').trim()));
    }
  });

  it('refuses text that is not a plain decimal number', () => {
    for (const text of [
      '',
      ' ',
      'abc',
      'N/A',
      '0x1A',
      'Infinity',
      'NaN',
      '"1,5"',
      '52°N',
      '1e',
      '--1',
      '1.2.3',
      '"',
      '""',
    ]) {
      expect(field(text), text).toBeNaN();
    }
  });
});
