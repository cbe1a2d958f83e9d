#!/usr/bin/env bash
# Oasis LMF conformance of `catintel score --format oasis` (docs/scoring.md "Oasis LMF export"):
#
#  1. A Python virtual environment (.venv, gitignored, shared with scripts/conformance.sh) with ods-tools
#     pinned (ODS_TOOLS_VERSION); ods-tools 5.x validates against OED 5.0.0.
#  2. `catintel score --format oasis` writes location.csv, keys.csv and keys-errors.csv for
#       - the PiWind OED location file (12,598 GB locations, all outside our US coverage: every location
#         must be in keys-errors.csv and none in keys.csv; the run exits 2, nothing scored, but writes the
#         files, which must be valid all the same), and
#       - a seeded synthetic US portfolio (scripts/make-us-portfolio.ts), and
#       - a plain latitude/longitude CSV that is not OED (columns mapped to FlexiLoc*, required fields added),
#     and `catintel score point --format oasis` (the body of GET /risk/score?format=oasis) for one point.
#  3. Each location.csv is validated with the ods-tools Python API, OedExposure(location=..., check_oed=True),
#     with every check raising (`ods_tools check` logs validation errors but exits 0, so it is not used).
#     The keys files are checked too: exact headers, and LocIDs recomputed the way oasislmf does
#     (oasislmf.utils.data.get_ids: sort by PortNumber, AccNumber, LocNumber as strings, number from 1)
#     must point at scored rows (keys.csv) and unscored rows (keys-errors.csv).
# Any failure exits non-zero.
#
# Environment: SHARED_DATA (default ../shared/data), OASIS_US_ROWS (default 2000).
set -euo pipefail
cd "$(dirname "$0")/.."

ODS_TOOLS_VERSION=5.0.9
VENV=.venv
SHARED_DATA=${SHARED_DATA:-../shared/data}
US_ROWS=${OASIS_US_ROWS:-2000}
PIWIND="$SHARED_DATA/oasis_piwind/exposure/SourceLocOEDPiWind.csv"

log() { printf 'conformance-oasis: %s\n' "$*" >&2; }

# --- 1. tools -----------------------------------------------------------------------------------
if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('ods-tools') != '$ODS_TOOLS_VERSION')" 2>/dev/null; then
  log "installing ods-tools $ODS_TOOLS_VERSION into $VENV"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "ods-tools==$ODS_TOOLS_VERSION"
fi
[ -f dist/src/cli/main.js ] || npx tsc -p tsconfig.json

