/**
 * OED reinsurance to RI_n Oasis files, and the loss net of reinsurance, on oasislmf's own acceptance
 * cases (../shared/data/oasis_fm_validation: issues, reinsurance1, reinsurance2, reinsurance4). Each
 * case's OED location, account, ri_info and ri_scope files go in, with the case's expected/ direct
 * files (fm_summary_map, fm_xref) standing for the direct insurance; every RI_n file must match the
 * case's expected/RI_n row for row (numbers within 0.001), and the net of the last inuring layer,
 * run on the case's expected ils.csv, must match expected/rils.csv (within 0.001 or oasislmf's own
 * test tolerance, 0.01 %, whichever is wider: its losses are float32).
 *
 * Some expected RI_n files were not written by oasislmf 2.5.x (its own test compares only rils.csv, so
 * they were never refreshed), named per case below:
 * - reinsurance1's and reinsurance2's were written by an older oasislmf, which ordered the layers of
 *   one inuring layer differently (2.5.x puts facultative certificates first, then the other treaties
 *   in ri_info order), numbered profiles treaty by treaty (2.5.x: treaty type by treaty type), wrote
 *   calc rule 23 where 2.5.x writes 24 for the occurrence terms of per-risk and cat XL treaties, and
 *   opened some filter nodes 2.5.x leaves closed: only their fm_programme and fm_xref are compared with
 *   expected/ (they match); the losses they give match (rils.csv below).
 * - issues' expected/RI_1 predates its own expected direct files (335 outputs against fm_xref's 409).
 * So every file is also compared with what oasislmf 2.5.8's own RI step writes from the same inputs
 * (scripts/oasislmf-ri-reference.py; sha256 digests in fixtures/oasislmf-ri-files-2.5.8.json): all 68
 * files are byte for byte the same but one, issues' RI_1/fm_programme.csv, where 2.5.8 lists 18 outputs
 * twice because it joins each output to every account row of its policy, one per policy layer; we join
 * one row per policy, as the scope fields are the policy's.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReinsuranceFiles, reinsuranceLosses } from '../../src/oasis-files/reinsurance/index.js';
import { layerCsvFiles } from '../../src/oasis-files/reinsurance/oasis-csv.js';
import { REPO_ROOT, sharedData } from '../helpers/paths.js';

/** How the case's expected/RI_n files can be compared (see above). */
type ExpectedCheck = 'exact' | 'structure-only' | 'stale';
const CASES: Record<string, ExpectedCheck> = {
  reinsurance4: 'exact',
  reinsurance1: 'structure-only',
  reinsurance2: 'structure-only',
  issues: 'stale',
};
const OASISLMF_DIGESTS = JSON.parse(
  fs.readFileSync(path.join(REPO_ROOT, 'fixtures', 'oasislmf-ri-files-2.5.8.json'), 'utf8'),
) as Record<string, Record<string, string>>;
/** Files where we differ from oasislmf 2.5.8 on purpose (see above). */
const DIFFERS_FROM_OASISLMF = new Set(['issues RI_1/fm_programme.csv']);

const rowsOf = (text: string): string[][] =>
  text
    .replace(/\r/g, '')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
const close = (a: string, b: string, rel = 0): boolean =>
  a === b || Math.abs(Number(a) - Number(b)) <= Math.max(0.001, rel * Math.abs(Number(b)));

/** The first row where `ours` and `expected` differ, described; undefined when every row matches. */
function firstDifference(where: string, ours: string[][], expected: string[][], rel = 0): string | undefined {
  if (ours[0].join(',') !== expected[0].join(',')) return `${where}: header '${ours[0]}' differs from '${expected[0]}'`;
  for (let i = 1; i < Math.max(ours.length, expected.length); i++) {
    const o = ours[i];
    const e = expected[i];
    if (!o || !e || o.length !== e.length || o.some((v, j) => !close(v, e[j], rel)))
      return `${where} row ${i + 1}: ours '${o?.join(',') ?? '(none)'}', expected '${e?.join(',') ?? '(none)'}'`;
  }
  return undefined;
}

