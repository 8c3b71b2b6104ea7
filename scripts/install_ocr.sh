#!/usr/bin/env bash
# Install Debian's Tesseract OCR engine (tesseract-ocr 5.3 with its English model from the package; nothing is
# downloaded at run time). Optional: without it kgrag OCRs with RapidOCR from the `ocr` extra.
# `[ingest] ocr_engine = "auto"` (the default) uses tesseract whenever the binary is on PATH.
# Usage: bash scripts/install_ocr.sh   (CI calls it from .ci/run)
set -euo pipefail

if ! command -v tesseract >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends tesseract-ocr
fi

tesseract --version 2>&1 | head -n 1
tesseract --list-langs 2>&1 | grep -qx eng || { echo "tesseract has no English model (tesseract-ocr-eng)" >&2; exit 1; }
