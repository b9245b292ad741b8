#!/usr/bin/env bash
# Times icnsim against BookSim 2 on the same simulated systems and prints the table of
# docs/performance.md ("Against BookSim"). BookSim is not part of icnsim: give the folder of a
# BookSim 2 source tree you fetched yourself; it is copied to a temporary folder and built
# there with its own Makefile (-O3), never inside this tree.
# Usage: scripts/booksim-compare.sh BOOKSIM_SOURCE_DIR [--pairs N] [--only SYSTEM]
#   (the options go to python3 -m tools.perf_booksim; about seven minutes on 2 cores with 3 pairs)
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 BOOKSIM_SOURCE_DIR [--pairs N] [--only SYSTEM]" >&2; exit 2; }
source_dir=$1
shift
[[ -f $source_dir/src/Makefile ]] || {
  echo "error: $source_dir/src/Makefile is missing: give the top folder of a BookSim 2 source tree" >&2
  exit 1
}
for tool in make g++ flex bison; do
  command -v $tool > /dev/null || { echo "error: $tool is missing (apt-get install build-essential flex bison)" >&2; exit 1; }
done
cd "$(dirname "$0")/.."
[[ -x build/icnsim ]] || { echo "error: build/icnsim is missing: build first (see README)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir" "$work/booksim"
echo "building BookSim in $work/booksim/src ..." >&2
make -C "$work/booksim/src" -j "$(nproc)" > "$work/build.log" 2>&1 || {
  tail -20 "$work/build.log" >&2
  echo "error: BookSim did not build (log above)" >&2
  exit 1
}
python3 -m tools.perf_booksim --booksim "$work/booksim/src/booksim" --icnsim build/icnsim "$@"
