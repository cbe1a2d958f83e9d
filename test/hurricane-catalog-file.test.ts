/**
 * The hazard curve's catalog kept between processes (src/models/hurricane/io/catalog-file.ts): what a read
 * gives is what a build gives, track for track and number for number; a file is read back rather than built
 * again; a file cut short, damaged or of other code or data is built again and replaced.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedCatalog, readCatalog, writeCatalog } from '../src/models/hurricane/io/catalog-file.js';
import { buildHurricaneTrackSet } from '../src/models/hurricane/track-set.js';
import { tempDir } from './helpers/cli.js';
import { SHARED_DATA } from './helpers/paths.js';

const options = { dataDir: SHARED_DATA, years: 20, seed: 7 };
const built = () => {
  const set = buildHurricaneTrackSet(options);
  return { tracks: set.tracks, years: set.years };
};
const fileIn = (cacheDir: string) => path.join(cacheDir, 'hurricane-catalogs', '20-years-seed-7.bin');

describe('the hurricane catalog file', () => {
  it('gives the tracks a build gives, and is read back by the next call', () => {
    const cacheDir = tempDir('catintel-catalog-');
    const expected = built();
    expect(expected.tracks.length).toBeGreaterThan(50);
    expect(cachedCatalog({ ...options, cacheDir })).toEqual(expected);
    expect(fs.existsSync(fileIn(cacheDir))).toBe(true);
    expect(cachedCatalog({ ...options, cacheDir })).toEqual(expected);

    // Read, not built: a file of the same key holding fewer tracks is what the next call answers.
    const key = JSON.parse(fs.readFileSync(fileIn(cacheDir), 'utf8').split('\n')[0]).key as string;
    writeCatalog(fileIn(cacheDir), key, { tracks: expected.tracks.slice(0, 3), years: 20 });
    expect(cachedCatalog({ ...options, cacheDir }).tracks).toEqual(expected.tracks.slice(0, 3));
  });

  it('builds again and replaces a file cut short, damaged, or of another key', () => {
    const cacheDir = tempDir('catintel-catalog-');
    const expected = built();
    const file = fileIn(cacheDir);
    cachedCatalog({ ...options, cacheDir });
    const whole = fs.readFileSync(file);
    const key = JSON.parse(whole.toString('utf8').split('\n')[0]).key as string;

    fs.writeFileSync(file, whole.subarray(0, whole.length - 100));
    expect(readCatalog(file, key)).toBeUndefined();
    expect(cachedCatalog({ ...options, cacheDir })).toEqual(expected);
    expect(fs.readFileSync(file).equals(whole)).toBe(true);

    fs.writeFileSync(file, 'not a catalog');
    expect(cachedCatalog({ ...options, cacheDir })).toEqual(expected);
    expect(fs.readFileSync(file).equals(whole)).toBe(true);

    writeCatalog(file, 'another key', { tracks: expected.tracks.slice(0, 3), years: 20 });
    expect(readCatalog(file, key)).toBeUndefined();
    expect(cachedCatalog({ ...options, cacheDir })).toEqual(expected);
    expect(readCatalog(file, key)).toEqual(expected);
  });
});
