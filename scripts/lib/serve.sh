# `catintel serve` for the conformance scripts: sourced, not run. Expects TMP (a temporary directory) and
# log(); the caller's EXIT trap calls stop_server and removes TMP.

SERVER_PID=

# start_server DB NOW [serve options...]: `catintel serve` on DB with the event clock at NOW, on a free port
# of 127.0.0.1; waits until it listens and sets SERVER_PID and BASE (http://host:port, without /api/v1).
start_server() {
  local db=$1 now=$2
  shift 2
  CATINTEL_NOW="$now" ./bin/catintel --db "$db" serve --host 127.0.0.1 --port 0 "$@" >"$TMP/serve.out" 2>"$TMP/serve.err" &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    grep -q 'serving' "$TMP/serve.out" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$TMP/serve.err" >&2; log "the server did not start"; exit 1; }
    sleep 0.1
  done
  BASE=$(sed -n 's/.* at \(http[^ ]*\)\/api\/v1 .*/\1/p' "$TMP/serve.out")
  [ -n "$BASE" ] || { cat "$TMP/serve.out" "$TMP/serve.err" >&2; log "no server address"; exit 1; }
}

# stop_server: SIGTERM, and wait for it to finish its shutdown (no-op when none runs).
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=
}
