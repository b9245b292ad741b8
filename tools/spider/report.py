#!/usr/bin/env python3
"""Figures and reproduction report for Feng et al., *Architectural Support for Managing
Communication in Point-to-Point Distributed Systems* (SPIDER: switching and routing chosen
per traffic class by the node adapter, with in-transit packets buffered in host memory).

  python3 -m tools.spider.report OUT_DIR

OUT_DIR holds one sweep per experiment of experiments/spider/ (written by `icnsim
reproduce spider`). Writes OUT_DIR/spider.md and the figures. The paper's claims are quoted
constants; every measured value is read from the sweep output.

Method. Every point runs with several seeds; a value is the mean over seeds with its 95 %
confidence interval (tools/report/seed_stats.py). A point is below saturation only when its
accepted load is at least 0.95 of its offered load and every measured packet arrived, for
every seed; latencies are compared only there. Loads are fractions of the torus's capacity
under uniform traffic. The paper's figures have no numbers in the text we have, so every
verdict is about the direction of an effect, as the paper states it.
"""
import os
import sys

from tools.report.lib import line_plot, run_report
from tools.report.seed_stats import LOAD, SEED, Grid, Value, all_points, load_points
from tools.report import verdict as vd

from tools.spider.common import cell, class_latency, class_value, direction_row, hop_stddev, host_arrivals
from tools.spider.routing import fig4
from tools.spider.switching import fig3, partial_cut_through, sensitivity

EXPERIMENTS = ["fig03_switching", "fig04_routing", "fig05_partitioning", "fig06_guaranteed", "nifdy_combination",
               "partial_cut_through", "sensitivity_host_time"]
LARGELY_UNAFFECTED = 0.10  # our reading: a rise of at most 10 % over the best-effort loads
HOPS = 5               # Fig. 6b: packets that travel exactly five hops

# ---------------------------------------------------------------- Fig. 5: partitioning


def fig5(out, rep):
    grid = Grid(out, "fig05_partitioning", ["traffic", LOAD])
    loads = grid.values(LOAD)
    both = [x for x in loads if all(grid.unsaturated(traffic=t, **{LOAD: x}) for t in ("mixed", "partitioned"))]
    rep.section("Fig. 5 — partitioned and mixed traffic (32-byte and 256-byte packets, virtual cut-through)",
                "Equal numbers of short and long packets. Mixed: both classes may take either lane of a link; "
                "partitioned: short packets on lane 0, long ones on lane 1.")
    rep.table(["offered load"] + [f"{t}: {c} latency" for c in ("short", "long") for t in ("mixed", "partitioned")]
              + [f"{t}: long cut-through probability" for t in ("mixed", "partitioned")],
              [[x] + [cell(grid, class_latency(c), traffic=t, **{LOAD: x}) for c in (0, 1)
                      for t in ("mixed", "partitioned")]
               + [grid.value(class_value(1, "cut_through_probability"), traffic=t, **{LOAD: x}).text(3)
                  for t in ("mixed", "partitioned")] for x in loads])
    pngs = [line_plot(os.path.join(out, f"fig05{p}_{name}"),
                      {t: grid.curve(class_latency(c), traffic=t) for t in ("mixed", "partitioned")},
                      "offered load", "latency (cycles)", f"Fig. 5{p}: average latency, {name} packets")
            for p, c, name in (("a", 0, "short"), ("b", 1, "long"))]
    def at(f, a, b):
        return lambda x: (grid.value(f, traffic=a, **{LOAD: x}), grid.value(f, traffic=b, **{LOAD: x}))

    long_slower = direction_row(at(class_latency(1), "partitioned", "mixed"), both,
                                "long packets' latency, partitioned against mixed")
    fewer_cut_throughs = direction_row(at(class_value(1, "cut_through_probability"), "mixed", "partitioned"), both,
                                       "long packets' cut-through probability, mixed against partitioned")
    rows = [("\"mixing the two classes of traffic adversely affects the average latency of the short packets\"",
             *direction_row(at(class_latency(0), "mixed", "partitioned"), both,
                            "short packets' latency, mixed against partitioned")),
            ("\"While the short packets benefit from partitioning the traffic, the long packets incur additional "
             "delay\"", *long_slower),
            ("\"Relegating long packets to a single virtual network increases their end-to-end latency by reducing "
             "the cut-through probability\"", f"{long_slower[0]}; {fewer_cut_throughs[0]}",
             vd.all_hold(long_slower[1], fewer_cut_throughs[1]), "both halves: the latency and the probability")]
    rep.claims(rows)
    rep.text(fig5_explanation(grid, both))
    for png, caption in zip(pngs, ("Fig. 5a", "Fig. 5b")):
        rep.figure(png, caption)


