import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTable } from './csv.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-csv-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, text);
  return f;
};

describe('Oasis CSV columns read from bytes', () => {
  it('reads every cell as Number() reads its text', () => {
    const cells = [
      '12',
      '-3',
      '0.7',
      '250000.0',
      '.5',
      '-0.0',
      '5.',
      '00012',
      '1.0000000000e+00',
      '0.1234567890123456',
      '123456789012345678',
      ' 4 ',
      '',
      '1e-7',
      '0.30000000000000004',
      '9007199254740993',
    ];
    const t = readTable(file('n.csv', `v\n${cells.join('\n')}\n`), ['v']);
    // An empty line is skipped (as split(/\r?\n/) and a filter would), so '' is not a row here.
    const expected = cells.filter((c) => c !== '').map(Number);
    expect([...t.col('v')].map((x) => (Object.is(x, -0) ? '-0' : x))).toEqual(
      expected.map((x) => (Object.is(x, -0) ? '-0' : x)),
    );
  });

  it('CRLF lines, empty lines, an empty last cell, a short row named with its line', () => {
    const t = readTable(file('l.csv', 'a,b,c\r\n1,2.5,-3\r\n\r\n4,5,\n6,7,8'), ['a', 'c']);
    expect(t.rows).toBe(3);
    expect([...t.col('b')]).toEqual([2.5, 5, 7]);
    expect([...t.col('c')]).toEqual([-3, 0, 8]);
    expect(() => readTable(file('s.csv', 'a,b\n1,2\n3\n'), []).col('b')).toThrow(/s\.csv line 3: b "" is not a number/);
    expect(() => readTable(file('x.csv', 'a,b\n1,x\n'), []).col('b')).toThrow(/line 2: b "x" is not a number/);
  });

  it('required columns, read in one pass, give what each read alone gives, errors included', () => {
    const text = 'x,a,y,b\r\n1,2.5,q,-3\n\n4,5,r,\n6,7,s,8\n9,10\n';
    const alone = readTable(file('r1.csv', text), []);
    const together = readTable(file('r2.csv', text), ['b', 'a', 'a', 'x']);
    for (const c of ['x', 'a']) expect([...together.col(c)]).toEqual([...alone.col(c)]);
    expect(() => together.col('b')).toThrow(/r2\.csv line 5: b "" is not a number/);
    expect(() => together.col('y')).toThrow(/r2\.csv line 2: y "q" is not a number/);
    expect(() => readTable(file('r3.csv', 'a,b\n1,x\n2,y\n'), ['a', 'b']).col('b')).toThrow(/line 2: b "x"/);
    expect([...readTable(file('r4.csv', 'a,b\n1,x\n2,y\n'), ['a', 'b']).col('a')]).toEqual([1, 2]);
  });
});
