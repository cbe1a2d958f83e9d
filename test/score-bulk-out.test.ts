/**
 * `catintel score --out DIR` where DIR cannot be used: the run stops at once with one line that names the
 * path and the reason, exit code 2, nothing written, and it never hangs (`/proc/nope/x` used to spin at
 * 100% CPU inside Node's recursive mkdir: each case has a short timeout).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';

let dir: string;
let input: string;
beforeAll(() => {
  dir = tempDir('catintel-score-out-');
  input = path.join(dir, 'sites.csv');
  fs.writeFileSync(input, 'id,lat,lng\nA,25.77,-80.19\n');
  fs.writeFileSync(path.join(dir, 'a-file'), 'not a directory\n');
  fs.symlinkSync(path.join(dir, 'missing-target'), path.join(dir, 'dangling'));
});

const score = (out: string) => cli(['score', '--input', input, '--out', out]);

describe('catintel score --out: a place that cannot hold the outputs', () => {
  const cases: [string, () => string, RegExp][] = [
    [
      'a file',
      () => path.join(dir, 'a-file'),
      /^catintel: --out \S+\/a-file is a file, not a directory; give a directory for the outputs \[invalid_input\]\n$/,
    ],
    [
      'a directory under a file',
      () => path.join(dir, 'a-file', 'sub', 'out'),
      /^catintel: --out \S+\/a-file\/sub\/out: \S+\/a-file is a file, not a directory; .* \[invalid_input\]\n$/,
    ],
    [
      'a dangling symbolic link',
      () => path.join(dir, 'dangling'),
      /^catintel: --out \S+\/dangling is a symbolic link to \S+\/missing-target, which does not exist; create that directory or give another --out \[invalid_input\]\n$/,
    ],
    [
      'a directory under a dangling symbolic link',
      () => path.join(dir, 'dangling', 'out'),
      /^catintel: --out \S+\/dangling\/out: \S+\/dangling is a symbolic link to \S+\/missing-target, which does not exist; .* \[invalid_input\]\n$/,
    ],
    [
      'a new directory where the file system refuses one (/proc/nope/x: used to loop forever)',
      () => '/proc/nope/x',
      /^catintel: --out \/proc\/nope\/x: cannot create \/proc\/nope: the file system does not allow it there \(ENOENT\); give a directory you can write to \[invalid_input\]\n$/,
    ],
    [
      'a new directory in a read-only place (/sys)',
      () => '/sys/catintel-out',
      /^catintel: --out \/sys\/catintel-out: cannot create \/sys\/catintel-out: operation not permitted \(EPERM\); .* \[invalid_input\]\n$/,
    ],
    [
      'an existing directory that takes no files (/sys/kernel)',
      () => '/sys/kernel',
      /^catintel: --out \/sys\/kernel: cannot write files in \/sys\/kernel: permission denied \(EACCES\); give a directory you can write to \[invalid_input\]\n$/,
    ],
  ];
  it.each(cases)(
    '%s: exit 2, the path and the reason, nothing written',
    { timeout: 10_000 },
    async (_name, out, message) => {
      const before = fs.readdirSync(dir).sort();
      const r = await score(out());
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(fs.readdirSync(dir).sort()).toEqual(before);
    },
  );

  it(
    'makes missing parents; a run that scores nothing still writes its outputs there',
    { timeout: 10_000 },
    async () => {
      const out = path.join(dir, 'new', 'deeper', 'out');
      expect((await cli(['--quiet', 'score', '--input', input, '--out', out])).code).toBe(0);
      expect(fs.readdirSync(out).sort()).toEqual(['errors.csv', 'manifest.json', 'scores.csv']);
      const abroad = path.join(dir, 'abroad.csv');
      fs.writeFileSync(abroad, 'id,lat,lng\nP,48.86,2.35\n');
      // Nothing scored: the run fails (exit 2) but writes its outputs, which say why.
      const r = await cli(['--quiet', 'score', '--input', abroad, '--out', path.join(dir, 'other', 'out')]);
      expect(r.code).toBe(2);
      expect(fs.readFileSync(path.join(dir, 'other', 'out', 'errors.csv'), 'utf8')).toMatch(
        /^row,line,id,latitude,longitude,kind,reason\n1,2,P,48.86,2.35,outside_coverage,/,
      );
    },
  );
  it(
    "a run in a directory that holds another format's outputs replaces them: no scores.csv is left beside scores.parquet",
    { timeout: 60_000 },
    async () => {
      const out = path.join(dir, 'reformat');
      expect((await cli(['--quiet', 'score', '--input', input, '--out', out])).code).toBe(0);
      expect(fs.readdirSync(out).sort()).toEqual(['errors.csv', 'manifest.json', 'scores.csv']);
      expect((await cli(['--quiet', 'score', '--input', input, '--out', out, '--format', 'parquet'])).code).toBe(0);
      expect(fs.readdirSync(out).sort()).toEqual(['errors.csv', 'manifest.json', 'scores.parquet']);
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
      expect(manifest.outputs.map((o: { file: string }) => o.file).sort()).toEqual(['errors.csv', 'scores.parquet']);
    },
  );
});
