/** Benchmark output: one JSON line per measurement, {name, n, seconds, per_second, peak_rss_mb, ...}. */
export interface Measurement {
  name: string;
  n: number;
  seconds: number;
  per_second: number;
  peak_rss_mb: number;
  [extra: string]: unknown;
}

export function peakRssMb(): number {
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

export function emit(m: Measurement): void {
  process.stdout.write(JSON.stringify(m) + '\n');
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
