#!/usr/bin/env bash
# make conformance-arrow: the Arrow and (Geo)Parquet outputs read by the tools a data scientist uses
# (docs/arrow.md), each compared with the JSON answer of the same request.
#
#  1. pyarrow, polars and geopandas (pinned below) in the project's .venv (gitignored, shared with the other
#     suites), installed when missing.
#  2. A seeded US portfolio of $ARROW_ROWS locations scored as json, arrow and parquet.
#     PiWind's ORD tables from `oasis run --ord-format parquet` and `--ord-format arrow`.
#  3. A temporary store with the real USGS day feed, the clock at the feed's time: `events live` and
#     `events nearby` (and `events rings` of an event that has rings) as --json, --format arrow and
#     --format geoparquet; then `catintel serve` on it and the same requests with
#     Accept: application/vnd.apache.arrow.stream.
#     The OGC API items of both collections (events, rings) over HTTP with Accept arrow.
#  3b. Portfolio answers: a book at the epicentre of that ringed event (`portfolio exposure`, and a saved
#     location there: `locations exposure`; the event's own `events exposure`), 25 homes in
#     Miami-Dade (`portfolio ep-curve`, through a hurricane model package built here, or ARROW_MODELS),
#     and 3 in Lee County against Ian's b-deck ingested at the feed's clock (`portfolio event-loss`),
#     as --json and --format arrow --out, then over HTTP with an agency key, JSON and Accept arrow.
#  4. scripts/conformance-arrow.py reads every file with pyarrow, polars and geopandas: row counts, column
#     names and types, and the values against the JSON (the ORD tables: against the Parquet run, as they
#     have no JSON); a failure names the output and the column.
#  5. GDAL opens the GeoParquet files with their geometry (ogrinfo), when its Parquet driver is there
#     (Debian's gdal-bin has none: the step says so and is skipped).
#
# Environment: SHARED_DATA (default ../shared/data), ARROW_ROWS (default 5000), ARROW_VENV (default .venv),
# ARROW_MODELS (a folder of model packages holding hurricane/; default: a 30-year package built into the
# temporary folder, about a minute), KEEP=1 keeps the outputs.
set -euo pipefail
cd "$(dirname "$0")/.."

PYARROW_VERSION=26.0.1
POLARS_VERSION=2.1.0
GEOPANDAS_VERSION=1.2.0
VENV=${ARROW_VENV:-.venv}
SHARED_DATA=${SHARED_DATA:-../shared/data}
FEED="$SHARED_DATA/feeds/usgs_earthquakes/all_day.geojson"
ROWS=${ARROW_ROWS:-5000}

log() { printf 'conformance-arrow: %s\n' "$*" >&2; }

# --- 1. tools -----------------------------------------------------------------------------------
if ! "$VENV/bin/python" -c "
import importlib.metadata as m, sys
want = {'pyarrow': '$PYARROW_VERSION', 'polars': '$POLARS_VERSION', 'geopandas': '$GEOPANDAS_VERSION'}
sys.exit(any(m.version(p) != v for p, v in want.items()))" 2>/dev/null; then
  log "installing pyarrow $PYARROW_VERSION, polars $POLARS_VERSION and geopandas $GEOPANDAS_VERSION into $VENV"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "pyarrow==$PYARROW_VERSION" "polars==$POLARS_VERSION" "geopandas==$GEOPANDAS_VERSION"
fi
[ -f dist/src/cli/main.js ] || npx tsc -p tsconfig.json

