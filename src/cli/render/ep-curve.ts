/**
 * `catintel portfolio ep-curve` as text: what was run, the ground-up and insured AAL, then one row per return period with
 * OEP, AEP and their TVaR. A CSV or SVG answer (a string) is printed as it is.
 */
import type { EpCurveBody } from '../../handlers/portfolio-ep-curve.js';
import { table } from './text.js';

const money = (x: number) => Math.round(x).toLocaleString('en-US');

export function epCurveText(b: EpCurveBody | string): string {
  if (typeof b === 'string') return b;
  const cur = b.CurCd ?? '(mixed currencies)';
  const head = [
    `${b.PortfolioId ?? b.input}: ${b.NumLocationsModelled.toLocaleString('en-US')} of ${b.NumLocations.toLocaleString('en-US')} locations modelled, TIV ${money(b.TotalInsuranceAmt)} ${cur}`,
    `${b.years.toLocaleString('en-US')} years, ${b.samples} samples, seed ${b.seed}: ${b.model_version}`,
    `perils: ${b.perils.join(', ') || 'none modelled'}${b.perils_not_modelled.length ? ` (not modelled: ${b.perils_not_modelled.map((p) => p.peril).join(', ')})` : ''}`,
    `AAL ground-up ${money(b.gul.AALAmt)} ${cur} (analytic ${money(b.gul.AALAnalyticAmt)}), insured ${money(b.il.AALAmt)} ${cur} (analytic ${money(b.il.AALAnalyticAmt)})`,
    `curve: ${b.perspective === 'il' ? 'insured' : 'ground-up'}, EPCalc ${b.EPCalc}`,
  ];
  if (b.written)
    head.push(`wrote ${b.written.file} (${b.written.format}, ${b.written.bytes.toLocaleString('en-US')} bytes)`);
  const rows = b.curve.map((p) => [
    p.ReturnPeriod,
    money(p.OEPLossAmt),
    money(p.AEPLossAmt),
    money(p.OEPTVaRAmt),
    money(p.AEPTVaRAmt),
  ]);
  return [
    ...head,
    '',
    ...table(['return period (yr)', `OEP (${cur})`, `AEP (${cur})`, 'OEP TVaR', 'AEP TVaR'], rows, [
      'right',
      'right',
      'right',
      'right',
      'right',
    ]),
    '',
  ].join('\n');
}
