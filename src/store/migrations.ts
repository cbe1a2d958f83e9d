/**
 * Versioned schema migrations, applied in order inside one transaction each. Never edit a released
 * migration: add the next one. Events and rings keep a native GEOMETRY column (analysts open the file
 * in DuckDB and query it) beside plain numeric lat/lng and bbox columns, which our own exact queries
 * use so that nothing depends on the spatial extension being installed.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'events, rings, observations, ingest runs',
    sql: `
      CREATE TABLE events (
        id UUID PRIMARY KEY,
        source VARCHAR NOT NULL,
        source_id VARCHAR NOT NULL,
        slug VARCHAR NOT NULL UNIQUE,
        title VARCHAR NOT NULL,
        event_type VARCHAR NOT NULL,
        severity DOUBLE NOT NULL,
        severity_label VARCHAR NOT NULL,
        started_at TIMESTAMP NOT NULL,
        updated_at TIMESTAMP NOT NULL,      -- the source's last-modified time of this version
        ingested_at TIMESTAMP NOT NULL,     -- when this store first recorded the event
        monitoring_from TIMESTAMP,          -- lifecycle: active before, monitoring from here
        ended_at TIMESTAMP,                 -- lifecycle: ended from here (NULL: no end known yet)
        lat DOUBLE NOT NULL,
        lng DOUBLE NOT NULL,
        geom GEOMETRY NOT NULL,
        source_url VARCHAR NOT NULL,
        confidence_score DOUBLE NOT NULL,
        details JSON NOT NULL,
        content_hash VARCHAR NOT NULL,
        UNIQUE (source, source_id)
      );
      CREATE TABLE rings (
        ring_id UUID PRIMARY KEY,
        event_id UUID NOT NULL,
        ordinal INTEGER NOT NULL,           -- 0 = innermost; the outermost ring has the highest ordinal
        kind VARCHAR NOT NULL,
        label VARCHAR NOT NULL,
        threshold DOUBLE,
        unit VARCHAR,
        radius_km DOUBLE,
        min_lng DOUBLE NOT NULL, min_lat DOUBLE NOT NULL, max_lng DOUBLE NOT NULL, max_lat DOUBLE NOT NULL,
        geom GEOMETRY NOT NULL,
        geojson VARCHAR NOT NULL            -- the same polygon as GeoJSON text, served as-is
      );
      CREATE TABLE observations (
        event_id UUID NOT NULL,
        kind VARCHAR NOT NULL,
        observed_at TIMESTAMP NOT NULL,
        value DOUBLE NOT NULL,
        unit VARCHAR NOT NULL,
        lat DOUBLE,
        lng DOUBLE,
        ingested_at TIMESTAMP NOT NULL,
        PRIMARY KEY (event_id, kind, observed_at)
      );
      CREATE TABLE ingest_runs (
        id UUID PRIMARY KEY,
        source VARCHAR NOT NULL,
        url VARCHAR NOT NULL,
        started_at TIMESTAMP NOT NULL,
        finished_at TIMESTAMP,
        status VARCHAR NOT NULL,            -- ok | not_modified | failed
        fetched INTEGER NOT NULL DEFAULT 0,
        inserted INTEGER NOT NULL DEFAULT 0,
        updated INTEGER NOT NULL DEFAULT 0,
        unchanged INTEGER NOT NULL DEFAULT 0,
        skipped INTEGER NOT NULL DEFAULT 0,
        skipped_reasons JSON NOT NULL DEFAULT '[]',
        etag VARCHAR,
        last_modified VARCHAR,
        error VARCHAR
      );
    `,
  },
  {
    version: 2,
    name: 'api keys',
    // Only a SHA-256 of each key is kept (keys are 256 random bits, so a fast hash cannot be brute-forced);
    // the key itself is shown once, at creation. `prefix` is the first characters, for people to recognise it.
    sql: `
      CREATE TABLE api_keys (
        id VARCHAR PRIMARY KEY,             -- key_<random>: what list shows and revoke takes
        name VARCHAR NOT NULL,
        tier VARCHAR NOT NULL,              -- agency | analyst | enterprise
        account VARCHAR NOT NULL,           -- the account the key acts for
        sandbox BOOLEAN NOT NULL,           -- ci_test_ (true) or ci_live_ (false)
        prefix VARCHAR NOT NULL,
        key_hash VARCHAR NOT NULL UNIQUE,   -- hex SHA-256 of the whole key
        created_at TIMESTAMP NOT NULL,
        revoked_at TIMESTAMP                -- NULL while the key works
      );
    `,
  },
  {
    version: 3,
    name: 'rings remember whether they are estimates',
    // One event may take rings from several feeds of its source (WFIGS points and perimeters, NHC radii
    // and cones); an estimate (a fire drawn as a circle) must not replace a ring the source drew itself,
    // so the store keeps which is which (src/domain/rings/merge.ts). Of the rings already stored, the
    // wildfire circles are the estimates: they have a radius, a mapped perimeter and its bands have none.
    sql: `
      ALTER TABLE rings ADD COLUMN estimate BOOLEAN DEFAULT false;
      UPDATE rings SET estimate = true WHERE kind IN ('fire_perimeter', 'ember_zone') AND radius_km IS NOT NULL;
    `,
  },
];
