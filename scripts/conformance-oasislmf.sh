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
#  4. Every CSV oasislmf wrote is compared with ours: same header, every row matched on its key columns,
#     every value within 0.01 % (SDLoss within a millionth of the row's MeanLoss: oasislmf's float32 sums
#     give samples capped at one loss a spread of their rounding). Any difference fails the run.
#  5. Once more with 10 samples and every summary's ord_output parquet_format on (oasislmf's Parquet
#     outputs) against `catintel oasis run --ord-format parquet`: every Parquet file with the same column
#     names and types (pyarrow's large_string and string are the same Parquet column), its rows compared
#     as in 4.
#  6. From OED: PiWind's location, account and keys with site deductibles and limits and moved layers
#     added (a copy made here), through oasislmf's generate-oasis-files and generate-losses and through
#     `catintel oasis run --oed-location --oed-account --keys`, 10 samples, compared as in 4; and the
#     Oasis input files oasislmf made (bintocsv) against `catintel oasis files`' row by row.
#  7. With reinsurance: PiWind's ten locations with two inuring levels (the OED in
#     fixtures/oasis-ri-run/oed: PiWind's surplus share at LOC, and a cat XL at ACC), made into Oasis
#     files by oasislmf's own generate-oasis-files (with PiWind's keys.csv), run by both with 10
#     samples and ri_output/rl_output on: gul, il, ri and rl_IP1, rl_IP2 compared as in 4.
#  8. catintel's own hurricane model package (`catintel model build hurricane --years 100`) with the
#     ten-location Florida book in fixtures/hurricane-package (site deductibles, one account layer; WW1,
#     so both of the package's perils, wind WTC and storm surge WSS, with ground elevations on eight): its
#     keys from `catintel model keys`, through oasislmf's generate-oasis-files and generate-losses on the
#     package as built, and through `catintel oasis run --model PKG --oed-location --oed-account` (the
#     package's own keys lookup), 10 samples, compared as in 4.
#  9. catintel's own earthquake model package (`catintel model build earthquake --years 100`) with the
#     ten-location western and central US book in fixtures/earthquake-package (site deductibles, one
#     account layer), as in 8: keys from `catintel model keys`, oasislmf's generate-oasis-files and
#     generate-losses on the package as built (its footprint carries probabilities over the PGA bins),
#     and `catintel oasis run --model PKG --oed-location --oed-account`, 10 samples, compared as in 4.
#     Both packages need gulmc's cut of its cdfs to agree: it stops the hazard cdf and each item's effective
#     damage cdf once they reach 0.99999994 and takes the mean and maximum from the float32 cdf
#     (docs/loss-engine.md, "Where Oasis cuts a distribution"); the earthquake footprint's many small
#     tail probabilities show it on events whose mean loss is a few dollars.
#
# numba compiles oasislmf's kernels on the first run (many minutes on 2 cores); later runs reuse its cache.
# Environment: SHARED_DATA (default ../shared/data), OASISLMF_VENV (default .venv), KEEP_RUN=1 to keep both
# runs' files (the directory is logged), CONFORMANCE_ONLY=hurricane-package or earthquake-package to run step 8
# or 9 alone.
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
# settings OUT JSON [parquet]: PiWind's analysis settings with the keys of JSON replaced; with `parquet`, every
# summary's ord_output parquet_format on.
settings() {
  "$B/python" -c "
import json, sys
s = json.load(open(sys.argv[1]))
s.update(json.loads(sys.argv[3]))
if len(sys.argv) > 4:
    for x in s['gul_summaries'] + s['il_summaries']:
        x.setdefault('ord_output', {})['parquet_format'] = True
json.dump(s, open(sys.argv[2], 'w'), indent=1)
" "$PIWIND/expected_all_outputs/output/analysis_settings.json" "$@"
}
# PiWind's settings as they are (1 sample), and the same with 10 samples: standard deviations, quantiles
# and the sampled EP curves only mean something with several samples.
settings "$TMP/settings-1.json" '{"ri_output": false, "rl_output": false, "number_of_samples": 1}'
settings "$TMP/settings-10.json" '{"ri_output": false, "rl_output": false, "number_of_samples": 10}'
settings "$TMP/settings-10-parquet.json" '{"ri_output": false, "rl_output": false, "number_of_samples": 10}' parquet

# timed THEIRS OURS: runs the two shell functions one after the other and logs both times and their ratio.
timed() {
  local t0 t1 t2
  t0=$(date +%s.%N)
  "$1" || return 1
  t1=$(date +%s.%N)
  "$2" || return 1
  t2=$(date +%s.%N)
  log "$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "oasislmf %.2f s, catintel %.2f s, ratio %.0fx", b - a, c - b, (b - a) / (c - b) }')"
}