def fig5_explanation(grid, loads):
    """The long packets' two sides of partitioning, from the data."""
    def mean(f, t, x):
        return grid.value(f, traffic=t, **{LOAD: x}).mean

    ct = class_value(1, "cut_through_probability")
    lower_ct = [x for x in loads if mean(ct, "partitioned", x) < mean(ct, "mixed", x)]
    faster = [x for x in loads if mean(class_latency(1), "partitioned", x) < mean(class_latency(1), "mixed", x)]
    if not faster:
        return (f"Partitioning lowers the long packets' cut-through probability at loads {lower_ct or 'none'} and "
                "raises their latency at every load, as the paper says.")
    return (f"Partitioning lowers the long packets' cut-through probability at loads {lower_ct or 'none'} (the "
            f"paper's mechanism), yet at loads {faster} their latency is lower than mixed: there, having their lane "
            "to themselves (no short packet ahead of them in it) gains them more than the second lane they lose "
            "(our explanation, not tested by an experiment; the short packets' latency falls with partitioning at the "
            "same loads, above).")


# ---------------------------------------------------------------- Fig. 6: guaranteed traffic

ARBITRATION = ["round robin", "guaranteed first"]


def fig6(out, rep):
    grid = Grid(out, "fig06_guaranteed", ["arbitration", LOAD])
    loads = grid.values(LOAD)
    rep.section("Fig. 6 — guaranteed packet switching beside best-effort wormhole (three lanes, 64-byte packets)",
                "Lanes 0-1: best-effort wormhole with datelines; lane 2: a guaranteed class, packet-switched through "
                "every node's memory with static routing, one packet per node every 6000 cycles (footnote 4's 1500, read "
                "in word times as footnote 3's). \"round robin\": "
                "links interleave their lanes flit by flit in turn and the NI sends in order (the paper's "
                "configuration as we read it); \"guaranteed first\": the guaranteed class also wins the link "
                f"arbiters and the NI's job lists (our variant). Deviations are of packets taking exactly {HOPS} "
                "hops.")
    rep.table(["offered best-effort load"] + [f"{a}: {what}" for a in ARBITRATION for what in (
        "best-effort latency", "guaranteed latency", f"guaranteed s.d. ({HOPS} hops)", f"best-effort s.d. ({HOPS} hops)")],
        [[x] + [v for a in ARBITRATION for v in (
            cell(grid, class_latency(0), arbitration=a, **{LOAD: x}),
            grid.value(class_latency(1), arbitration=a, **{LOAD: x}).text(1),
            grid.value(hop_stddev(1, HOPS), arbitration=a, **{LOAD: x}).text(1),
            grid.value(hop_stddev(0, HOPS), arbitration=a, **{LOAD: x}).text(1))] for x in loads])
    lines_a, lines_b = {}, {}
    for a in ARBITRATION:
        for c, name in ((0, "best effort"), (1, "guaranteed")):
            lines_a[f"{name}, {a}"] = grid.curve(class_latency(c), arbitration=a)
            lines_b[f"{name}, {a}"] = grid.curve(hop_stddev(c, HOPS), arbitration=a)
    pngs = [line_plot(os.path.join(out, "fig06a_latency"), lines_a, "offered best-effort load", "latency (cycles)",
                      "Fig. 6a: average latency per class"),
            line_plot(os.path.join(out, "fig06b_deviation"), lines_b, "offered best-effort load",
                      "standard deviation (cycles)", f"Fig. 6b: latency deviation, {HOPS}-hop packets")]
    rows = []
    for a in ARBITRATION:
        top = max((x for x in loads if grid.unsaturated(arbitration=a, **{LOAD: x})), default=loads[0])
        rises = {}
        for what, f in (("mean latency", class_latency(1)), (f"{HOPS}-hop deviation", hop_stddev(1, HOPS))):
            lo, hi = grid.value(f, arbitration=a, **{LOAD: loads[0]}), grid.value(f, arbitration=a, **{LOAD: top})
            rises[what] = Value([h / l - 1 for l, h in zip(lo.samples, hi.samples) if l])
        be = grid.value(class_latency(0), arbitration=a, **{LOAD: top}).mean / \
            grid.value(class_latency(0), arbitration=a, **{LOAD: loads[0]}).mean - 1
        rows.append((("\"Both the average latency and predictability of the guaranteed packets are largely unaffected "
                      "by the best-effort traffic\"") + ("" if a == ARBITRATION[0] else " — our variant, " + a),
                     f"{a}, best-effort load {loads[0]} to {top}: guaranteed "
                     + ", ".join(f"{w} {v.text(1, 100.0, ' %')}" for w, v in rises.items())
                     + f" (best-effort latency {be * 100:+.0f} %)",
                     vd.within_with_readings(rises.values(), LARGELY_UNAFFECTED),
                     f"largely unaffected: both change by at most {LARGELY_UNAFFECTED * 100:.0f} % (our reading); "
                     f"{top} is the highest best-effort load below saturation"))
    rep.claims(rows)
    rep.text(fig6_explanation(grid, loads))
    for png, caption in zip(pngs, ("Fig. 6a", "Fig. 6b")):
        rep.figure(png, caption)


