/**
 * `catintel oasis run` cuts a distribution where Oasis's gulmc cuts it: the hazard cdf and each item's
 * effective damage cdf stop at the first bin where they reach 0.99999994, and the analytical mean
 * (MELT SampleType 1 MeanLoss) and the maximum (MaxLoss) come from the cut cdf, its values in float32.
 *
 * A hand-made model of two events on two locations of 1,000,000 each, with probabilities exact in float32:
 *
 * - event 1, the damage cut: intensity bin 1 for certain; vulnerability 1 puts 0.75 on no damage,
 *   0.25 - 2^-26 on bin 2 (0-20 %, interpolation 0.1) and 2^-26 on bin 3 (20-100 %, interpolation 0.6).
 *   The cdf reaches 1 - 2^-26 >= 0.99999994 at bin 2, so bin 3 is dropped: float32 cdf [0.75, 1], mean
 *   (1 - 0.75) * float32(0.1) * 1,000,000 = 25,000.0004 (25,000 in the float32 of the loss stream), maximum
 *   bin 2's bin_to, 200,000. The whole distribution would give 25,000.0078 and 1,000,000.
 * - event 2, the hazard cut: intensity bin 1 with 1 - 2^-26, bin 2 with 2^-26; vulnerability 2 does no
 *   damage at bin 1 and destroys at bin 2. The hazard cdf reaches 0.99999994 at bin 1, so bin 2 is
 *   dropped: mean 0, maximum 0 (bin 1's bin_to). The whole distribution would give 0.0089 and 1,000,000.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';

const TWO_POW_MINUS_26 = 2 ** -26;

function write(dir: string, name: string, rows: (string | number)[][]): void {
  fs.writeFileSync(path.join(dir, name), rows.map((r) => r.join(',')).join('\n') + '\n');
}

let melt: Map<string, string[]>;

beforeAll(async () => {
  const root = tempDir('catintel-cdf-cutoff-');
  const model = path.join(root, 'model');
  const input = path.join(root, 'input');
  fs.mkdirSync(model);
  fs.mkdirSync(input);
  write(model, 'damage_bin_dict.csv', [
    ['bin_index', 'bin_from', 'bin_to', 'interpolation'],
    [1, 0, 0, 0],
    [2, 0, 0.2, 0.1],
    [3, 0.2, 1, 0.6],
  ]);
  write(model, 'vulnerability.csv', [
    ['vulnerability_id', 'intensity_bin_id', 'damage_bin_id', 'probability'],
    [1, 1, 1, 0.75],
    [1, 1, 2, 0.25 - TWO_POW_MINUS_26],
    [1, 1, 3, TWO_POW_MINUS_26],
    [2, 1, 1, 1],
    [2, 2, 3, 1],
  ]);
  write(model, 'footprint.csv', [
    ['event_id', 'areaperil_id', 'intensity_bin_id', 'probability'],
    [1, 1, 1, 1],
    [2, 2, 1, 1 - TWO_POW_MINUS_26],
    [2, 2, 2, TWO_POW_MINUS_26],
  ]);
  write(model, 'events.csv', [['event_id'], [1], [2]]);
  write(model, 'occurrence.csv', [
    ['event_id', 'period_no', 'occ_year', 'occ_month', 'occ_day'],
    [1, 1, 1, 1, 1],
    [2, 2, 2, 1, 1],
  ]);
  write(input, 'coverages.csv', [
    ['coverage_id', 'tiv'],
    [1, 1000000],
    [2, 1000000],
  ]);
  write(input, 'items.csv', [
    ['item_id', 'coverage_id', 'areaperil_id', 'vulnerability_id', 'group_id'],
    [1, 1, 1, 1, 1],
    [2, 2, 2, 2, 2],
  ]);
  const settings = path.join(root, 'settings.json');
  fs.writeFileSync(
    settings,
    JSON.stringify({
      number_of_samples: 0,
      gul_output: true,
      gul_summaries: [{ id: 1, ord_output: { elt_moment: true } }],
    }),
  );
  const out = path.join(root, 'out');
  const r = await cli(['oasis', 'run', '--model', model, '--input', input, '--settings', settings, '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  const lines = fs.readFileSync(path.join(out, 'gul_S1_melt.csv'), 'utf8').trim().split('\n');
  expect(lines[0]).toBe(
    'EventId,SummaryId,SampleType,EventRate,ChanceOfLoss,MeanLoss,SDLoss,MaxLoss,FootprintExposure,MeanImpactedExposure,MaxImpactedExposure',
  );
  melt = new Map(
    lines
      .slice(1)
      .map((l) => l.split(','))
      .map((r) => [r[0], r]),
  );
});

describe('the analytical mean and maximum stop where Oasis stops the cdf (0.99999994)', () => {
  it('a damage bin past the point where the effective damage cdf reaches it is dropped (event 1)', () => {
    const [, , type, , , mean, , max] = melt.get('1')!;
    expect(type).toBe('1');
    expect(mean).toBe('25000.000000');
    expect(max).toBe('200000.000000');
  });

  it('a hazard bin past the point where the hazard cdf reaches it is dropped (event 2)', () => {
    const [, , type, , , mean, , max] = melt.get('2')!;
    expect(type).toBe('1');
    expect(mean).toBe('0.000000');
    expect(max).toBe('0.000000');
  });
});