describe('OED reinsurance to RI_n files and reinsurance losses (oasislmf acceptance cases)', () => {
  for (const [name, check] of Object.entries(CASES)) {
    const dir = sharedData('oasis_fm_validation', name);
    const expected = path.join(dir, 'expected');
    const layers = buildReinsuranceFiles({
      riInfo: path.join(dir, 'ri_info.csv'),
      riScope: path.join(dir, 'ri_scope.csv'),
      location: path.join(dir, 'location.csv'),
      account: path.join(dir, 'account.csv'),
      directDir: expected,
    });

    it(`${name}: one RI_n per inuring priority and risk level, as ri_layers.json lists them`, () => {
      const riLayers = JSON.parse(fs.readFileSync(path.join(expected, 'ri_layers.json'), 'utf8')) as Record<
        string,
        { inuring_priority: number; risk_level: string }
      >;
      expect(layers.map((l, i) => `RI_${i + 1}: ${l.inuringPriority} ${l.riskLevel}`)).toEqual(
        Object.entries(riLayers).map(([n, l]) => `RI_${n}: ${l.inuring_priority} ${l.risk_level}`),
      );
    });

    if (check !== 'stale') {
      it(`${name}: every RI_n file matches expected row for row`, () => {
        const problems: string[] = [];
        layers.forEach((layer, i) => {
          const ours = Object.fromEntries(Object.entries(layerCsvFiles(layer)).map(([f, text]) => [f, rowsOf(text)]));
          const exp = (f: string) => rowsOf(fs.readFileSync(path.join(expected, `RI_${i + 1}`, f), 'utf8'));
          const where = (f: string) => `${name} RI_${i + 1}/${f}`;
          const diffs = [
            firstDifference(where('fm_programme.csv'), ours['fm_programme.csv'], exp('fm_programme.csv')),
            firstDifference(where('fm_xref.csv'), ours['fm_xref.csv'], exp('fm_xref.csv')),
          ];
          // structure-only: fm_profile and fm_policytc are compared with oasislmf 2.5.8's in the next test.
          if (check === 'exact') {
            diffs.push(firstDifference(where('fm_profile.csv'), ours['fm_profile.csv'], exp('fm_profile.csv')));
            diffs.push(firstDifference(where('fm_policytc.csv'), ours['fm_policytc.csv'], exp('fm_policytc.csv')));
          }
          problems.push(...diffs.filter((d): d is string => d !== undefined));
        });
        expect(problems).toEqual([]);
      });
    }

    it(`${name}: every RI_n file is byte for byte what oasislmf 2.5.8 writes from the same inputs`, () => {
      const digests: Record<string, string> = {};
      layers.forEach((layer, i) => {
        for (const [f, text] of Object.entries(layerCsvFiles(layer)))
          digests[`RI_${i + 1}/${f}`] = crypto.createHash('sha256').update(text).digest('hex');
      });
      const reference = OASISLMF_DIGESTS[name];
      expect(Object.keys(digests).sort()).toEqual(Object.keys(reference).sort());
      const differing = Object.keys(reference)
        .filter((f) => digests[f] !== reference[f])
        .map((f) => `${name} ${f}`);
      expect(differing).toEqual([...DIFFERS_FROM_OASISLMF].filter((f) => f.startsWith(`${name} `)));
    });

    it(`${name}: the net of the last inuring layer on expected ils.csv matches expected rils.csv`, () => {
      const ils = rowsOf(fs.readFileSync(path.join(expected, 'ils.csv'), 'utf8'))
        .slice(1)
        .map(([eventId, outputId, loss]) => ({
          eventId: Number(eventId),
          outputId: Number(outputId),
          loss: Number(loss),
        }));
      const results = reinsuranceLosses(layers, ils);
      const ours = [
        ['event_id', 'output_id', 'loss'],
        ...results[results.length - 1].map((r) => [String(r.eventId), String(r.outputId), String(r.loss)]),
      ];
      expect(
        firstDifference(
          `${name} rils.csv`,
          ours,
          rowsOf(fs.readFileSync(path.join(expected, 'rils.csv'), 'utf8')),
          1e-4,
        ),
      ).toBeUndefined();
    });
  }
});
