#!/usr/bin/env bash
# Regenerates the golden outputs of tests/golden/*.toml with the built simulator. Run it only
# when a change is meant to alter results, and say in the commit why each one changed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/icnsim}
for config in tests/golden/*.toml; do
  "$BIN" run -q "$config" --json "${config%.toml}.json" > /dev/null
done
git --no-pager diff --stat -- tests/golden || true
