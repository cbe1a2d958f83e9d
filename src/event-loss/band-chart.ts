/**
 * The live loss band over an event's product versions as a picture (docs/event-loss.md "Over the
 * advisories"): for each version, at the time of its advisory (a storm's latest fix or NHC advisory, a
 * quake's ShakeMap or origin update), the P10-P90 band as a shaded area, the mean as a line with a point per
 * version and the P50 dashed. A Vega-Lite spec drawn by src/lib/vega-render.ts, as the EP curve's chart is.
 * Each mean point carries its figures in its description (the SVG's aria-label), so the picture's data can
 * be read back from the file.
 */
import { svgPng, vegaLiteSvg } from '../lib/vega-render.js';

export interface BandPoint {
  version: number;
  /** When the version's product was issued (ISO). */
  at: string;
  product_version: string;
  mean: number;
  p10: number;
  p50: number;
  p90: number;
}

export interface BandChartInput {
  title: string;
  subtitle: string[];
  currency: string;
  points: BandPoint[];
}

export function bandChartSpec(c: BandChartInput): Record<string, unknown> {
  // at_utc: the time as written (Vega-Lite parses `at` into a date to plot it).
  const values = c.points.map((p) => ({ ...p, at_utc: p.at }));
  const x = {
    field: 'at',
    type: 'temporal',
    axis: { title: 'Advisory time (UTC)', format: '%d %b %H:%M', tickCount: 8, labelAngle: 0 },
  };
  const money = { type: 'quantitative', axis: { title: `Ground-up loss (${c.currency})`, format: '~s' } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 720,
    height: 360,
    background: 'white',
    // A fixed canvas: headless Vega measures no text and overestimates a long title's width, which would
    // otherwise widen the picture past its plot.
    autosize: { type: 'none' },
    padding: { left: 80, top: 92, right: 24, bottom: 52 },
    title: {
      text: c.title,
      subtitle: c.subtitle,
      anchor: 'start',
      frame: 'bounds',
      offset: 12,
      fontSize: 16,
      subtitleFontSize: 12,
    },
    config: {
      font: 'DejaVu Sans',
      axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#e6e6e6' },
      legend: { labelFontSize: 11, titleFontSize: 12 },
    },
    data: { values },
    encoding: { x: { ...x, scale: { type: 'utc' } } },
    layer: [
      {
        mark: { type: 'area', color: '#1f77b4', opacity: 0.2, description: 'P10-P90 band' },
        encoding: { y: { field: 'p10', ...money }, y2: { field: 'p90' } },
      },
      {
        mark: { type: 'line', color: '#1f77b4', strokeDash: [5, 4], strokeWidth: 1.5 },
        encoding: { y: { field: 'p50', ...money } },
      },
      { mark: { type: 'line', color: '#1f77b4', strokeWidth: 2.5 }, encoding: { y: { field: 'mean', ...money } } },
      {
        mark: { type: 'point', color: '#1f77b4', filled: true, size: 60, opacity: 1 },
        encoding: {
          y: { field: 'mean', ...money },
          // The point's aria-label in the SVG: the figures it stands for, machine-readable.
          description: { field: 'description' },
        },
      },
    ],
    transform: [
      {
        calculate:
          "'version=' + datum.version + '; at=' + datum.at_utc + '; mean=' + datum.mean + '; p10=' + datum.p10 + '; p50=' + datum.p50 + '; p90=' + datum.p90",
        as: 'description',
      },
    ],
  };
}

export async function bandChartSvg(c: BandChartInput): Promise<string> {
  return vegaLiteSvg(bandChartSpec(c));
}

export async function bandChartPng(c: BandChartInput): Promise<Buffer> {
  return svgPng(await bandChartSvg(c));
}
