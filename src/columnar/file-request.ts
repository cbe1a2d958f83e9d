/**
 * `--format FORMAT --out FILE`: whether a command writes its answer as a file, and which. Read before the
 * command runs, so a bad pair is refused before any work; kept apart from the writers (event-file.ts,
 * table-file.ts) because they load apache-arrow, which a command that prints its answer never needs.
 */
import { invalidParameter } from '../errors.js';

export const EVENT_FILE_FORMATS = ['json', 'arrow', 'geoparquet', 'gpkg', 'fgb'] as const;
export type EventFileFormat = (typeof EVENT_FILE_FORMATS)[number];

export interface EventFileRequest {
  format: Exclude<EventFileFormat, 'json'>;
  out: string;
}

export const TABLE_FILE_FORMATS = ['json', 'arrow'] as const;

export interface TableFileRequest {
  format: 'arrow';
  out: string;
}

/** The event file the command should write, or undefined for the JSON/text answer. */
export function eventFileRequest(raw: Record<string, unknown>): EventFileRequest | undefined {
  return fileRequest(raw, EVENT_FILE_FORMATS) as EventFileRequest | undefined;
}

/** The table file the command should write, or undefined for the JSON/text answer. */
export function tableFileRequest(raw: Record<string, unknown>): TableFileRequest | undefined {
  return fileRequest(raw, TABLE_FILE_FORMATS) as TableFileRequest | undefined;
}

function fileRequest(
  raw: Record<string, unknown>,
  formats: readonly string[],
): { format: string; out: string } | undefined {
  const format = raw.format === undefined ? 'json' : String(raw.format);
  if (!formats.includes(format)) throw invalidParameter('format', `"${format}" is not one of ${formats.join(', ')}`);
  if (format === 'json') return undefined;
  if (typeof raw.out !== 'string' || raw.out === '')
    throw invalidParameter('out', `--format ${format} writes a file: give it with --out FILE`);
  return { format, out: raw.out };
}
