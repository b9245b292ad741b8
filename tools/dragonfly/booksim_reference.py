#!/usr/bin/env python3
"""Runs BookSim 2's dragonfly at its own setup and writes what it measures, case by case and
seed by seed, to a CSV that the dragonfly report sets beside icnsim's runs of the same setup
(experiments/dragonfly/booksim_setup.toml; docs/models/dragonfly.md, "A second reference").

  python3 -m tools.dragonfly.booksim_reference --booksim PATH/booksim --k 4 [--seeds 2]
      [--jobs 1] [--work DIR] [--resume] [--csv FILE]

BookSim is not a dependency of icnsim: build it yourself and pass its binary. --k 4 is the
full report's network (1,056 terminals), --k 2 the quick report's (72). The setup is BookSim's
src/examples/dragonflyconfig with three lanes (its UGAL needs them) and no internal speedup,
which icnsim does not model. Latency cases run BookSim's latency mode (3,000 warm-up cycles
and one 3,000-cycle sample: max_samples = 2 counts the warm-up period); accepted-load cases its
throughput mode over the same windows. Accepted load is a fraction of one flit per terminal per cycle; latency is from a
packet's creation to its tail's arrival, in cycles.
"""
import argparse
import concurrent.futures
import csv
import os
import sys

from tools.router.booksim_crosscheck import overall_stat, run_booksim_keys

# BookSim's dragonfly example, with three lanes and no internal speedup.
SETUP = dict(topology="dragonflynew", n=1, num_vcs=3, vc_buf_size=256, wait_for_tail_credit=0,
             vc_allocator="separable_input_first", sw_allocator="separable_input_first", alloc_iters=1,
             credit_delay=2, routing_delay=0, vc_alloc_delay=1, sw_alloc_delay=1, st_final_delay=1,
             input_speedup=1, output_speedup=1, internal_speedup=1.0, priority="none", packet_size=10,
             injection_rate_uses_flits=1, sample_period=3000, warmup_periods=1, max_samples=2)
ROUTINGS = {"MIN": "min", "UGAL-L": "ugal"}
PATTERNS = {"uniform": "uniform", "group_shift": "bad_dragon"}
# (routing, pattern, offered load, what the case compares): latency below saturation, accepted
# load at or past it.
CASES = [("MIN", "uniform", 0.3, "latency"), ("UGAL-L", "uniform", 0.3, "latency"),
         ("MIN", "uniform", 0.9, "accepted"), ("UGAL-L", "uniform", 0.9, "accepted"),
         ("MIN", "group_shift", 0.2, "accepted"), ("UGAL-L", "group_shift", 0.1, "latency"),
         ("UGAL-L", "group_shift", 0.3, "accepted"), ("UGAL-L", "group_shift", 0.5, "accepted")]
COLUMNS = ["k", "routing", "pattern", "load", "metric", "seed", "accepted", "latency"]


def keys_of(k, case, seed):
    routing, pattern, load, metric = case
    keys = dict(SETUP, k=k, routing_function=ROUTINGS[routing], traffic=PATTERNS[pattern], injection_rate=load,
                seed=seed)
    keys.update(sim_type="latency" if metric == "latency" else "throughput")
    if metric == "accepted":
        keys.update(latency_thres=-1.0)  # past saturation: measure, do not stop as unstable
    return keys


def run_case(booksim, k, case, seed, work, resume):
    path = os.path.join(work, f"k{k}_" + "_".join(str(x) for x in case) + f"_{seed}")
    text = run_booksim_keys(booksim, keys_of(k, case, seed), path, resume)
    routing, pattern, load, metric = case
    return dict(k=k, routing=routing, pattern=pattern, load=load, metric=metric, seed=seed,
                accepted=overall_stat(text, "Accepted flit rate"), latency=overall_stat(text, "Packet latency"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--booksim", required=True, help="a BookSim 2 binary")
    ap.add_argument("--k", type=int, default=4, help="BookSim's k: p = h = k, a = 2k")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--work", default="out/booksim_dragonfly")
    ap.add_argument("--resume", action="store_true", help="reuse the runs already in --work")
    ap.add_argument("--csv", help="where to write the rows (default: print them)")
    a = ap.parse_args()
    if not os.access(a.booksim, os.X_OK):
        sys.exit(f"{a.booksim}: not an executable")
    if os.path.exists(a.work) and not a.resume:
        sys.exit(f"{a.work}: exists; pass --resume to reuse its runs or choose another --work")
    os.makedirs(a.work, exist_ok=True)
    todo = [(case, seed) for case in CASES for seed in range(1, a.seeds + 1)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(lambda cs: run_case(a.booksim, a.k, cs[0], cs[1], a.work, a.resume), todo))
    out = open(a.csv, "w", newline="") if a.csv else sys.stdout
    writer = csv.DictWriter(out, COLUMNS)
    writer.writeheader()
    writer.writerows(rows)
    if a.csv:
        out.close()


if __name__ == "__main__":
    main()
