#!/usr/bin/env python3
"""Table of the Fed-X capacity ablation (docs/models/fedx.md).

  python3 -m tools.fedx.investigations ablation OUT/fedx_ablation

The sweep of experiments/investigations/fedx_capacity_ablation.toml: per variant, the
highest density below saturation (accepted at least 0.95 of offered, per seed), accepted
throughput (packets per packet time per node) at each density, and at the highest density
the share of link capacity carrying data and held by NACKs (router counters link_data and
link_nack: cycles per cycle per switch; a switch has six links, shared by two switches when
half-duplex). A second table gives, at the highest density, the offers each switch refused
per 1,000 cycles by reason (router counters refused_{full,class,rule}_{transit,injection}:
pool full, hop-class limit, backpressure rule; from a neighbouring switch or from the
switch's own terminal). Prints Markdown.
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

    print()
    refusals(g, top)


REASONS = (("full", "pool full"), ("class", "hop-class limit"), ("rule", "backpressure rule"))
ORIGINS = ("transit", "injection")


def refusals(g, top):
    """Refusals per switch per 1,000 cycles at density `top`, by reason and origin."""
    names = [f"refused_{why}_{origin}" for why, _ in REASONS for origin in ORIGINS]
    print(f"| variant (u = {top:g}) | " + " | ".join(f"{label}, {origin}" for _, label in REASONS for origin in ORIGINS)
          + " | rule's share of all |")
    print("|" + "---|" * (len(names) + 2))
    for variant in g.values("variant"):
        where = {"variant": variant, RATE: top}
        runs = g.seeds(**where)
        if g.errors(**where) or not runs or not all(n in j.get("router_counters", {}) for j in runs.values() for n in names):
            continue
        per_k = [g.value(lambda j, n=n: 1000 * j["router_counters"][n]["mean"], **where).text(1) for n in names]

        def rule_share(j):
            c = j["router_counters"]
            total = sum(c[n]["mean"] for n in names)
            return sum(c[f"refused_rule_{o}"]["mean"] for o in ORIGINS) / total if total else 0.0
        print(f"| {variant} | " + " | ".join(per_k) + f" | {g.value(rule_share, **where).text(2)} |")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "ablation":
        sys.exit(__doc__)
    ablation(sys.argv[2])
