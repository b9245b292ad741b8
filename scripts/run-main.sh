#!/usr/bin/env bash
# The main job: reproduces the Dally paper's experiments at a quick size (FULL=1: the paper's
# run lengths and sizes) and writes results, figures and out/dally/dally.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/icnsim}
OUT=${OUT:-out/dally}
JOBS=${JOBS:-$(nproc)}
if [[ "${FULL:-0}" == "1" ]]; then size=--full; else size=--quick; fi
"$BIN" reproduce dally "$size" --out "$OUT" -j "$JOBS" --source .
echo "Report: $OUT/dally.md (figures beside it)"
