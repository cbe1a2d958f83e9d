/**
 * Reinsurance terms that would change the losses in a way not modelled are refused with the field and
 * value named, never dropped; and the written RI_n folders are what the loss run reads back. Each case
 * edits one field of oasislmf's reinsurance4 acceptance case (../shared/data/oasis_fm_validation).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildReinsuranceFiles,
  readReinsuranceLayers,
  reinsuranceLosses,
  writeReinsuranceFiles,
} from '../../src/oasis-files/reinsurance/index.js';
import { tempDir } from '../helpers/cli.js';
import { sharedData } from '../helpers/paths.js';

const CASE = sharedData('oasis_fm_validation', 'reinsurance4');

/** reinsurance4 with ri_info and ri_scope rewritten by `edit` (rows of cells, header first). */
function caseWith(edit: { info?: (rows: string[][]) => void; scope?: (rows: string[][]) => void }) {
  const dir = tempDir('catintel-ri-');
  for (const [file, fn] of [
    ['ri_info.csv', edit.info],
    ['ri_scope.csv', edit.scope],
  ] as const) {
    const rows = fs
      .readFileSync(path.join(CASE, file), 'utf8')
      .replace(/\r/g, '')
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    fn?.(rows);
    fs.writeFileSync(path.join(dir, file), rows.map((r) => r.join(',')).join('\n') + '\n');
  }
  return {
    riInfo: path.join(dir, 'ri_info.csv'),
    riScope: path.join(dir, 'ri_scope.csv'),
    location: path.join(CASE, 'location.csv'),
    account: path.join(CASE, 'account.csv'),
    directDir: path.join(CASE, 'expected'),
  };
}

function setCell(rows: string[][], row: number, column: string, value: string): void {
  let col = rows[0].indexOf(column);
  if (col < 0) {
    rows[0].push(column);
    rows.slice(1).forEach((r) => r.push(''));
    col = rows[0].length - 1;
  }
  rows[row][col] = value;
}

describe('reinsurance terms not modelled are refused by name', () => {
  const refusals: [string, Parameters<typeof caseWith>[0], RegExp][] = [
    [
      'an aggregate XL treaty',
      { info: (r) => setCell(r, 1, 'ReinsType', 'AXL') },
      /ri_info\.csv row 2: ReinsType 'AXL' \(ReinsNumber 1\) is not supported: aggregate excess of loss/,
    ],
    [
      'an annual aggregate limit',
      { info: (r) => setCell(r, 1, 'AggLimit', '500000') },
      /ri_info\.csv row 2: AggLimit '500000' \(ReinsNumber 1\) is not supported/,
    ],
    [
      'reinstatements',
      { info: (r) => setCell(r, 2, 'Reinstatement', '2') },
      /ri_info\.csv row 3: Reinstatement '2' \(ReinsNumber 2\) is not supported: reinstatements/,
    ],
    [
      'a TreatyShare oasislmf would ignore',
      { info: (r) => setCell(r, 1, 'TreatyShare', '0.5') },
      /TreatyShare '0\.5' \(ReinsNumber 1\) is not supported: oasislmf does not apply TreatyShare/,
    ],
    [
      'an unknown RiskLevel',
      { info: (r) => setCell(r, 1, 'RiskLevel', 'XYZ') },
      /RiskLevel 'XYZ' \(ReinsNumber 1\) is not one of LOC, LGR, POL, ACC, SEL/,
    ],
    [
      'a ReinsPeril that leaves out a modelled peril',
      { info: (r) => setCell(r, 1, 'ReinsPeril', 'QEQ') },
      /ReinsPeril 'QEQ' \(ReinsNumber 1\) does not cover peril WTC/,
    ],
    [
      'a treaty in another currency',
      {
        info: (r) => {
          setCell(r, 1, 'ReinsCurrency', 'USD');
          setCell(r, 2, 'ReinsCurrency', 'USD');
        },
      },
      /ReinsCurrency 'USD' is not the portfolio's currency \(GBP\)/,
    ],
    [
      'a FAC certificate at account level naming a location',
      {
        info: (r) => {
          setCell(r, 1, 'ReinsType', 'FAC');
          setCell(r, 1, 'RiskLevel', 'ACC');
        },
        scope: (r) => {
          setCell(r, 1, 'AccNumber', 'A11111');
          setCell(r, 1, 'LocNumber', '1');
        },
      },
      /ri_scope\.csv row 2: ReinsNumber 1 is a FAC treaty at RiskLevel ACC, whose scope rows must leave LocNumber empty/,
    ],
    [
      'a risks-attaching treaty without dates',
      { info: (r) => setCell(r, 2, 'ReinsInceptionDate', '') },
      /ReinsNumber 2 has AttachmentBasis RA but no ReinsInceptionDate or ReinsExpiryDate/,
    ],
    [
      'a scope row of no treaty',
      { scope: (r) => setCell(r, 1, 'ReinsNumber', '9') },
      /ri_scope\.csv row 2: ReinsNumber '9' is not in ri_info\.csv/,
    ],
  ];
  for (const [what, edit, message] of refusals) {
    it(`refuses ${what}`, () => {
      expect(() => buildReinsuranceFiles(caseWith(edit))).toThrow(message);
    });
  }
});

describe('writeReinsuranceFiles', () => {
  it('writes RI_n/ and ri_layers.json that the loss run reads back to the same net loss', () => {
    const out = tempDir('catintel-ri-out-');
    const infos = writeReinsuranceFiles({ ...caseWith({}), outDir: out });
    expect(infos).toEqual([{ index: 1, inuringPriority: 1, riskLevel: 'SEL', directory: 'RI_1' }]);
    expect(fs.readdirSync(out).sort()).toEqual(['RI_1', 'ri_inuring_priority_output_levels.json', 'ri_layers.json']);
    expect(fs.readdirSync(path.join(out, 'RI_1')).sort()).toEqual([
      'fm_policytc.csv',
      'fm_profile.csv',
      'fm_programme.csv',
      'fm_xref.csv',
    ]);
    for (const f of fs.readdirSync(path.join(out, 'RI_1'))) {
      expect(fs.readFileSync(path.join(out, 'RI_1', f), 'utf8'), f).toBe(
        fs.readFileSync(path.join(CASE, 'expected', 'RI_1', f), 'utf8').replace(/\r/g, ''),
      );
    }
    const ils = fs
      .readFileSync(path.join(CASE, 'expected', 'ils.csv'), 'utf8')
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(',').map(Number))
      .map(([eventId, outputId, loss]) => ({ eventId, outputId, loss }));
    const [net] = reinsuranceLosses(readReinsuranceLayers(out), ils);
    // The losses-occurring treaty (portfolio LO) cedes half of every LO account's loss; the
    // risks-attaching one (portfolio RA) half of A11115's only, the one RA policy that incepts within
    // the treaty's 2024 period.
    expect(net.map((r) => `${r.outputId}:${r.loss}`)).toEqual(
      fs
        .readFileSync(path.join(CASE, 'expected', 'rils.csv'), 'utf8')
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((l) => {
          const [, o, v] = l.split(',');
          return `${o}:${Number(v)}`;
        }),
    );
  });
});
