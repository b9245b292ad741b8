#!/usr/bin/env bash
# The main job: runs the Dally paper's experiments at a quick size (or the paper's size with
# FULL=1), writes CSV results, figures and a markdown report under out/dally/.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/icnsim}
OUT=${OUT:-out/dally}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT"
if [[ "${FULL:-0}" == "1" ]]; then
  sizes=()   # the configs carry the paper's run lengths (10 000 warm-up + 20 000 measured)
else
  sizes=(--set simulation.warmup_cycles=2000 --set simulation.measure_cycles=4000)
fi
for exp in fig19_mesh_lanes fig14_fly_equal_storage; do
  echo "== $exp"
  "$BIN" sweep "experiments/dally/$exp.toml" -j "$JOBS" --out "$OUT/$exp" "${sizes[@]}"
done
/usr/bin/python3 tools/dally_report.py "$OUT"
echo "Report: $OUT/report.md (figures beside it)"
