import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutFile } from '../out-file.js';
import { KeyLineWriter, type KeyColumns } from './side-files.js';
import { readRows } from '../../csv/read-rows.js';

async function pendingLines(text: string, columns: Partial<KeyColumns>): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-pending-'));
  const file = path.join(dir, 'in.csv');
  fs.writeFileSync(file, text);
  const c: KeyColumns = {
    delimiter: 0x2c,
    latIndex: 3,
    lngIndex: 4,
    port: 0,
    acc: 1,
    loc: 2,
    perilsCovered: -1,
    tiv: [-1, -1, -1, -1],
    addCountry: false,
    perils: [],
    ...columns,
  };
  const out = await OutFile.create(dir, 'pending.csv', 't');
  const lines = new KeyLineWriter(c, out);
  await readRows(
    {
      file,
      dataStart: 0,
      delimiter: c.delimiter,
      chunkBytes: 64,
      expectFields: 0,
      fieldLimit: Math.max(1, lines.last + 1),
    },
    (r) => lines.row(r),
  );
  await out.close();
  return fs.readFileSync(out.tempPath, 'utf8').split('\n').slice(0, -1);
}

describe('KeyLineWriter (keys-pending.csv)', () => {
  it('numbers data rows from 0 across every digit carry, skipping blank lines', async () => {
    const rows = Array.from({ length: 1002 }, (_, i) => `P${i % 7},A${i},L${i},1,2`);
    rows.splice(10, 0, ''); // a blank line is not a row
    const lines = await pendingLines(rows.join('\n') + '\n', {});
    expect(lines).toHaveLength(1002);
    lines.forEach((l, d) => expect(l).toBe(`${d},P${d % 7},A${d},L${d}`));
  });

  it('writes the key fields of quoted, short and reordered rows, and the ones it adds', async () => {
    const text = ['L1,x,"P,1",A1,9', 'L2,x', 'L3,x,P3,"A ""3""",9,extra'].join('\n') + '\n';
    expect(await pendingLines(text, { port: 2, acc: 3, loc: 0 })).toEqual([
      '0,"P,1",A1,L1',
      '1,,,',
      '2,P3,"A ""3""",L3',
    ]);
    expect(await pendingLines('a,1\nb,2\n', { port: -1, acc: -1, loc: -1 })).toEqual([
      '0,catintel,catintel,1',
      '1,catintel,catintel,2',
    ]);
  });
});
