/**
 * A page of events (points) or an event's rings (polygons) as GeoParquet 1.0 (geopandas.read_parquet, GDAL's Parquet driver, DuckDB): the columns
 * and types of the Arrow table (event-table.ts) with the geometry as WKB. DuckDB writes it: its GEOMETRY
 * type is stored as WKB with the file's `geo` metadata (encoding, geometry types, bbox; no crs, which
 * GeoParquet reads as OGC:CRS84, longitude first). The rows reach DuckDB as NDJSON in a temporary file
 * beside the output, each geometry as WKT, and the whole file appears under its name only when written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sqlPath, withDuck } from '../scoring-bulk/duck.js';
import { runToken, tempPathOf } from '../lib/output-set.js';
import { toWkt } from '../lib/wkt.js';
import { eventColumnsOf, isPointPage, type EventPage } from './event-table.js';

const SQL_TYPE = { text: 'VARCHAR', time: 'TIMESTAMPTZ', number: 'DOUBLE', bool: 'BOOLEAN' } as const;

export async function writeEventGeoParquet(page: EventPage, file: string): Promise<number> {
  const dir = path.dirname(path.resolve(file));
  const name = path.basename(file);
  const token = runToken();
  const rowsFile = tempPathOf(dir, `${name}.rows`, token);
  const temp = tempPathOf(dir, name, token);
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
    const coordinates = points ? [['longitude', 'DOUBLE'], ['latitude', 'DOUBLE']] : [];
    const types = [...columns.map((c) => [c.name, SQL_TYPE[c.kind]]), ...coordinates, ['wkt', 'VARCHAR']];
    const struct = types.map(([n, t]) => `${sqlPath(n)}: '${t}'`).join(', ');
    const select = [...columns.map((c) => `"${c.name}"`), ...coordinates.map(([n]) => n), 'wkt::GEOMETRY AS geometry'].join(', ');
    await withDuck(dir, token, (d) =>
      d.run(`COPY (SELECT ${select} FROM read_json(${sqlPath(rowsFile)}, format = 'newline_delimited', columns = {${struct}})) TO ${sqlPath(temp)} (FORMAT parquet, COMPRESSION zstd)`),
    );
    await fs.promises.rename(temp, file);
    return page.features.length;
  } finally {
    await fs.promises.rm(rowsFile, { force: true });
    await fs.promises.rm(temp, { force: true });
  }
}
