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
  {
    version: 4,
    name: 'parametric triggers, their history, alerts and entered observations',
    // One history row per (trigger, event, observation key): the key names the inputs it was computed from
    // (latest fix time and a hash of the inputs), so a re-run over the same data adds nothing
    // (docs/triggers.md). `inputs` keeps what the value was computed from, for `trigger verify`.
    sql: `
      CREATE TABLE triggers (
        id VARCHAR PRIMARY KEY,             -- a UUID
        account VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        peril VARCHAR NOT NULL,
        lat DOUBLE NOT NULL,
        lng DOUBLE NOT NULL,
        radius_km DOUBLE NOT NULL,
        threshold_type VARCHAR NOT NULL,
        threshold_value DOUBLE NOT NULL,
        alert_at_pct DOUBLE NOT NULL,
        notes VARCHAR,
        status VARCHAR NOT NULL,            -- active | inactive
        created_at TIMESTAMP NOT NULL,
        deactivated_at TIMESTAMP,
        last_evaluated_at TIMESTAMP,
        state VARCHAR NOT NULL,             -- clear | alert | triggered
        proximity_pct DOUBLE NOT NULL
      );
      CREATE TABLE trigger_history (
        id VARCHAR PRIMARY KEY,             -- a UUID
        trigger_id VARCHAR NOT NULL,
        obs_key VARCHAR NOT NULL,           -- what makes the entry new: event, source version, inputs hash
        event_id VARCHAR,                   -- NULL for an entered observation that names no stored event
        source VARCHAR NOT NULL,
        source_id VARCHAR NOT NULL,
        source_version VARCHAR NOT NULL,    -- the event record's content hash when evaluated
        observed_at TIMESTAMP,              -- the fix or observation time the value comes from
        observed_value DOUBLE,
        unit VARCHAR NOT NULL,
        distance_km DOUBLE,
        proximity_pct DOUBLE NOT NULL,
        state VARCHAR NOT NULL,
        previous_state VARCHAR NOT NULL,
        method VARCHAR NOT NULL,
        rule_version VARCHAR NOT NULL,
        inputs JSON NOT NULL,
        inputs_hash VARCHAR NOT NULL,
        evaluated_at TIMESTAMP NOT NULL,
        UNIQUE (trigger_id, obs_key)
      );
      CREATE TABLE trigger_alerts (
        id VARCHAR PRIMARY KEY,             -- a UUID
        trigger_id VARCHAR NOT NULL,
        account VARCHAR NOT NULL,
        history_id VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,              -- alert | triggered
        event_key VARCHAR NOT NULL,         -- the event id, or the observation source when it names none
        proximity_pct DOUBLE NOT NULL,
        created_at TIMESTAMP NOT NULL,
        read_at TIMESTAMP,
        UNIQUE (trigger_id, event_key, kind)
      );
      CREATE TABLE trigger_observations (
        id VARCHAR PRIMARY KEY,             -- a UUID
        trigger_id VARCHAR NOT NULL,
        seq INTEGER NOT NULL,               -- 1, 2, ... per trigger: the order values were entered in
        event_ref VARCHAR,                  -- the event as the reporter named it (id, slug or source id), if at all
        event_id VARCHAR,                   -- that event in our store, when we hold it (one match)
        value DOUBLE NOT NULL,
        unit VARCHAR NOT NULL,
        source VARCHAR NOT NULL,            -- who reported it (e.g. "PCS 2022-10-05 estimate")
        observed_at TIMESTAMP NOT NULL,
        entered_at TIMESTAMP NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'portfolios, portfolio locations, saved locations, alerts',
    // A portfolio and all its locations are written in one transaction (nothing is half-imported); the
    // import's SHA-256 makes a re-run of the same file under the same name answer the portfolio already
    // there instead of a second copy (docs/portfolios.md). Alerts are raised inside the ingest transaction
    // that writes the rings; the UNIQUE keys (thing, event, ring kind and label) make "never twice" hold
    // across re-runs and kills. `owner` of a saved location is `account:<account>` or `ip:<client address>`.
    sql: `
      CREATE TABLE portfolios (
        id VARCHAR PRIMARY KEY,             -- a UUID
        account VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        source VARCHAR NOT NULL,            -- csv | json
        content_sha256 VARCHAR NOT NULL,    -- of the CSV bytes or of the canonical JSON rows
        location_count INTEGER NOT NULL,
        currency VARCHAR NOT NULL,
        building_tiv DOUBLE NOT NULL, contents_tiv DOUBLE NOT NULL, bi_tiv DOUBLE NOT NULL, other_tiv DOUBLE NOT NULL,
        created_at TIMESTAMP NOT NULL
      );
      CREATE TABLE portfolio_locations (
        portfolio_id VARCHAR NOT NULL,
        seq INTEGER NOT NULL,               -- 1, 2, ... in file order
        row_number INTEGER NOT NULL,        -- the data row of the file (JSON: the array index + 1)
        loc_number VARCHAR NOT NULL,
        lat DOUBLE NOT NULL,
        lng DOUBLE NOT NULL,
        occupancy_code INTEGER,
        construction_code INTEGER,
        perils_covered VARCHAR NOT NULL,    -- LocPerilsCovered as given (upper-cased, ';'-joined)
        peril_codes VARCHAR NOT NULL,       -- the OED peril codes it covers, groups expanded
        building_tiv DOUBLE NOT NULL, contents_tiv DOUBLE NOT NULL, bi_tiv DOUBLE NOT NULL, other_tiv DOUBLE NOT NULL,
        currency VARCHAR NOT NULL
      );
      CREATE TABLE saved_locations (
        id VARCHAR PRIMARY KEY,             -- a UUID
        owner VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        lat DOUBLE NOT NULL,
        lng DOUBLE NOT NULL,
        radius_km DOUBLE NOT NULL,
        perils VARCHAR NOT NULL,            -- JSON array of event types; [] = every event type
        notes VARCHAR,
        created_at TIMESTAMP NOT NULL
      );
      CREATE TABLE location_alerts (
        id VARCHAR PRIMARY KEY,             -- a UUID
        owner VARCHAR NOT NULL,
        location_id VARCHAR NOT NULL,
        event_id VARCHAR NOT NULL,
        ring_key VARCHAR NOT NULL,          -- kind|label: the same ring across ingests, however it grows
        ring_id VARCHAR NOT NULL,
        ring_kind VARCHAR NOT NULL,
        ring_label VARCHAR NOT NULL,
        distance_km DOUBLE NOT NULL,        -- 0 inside the ring
        raised_at TIMESTAMP NOT NULL,
        read_at TIMESTAMP,
        UNIQUE (location_id, event_id, ring_key)
      );
      CREATE TABLE portfolio_alerts (
        id VARCHAR PRIMARY KEY,             -- a UUID
        account VARCHAR NOT NULL,
        portfolio_id VARCHAR NOT NULL,
        event_id VARCHAR NOT NULL,
        ring_key VARCHAR NOT NULL,
        ring_id VARCHAR NOT NULL,
        ring_kind VARCHAR NOT NULL,
        ring_label VARCHAR NOT NULL,
        location_count INTEGER NOT NULL,
        building_tiv DOUBLE NOT NULL, contents_tiv DOUBLE NOT NULL, bi_tiv DOUBLE NOT NULL, other_tiv DOUBLE NOT NULL,
        currency VARCHAR NOT NULL,
        raised_at TIMESTAMP NOT NULL,
        read_at TIMESTAMP,
        UNIQUE (portfolio_id, event_id, ring_key)
      );
    `,
  },
  {
    version: 6,
    name: 'stored what-if scenarios',
    // POST /scenarios/run keeps the request as given and the whole result, so GET /scenarios/{id} answers
    // what the run answered (the embedded data it read may be rebuilt later). Another account's is not found.
    sql: `
      CREATE TABLE scenarios (
        id VARCHAR PRIMARY KEY,             -- a UUID
        account VARCHAR NOT NULL,
        name VARCHAR,
        event_type VARCHAR NOT NULL,
        request JSON NOT NULL,
        result JSON NOT NULL,
        created_at TIMESTAMP NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'ring history of moving events (the swath)',
    // A storm's rings follow its latest fix; exposure "so far" is the union of its wind rings over every fix
    // up to the clock (docs/portfolios.md "Now and so far"). Each version's wind rings, and a best track's
    // earlier fixes' rings, are kept by the time they were valid; a replay run backwards drops the later ones.
    sql: `
      CREATE TABLE ring_history (
        event_id UUID NOT NULL,
        valid_at TIMESTAMP NOT NULL,        -- the fix (or version) the ring was drawn for
        kind VARCHAR NOT NULL,
        label VARCHAR NOT NULL,
        threshold DOUBLE,
        unit VARCHAR,
        min_lng DOUBLE NOT NULL, min_lat DOUBLE NOT NULL, max_lng DOUBLE NOT NULL, max_lat DOUBLE NOT NULL,
        geojson VARCHAR NOT NULL,
        PRIMARY KEY (event_id, valid_at, kind, label)
      );
    `,
  },
  {
    version: 8,
    name: 'probability to trigger now',
    // Each evaluation round reads every live hurricane's forecast ensemble with each wind or pressure trigger
    // it can reach and keeps the share of members in which the trigger fires (src/triggers/fire-probability.ts);
    // the round replaces the last round's rows, so GET /triggers reads them without computing anything.
    sql: `
      CREATE TABLE trigger_fire_probability (
        trigger_id VARCHAR NOT NULL,
        event_id UUID NOT NULL,
        source_id VARCHAR NOT NULL,
        source_version VARCHAR NOT NULL,    -- the event record's content hash the ensemble was made from
        probability DOUBLE NOT NULL,        -- members_firing / members
        members INTEGER NOT NULL,
        members_firing INTEGER NOT NULL,
        advisory VARCHAR NOT NULL,          -- the advisory (or best track) the ensemble came from
        forecast VARCHAR NOT NULL,          -- nhc, persistence or none
        computed_at TIMESTAMP NOT NULL,
        PRIMARY KEY (trigger_id, event_id)
      );
    `,
  },
  {
    version: 9,
    name: 'product versions of hurricanes and earthquakes, and the portfolio losses pushed for them',
    // The events table keeps one version per event; a desk asks why its number moved between two advisories
    // (docs/event-diff.md): each ingest that changes a hurricane or an earthquake keeps what it then showed
    // (the row, its observations, its rings' summaries), numbered 1, 2, ... A replay run backwards drops the
    // versions stored after its clock, as it drops later observations.
    sql: `
      CREATE TABLE event_versions (
        event_id UUID NOT NULL,
        version INTEGER NOT NULL,           -- 1, 2, ... per event, in the order ingests stored them
        stored_at TIMESTAMP NOT NULL,       -- the ingest's clock
        product_version VARCHAR NOT NULL,   -- the source's own version words (NHC advisory 23, best track through ...)
        content_hash VARCHAR NOT NULL,      -- what the API showed of the event (event-versions.ts), to skip re-ingests
        event JSON NOT NULL,
        observations JSON NOT NULL,
        rings JSON NOT NULL,
        PRIMARY KEY (event_id, version)
      );
      CREATE TABLE portfolio_event_losses (
        portfolio_id VARCHAR NOT NULL,
        event_id UUID NOT NULL,
        version INTEGER NOT NULL,
        account VARCHAR NOT NULL,
        computed_at TIMESTAMP NOT NULL,
        body JSON NOT NULL,                 -- the GET /portfolio/event-loss answer for that version
        PRIMARY KEY (portfolio_id, event_id, version)
      );
    `,
  },
  {
    version: 10,
    name: 'ShakeMap PGA grids of earthquakes, for their live loss',
    // A ShakeMap grid.xml ingested with an earthquake holds its PGA and STDPGA node by node; the live loss
    // (docs/event-loss.md) runs on it instead of the model's own ground motion. Kept per ShakeMap version,
    // with the ingest's clock, so each stored version of the event runs on the grid it had then; a replay
    // run backwards drops the grids stored after its clock.
    sql: `
      CREATE TABLE shakemap_grids (
        event_id UUID NOT NULL,
        stored_at TIMESTAMP NOT NULL,       -- the ingest's clock
        shakemap_version VARCHAR,           -- the grid's shakemap_version
        processed_at VARCHAR,               -- the grid's process_timestamp
        source VARCHAR NOT NULL,            -- the file or URL it was read from
        nx INTEGER NOT NULL,
        ny INTEGER NOT NULL,
        lon_min DOUBLE NOT NULL,
        lat_max DOUBLE NOT NULL,
        dlon_deg DOUBLE NOT NULL,
        dlat_deg DOUBLE NOT NULL,
        pga_g VARCHAR NOT NULL,             -- base64 of the float64 values (little-endian), row 0 the northernmost
        sigma_ln VARCHAR NOT NULL,          -- the same for STDPGA
        event JSON,                         -- the grid's own event block (lat, lng, magnitude, depth) and id
        PRIMARY KEY (event_id, stored_at)
      );
    `,
  },
  {
    version: 11,
    name: "the box around a portfolio's locations on its row",
    // An exposure answer first asks whether any live ring meets the book (docs/big-books.md): with the box
    // on the portfolio row that is one row read, where it was a scan of the book's coordinates (seconds at
    // ten million locations). Written at import; the portfolios already stored get theirs from their
    // locations here. NULL for a portfolio without locations. (location_count was on the row already.)
    sql: `
      ALTER TABLE portfolios ADD COLUMN min_lng DOUBLE;
      ALTER TABLE portfolios ADD COLUMN min_lat DOUBLE;
      ALTER TABLE portfolios ADD COLUMN max_lng DOUBLE;
      ALTER TABLE portfolios ADD COLUMN max_lat DOUBLE;
      UPDATE portfolios SET min_lng = e.min_lng, min_lat = e.min_lat, max_lng = e.max_lng, max_lat = e.max_lat
        FROM (SELECT portfolio_id, min(lng) AS min_lng, min(lat) AS min_lat, max(lng) AS max_lng, max(lat) AS max_lat
                FROM portfolio_locations GROUP BY portfolio_id) e
       WHERE portfolios.id = e.portfolio_id;
    `,
  },
];
