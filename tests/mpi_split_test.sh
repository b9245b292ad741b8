#!/usr/bin/env bash
# One network split over the ranks of `mpirun -n 2 icnsim run` gives the committed result
# of one process (tests/golden), over real MPI processes; a configuration that cannot split
# ends the job with a configuration error that says why.
# Usage: tests/mpi_split_test.sh ICNSIM MPIRUN
source "$(dirname "$0")/mpi_common.sh"
golden="$(cd "$(dirname "$0")" && pwd)/golden"

for name in mesh_cut_through nifdy_fat_tree two_rails_striped hyperx_dal_tornado otf2_mesh schedule_ring_mesh netrace_mesh \
  schedule_jobs_dragonfly; do
  "$mpirun" "${args[@]}" "$bin" run "$golden/$name.toml" --json "$dir/$name.json" -q > "$dir/$name.log" 2>&1 ||
    fail "$name under mpirun: $(cat "$dir/$name.log")"
  cmp -s "$dir/$name.json" "$golden/$name.json" || fail "$name split over 2 ranks differs from one process"
done

set +e
timeout 120 "$mpirun" "${args[@]}" "$bin" run "$golden/fly_synchronous.toml" --json "$dir/fly.json" > "$dir/fly.log" 2>&1
code=$?
set -e
[[ $code -eq 2 ]] || fail "a configuration that cannot split exited $code, expected 2: $(cat "$dir/fly.log")"
grep -q "synchronous timing" "$dir/fly.log" || fail "the error does not say why: $(cat "$dir/fly.log")"
grep -q "^error: .*fly_synchronous.toml: under mpirun" "$dir/fly.log" || fail "the error names no file: $(cat "$dir/fly.log")"
# Every rank refuses alike: the job says it once and ends without MPI_Abort (whose notice
# would follow; mpirun's own of a non-zero exit is silenced by mpirun -q).
[[ $(grep -c "error:" "$dir/fly.log") -eq 1 ]] || fail "the refusal is not said once: $(cat "$dir/fly.log")"
! grep -q "MPI_ABORT" "$dir/fly.log" || fail "a refusal of every rank aborted the job: $(cat "$dir/fly.log")"
[[ ! -e "$dir/fly.json" ]] || fail "a refused run wrote a result"
# bench reports the exchange's volume on two ranks (the scaling report's measurement).
"$mpirun" "${args[@]}" "$bin" bench --only mesh8x8 --cycles 200 --csv "$dir/bench.csv" > "$dir/bench.log" 2>&1 ||
  fail "bench under mpirun: $(cat "$dir/bench.log")"
awk -F, 'NR == 2 && $1 == "mesh8x8" && $2 == 2 && $9 > 0 { ok = 1 } END { exit !ok }' "$dir/bench.csv" ||
  fail "bench on 2 ranks did not report an exchange: $(cat "$dir/bench.csv")"
# With a warm-up, the flit-hops of the timed window are summed over the ranks: those of one process.
"$bin" bench --only mesh8x8 --warmup 100 --cycles 100 --csv "$dir/warm1.csv" > "$dir/warm1.log" 2>&1 ||
  fail "bench with a warm-up: $(cat "$dir/warm1.log")"
"$mpirun" "${args[@]}" "$bin" bench --only mesh8x8 --warmup 100 --cycles 100 --csv "$dir/warm2.csv" > "$dir/warm2.log" 2>&1 ||
  fail "bench with a warm-up under mpirun: $(cat "$dir/warm2.log")"
[[ $(awk -F, 'NR == 2 { print $10 }' "$dir/warm1.csv") == $(awk -F, 'NR == 2 && $2 == 2 { print $10 }' "$dir/warm2.csv") ]] ||
  fail "the timed window's flit-hops differ on 2 ranks: $(cat "$dir/warm1.csv" "$dir/warm2.csv")"

# The run says how the ranks share it: split by terminal, or the NI replicated and why.
"$mpirun" "${args[@]}" "$bin" run "$golden/mesh_cut_through.toml" --json "$dir/note1.json" > "$dir/note1.log" 2>&1 ||
  fail "mesh_cut_through with its notes: $(cat "$dir/note1.log")"
grep -q "^split over 2 ranks by router: each holds its own terminals' NI" "$dir/note1.log" ||
  fail "the run does not say it split by terminal: $(cat "$dir/note1.log")"
"$mpirun" "${args[@]}" "$bin" run "$golden/fly_synchronous.toml" --set 'timing.mode="pipelined"' --json "$dir/note2.json" \
  > "$dir/note2.log" 2>&1 || fail "fly_synchronous pipelined under mpirun: $(cat "$dir/note2.log")"
grep -q 'replicated on every rank (router.arbitration = "oldest_first" reads packet numbers' "$dir/note2.log" ||
  fail "the run does not say why the NI is replicated: $(cat "$dir/note2.log")"

# Longer channels: the same result as one process, with an exchange every 3 cycles (100 for
# 300 cycles); the bench's mesh is split by terminal, so one more sums the measured packets
# at the window's end (it has no drain), and five at the end sum the counts and statistics.
long=(--set timing.channel_latency=4 --set timing.credit_delay=3)
"$bin" run "$golden/nifdy_fat_tree.toml" "${long[@]}" --json "$dir/long1.json" -q > "$dir/long1.log" 2>&1 ||
  fail "nifdy_fat_tree with longer channels: $(cat "$dir/long1.log")"
"$mpirun" "${args[@]}" "$bin" run "$golden/nifdy_fat_tree.toml" "${long[@]}" --json "$dir/long2.json" -q > "$dir/long2.log" 2>&1 ||
  fail "nifdy_fat_tree with longer channels under mpirun: $(cat "$dir/long2.log")"
cmp -s "$dir/long1.json" "$dir/long2.json" || fail "nifdy_fat_tree with longer channels differs on 2 ranks"
"$mpirun" "${args[@]}" "$bin" bench --only mesh8x8 --cycles 300 "${long[@]}" --csv "$dir/long.csv" > "$dir/long.log" 2>&1 ||
  fail "bench with longer channels under mpirun: $(cat "$dir/long.log")"
awk -F, 'NR == 2 && $12 == 106 { ok = 1 } END { exit !ok }' "$dir/long.csv" ||
  fail "bench with a lookahead of 3 did not exchange 106 times: $(cat "$dir/long.csv")"
echo "mpi split: 4 networks (one reading queues at other routers) on 2 ranks identical to one process, and one with longer channels (an exchange per 3 cycles);" \
  "an unsplittable one refused; bench counts the exchange and the window's flit-hops"
