#!/usr/bin/env python3
"""Figures and reproduction report for Kim, Dally, Scott and Abts, *Technology-Driven,
Highly-Scalable Dragonfly Topology* (ISCA 2008): minimal, Valiant and UGAL routing on a
dragonfly under uniform random (UR) and worst-case (WC) traffic.

  python3 -m tools.dragonfly.report OUT_DIR

OUT_DIR holds one sweep per experiment of experiments/dragonfly/ (written by `icnsim
reproduce dragonfly`). Writes OUT_DIR/dragonfly.md and the figures. The claims are quoted
constants; every measured value is read from the sweep output.

Only the paper's abstract is available to us, so its claims are the abstract's; two more come
from a book by one of its authors (S1 below) and are marked as such. Every setup choice is
ours (docs/models/dragonfly.md).
"""
import os
import sys

from tools.report import verdict as vd
from tools.report.lib import line_plot, run_report
from tools.report.seed_stats import LOAD, Grid, method_section

from tools.dragonfly.beyond import beyond_section
from tools.dragonfly.common import ABSTRACT, BOOK, PATTERN, claims_from
from tools.dragonfly.booksim_setup import booksim_setup
from tools.dragonfly.links import links_section
from tools.dragonfly.routing_claims import (DEGRADED, PATTERNS, degraded_row, knee_and_max_table,
                                            latency_degraded_row, max_accepted, max_text, minimal_uniform_row,
                                            minimal_worst_case_row, routing_grid)

EXPERIMENTS = ["routing", "same_measure", "booksim_setup", "worst_case_links", "sensitivity", "threshold_uniform",
               "sensitivity_network", "beyond_slim_fly", "beyond_hyperx"]
S1 = ("S1: D. Abts and J. Kim, *High Performance Datacenter Networks* (Morgan & Claypool, 2011), "
      "§5.5.3, by two of the paper's authors; not the paper")
NOT_VARIED = ("the intermediate group's draw at our setup (uniform among the groups that are neither the source's nor "
              "the destination's; among all groups at BookSim's), the network's size beyond the quick and full sizes, and the worst-case link section's "
              "single offered load")

# ---------------------------------------------------------------- sources


def sources(out, rep):
    rep.section("What the claims come from",
                "The paper's body (its Sections 3 and 4: the global-link arrangement, the routing algorithms, the "
                "simulation setup and every figure) is not in the text available to us: only its abstract is. The "
                "claims judged here are the abstract's, quoted verbatim, and two sentences of " + S1 + ", marked "
                "S1; the summary at the end counts them apart. The setup (network size, lanes, buffer depth, packet "
                "length, channel latency, global-link arrangement, traffic definitions, the UGAL rule and threshold, "
                "what UGAL-LVC_H compares) is our reading, each choice recorded in docs/models/dragonfly.md; a second "
                "reference runs the setup of BookSim 2's dragonfly, from the authors' group, and sets icnsim's "
                "values beside BookSim's own. The "
                "sensitivity sections vary buffer depth, UGAL threshold, lane release, global-link arrangement and "
                "global channel latency; not varied: " + NOT_VARIED + ". UGAL-L_CR (credit round-trip latency as a "
                "congestion signal) is not built, so the abstract's claim about the combination of the two methods "
                "is shown, not judged.")
    method_section(rep, out, EXPERIMENTS)


def source_summary(out, rep):
    rows = rep.state.get("by_source", [])
    rep.section("Verdicts by source")
    counts = []
    for source in (ABSTRACT, BOOK):
        verdicts = [v for s, v in rows if s == source]
        judged = [v for v in verdicts if v is not None]
        counts.append([source] + [sum(v.outcome == o for v in judged) for o in vd.OUTCOMES]
                      + [len(verdicts) - len(judged)])
    rep.table(["source", "holds", "does not hold", "inconclusive", "not judged"], counts)


# ---------------------------------------------------------------- routing comparison


