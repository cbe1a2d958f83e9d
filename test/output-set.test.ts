/**
 * The output set's commit when an earlier commit in the same directory was killed half way: the files
 * that commit had renamed into place and the files of the set it was replacing are named by no manifest,
 * and the next set must not leave them behind to read as its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { beginCommit, OutputSet } from '../src/lib/output-set.js';
import { tempDir } from './helpers/cli.js';

const listing = (dir: string) => fs.readdirSync(dir).sort();
const manifestOf = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
    .outputs.map((o: { file: string }) => o.file)
    .sort();

describe('OutputSet.commit after a commit that was killed between the old manifest and the new one', () => {
  it("removes the old set's and the interrupted set's files that the new set does not write", async () => {
    const dir = tempDir('catintel-output-set-');
    const first = await OutputSet.open(dir);
    first.write('a.csv', 'a\n1\n', 1);
    first.write('old-only.csv', 'x\n1\n', 1);
    await first.commit({ command: 'first' });
    expect(listing(dir)).toEqual(['a.csv', 'manifest.json', 'old-only.csv']);

    // A second run starts its commit, renames one of its files into place, and is killed there.
    const token = '999999-deadbeef';
    await beginCommit(dir, token, ['a.csv', 'half.csv']);
    fs.writeFileSync(path.join(dir, 'half.csv'), 'h\n1\n');
    expect(listing(dir)).not.toContain('manifest.json'); // the directory says "incomplete"

    const third = await OutputSet.open(dir);
    third.write('a.csv', 'a\n2\n', 1);
    await third.commit({ command: 'third' });
    expect(listing(dir)).toEqual(['a.csv', 'manifest.json']);
    expect(manifestOf(dir)).toEqual(['a.csv']);
  });

  it('a commit that completes leaves no record of itself behind', async () => {
    const dir = tempDir('catintel-output-set-');
    const set = await OutputSet.open(dir);
    set.write('only.csv', 'a\n', 0);
    await set.commit({});
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
