import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { fieldText, type ScannedRow } from './scanner.js';
import { readRows } from './read-rows.js';

/** Every row of a CSV text as our scanner reads it, chunked small so rows straddle chunk boundaries. */
async function rowsOf(text: string, chunkBytes = 7, delimiter = 0x2c, expectFields = 0): Promise<string[][]> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-scan-')), 'x.csv');
  fs.writeFileSync(file, text);
  const out: string[][] = [];
  await readRows({ file, dataStart: 0, delimiter, chunkBytes, expectFields }, (r: ScannedRow) => {
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

  it('flags a quote left open at the end of the file, and reads that row as its line alone: the rows after it are kept', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-scan-')), 'x.csv');
    fs.writeFileSync(file, 'a,b\n1,"never closed\n2,3\n4,"open to the end');
    const rows: [boolean, string[]][] = [];
    await readRows({ file, dataStart: 0, delimiter: 0x2c, chunkBytes: 5, expectFields: 2 }, (r) => {
      rows.push([r.unterminated, Array.from({ length: r.fieldCount }, (_, i) => fieldText(r, i))]);
    });
    expect(rows).toEqual([
      [false, ['a', 'b']],
      [true, ['1', '"never closed']],
      [false, ['2', '3']],
      [true, ['4', '"open to the end']],
    ]);
  });

  it('with a field limit, splits only the first fields of a row without quotes, and every field of a row with one', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-scan-')), 'x.csv');
    fs.writeFileSync(file, 'P1,A1,L1,x,y,z\n\nP2,A2\nP3,A3,L3\r\nP4,"A,4",L4,x,y\nP5,A5,L5,x\n');
    const seen: { count: number; first: string[] }[] = [];
    await readRows({ file, dataStart: 0, delimiter: 0x2c, chunkBytes: 6, expectFields: 0, fieldLimit: 3 }, (r) => {
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

  it("reads a quote inside an unquoted field as a literal, as Python's csv module and DuckDB do (an inch mark does not swallow the file)", async () => {
    // Expected rows: Python's csv.reader on the same text.
    const text = 'id,addr,lat\n1,12" Oak Ave,25\n2,"a ""b"" c",26\n3,ab"c"d,27\n5,"q""",29\n6,"x, y",30\n';
    const python = [
      ['id', 'addr', 'lat'],
      ['1', '12" Oak Ave', '25'],
      ['2', 'a "b" c', '26'],
      ['3', 'ab"c"d', '27'],
      ['5', 'q"', '29'],
      ['6', 'x, y', '30'],
    ];
    expect(await rowsOf(text)).toEqual(python);
    expect(await rowsOf(text, 1 << 20, 0x2c, 3)).toEqual(python);
  });

  it("reads a quote that closes on a later line across lines only when that makes a row of the header's size, closed cleanly", async () => {
    const text = [
      'id,addr,lat,lng',
      '1,"two\nlines",25,-80', // a line break inside quotes: one row
      '2,"stray,25,-80', // closes at row 4's opening quote, with text after it: a stray quote
      '3,x,25,-80',
      '4,"ok",25,-80',
      '5,"stray again,25,-80', // closes at row 6's: the row would have 6 fields
      '6,x,"y",25,-80',
      '7,z,25,-80',
      '8,"stray at the address,25,-80', // would close at the inch mark two rows on, with a whole row inside
      '9,x,25,-80',
      '10,Unit 12",25,-80',
      '11,"a\nb, c\nd",25,-80', // line breaks and a comma inside quotes, no row inside: one row
    ].join('\n');
    expect(await rowsOf(text, 7, 0x2c, 4)).toEqual([
      ['id', 'addr', 'lat', 'lng'],
      ['1', 'two\nlines', '25', '-80'],
      ['2', '"stray,25,-80'],
      ['3', 'x', '25', '-80'],
      ['4', 'ok', '25', '-80'],
      ['5', '"stray again,25,-80'],
      ['6', 'x', 'y', '25', '-80'],
      ['7', 'z', '25', '-80'],
      ['8', '"stray at the address,25,-80'],
      ['9', 'x', '25', '-80'],
      ['10', 'Unit 12"', '25', '-80'],
      ['11', 'a\nb, c\nd', '25', '-80'],
    ]);
  });

  it('splits on the delimiter it is given', async () => {
    expect(await rowsOf('a;b;c\n1;"x;y";3\n', 4, 0x3b)).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x;y', '3'],
    ]);
  });
});
