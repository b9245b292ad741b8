#!/usr/bin/env python3
"""Tables of the Dally investigations (docs/models/dally.md), from their sweeps.

  python3 -m tools.dally.investigations fig13 OUT/fig13_output_buffer
  python3 -m tools.dally.investigations fig17 OUT/fig17_18_variants

fig13: experiments/investigations/dally_fig13_output_buffer.toml: accepted throughput,
the model's, and the shares of link-cycles by cause (router.count_channel_use).
fig17: experiments/investigations/dally_fig17_18_variants.toml: per lanes x depth, source
and output buffer, the random and deadline means and their ratio (paper 62.2 / 75.1), the
standard deviation ratio (paper "a factor of two"), deadline's share at the minimum and its
peaks, random's peaks (relative to the minimum) and the priority class's share at the minimum
(paper 80 %). Prints Markdown.
"""
import os
import sys

from tools.dally.histograms import minimum, peaks, pooled, share_at
from tools.report.lib import unit_histogram
from tools.report.seed_stats import Grid, Value, combine

USES = ["link_busy", "link_idle_free", "link_idle_starved", "link_idle_blocked"]


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")


def fig13(directory):
    out, name = os.path.split(directory.rstrip("/"))
    keys = ["router.lanes", "router.output_buffer"]
    g = Grid(out, name, keys, order={k: float for k in keys})

    def share(use):
        return lambda j: j["router_counters"][use]["mean"] / sum(j["router_counters"][u]["mean"] for u in USES)

    rows = []
    for lanes in g.values(keys[0]):
        for buffer in g.values(keys[1]):
            w = dict(zip(keys, (lanes, buffer)))
            model = g.value(lambda j: j["model"]["saturation_fraction"], **w).mean
            rows.append([lanes, buffer, g.value(lambda j: j["accepted_fraction"], **w).text(), f"{model:.3f}"]
                        + [g.value(share(u), **w).text(digits=2) for u in USES])
    table(["lanes", "output buffer", "accepted", "model", "busy", "idle: free", "idle: starved", "idle: blocked"], rows)


def fig17(directory):
    out, name = os.path.split(directory.rstrip("/"))
    keys = ["case", "router.source", "router.output_buffer", "router.arbitration"]
    g = Grid(out, name, keys)
    rows = []
    for case in g.values("case"):
        for source in g.values("router.source"):
            for buffer in g.values("router.output_buffer"):
                def seeds(arb):
                    return g.seeds(case=case, **{"router.source": source, "router.output_buffer": buffer,
                                                 "router.arbitration": arb})
                rnd, ddl, pri = (list(seeds(a).values()) for a in ("random", "oldest_first", "priority_deadline"))
                if not (rnd and ddl and pri):
                    continue
                saturated = [a for a in ("random", "oldest_first", "priority_deadline") if not g.unsaturated(
                    case=case, **{"router.source": source, "router.output_buffer": buffer, "router.arbitration": a})]
                if saturated:  # latencies past saturation are not comparable (the 0.95 rule)
                    rows.append([case, source, buffer] + [f"saturated ({', '.join(saturated)})"] + [""] * 7)
                    continue
                mean = [Value([j["latency"][k] for j in s]) for s in (rnd, ddl) for k in ("mean", "stddev")]
                hist = {n: pooled([unit_histogram(j["histogram"]) for j in s]) for n, s in (("r", rnd), ("d", ddl))}
                at_min = Value([share_at(unit_histogram(j["histogram"]), minimum(unit_histogram(j["histogram"]))) for j in ddl])
                hi = [c["name"] for c in pri[0]["classes"]].index("priority")
                pri_min = Value([share_at(unit_histogram(j["classes"][hi]["histogram"]), minimum(unit_histogram(j["histogram"]))) for j in pri])
                rows.append([case, source, buffer, mean[0].text(1), mean[2].text(1),
                             combine(lambda a, b: b / a, mean[0], mean[2]).text(2),
                             combine(lambda a, b: b / a, mean[1], mean[3]).text(2),
                             at_min.text(1, 100, " %"), ", ".join(str(p) for p in peaks(hist["d"])),
                             ", ".join(str(p) for p in peaks(hist["r"])), pri_min.text(1, 100, " %")])
    table(["lanes x depth", "source", "output buffer", "random mean", "deadline mean", "mean ratio", "sd ratio",
           "deadline at minimum", "deadline peaks", "random peaks", "priority at minimum"], rows)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("fig13", "fig17"):
        sys.exit(__doc__)
    {"fig13": fig13, "fig17": fig17}[sys.argv[1]](sys.argv[2])
