/**
 * `oasis files` in memory (oasisInputTables, what an EP curve or an event loss hands its loss run): every
 * file reads as the written file reads, to the bit. On oasislmf's FM acceptance cases (conditions, step
 * policies, BI, layers), each column of each file through the in-memory table against readTable of the
 * file `oasis files` writes: the same numbers (bit for bit, -0 and all), the same refusal for a column
 * that is not numbers, the same text. Then the cells a reader of the bytes would take otherwise: a comma
 * inside a text cell (split as the reader splits it), a quote or a line break (the bytes handed over).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable, type Table } from '../src/loss/io/csv.js';
import { InputFiles } from '../src/loss/io/input-files.js';
import { summaryMapTiv } from '../src/loss/io/summary-tiv.js';
import { oasisFiles, oasisInputTables } from '../src/oasis-files/run.js';
import { WrittenTable } from '../src/oasis-files/written-table.js';
import type { RowWriter } from '../src/oasis-files/row-writer.js';
import { tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const CASES_DIR = sharedData('oasis_fm_validation');
const CASES = [
  'insurance',
  'insurance_and_step',
  'insurance_bi',
  'insurance_conditions',
  'insurance_policy_coverage',
  'issues',
  'issue_1953_layerparticipation',
];

/** A column's numbers, or the refusal reading it gives. */
function outcome(t: Table, name: string): number[] | string {
  try {
    return Array.from(t.col(name));
  } catch (err) {
    return (err as Error).message.replace(/^\S*\//, '');
  }
}

/** Same numbers bit for bit (Object.is tells -0 from 0), or the same refusal. */
function expectSameColumn(mem: number[] | string, disk: number[] | string, where: string): void {
  if (typeof mem === 'string' || typeof disk === 'string') {
    expect(mem, where).toEqual(disk);
    return;
  }
  expect(mem.length, where).toBe(disk.length);
  const differ = mem.findIndex((v, i) => !Object.is(v, disk[i]));
  expect(differ, `${where}: row ${differ + 1}`).toBe(-1);
}

function expectSameTable(mem: Table, disk: Table, where: string): void {
  expect(mem.rows, where).toBe(disk.rows);
  expect(mem.columns, where).toEqual(disk.columns);
  for (const c of disk.columns) {
    expectSameColumn(outcome(mem, c), outcome(disk, c), `${where} ${c}`);
    expect(mem.text(c), `${where} ${c} text`).toEqual(disk.text(c));
  }
}

describe('oasisInputTables: each file as its written bytes read', () => {
  it.each(CASES)('%s: every column of every file, bit for bit', async (name) => {
    const dir = path.join(CASES_DIR, name);
    const opts = {
      location: path.join(dir, 'location.csv'),
      account: path.join(dir, 'account.csv'),
      modelPerils: ['WTC'],
    };
    const out = tempDir('catintel-oasis-in-memory-');
    try {
      await oasisFiles({ ...opts, out });
      const { tables } = oasisInputTables(opts);
      const written = fs.readdirSync(out).filter((f) => f.endsWith('.csv'));
      expect([...tables.keys()].sort()).toEqual(written.sort());
      for (const file of written) {
        const source = tables.get(file) as WrittenTable;
        const disk = readTable(path.join(out, file), []);
        const mem = source.read([]);
        expect(mem, `${name} ${file}`).toBeDefined();
        expectSameTable(mem!, disk, `${name} ${file}`);
        // The required columns read together, as readTable reads them, and the bytes it would write.
        const some = disk.columns.slice(0, 3);
        expectSameTable(source.read(some)!, readTable(path.join(out, file), some), `${name} ${file} together`);
        expect(source.bytes().equals(fs.readFileSync(path.join(out, file))), `${name} ${file} bytes`).toBe(true);
      }
      // The loss readers' lookup: the same summary TIV from memory as from the folder.
      const input = InputFiles.of(path.join(out, 'not-there'), tables);
      expect(summaryMapTiv(input, 'fm_summary_map.csv', 'output_id')).toBe(
        summaryMapTiv(out, 'fm_summary_map.csv', 'output_id'),
      );
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('WrittenTable: cells a reader of the bytes takes its own way', () => {
  const header = 'id,name,value,blank';
  const file = (rows: (out: RowWriter) => void) => ({
    name: 'map.csv',
    header,
    writeRows(out: RowWriter) {
      rows(out);
      return 0;
    },
  });
  const disk = (source: WrittenTable, required: string[]) => readTable('map.csv', required, source.bytes());

  it('numbers as the written text reads back: -0, fractions, large, non-numbers refused alike; short and long rows; empty lines skipped', () => {
    const source = new WrittenTable(
      file((out) => {
        out.int(1).comma().text('a').comma().num(-0).comma().end();
        out
          .int(2)
          .comma()
          .text('b,c')
          .comma()
          .num(0.1 + 0.2)
          .end();
        out.end();
        out
          .int(2 ** 31 + 5)
          .comma()
          .num(1e21)
          .comma()
          .num(-1.5e-7)
          .comma()
          .text(' 7 ')
          .end();
        out.int(-0.5).comma().int(3).num(4).comma().text('12').num(0.5).comma().int(9).comma().int(10).end();
        out.line('5,x');
        out.num(Number.NaN).comma().num(Number.POSITIVE_INFINITY).end();
      }),
    );
    for (const required of [[], ['id', 'value'], ['name', 'blank']])
      expectSameTable(source.read(required)!, disk(source, required), `required ${required.join(',')}`);
  });

  it('a quote or a line break in a text cell: no table, the bytes handed over and read as on disk', () => {
    const quoted = new WrittenTable(file((out) => out.int(1).comma().text('"a, b"').comma().int(3).comma().end()));
    expect(quoted.read([])).toBeUndefined();
    const input = InputFiles.of('/nowhere', new Map([['map.csv', quoted]]));
    expect(input.tableOrBytes('map.csv', ['id'])).toEqual(quoted.bytes());
    expectSameTable(input.table('map.csv', ['id']), disk(quoted, ['id']), 'quoted');
    const broken = new WrittenTable(file((out) => out.int(1).comma().text('a\nb').comma().int(3).end()));
    expect(broken.read(['id'])).toBeUndefined();
    expect(broken.bytes().toString()).toBe(`${header}\n1,a\nb,3\n`);
  });
});
