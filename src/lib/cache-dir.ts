/**
 * catintel's cache folder: CATINTEL_CACHE, else catintel/ under XDG_CACHE_HOME, else ~/.cache/catintel.
 * What is cached there can always be made again (built model packages, the hurricane hazard curve's catalog), so
 * removing it loses only time.
 */
import os from 'node:os';
import path from 'node:path';

export function catintelCacheDir(env: Readonly<Record<string, string | undefined>> = {}): string {
  if (env.CATINTEL_CACHE) return path.resolve(env.CATINTEL_CACHE);
  const xdg = env.XDG_CACHE_HOME;
  // XDG: a relative XDG_CACHE_HOME is invalid and is ignored.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'catintel');
  return path.join(env.HOME || os.homedir(), '.cache', 'catintel');
}
