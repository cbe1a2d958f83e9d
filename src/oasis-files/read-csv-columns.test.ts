import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsvColumns } from './read-csv-columns.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-read-csv-columns-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, text);
  return f;
};

describe('readCsvColumns', () => {
  const rows = [
    ['P1', 'A1', ' L1 ', 'USD', '27.5'],
    ['P1', 'A1', 'L2\t', 'USD', '27.5'],
    ['P1', '"A,2"', 'L3', ' USD', '-82.25'],
    ['P1', 'A3', 'a location number longer than a slice', 'USD', ''],
    ['P1', 'A3', 'a location number longer than a slice', 'USD', '1e3'],
  ];
  const text =
    ['PortNumber,AccNumber,LocNumber,LocCurrency,Latitude', ...rows.map((r) => r.join(','))].join('\n') + '\n';
  const expected = {
    PortNumber: ['P1', 'P1', 'P1', 'P1', 'P1'],
    AccNumber: ['A1', 'A1', 'A,2', 'A3', 'A3'],
    LocNumber: ['L1', 'L2', 'L3', 'a location number longer than a slice', 'a location number longer than a slice'],
    LocCurrency: ['USD', 'USD', 'USD', 'USD', 'USD'],
    Latitude: ['27.5', '27.5', '-82.25', '', '1e3'],
  };

  it('reads an ASCII file and the same file with UTF-8 text alike: trimmed, unquoted, repeated values kept', () => {
    const ascii = readCsvColumns(file('ascii.csv', text), Object.keys(expected), 'test');
    expect(ascii.rows).toBe(5);
    expect(Object.fromEntries(ascii.cols)).toEqual(expected);
    const utf8 = readCsvColumns(file('utf8.csv', `${text}P2,Ä1,Lé,EUR,1\n`), Object.keys(expected), 'test');
    expect(utf8.rows).toBe(6);
    for (const [name, cells] of Object.entries(expected)) expect(utf8.cols.get(name)!.slice(0, 5)).toEqual(cells);
    expect(utf8.cols.get('AccNumber')![5]).toBe('Ä1');
    expect(utf8.cols.get('LocNumber')![5]).toBe('Lé');
  });

  it('gives a short row empty cells for the columns it lacks', () => {
    const t = readCsvColumns(file('short.csv', 'A,B,C\n1,2,3\n4\n'), ['A', 'C'], 'test');
    expect(t.cols.get('A')).toEqual(['1', '4']);
    expect(t.cols.get('C')).toEqual(['3', '']);
  });
});
