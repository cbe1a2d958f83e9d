/**
 * The key of a cached model package: what the package is made from, each part reduced to a digest by the
 * caller (src/models/package-cache/fingerprints.ts), so equal keys mean the same package byte for byte (the
 * build is deterministic). The key is the entry's folder name in the cache: `<model>-<key>`.
 */
import { createHash } from 'node:crypto';

export interface PackageCacheKeyParts {
  model: string;
  years: number;
  seed: number;
  /** sha256 of the --oed-location file, whose vulnerabilities the package holds besides its own. */
  oedLocation?: string;
  /** sha256 over the running installation's code tree and its installed dependencies. */
  code: string;
  /** sha256 over the data files the model's builder reads from --from. */
  data: string;
  /** The Node.js version and platform: the build's arithmetic is theirs too. */
  runtime: string;
}

/** Bumped when what goes into a key or an entry changes, so no entry of the old layout is read. */
const KEY_VERSION = 1;

export function packageCacheKey(p: PackageCacheKeyParts): string {
  // A fixed field order, so the same parts always give the same text.
  const text = JSON.stringify([
    KEY_VERSION,
    p.model,
    p.years,
    p.seed,
    p.oedLocation ?? null,
    p.code,
    p.data,
    p.runtime,
  ]);
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

export const entryNameOf = (model: string, key: string) => `${model}-${key}`;
