/**
 * Values computed from files, kept while the files stay as they are. A long-lived process (the server, a
 * worker, the test suite) that answers one EP curve after another read and parsed the same model files on
 * every request: the hurricane package's vulnerability.csv alone is 34 MB for 100 years, a second of CPU
 * each time. A value is kept under the identity of every file it was computed from (device, inode, size,
 * modification and change times, in nanoseconds), so a file rebuilt or edited in place is read again, and
 * the same file reached through a link (an event package links its package's files) is the same file; it is
 * not read again. Only the last `capacity` values are kept (least recently used out first), and a failed
 * computation keeps nothing, so a bad file reports its error every time.
 */
import fs from 'node:fs';

/** The file's identity, or undefined when it cannot be read (the computation then reports why). */
export function fileIdentity(file: string): string | undefined {
  const s = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.dev}|${s.ino}|${s.size}|${s.mtimeNs}|${s.ctimeNs}` : undefined;
}

export interface FileMemo<T> {
  /** The value kept for the files, else compute()'s (then kept). */
  (files: readonly string[], compute: () => T): T;
  /** The value kept for the files, if any (nothing is computed). */
  peek(files: readonly string[]): T | undefined;
}

export function fileMemo<T>(capacity: number): FileMemo<T> {
  // A Map iterates in insertion order: a hit is moved to the end, the first entry is the least recent.
  const kept = new Map<string, T>();
  const keyOf = (files: readonly string[]): string | undefined => {
    const ids = files.map(fileIdentity);
    return ids.some((id) => id === undefined) ? undefined : ids.join('\n');
  };
  const memo = (files: readonly string[], compute: () => T): T => {
    const key = keyOf(files);
    if (key === undefined) return compute();
    if (kept.has(key)) {
      const hit = kept.get(key) as T;
      kept.delete(key);
      kept.set(key, hit);
      return hit;
    }
    const value = compute();
    kept.set(key, value);
    while (kept.size > capacity) kept.delete(kept.keys().next().value as string);
    return value;
  };
  const peek = (files: readonly string[]): T | undefined => {
    const key = keyOf(files);
    return key === undefined ? undefined : kept.get(key);
  };
  return Object.assign(memo, { peek });
}
