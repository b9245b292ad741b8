#!/usr/bin/env python3
"""Runs the same networks in BookSim 2 and in icnsim with router.preset = "booksim" and prints
the two side by side (docs/models/router.md, "Checked against BookSim 2").

  python3 -m tools.router.booksim_crosscheck --booksim PATH/booksim [--icnsim build/icnsim]
      [--seeds 3] [--jobs 2] [--work DIR] [--only mesh] [--resume]

BookSim is not a dependency of icnsim: build it yourself and pass its binary. Each case is a
16x16 mesh (dimension order) or a 2-ary 8-fly (destination tag) with 20-flit packets and
uniform destinations, run with BookSim 2's defaults (iSLIP VC and switch allocators, one
iteration, one cycle per pipeline stage, no speculation) and in icnsim with the preset,
`router_delay = 3`, `body_delay = 2` and `credit_delay = 2` (the mapping of docs/models/router.md). Saturation
cases offer 1 flit per cycle per node (BookSim's sources queue without bound; icnsim's
saturation sources); latency cases offer a fraction of the capacity icnsim computes for the
network, as Bernoulli packet arrivals in both. Accepted throughput is a fraction of that
capacity; latency is from a packet's creation to its tail's arrival, in cycles. Mean ± 95 %
interval over seeds.
"""
import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys

from tools.report.value import Value

NETWORKS = {
    "mesh": ("16x16 mesh", {"topology": "mesh", "k": 16, "n": 2, "routing_function": "dim_order"},
             '[topology]\ntype = "mesh"\nk = 16\n[routing]\ntype = "dimension_order"\n'),
    "fly": ("2-ary 8-fly", {"topology": "fly", "k": 2, "n": 8, "routing_function": "dest_tag"},
            '[topology]\ntype = "fly"\nk = 2\nn = 8\n[routing]\ntype = "destination_tag"\n'),
}
SATURATION = None  # the load of a saturation case


def cases():
    """(network, lanes, depth, load): load None for saturation throughput."""
    out = []
    for net in ("mesh", "fly"):
        for lanes, depth in ((1, 32), (2, 16), (4, 8), (8, 4), (4, 4), (8, 2)):
            out.append((net, lanes, depth, SATURATION))
    for load in (0.01, 0.2, 0.5, 0.7):
        out.append(("mesh", 4, 8, load))
    return out


def case_name(case):
    net, lanes, depth, load = case
    what = "saturation" if load is SATURATION else f"latency at {load:g}"
    return f"{NETWORKS[net][0]}, {lanes} x {depth}, {what}"


def icnsim_config(case, seeds):
    net, lanes, depth, load = case
    traffic = ('process = "saturation"\n' if load is SATURATION else f"load = {load}\n")
    cycles = ("warmup_cycles = 3000\nmeasure_cycles = 6000\ndrain_cycles = 0\n" if load is SATURATION
              else "warmup_cycles = 3000\nmeasure_cycles = 10000\ndrain_cycles = 20000\n")
    return (f'[simulation]\ndescription = "{case_name(case)}"\n{cycles}{NETWORKS[net][2]}'
            f'[router]\nlanes = {lanes}\ndepth = {depth}\npreset = "booksim"\n[timing]\nrouter_delay = 3\nbody_delay = 2\ncredit_delay = 2\n'
            f'[traffic]\npacket_length = 20\n{traffic}'
            f'[sweep]\n"simulation.seed" = [{", ".join(str(s) for s in seeds)}]\n')


def run_icnsim(icnsim, case, seeds, work, resume):
    path = os.path.join(work, "icnsim_" + "_".join(str(x) for x in case))
    os.makedirs(path, exist_ok=True)
    with open(path + ".toml", "w") as f:
        f.write(icnsim_config(case, seeds))
    subprocess.run([icnsim, "sweep", path + ".toml", "-j", "1", "--out", path, "-q"] + (["--resume"] if resume else []),
                   check=True)
    with open(os.path.join(path, "results.csv")) as f:
        rows = list(csv.DictReader(f))
    capacity = float(rows[0]["offered"]) / float(rows[0]["offered_fraction"]) if float(rows[0]["offered_fraction"]) else None
    return {"accepted": Value([float(r["accepted_fraction"]) for r in rows]),
            "latency": Value([float(r["latency_mean"]) for r in rows]), "capacity": capacity}


