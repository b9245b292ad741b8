#!/usr/bin/env python3
"""Table of the Fed-X capacity ablation (docs/models/fedx.md).

  python3 -m tools.fedx.investigations ablation OUT/fedx_ablation

The sweep of experiments/investigations/fedx_capacity_ablation.toml: per variant, the
highest density below saturation (accepted at least 0.95 of offered, per seed), accepted
throughput (packets per packet time per node) at each density, and at the highest density
the share of link capacity carrying data and held by NACKs (router counters link_data and
link_nack: cycles per cycle per switch; a switch has six links, shared by two switches when
half-duplex). Prints Markdown.
"""
import os
import sys

from tools.report.seed_stats import Grid

RATE = "traffic.rate"


def link_share(counter):
    def f(j):
        channels = 3.0 if j["config"].get("router.links", "half_duplex").strip('"') == "half_duplex" else 6.0
        return j["router_counters"][counter]["mean"] / channels
    return f


def ablation(directory):
    out, name = os.path.split(directory.rstrip("/"))
    g = Grid(out, name, ["variant", RATE], order={RATE: float}, load=RATE)
    rates = g.values(RATE)
    top = rates[-1]
    print("| variant | attainable u | " + " | ".join(f"u = {x:g}" for x in rates)
          + f" | data share at u = {top:g} | NACK share at u = {top:g} |")
    print("|" + "---|" * (len(rates) + 4))
    for variant in g.values("variant"):
        cells = []
        for x in rates:
            where = {"variant": variant, RATE: x}
            cells.append("stuck" if g.errors(**where) else g.value(lambda j: j["accepted"], **where).text())
        where = {"variant": variant, RATE: top}
        counted = g.seeds(**where) and all("link_data" in j.get("router_counters", {}) for j in g.seeds(**where).values())
        shares = ["—", "—"] if g.errors(**where) or not counted else [
            g.value(link_share(c), **where).text(2) for c in ("link_data", "link_nack")]
        print(f"| {variant} | {g.knee_text(variant=variant)} | " + " | ".join(cells) + " | " + " | ".join(shares) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "ablation":
        sys.exit(__doc__)
    ablation(sys.argv[2])
