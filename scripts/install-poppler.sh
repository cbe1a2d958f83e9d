#!/usr/bin/env bash
# pdftoppm, pdftotext and pdfinfo (Debian package poppler-utils) for the report tests (test/reports.test.ts turns
# the briefing and the ICS-209 into page images and text). Installed with apt-get when missing, as
# scripts/conformance-gdal.sh installs gdal-bin (`apt-get update` only if the install fails without it); a
# no-op when they are there.
set -euo pipefail
if command -v pdftoppm >/dev/null && command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null; then exit 0; fi
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-poppler: installing poppler-utils (apt-get)" >&2
if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends poppler-utils >/dev/null; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get update >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends poppler-utils >/dev/null
fi
# sed reads the whole version text (head would close the pipe early, and pipefail turn the SIGPIPE into a failure).
pdftoppm -v 2>&1 | sed -n 1p >&2
