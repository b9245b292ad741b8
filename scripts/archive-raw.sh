#!/usr/bin/env bash
# Packs a report's raw results (each experiment's resolved config, results.csv and one JSON
# per point, and the run's manifest) into DEST (default: OUT_DIR/raw.tar.xz), so that a
# committed report can be checked and regenerated without rerunning it:
#   mkdir d && tar -xJf raw.tar.xz -C d && python3 -m tools.PAPER.report d
# Usage: scripts/archive-raw.sh OUT_DIR [DEST]
set -euo pipefail
out=${1:?usage: scripts/archive-raw.sh OUT_DIR [DEST]}
dest=${2:-$out/raw.tar.xz}
[[ -f "$out/manifest.json" ]] || { echo "archive-raw: $out/manifest.json: not a reproduce output directory" >&2; exit 2; }
dirs=()
for d in "$out"/*/; do
  [[ -f "$d/results.csv" ]] && dirs+=("$(basename "$d")")
done
(( ${#dirs[@]} )) || { echo "archive-raw: $out: no experiment with results.csv" >&2; exit 2; }
tmp=$(mktemp "${dest}.XXXXXX")
trap 'rm -f "$tmp"' EXIT
tar -C "$out" -cf - --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 manifest.json "${dirs[@]}" \
  | xz -9 -T1 > "$tmp"
mv "$tmp" "$dest"
trap - EXIT
echo "archive-raw: ${#dirs[@]} experiments in $dest ($(du -h "$dest" | cut -f1))"
