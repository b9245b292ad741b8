#!/usr/bin/env bash
# Shows a run that a memory limit refuses in one process and completes on two MPI ranks,
# each under the same limit, with the one-process result byte for byte (docs/performance.md,
# "Memory per rank"). Each process gets a memory cgroup of its own (v1 or v2 with the memory
# controller), so it needs root; the kernel kills a process that passes its limit.
# Usage: scripts/memory-limit-ranks.sh [LIMIT_MB] [CONFIG]
#   (defaults: 500 and experiments/scale/mesh512_ranks.toml; about a minute on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
limit_mb=${1:-500}
config=${2:-experiments/scale/mesh512_ranks.toml}
[[ -x build/icnsim ]] || { echo "error: build/icnsim is missing: build first (see README)" >&2; exit 1; }
command -v mpirun > /dev/null || { echo "error: mpirun is missing (apt-get install openmpi-bin)" >&2; exit 1; }
if [[ -d /sys/fs/cgroup/memory ]]; then
  base=/sys/fs/cgroup/memory limit_file=memory.limit_in_bytes peak_file=memory.max_usage_in_bytes
elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2> /dev/null; then
  base=/sys/fs/cgroup limit_file=memory.max peak_file=memory.peak
else
  echo "error: no memory cgroup controller under /sys/fs/cgroup" >&2
  exit 1
fi
[[ -w $base ]] || { echo "error: $base is not writable: run as root" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"; rmdir "$base"/icnsim_limit_* 2> /dev/null || true' EXIT
# One process per cgroup: the wrapper moves itself into a fresh one, then runs icnsim.
cat > "$work/limited.sh" << WRAP
#!/bin/sh
cg=$base/icnsim_limit_\$\$
mkdir "\$cg" && echo $((limit_mb * 1048576)) > "\$cg/$limit_file" && echo \$\$ > "\$cg/cgroup.procs" || exit 90
"\$@"
rc=\$?
echo "  process \$\$: exit \$rc, peak \$((\$(cat "\$cg/$peak_file") / 1048576)) MB of $limit_mb MB" >&2
exit \$rc
WRAP
chmod +x "$work/limited.sh"
mpi=(mpirun --oversubscribe)
[[ $(id -u) == 0 ]] && mpi+=(--allow-run-as-root)

echo "1. one process, no limit (the reference result):" >&2
build/icnsim run "$config" -q --json "$work/one.json" > /dev/null
echo "2. one process under $limit_mb MB:" >&2
if "$work/limited.sh" build/icnsim run "$config" -q --json "$work/limited_one.json" > /dev/null 2> "$work/one.err"; then
  echo "error: the run fit in $limit_mb MB in one process: give a smaller limit" >&2
  exit 1
fi
grep "process" "$work/one.err" >&2 || true
echo "3. two ranks, each under $limit_mb MB:" >&2
"${mpi[@]}" -n 2 "$work/limited.sh" build/icnsim run "$config" -q --json "$work/two.json" > /dev/null 2> "$work/two.err" || {
  cat "$work/two.err" >&2
  echo "error: the two-rank run did not complete under $limit_mb MB a rank" >&2
  exit 1
}
grep "process" "$work/two.err" >&2 || true
if cmp -s "$work/one.json" "$work/two.json"; then
  echo "the two-rank result is byte-identical to the one-process result" >&2
else
  echo "error: the two-rank result differs from the one-process result" >&2
  exit 1
fi
