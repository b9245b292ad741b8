#!/usr/bin/env bash
# Runs experiments/topologies/dragonfly_links.toml (the dragonfly's worst case under minimal
# and UGAL-L routing, link statistics on) and draws each routing's link heat map, busiest
# links over time and links.csv into OUT/<routing>/ (tools/links/plot_links.py).
# FULL=1: the experiment's own windows (about a minute on 2 cores); default its quick profile.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/icnsim}
OUT=${1:-out/links}
profile=(--profile quick)
if [[ "${FULL:-0}" == "1" ]]; then profile=(); fi
"$BIN" sweep experiments/topologies/dragonfly_links.toml "${profile[@]}" --out "$OUT/run" -j "${JOBS:-$(nproc)}" -q --force
# results.csv: point, routing.type, ... ; each point's JSON holds its link statistics.
tail -n +2 "$OUT/run/results.csv" | while IFS=, read -r point routing _; do
  file=$(printf '%s/run/points/%05d.json' "$OUT" "$point")
  /usr/bin/env python3 -m tools.links.plot_links "$file" --out "$OUT/$routing" \
    --title "1,056-terminal dragonfly, group_shift at 0.1 of capacity: $routing" | tail -n 1
done
