/**
 * Which of catintel's model packages a model_data directory is, told by the file only that model's
 * builder writes, and that package's keys lookup (loaded lazily: each reads its own model's files).
 * Both lookups have the same shape, so `model keys` and `oasis run --model` treat them alike.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CELL_ZONE_FILE } from './earthquake/package/package-files.js';
import { CELL_MAX_BIN_FILE } from './hurricane/package/package-files.js';
import type { KeyError, KeyRow } from './hurricane/package/keys.js';

export type PackageModel = 'hurricane' | 'earthquake';
export const PACKAGE_MODELS: readonly PackageModel[] = ['hurricane', 'earthquake'];

export interface PackageKeysLookup {
  bookKeys(modelDir: string, locationFile: string): { keys: KeyRow[]; errors: KeyError[] };
  missingVulnerabilities(modelDir: string, keys: KeyRow[]): number[];
  writeBookKeys(out: string, keys: KeyRow[], errors: KeyError[]): { keys: string; errors: string };
}

export function packageModelOf(modelDir: string): PackageModel | undefined {
  if (fs.existsSync(path.join(modelDir, CELL_MAX_BIN_FILE))) return 'hurricane';
  if (fs.existsSync(path.join(modelDir, CELL_ZONE_FILE))) return 'earthquake';
  return undefined;
}

export async function packageKeysLookup(model: PackageModel): Promise<PackageKeysLookup> {
  return model === 'earthquake' ? await import('./earthquake/package/book-keys.js') : await import('./hurricane/package/book-keys.js');
}