def fig6_explanation(grid, loads):
    """Where the round-robin case's extra guaranteed latency comes from, from the data: the
    queueing at the source against the time in the network."""
    a, x0, x1 = ARBITRATION[0], loads[0], loads[-1]

    def parts(x):
        total = grid.value(class_latency(1), arbitration=a, **{LOAD: x}).mean
        network = grid.value(lambda j: j["classes"][1]["network_latency"]["mean"], arbitration=a, **{LOAD: x}).mean
        return total, network

    (t0, n0), (t1, n1) = parts(x0), parts(x1)
    rise, in_network = t1 - t0, n1 - n0
    served = [grid.value(class_latency(1), arbitration=ARBITRATION[1], **{LOAD: x}).mean for x in (x0, x1)]
    first = (served[1] / served[0] - 1) * 100
    share = in_network / rise if rise else 0.0
    return (f"With round-robin links and a first-come NI, the guaranteed packets' latency rises by {rise:.1f} "
            f"cycles between best-effort loads {x0} and {x1}; {in_network:.1f} of them ({share * 100:.0f} %) are "
            f"in the network (injection to arrival), where a guaranteed flit takes its turn on each link with the "
            f"best-effort lanes, and {rise - in_network:.1f} at the source, where it waits behind best-effort "
            f"packets in the NI's job list. Served first at both (the second case), its latency changes by "
            f"{first:+.1f} % over the same loads.")


# ---------------------------------------------------------------- beyond the paper: SPIDER + NIFDY


def combination(out, rep):
    grid = Grid(out, "nifdy_combination", ["nic", LOAD])
    loads = grid.values(LOAD)
    nics = ["plain NI", "NIFDY"]
    rep.section("Beyond the paper — SPIDER's virtual cut-through with NIFDY's admission control",
                "No paper ran this: the same torus with adaptive routing and virtual cut-through through the hosts, "
                "4-packet messages, with a plain NI or NIFDY (Callahan & Goldstein: in-order delivery, admission "
                "control per destination; its acks on two lanes of their own). Data throughput counts data packets "
                "only (NIFDY's acks also cross the network).")

    def data_load(j):
        length = j["config"].get("traffic.packet_length", "64")
        return j["delivered_packets"] * int(length) / (j["config"]["simulation.measure_cycles"] and
                                                        int(j["config"]["simulation.measure_cycles"])) \
            / j["terminals"] / j["capacity"]

    metrics = [("data accepted", data_load, 3), ("packet latency", lambda j: j["latency"]["mean"], 1),
               ("out-of-order packets", lambda j: j["out_of_order_packets"], 1),
               ("host arrivals / node / cycle", host_arrivals, 4)]
    rep.table(["offered load"] + [f"{n}: {m}" for m, _, _ in metrics for n in nics],
              [[x] + [grid.value(f, nic=n, **{LOAD: x}).text(d) for _, f, d in metrics for n in nics] for x in loads])
    hi = loads[-1]
    v = {(n, m): grid.value(f, nic=n, **{LOAD: hi}) for n in nics for m, f, _ in metrics}
    rep.text(f"At offered load {hi}: out-of-order packets {v[('plain NI', 'out-of-order packets')].text(1)} with the "
             f"plain NI and {v[('NIFDY', 'out-of-order packets')].text(1)} with NIFDY; latency "
             f"{v[('plain NI', 'packet latency')].text(1)} against {v[('NIFDY', 'packet latency')].text(1)} cycles; "
             f"in-transit host arrivals {v[('plain NI', 'host arrivals / node / cycle')].text(4)} against "
             f"{v[('NIFDY', 'host arrivals / node / cycle')].text(4)} per node per cycle.")


def sample_sizes(out, rep):
    rows = []
    for name in EXPERIMENTS:
        if not os.path.exists(os.path.join(out, name, "results.csv")):
            continue
        points = load_points(out, name)
        counts = [j["measured_packets"] for _, j in points]
        seeds = {r[SEED] for r, _ in points}
        cycles = {j["config"]["simulation.measure_cycles"] for _, j in points}
        failed = [r for r, j in all_points(out, name) if "error" in j]
        rows.append([name, len(counts), len(seeds), ", ".join(sorted(cycles, key=int)), min(counts), max(counts),
                     "; ".join(f"point {r['point']}: {r['json']['error'].splitlines()[0]}" for r in failed) or "none"])
    if not rows:
        raise FileNotFoundError(2, "no sweep output", out)
    rep.section("Sample sizes", "Packets measured per point (one seed), and the points that ended in an error (the "
                "watchdog: no flit moved for its whole period). Such a point counts as saturated.")
    rep.table(["experiment", "points", "seeds", "measurement cycles", "fewest packets", "most packets", "errors"],
              rows)


def main():
    run_report(sys.argv[1], "spider", "Feng et al., *SPIDER*: reproduction report",
               "A 6x6 torus of node adapters with byte-wide links, two lanes per link (three in Fig. 6), in-transit "
               "packets buffered in host memory by their class's policy (docs/models/spider.md). Values are means "
               "over seeds ± the 95 % confidence half-width; a point is below saturation when it accepts at least "
               "0.95 of its offered load and delivers every measured packet.",
               [sample_sizes, fig3, fig4, fig5, fig6, partial_cut_through, combination, sensitivity])


if __name__ == "__main__":
    main()