TMP=$(mktemp -d "${TMPDIR:-/tmp}/catintel-oasis.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# --- 2. outputs ---------------------------------------------------------------------------------
log "scoring $PIWIND"
# Nothing in PiWind is in coverage: the run writes its files, then exits 2 with the reason (problem object on
# stderr with --json). Any other outcome is a failure.
piwind_code=0
./bin/catintel --quiet --json score --input "$PIWIND" --out "$TMP/piwind" --format oasis >"$TMP/piwind.out" 2>"$TMP/piwind.json" || piwind_code=$?
if [ "$piwind_code" != 2 ] || ! grep -q '"code":"invalid_input"' "$TMP/piwind.json"; then
  log "FAIL scoring PiWind: expected exit 2 (nothing scored), got $piwind_code: $(cat "$TMP/piwind.json")"
  exit 1
fi
log "scoring a seeded US portfolio of $US_ROWS locations"
node dist/scripts/make-us-portfolio.js --rows "$US_ROWS" --seed 20260101 --out "$TMP/us.csv" 2>/dev/null
./bin/catintel --quiet --json score --input "$TMP/us.csv" --out "$TMP/us" --format oasis --scenario ssp245 --horizon 2050 >"$TMP/us.json"
# A plain CSV (not OED): its columns become FlexiLoc*, the required OED fields are added, territories get
# their own country codes, the offshore point and the bad row stay out of location.csv, and an inch mark in an
# unquoted field is a literal quote (written quoted, so pandas reads it back the same).
cat >"$TMP/sites.csv" <<'CSV'
site_id,name,lat,lng,notes
A-1,Miami office,25.77,-80.19,"coastal, high-rise"
A-2,San Juan depot,18.47,-66.1,12" drain
A-3,Guam hangar,13.47,144.75,
A-4,Mid-Atlantic buoy,35,-40,offshore
A-5,Bad row,north,-80,
CSV
log "scoring a plain latitude/longitude CSV"
./bin/catintel --quiet --json score --input "$TMP/sites.csv" --out "$TMP/sites" --format oasis >"$TMP/sites.json"
# One point, format=oasis (the /risk/score body): its location row must be valid OED too.
./bin/catintel --json score point --lat 18.47 --lng -66.1 --format oasis --scenario ssp585 --horizon 2080 >"$TMP/point.json"

# --- 3. validation ------------------------------------------------------------------------------
cat >"$TMP/check.py" <<'PY'
import json
import sys

import pandas as pd
from ods_tools.oed import OedExposure
from ods_tools.oed.oed_schema import OED_VERSION

RAISE_ALL = [
    {'name': 'required_fields', 'on_error': 'raise'},
    {'name': 'unknown_column', 'on_error': 'raise'},
    {'name': 'valid_values', 'on_error': 'raise'},
    {'name': 'perils', 'on_error': 'raise'},
    {'name': 'occupancy_code', 'on_error': 'raise'},
    {'name': 'construction_code', 'on_error': 'raise'},
    {'name': 'country_and_area_code', 'on_error': 'raise'},
    {'name': 'conditional_requirement', 'on_error': 'raise'},
    {'name': 'dates', 'on_error': 'raise'},
    {'name': 'oedversion_consistency', 'on_error': 'raise'},
]
KEYS = ['LocID', 'PerilID', 'CoverageTypeID', 'AreaPerilID', 'VulnerabilityID']
KEYS_ERRORS = ['LocID', 'PerilID', 'CoverageTypeID', 'Status', 'Message']


def fail(msg):
    print(f'conformance-oasis: FAIL {msg}', file=sys.stderr)
    sys.exit(1)


def check(out_dir, summary_path, expect_all_errors):
    exposure = OedExposure(location=f'{out_dir}/location.csv', check_oed=True, validation_config=RAISE_ALL)
    loc = exposure.location.dataframe
    summary = json.load(open(summary_path))
    keys = pd.read_csv(f'{out_dir}/keys.csv', dtype=str, keep_default_na=False)
    errs = pd.read_csv(f'{out_dir}/keys-errors.csv', dtype=str, keep_default_na=False)
    if list(keys.columns) != KEYS:
        fail(f'{out_dir}/keys.csv header {list(keys.columns)}')
    if list(errs.columns) != KEYS_ERRORS:
        fail(f'{out_dir}/keys-errors.csv header {list(errs.columns)}')
    # oasislmf's loc_id: the (PortNumber, AccNumber, LocNumber) triples sorted as strings, numbered from 1.
    raw = pd.read_csv(f'{out_dir}/location.csv', dtype=str, keep_default_na=False)
    triples = raw[['PortNumber', 'AccNumber', 'LocNumber']]
    order = triples.sort_values(by=['PortNumber', 'AccNumber', 'LocNumber'])
    loc_id = pd.Series(pd.factorize(pd.MultiIndex.from_frame(order))[0] + 1, index=order.index).sort_index()
    scored = set(loc_id[raw['FlexiLocScoreOverall'] != ''])
    unscored = set(loc_id[raw['FlexiLocScoreOverall'] == ''])
    if not set(keys['LocID'].astype(int)) <= scored:
        fail(f'{out_dir}/keys.csv has LocIDs of unscored locations')
    # Each keys row's peril must be covered by its location's LocPerilsCovered (OED PerilsCovered groups),
    # which checks the LocID -> location mapping row by row.
    covered = exposure.oed_schema.schema['perils']['covered']
    perils_of = {i: {p for code in pc.split(';') for p in covered.get(code.strip(), [])}
                 for i, pc in zip(loc_id, raw['LocPerilsCovered'])}
    wrong = [(i, p) for i, p in zip(keys['LocID'].astype(int), keys['PerilID']) if p not in perils_of[i]]
    if wrong:
        fail(f'{out_dir}/keys.csv: {len(wrong)} rows key a peril their location does not cover, e.g. {wrong[:3]}')
    if not set(errs['LocID'].astype(int)) <= unscored | scored:
        fail(f'{out_dir}/keys-errors.csv has LocIDs that are not in location.csv')
    if set(errs['Status']) - {'nomatch', 'fail', 'notatrisk'}:
        fail(f'{out_dir}/keys-errors.csv has statuses {set(errs["Status"])}')
    if expect_all_errors:
        if len(keys) != 0 or set(errs['LocID'].astype(int)) != set(loc_id) or (errs['Message'] == '').any():
            fail(f'{out_dir}: every location should be in keys-errors.csv with a message, none in keys.csv')
    elif len(keys) == 0:
        fail(f'{out_dir}/keys.csv is empty')
    if expect_all_errors:
        # The run failed on purpose (nothing scored): its stderr holds the problem object, not a summary.
        if summary.get('code') != 'invalid_input' or 'could be scored' not in summary.get('detail', ''):
            fail(f'{summary_path}: expected the nothing-scored problem, got {summary}')
        print(f'conformance-oasis: ok {out_dir}/location.csv: {len(loc)} rows valid OED {OED_VERSION}; '
              f'keys {len(keys)}, keys-errors {len(errs)}; exit 2: {summary["detail"][:80]}...')
        return
    if summary['rows'] != summary['scored'] + summary['errors'] + summary['outside_coverage']:
        fail(f'{summary_path}: rows != scored + errors + outside_coverage')
    print(f'conformance-oasis: ok {out_dir}/location.csv: {len(loc)} rows valid OED {OED_VERSION}; '
          f'keys {len(keys)}, keys-errors {len(errs)}; scored {summary["scored"]} of {summary["rows"]}')


point = json.load(open(sys.argv[7]))
pd.DataFrame(point['location']).to_csv(f'{sys.argv[5]}-point.csv', index=False)
OedExposure(location=f'{sys.argv[5]}-point.csv', check_oed=True, validation_config=RAISE_ALL)
if point['location'][0]['CountryCode'] != 'PR' or [k['PerilID'] for k in point['keys']] != ['WTC', 'WSS', 'QEQ', 'XTD', 'BBF', 'ORF', 'ZSN']:
    fail(f'point format=oasis: unexpected body {point}')
print('conformance-oasis: ok score point --format oasis: location row valid OED, keys for 7 perils')

check(sys.argv[1], sys.argv[2], True)
check(sys.argv[3], sys.argv[4], False)
check(sys.argv[5], sys.argv[6], False)
sites = pd.read_csv(f'{sys.argv[5]}/location.csv', dtype=str, keep_default_na=False)
if list(sites['CountryCode']) != ['US', 'PR', 'GU'] or 'FlexiLocSiteId' not in sites.columns:
    fail(f'{sys.argv[5]}/location.csv: expected US, PR, GU rows with FlexiLocSiteId, got {list(sites["CountryCode"])}')
if sites['FlexiLocNotes'][1] != '12" drain':
    fail(f'{sys.argv[5]}/location.csv: the inch mark of A-2 reads back as {sites["FlexiLocNotes"][1]!r}')
PY
log "validating with ods-tools $ODS_TOOLS_VERSION"
"$VENV/bin/python" "$TMP/check.py" "$TMP/piwind" "$TMP/piwind.json" "$TMP/us" "$TMP/us.json" "$TMP/sites" "$TMP/sites.json" "$TMP/point.json" 2> >(grep -v 'oed check' >&2)
log "ok"