# oasislmf LOG ARGS...: oasislmf's CLI with its kernels on the PATH, its output appended to LOG (shown on failure).
oasislmf() {
  local logfile=$1
  shift
  PATH="$B:$PATH" "$B/oasislmf" "$@" >>"$logfile" 2>&1 || { tail -20 "$logfile" >&2; return 1; }
}

# compare.py THEIRS OURS csv|parquet: every ORD file oasislmf wrote against ours.
cat >"$TMP/compare.py" <<'PY'
import csv, math, os, sys
theirs, ours, ext = sys.argv[1], sys.argv[2], '.' + sys.argv[3]
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
def cell(v):
    return 'nan' if isinstance(v, float) and math.isnan(v) else str(v)
def table_of(file):
    """The header and rows as strings; a Parquet file's values as stored (float32 read as a double)."""
    if ext == '.csv':
        return list(csv.reader(open(file)))
    import pyarrow.parquet as pq
    t = pq.read_table(file)
    cols = [t.column(i).to_pylist() for i in range(t.num_columns)]
    return [t.column_names] + [[cell(c[r]) for c in cols] for r in range(t.num_rows)]
def types_of(file):
    import pyarrow.parquet as pq
    # large_string is pandas' arrow schema stored beside the column; the Parquet column is the same.
    return [(f.name, 'string' if str(f.type) == 'large_string' else str(f.type)) for f in pq.read_schema(file)]
for name in sorted(os.listdir(theirs)):
    if not name.endswith(ext) or not name.startswith(('gul_', 'il_', 'ri_', 'rl_')):
        continue
    table = name.rsplit('_', 1)[1][:-len(ext)]
    mine = os.path.join(ours, name)
    if not os.path.exists(mine):
        print(f'FAIL {name}: not written by catintel'); failed += 1; continue
    if ext == '.parquet' and types_of(mine) != types_of(os.path.join(theirs, name)):
        print(f'FAIL {name}: columns {types_of(mine)} != {types_of(os.path.join(theirs, name))}'); failed += 1; continue
    t = table_of(os.path.join(theirs, name))
    o = table_of(mine)
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

compare() {
  local samples=$1 format=${2:-csv}
  theirs() {
    log "oasislmf $OASISLMF_VERSION model generate-losses on PiWind, $samples sample(s)"
    oasislmf "$TMP/oasislmf-$samples.log" model generate-losses -o "$TMP/input" -d "$TMP/model" -a "$TMP/settings-$samples.json" \
      -r "$TMP/run-$samples" --check-oed false --kernel-alloc-rule-gul 1
  }
  ours() {
    log "catintel oasis run on the same files, $samples sample(s)"
    ./bin/catintel --quiet oasis run --model "$M" --input "$TMP/input" --out "$TMP/ours-$samples" --settings "$TMP/settings-$samples.json" --ord-format "$format" >/dev/null
  }
  timed theirs ours || return 1
  "$B/python" "$TMP/compare.py" "$TMP/run-$samples/output" "$TMP/ours-$samples" "$format"
}

# 3. PiWind's OED with financial terms added, from OED through both front ends: oasislmf's
# generate-oasis-files and generate-losses, and `catintel oasis run --oed-location --oed-account --keys`.
# The derived copy lives in $TMP only. oasislmf 2.5.8 saves the location and account files as parquet and
# fails on a text column whose values all read as numbers (LocNumber 10002082046 and BuildingID 1 here,
# PortNumber in the benchmark's book): the portfolio becomes Port1, the locations L<number> (the text order, hence the
# location numbers the keys file uses, is unchanged), and columns no financial rule reads are dropped.
derive_oed() {
  "$B/python" - "$PIWIND/expected_all_outputs/input" "$TMP/oed" <<'PY'
import csv, os, sys
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
def rewrite(name, drop, add):
    rows = list(csv.DictReader(open(os.path.join(src, name))))
    cols = [c for c in rows[0] if c not in drop]
    with open(os.path.join(out, name), 'w', newline='') as f:
        w = None
        for i, r in enumerate(rows):
            r['PortNumber'] = 'Port' + r['PortNumber']
            extra = add(r, i)
            r = {**{c: r[c] for c in cols}, **extra}
            if w is None:
                w = csv.DictWriter(f, list(r))
                w.writeheader()
            w.writerow(r)
# Site terms: a flat building deductible (none on some locations), a limit at 60 % of the building TIV on
# every other location.
def site(r, i):
    r['LocNumber'] = 'L' + r['LocNumber']
    return {'LocDedType1Building': 0, 'LocDed1Building': [5000, 20000, 0, 1000, 15000][i % 5],
            'LocLimitType1Building': 0, 'LocLimit1Building': float(r['BuildingTIV']) * 0.6 if i % 2 else 0}
rewrite('location.csv', {'loc_id', 'loc_idx', 'BuildingID', 'IsTenant', 'StreetAddress', 'PostalCode', 'OEDVersion'}, site)
# The account's two layers moved to where PiWind's losses reach them: 900k xs 100k at 50 %, 2M xs 1.1M at 30 %.
LAYERS = {'1': (100000, 1000000, 0.5), '2': (1100000, 2000000, 0.3)}
def layer(r, i):
    a, l, p = LAYERS[r['LayerNumber']]
    return {'LayerAttachment': a, 'LayerLimit': l, 'LayerParticipation': p}
rewrite('account.csv', {'acc_idx', 'layer_id', 'LayerAttachment', 'LayerLimit', 'LayerParticipation', 'OEDVersion'}, layer)
PY
  cp "$PIWIND/expected_all_outputs/input/keys.csv" "$TMP/oed/keys.csv"
}

