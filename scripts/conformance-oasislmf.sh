#!/usr/bin/env bash
# oasislmf conformance of `catintel oasis run` (docs/loss-engine.md): Oasis's own kernel and ours on the
# same PiWind model and input, compared row by row.
#
#  1. oasislmf (pinned OASISLMF_VERSION) into the project's .venv (gitignored; it brings the same
#     ods-tools 5.0.9 that scripts/conformance-oasis.sh pins).
#  2. PiWind's model files converted with oasislmf's csvtobin (events, occurrence with -P, footprint with
#     -m the largest intensity bin, vulnerability with -d the largest damage bin, damage_bin_dict,
#     returnperiods, quantile); the input copied with correlations.csv in the current 6-column layout;
#     the analysis settings without the ri/rl perspectives (PiWind's input has no reinsurance files).
#  3. `oasislmf model generate-losses --check-oed false --kernel-alloc-rule-gul 1` and
#     `catintel oasis run` on the same files, each timed: once with PiWind's settings (1 sample), once
#     with number_of_samples 10.
#  4. The same with reinsurance: PiWind's ten locations with two inuring levels (the OED in
#     fixtures/oasis-ri-run/oed: PiWind's surplus share at LOC, and a cat XL at ACC), made into Oasis
#     files by oasislmf's own generate-oasis-files (with PiWind's keys.csv), run by both with 10
#     samples and ri_output/rl_output on: gul, il, ri and rl_IP1, rl_IP2 compared.
#  5. Every CSV oasislmf wrote is compared with ours: same header, every row matched on its key columns,
#     every value within 0.01 % (SDLoss within a millionth of the row's MeanLoss: oasislmf's float32 sums
#     give samples capped at one loss a spread of their rounding). Any difference fails the run.
#
# numba compiles oasislmf's kernels on the first run (many minutes on 2 cores); later runs reuse its cache.
# Environment: SHARED_DATA (default ../shared/data), OASISLMF_VENV (default .venv), KEEP_RUN=1 to keep both
# runs' files (the directory is logged).
set -euo pipefail
cd "$(dirname "$0")/.."

OASISLMF_VERSION=2.5.8
VENV=${OASISLMF_VENV:-.venv}
SHARED_DATA=${SHARED_DATA:-../shared/data}
PIWIND="$SHARED_DATA/oasis_piwind"

log() { printf 'conformance-oasislmf: %s\n' "$*" >&2; }

if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('oasislmf') != '$OASISLMF_VERSION')" 2>/dev/null; then
  log "installing oasislmf $OASISLMF_VERSION into $VENV"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "oasislmf==$OASISLMF_VERSION"
fi
[ -f dist/src/cli/main.js ] || npx tsc -p tsconfig.json

