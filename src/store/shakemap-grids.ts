/**
 * The ShakeMap PGA grids of earthquakes (docs/event-loss.md "Earthquake"): an ingest whose earthquake
 * record carries a grid.xml's PGA and STDPGA (src/sources/usgs-shakemap.ts) keeps it here with the ingest's
 * clock, once per ShakeMap version; the live loss of the earthquake (now, or at a stored version of it)
 * reads the latest grid stored by then. The values are kept as the doubles read (base64 of float64, about
 * 1 MB for Loma Prieta's 46,513 nodes), so a stored grid gives the loss the grid.xml file gives.
 */
import type { PgaGrid } from '../domain/pga-grid.js';
import type { Store, Tx } from './db.js';

export interface StoredGrid {
  grid: PgaGrid;
  /** The file or URL the grid.xml was read from. */
  from: string;
  stored_at: string;
}

const packed = (xs: Float64Array) => Buffer.from(xs.buffer, xs.byteOffset, xs.byteLength).toString('base64');

function unpacked(b64: string): Float64Array {
  const bytes = Buffer.from(b64, 'base64');
  // Copied into an aligned buffer: a Buffer from base64 may start at any byte offset of the pool.
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  return new Float64Array(aligned.buffer);
}

/** Keeps each grid that is new for its event (another ShakeMap version or processing time). Returns how many. */
export async function storeShakeMapGrids(
  tx: Tx,
  grids: readonly { eventId: string; grid: PgaGrid; from: string }[],
  now: string,
): Promise<number> {
  let kept = 0;
  for (const { eventId, grid, from } of grids) {
    // A replay run backwards (a clock before grids already stored) drops the later ones, as event versions do.
    await tx.run(`DELETE FROM shakemap_grids WHERE event_id = $id::UUID AND stored_at > $now::TIMESTAMP`, {
      id: eventId,
      now,
    });
    const last = await tx.all<{ v: string | null; p: string | null }>(
      `SELECT shakemap_version AS v, processed_at AS p FROM shakemap_grids WHERE event_id = $id::UUID ORDER BY stored_at DESC LIMIT 1`,
      { id: eventId },
    );
    if (last.length && last[0].v === grid.version && last[0].p === grid.processedAt) continue;
    await tx.run(
      `INSERT OR REPLACE INTO shakemap_grids VALUES ($id::UUID, $now::TIMESTAMP, $v, $p, $from, $nx, $ny, $lonMin, $latMax, $dLon, $dLat, $pga, $sigma, $event::JSON)`,
      {
        id: eventId,
        now,
        v: grid.version,
        p: grid.processedAt,
        from,
        nx: grid.nx,
        ny: grid.ny,
        lonMin: grid.lonMin,
        latMax: grid.latMax,
        dLon: grid.dLonDeg,
        dLat: grid.dLatDeg,
        pga: packed(grid.pgaG),
        sigma: packed(grid.sigmaLn),
        event: JSON.stringify({ event_id: grid.eventId, event: grid.event }),
      },
    );
    kept++;
  }
  return kept;
}

/**
 * The version and source of the event's latest grid stored by `at`, without reading its nodes: online
 * ingest fetches a ShakeMap's grid.xml only when these differ from its product's (src/sources/usgs-shakemap.ts).
 */
export async function shakeMapGridKeyAt(
  db: Store | Tx,
  eventId: string,
  at: string,
): Promise<{ version: string | null; from: string } | null> {
  const rows = await db.all<{ v: string | null; source: string }>(
    `SELECT shakemap_version AS v, source FROM shakemap_grids
       WHERE event_id = $id::UUID AND stored_at <= $at::TIMESTAMP ORDER BY stored_at DESC LIMIT 1`,
    { id: eventId, at },
  );
  return rows.length ? { version: rows[0].v, from: rows[0].source } : null;
}

interface GridRow {
  stored_at: string;
  shakemap_version: string | null;
  processed_at: string | null;
  source: string;
  nx: number;
  ny: number;
  lon_min: number;
  lat_max: number;
  dlon_deg: number;
  dlat_deg: number;
  pga_g: string;
  sigma_ln: string;
  event: string | null;
}

/** The event's latest ShakeMap grid stored by `at` (the clock, or the stored_at of a version of the event), or null. */
export async function shakeMapGridAt(db: Store | Tx, eventId: string, at: string): Promise<StoredGrid | null> {
  const rows = await db.all<GridRow>(
    `SELECT strftime(stored_at, '%Y-%m-%dT%H:%M:%SZ') AS stored_at, shakemap_version, processed_at, source, nx, ny,
            lon_min, lat_max, dlon_deg, dlat_deg, pga_g, sigma_ln, event::VARCHAR AS event
       FROM shakemap_grids WHERE event_id = $id::UUID AND stored_at <= $at::TIMESTAMP ORDER BY stored_at DESC LIMIT 1`,
    { id: eventId, at },
  );
  if (rows.length === 0) return null;
  const r = rows[0];
  const ev = r.event ? (JSON.parse(r.event) as { event_id: string | null; event: PgaGrid['event'] }) : null;
  return {
    grid: {
      nx: Number(r.nx),
      ny: Number(r.ny),
      lonMin: r.lon_min,
      latMax: r.lat_max,
      dLonDeg: r.dlon_deg,
      dLatDeg: r.dlat_deg,
      pgaG: unpacked(r.pga_g),
      sigmaLn: unpacked(r.sigma_ln),
      version: r.shakemap_version,
      processedAt: r.processed_at,
      eventId: ev?.event_id ?? null,
      event: ev?.event ?? null,
    },
    from: r.source,
    stored_at: r.stored_at,
  };
}
