#!/usr/bin/env bash
# Writes the generated documents from `icnsim keys`: docs/configuration.md (every key) and
# the registered-parts list in docs/architecture.md. With --check, writes nothing and fails,
# showing the difference, when a committed copy is stale (a test runs it).
# Usage: scripts/generate-docs.sh [--check] [ICNSIM_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [[ "${1:-}" == "--check" ]]; then check=1; shift; fi
bin="${1:-build/icnsim}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" keys --format markdown > "$tmp/configuration.md"
"$bin" keys --parts --format markdown > "$tmp/parts.md"
# The architecture document with the lines between the markers replaced.
awk -v parts="$tmp/parts.md" '
  /^<!-- end parts -->$/ { skipping = 0 }
  !skipping { print }
  /^<!-- parts: generated -->$/ { while ((getline line < parts) > 0) print line; skipping = 1 }
' docs/architecture.md > "$tmp/architecture.md"

status=0
for doc in configuration.md architecture.md; do
  if [[ $check == 1 ]]; then
    if ! diff -u "docs/$doc" "$tmp/$doc"; then
      echo "docs/$doc is stale: run scripts/generate-docs.sh" >&2
      status=1
    fi
  else
    cp "$tmp/$doc" "docs/$doc"
  fi
done
exit $status
