"""Reads catintel's Arrow and (Geo)Parquet outputs with pyarrow, polars and geopandas and compares each with
the JSON answer of the same request (scripts/conformance-arrow.sh writes them into one directory).

    python scripts/conformance-arrow.py DIR

DIR holds, per check, the JSON answer and the typed files:
  score/      scores.ndjson (--format json), scores.arrow, scores.parquet of one portfolio
  ord/        the ORD tables of one `oasis run` as .parquet and .arrow (compared with each other: no JSON)
  tables/     ep-curve*.json, exposure*.json, locations-exposure*.json, event-exposure*.json and
              event-loss*.json, the JSON answers, with .arrow (CLI --format arrow) and/or .stream (HTTP
              Accept: application/vnd.apache.arrow.stream): one row per return period of the curve, one per
              event and ring of the exposure, one per location, event and ring of the saved locations'
              exposure, one per ring (and currency of the TIV) of an event's exposure, one per perspective
              and peril of a portfolio's loss from a live event
  events/     also ogc-events-http and ogc-rings-http: the OGC API items of both collections as streams
Every Arrow, stream and Parquet file is also opened with polars and geopandas (pandas when it has no geometry).
  <name>.json with <name>.arrow (IPC file), <name>.parquet (GeoParquet) and/or <name>.stream (the
              HTTP answer to Accept: application/vnd.apache.arrow.stream)
Every failure names the output and the column; the exit status is 1 when any check failed.
"""
import json
from datetime import datetime
import math
import pathlib
import struct
import sys

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

try:
    import polars as pl
except ImportError:  # the checks that need it say so
    pl = None
try:
    import geopandas as gpd
except ImportError:
    gpd = None

failures = []
checked = []


def fail(output, column, message):
    failures.append(f"{output}: column {column}: {message}")


def same_number(a, b, places=None):
    if a is None or b is None:
        return a is None and b is None
    if places is not None:
        b = round(b, places)
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)


# --- bulk scores ---------------------------------------------------------------------------------
def check_scores(d):
    objs = [json.loads(line) for line in (d / "scores.ndjson").read_text().splitlines() if line]
    perils = list(objs[0]["scores"].keys())
    for name, table in (("scores.arrow", ipc.open_file(d / "scores.arrow").read_all()), ("scores.parquet", pq.read_table(d / "scores.parquet"))):
        checked.append(name)
        if table.num_rows != len(objs):
            fail(name, "*", f"{table.num_rows} rows, the JSON has {len(objs)}")
            continue
        want = ["row", *[k for k in objs[0] if k not in ("row", "scores", "overall")], *perils, "overall"]
        if table.column_names != want:
            fail(name, "*", f"columns {table.column_names}, the JSON's are {want}")
            continue
        if table.schema.field("row").type != pa.int64():
            fail(name, "row", f"type {table.schema.field('row').type}, want int64")
        for c in [*perils, "overall"]:
            if table.schema.field(c).type != pa.float64():
                fail(name, c, f"type {table.schema.field(c).type}, want double")
        rows = table.to_pylist()
        for c in table.column_names:
            for k, (row, obj) in enumerate(zip(rows, objs)):
                got = row[c]
                if c in perils:
                    ok = same_number(got, obj["scores"][c], 2)
                elif c == "overall":
                    ok = same_number(got, obj["overall"], 2)
                elif isinstance(obj[c], (int, float)) and c != "row":
                    ok = same_number(got, obj[c])
                elif c == "row":
                    ok = got == obj[c]
                else:  # the input's text: an empty field is null in the typed outputs
                    ok = got == (obj[c] if obj[c] != "" else None)
                if not ok:
                    fail(name, c, f"row {obj['row']}: {got!r}, the JSON has {obj.get(c, obj.get('scores', {}).get(c))!r}")
                    break
        if pl is not None:
            checked.append(f"{name} (polars)")
            frame = pl.read_ipc(d / name) if name.endswith(".arrow") else pl.read_parquet(d / name)
            if frame.height != len(objs) or frame.columns != want:
                fail(f"{name} (polars)", "*", f"{frame.height} rows, columns {frame.columns}")
            elif frame["row"].dtype != pl.Int64 or frame["overall"].dtype != pl.Float64:
                fail(f"{name} (polars)", "row/overall", f"dtypes {frame['row'].dtype}, {frame['overall'].dtype}")


