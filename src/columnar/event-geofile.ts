/**
 * A page of events (points) or an event's rings (polygons) as a geospatial file, with the columns and types
 * of the Arrow table (event-table.ts):
 * - GeoParquet 1.0 (geopandas.read_parquet, GDAL's Parquet driver, DuckDB), geometry as WKB: DuckDB's own
 *   GEOMETRY type is stored as WKB with the file's `geo` metadata (encoding, geometry types, bbox; no crs,
 *   which GeoParquet reads as OGC:CRS84, longitude first). Needs no extension.
 * - GeoPackage (gpkg) and FlatGeobuf (fgb), for QGIS, ArcGIS and GDAL: written by GDAL inside DuckDB's
 *   spatial extension (COPY ... (FORMAT GDAL)), CRS EPSG:4326 with longitude as x. A layer named `events`
 *   or `rings`.
 * The rows reach DuckDB as NDJSON in a temporary file beside the output, each geometry as WKT, and the
 * whole file appears under its name only when written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sqlPath, withDuck } from '../scoring-bulk/scratch-duckdb.js';
import { runToken, tempPathOf } from '../lib/output-set.js';
import { toWkt } from '../lib/wkt.js';
import { eventColumnsOf, isPointPage, type EventPage } from './event-table.js';

const SQL_TYPE = { text: 'VARCHAR', time: 'TIMESTAMPTZ', number: 'DOUBLE', bool: 'BOOLEAN' } as const;

export type GeoFileFormat = 'geoparquet' | 'gpkg' | 'fgb';

/** COPY's options for each format; the GDAL ones name the driver, the CRS and the layer. */
function copyOptions(format: GeoFileFormat, layer: string): string {
  if (format === 'geoparquet') return 'FORMAT parquet, COMPRESSION zstd';
  const points = layer === 'events' ? ", GEOMETRY_TYPE 'POINT'" : '';
  if (format === 'gpkg') return `FORMAT GDAL, DRIVER 'GPKG', SRS 'EPSG:4326', LAYER_NAME '${layer}'${points}`;
  // FlatGeobuf's spatial index would store the features in Hilbert-curve order: without it they keep the
  // page's order (nearest first, newest first), as in every other format; a page is small enough to scan.
  return `FORMAT GDAL, DRIVER 'FlatGeobuf', SRS 'EPSG:4326', LAYER_NAME '${layer}'${points}, LAYER_CREATION_OPTIONS 'SPATIAL_INDEX=NO'`;
}

/**
 * Writes the page to `file`; gpkg and fgb load the spatial extension from `extensionDir` (a missing one
 * fails with the fix before anything is written).
 */
export async function writeEventGeoFile(
  page: EventPage,
  file: string,
  format: GeoFileFormat,
  extensionDir: string,
): Promise<number> {
  const dir = path.dirname(path.resolve(file));
  const name = path.basename(file);
  const token = runToken();
  const rowsFile = tempPathOf(dir, `${name}.rows`, token);
  // GDAL picks its layout from the name: a FlatGeobuf path not ending in .fgb becomes a directory of layers.
  const temp = tempPathOf(dir, name, token) + (format === 'geoparquet' ? '' : `.${format}`);
  const columns = eventColumnsOf(page);
  try {
    const points = isPointPage(page);
    const lines = page.features.map((f) => {
      const p = f.properties ?? {};
      const row: Record<string, unknown> = {};
      for (const c of columns) row[c.name] = p[c.name] ?? null;
      if (f.geometry.type === 'Point') [row.longitude, row.latitude] = f.geometry.coordinates;
      row.wkt = toWkt(f.geometry);
      return JSON.stringify(row);
    });
    await fs.promises.writeFile(rowsFile, lines.join('\n') + '\n');
    const coordinates = points
      ? [
          ['longitude', 'DOUBLE'],
          ['latitude', 'DOUBLE'],
        ]
      : [];
    const types = [...columns.map((c) => [c.name, SQL_TYPE[c.kind]]), ...coordinates, ['wkt', 'VARCHAR']];
    const struct = types.map(([n, t]) => `${sqlPath(n)}: '${t}'`).join(', ');
    const select = [
      ...columns.map((c) => `"${c.name}"`),
      ...coordinates.map(([n]) => n),
      'wkt::GEOMETRY AS geometry',
    ].join(', ');
    const options = copyOptions(format, points ? 'events' : 'rings');
    await withDuck(
      dir,
      token,
      (d) =>
        d.run(
          `COPY (SELECT ${select} FROM read_json(${sqlPath(rowsFile)}, format = 'newline_delimited', columns = {${struct}})) TO ${sqlPath(temp)} (${options})`,
        ),
      format === 'geoparquet' ? {} : { spatialFrom: extensionDir },
    );
    await fs.promises.rename(temp, file);
    return page.features.length;
  } finally {
    await fs.promises.rm(rowsFile, { force: true });
    await fs.promises.rm(temp, { force: true });
  }
}
