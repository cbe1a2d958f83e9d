/**
 * The EP curve as a picture: a Vega-Lite chart (log return period on x, loss on y, the OEP and AEP lines, the
 * AAL as a dashed rule with its value), compiled to Vega and rendered headless to SVG by Vega's own renderer;
 * PNG is that SVG rasterised by resvg (src/lib/vega-render.ts).
 */
import { svgPng, vegaLiteSvg } from '../lib/vega-render.js';
import type { EpPoint } from './ep-output.js';

export interface ChartInput {
  title: string;
  /** Lines under the title. */
  subtitle: string[];
  currency: string;
  curve: EpPoint[];
  aal: number;
}

function money(x: number, currency: string): string {
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [v, s] of units) if (Math.abs(x) >= v) return `${(x / v).toFixed(x / v >= 100 ? 0 : 1)} ${s} ${currency}`;
  return `${x.toFixed(0)} ${currency}`;
}

const OEP = 'OEP: largest event loss in a year';
const AEP = "AEP: sum of a year's event losses";

export function chartSpec(c: ChartInput): Record<string, unknown> {
  const values = c.curve.flatMap((p) => [
    { return_period: p.return_period, loss: p.oep, curve: OEP },
    { return_period: p.return_period, loss: p.aep, curve: AEP },
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 640,
    height: 360,
    background: 'white',
    padding: 12,
    title: { text: c.title, subtitle: c.subtitle, anchor: 'start', fontSize: 16, subtitleFontSize: 12 },
    config: {
      font: 'DejaVu Sans',
      axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#e6e6e6' },
      legend: { labelFontSize: 11, titleFontSize: 12 },
    },
    layer: [
      {
        data: { values },
        mark: { type: 'line', point: true, strokeWidth: 2 },
        encoding: {
          x: {
            field: 'return_period',
            type: 'quantitative',
            scale: { type: 'log' },
            axis: {
              title: 'Return period (years, log scale)',
              values: c.curve.map((p) => p.return_period),
              format: 'd',
            },
          },
          y: { field: 'loss', type: 'quantitative', axis: { title: `Loss (${c.currency})`, format: '~s' } },
          color: {
            field: 'curve',
            type: 'nominal',
            title: null,
            scale: { domain: [OEP, AEP], range: ['#1f77b4', '#d62728'] },
            legend: { orient: 'top-left', labelLimit: 0, fillColor: 'white' },
          },
        },
      },
      {
        data: { values: [{ aal: c.aal, label: `AAL ${money(c.aal, c.currency)}` }] },
        layer: [
          {
            mark: { type: 'rule', strokeDash: [6, 4], color: '#555' },
            encoding: { y: { field: 'aal', type: 'quantitative' } },
          },
          {
            mark: { type: 'text', align: 'right', dy: -7, color: '#333', fontSize: 12 },
            encoding: { y: { field: 'aal', type: 'quantitative' }, x: { value: 636 }, text: { field: 'label' } },
          },
        ],
      },
    ],
  };
}

export async function chartSvg(c: ChartInput): Promise<string> {
  return vegaLiteSvg(chartSpec(c));
}

export async function chartPng(c: ChartInput): Promise<Buffer> {
  return svgPng(await chartSvg(c));
}
