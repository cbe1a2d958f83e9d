/**
 * `catintel oasis files` on a large book stays small in memory: the seeded synthetic book the bench uses
 * (50,000 locations in accounts of 1,000, site deductibles and limits, an account policy with two layers),
 * run as a user runs it, its peak resident memory read by the process itself as it exits. The FM
 * programme is held as columns and the files are written straight from them, so a million locations fit
 * in a few gigabytes; a programme held as an object per item took about 10 KB a location, and this book
 * past 500 MB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { writeSyntheticOed } from '../bench/synthetic-oed.js';

const LOCATIONS = 50_000;
/** Peak resident memory allowed: Node's own ~60 MB and under 5 KB a location. */
const PEAK_RSS_MB = 300;
/** Prints the process's peak resident memory (KB) to stderr as it exits. */
const PEAK_PROBE =
  "data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss-kb '+process.resourceUsage().maxRSS+'\\n'))";

describe('oasis files at scale', () => {
  it(`writes the files of ${LOCATIONS.toLocaleString('en-US')} locations with two account layers in under ${PEAK_RSS_MB} MB peak memory`, () => {
    const dir = tempDir('catintel-oasis-files-scale-');
    try {
      const book = writeSyntheticOed(dir, LOCATIONS, 20261128);
      const out = path.join(dir, 'out');
      const r = spawnSync(
        process.execPath,
        [
          '--import',
          PEAK_PROBE,
          'bin/catintel',
          '--quiet',
          'oasis',
          'files',
          '--oed-location',
          book.location,
          '--oed-account',
          book.account,
          '--keys',
          book.keys,
          '--out',
          out,
        ],
        { encoding: 'utf8' },
      );
      expect(r.stderr.replace(/peak-rss-kb \d+\n/, '')).toBe('');
      expect(r.status).toBe(0);
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
      const rows = Object.fromEntries(manifest.outputs.map((f: { file: string; rows: number }) => [f.file, f.rows]));
      // Building, contents and (for about 3 in 10 locations) BI items; each item under both layers.
      expect(rows['items.csv']).toBeGreaterThan(2.2 * LOCATIONS);
      expect(rows['fm_xref.csv']).toBe(2 * rows['items.csv']);
      const peakMb = Number(/peak-rss-kb (\d+)/.exec(r.stderr)![1]) / 1024;
      expect(peakMb).toBeLessThan(PEAK_RSS_MB);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
