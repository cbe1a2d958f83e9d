/**
 * The sum of an array of float64 as numpy (and so pandas' Series.sum) adds it: blocks of up to 128
 * values summed in eight running sums, longer arrays split in two halves (at a multiple of 8) and each
 * half summed the same way. The result can differ from a left-to-right sum in the last bits, which
 * shows in a printed TIV with cents; this order reproduces Oasis's figure to the bit.
 */
export function pairwiseSum(a: ArrayLike<number>, from = 0, n = a.length - from): number {
  if (n < 8) {
    let s = 0;
    for (let i = 0; i < n; i++) s += a[from + i];
    return s;
  }
  if (n <= 128) {
    const r = [a[from], a[from + 1], a[from + 2], a[from + 3], a[from + 4], a[from + 5], a[from + 6], a[from + 7]];
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[from + i + j];
    let s = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) s += a[from + i];
    return s;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseSum(a, from, half) + pairwiseSum(a, from + half, n - half);
}
