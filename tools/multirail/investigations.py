#!/usr/bin/env python3
"""Tables of the multi-rail investigations (docs/models/multirail.md).

  python3 -m tools.multirail.investigations nic_costs OUT/multirail_nic_costs
  python3 -m tools.multirail.investigations one_kb OUT/multirail_1kb_rails

The sweep of experiments/investigations/multirail_striping_nic_costs.toml: per algorithm and
NIC cost, the mean message latency at 64 KB and 5 % load with and without striping, and the
saving striping gives, 1 - striped / unstriped, paired by seed.
one_kb: experiments/investigations/multirail_1kb_rails.toml: per NIC thread cost, the maximum
accepted load (over the offered loads swept) on the fewest and the most rails, and their ratio
paired by seed (loads are fractions of all of a node's rails: 1 is linear growth). Prints
Markdown.
"""
import os
import sys

from tools.report.seed_stats import Grid, Value, percent, ratio

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


RAILS, THREAD, LOAD = "network.rails", "nic.thread_cycles", "traffic.load"
SIZE = "traffic.message_length[0].mean_packets"


def one_kb(directory):
    out, name = os.path.split(directory.rstrip("/"))
    g = Grid(out, name, [RAILS, THREAD, LOAD, SIZE], order={RAILS: float, THREAD: float, LOAD: float}, load=LOAD)
    size = g.values(SIZE)[0]
    one, most = g.values(RAILS)[0], g.values(RAILS)[-1]
    print(f"| NIC thread cycles | max accepted, {one} rail | max accepted, {most} rails | {most} rails / {one} rail |")
    print("|---|---|---|---|")
    for cycles in g.values(THREAD):
        few, many = (g.max_accepted(**{RAILS: r, THREAD: cycles, SIZE: size}) for r in (one, most))
        print(f"| {cycles} | {few.text()} | {many.text()} | {ratio(many, few).text(2)} |")


COMMANDS = {"nic_costs": nic_costs, "one_kb": one_kb}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](sys.argv[2])
