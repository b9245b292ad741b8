#!/usr/bin/env bash
# Measures how the simulator scales and writes the report (docs/performance/scaling/scaling.md,
# quoted in docs/performance.md): speed-up with threads and with MPI ranks (also with channels and credits of 4
# cycles, so that the ranks exchange every 4 cycles), the bytes the ranks exchange per
# cycle against the scaling model (at 2 to 8 ranks, oversubscribed: volume does not depend
# on cores), and cost and memory growth from an 8x8 to a 1024x1024 mesh. Timing runs are
# interleaved round by round, so that a slow minute of the machine hits every variant.
# About ten minutes on 2 cores with the default 3 rounds (the 512x512 mesh's warm-up takes
# about four of them).
# Usage: scripts/scaling.sh [OUT_DIR]   (default docs/performance/scaling; ROUNDS=n to change)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/performance/scaling}
rounds=${ROUNDS:-3}
bin=build/icnsim
[[ -x $bin ]] || { echo "error: $bin is missing: build first (see README)" >&2; exit 1; }
command -v mpirun > /dev/null || { echo "error: mpirun is missing: bash scripts/install-deps.sh" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpi=(mpirun --oversubscribe)
long=(--set timing.channel_latency=4 --set timing.credit_delay=4)  # a lookahead of 4 cycles
[[ $(id -u) -eq 0 ]] && mpi+=(--allow-run-as-root)

# record FILE COMMAND...: runs COMMAND (an `icnsim bench` line) with --csv and appends its
# rows to FILE (a CSV with one header).
record() {
  local file=$1
  shift
  "$@" --csv "$work/one.csv" > /dev/null
  [[ -s $file ]] || head -1 "$work/one.csv" > "$file"
  tail -n +2 "$work/one.csv" >> "$file"
}

for round in $(seq "$rounds"); do
  echo "round $round of $rounds: threads and ranks"
  for c in "mesh16x16 20000" "mesh64x64 4000" "torus16x3 2000"; do
    set -- $c
    record "$work/threads.csv" "$bin" bench --only "$1" --cycles "$2"
    record "$work/threads.csv" "$bin" bench --only "$1" --cycles "$2" --threads 2
    record "$work/ranks.csv" "$bin" bench --only "$1" --cycles "$2"
    record "$work/ranks.csv" "${mpi[@]}" -n 2 "$bin" bench --only "$1" --cycles "$2"
  done
  for c in "mesh16x16 20000" "torus16x3 2000"; do
    set -- $c
    record "$work/ranks.csv" "$bin" bench --only "$1" --cycles "$2" "${long[@]}"
    record "$work/ranks.csv" "${mpi[@]}" -n 2 "$bin" bench --only "$1" --cycles "$2" "${long[@]}"
  done
done

echo "exchange volume at 2 to 8 ranks"
# Two lengths each: the report takes the bytes between their ends (the network filled).
for c in "mesh16x16 2000 20000 2 3 4 8" "torus16x3 1000 3000 2 4 8"; do
  set -- $c
  for n in "${@:4}"; do
    for cycles in "$2" "$3"; do record "$work/exchange.csv" "${mpi[@]}" -n "$n" "$bin" bench --only "$1" --cycles "$cycles"; done
  done
done
for n in 2 4 8; do
  for cycles in 2000 20000; do
    record "$work/exchange.csv" "${mpi[@]}" -n "$n" "$bin" bench --only mesh16x16 --cycles "$cycles" "${long[@]}"
  done
done

# Each network timed full: a warm-up of about 8 k cycles fills a k x k mesh at this load
# (the report checks the fill). The 1024x1024 mesh would need about 8 000 cycles of a third
# of a second each: it is timed from empty, for its memory, and the report says so.
echo "cost growth with network size"
for c in "mesh8x8 20000 1000" "mesh16x16 20000 1000" "mesh32x32 4000 1000" "mesh64x64 2000 1000" \
         "mesh128x128 400 1500" "mesh256x256 100 2000" "mesh512x512 20 4000" "mesh1024x1024 50 0" \
         "torus16x3 2000 1000"; do
  set -- $c
  record "$work/sizes.csv" "$bin" bench --only "$1" --cycles "$2" --warmup "$3"
done

for f in threads ranks exchange sizes; do cp "$work/$f.csv" "$out/$f.csv.tmp" && mv "$out/$f.csv.tmp" "$out/$f.csv"; done
/usr/bin/python3 -m tools.scaling_report "$out"
echo "wrote $out/scaling.md"
