import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, sharedData } from '../../../test/helpers/paths.js';
import { main } from '../../../scripts/build-flood-stages.js';
import { normaliseUsgsId } from './flood-stages-build.js';
import { floodStagesOf } from './flood-stages.js';

const REPORT = sharedData('feeds/nwps/nwps_all_gauges_report.csv');
const COMMITTED = path.join(REPO_ROOT, 'data/flood-stages.csv');

describe('data/flood-stages.csv', () => {
  it('rebuilds byte-identical from the NWPS report', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'flood-stages-')), 'flood-stages.csv');
    const msg = await main(['--from', REPORT, '--out', out]);
    expect(msg).toBe(
      `flood stages: 5686 gauges written to ${out} (report rows 11793, with USGS id 8345, unrecoverable ids 90, no category 2555, duplicate ids 14)`,
    );
    expect(readFileSync(out).equals(readFileSync(COMMITTED))).toBe(true);
  });

  it('repairs spreadsheet-mangled ids and drops the unrecoverable ones', () => {
    expect(normaliseUsgsId('1491000')).toBe('01491000');
    expect(normaliseUsgsId('15055500')).toBe('15055500');
    expect(['3.9554E+14', 'NONE', 'N/A', '82100', '14'].map(normaliseUsgsId)).toEqual([null, null, null, null, null]);
  });

  it('looks gauges up with or without leading zeros; of the two IV sample sites only Seneca Creek has categories', () => {
    const fdk = {
      usgsId: '01643000',
      lid: 'FDKM2',
      stages: { actionFt: 13, floodFt: 15, moderateFt: 17, majorFt: 20 },
    };
    expect(floodStagesOf('01643000')).toEqual(fdk);
    expect(floodStagesOf('1643000')).toEqual(fdk);
    expect(floodStagesOf('0165258890')?.lid).toBe('AXTV2'); // 9 digits in the report, 10 at NWIS
    expect(floodStagesOf('01491000')).toBeNull();
    expect(floodStagesOf('01645000')).toEqual({
      usgsId: '01645000',
      lid: 'DAWM2',
      stages: { actionFt: 5, floodFt: 7.5, moderateFt: 11, majorFt: 16 },
    });
  });

  it('keeps one row per gauge: in service first, then most categories, then lowest LID', () => {
    expect(floodStagesOf('04228500')?.lid).toBe('AVON6'); // two USACE duplicates have no categories
    expect(floodStagesOf('09408150')?.lid).toBe('HURU1'); // TEST9 shares the id but is out of service
    expect(floodStagesOf('01475548')?.lid).toBe('CMMP1'); // two gauges, both complete: lowest LID
  });
});
