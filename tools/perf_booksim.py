#!/usr/bin/env python3
"""icnsim's speed against BookSim 2 on the same simulated systems (docs/performance.md,
"Against BookSim"): whole processes, set-up included, run in turn (BookSim, icnsim, BookSim,
...) so that a slow minute of the machine hits both, and the wall-time ratio taken pair by
pair. Prints a Markdown table: per system, the median of BookSim's and icnsim's wall times
and of the per-pair ratio BookSim / icnsim, with its range.

  python3 -m tools.perf_booksim --booksim PATH/booksim [--icnsim build/icnsim] [--pairs 3]
      [--only NAME] [--work DIR]

scripts/booksim-compare.sh builds BookSim from a source folder the user gives and calls this.
Each system runs the same network, router pipeline, packets and load in both (the mappings of
docs/models/router.md and docs/models/dragonfly.md). BookSim's windows are a warm-up period
and its samples (max_samples counts the warm-up period too; it stops early once its statistics
converge), then its drain; icnsim's the same cycles, then a drain.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from tools.dragonfly.booksim_reference import SETUP as DRAGONFLY_SETUP

# icnsim's router for the mesh systems: BookSim's pipeline (docs/models/router.md), with
# icnsim's default microarchitecture or with BookSim's (the preset).
MESH_TIMING = "[timing]\nrouter_delay = 3\nbody_delay = 2\ncredit_delay = 2\n"


def mesh(k, preset):
    """A k x k mesh, dimension order, 4 lanes x 8 flits, 20-flit packets, uniform traffic at
    half of capacity, 10,000 + 10,000 cycles."""
    toml = (f'[simulation]\nwarmup_cycles = 10000\nmeasure_cycles = 10000\ndrain_cycles = 20000\n'
            f'[topology]\ntype = "mesh"\nk = {k}\nn = 2\n[routing]\ntype = "dimension_order"\n'
            f'[router]\nlanes = 4\ndepth = 8\n' + ('preset = "booksim"\n' if preset else "") + MESH_TIMING
            + '[traffic]\npacket_length = 20\nload = 0.5\n')
    booksim = dict(topology="mesh", k=k, n=2, routing_function="dim_order", num_vcs=4, vc_buf_size=8,
                   packet_size=20, traffic="uniform", injection_rate_uses_flits=1, sim_type="latency",
                   warmup_periods=1, sample_period=10000, max_samples=2)
    return toml, booksim


def dragonfly(routing):
    """BookSim's dragonfly at its own setup (experiments/dragonfly/booksim_setup.toml), k = 4:
    1,056 terminals, uniform traffic at 0.3, 2,000 + 4,000 cycles."""
    ugal = routing == "ugal"
    toml = ('extends = "{root}/experiments/dragonfly/booksim_setup.toml"\n'
            '[simulation]\nwarmup_cycles = 2000\nmeasure_cycles = 4000\n[traffic]\nload = 0.3\n'
            '[traffic.pattern]\ntype = "uniform"\n[sweep]\n'
            + ('[routing]\ntype = "dragonfly_ugal"\ncongestion = "port"\nweights = "global_hops"\n'
               'threshold = 30\nintermediate = "any_group"\n' if ugal else ""))
    booksim = dict(DRAGONFLY_SETUP, k=4, routing_function="ugal" if ugal else "min", traffic="uniform",
                   injection_rate=0.3, sim_type="latency", warmup_periods=1, sample_period=2000, max_samples=3)
    return toml, booksim


SYSTEMS = {
    "mesh16x16": ("16x16 mesh, icnsim's default router", lambda: mesh(16, False)),
    "mesh8x8": ("8x8 mesh, icnsim's default router", lambda: mesh(8, False)),
    "mesh16x16_booksim": ("16x16 mesh, `router.preset = \"booksim\"`", lambda: mesh(16, True)),
    "dragonfly_min": ("1,056-terminal dragonfly at BookSim's setup, minimal", lambda: dragonfly("min")),
    "dragonfly_ugal": ("1,056-terminal dragonfly at BookSim's setup, UGAL", lambda: dragonfly("ugal")),
}


def wall(command):
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - start
    # BookSim exits with 255 when a run does not converge; its run is still timed whole.
    if done.returncode not in (0, 255) or (command[-1].endswith(".cfg") and "Overall" not in done.stdout):
        sys.exit(f"error: {' '.join(command)} failed (exit {done.returncode}):\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return seconds


def prepare(name, icnsim, work):
    """The two commands of one system: icnsim's configuration, then BookSim's, whose injection
    rate for a mesh is half of the capacity icnsim reports for it."""
    toml, keys = SYSTEMS[name][1]()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    icnsim_file = os.path.join(work, name + ".toml")
    with open(icnsim_file, "w") as f:
        f.write(toml.replace("{root}", root))
    result = os.path.join(work, name + ".json")
    icnsim_command = [icnsim, "run", icnsim_file, "-q", "--json", result]
    subprocess.run(icnsim_command, check=True, capture_output=True)
    if "injection_rate" not in keys:
        with open(result) as f:
            keys["injection_rate"] = 0.5 * json.load(f)["capacity"]
    booksim_file = os.path.join(work, name + ".cfg")
    with open(booksim_file, "w") as f:
        f.write("".join(f"{k} = {v};\n" for k, v in keys.items()))
    return icnsim_command, booksim_file


def compare(name, booksim, icnsim, pairs, work):
    icnsim_command, booksim_file = prepare(name, icnsim, work)
    theirs, ours = [], []
    for _ in range(pairs):
        theirs.append(wall([booksim, booksim_file]))
        ours.append(wall(icnsim_command))
    ratios = [t / o for t, o in zip(theirs, ours)]
    return (f"| {SYSTEMS[name][0]} | {statistics.median(theirs):.2f} | {statistics.median(ours):.3f} | "
            f"{statistics.median(ratios):.1f}x ({min(ratios):.1f}-{max(ratios):.1f}) |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--booksim", required=True, help="a BookSim 2 binary")
    ap.add_argument("--icnsim", default="build/icnsim")
    ap.add_argument("--pairs", type=int, default=3, help="interleaved pairs of runs per system (default 3)")
    ap.add_argument("--only", choices=sorted(SYSTEMS), help="one system")
    ap.add_argument("--work", help="where the configurations go (default: a temporary folder)")
    a = ap.parse_args()
    for path in (a.booksim, a.icnsim):
        if not os.access(path, os.X_OK):
            sys.exit(f"error: {path} is not an executable file")
    if a.pairs < 1:
        sys.exit("error: --pairs must be at least 1")
    print("| system | BookSim 2, s | icnsim, s | BookSim / icnsim (range) |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        work = a.work or scratch
        os.makedirs(work, exist_ok=True)
        for name in [a.only] if a.only else SYSTEMS:
            print(compare(name, a.booksim, a.icnsim, a.pairs, work), flush=True)


if __name__ == "__main__":
    main()
