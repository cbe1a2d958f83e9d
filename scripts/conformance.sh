#!/usr/bin/env bash
# make conformance: checks the HTTP API against its contract (openapi.yaml) with outside tools.
#
#  1. A Python virtual environment (.venv, gitignored) with pinned schemathesis and openapi-spec-validator.
#  2. openapi-spec-validator validates openapi.yaml (OpenAPI 3.0.3).
#  3. `catintel serve` starts on a temporary store seeded with the real USGS day feed, on a free
#     loopback port, with the event clock pinned to the feed's time (so its events are live) and the
#     rate limits raised for the run (the fuzzer sends thousands of requests a minute).
#  4. schemathesis runs every check (conformance of status codes, content types, headers and bodies;
#     negative data rejected, positive data accepted, auth enforced, 405 with Allow, ...) over the
#     examples, coverage, fuzzing and stateful phases against /api/v1/openapi.json, once per caller:
#     anonymous (free), an agency, an analyst and an enterprise API key, and the run's admin token
#     (the only caller of /admin/*). What the document allows must be accepted whoever calls.
#  5. the server restarts with `--rate-limit off` and one more run (enterprise key) checks that the
#     X-RateLimit-* headers the document requires are still sent. Any failure of any run fails the script.
#
# Operations marked `x-catintel-status: planned` answer 501 by design and are left out of the fuzz
# run; the vitest access matrix (test/platform) covers their authentication and tier checks.
# GET /events/stream never ends on its own: schemathesis reads its first message (`stream.open`, or
# `reset` after a Last-Event-ID it cannot resume) and closes it (max-stream-events = 1).
#
# Environment: SHARED_DATA (default ../shared/data), CONFORMANCE_RUNS (default "free agency analyst
# enterprise admin off"), CONFORMANCE_MAX_EXAMPLES (every run's examples per operation; default: each
# run's own, below), CONFORMANCE_INCLUDE_PATH (only the operations of that path, e.g. /hazard/curve, to
# check one endpoint), CONFORMANCE_SEED (default 20260101), CONFORMANCE_WORKERS
# (default 1: with two, hypothesis's lambda naming calls CPython 3.11's ast.parse from both threads, which
# is not thread-safe and aborts operations as schemathesis "Runtime Error"s that are no API failure).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
SPEC_VALIDATOR_VERSION=0.9.0
VENV=.venv
SHARED_DATA=${SHARED_DATA:-../shared/data}
FEED="$SHARED_DATA/feeds/usgs_earthquakes/all_day.geojson"
RUNS=${CONFORMANCE_RUNS:-free agency analyst enterprise admin off}
SEED=${CONFORMANCE_SEED:-20260101}
WORKERS=${CONFORMANCE_WORKERS:-1}
INCLUDE=()
PHASES=examples,coverage,fuzzing,stateful
# One path has no links to follow: the stateful phase needs the operations the links join.
[ -n "${CONFORMANCE_INCLUDE_PATH:-}" ] && INCLUDE=(--include-path "$CONFORMANCE_INCLUDE_PATH") && PHASES=examples,coverage,fuzzing

log() { printf 'conformance: %s\n' "$*" >&2; }

# --- 1. tools -----------------------------------------------------------------------------------
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "version $SCHEMATHESIS_VERSION" \
  || ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('openapi-spec-validator') != '$SPEC_VALIDATOR_VERSION')" 2>/dev/null; then
  log "installing schemathesis $SCHEMATHESIS_VERSION and openapi-spec-validator $SPEC_VALIDATOR_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "schemathesis==$SCHEMATHESIS_VERSION" "openapi-spec-validator==$SPEC_VALIDATOR_VERSION"
fi

# --- 2. the document ----------------------------------------------------------------------------
log "validating openapi.yaml"
"$VENV/bin/openapi-spec-validator" openapi.yaml

# --- 3. a server on a seeded temporary store ----------------------------------------------------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/catintel-conformance.XXXXXX")
. scripts/lib/serve.sh
cleanup() {
  stop_server
  rm -rf "$TMP"
}
trap cleanup EXIT