TMP=$(mktemp -d "${TMPDIR:-/tmp}/catintel-arrow.XXXXXX")
. scripts/lib/serve.sh
cleanup() {
  stop_server
  if [ "${KEEP:-}" = 1 ]; then log "outputs kept in $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
OUT="$TMP/out"
mkdir -p "$OUT/score" "$OUT/events"

# --- 2. bulk scores -----------------------------------------------------------------------------
log "scoring a seeded US portfolio of $ROWS locations as json, arrow and parquet"
node dist/scripts/make-us-portfolio.js --rows "$ROWS" --seed 20260101 --out "$TMP/us.csv" 2>/dev/null
for format in json arrow parquet; do
  ./bin/catintel --quiet score --input "$TMP/us.csv" --out "$TMP/score-$format" --format "$format" >/dev/null
  cp "$TMP/score-$format"/scores.* "$OUT/score/"
done

# --- 2b. ORD tables of `oasis run` on PiWind: Arrow against the Parquet run ---------------------
log "oasis run on PiWind as parquet and arrow"
PIWIND="$SHARED_DATA/oasis_piwind"
mkdir -p "$OUT/ord"
for format in parquet arrow; do
  ./bin/catintel --quiet oasis run --model "$PIWIND/model_data" --input "$PIWIND/expected_all_outputs/input" \
    --out "$TMP/ord-$format" --settings "$PIWIND/expected_all_outputs/output/analysis_settings.json" --ord-format "$format" >/dev/null
  cp "$TMP/ord-$format"/*."$format" "$OUT/ord/"
done

# --- 3. events: CLI files, then HTTP content negotiation ------------------------------------------
DB="$TMP/events.duckdb"
./bin/catintel --db "$DB" --quiet ingest usgs-earthquakes --from "$FEED" >/dev/null
NOW=$(node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(new Date(d.metadata.generated).toISOString().replace(/\.\d+Z$/, "Z"))' "$FEED")
# The nearest event to the feed's first one is that event: the nearby page is never empty.
read -r LNG LAT < <(node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(...d.features[0].geometry.coordinates.slice(0, 2))' "$FEED")
events() { CATINTEL_NOW="$NOW" ./bin/catintel --db "$DB" --quiet "$@"; }
LIVE=(events live --limit 1000)
NEARBY=(events nearby --lat "$LAT" --lng "$LNG" --radius-km 2000 --limit 200)
log "events live and nearby at $NOW as json, arrow and geoparquet"
events --json "${LIVE[@]}" >"$OUT/events/live.json"
events "${LIVE[@]}" --format arrow --out "$OUT/events/live.arrow" >/dev/null
events "${LIVE[@]}" --format geoparquet --out "$OUT/events/live.parquet" >/dev/null
# The rings of the first live event that has any (polygons).
RINGED=$(jq -r '.features[].id' "$OUT/events/live.json" | while read -r id; do
  [ "$(events --json events rings "$id" | jq '.features | length')" -gt 0 ] && { echo "$id"; break; }
done)
if [ -n "$RINGED" ]; then
  events --json events rings "$RINGED" >"$OUT/events/rings.json"
  events events rings "$RINGED" --format arrow --out "$OUT/events/rings.arrow" >/dev/null
  events events rings "$RINGED" --format geoparquet --out "$OUT/events/rings.parquet" >/dev/null
else
  log "no live event of the feed has rings: the ring outputs are not checked"
fi
events --json "${NEARBY[@]}" >"$OUT/events/nearby.json"
events "${NEARBY[@]}" --format arrow --out "$OUT/events/nearby.arrow" >/dev/null
events "${NEARBY[@]}" --format geoparquet --out "$OUT/events/nearby.parquet" >/dev/null

# --- 3b. portfolio exposure and the EP curve: CLI files ------------------------------------------
mkdir -p "$OUT/tables"
if [ -n "${ARROW_MODELS:-}" ]; then
  MODELS=$ARROW_MODELS
else
  MODELS="$TMP/models"
  log "building a 30-year hurricane model package for the EP curve"
  ./bin/catintel --quiet model build hurricane --years 30 --out "$MODELS/hurricane" >/dev/null
fi
export CATINTEL_MODELS=$MODELS
MIAMI="$TMP/miami.csv"
{
  echo 'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency'
  for i in 0 1 2 3 4; do for j in 0 1 2 3 4; do
    printf '1,MD,H%d,%s,%s,US,1050,5100,WTC,500000,0,0,USD\n' $((i * 5 + j + 1)) \
      "$(awk -v i=$i 'BEGIN { printf "%.4f", 25.6 + i * 0.07 }')" "$(awk -v j=$j 'BEGIN { printf "%.4f", -80.44 + j * 0.048 }')"
  done; done
} >"$MIAMI"
portfolio_id() { events --json portfolio import "$1" --name "$2" | jq -r .id; }
MIAMI_ID=$(portfolio_id "$MIAMI" miami)
log "portfolio ep-curve as json and arrow"
events --json portfolio ep-curve "$MIAMI_ID" --samples 2 >"$OUT/tables/ep-curve.json"
events portfolio ep-curve "$MIAMI_ID" --samples 2 --format arrow --out "$OUT/tables/ep-curve.arrow" >/dev/null
if [ -n "$RINGED" ]; then
  read -r QLNG QLAT < <(jq -r --arg id "$RINGED" '.features[] | select(.id == $id) | .geometry.coordinates | "\(.[0]) \(.[1])"' "$OUT/events/live.json")
  BOOK="$TMP/quake-book.csv"
  printf 'LocNumber,Latitude,Longitude,BuildingTIV,ContentsTIV,LocPerilsCovered\nQ-1,%s,%s,1500000,250000,QQ1\nQ-2,%s,%s,800000.25,0,QQ1\nFAR-1,25.77,-80.19,900000,0,QQ1\n' \
    "$QLAT" "$QLNG" "$QLAT" "$(awk -v x="$QLNG" 'BEGIN { printf "%.4f", x + 0.01 }')" >"$BOOK"
  BOOK_ID=$(portfolio_id "$BOOK" quakes)
  log "portfolio exposure as json and arrow"
  events --json portfolio exposure "$BOOK_ID" >"$OUT/tables/exposure.json"
  events portfolio exposure "$BOOK_ID" --format arrow --out "$OUT/tables/exposure.arrow" >/dev/null
  log "saved locations' exposure as json and arrow"
  events --quiet locations add --name plant --lat "$QLAT" --lng "$QLNG" >/dev/null
  events --json locations exposure >"$OUT/tables/locations-exposure.json"
  events locations exposure --format arrow --out "$OUT/tables/locations-exposure.arrow" >/dev/null
  log "the event's exposure as json and arrow"
  events --json events exposure "$RINGED" >"$OUT/tables/event-exposure.json"
  events events exposure "$RINGED" --format arrow --out "$OUT/tables/event-exposure.arrow" >/dev/null
fi
# A portfolio's loss from a live event: Ian's b-deck at the feed's clock (the storm inland over Florida), a
# Lee County book through the hurricane package.
events ingest nhc --from "$SHARED_DATA/hazard_history/hurricanes/bal092022.dat" >/dev/null
LEE="$TMP/lee.csv"
{
  echo 'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,BITIV,LocCurrency'
  echo '1,LEE,CC1,26.5629,-81.9495,US,1050,5100,WTC;WSS,400000,100000,0,USD'
  echo '1,LEE,FM1,26.6406,-81.8723,US,1050,5100,WTC;WSS,400000,100000,0,USD'
  echo '1,LEE,BON,26.3398,-81.7787,US,1050,5100,WTC;WSS,400000,100000,0,USD'
} >"$LEE"
LEE_ID=$(portfolio_id "$LEE" lee)
LOSS=(portfolio event-loss "$LEE_ID" --event al092022 --members 3 --samples 2)
log "portfolio event-loss (Ian) as json and arrow"
events --json "${LOSS[@]}" >"$OUT/tables/event-loss.json"
events "${LOSS[@]}" --format arrow --out "$OUT/tables/event-loss.arrow" >/dev/null

start_server "$DB" "$NOW" --rate-limit off
log "HTTP at $BASE: Accept: application/vnd.apache.arrow.stream"
for q in "live-http:events/live?limit=1000" "nearby-http:events/nearby?lat=$LAT&lng=$LNG&radius_km=2000&limit=200" \
  "ogc-events-http:collections/events/items?limit=500" "ogc-rings-http:collections/rings/items?limit=200"; do
  name=${q%%:*}
  path=${q#*:}
  curl -sf "$BASE/api/v1/$path" >"$OUT/events/$name.json"
  type=$(curl -sf -H 'Accept: application/vnd.apache.arrow.stream' -o "$OUT/events/$name.stream" -w '%{content_type}' "$BASE/api/v1/$path")
  if [ "$type" != application/vnd.apache.arrow.stream ]; then
    log "FAIL $name: Content-Type \"$type\" for Accept: application/vnd.apache.arrow.stream"
    exit 1
  fi
done
if [ -n "$RINGED" ]; then
  curl -sf "$BASE/api/v1/events/$RINGED/rings" >"$OUT/events/rings-http.json"
  curl -sf -H 'Accept: application/vnd.apache.arrow.stream' "$BASE/api/v1/events/$RINGED/rings" >"$OUT/events/rings-http.stream"
fi
# The portfolio answers over HTTP: the books uploaded with an agency key (the CLI hands `keys create` to the server).
KEY=$(events --json keys create --tier agency --name conformance-arrow | jq -r .key)
post_book() { # FILE NAME: the OED CSV uploaded as a portfolio; prints its id
  curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: text/csv' --data-binary @"$1" \
    "$BASE/api/v1/portfolio?name=$2" | jq -r .id
}
http_table() { # NAME PATH [KEY]: the JSON answer and the Arrow stream of the same request
  local key=${3:-$KEY}
  curl -sf -H "Authorization: Bearer $key" "$BASE/api/v1/$2" >"$OUT/tables/$1.json"
  type=$(curl -sf -H "Authorization: Bearer $key" -H 'Accept: application/vnd.apache.arrow.stream' \
    -o "$OUT/tables/$1.stream" -w '%{content_type}' "$BASE/api/v1/$2")
  if [ "$type" != application/vnd.apache.arrow.stream ]; then
    log "FAIL $1: Content-Type \"$type\" for Accept: application/vnd.apache.arrow.stream"
    exit 1
  fi
}
log "HTTP: portfolio ep-curve and exposure with Accept: application/vnd.apache.arrow.stream"
http_table ep-curve-http "portfolio/ep-curve?portfolio_id=$(post_book "$MIAMI" miami)&samples=2"
if [ -n "$RINGED" ]; then
  http_table exposure-http "portfolio/exposure?portfolio_id=$(post_book "$BOOK" quakes)"
  curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
    --data "{\"name\":\"plant\",\"lat\":$QLAT,\"lng\":$QLNG}" "$BASE/api/v1/locations" >/dev/null
  http_table locations-exposure-http "locations/exposure"
  # An event's exposure is the analyst tier's (an agency key is refused): its own key, whose account has no book.
  http_table event-exposure-http "events/$RINGED/exposure" \
    "$(events --json keys create --tier analyst --name conformance-arrow-analyst | jq -r .key)"
fi
http_table event-loss-http "portfolio/event-loss?portfolio_id=$(post_book "$LEE" lee)&event_id=al092022&members=3&samples=2"
stop_server

# --- 4. the readers -----------------------------------------------------------------------------
"$VENV/bin/python" scripts/conformance-arrow.py "$OUT"

# --- 5. GDAL ------------------------------------------------------------------------------------
if command -v ogrinfo >/dev/null && ogrinfo --formats 2>/dev/null | grep -q '^ *Parquet'; then
  for f in "$OUT"/events/*.parquet; do
    n=$(jq -r '.features | length' "${f%.parquet}.json")
    info=$(ogrinfo -ro -so -al "$f")
    if ! grep -q "Feature Count: $n\$" <<<"$info" || ! grep -Eq 'Geometry: (Point|Polygon|Multi Polygon)' <<<"$info"; then
      log "FAIL ogrinfo $(basename "$f"): want $n features with their geometry, got:"
      printf '%s\n' "$info" >&2
      exit 1
    fi
  done
  log "ogrinfo opened the GeoParquet files with their geometry"
else
  log "ogrinfo has no Parquet driver here (GDAL 3.8+ built with Arrow); GeoParquet checked with pyarrow and geopandas only"
fi
log "ok"
