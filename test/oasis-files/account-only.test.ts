/**
 * `catintel oasis files --oed-account A.csv` without --oed-location: an account-only cyber book, as
 * oasislmf's cyber acceptance case holds it (../shared/data/oasis_fm_validation/cyber: account.csv
 * alone, PolPerilsCovered CC1, AnnualRevenue 100,000). Its Oasis files match oasislmf's row for row,
 * for a model of one peril (CSB, expected/) and of two (CC1, expected_subperils/). A property account
 * file without its location file is refused naming the missing file; property terms and cyber fields
 * no FM term is built from are refused by name in an account-only book, and cyber terms beside a
 * location file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers/cli.js';
import { sharedData } from '../helpers/paths.js';
import { firstFileDifference } from '../../src/oasis-fm-test/compare-files.js';

const CASES = sharedData('oasis_fm_validation');
const CYBER = path.join(CASES, 'cyber');
const FILES = [
  'keys.csv',
  'items.csv',
  'coverages.csv',
  'gul_summary_map.csv',
  'fm_programme.csv',
  'fm_policytc.csv',
  'fm_profile.csv',
  'fm_xref.csv',
  'fm_summary_map.csv',
];

/** The cyber account file with `column` of its one account row set to `value` (the column added when absent). */
function cyberAccountWith(column: string, value: string): string {
  const [header, row] = fs
    .readFileSync(path.join(CYBER, 'account.csv'), 'utf8')
    .replace(/\r/g, '')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  let at = header.findIndex((h) => h.trim() === column);
  if (at < 0) {
    header.push(column);
    row.push('');
    at = header.length - 1;
  }
  row[at] = value;
  const file = path.join(tempDir('catintel-cyber-'), 'account.csv');
  fs.writeFileSync(file, `${header.join(',')}\n${row.join(',')}\n`);
  return file;
}

describe('catintel oasis files: an account-only cyber book', () => {
  it.each([
    ['CSB', 'expected'],
    ['CC1', 'expected_subperils'],
  ])("model perils %s: every Oasis file matches oasislmf's (%s/) row for row", async (perils, expected) => {
    const out = tempDir('catintel-cyber-out-');
    try {
      const r = await cli([
        'oasis',
        'files',
        '--oed-account',
        path.join(CYBER, 'account.csv'),
        '--model-perils',
        perils,
        '--out',
        out,
        '--json',
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const body = r.json();
      expect([body.locations, body.items, body.coverages]).toEqual(perils === 'CSB' ? [1, 9, 9] : [1, 18, 9]);
      for (const f of FILES)
        expect(firstFileDifference(f, path.join(out, f), path.join(CYBER, expected, f)), f).toBeUndefined();
      // The summary maps name the account (no LocNumber: the book has no locations).
      expect(fs.readFileSync(path.join(out, 'gul_summary_map.csv'), 'utf8').split('\n')[0]).toBe(
        'loc_id,PortNumber,AccNumber,peril_id,coverage_type_id,tiv,coverage_id,item_id,building_id,layer_id,agg_id',
      );
      expect(fs.existsSync(path.join(out, 'manifest.json'))).toBe(true);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('a property account file without its location file is refused, naming --oed-location, and nothing is written', async () => {
    const out = path.join(tempDir('catintel-cyber-out-'), 'input');
    const r = await cli([
      'oasis',
      'files',
      '--oed-account',
      path.join(CASES, 'insurance', 'account.csv'),
      '--model-perils',
      'WTC',
      '--out',
      out,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /no --oed-location given, and the account file has no AnnualRevenue column: .*give this book's OED location file with --oed-location/,
    );
    expect(fs.existsSync(path.join(out, 'manifest.json'))).toBe(false);
  });

  it('neither file given: refused naming both', async () => {
    const r = await cli(['oasis', 'files', '--out', tempDir('catintel-cyber-out-')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give --oed-location FILE .*--oed-account FILE alone/);
  });

  it.each([
    [
      'PolDed6All',
      '1000',
      /account file row 2: PolDed6All = 1000 acts on property coverages \(1-4\) or on locations, which an account-only cyber book has none of/,
    ],
    ['CondTag', '1', /account file row 2: CondTag = 1 acts on property coverages/],
    ['PolSIR', '5000', /account file row 2: PolSIR = 5000 is a cyber field no FM term is built from/],
    [
      'LayerAggLimit',
      '2000000',
      /account file row 2: LayerAggLimit = 2000000 is a cyber field no FM term is built from/,
    ],
    ['DedCurrency', 'EUR', /DedCurrency EUR differs from USD in the same account; mixed currencies/],
  ])('%s set in an account-only book is refused by name', async (column, value, message) => {
    const r = await cli([
      'oasis',
      'files',
      '--oed-account',
      cyberAccountWith(column, value),
      '--model-perils',
      'CSB',
      '--out',
      tempDir('catintel-cyber-out-'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('cyber policy terms beside a location file are refused by name', async () => {
    const dir = tempDir('catintel-cyber-');
    const source = path.join(CASES, 'insurance_bi');
    const [header, ...rows] = fs
      .readFileSync(path.join(source, 'account.csv'), 'utf8')
      .replace(/\r/g, '')
      .trim()
      .split('\n');
    fs.writeFileSync(
      path.join(dir, 'account.csv'),
      [`${header},PolLimitNPBI`, ...rows.map((l, i) => `${l},${i === 0 ? '1000' : ''}`)].join('\n') + '\n',
    );
    const r = await cli([
      'oasis',
      'files',
      '--oed-location',
      path.join(source, 'location.csv'),
      '--oed-account',
      path.join(dir, 'account.csv'),
      '--model-perils',
      'WTC',
      '--out',
      path.join(dir, 'out'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /account file row 2: PolLimitNPBI = 1000 is a cyber policy term: it acts on the cyber coverages \(7-15\) of an account-only book/,
    );
  });
});
