#!/usr/bin/env bash
# Checks that the C++ files changed since .clang-format was added (committed or not) are as
# clang-format writes them. Usage: scripts/check-format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."
fix=false
[[ "${1:-}" == "--fix" ]] && fix=true
command -v clang-format >/dev/null || { echo "check-format: clang-format is missing (make deps-format)" >&2; exit 1; }
adopted=$(git log --diff-filter=A --format=%H -- .clang-format | tail -n 1)
if [[ -n "$adopted" ]] && git rev-parse -q --verify "$adopted^" >/dev/null; then
  changed=$(git diff --name-only --diff-filter=d "$adopted^" -- '*.cc' '*.h')
else  # a shallow clone without that history: the last commit's files
  changed=$(git diff-tree --no-commit-id --name-only --diff-filter=d -r HEAD -- '*.cc' '*.h')
fi
changed+=$'\n'$(git ls-files --others --exclude-standard -- '*.cc' '*.h')
bad=()
for f in $changed; do
  [[ -f "$f" ]] || continue
  if $fix; then
    clang-format -i "$f"
  elif ! clang-format "$f" | cmp -s "$f" -; then
    bad+=("$f")
  fi
done
if ((${#bad[@]} > 0)); then
  echo "check-format: not as clang-format writes them (scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: $(echo "$changed" | grep -c . || true) changed files checked"
