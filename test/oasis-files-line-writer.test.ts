/**
 * The byte writer behind `catintel oasis files` prints every number as the files always had it (`${x}`):
 * integers digit by digit, fractions, large and negative values, -0, and text in any script.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { LineWriter } from '../src/oasis-files/line-writer.js';

const NUMBERS = [
  0,
  -0,
  1,
  9,
  10,
  99,
  100,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 31 + 7,
  -(2 ** 31),
  2 ** 53 - 1,
  -(2 ** 53 - 1),
  2 ** 53,
  1e21,
  123456.789,
  0.1 + 0.2,
  -2.5e-7,
  1 / 3,
  150000 / 7,
  Number.NaN,
  Infinity,
];

describe('LineWriter', () => {
  it('writes numbers and text exactly as template strings print them, across buffer refills', () => {
    const dir = tempDir('catintel-line-writer-');
    try {
      const file = path.join(dir, 'out.csv');
      const fd = fs.openSync(file, 'w');
      const out = new LineWriter(fd);
      const expected: string[] = [];
      // Enough lines to refill the 1 MiB buffer several times.
      for (let i = 0; i < 60_000; i++) {
        const x = NUMBERS[i % NUMBERS.length];
        const label = i % 7 === 0 ? `Zürich-${i}` : i % 11 === 0 ? 'x'.repeat(40 + (i % 50)) : `L${i}`;
        out.num(x).comma().int(i).comma().text(label).end();
        expected.push(`${x},${i},${label}`);
      }
      out.line('end');
      out.flush();
      fs.closeSync(fd);
      expect(fs.readFileSync(file, 'utf8')).toBe(expected.join('\n') + '\nend\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
