#!/usr/bin/env bash
# The main job: reproduces every paper with experiments in experiments/ (Dally, Fed-X, NIFDY,
# multi-rail, SPIDER, the dragonfly) at a quick size (FULL=1: the papers' run lengths) and
# writes results, figures and a report per paper: out/<paper>/<paper>.md; then runs the
# workload examples into out/workloads/. PAPERS="fedx" limits it to some of these.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/icnsim}
OUT=${OUT:-out}
JOBS=${JOBS:-$(nproc)}
PAPERS=${PAPERS:-"dally fedx nifdy multirail spider dragonfly workloads"}
if [[ "${FULL:-0}" == "1" ]]; then size=--full; profile=(); else size=--quick; profile=(--profile quick); fi
# The matplotlib the figures need is Debian's (scripts/install-deps.sh --with-plots).
PY=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}

# The application-traffic examples of experiments/workloads/ (docs/workloads.md): a GOAL
# schedule, a Netrace and an OTF2 trace replayed, the allreduce algorithms on a dragonfly, and
# the contention study with its table and figure.
workloads() {
  local out="$OUT/workloads"
  mkdir -p "$out"
  for example in goal_ring netrace_mesh otf2_mesh; do
    "$BIN" run -q "experiments/workloads/$example.toml" --json "$out/$example.json" > "$out/$example.txt"
  done
  for study in allreduce_dragonfly contention_dragonfly; do
    "$BIN" sweep "experiments/workloads/$study.toml" "${profile[@]}" --out "$out/$study" -j "$JOBS" -q --resume
  done
  "$PY" -m tools.workloads.contention "$out/contention_dragonfly" "$out" > /dev/null
  echo "Report: $out/contention.md (figure beside it; each example's summary in $out/*.txt)"
}

# The papers' experiments run as one queue (no core idles between them, and a paper's report
# draws while the next paper's experiments run); the workload examples run beside it, so
# that they fill what the queue leaves idle (its last report, its last points).
papers=()
for paper in $PAPERS; do
  [[ "$paper" == workloads ]] || papers+=("$paper")
done
examples=""
if [[ " $PAPERS " == *" workloads "* ]]; then
  workloads &
  examples=$!
fi
if ((${#papers[@]} > 0)); then
  "$BIN" reproduce "${papers[@]}" "$size" --out "$OUT" -j "$JOBS" --source .
  for paper in "${papers[@]}"; do echo "Report: $OUT/$paper/$paper.md (figures beside it)"; done
fi
[[ -z "$examples" ]] || wait "$examples"  # its failure is the job's (set -e)
