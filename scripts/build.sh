#!/usr/bin/env bash
# Builds icnsim (Release, in BUILD) once what compiling needs is installed; the packages that
# only running needs (scripts/install-deps.sh --only-python) are installed meanwhile, beside
# the compiler: unpacking them is most of an install's minute, and the compiler leaves room.
# Usage: scripts/build.sh [BUILD [JOBS [TARGET]]]   (TARGET: all, or simulator for make run)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${2:-$(nproc)}
target=${3:-all}
bash scripts/install-deps.sh --only-build
mkdir -p "$build"
log="$build/install-python.log"
installing=""
if [[ $(id -u) -eq 0 ]] || sudo -n true 2> /dev/null; then  # in the background only where no password is asked
  bash scripts/install-deps.sh --only-python > "$log" 2>&1 &
  installing=$!
else
  bash scripts/install-deps.sh --only-python
fi
status=0
{ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build "$build" -j "$jobs" --target "$target"; } ||
  status=$?
if [[ -n $installing ]]; then
  wait "$installing" || { cat "$log" >&2; echo "build: installing the Python packages failed ($log)" >&2; exit 1; }
  cat "$log"
fi
exit $status
