/**
 * Oasis numbers accounts 1..n by (PortNumber, AccNumber) sorted as text, and the layers of an account
 * 1..k by first appearance of (PolNumber, LayerNumber) in the account file.
 */
export function accountIds(port: readonly string[], acc: readonly string[]): Int32Array {
  const keys = [...new Set(port.map((p, i) => `${p}\u0000${acc[i]}`))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const idOf = new Map(keys.map((k, i) => [k, i + 1]));
  return Int32Array.from(port, (p, i) => idOf.get(`${p}\u0000${acc[i]}`)!);
}

export function layerIds(
  accountId: Int32Array,
  polNumber: readonly string[],
  layerNumber: readonly string[],
): Int32Array {
  const seen = new Map<number, Map<string, number>>();
  return Int32Array.from(accountId, (a, i) => {
    const layers = seen.get(a) ?? new Map<string, number>();
    seen.set(a, layers);
    const key = `${polNumber[i]}\u0000${layerNumber[i] === '' ? '1' : layerNumber[i]}`;
    let id = layers.get(key);
    if (id === undefined) {
      id = layers.size + 1;
      layers.set(key, id);
    }
    return id;
  });
}