def booksim_config(case, seed, capacity):
    net, lanes, depth, load = case
    keys = dict(NETWORKS[net][1], num_vcs=lanes, vc_buf_size=depth, packet_size=20, traffic="uniform",
                injection_rate_uses_flits=1, seed=seed)
    if load is SATURATION:
        keys.update(injection_rate=1.0, sim_type="throughput", latency_thres=-1.0,
                    sample_period=3000, warmup_periods=1, max_samples=2)
    else:
        keys.update(injection_rate=load * capacity)
    return keys


OVERALL = re.compile(r"====== Overall Traffic Statistics ======(.*)", re.S)


def overall_stat(text, name):
    block = OVERALL.search(text)
    if not block:
        raise RuntimeError("BookSim printed no overall statistics:\n" + text[-2000:])
    return float(re.search(re.escape(name) + r" average = ([0-9.eE+-]+)", block.group(1)).group(1))


def run_booksim_keys(booksim, keys, path, resume):
    """Runs BookSim on a configuration of `keys` written to path + ".cfg"; its output, kept in
    path + ".out" (reused with `resume`)."""
    with open(path + ".cfg", "w") as f:
        f.write("".join(f"{k} = {v};\n" for k, v in keys.items()))
    out = path + ".out"
    if not (resume and os.path.exists(out)):
        # BookSim exits with 255 when a run does not converge; its statistics are still printed.
        text = subprocess.run([booksim, path + ".cfg"], capture_output=True, text=True).stdout
        with open(out, "w") as f:
            f.write(text)
    with open(out) as f:
        return f.read()


def run_booksim(booksim, case, seed, capacity, work, resume):
    path = os.path.join(work, "booksim_" + "_".join(str(x) for x in case) + f"_{seed}")
    text = run_booksim_keys(booksim, booksim_config(case, seed, capacity), path, resume)
    return overall_stat(text, "Accepted flit rate") / capacity, overall_stat(text, "Packet latency")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--booksim", required=True, help="a BookSim 2 binary")
    ap.add_argument("--icnsim", default="build/icnsim")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", default="out/booksim_crosscheck")
    ap.add_argument("--resume", action="store_true", help="reuse the runs already in --work")
    ap.add_argument("--only", default="", help="run only cases whose network starts with this")
    a = ap.parse_args()
    for binary in (a.booksim, a.icnsim):
        if not os.access(binary, os.X_OK):
            sys.exit(f"{binary}: not an executable")
    if os.path.exists(a.work) and not a.resume:
        sys.exit(f"{a.work}: exists; pass --resume to reuse its runs or choose another --work")
    os.makedirs(a.work, exist_ok=True)
    seeds = list(range(1, a.seeds + 1))
    todo = [c for c in cases() if c[0].startswith(a.only)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        ours = dict(zip(todo, pool.map(lambda c: run_icnsim(a.icnsim, c, seeds, a.work, a.resume), todo)))
        jobs = {(c, s): pool.submit(run_booksim, a.booksim, c, s, ours[c]["capacity"], a.work, a.resume)
                for c in todo for s in seeds}
        theirs = {k: j.result() for k, j in jobs.items()}
    print("| case | BookSim 2 | icnsim, preset | icnsim / BookSim |\n|---|---|---|---|")
    for c in todo:
        metric, index = ("accepted", 0) if c[3] is SATURATION else ("latency", 1)
        bs = Value([theirs[(c, s)][index] for s in seeds])
        us = ours[c][metric]
        ratios = Value([u / theirs[(c, s)][index] for u, s in zip(us.samples, seeds)])
        digits = 3 if metric == "accepted" else 1
        print(f"| {case_name(c)} | {bs.text(digits)} | {us.text(digits)} | {ratios.text(3)} |")


if __name__ == "__main__":
    main()