compare_oed() {
  local samples=10
  derive_oed
  theirs() {
    log "oasislmf $OASISLMF_VERSION generate-oasis-files and generate-losses on PiWind's OED with site terms and layers, $samples samples"
    oasislmf "$TMP/oasislmf-oed.log" model generate-oasis-files -x "$TMP/oed/location.csv" -y "$TMP/oed/account.csv" -z "$TMP/oed/keys.csv" \
      -o "$TMP/oed-input" --check-oed false || return 1
    oasislmf "$TMP/oasislmf-oed.log" model generate-losses -o "$TMP/oed-input" -d "$TMP/model" -a "$TMP/settings-$samples.json" \
      -r "$TMP/run-oed" --check-oed false --kernel-alloc-rule-gul 1
  }
  ours() {
    log "catintel oasis run --oed-location --oed-account --keys on the same OED, $samples samples"
    ./bin/catintel --quiet oasis run --model "$M" --oed-location "$TMP/oed/location.csv" --oed-account "$TMP/oed/account.csv" \
      --keys "$TMP/oed/keys.csv" --out "$TMP/ours-oed" --settings "$TMP/settings-$samples.json" >/dev/null
  }
  timed theirs ours || return 1
  local status=0
  "$B/python" "$TMP/compare.py" "$TMP/run-oed/output" "$TMP/ours-oed" csv || status=1

  # The Oasis input files too: oasislmf's .bin read back with its bintocsv, and `catintel oasis files`
  # on the same OED; rows in order, columns by name (acc_idx left out, as the FM acceptance runner does).
  log "oasis input files: oasislmf generate-oasis-files against catintel oasis files"
  mkdir -p "$TMP/oed-input-csv"
  for f in items coverages fm_programme fm_profile fm_policytc fm_xref; do
    "$B/bintocsv" "$f" -i "$TMP/oed-input/$f.bin" -o "$TMP/oed-input-csv/$f.csv"
  done
  cp "$TMP/oed-input/gul_summary_map.csv" "$TMP/oed-input/fm_summary_map.csv" "$TMP/oed-input-csv/"
  ./bin/catintel --quiet oasis files --oed-location "$TMP/oed/location.csv" --oed-account "$TMP/oed/account.csv" \
    --keys "$TMP/oed/keys.csv" --out "$TMP/ours-oed-input" >/dev/null
  "$B/python" - "$TMP/oed-input-csv" "$TMP/ours-oed-input" <<'PY' || status=1
import csv, os, sys
theirs, ours = sys.argv[1], sys.argv[2]
def same(a, b):
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return abs(x - y) <= max(1e-6 * max(abs(x), abs(y)), 1e-6)
failed = 0
for name in sorted(os.listdir(theirs)):
    t = list(csv.DictReader(open(os.path.join(theirs, name))))
    o = list(csv.DictReader(open(os.path.join(ours, name))))
    cols = [c for c in t[0] if c != 'acc_idx']
    missing = [c for c in cols if c not in o[0]]
    bad = [i for i, (a, b) in enumerate(zip(t, o)) if missing or not all(same(a[c], b[c]) for c in cols)]
    if missing or bad or len(t) != len(o):
        failed += 1
        print(f'FAIL {name}: {len(o)} rows, oasislmf {len(t)}; no column {missing}; first row differing: {bad[:1]}')
    else:
        print(f'ok   {name}: {len(t)} rows')
print(f'{len(os.listdir(theirs))} input files compared, {failed} differ')
sys.exit(1 if failed else 0)
PY
  return $status
}

