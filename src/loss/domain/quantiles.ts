/**
 * Sample quantiles as eltpy/pltpy compute them (read_quantile): position (S - 1) * q + 1 in the
 * sorted samples, linear between the two samples around it.
 */
export function quantileLoss(sorted: Float64Array, q: number): number {
  const S = sorted.length;
  const pos = (S - 1) * q + 1;
  const ipart = Math.trunc(pos);
  const fpart = pos - ipart;
  if (ipart === S) return sorted[ipart - 1];
  return (sorted[ipart] - sorted[ipart - 1]) * fpart + sorted[ipart - 1];
}