DB="$TMP/conformance.duckdb"
log "seeding $DB from $FEED"
./bin/catintel --db "$DB" --quiet ingest usgs-earthquakes --from "$FEED" >/dev/null
# The feed's own generation time: with the event clock there, its earthquakes are live.
NOW=$(node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(new Date(d.metadata.generated).toISOString().replace(/\.\d+Z$/, "Z"))' "$FEED")

# A new API key of a tier for each run: the admin run's stateful phase may revoke any key it lists, so a
# key is never shared between runs. Made through the CLI, which hands the command to the running server.
key_of() {
  ./bin/catintel --db "$DB" --quiet keys create --tier "$1" --name "conformance $1" --json \
    | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).key))'
}

export CATINTEL_JWT_SECRET
CATINTEL_JWT_SECRET=$(node -e 'console.log(require("crypto").randomBytes(48).toString("base64"))')

# serve_with_rate_limit RATE_LIMIT: `catintel serve` on the store with that --rate-limit; sets SERVER_PID, BASE, ADMIN_TOKEN.
serve_with_rate_limit() {
  start_server "$DB" "$NOW" --rate-limit "$1" --access-log "$TMP/access.ndjson"
  ADMIN_TOKEN=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).admin_token)' "$DB.serve.json")
  log "server at $BASE (event clock $NOW, --rate-limit $1)"
}

# --- 4. schemathesis ----------------------------------------------------------------------------
# Rules OpenAPI cannot state are taught to the generator by hooks, not waived: a bbox's minLat must not
# exceed its maxLat; a datetime interval must not start after it ends; an OGC items cursor is one this
# server issued for that collection (events page by key, rings by offset; a client follows links.next).
# Values the document forbids are left alone, so negative testing of these parameters still runs.
cat >"$TMP/hooks.py" <<'PY'
import base64
import json
import re
import threading

import schemathesis
from hypothesis.internal import lambda_sources

# CPython 3.11 (up to 3.11.7 at least) can fail `ast.parse` when two threads parse at once ("SystemError: AST
# constructor recursion depth mismatch"): hypothesis parses its own source to name lambdas, and with two
# workers that aborted whole operations as schemathesis "Runtime Error"s, not API failures. One parse at a
# time; the checks are unchanged.
_describe = lambda_sources.lambda_description
_parse_lock = threading.RLock()


def _lambda_description(f):
    with _parse_lock:
        return _describe(f)


lambda_sources.lambda_description = _lambda_description

BBOX = re.compile(r"^(-?[0-9.]+),(-?[0-9.]+),(-?[0-9.]+),(-?[0-9.]+)$")
INSTANT = re.compile(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|([+-])([0-9]{2}):([0-9]{2}))$")
CURSOR = re.compile(r"^[A-Za-z0-9_-]{1,512}$")


def days_from_civil(y, m, d):
    # Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant); day overflow rolls over as in JS.
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def seconds(s):
    m = INSTANT.match(s)
    if not m:
        return None
    y, mo, d, h, mi, sec = (int(m.group(i)) for i in range(1, 7))
    t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec + float(m.group(7) or 0)
    if m.group(9):
        t -= (1 if m.group(9) == "+" else -1) * (int(m.group(10)) * 3600 + int(m.group(11)) * 60)
    return t


@schemathesis.hook
def map_query(ctx, query):
    if not query:
        return query
    bbox = query.get("bbox")
    if isinstance(bbox, str):
        m = BBOX.match(bbox)
        if m and float(m.group(2)) > float(m.group(4)):
            query["bbox"] = ",".join([m.group(1), m.group(4), m.group(3), m.group(2)])
    dt = query.get("datetime")
    if isinstance(dt, str) and dt.count("/") == 1:
        start, end = dt.split("/")
        a, b = seconds(start), seconds(end)
        if a is not None and b is not None and a > b:
            query["datetime"] = end + "/" + start
    return query


def b64(value):
    return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).decode().rstrip("=")


