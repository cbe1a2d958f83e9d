#!/usr/bin/env python3
"""
The DuckDB extensions the store loads (spatial; ducklake and postgres_scanner for a cluster store, docs/scale-out.md), for exactly the DuckDB that npm installed with
@duckdb/node-api: `make install` runs this, and `make build` runs it once per install of node_modules.

DuckDB would download extensions from its own host on first use; catintel never lets it (that host may be
unreachable, and what runs should not depend on the day). The same signed files are published on PyPI as
wheels (duckdb-extension-<name>, holding extensions/v<version>/<name>.duckdb_extension). This fetches the
wheel matching the installed library's version with `pip download` (no virtual environment: nothing is
installed into Python) and unpacks the extension into

    duckdb-extensions/v<version>/<platform>/<name>.duckdb_extension

the layout DuckDB's extension_directory setting reads (src/store/extensions.ts points the store at it).
An extension already there is skipped when its SHA-256 equals the one the wheel recorded for it, so a
second run costs a second or so and downloads nothing. CATINTEL_DUCKDB_EXTENSIONS names another directory.
"""
import base64
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile

EXTENSIONS = ["spatial", "ducklake", "postgres_scanner"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMP = ".installed"


def fail(message):
    print(f"make install: {message}", file=sys.stderr)
    sys.exit(1)


def duckdb_build():
    """The version (v1.5.5) and platform (linux_amd64) of the DuckDB library in node_modules, asked of the library itself."""
    script = """
      const d = require('@duckdb/node-api');
      (async () => {
        const i = await d.DuckDBInstance.create(':memory:');
        const c = await i.connect();
        const r = await c.runAndReadAll('SELECT platform FROM pragma_platform()');
        console.log(JSON.stringify({ version: d.version(), platform: r.getRows()[0][0] }));
        c.closeSync(); i.closeSync();
      })().catch((e) => { console.error(e.message); process.exit(1); });
    """
    try:
        out = subprocess.run(["node", "-e", script], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as err:
        detail = getattr(err, "stderr", "") or str(err)
        fail(f"cannot ask @duckdb/node-api for its DuckDB version ({detail.strip().splitlines()[-1] if detail.strip() else err}); run `npm ci` first")
    build = json.loads(out)
    return build["version"], build["platform"]


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def recorded_sha256(wheel, member):
    """The member's SHA-256 as the wheel's RECORD lists it (urlsafe base64, no padding), in hex."""
    record = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
    for line in wheel.read(record).decode("utf-8").splitlines():
        path, digest, _size = line.rsplit(",", 2)
        if path == member and digest.startswith("sha256="):
            raw = digest[len("sha256="):]
            return base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).hex()
    fail(f"the wheel {os.path.basename(wheel.filename)} records no SHA-256 for {member}")


def install(name, version, platform, directory):
    target_dir = os.path.join(directory, version, platform)
    target = os.path.join(target_dir, f"{name}.duckdb_extension")
    sidecar = target + ".sha256"
    if os.path.exists(target) and os.path.exists(sidecar):
        with open(sidecar) as f:
            if f.read().strip() == sha256_of(target):
                print(f"{name} {version} {platform}: already installed")
                return
    started = time.monotonic()
    requirement = f"duckdb-extension-{name}=={version.lstrip('v')}.*"
    with tempfile.TemporaryDirectory(prefix="duckdb-extension-") as tmp:
        pip = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "--quiet", "-d", tmp, requirement]
        if subprocess.run(pip).returncode != 0:
            fail(f"pip could not download {requirement} from PyPI (is PyPI reachable, and is there a wheel for {platform}?)")
        wheels = [f for f in os.listdir(tmp) if f.endswith(".whl")]
        if len(wheels) != 1:
            fail(f"pip download of {requirement} gave {len(wheels)} wheels, expected one")
        with zipfile.ZipFile(os.path.join(tmp, wheels[0])) as wheel:
            suffix = f"extensions/{version}/{name}.duckdb_extension"
            members = [n for n in wheel.namelist() if n.endswith(suffix)]
            if len(members) != 1:
                fail(f"the wheel {wheels[0]} holds no {suffix}: its DuckDB version is not {version}")
            expected = recorded_sha256(wheel, members[0])
            os.makedirs(target_dir, exist_ok=True)
            # Written under a temporary name and renamed: a run killed half-way leaves no half a file under the real name.
            partial = f"{target}.{os.getpid()}.partial"
            try:
                with wheel.open(members[0]) as src, open(partial, "wb") as dst:
                    while block := src.read(1 << 20):
                        dst.write(block)
                got = sha256_of(partial)
                if got != expected:
                    fail(f"{members[0]} in {wheels[0]} does not match the SHA-256 the wheel records")
                os.replace(partial, target)
            finally:
                if os.path.exists(partial):
                    os.remove(partial)
        with open(sidecar, "w") as f:
            f.write(expected + "\n")
        size = os.path.getsize(os.path.join(tmp, wheels[0]))
    print(f"{name} {version} {platform}: installed from {wheels[0]} ({size / 1e6:.0f} MB) in {time.monotonic() - started:.1f} s")


def main():
    directory = os.path.abspath(os.environ.get("CATINTEL_DUCKDB_EXTENSIONS") or os.path.join(ROOT, "duckdb-extensions"))
    version, platform = duckdb_build()
    for name in EXTENSIONS:
        install(name, version, platform, directory)
    # make's target: newer than node_modules once every extension is in place.
    with open(os.path.join(directory, STAMP), "w") as f:
        f.write(f"{version} {platform} {' '.join(EXTENSIONS)}\n")


if __name__ == "__main__":
    main()