# --- event pages -------------------------------------------------------------------------------
TIMES = {"started_at", "ended_at", "updated_at", "ingested_at"}


def wkb_point(b):
    order, kind, x, y = struct.unpack("<BIdd", bytes(b))
    return order, kind, [x, y]


def wkb_first_vertex(b):
    """The WKB type and first vertex of a Polygon (3) or MultiPolygon (6)."""
    b = bytes(b)
    kind = struct.unpack_from("<I", b, 1)[0]
    at = 13 if kind == 3 else 22
    return kind, list(struct.unpack_from("<dd", b, at))


def first_vertex(g):
    return (3, g["coordinates"][0][0]) if g["type"] == "Polygon" else (6, g["coordinates"][0][0][0])


def same_instant(got, iso):
    if got is None or iso is None:
        return got is None and iso is None
    return abs(got.timestamp() - datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()) < 1e-3


def check_event_table(name, table, page, geoparquet=False):
    checked.append(name)
    feats = page["features"]
    if table.num_rows != len(feats):
        fail(name, "*", f"{table.num_rows} rows, the JSON has {len(feats)}")
        return
    if not feats:
        return
    props = list(feats[0]["properties"].keys())
    points = all(f["geometry"]["type"] == "Point" for f in feats)
    want = [*props, "longitude", "latitude", "geometry"] if points else [*props, "geometry"]
    if table.column_names != want:
        fail(name, "*", f"columns {table.column_names}, the JSON's properties are {want}")
        return
    for c in TIMES & set(props):
        t = table.schema.field(c).type
        if not pa.types.is_timestamp(t) or t.tz not in ("UTC", "+00:00", "Etc/UTC"):
            fail(name, c, f"type {t}, want a UTC timestamp")
    for c in ("id", "title", "event_type", "status", "source", "slug", "ring_id", "event_id", "kind"):
        if c in props and table.schema.field(c).type not in (pa.string(), pa.large_string()):
            fail(name, c, f"type {table.schema.field(c).type}, want string")
    for c in ("severity", "confidence_score", "distance_km", "threshold", "radius_km"):
        if c in props and table.schema.field(c).type != pa.float64():
            fail(name, c, f"type {table.schema.field(c).type}, want double")
    if not geoparquet:
        meta = table.schema.field("geometry").metadata or {}
        if meta.get(b"ARROW:extension:name") != b"geoarrow.wkb":
            fail(name, "geometry", f"field metadata {meta}, want ARROW:extension:name geoarrow.wkb")
        if "numberMatched" in page and table.schema.metadata.get(b"numberMatched") != str(page["numberMatched"]).encode():
            fail(name, "numberMatched", f"schema metadata {table.schema.metadata.get(b'numberMatched')}, the JSON has {page['numberMatched']}")
    rows = table.to_pylist()
    for c in table.column_names:
        for row, f in zip(rows, feats):
            got = row[c]
            if c == "geometry":
                want_v = f["geometry"]["type"]
                ok = wkb_point(got) == (1, 1, f["geometry"]["coordinates"]) if points else wkb_first_vertex(got) == first_vertex(f["geometry"])
            elif c in ("longitude", "latitude"):
                want_v = f["geometry"]["coordinates"][0 if c == "longitude" else 1]
                ok = got == want_v
            elif c in TIMES:
                want_v = f["properties"][c]
                ok = same_instant(got, want_v)
            else:
                want_v = f["properties"][c]
                ok = got == want_v
            if not ok:
                fail(name, c, f"event {f['id']}: {got!r}, the JSON has {want_v!r}")
                break


