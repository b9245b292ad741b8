# Sourced by the mpirun tests: their arguments, a scratch directory removed on exit, mpirun's
# arguments for two ranks on this machine, and fail.
# Usage (in a test): source tests/mpi_common.sh ICNSIM MPIRUN
set -euo pipefail
bin=$1
mpirun=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Shared memory between the two ranks (ob1 over vader): UCX's start-up costs a fifth of a
# second per mpirun, and these tests start about twenty.
args=(--oversubscribe -n 2 --mca pml ob1 --mca btl self,vader)
[[ $(id -u) -eq 0 ]] && args+=(--allow-run-as-root)  # CI runs as root
fail() { echo "FAIL: $*" >&2; exit 1; }
