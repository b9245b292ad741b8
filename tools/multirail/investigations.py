#!/usr/bin/env python3
"""Table of the multi-rail striping investigation (docs/models/multirail.md).

  python3 -m tools.multirail.investigations nic_costs OUT/multirail_nic_costs

The sweep of experiments/investigations/multirail_striping_nic_costs.toml: per algorithm and
NIC cost, the mean message latency at 64 KB and 5 % load with and without striping, and the
saving striping gives, 1 - striped / unstriped, paired by seed. Prints Markdown.
"""
import os
import sys

from tools.report.seed_stats import Grid, Value, percent

REPRODUCED = "as reproduced"


def nic_costs(directory):
    out, name = os.path.split(directory.rstrip("/"))
    g = Grid(out, name, ["variant"])
    print("| algorithm | NIC cost | latency, unstriped | latency, striped | striping's saving (paired by seed) |")
    print("|---|---|---|---|---|")
    for variant in g.values("variant"):
        algorithm, _, cost = variant.partition("/")
        if algorithm.endswith(", striping"):
            continue
        plain = g.latency(variant=variant)
        striped = g.latency(variant=f"{algorithm}, striping" + (f"/{cost}" if cost else ""))
        if plain is None or striped is None:
            saving = "not below saturation"
        else:
            saving = percent(Value([1 - s / p for s, p in zip(striped.samples, plain.samples)]))
        print(f"| {algorithm} | {cost or REPRODUCED} | {plain.text(0) if plain else '—'} | "
              f"{striped.text(0) if striped else '—'} | {saving} |")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "nic_costs":
        sys.exit(__doc__)
    nic_costs(sys.argv[2])