def check_events(d):
    for page_file in sorted(d.glob("*.json")):
        stem = page_file.stem
        page = json.loads(page_file.read_text())
        arrow_file = d / f"{stem}.arrow"
        if arrow_file.exists():
            check_event_table(f"{stem}.arrow", ipc.open_file(arrow_file).read_all(), page)
            if pl is not None:
                checked.append(f"{stem}.arrow (polars)")
                frame = pl.read_ipc(arrow_file)
                time = "started_at" if "started_at" in frame.columns else "ingested_at"
                if frame.height != len(page["features"]) or str(frame[time].dtype) != "Datetime(time_unit='ms', time_zone='UTC')":
                    fail(f"{stem}.arrow (polars)", time, f"{frame.height} rows, dtype {frame[time].dtype}")
        stream_file = d / f"{stem}.stream"
        if stream_file.exists():
            check_event_table(f"{stem}.stream", ipc.open_stream(stream_file.read_bytes()).read_all(), page)
        parquet_file = d / f"{stem}.parquet"
        if parquet_file.exists():
            table = pq.read_table(parquet_file)
            geo = json.loads(table.schema.metadata[b"geo"])
            column = geo.get("columns", {}).get("geometry", {})
            if geo.get("primary_column") != "geometry" or column.get("encoding") != "WKB":
                fail(f"{stem}.parquet", "geometry", f"geo metadata {geo}, want primary_column geometry, encoding WKB")
            if column.get("crs") not in (None, "OGC:CRS84"):
                fail(f"{stem}.parquet", "geometry", f"crs {column.get('crs')}, want CRS84 (absent)")
            check_event_table(f"{stem}.parquet", table, page, geoparquet=True)
            if gpd is not None:
                checked.append(f"{stem}.parquet (geopandas)")
                frame = gpd.read_parquet(parquet_file)
                if len(frame) != len(page["features"]) or frame.crs is None or frame.crs.to_string() not in ("OGC:CRS84", "EPSG:4326"):
                    fail(f"{stem}.parquet (geopandas)", "geometry", f"{len(frame)} rows, crs {frame.crs}")
                elif any(g.geom_type != f["geometry"]["type"] for g, f in zip(frame.geometry, page["features"])):
                    fail(f"{stem}.parquet (geopandas)", "geometry", "a geometry type differs from the JSON's")
                elif all(f["geometry"]["type"] == "Point" for f in page["features"]):
                    for (x, y), f in zip(zip(frame.geometry.x, frame.geometry.y), page["features"]):
                        if [x, y] != f["geometry"]["coordinates"]:
                            fail(f"{stem}.parquet (geopandas)", "geometry", f"event {f['id']}: {[x, y]}, the JSON has {f['geometry']['coordinates']}")
                            break


# --- ORD tables ------------------------------------------------------------------------------------
def check_ord(d):
    for arrow_file in sorted(d.glob("*.arrow")):
        name = arrow_file.name
        checked.append(name)
        got = ipc.open_file(arrow_file).read_all()
        want = pq.read_table(d / f"{arrow_file.stem}.parquet")
        if got.schema.names != want.schema.names:
            fail(name, "*", f"columns {got.schema.names}, the Parquet run's are {want.schema.names}")
            continue
        for c in want.schema.names:
            if got.schema.field(c).type != want.schema.field(c).type:
                fail(name, c, f"type {got.schema.field(c).type}, the Parquet run's is {want.schema.field(c).type}")
            else:
                a, b = got.column(c).to_pylist(), want.column(c).to_pylist()
                # NaN (EventRate where the CSV prints nan) equals NaN here.
                differ = [k for k, (x, y) in enumerate(zip(a, b)) if not (x == y or (x != x and y != y))]
                if len(a) != len(b) or differ:
                    fail(name, c, f"{len(a)} rows vs the Parquet run's {len(b)}; first differing row {differ[:1]}")
        if pl is not None:
            checked.append(f"{name} (polars)")
            if pl.read_ipc(arrow_file).height != want.num_rows:
                fail(f"{name} (polars)", "*", "row count differs from the Parquet run's")