ITEMS_CURSOR = {
    "events": b64({"t": "1664422329000000", "id": "00000000-0000-4000-8000-000000000000"}),
    "rings": b64({"o": 1}),
}


# A trigger history cursor is (evaluated_at, entry id) of the last entry of a page this server sent.
HISTORY_CURSOR = b64({"at": "2022-09-29T03:32:09Z", "id": "00000000-0000-4000-8000-000000000000"})


@schemathesis.hook
def map_case(ctx, case):
    if case.operation.path == "/triggers/{id}/history" and case.query:
        cursor = case.query.get("cursor")
        if isinstance(cursor, str) and CURSOR.match(cursor):
            case.query["cursor"] = HISTORY_CURSOR
        return case
    if case.operation.path != "/collections/{collectionId}/items" or not case.query:
        return case
    cursor = case.query.get("cursor")
    collection = (case.path_parameters or {}).get("collectionId")
    if isinstance(cursor, str) and CURSOR.match(cursor) and collection in ITEMS_CURSOR:
        case.query["cursor"] = ITEMS_CURSOR[collection]
    return case
PY

b64url() { node -e 'console.log(Buffer.from(process.argv[1]).toString("base64url"))' "$1"; }
LIVE_CURSOR=$(b64url '{"t":"1664422329000000","id":"00000000-0000-4000-8000-000000000000"}')
PORTFOLIO_CURSOR=$(b64url '{"at":"2022-09-29T03:32:09Z","id":"00000000-0000-4000-8000-000000000000"}')
LOCATIONS_CURSOR=$(b64url '{"seq":0}')
NEARBY_CURSOR=$(b64url '{"o":1}')
cat >"$TMP/schemathesis.toml" <<TOML
hooks = "$TMP/hooks.py"
seed = $SEED
workers = $WORKERS
request-timeout = 20.0

[phases.stateful]
max-steps = 30

# A stream that never ends: its first message shows its shape (stream.open, or reset then the snapshot).
[[operations]]
include-path = "/events/stream"
max-stream-events = 1

# Cursors are opaque: the fuzzer pages with one this server issues, as a client following links.next.
[[operations]]
include-path = "/events/live"
parameters = { "query.cursor" = "$LIVE_CURSOR" }

[[operations]]
include-path = "/events/nearby"
parameters = { "query.cursor" = "$NEARBY_CURSOR" }

[[operations]]
include-path = "/infrastructure"
parameters = { "query.cursor" = "$NEARBY_CURSOR" }

# Scores exist only for points on or near US land (docs/contract.md#scores): any other well-formed point is
# answered 422, as documented. Geography is not something a schema can say.
[[operations]]
include-path = "/risk/score"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422", "429"]

# A backtest replays catalogs the trigger's threshold type has (wind, pressure, magnitude) over complete
# years: a surge, gauge or industry-loss trigger, or a since year after the last complete year, is a
# well-formed request the data cannot answer, answered 422 as documented.
[[operations]]
include-path = "/triggers/{id}/backtest"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422", "429"]

# Basis risk runs over a model package's catalog (docs/basis-risk.md): a surge, gauge or industry-loss trigger
# has no catalog value event by event (422, as documented), the package may not be built (503 naming the build
# command), and a loss_return_period beyond the package's years is 400 naming the command that builds a longer one.
[[operations]]
include-path = "/triggers/{id}/basis-risk"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "422", "429", "503"]

# An EP curve is of a stored portfolio of the caller's account: a well-formed id of no portfolio is 404.
# It runs on a model package the server may not have built (503 naming the build command), and `years`
# beyond the package's is 400 naming the command that builds a longer one (docs/ep-curves.md).
[[operations]]
include-path = "/portfolio/ep-curve"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "429", "503"]

# Portfolios (docs/portfolios.md): pages follow cursors this server issues; a well-formed id of no portfolio
# of the caller is 404. A body the schema accepts may still hold rows OED refuses (an unknown peril code in
# LocPerilsCovered, two currencies): 422 naming each bad row; a CSV upload without ?name= is 400.
[[operations]]
include-path = "/portfolio"
parameters = { "query.cursor" = "$PORTFOLIO_CURSOR" }
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "422", "429"]

