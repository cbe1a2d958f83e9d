/**
 * Writing the RI_n files as oasislmf writes them: integers plainly, amounts and shares as Python
 * prints a float (always with a decimal point: 0.0, 0.2, 9999999999999.0), so the files compare
 * line for line with oasislmf's.
 */
import type { ProfileRow, ReinsuranceLayerFiles } from './domain/types.js';

/** A number as Python's repr of a float prints it. */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e16 || abs < 1e-4) {
    // Python: shortest digits in exponent form, exponent with sign and at least two digits.
    const [mantissa, exp] = x.toExponential().split('e');
    const e = Number(exp);
    return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const s = String(x);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

const PROFILE_COLUMNS: (keyof ProfileRow)[] = [
  'profileId',
  'calcruleId',
  'deductible1',
  'deductible2',
  'deductible3',
  'attachment1',
  'limit1',
  'share1',
  'share2',
  'share3',
];

export function layerCsvFiles(layer: ReinsuranceLayerFiles): Record<string, string> {
  const lines = (header: string, rows: string[]): string => [header, ...rows].join('\n') + '\n';
  return {
    'fm_programme.csv': lines(
      'from_agg_id,level_id,to_agg_id',
      layer.programme.map((r) => `${r.fromAggId},${r.levelId},${r.toAggId}`),
    ),
    'fm_profile.csv': lines(
      'profile_id,calcrule_id,deductible1,deductible2,deductible3,attachment1,limit1,share1,share2,share3',
      layer.profiles.map((p) => PROFILE_COLUMNS.map((c, i) => (i < 2 ? String(p[c]) : pythonFloat(p[c]))).join(',')),
    ),
    'fm_policytc.csv': lines(
      'level_id,agg_id,layer_id,profile_id',
      layer.policytc.map((r) => `${r.levelId},${r.aggId},${r.layerId},${r.profileId}`),
    ),
    'fm_xref.csv': lines(
      'output,agg_id,layer_id',
      layer.xref.map((r) => `${r.output},${r.aggId},${r.layerId}`),
    ),
  };
}
