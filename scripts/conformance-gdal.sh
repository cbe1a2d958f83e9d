#!/usr/bin/env bash
# make conformance-api, first part: GIS clients open the OGC API - Features service (issue 8 item 6).
#
#  1. GDAL's ogrinfo/ogr2ogr (Debian package gdal-bin; its OAPIF driver is the reader QGIS uses), installed
#     with apt-get when missing (CI runs as root on a fresh machine; `apt-get update` only if the install
#     fails without it).
#  2. `catintel serve` on a temporary store loaded with the embedded default (`catintel db seed`, the clock at
#     the snapshot's instant, data/seed/as-of.txt), on a free loopback port.
#  3. `ogrinfo -ro -so OAPIF:<base>/api/v1` must list the collections `events` and `rings`.
#  4. Every feature of each collection is read through GDAL (ogr2ogr to GeoJSON, following the next links):
#     events must be as many as /events/live's numberMatched, with the same ids; rings as many as the
#     contract path /events/{id}/rings gives over those events. ogrinfo's Feature Count must agree too.
# Any mismatch fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'conformance-gdal: %s\n' "$*" >&2; }

# --- 1. GDAL --------------------------------------------------------------------------------------
if ! command -v ogrinfo >/dev/null || ! command -v ogr2ogr >/dev/null; then
  SUDO=
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  log "installing gdal-bin (apt-get)"
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends gdal-bin >/dev/null; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get update >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends gdal-bin >/dev/null
  fi
fi
log "$(ogrinfo --version)"

# --- 2. a server on the embedded default --------------------------------------------------------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/catintel-gdal.XXXXXX")
. scripts/lib/serve.sh
cleanup() {
  stop_server
  rm -rf "$TMP"
}
trap cleanup EXIT

DB="$TMP/seed.duckdb"
NOW=$(cat data/seed/as-of.txt)
CATINTEL_NOW="$NOW" ./bin/catintel --db "$DB" --quiet db seed >/dev/null
start_server "$DB" "$NOW" --rate-limit 100
SERVICE="OAPIF:$BASE/api/v1"
log "server at $BASE (embedded default, clock $NOW)"

# --- 3. the collections -------------------------------------------------------------------------
ogrinfo -ro -so "$SERVICE" >"$TMP/layers.txt" 2>"$TMP/ogrinfo.err" || { cat "$TMP/ogrinfo.err" >&2; log "ogrinfo could not open $SERVICE"; exit 1; }
for layer in events rings; do
  grep -Eq "^[0-9]+: $layer( |$)" "$TMP/layers.txt" || { cat "$TMP/layers.txt" "$TMP/ogrinfo.err" >&2; log "ogrinfo does not list the collection $layer"; exit 1; }
done
log "ogrinfo lists: $(sed -n 's/^[0-9]*: \([a-z]*\).*/\1/p' "$TMP/layers.txt" | paste -sd ' ')"

# --- 4. every feature ---------------------------------------------------------------------------
FAILED=0
for layer in events rings; do
  # GDAL warnings (a failed page, a bad link) go to stderr: any ERROR fails the run.
  ogr2ogr -f GeoJSON "$TMP/$layer.geojson" "$SERVICE" "$layer" 2>"$TMP/$layer.err" || true
  if grep -q 'ERROR' "$TMP/$layer.err"; then cat "$TMP/$layer.err" >&2; log "GDAL failed reading $layer"; FAILED=1; fi
  ogrinfo -ro -so "$SERVICE" "$layer" 2>/dev/null | sed -n 's/^Feature Count: //p' >"$TMP/$layer.count"
done
node scripts/conformance-gdal-compare.mjs "$BASE" "$TMP" || FAILED=1
[ "$FAILED" -eq 0 ] || { log "GDAL does not read what the contract paths serve"; exit 1; }
log "ok"
