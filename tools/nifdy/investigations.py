#!/usr/bin/env python3
"""Tables of the NIFDY investigations (docs/models/nifdy.md).

  python3 -m tools.nifdy.investigations ack_on OUT
  python3 -m tools.nifdy.investigations cm5 OUT
  python3 -m tools.nifdy.investigations pool OUT

ack_on: the sweeps of experiments/investigations/nifdy_ack_on_<network>.toml as
OUT/nifdy_ack_on_<network>: packets delivered with the ack sent on accept (the paper's
protocol) and on arrival (its footnote 2), and their ratio seed by seed.
cm5: OUT/nifdy_cm5_multiplexing (nifdy_cm5_multiplexing.toml): packets delivered with the
two logical networks multiplexed on demand and strictly, and NIFDY's gain under each.
pool: OUT/nifdy_pool_beyond_16 (nifdy_pool_beyond_16.toml): per processor cost, traffic and O,
packets delivered at each pool size B relative to B = 16 (Table 3's largest), seed by seed.
Prints Markdown.
"""
import glob
import os
import sys

from tools.report import verdict as vd
from tools.report.seed_stats import Grid, combine


def ack_on(out):
    print("| network | traffic | ack on accept | ack on arrival | arrival / accept |")
    print("|---|---|---|---|---|")
    for directory in sorted(glob.glob(os.path.join(out, "nifdy_ack_on_*"))):
        name = os.path.basename(directory)
        g = Grid(out, name, ["traffic", "nic.ack_on"])
        for traffic in g.values("traffic"):
            accept, arrival = (g.value(lambda j: j["delivered_packets"], traffic=traffic, **{"nic.ack_on": a})
                               for a in ("accept", "arrival"))
            print(f"| {name[len('nifdy_ack_on_'):]} | {traffic} | {accept.text(0)} | {arrival.text(0)} | "
                  f"{combine(lambda x, y: y / x, accept, arrival).text(3)} |")


def cm5(out):
    g = Grid(out, "nifdy_cm5_multiplexing", ["traffic", "ni", "router.network_multiplexing"])
    modes = ("demand", "strict")
    print("| traffic | NI | on demand | strict | strict / demand |")
    print("|---|---|---|---|---|")
    delivered = {}
    for traffic in g.values("traffic"):
        for ni in g.values("ni"):
            for m in modes:
                delivered[(traffic, ni, m)] = g.value(lambda j: j["delivered_packets"], traffic=traffic, ni=ni,
                                                      **{"router.network_multiplexing": m})
            d, s = (delivered[(traffic, ni, m)] for m in modes)
            print(f"| {traffic} | {ni} | {d.text(0)} | {s.text(0)} | {combine(lambda a, b: b / a, d, s).text(3)} |")
    print()
    print("| traffic | NIFDY / none, on demand | NIFDY / none, strict |")
    print("|---|---|---|")
    for traffic in g.values("traffic"):
        gains = [combine(lambda a, b: b / a, delivered[(traffic, "none", m)], delivered[(traffic, "NIFDY", m)]).text(3)
                 for m in modes]
        print(f"| {traffic} | {gains[0]} | {gains[1]} |")


def pool(out):
    g = Grid(out, "nifdy_pool_beyond_16", ["cost", "traffic", "nic.O", "nic.B"], order={"nic.B": int, "nic.O": int})
    pools = g.values("nic.B")
    print("| processor T_send/T_receive | traffic | O | " + " | ".join(f"B = {b} / B = 16" for b in pools)
          + " | B = 64 against B = 16 (paired) |")
    print("|" + "---|" * (len(pools) + 4))
    for cost in g.values("cost"):
        for traffic in g.values("traffic"):
            for o in g.values("nic.O"):
                at = {b: g.value(lambda j: j["delivered_packets"], cost=cost, traffic=traffic,
                                 **{"nic.O": o, "nic.B": b}) for b in pools}
                ratios = [vd.paired_ratio(at[b], at[16]).text(3) for b in pools]
                larger = vd.greater(at[pools[-1]], at[16])
                sense = ("more" if larger.holds else "fewer" if vd.greater(at[16], at[pools[-1]]).holds
                         else "not decided")
                print(f"| {cost} | {traffic} | {o} | " + " | ".join(ratios) + f" | {sense} |")


if __name__ == "__main__":
    commands = {"ack_on": ack_on, "cm5": cm5, "pool": pool}
    if len(sys.argv) != 3 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](sys.argv[2])
