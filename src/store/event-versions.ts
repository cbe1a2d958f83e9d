/**
 * A version per event: a hash of everything the API shows of it (every column of its row, its observations,
 * its rings). Readers that keep rendered events in memory (the live index, the event stream) compare
 * versions after a write and render again only the events whose version moved, instead of every live
 * event on every write.
 */

/**
 * `SELECT id, version FROM events WHERE <where> [ORDER BY <orderBy>]`: `where`, `also` and `orderBy` are SQL
 * over the events table's columns (their parameters bound by the caller); `also`, text appended to the
 * version, adds what a reader derives from the row at query time (a status at now). Observations and rings
 * are hashed by content, not by the instant they were written: a re-ingest of the same content leaves the
 * version as it was.
 */
export function eventVersionsSql(where: string, o: { also?: string; orderBy?: string } = {}): string {
  const scope = `event_id IN (SELECT id FROM events WHERE (${where}))`;
  return `
    WITH obs AS (
           SELECT event_id, count(*) AS n, sum(hash(kind, observed_at, value, unit, lat, lng)) AS h
             FROM observations WHERE ${scope} GROUP BY event_id),
         rg AS (
           SELECT event_id, count(*) AS n, sum(hash(ring_id, ordinal, kind, label, threshold, unit, radius_km, geojson)) AS h
             FROM rings WHERE ${scope} GROUP BY event_id)
    SELECT e.id::VARCHAR AS id,
           hash(hash(e), coalesce(obs.n, 0), coalesce(obs.h, 0), coalesce(rg.n, 0), coalesce(rg.h, 0))::VARCHAR${o.also ? ` || ':' || (${o.also})` : ''} AS version
      FROM events e LEFT JOIN obs ON obs.event_id = e.id LEFT JOIN rg ON rg.event_id = e.id
     WHERE (${where})${o.orderBy ? ` ORDER BY ${o.orderBy}` : ''}`;
}
