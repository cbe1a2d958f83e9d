/**
 * Oasis numbers locations 1..n by (PortNumber, AccNumber, LocNumber) sorted as text, so LocNumber
 * "10" comes before "2": a keys file names locations by these numbers, and items follow their order.
 * Rows with the same three values share one number.
 */
export function locationIds(port: readonly string[], acc: readonly string[], loc: readonly string[]): Int32Array {
  const n = port.length;
  const order = Array.from({ length: n }, (_, i) => i);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  order.sort((i, j) => cmp(port[i], port[j]) || cmp(acc[i], acc[j]) || cmp(loc[i], loc[j]) || i - j);
  const ids = new Int32Array(n);
  let id = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    const p = k > 0 ? order[k - 1] : -1;
    if (p < 0 || port[i] !== port[p] || acc[i] !== acc[p] || loc[i] !== loc[p]) id++;
    ids[i] = id;
  }
  return ids;
}
