import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { fieldText, type ScannedRow } from './csv-scan.js';
import { readRows } from './rows.js';

/** Every row of a CSV text as our scanner reads it, chunked small so rows straddle chunk boundaries. */
async function rowsOf(text: string, chunkBytes = 7, delimiter = 0x2c): Promise<string[][]> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-scan-')), 'x.csv');
  fs.writeFileSync(file, text);
  const out: string[][] = [];
  await readRows({ file, dataStart: 0, delimiter, chunkBytes }, (r: ScannedRow) => {
    const fields: string[] = [];
    for (let i = 0; i < r.fieldCount; i++) fields.push(fieldText(r, i));
    out.push(fields);
  });
  return out;
}

describe('CSV row scanner', () => {
  it('reads what csv-parse reads: quotes, doubled quotes, delimiters and line breaks inside quotes, CRLF', async () => {
    const text = [
      'PortNumber,LocName,Latitude,Longitude',
      '1,"Smith, John ""Jack""",25.77,-80.19',
      '2,"two\nlines",29.76,-95.37\r',
      '3,plain,"34.05","-118.24"',
      '4,,1,2',
    ].join('\n');
    // A CR before a line break belongs to the line break (csv-parse keeps it when line endings are mixed).
    const expected = parse(text.replaceAll('\r\n', '\n'), { relax_column_count: true }) as string[][];
    expect(await rowsOf(text)).toEqual(expected);
    expect(await rowsOf(text, 1 << 20)).toEqual(expected);
  });

  it('keeps blank lines as empty rows (the caller skips them) and reads a last row without a line break', async () => {
    expect(await rowsOf('a,b\n\n1,2\n3,4')).toEqual([['a', 'b'], [''], ['1', '2'], ['3', '4']]);
  });

  it('flags a quote left open at the end of the file', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-scan-')), 'x.csv');
    fs.writeFileSync(file, 'a,b\n1,"never closed\n2,3\n');
    const flags: boolean[] = [];
    await readRows({ file, dataStart: 0, delimiter: 0x2c, chunkBytes: 5 }, (r) => flags.push(r.unterminated));
    expect(flags).toEqual([false, true]);
  });

  it('with a field limit, splits only the first fields of a row without quotes, and every field of a row with one', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-scan-')), 'x.csv');
    fs.writeFileSync(file, 'P1,A1,L1,x,y,z\n\nP2,A2\nP3,A3,L3\r\nP4,"A,4",L4,x,y\nP5,A5,L5,x\n');
    const seen: { count: number; first: string[] }[] = [];
    await readRows({ file, dataStart: 0, delimiter: 0x2c, chunkBytes: 6, fieldLimit: 3 }, (r) => {
      const n = Math.min(r.fieldCount, 3);
      seen.push({ count: r.fieldCount, first: Array.from({ length: n }, (_, i) => fieldText(r, i)) });
    });
    expect(seen).toEqual([
      { count: 4, first: ['P1', 'A1', 'L1'] }, // stopped after three fields: a count of at least 4
      { count: 1, first: [''] }, // blank
      { count: 2, first: ['P2', 'A2'] }, // short: counted in full
      { count: 3, first: ['P3', 'A3', 'L3'] },
      { count: 5, first: ['P4', 'A,4', 'L4'] }, // a quote: split in full
      { count: 4, first: ['P5', 'A5', 'L5'] },
    ]);
  });

  it('splits on the delimiter it is given', async () => {
    expect(await rowsOf('a;b;c\n1;"x;y";3\n', 4, 0x3b)).toEqual([['a', 'b', 'c'], ['1', 'x;y', '3']]);
  });
});
