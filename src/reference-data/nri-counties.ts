/**
 * FEMA National Risk Index v1.19 county table (SOURCES.md §2), read by the model packages' exposure books and
 * rates, and by the baseline build's validation (databuild/validation-losses.ts).
 */
import { parse } from 'csv-parse/sync';

/** NRI v1.19 county rows by 5-digit FIPS. */
export function parseNriCounties(text: string): Map<string, Record<string, string>> {
  const rows = parse(text.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  return new Map(rows.map((r) => [r.STCOFIPS.padStart(5, '0'), r]));
}
