#!/usr/bin/env bash
# The main job: reproduces every paper with experiments in experiments/ (Dally, Fed-X, NIFDY,
# multi-rail, SPIDER, the dragonfly) at a quick size (FULL=1: the papers' run lengths) and
# writes results, figures and a report per paper: out/<paper>/<paper>.md. PAPERS="fedx" limits
# it to some papers.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/icnsim}
OUT=${OUT:-out}
JOBS=${JOBS:-$(nproc)}
PAPERS=${PAPERS:-"dally fedx nifdy multirail spider dragonfly"}
if [[ "${FULL:-0}" == "1" ]]; then size=--full; else size=--quick; fi
for paper in $PAPERS; do
  "$BIN" reproduce "$paper" "$size" --out "$OUT/$paper" -j "$JOBS" --source .
  echo "Report: $OUT/$paper/$paper.md (figures beside it)"
done