[[operations]]
include-path = "/portfolio/{id}"
parameters = { "query.cursor" = "$LOCATIONS_CURSOR" }
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "429"]

[[operations]]
include-path = "/portfolio/exposure"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "429"]

# Saved locations: at most 100 per owner (the fuzzer's one address fills them: 422 after that, as
# documented); removing a well-formed id the caller does not own is 404.
[[operations]]
include-path = "/locations"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "422", "429"]

[[operations]]
include-path = "/locations/{id}"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "404", "429"]

# Hazard curves exist only where the model is (docs/endpoints.md): a well-formed point outside the US or
# outside the model's domain, or an imt given with hurricane_wind, is answered 422 with the reason.
[[operations]]
include-path = "/hazard/curve"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "422", "429"]

# The same holds for an event whose location is outside that area (a mid-Atlantic quake, say).
[[operations]]
include-path = "/events/{id}/score"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422", "429"]

# A scenario body the schema accepts may still not fit its event type (a magnitude on a hurricane, a gauge
# without NWS flood stages): answered 422 naming the fields, as documented.
[[operations]]
include-path = "/scenarios/run"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422", "429"]
TOML

# run_schemathesis NAME MAX_EXAMPLES [HEADER]: one run against the current server, as that caller.
FAILED=
run_schemathesis() {
  local name=$1 examples=${CONFORMANCE_MAX_EXAMPLES:-$2} auth=()
  [ -n "${3:-}" ] && auth=(-H "$3")
  log "schemathesis $SCHEMATHESIS_VERSION as $name ($examples examples an operation) against $BASE/api/v1/openapi.json"
  local started=$SECONDS status
  set +e
  "$VENV/bin/schemathesis" --config-file "$TMP/schemathesis.toml" run "$BASE/api/v1/openapi.json" \
    --url "$BASE/api/v1" \
    --checks all \
    --phases "$PHASES" \
    --mode all \
    --max-examples "$examples" \
    --exclude-by '/x-catintel-status == "planned"' \
    "${INCLUDE[@]}" \
    "${auth[@]}" \
    --report junit --report-dir "$TMP/report-$name" \
    --suppress-health-check too_slow
  status=$?
  set -e
  log "run $name: exit $status in $((SECONDS - started)) s"
  if [ "$status" -ne 0 ]; then
    log "schemathesis reported failures as $name (exit $status); server log tail:"
    tail -n 20 "$TMP/serve.err" >&2 || true
    FAILED="$FAILED $name"
  fi
}

# Examples per operation: the anonymous and enterprise runs reach the most (every public operation, every
# paid one and every format); the middle tiers add their own answers (403 above them, trigger limits).
serve_with_rate_limit 1000
for run in $RUNS; do
  case $run in
    free) run_schemathesis free 40 ;;
    agency | analyst) run_schemathesis "$run" 20 "Authorization: Bearer $(key_of "$run")" ;;
    enterprise) run_schemathesis enterprise 60 "Authorization: Bearer $(key_of enterprise)" ;;
    admin) run_schemathesis admin 20 "Authorization: Bearer $ADMIN_TOKEN" ;;
    off) ;;
    *) log "unknown run \"$run\" in CONFORMANCE_RUNS (free agency analyst enterprise admin off)"; exit 2 ;;
  esac
done
stop_server

# With the limiter off (load tests) every response still carries the X-RateLimit-* headers (docs/api.md).
if [[ " $RUNS " == *" off "* ]]; then
  serve_with_rate_limit off
  run_schemathesis rate-limit-off 15 "Authorization: Bearer $(key_of enterprise)"
  stop_server
fi

log "requests served: $(wc -l <"$TMP/access.ndjson")"
if [ -n "$FAILED" ]; then
  log "failures in:$FAILED"
  exit 1
fi
log "ok"