# --- portfolio answers: the EP curve and exposure ----------------------------------------------------
EP_COLUMNS = {"ReturnPeriod": "int", "ExceedanceProbability": "float", "OEPLossAmt": "money", "AEPLossAmt": "money", "OEPTVaRAmt": "money", "AEPTVaRAmt": "money"}
EXPOSURE_EVENT = {"event_id": "text", "slug": "text", "title": "text", "event_type": "text", "status": "text", "severity": "float", "severity_label": "text", "source": "text", "source_url": "text", "ingested_at": "time"}
EXPOSURE_RING = {"ring_id": "text", "ordinal": "int", "kind": "text", "label": "text", "threshold": "float", "unit": "text", "radius_km": "float", "NumLocations": "int", "BldgInsuranceAmt": "money", "ContentsInsuranceAmt": "money", "BIInsuranceAmt": "money", "OtherInsuranceAmt": "money", "TotalInsuranceAmt": "money"}
LOCATION = {"location_id": "text", "location_name": "text", "location_lat": "float", "location_lng": "float", "location_radius_km": "float"}
LOCATION_RING = {"ring_id": "text", "ordinal": "int", "kind": "text", "label": "text", "threshold": "float", "unit": "text", "radius_km": "float", "distance_km": "float", "inside": "bool"}
INFRA_KINDS = ("hospital", "fire_station", "school", "urgent_care", "ems")
MONEY = ("BldgInsuranceAmt", "ContentsInsuranceAmt", "BIInsuranceAmt", "OtherInsuranceAmt", "TotalInsuranceAmt")
EVENT_EXPOSURE = {
    "ring_id": "text", "ordinal": "int", "kind": "text", "label": "text", "threshold": "float", "unit": "text", "radius_km": "float",
    "population": "int", "land_area_km2": "float", "ring_area_km2": "float", **{k: "int" for k in INFRA_KINDS},
    "CurCd": "text", "NumLocations": "int", "NumPortfolios": "int", **{m: "money" for m in MONEY},
    "source": "text", "source_url": "text", "ingested_at": "time",
}
EVENT_LOSS = {"perspective": "text", "peril": "text", **{m: "money" for m in ("MeanLossAmt", "P10LossAmt", "P50LossAmt", "P90LossAmt", "ObservedSoFarLossAmt", "TIVInFootprintAmt")}}
NO_CURRENCY = object()  # the table holds no money in any currency: its money fields carry no `currency`
KIND_TYPES = {"int": pa.int64(), "float": pa.float64(), "money": pa.float64(), "text": pa.string(), "time": pa.timestamp("ms", tz="UTC"), "bool": pa.bool_()}
POLARS_DTYPES = {"int": "Int64", "float": "Float64", "money": "Float64", "text": "String", "time": "Datetime(time_unit='ms', time_zone='UTC')", "bool": "Boolean"}


def event_exposure_rows(body):
    """One row per ring now and currency of the caller's TIV inside it (one row, CurCd null, when none)."""
    none = {"CurCd": None, "NumLocations": 0, "NumPortfolios": 0, **{m: 0 for m in MONEY}}
    rows = []
    for r in body["rings"]:
        ring = {c: r.get(c) for c in EVENT_EXPOSURE}
        ring.update({k: r["population"][k] for k in ("population", "land_area_km2", "ring_area_km2")})
        ring.update({k: r["infrastructure"]["counts"][k] for k in INFRA_KINDS})
        for t in r["portfolio_tiv"] or [none]:
            rows.append({**ring, **{c: t[c] for c in none}})
    return rows


def event_loss_rows(body):
    """Per perspective (gul, il): the whole (peril all), then each peril of `perils`."""
    rows = []
    for p in ("gul", "il"):
        whole = {k: v for k, v in body[p].items() if k != "by_peril"}
        rows.append({"perspective": p, "peril": "all", **whole, "TIVInFootprintAmt": body["TIVInFootprintAmt"]})
        for peril in body["perils"]:
            rows.append({"perspective": p, "peril": peril, **body[p]["by_peril"][peril], "TIVInFootprintAmt": body["TIVInFootprintAmtByPeril"][peril]})
    return rows