# 7. With reinsurance: PiWind's ten locations with two inuring levels; oasislmf's own files (RI_1, RI_2 and
# ri_layers.json included) run by both engines.
compare_ri() {
  local RI_OED=fixtures/oasis-ri-run/oed
  oasislmf "$TMP/oasislmf-files-ri.log" model generate-oasis-files -x "$RI_OED/location.csv" -y "$RI_OED/account.csv" \
    -i "$RI_OED/ri_info.csv" -s "$RI_OED/ri_scope.csv" -z "$PIWIND/expected_all_outputs/input/keys.csv" \
    -o "$TMP/input-ri" --check-oed false --intermediary-csv true || return 1
  settings "$TMP/settings-ri.json" '{"ri_output": true, "rl_output": true, "number_of_samples": 10}'
  theirs() {
    log "oasislmf $OASISLMF_VERSION model generate-losses on PiWind with two reinsurance levels, 10 samples"
    oasislmf "$TMP/oasislmf-ri.log" model generate-losses -o "$TMP/input-ri" -d "$TMP/model" -a "$TMP/settings-ri.json" \
      -r "$TMP/run-ri" --check-oed false --kernel-alloc-rule-gul 1
  }
  ours() {
    log "catintel oasis run on the same files, gul/il/ri/rl"
    ./bin/catintel --quiet oasis run --model "$M" --input "$TMP/input-ri" --out "$TMP/ours-ri" --settings "$TMP/settings-ri.json" >/dev/null
  }
  timed theirs ours || return 1
  "$B/python" "$TMP/compare.py" "$TMP/run-ri/output" "$TMP/ours-ri" csv
}

# 8 and 9. One of catintel's own model packages (hurricane or earthquake), built with 100 years, run unchanged by
# oasislmf on the sample book in fixtures/<kind>-package, and by `catintel oasis run` with the package's keys.
compare_package() {
  local kind=$1 BOOK=fixtures/$1-package
  log "catintel model build $kind --years 100"
  ./bin/catintel --quiet model build "$kind" --years 100 --seed 1 --from "$SHARED_DATA" --out "$TMP/$kind" >/dev/null
  ./bin/catintel --quiet model keys --model "$TMP/$kind" --oed-location "$BOOK/location.csv" --out "$TMP/$kind-keys.csv" >/dev/null
  # PiWind's summaries with 10 samples and no model options (a package has one event set).
  settings "$TMP/settings-$kind.json" '{"model_settings": {}, "ri_output": false, "rl_output": false, "number_of_samples": 10}'
  theirs() {
    log "oasislmf $OASISLMF_VERSION generate-oasis-files and generate-losses on the $kind package, 10 samples"
    oasislmf "$TMP/oasislmf-$kind.log" model generate-oasis-files -x "$BOOK/location.csv" -y "$BOOK/account.csv" -z "$TMP/$kind-keys.csv" \
      -o "$TMP/$kind-input" --check-oed false || return 1
    oasislmf "$TMP/oasislmf-$kind.log" model generate-losses -o "$TMP/$kind-input" -d "$TMP/$kind" -a "$TMP/settings-$kind.json" \
      -r "$TMP/run-$kind" --check-oed false --kernel-alloc-rule-gul 1
  }
  ours() {
    log "catintel oasis run --model PKG --oed-location --oed-account (the package's keys), 10 samples"
    ./bin/catintel --quiet oasis run --model "$TMP/$kind" --oed-location "$BOOK/location.csv" --oed-account "$BOOK/account.csv" \
      --out "$TMP/ours-$kind" --settings "$TMP/settings-$kind.json" >/dev/null
  }
  timed theirs ours || return 1
  "$B/python" "$TMP/compare.py" "$TMP/run-$kind/output" "$TMP/ours-$kind" csv
}

# CONFORMANCE_ONLY runs step 8 or 9 alone (a quick check of a rebuilt model package).
case "${CONFORMANCE_ONLY:-}" in
  hurricane-package) compare_package hurricane; exit $? ;;
  earthquake-package) compare_package earthquake; exit $? ;;
esac

status=0
compare 1 || status=1
compare 10 || status=1
compare 10-parquet parquet || status=1
compare_oed || status=1
compare_ri || status=1
compare_package hurricane || status=1
compare_package earthquake || status=1
exit $status
