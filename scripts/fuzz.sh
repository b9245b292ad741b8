#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzzer.cc: the configuration loader and validate, and
# the GOAL, graph-file, placement-file, Netrace and OTF2 readers) with clang, AddressSanitizer
# and UBSan on, and runs each for a bounded time from its committed corpus (fuzz/corpus/NAME).
# Fails on any crash, sanitizer report, uncaught exception or hang.
# The build is the sanitized suite's (make test-sanitize): one clang build with ASan, UBSan
# and libFuzzer's coverage serves both.
# Usage: scripts/fuzz.sh [SECONDS]   (default 60 per target; FUZZ_BUILD=dir, default build-asan)
#        scripts/fuzz.sh --configure-only   (configures the build and stops)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${FUZZ_BUILD:-build-asan}
bash scripts/install-deps.sh --with-fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DICNSIM_SANITIZE=ON \
  -DICNSIM_FUZZ=ON > /dev/null
[[ $seconds == --configure-only ]] && exit 0
targets=(config goal graph placement netrace otf2)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/icnsim_fuzz_}"
# Each target for SECONDS from its committed corpus fuzz/corpus/NAME; new inputs go to a
# scratch corpus, so the committed one changes only by hand.
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
for name in "${targets[@]}"; do
  work="$build/corpus/$name"
  mkdir -p "$work" "$build/artifacts/$name"
  echo "fuzz: $name for ${seconds}s"
  "$build/icnsim_fuzz_$name" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -max_len=16384 \
    -artifact_prefix="$build/artifacts/$name/" -print_final_stats=1 "$work" "fuzz/corpus/$name"
done
