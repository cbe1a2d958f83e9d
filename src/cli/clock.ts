/** CATINTEL_NOW (ISO 8601 UTC) pins "now" for lifecycle rules, alerts and written timestamps. */
import { CatintelError } from '../errors.js';

export function clockFrom(env: Record<string, string | undefined>): () => Date {
  const pinned = env.CATINTEL_NOW;
  if (!pinned) return () => new Date();
  const t = Date.parse(pinned);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(pinned)) {
    throw new CatintelError('invalid_parameter', `CATINTEL_NOW="${pinned}" is not an ISO 8601 UTC time such as 2022-09-29T03:32:00Z`);
  }
  return () => new Date(t);
}