TMP=$(mktemp -d "${TMPDIR:-/tmp}/catintel-oasislmf.XXXXXX")
if [ -n "${KEEP_RUN:-}" ]; then log "keeping $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
M="$PIWIND/model_data"
mkdir -p "$TMP/model" "$TMP/input"
max_col() { awk -F, -v c="$2" 'NR > 1 && $c > m { m = $c } END { print m }' "$1"; }
B="$(cd "$VENV/bin" && pwd)"
"$B/csvtobin" eve -i "$M/events_p.csv" -o "$TMP/model/events_p.bin"
"$B/csvtobin" occurrence -i "$M/occurrence_lt.csv" -o "$TMP/model/occurrence_lt.bin" -P "$(max_col "$M/occurrence_lt.csv" 2)"
"$B/csvtobin" footprint -i "$M/footprint.csv" -o "$TMP/model/footprint.bin" -x "$TMP/model/footprint.idx" -m "$(max_col "$M/intensity_bin_dict.csv" 1)"
"$B/csvtobin" vulnerability -i "$M/vulnerability.csv" -o "$TMP/model/vulnerability.bin" -d "$(max_col "$M/damage_bin_dict.csv" 1)" 2>/dev/null
"$B/csvtobin" damagebin -i "$M/damage_bin_dict.csv" -o "$TMP/model/damage_bin_dict.bin"
"$B/csvtobin" returnperiods -i "$M/returnperiods.csv" -o "$TMP/model/returnperiods.bin"
"$B/csvtobin" quantile -i "$M/quantile.csv" -o "$TMP/model/quantile.bin"
cp "$PIWIND"/expected_all_outputs/input/*.csv "$TMP/input/" && chmod u+w "$TMP"/input/*.csv
awk 'NR == 1 { print $0 ",source_item_id"; next } { print $0 ",0" }' "$PIWIND/expected_all_outputs/input/correlations.csv" >"$TMP/input/correlations.csv"
# PiWind's settings as they are (1 sample), and the same with 10 samples: standard deviations, quantiles
# and the sampled EP curves only mean something with several samples.
for samples in 1 10; do
  "$B/python" -c "
import json, sys
s = json.load(open(sys.argv[1]))
s['ri_output'] = False
s['rl_output'] = False
s['number_of_samples'] = int(sys.argv[3])
json.dump(s, open(sys.argv[2], 'w'), indent=1)
" "$PIWIND/expected_all_outputs/output/analysis_settings.json" "$TMP/settings-$samples.json" "$samples"
done

# PiWind's ten locations with reinsurance: oasislmf's own files (RI_1, RI_2 and ri_layers.json included).
RI_OED=fixtures/oasis-ri-run/oed
PATH="$B:$PATH" "$B/oasislmf" model generate-oasis-files -x "$RI_OED/location.csv" -y "$RI_OED/account.csv" \
  -i "$RI_OED/ri_info.csv" -s "$RI_OED/ri_scope.csv" -z "$PIWIND/expected_all_outputs/input/keys.csv" \
  -o "$TMP/input-ri" --check-oed false --intermediary-csv true >"$TMP/oasislmf-files-ri.log" 2>&1 || { tail -20 "$TMP/oasislmf-files-ri.log" >&2; exit 1; }
"$B/python" -c "
import json, sys
s = json.load(open(sys.argv[1]))
s['ri_output'] = True
s['rl_output'] = True
s['number_of_samples'] = 10
json.dump(s, open(sys.argv[2], 'w'), indent=1)
" "$PIWIND/expected_all_outputs/output/analysis_settings.json" "$TMP/settings-ri.json"

# compare NAME INPUT SETTINGS: both engines on INPUT with SETTINGS, every file oasislmf writes compared.
compare() {
  local name=$1 input=$2 settings=$3
  log "oasislmf $OASISLMF_VERSION model generate-losses on PiWind, $name"
  t0=$(date +%s.%N)
  PATH="$B:$PATH" "$B/oasislmf" model generate-losses -o "$input" -d "$TMP/model" -a "$settings" \
    -r "$TMP/run-$name" --check-oed false --kernel-alloc-rule-gul 1 >"$TMP/oasislmf-$name.log" 2>&1 || { tail -20 "$TMP/oasislmf-$name.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  log "catintel oasis run on the same files, $name"
  ./bin/catintel --quiet oasis run --model "$M" --input "$input" --out "$TMP/ours-$name" --settings "$settings" >/dev/null
  t2=$(date +%s.%N)
  log "$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "oasislmf %.2f s, catintel %.2f s, ratio %.0fx", b - a, c - b, (b - a) / (c - b) }')"

  "$B/python" - "$TMP/run-$name/output" "$TMP/ours-$name" <<'PY'
import csv, os, sys
theirs, ours = sys.argv[1], sys.argv[2]
# Key columns of each ORD table (the rest must agree within 0.01 %, or 0.01 absolute near zero).
KEYS = {'melt': [0, 1, 2], 'selt': [0, 1, 2], 'qelt': [0, 1, 2], 'ept': [0, 1, 2, 3], 'psept': [0, 1, 2, 3],
        'palt': [0, 1], 'splt': [0, 2, 9], 'mplt': [0, 2, 9], 'qplt': [0, 2, 9], 'summary-info': [0]}
def close(a, b):
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    # 1e-9: two decimals a unit apart in the last place (54.26, 54.27) differ by 0.01 plus binary rounding.
    return abs(x - y) <= max(1e-4 * max(abs(x), abs(y)), 0.01) + 1e-9
failed = 0
checked = 0
for name in sorted(os.listdir(theirs)):
    if not name.endswith('.csv') or not name.startswith(('gul_', 'il_', 'ri_', 'rl_')):
        continue
    table = name.rsplit('_', 1)[1][:-4]
    mine = os.path.join(ours, name)
    if not os.path.exists(mine):
        print(f'FAIL {name}: not written by catintel'); failed += 1; continue
    t = list(csv.reader(open(os.path.join(theirs, name))))
    o = list(csv.reader(open(mine)))
    if t[0] != o[0]:
        print(f'FAIL {name}: header {o[0]} != {t[0]}'); failed += 1; continue
    key = lambda r: tuple(r[k] for k in KEYS[table])
    got = {key(r): r for r in o[1:]}
    sd = t[0].index('SDLoss') if 'SDLoss' in t[0] else -1
    mean = t[0].index('MeanLoss') if 'MeanLoss' in t[0] else -1
    def same(r, m):
        for i, (a, b) in enumerate(zip(r, m)):
            # oasislmf sums an event's item losses in float32: samples that all sit at one loss (capped at the
            # TIV) differ in their last bits, and their standard deviation is that rounding (0.06-0.12 on
            # 870,000-3,400,000, where the exact sum gives 0). Agreed within a millionth of the mean loss.
            if i == sd and mean >= 0 and abs(float(a) - float(b)) <= max(1e-6 * abs(float(r[mean])), 0.01):
                continue
            if not close(a, b):
                return False
        return True
    bad = [r for r in t[1:] if key(r) not in got or not same(r, got[key(r)])]
    extra = len(o) - 1 - (len(t) - 1 - sum(1 for r in bad if key(r) not in got))
    checked += len(t) - 1
    if bad or extra:
        failed += 1
        print(f'FAIL {name}: {len(bad)} of {len(t) - 1} rows differ, {extra} extra; first: {bad[:1]}')
    else:
        print(f'ok   {name}: {len(t) - 1} rows')
print(f'{checked} rows compared, {failed} files differ')
sys.exit(1 if failed else 0)
PY
}

status=0
compare 1-sample "$TMP/input" "$TMP/settings-1.json" || status=1
compare 10-samples "$TMP/input" "$TMP/settings-10.json" || status=1
compare reinsurance-10-samples "$TMP/input-ri" "$TMP/settings-ri.json" || status=1
exit $status
