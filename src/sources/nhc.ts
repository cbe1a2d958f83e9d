/**
 * NOAA National Hurricane Center (../shared/data/SOURCES.md §1, §6): the live CurrentStorms.json summary,
 * the basin RSS feeds (index-at.xml, index-ep.xml, index-cp.xml; gtwo.xml), the GIS forecast advisory
 * zips ({id}_5day_latest.zip) and ATCF best-track b-decks (https://ftp.nhc.noaa.gov/atcf/btk/). All map
 * to one event per storm, keyed by the ATCF storm id ("al092022"), so every format updates the same event.
 * Mapping and rules: docs/sources/nhc.md.
 */
import type { ParseResult } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { ParseContext, SourceModule } from './types.js';
import { looksLikeAtcf, parseBdeck } from './nhc-bdeck.js';
import { parseCurrentStorms } from './nhc-current-storms.js';
import { parseNhcGisZip } from './nhc-gis.js';
import { parseNhcRss } from './nhc-rss.js';

const EXPECTED =
  'expected NHC CurrentStorms.json ({"activeStorms": [...]}), an NHC RSS feed (index-at.xml, index-ep.xml, gtwo.xml), ' +
  'a GIS forecast advisory zip ({id}_5day_latest.zip, --from FILE) or an ATCF best-track b-deck (lines "AL, 09, 2022092218, , BEST, ...")';

export const nhc: SourceModule = {
  id: 'nhc',
  officialUrl: 'https://www.nhc.noaa.gov/CurrentStorms.json',
  accept: 'application/json, application/rss+xml, application/xml, text/plain',
  description:
    'NOAA National Hurricane Center active storms (CurrentStorms.json, NHC RSS, GIS 5-day advisory zip or ATCF b-deck)',
  parse(body: string, ctx: ParseContext): ParseResult {
    const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
    const head = text.trimStart();
    if (head.startsWith('PK\u0003\u0004')) {
      // A zip fetched online arrives decoded as text and is no longer intact.
      throw new CatintelError(
        'invalid_input',
        `${EXPECTED}; got a zip archive as text (from a URL): download it and pass --from FILE`,
      );
    }
    if (head.startsWith('{')) {
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch {
        throw new CatintelError('invalid_input', `${EXPECTED}; got text that starts like JSON but does not parse`);
      }
      if (typeof doc === 'object' && doc !== null && Array.isArray((doc as { activeStorms?: unknown }).activeStorms)) {
        return parseCurrentStorms(doc as { activeStorms: unknown[] }, ctx);
      }
      throw new CatintelError('invalid_input', `${EXPECTED}; got JSON without an "activeStorms" array`);
    }
    if (head.startsWith('<')) return parseNhcRss(text, ctx, EXPECTED);
    if (looksLikeAtcf(head)) {
      const result = parseBdeck(text, ctx);
      if (result.records.length === 0 && result.skipped.length === 0) {
        throw new CatintelError(
          'invalid_input',
          `${EXPECTED}; got ATCF lines but no BEST (best-track) fix, perhaps an a-deck`,
        );
      }
      return result;
    }
    throw new CatintelError('invalid_input', `${EXPECTED}; got text that is none of these`);
  },
  parseZip(bytes: Uint8Array, ctx: ParseContext): Promise<ParseResult> {
    return parseNhcGisZip(bytes, ctx, EXPECTED);
  },
};
