#!/usr/bin/env bash
# Install what the browser test (tests/test_server_browser.py, marker `browser`) needs:
# Debian's headless Chromium + chromedriver, and Playwright's Python package (driving /usr/bin/chromium;
# no `playwright install`, so no browser download from a CDN).
# Usage: bash scripts/install_browser.sh   (CI calls it from .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends chromium chromium-driver fonts-dejavu-core
fi

"$PY" -m pip install -q "playwright>=1.40"
/usr/bin/chromium --version || true