def routing_figures(out, rep):
    grid = routing_grid(out)
    splits = grid.values("split")
    rep.section("Latency and accepted load against offered load",
                "Loads are fractions of capacity (one flit per terminal per cycle). UR: every packet to a "
                "uniformly random other terminal; WC: every terminal of group i to a uniformly random terminal of "
                "group i + 1. Latency (mean message latency, cycles, source queueing included) is drawn only below "
                "saturation.")
    for pattern, short in PATTERNS.items():
        latency = {s: grid.curve(lambda j: j["message_latency"]["mean"], split=s, **{PATTERN: pattern})
                   for s in splits}
        accepted = {s: grid.curve(lambda j: j["accepted_fraction"], only_unsaturated=False, split=s,
                                  **{PATTERN: pattern}) for s in splits}
        rep.figure(line_plot(os.path.join(out, f"latency_{short.lower()}"), latency, "offered load (of capacity)",
                             "latency (cycles)", f"{short}: latency below saturation"), f"{short}: latency")
        rep.figure(line_plot(os.path.join(out, f"accepted_{short.lower()}"), accepted, "offered load (of capacity)",
                             "accepted load (of capacity)", f"{short}: accepted load", ylim=(0, 1.05)),
                   f"{short}: accepted load")
    knee_and_max_table(rep, grid)
    loads = grid.values(LOAD)
    rep.text("Knee: the highest offered load below saturation before the first that is not, on the grid of loads "
             f"swept ({', '.join(f'{x:g}' for x in loads)}), so it is known to the grid's step; ≥: below saturation "
             "at the highest load swept. Max accepted: per seed, the largest accepted load over the offered loads; ≥ "
             "where some seed is still below saturation at the highest load, so the maximum is a lower bound.")
    claims_from(rep, [(BOOK, minimal_uniform_row(grid)), (BOOK, minimal_worst_case_row(grid)),
                      (ABSTRACT, degraded_row(grid)), (ABSTRACT, latency_degraded_row(grid)),
                      (ABSTRACT, combination_row(grid))]
                + [(ABSTRACT, row) for row in abstract_rows_not_judged(grid)])


def same_measure(out, rep):
    """The "degraded" row again with UGAL-L counting its queue as UGAL-G does (same_measure.toml:
    what waits at the port, heads included), paired by seed with routing.toml's UGAL-L and UGAL-G,
    so that the two differ only in where they look."""
    grid = routing_grid(out)
    waiting = Grid(out, "same_measure", [LOAD]).max_accepted()
    ugal_l, ugal_g = (max_accepted(grid, s, "group_shift") for s in ("UGAL-L", "UGAL-G"))
    rep.section("The indirect decision with one congestion measure",
                "UGAL-L above counts the flits sent on a port and not yet credited back; UGAL-G counts what waits to "
                "cross the global channel, the heads routed to it included. `same_measure.toml` runs UGAL-L counting "
                "that too, at the source router's own ports (`routing.queue = \"waiting\"`), on the worst case with "
                "routing.toml's network, loads and seeds.")
    rep.table(["routing (WC)", "what its queue counts", "where", "max accepted"],
              [["UGAL-L", "uncredited flits", "the source router's port", max_text(grid, "UGAL-L", "group_shift")],
               ["UGAL-L, waiting", "uncredited flits and waiting heads", "the source router's port", waiting.text(3)],
               ["UGAL-G", "uncredited flits and waiting heads", "the global channel", max_text(grid, "UGAL-G",
                                                                                               "group_shift")]])
    claims_from(rep, [(ABSTRACT, (
        "the same: \"Because of the indirect nature of this routing decision, conventional adaptive routing "
        "algorithms give degraded performance.\" (abstract), with both counting what waits",
        f"maximum accepted load on WC: UGAL-L counting what waits {waiting.text(3)}, UGAL-G {ugal_g.text(3)}; UGAL-G "
        f"over it per seed: {vd.paired_ratio(ugal_g, waiting).text(3)} (UGAL-L counting flits reaches "
        f"{vd.paired_ratio(ugal_l, waiting).text(3)} of it)",
        vd.relative_gain(ugal_g, waiting, DEGRADED, reading=True),
        f"the row above with one measure for both, so that only the indirect decision differs; degraded = UGAL-G "
        f"accepting at least {DEGRADED:.0%} more (our reading)"))])


