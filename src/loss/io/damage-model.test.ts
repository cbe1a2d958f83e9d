/**
 * The damage side of a model (damage_bin_dict.csv, vulnerability.csv) is parsed once while its files are
 * unchanged, and read again as soon as either is rewritten: a server running one EP curve after another
 * no longer parses a package's vulnerability.csv each time, and never answers from a file that changed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { missingVulnerabilities } from '../../models/hurricane/package/book-keys.js';
import { readDamageModel } from './damage-model.js';

function write(dir: string, name: string, rows: (string | number)[][]): void {
  fs.writeFileSync(path.join(dir, name), rows.map((r) => r.join(',')).join('\n') + '\n');
}

const HEADER = ['vulnerability_id', 'intensity_bin_id', 'damage_bin_id', 'probability'];

let model: string;
beforeEach(() => {
  model = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-damage-model-'));
  write(model, 'damage_bin_dict.csv', [
    ['bin_index', 'bin_from', 'bin_to', 'interpolation'],
    [1, 0, 0, 0],
    [2, 0, 0.5, 0.25],
    [3, 0.5, 1, 0.75],
  ]);
  write(model, 'vulnerability.csv', [HEADER, [1, 1, 2, 1], [2, 1, 3, 1]]);
});

describe('the damage model of a package', () => {
  it('is parsed once while its files are unchanged', () => {
    const first = readDamageModel(model);
    expect(first.vuln.mean.get(1)![1]).toBe(0.25);
    expect(first.damage.nDamage).toBe(3);
    expect([...first.binFrom]).toEqual([0, 0, 0.5]);
    expect(readDamageModel(model)).toBe(first);
  });

  it('is the same through links to the same files (an event package links its package)', () => {
    const linked = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-damage-model-linked-'));
    for (const f of ['damage_bin_dict.csv', 'vulnerability.csv'])
      fs.symlinkSync(path.join(model, f), path.join(linked, f));
    expect(readDamageModel(linked)).toBe(readDamageModel(model));
  });

  it('is read again when vulnerability.csv or damage_bin_dict.csv is rewritten in place, even at the same size', () => {
    const first = readDamageModel(model);
    write(model, 'vulnerability.csv', [HEADER, [1, 1, 3, 1], [2, 1, 2, 1]]);
    const second = readDamageModel(model);
    expect(second).not.toBe(first);
    expect(second.vuln.mean.get(1)![1]).toBe(0.75);
    write(model, 'damage_bin_dict.csv', [
      ['bin_index', 'bin_from', 'bin_to', 'interpolation'],
      [1, 0, 0, 0],
      [2, 0, 0.5, 0.35],
      [3, 0.5, 1, 0.75],
    ]);
    expect(readDamageModel(model).vuln.mean.get(2)![1]).toBe(0.35);
  });

  it('reports a bad file on every read, never keeping a failed one', () => {
    write(model, 'vulnerability.csv', [HEADER, [1, 1, 2, 'x']]);
    for (let k = 0; k < 2; k++) expect(() => readDamageModel(model)).toThrow(/probability "x" is not a number/);
  });

  it("lists the vulnerabilities a book's keys need that the package lacks, from the file as it is now", () => {
    const keys = [3, 1].map(
      (vulnerabilityId) => ({ vulnerabilityId }) as Parameters<typeof missingVulnerabilities>[1][0],
    );
    expect(missingVulnerabilities(model, keys)).toEqual([3]);
    write(model, 'vulnerability.csv', [HEADER, [1, 1, 2, 1], [3, 1, 3, 1]]);
    expect(missingVulnerabilities(model, keys)).toEqual([]);
  });
});
