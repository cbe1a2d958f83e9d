/**
 * The timeline chart as geometry: one measured quantity over time (wind, magnitude, containment, stage),
 * scaled with d3-scale (linear values with "nice" ticks, UTC time ticks), in page coordinates. Pure.
 */
import { scaleLinear, scaleUtc } from 'd3-scale';
import type { Frame } from './map.js';

export interface Series {
  /** What is plotted, e.g. "Maximum sustained wind". */
  name: string;
  unit: string;
  points: { time: string; value: number }[];
  source: string;
}

export interface ChartDrawing {
  frame: Frame;
  line: [number, number][];
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
  yLabel: string;
}

export function layoutChart(series: Series, frame: Frame): ChartDrawing {
  const pts = series.points;
  const times = pts.map((p) => Date.parse(p.time));
  let t0 = Math.min(...times);
  let t1 = Math.max(...times);
  if (t0 === t1) {
    t0 -= 3600e3;
    t1 += 3600e3;
  }
  const values = pts.map((p) => p.value);
  const v0 = Math.min(0, ...values);
  let v1 = Math.max(...values);
  if (v0 === v1) v1 = v0 + 1;
  const plot = { x: frame.x + 44, y: frame.y + 6, w: frame.w - 54, h: frame.h - 28 };
  const x = scaleUtc()
    .domain([new Date(t0), new Date(t1)])
    .range([plot.x, plot.x + plot.w]);
  const y = scaleLinear()
    .domain([v0, v1])
    .nice(5)
    .range([plot.y + plot.h, plot.y]);
  const yTicks = y.ticks(5).map((v) => ({ y: y(v), label: String(+v.toFixed(6)) }));
  const spanHours = (t1 - t0) / 3600e3;
  const xFmt = (d: Date) => {
    const iso = d.toISOString();
    return spanHours > 72 ? iso.slice(5, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
  };
  const xTicks = x.ticks(spanHours > 72 ? 6 : 5).map((d) => ({ x: x(d), label: xFmt(d) }));
  const line = pts.map((p, i) => [x(new Date(times[i])), y(p.value)] as [number, number]);
  return { frame: plot, line, yTicks, xTicks, yLabel: `${series.name} (${series.unit})` };
}