def abstract_rows_not_judged(grid):
    """The abstract's other sentences, listed so that the count covers every claim it makes."""
    vc = {s: max_text(grid, s, "group_shift") for s in ("UGAL-LVC", "UGAL-LVC_H", "VAL", "MIN")}
    return [
        ("\"Because cables dominate network cost, the number of cables, and particularly the number of long, global "
         "cables should be minimized to realize an efficient network.\" (abstract)", "—", None,
         "not judged: the premise of the design, not a result"),
        ("\"By reducing global channels, a dragonfly reduces cost by 20% compared to a flattened butterfly and by 52% "
         "compared to a folded Clos network in configurations with ≥ 16K nodes.\" (abstract)", "—", None,
         "not judged: no cost model (cables, their lengths, routers and their prices) is built; the cost figures "
         "rest on the paper's packaging assumptions, which the abstract does not give"),
        ("\"We also introduce two new variants of global adaptive routing that enable load-balanced routing in the "
         "dragonfly.\" (abstract)",
         "built as UGAL-LVC and UGAL-LVC_H (our reading of the variants); maximum accepted load on WC: "
         + ", ".join(f"{s} {t}" for s, t in vc.items()), None,
         "not judged: which two variants the paper means, and what load-balanced asks, are in its body, which we do "
         "not have; the loads are shown"),
        ("\"Each router in a dragonfly must make an adaptive routing decision based on the state of a global channel "
         "connected to a different router.\" (abstract)", "—", None,
         "not judged: a property of the topology (a router owns h of its group's a h global channels), which "
         "docs/models/dragonfly.md describes; the claim that follows it, degraded performance, is judged above"),
    ]


def combination_row(grid):
    vc_h, ugal_g = (max_accepted(grid, s, "group_shift") for s in ("UGAL-LVC_H", "UGAL-G"))
    return ("\"We introduce the use of selective virtual-channel discrimination and the use of credit round-trip "
            "latency to both sense and signal channel congestion. The combination of these two methods gives "
            "throughput and latency that approaches that of an ideal adaptive routing algorithm.\" (abstract)",
            f"selective VC discrimination alone (UGAL-LVC_H): maximum accepted load on WC {vc_h.text(3)} against "
            f"UGAL-G's {ugal_g.text(3)}, per seed {vd.paired_ratio(vc_h, ugal_g).text(3)}",
            None, "not judged: the credit round-trip half (UGAL-L_CR) is not built, and the claim is about the two "
            "together")


# ---------------------------------------------------------------- sensitivity


def degraded_rows(grid, variants, **where):
    """A row per variant (a split suffix; "" the main setup): UGAL-L's and UGAL-G's maxima on WC
    and the "degraded" verdict there, with its note (one seed: judged on the mean)."""
    rows = []
    for variant in variants:
        suffix = "/" + variant if variant else ""
        ugal_l, ugal_g = (grid.max_accepted(split=s + suffix, **where) for s in ("UGAL-L", "UGAL-G"))
        verdict = vd.relative_gain(ugal_g, ugal_l, DEGRADED)
        outcome = verdict.outcome + (f" ({verdict.note})" if verdict.note else "")
        rows.append([variant or "threshold 0, tail sent", *where.values(), ugal_l.text(3), ugal_g.text(3),
                     vd.paired_ratio(ugal_g, ugal_l).text(3), outcome])
    return rows


def variants_of(grid):
    return sorted({s.partition("/")[2] for s in grid.values("split")}, key=lambda v: (v != "", v))


