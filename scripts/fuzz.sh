#!/usr/bin/env bash
# Builds the libFuzzer target over the configuration loader and validate with clang
# (AddressSanitizer and UBSan on) and runs it for a bounded time from the committed corpus
# (fuzz/corpus/config). Fails on any crash, sanitizer report, uncaught exception or hang.
# Usage: scripts/fuzz.sh [SECONDS]   (default 60; FUZZ_BUILD=dir to change the build dir)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${FUZZ_BUILD:-build-fuzz}
bash scripts/install-deps.sh --with-fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DICNSIM_FUZZ=ON -DICNSIM_BUILD_TESTS=OFF > /dev/null
cmake --build "$build" -j "$(nproc)" --target icnsim_fuzz_config
# New inputs go to a scratch corpus, so the committed one changes only by hand.
work="$build/corpus"
mkdir -p "$work" "$build/artifacts"
"$build/icnsim_fuzz_config" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -max_len=4096 \
  -artifact_prefix="$build/artifacts/" -print_final_stats=1 "$work" fuzz/corpus/config
