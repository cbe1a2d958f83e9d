/**
 * The URL ingest reads for a source when no --from is given: `CATINTEL_FEED_URL_<SOURCE>` (e.g.
 * CATINTEL_FEED_URL_USGS_EARTHQUAKES) when set — an internal mirror for an air-gapped install, a proxy,
 * a replay server in tests — otherwise the official feed.
 */
import { CatintelError } from '../errors.js';
import type { SourceModule } from './types.js';

export function feedUrlVariable(sourceId: string): string {
  return `CATINTEL_FEED_URL_${sourceId.toUpperCase().replaceAll('-', '_')}`;
}

export function feedUrlOf(
  source: Pick<SourceModule, 'id' | 'officialUrl'>,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  const name = feedUrlVariable(source.id);
  const value = env[name];
  if (value === undefined || value === '') return source.officialUrl;
  if (!/^https?:\/\/\S+$/.test(value)) {
    throw new CatintelError(
      'invalid_parameter',
      `${name}="${value}" is not an http(s) URL; set it to the feed's URL or unset it to read ${source.officialUrl}`,
      {
        errors: [{ field: name, message: 'an http(s) URL' }],
      },
    );
  }
  return value;
}
