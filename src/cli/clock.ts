/**
 * "Now" for lifecycle rules, alerts and written timestamps: `--as-of` (docs/contract.md#as-of-now) or CATINTEL_NOW
 * (ISO 8601 UTC) pins it, the flag winning over the environment (DESIGN habit 5); otherwise the wall clock.
 */
import { CatintelError } from '../errors.js';

export function clockFrom(env: Record<string, string | undefined>, asOf?: string): () => Date {
  const [name, pinned] = asOf !== undefined ? ['--as-of', asOf] : ['CATINTEL_NOW', env.CATINTEL_NOW];
  if (!pinned) return () => new Date();
  const t = Date.parse(pinned);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(pinned)) {
    throw new CatintelError(
      'invalid_parameter',
      `${name} "${pinned}" is not an ISO 8601 UTC time such as 2022-09-29T03:32:09Z`,
      {
        errors: [
          { field: name === '--as-of' ? 'as_of' : name, message: 'an ISO 8601 UTC time such as 2022-09-29T03:32:09Z' },
        ],
      },
    );
  }
  return () => new Date(t);
}

/** The pinned "now" as given (`--as-of` over CATINTEL_NOW), or undefined for the wall clock. */
export function pinnedNowOf(env: Record<string, string | undefined>, asOf?: string): string | undefined {
  return asOf ?? (env.CATINTEL_NOW || undefined);
}
