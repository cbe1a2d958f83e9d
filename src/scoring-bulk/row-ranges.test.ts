/**
 * Row ranges (`score --queue`, docs/scale-out.md): whatever the number of ranges, reading each range with
 * readRows' dataEnd gives, end to end, exactly the rows one pass over the whole file gives, with the row and
 * line numbers the whole-file pass has at each cut, on a file with quoted line breaks, blank lines, CRLF
 * line ends and a stray quote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readInputHeader } from '../csv/header.js';
import { readRows } from '../csv/read-rows.js';
import { rowRanges } from './row-ranges.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-row-ranges-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(): string {
  const lines = ['id,name,latitude,longitude'];
  for (let i = 1; i <= 400; i++) {
    if (i % 37 === 0) lines.push(`${i},"a name with a line\nbreak, and a comma",25.7,-80.1`);
    else if (i % 41 === 0) lines.push('');
    else if (i % 53 === 0) lines.push(`${i},12" Oak Ave,25.7,-80.1\r`);
    else if (i % 59 === 0) lines.push(`${i},"stray quote,25.7,-80.1`);
    else lines.push(`${i},Site ${i},${(25 + i / 100).toFixed(2)},-80.1`);
  }
  const f = path.join(dir, 'sites.csv');
  fs.writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

interface Row {
  at: number;
  text: string;
  unterminated: boolean;
}

async function rows(f: string, start: number, end?: number): Promise<Row[]> {
  const h = await readInputHeader(f);
  const out: Row[] = [];
  await readRows(
    { file: f, dataStart: start, dataEnd: end, delimiter: h.delimiter, expectFields: h.columns.length },
    (r) =>
      out.push({
        at: r.bufFileOffset + r.rowStart,
        text: r.buf.toString('utf8', r.rowStart, r.rowEnd),
        unterminated: r.unterminated,
      }),
  );
  return out;
}

describe('row ranges', () => {
  it('read, end to end, the rows of one pass over the whole file, numbered as it numbers them', async () => {
    const f = file();
    const h = await readInputHeader(f);
    const whole = await rows(f, h.dataStart);
    expect(whole.some((r) => r.text.includes('\n'))).toBe(true); // a quoted line break read as one row
    expect(whole.some((r) => r.unterminated)).toBe(true); // the stray quote read as its line alone
    for (const n of [1, 2, 3, 5, 8, 13, 64]) {
      const ranges = await rowRanges(h, n);
      expect(ranges.length).toBeLessThanOrEqual(n);
      expect(ranges[0].start).toBe(h.dataStart);
      expect(ranges[ranges.length - 1].end).toBeUndefined();
      const parts: Row[] = [];
      for (const r of ranges) {
        const k = whole.findIndex((w) => w.at === r.start);
        expect(k).toBeGreaterThanOrEqual(0); // every cut is where the whole-file pass starts a row
        const before = whole.slice(0, k);
        expect(r.rowsBefore).toBe(before.filter((w) => w.text !== '' && w.text !== '\r').length);
        const lines = before.reduce((l, w) => l + 1 + (w.text.match(/\n/g)?.length ?? 0), 0);
        expect(r.firstLine).toBe(h.headerLines + 1 + lines);
        parts.push(...(await rows(f, r.start, r.end)));
      }
      expect(parts).toEqual(whole);
    }
  });
});