def expected_table(stem, body):
    """The JSON answer as the table's columns (name -> kind), rows, schema metadata and the money's currency."""
    if stem.startswith("event-exposure"):
        currencies = sorted({t["CurCd"] for r in body["rings"] for t in r["portfolio_tiv"]})
        currency = NO_CURRENCY if not currencies else currencies[0] if len(currencies) == 1 else "mixed"
        return EVENT_EXPOSURE, event_exposure_rows(body), {"event_id": body["event"]["id"], "as_of": body["as_of"]}, currency
    if stem.startswith("event-loss"):
        meta = {"PortfolioId": body["PortfolioId"], "event_id": body["event"]["id"], "footprint_version": body["footprint"]["version"], "footprint_kind": body["footprint"]["kind"], "samples": body["samples"]}
        return EVENT_LOSS, event_loss_rows(body), meta, body["CurCd"]
    return (*expected_columns(stem, body), body.get("CurCd"))


def expected_columns(stem, body):
    """The EP curve, portfolio exposure and saved locations' exposure: columns, rows and schema metadata."""
    if stem.startswith("ep-curve"):
        return EP_COLUMNS, body["curve"], {"PortfolioId": body["PortfolioId"], "perspective": body["perspective"], "EPCalc": body["EPCalc"], "AALAmt": body["AALAmt"]}
    if stem.startswith("locations-exposure"):
        rows = [
            {**{f"location_{k}": x["location"][k] for k in ("id", "name", "lat", "lng", "radius_km")}, **{c: e[c] for c in EXPOSURE_EVENT}, **{c: r[c] for c in LOCATION_RING}}
            for x in body["locations"]
            for e in x["events"]
            for r in e["rings"]
        ]
        return {**LOCATION, **EXPOSURE_EVENT, **LOCATION_RING}, rows, {"as_of": body["as_of"], "reached": body["reached"]}
    rows = [{**{c: e[c] for c in EXPOSURE_EVENT}, **{c: r[c] for c in EXPOSURE_RING}} for e in body["events"] for r in e["rings"]]
    return {**EXPOSURE_EVENT, **EXPOSURE_RING}, rows, {"PortfolioId": body["PortfolioId"], "NumLocationsExposed": body["NumLocationsExposed"]}


def check_answer_table(name, table, body, stem):
    checked.append(name)
    columns, rows, meta, currency = expected_table(stem, body)
    if table.num_rows != len(rows):
        fail(name, "*", f"{table.num_rows} rows, the JSON has {len(rows)}")
        return
    if table.column_names != list(columns):
        fail(name, "*", f"columns {table.column_names}, the JSON's are {list(columns)}")
        return
    for k, v in meta.items():
        got = (table.schema.metadata or {}).get(k.encode())
        if got != str(v).encode():
            fail(name, k, f"schema metadata {got!r}, the JSON has {v!r}")
    for c, kind in columns.items():
        field = table.schema.field(c)
        if field.type != KIND_TYPES[kind]:
            fail(name, c, f"type {field.type}, want {KIND_TYPES[kind]}")
            continue
        want_currency = None if currency is NO_CURRENCY else str(currency).encode()
        if kind == "money" and (field.metadata or {}).get(b"currency") != want_currency:
            fail(name, c, f"field metadata {field.metadata}, want currency {want_currency}")
        for k, (got, row) in enumerate(zip(table.column(c).to_pylist(), rows)):
            want = row[c]
            ok = same_instant(got, want) if kind == "time" else (same_number(got, want) if kind in ("float", "money") and want is not None else got == want)
            if not ok:
                fail(name, c, f"row {k}: {got!r}, the JSON has {want!r}")
                break
    if pl is not None:
        checked.append(f"{name} (polars)")
        frame = pl.read_ipc(d_of(name)) if name.endswith(".arrow") else pl.read_ipc_stream(d_of(name))
        for c, kind in columns.items():
            if str(frame[c].dtype) != POLARS_DTYPES[kind]:
                fail(f"{name} (polars)", c, f"dtype {frame[c].dtype}, want {POLARS_DTYPES[kind]}")
        money = [c for c, k in columns.items() if k == "money"]
        if frame.height != len(rows) or (rows and any(not same_number(frame[c].sum(), sum(r[c] for r in rows)) for c in money[-1:])):
            fail(f"{name} (polars)", (money or ["*"])[-1], f"{frame.height} rows; the sum differs from the JSON's")


