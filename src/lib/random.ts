/**
 * mulberry32 (Tommy Ettinger, public domain): a small, fast, seeded 32-bit generator. Benchmarks, test
 * data and kill points use it so that every run draws the same numbers; it is not for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
