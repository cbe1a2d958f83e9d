/**
 * A source module knows one upstream feed: its official URL and how to parse its real wire format
 * into normalised SourceRecords. Parsing is pure (text, or a zip's bytes, in; records out); fetching lives in fetch.ts.
 */
import type { ParseResult, SourceId } from '../domain/event.js';

export interface ParseContext {
  /** The ingest clock (CATINTEL_NOW pins it). */
  now: Date;
  /** Where the body came from (URL, or file:// path for --from FILE); used as a fallback source_url. */
  sourceUrl: string;
}

export interface SourceModule {
  id: SourceId;
  /** The official live URL (../shared/data/SOURCES.md), read when no --from is given. */
  officialUrl: string;
  /** Accept header for the online request. */
  accept: string;
  /** One line for `catintel ingest --help`. */
  description: string;
  /**
   * Parses one body. Throws CatintelError('invalid_input', ...) naming the file/format when the body is
   * not this source's format at all; a bad individual record is skipped with a reason instead.
   */
  parse(body: string, ctx: ParseContext): ParseResult | Promise<ParseResult>;
  /**
   * Parses a zip archive given with --from FILE (recognised by its PK magic bytes and handed over as the
   * bytes read). Only a source whose upstream publishes zips has it (NHC GIS advisory shapefiles); for
   * every other source ingest refuses a zip with invalid_input before parsing. Same error rules as parse().
   */
  parseZip?(bytes: Uint8Array, ctx: ParseContext): ParseResult | Promise<ParseResult>;
}