PATHS = {}


def d_of(name):
    return PATHS[name.split(" ")[0]]


def check_tables(d):
    for page_file in sorted(d.glob("*.json")):
        stem = page_file.stem
        body = json.loads(page_file.read_text())
        for suffix, read in ((".arrow", lambda f: ipc.open_file(f).read_all()), (".stream", lambda f: ipc.open_stream(f.read_bytes()).read_all())):
            f = d / f"{stem}{suffix}"
            if f.exists():
                PATHS[f.name] = f
                check_answer_table(f.name, read(f), body, stem)


# --- every file: polars and (geo)pandas read what pyarrow reads ----------------------------------------
def check_readers(out):
    """Every Arrow, stream and Parquet output opened by polars and by geopandas (pandas for a table without
    geometry, as geopandas reads only geometry): the same rows and columns as pyarrow, times as UTC datetimes."""
    import pandas as pd

    for f in sorted([*out.rglob("*.arrow"), *out.rglob("*.stream"), *out.rglob("*.parquet")]):
        name = f"{f.parent.name}/{f.name}"
        table = ipc.open_file(f).read_all() if f.suffix == ".arrow" else ipc.open_stream(f.read_bytes()).read_all() if f.suffix == ".stream" else pq.read_table(f)
        geo = (table.schema.metadata or {}).get(b"geo") is not None or (
            "geometry" in table.column_names and (table.schema.field("geometry").metadata or {}).get(b"ARROW:extension:name") == b"geoarrow.wkb"
        )
        if pl is not None:
            checked.append(f"{name} (polars)")
            try:
                frame = pl.read_ipc(f) if f.suffix == ".arrow" else pl.read_ipc_stream(f) if f.suffix == ".stream" else pl.read_parquet(f)
                if frame.height != table.num_rows or frame.columns != table.column_names:
                    fail(f"{name} (polars)", "*", f"{frame.height} rows, columns {frame.columns}; pyarrow reads {table.num_rows}, {table.column_names}")
            except Exception as e:  # noqa: BLE001 a reader that cannot open the file is the failure
                fail(f"{name} (polars)", "*", f"cannot read: {e}")
        reader = "geopandas" if geo and gpd is not None else "pandas"
        checked.append(f"{name} ({reader})")
        try:
            if geo and gpd is not None:
                frame = gpd.read_parquet(f) if f.suffix == ".parquet" else gpd.GeoDataFrame.from_arrow(table)
                if frame.geometry.isna().any() or frame.crs is None:
                    fail(f"{name} (geopandas)", "geometry", f"crs {frame.crs}, {int(frame.geometry.isna().sum())} missing geometries")
            else:
                frame = pd.read_feather(f) if f.suffix == ".arrow" else pd.read_parquet(f) if f.suffix == ".parquet" else table.to_pandas()
            if len(frame) != table.num_rows or list(frame.columns) != table.column_names:
                fail(f"{name} ({reader})", "*", f"{len(frame)} rows, columns {list(frame.columns)}; pyarrow reads {table.num_rows}")
            for c in table.column_names:
                t = table.schema.field(c).type
                if pa.types.is_timestamp(t) and t.tz and str(frame[c].dtype).find("UTC") < 0:
                    fail(f"{name} ({reader})", c, f"dtype {frame[c].dtype}, want a UTC datetime")
        except Exception as e:  # noqa: BLE001
            fail(f"{name} ({reader})", "*", f"cannot read: {e}")


def main():
    d = pathlib.Path(sys.argv[1])
    if (d / "score").is_dir():
        check_scores(d / "score")
    if (d / "events").is_dir():
        check_events(d / "events")
    if (d / "ord").is_dir():
        check_ord(d / "ord")
    if (d / "tables").is_dir():
        check_tables(d / "tables")
    check_readers(d)
    missing = [n for n, m in (("polars", pl), ("geopandas", gpd)) if m is None]
    for f in failures:
        print(f"FAIL {f}")
    print(f"{len(checked)} outputs read ({', '.join(checked)}); {len(failures)} failures" + (f"; not installed: {', '.join(missing)}" if missing else ""))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
