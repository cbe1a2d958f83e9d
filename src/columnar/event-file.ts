/**
 * `catintel events live|nearby|rings --format arrow|geoparquet|gpkg|fgb --out FILE`: the page the command
 * answers, written as a file a data scientist or a GIS opens directly (pyarrow, pandas, polars, geopandas,
 * QGIS). Arrow is an IPC file (random access, what pandas.read_feather and polars.read_ipc take);
 * GeoParquet, GeoPackage and FlatGeobuf are event-geofile.ts.
 * The file appears whole under its name or not at all: it is written under a temporary name beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tableToIPC } from 'apache-arrow';
import { invalidParameter } from '../errors.js';
import { runToken, tempPathOf } from '../lib/output-set.js';
import { eventTable, type EventPage } from './event-table.js';
import { writeEventGeoFile } from './event-geofile.js';

export const EVENT_FILE_FORMATS = ['json', 'arrow', 'geoparquet', 'gpkg', 'fgb'] as const;
export type EventFileFormat = (typeof EVENT_FILE_FORMATS)[number];

export interface EventFileRequest {
  format: Exclude<EventFileFormat, 'json'>;
  out: string;
}

/** The file the command should write, or undefined for the JSON/text answer; refuses a bad pair before any work. */
export function eventFileRequest(raw: Record<string, unknown>): EventFileRequest | undefined {
  const format = raw.format === undefined ? 'json' : String(raw.format);
  if (!(EVENT_FILE_FORMATS as readonly string[]).includes(format))
    throw invalidParameter('format', `"${format}" is not one of ${EVENT_FILE_FORMATS.join(', ')}`);
  if (format === 'json') return undefined;
  if (typeof raw.out !== 'string' || raw.out === '')
    throw invalidParameter('out', `--format ${format} writes a file: give it with --out FILE`);
  return { format: format as EventFileRequest['format'], out: raw.out };
}

/** `extensionDir`: where DuckDB's spatial extension is, which gpkg and fgb need (src/store/extensions.ts). */
export async function writeEventFile(
  body: unknown,
  req: EventFileRequest,
  extensionDir: string,
): Promise<{ file: string; format: string; rows: number; numberMatched?: number }> {
  const page = (Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : body) as EventPage;
  const file = path.resolve(req.out);
  if (req.format !== 'arrow') {
    const rows = await writeEventGeoFile(page, file, req.format, extensionDir);
    return { file, format: req.format, rows, numberMatched: page.numberMatched };
  }
  const temp = tempPathOf(path.dirname(file), path.basename(file), runToken());
  try {
    await fs.promises.writeFile(temp, tableToIPC(eventTable(page), 'file'));
    await fs.promises.rename(temp, file);
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
  return { file, format: req.format, rows: page.features.length, numberMatched: page.numberMatched };
}
