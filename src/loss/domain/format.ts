/**
 * Oasis's number formatting: losses are float32 (oasis_float) printed with C's %.Nf, so a value is
 * rounded to float32 first and then printed; NaN prints as "nan".
 */
export function f32(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  const v = Math.fround(x);
  const s = v.toFixed(digits);
  // %.Nf never prints "-0.000000" for a zero that rounding made negative.
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}
