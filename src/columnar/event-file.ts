/**
 * `catintel events live|nearby|rings --format arrow|geoparquet|gpkg|fgb --out FILE`: the page the command
 * answers, written as a file a data scientist or a GIS opens directly (pyarrow, pandas, polars, geopandas,
 * QGIS). Arrow is an IPC file (random access, what pandas.read_feather and polars.read_ipc take);
 * GeoParquet, GeoPackage and FlatGeobuf are event-geofile.ts.
 * The file appears whole under its name or not at all: it is written under a temporary name beside it.
 * Which file, if any, a command asked for is file-request.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tableToIPC } from 'apache-arrow';
import { runToken, tempPathOf } from '../lib/output-set.js';
import { eventTable, type EventPage } from './event-table.js';
import { writeEventGeoFile } from './event-geofile.js';
import type { EventFileRequest } from './file-request.js';

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