def sensitivity(out, rep):
    grid = Grid(out, "sensitivity", ["split", "router.depth", LOAD])
    rep.section("Sensitivity: buffer depth, UGAL threshold, lane release",
                "The abstract's \"degraded performance\" row on WC at each buffer depth (flits per lane), with the "
                "UGAL threshold at 0 (as above), 16 and 64 flit-hops, and with lanes released only once drained "
                "(`tail_credit`: a lane holds one packet, so no local queue is deeper than a packet) instead of once "
                "the tail is sent (`sensitivity.toml`; the comparison above uses depth 8, threshold 0, tail sent). "
                "Where UGAL-L's maximum falls to MIN's (1/(a p) of capacity) it has stopped choosing Valiant's path "
                "at all: a threshold that large decides nothing about the indirect decision.")
    rows = [row for depth in grid.values("router.depth")
            for row in degraded_rows(grid, variants_of(grid), **{"router.depth": depth})]
    rows.sort(key=lambda r: (r[0] != "threshold 0, tail sent", r[0]))
    rep.table(["variant", "depth", "UGAL-L max accepted", "UGAL-G max accepted", "UGAL-G / UGAL-L",
               f"degraded (≥ {DEGRADED:.0%} more)"], rows)


def threshold_uniform(out, rep):
    """UGAL's threshold on UR (threshold_uniform.toml): each variant's maximum accepted load against
    MIN's, paired by seed, and the thresholds at which UGAL-L is no longer below MIN."""
    def order(split):  # MIN, then each routing by threshold
        name, _, threshold = split.partition("/threshold ")
        return (name != "MIN", name, int(threshold or 0))
    grid = Grid(out, "threshold_uniform", ["split", LOAD], order={"split": order})
    splits = grid.values("split")
    minimal = grid.max_accepted(split="MIN")
    rows, caught_up = [], []
    for split in splits:
        peak = grid.max_accepted(split=split)
        if split == "MIN":
            rows.append([split, peak.text(3), "—", "—"])
            continue
        below = vd.greater(minimal, peak)
        rows.append([split, peak.text(3), vd.paired_ratio(peak, minimal).text(3), below.outcome])
        if split.startswith("UGAL-L") and not below.holds:
            caught_up.append(split.partition("/")[2])
    rep.section("Sensitivity: UGAL's threshold on uniform traffic",
                "UR, where the minimal paths carry the load: each routing's maximum accepted load over the offered "
                f"loads {', '.join(f'{x:g}' for x in grid.values(LOAD))} (`threshold_uniform.toml`; depth 8, tail "
                "sent), and MIN's, paired by seed. A larger threshold keeps more packets on their minimal path.")
    rep.table(["routing", "max accepted on UR", "over MIN's, per seed", "MIN's higher (paired by seed)"], rows)
    rep.text("By the paired differences, UGAL-L is " + (f"not below MIN's maximum at {', '.join(caught_up)}"
                                                        if caught_up else "below MIN's maximum at every threshold swept")
             + ".")


def sensitivity_network(out, rep):
    grid = Grid(out, "sensitivity_network", ["split", LOAD])
    rep.section("Sensitivity: global-link arrangement and global channel latency",
                "The same row with the global channels arranged relative or circulant instead of absolute, and with "
                "global channels of 10 cycles instead of 1 (`sensitivity_network.toml`; depth 8, threshold 0, tail "
                "sent).")
    rep.table(["variant", "UGAL-L max accepted", "UGAL-G max accepted", "UGAL-G / UGAL-L",
               f"degraded (≥ {DEGRADED:.0%} more)"], degraded_rows(grid, [v for v in variants_of(grid) if v]))


def main():
    run_report(sys.argv[1], "dragonfly", "Kim et al., *Technology-Driven, Highly-Scalable Dragonfly Topology*: "
               "reproduction report",
               "A balanced dragonfly (a = 2p = 2h, one global channel per pair of groups, absolute arrangement; "
               "docs/topologies.md, docs/models/dragonfly.md). The quick profile runs p = h = 2, a = 4 (72 "
               "terminals) with one or two seeds; `--full` runs p = h = 4, a = 8 (1,056 terminals) with five "
               "seeds (three for the sensitivity sweeps and the study beyond the paper). Values are means over "
               "seeds ± the 95 % confidence half-width; a point is below saturation when it accepts at least 0.95 "
               "of its offered load and drains.",
               [sources, routing_figures, same_measure, booksim_setup, links_section, sensitivity, threshold_uniform,
                sensitivity_network, beyond_section, source_summary])


if __name__ == "__main__":
    main()
