#!/usr/bin/env bash
# A sweep under `mpirun -n 2` writes byte-identical results to the same sweep in one
# process, both ranks run points, --resume under mpirun reruns only what is missing, and a
# failure on any rank ends the whole job with the failure's exit code (no rank left waiting).
# Usage: tests/mpi_sweep_test.sh ICNSIM MPIRUN
source "$(dirname "$0")/mpi_common.sh"
config="$(cd "$(dirname "$0")" && pwd)/mpi/sweep.toml"

"$bin" sweep "$config" --out "$dir/one" -q -j 1
"$mpirun" "${args[@]}" "$bin" sweep "$config" --out "$dir/two" -j 1 2> "$dir/two.log"
diff -r "$dir/one" "$dir/two" || fail "results under mpirun differ from one process"
grep -q "points run per rank (0: [0-9]*, 1: [1-9]" "$dir/two.log" || fail "rank 1 ran no point: $(cat "$dir/two.log")"

rm "$dir/two/points/00002.json" "$dir/two/points/00005.json"
"$mpirun" "${args[@]}" "$bin" sweep "$config" --out "$dir/two" -j 1 --resume 2> "$dir/resume.log"
grep -q "resume: 6 of 8 points finished and verified, 2 to run" "$dir/resume.log" || fail "resume: $(cat "$dir/resume.log")"
diff -r "$dir/one" "$dir/two" || fail "resumed results under mpirun differ from one process"

set +e
timeout 120 "$mpirun" "${args[@]}" "$bin" sweep "$config" --out "$dir/bad" --set router.lanes=0 > "$dir/bad.log" 2>&1
code=$?
set -e
[[ $code -eq 2 ]] || fail "a bad configuration under mpirun exited $code, expected 2: $(cat "$dir/bad.log")"
grep -q "router.lanes" "$dir/bad.log" || fail "the error does not name the key: $(cat "$dir/bad.log")"
echo "mpi sweep: identical to one process, both ranks ran points, resume and failure behave"
