#!/usr/bin/env python3
"""Figures and reproduction report for Cherkasova et al., *What Are the Pieces in the
Congestion Control Puzzle?* (Fed-X, HPL-96-17).

  python3 -m tools.fedx.report OUT_DIR

OUT_DIR holds one sweep per experiment of experiments/fedx/ (written by `icnsim reproduce
fedx`). Writes OUT_DIR/fedx.md and one PNG + SVG figure per paper figure. The paper's
claims are quoted constants; every measured value is read from the sweep output.

Method. Every point runs with one seed (quick) or five (full); a value is the mean over
seeds with its 95 % confidence interval (tools/report/seed_stats.py). The paper reads "attainable
throughput" off its latency curves without defining it; we read it as the highest traffic
density below saturation: the measured nodes accept at least 0.95 of what they offer (the
independent nodes in Figs. 1-3, where the hot spots saturate by construction; the whole
network elsewhere). Latencies are compared only below saturation.
"""
import os
import sys

from tools.report.lib import line_plot, run_report
from tools.report.seed_stats import Grid, combine, method_section
from tools.report.verdict import greater, with_readings, within_with_readings
from tools.fedx import backpressure, sensitivity
from tools.fedx import balanced as fedx_balanced
from tools.fedx.backpressure import RATE, SIGNIFICANT, SMALL

EXPERIMENTS = ["fig01_02_wk15_backpressure", "fig03_wk30_backpressure", "fig04_06_alpha_scheduling",
               "fig04_06b_alpha_long_mixture", "fig07_10_balanced_injection", "zz_buffers_investigation"]
FACTOR = 0.5         # our reading of "up to a factor of f": the largest gain within f ± 50 %


def method(out, rep):
    method_section(rep, out, EXPERIMENTS + [e for e in sensitivity.EXPERIMENTS if sensitivity.ran(out, e)])


# Message latency of the short messages, of all and of the long ones.
LATENCY = {"short": lambda j: length_class(j, "short")["message_latency"]["mean"],
           "all": lambda j: j["message_latency"]["mean"],
           "long": lambda j: length_class(j, "long")["message_latency"]["mean"]}


def alpha_gains(grid):
    """({latency kind: (best FIFO / α = 8 ratio, u)}, densities where both are below saturation)."""
    both = [x for x in grid.values(RATE) if all(grid.unsaturated(**{"nic.alpha": a, RATE: x}) for a in (0.0, 8.0))]
    return {key: best_ratio(grid, f, both, 0.0, 8.0) for key, f in LATENCY.items()}, both


def fig4_6(out, rep):
    grid = Grid(out, "fig04_06_alpha_scheduling", ["nic.alpha", RATE], load=RATE)
    pick = LATENCY
    rep.section("Figs. 4-6 — alpha scheduling (wk-mixture)",
                "90 % short messages (1..5 packets), 10 % long (25 packets); message-based backpressure, adaptive "
                "routing, no balanced injection; α = 0 is FIFO. Gains are FIFO latency over α = 8 latency, at "
                "densities where both are below saturation. Attainable u: "
                + ", ".join(f"α = {a:g} {grid.knee_text(**{'nic.alpha': a})}" for a in grid.values("nic.alpha")) + ".")
    gain, both = alpha_gains(grid)
    penalty = best_ratio(grid, pick["long"], both, 8.0, 0.0)
    rows = []
    for key, factor, quote in (("short", 5, "\"Using α = 8 improves the latency of short messages by up to a factor of five\""),
                               ("all", 3, "\"and also improves the overall message latency by up to a factor of three\"")):
        value, u = gain[key]
        rows.append((quote, f"up to ×{value.text(2)} (at u = {u:g})",
                     within_with_readings([value], factor * FACTOR, center=factor),
                     f"our reading: within ±{FACTOR:.0%} of the factor"))
    value, u = penalty
    slower = combine(lambda r: r - 1, value)
    rows.append(("\"in the presence of the backpressure control the penalty on the overall latency of long message is "
                 "negligible\"", f"long messages up to {slower.text(0, 100, ' %')} slower "
                 f"with α = 8 (at u = {u:g}; densities {both[0]:g} … {both[-1]:g} below saturation)",
                 with_readings(slower, SMALL, higher=False), f"our reading of \"negligible\": at most {SMALL:.0%}"))
    rep.claims(rows)
    for key, fig, title, ymax in (("short", 4, "short messages", 40000), ("all", 5, "all messages", 40000),
                                  ("long", 6, "long messages", 120000)):
        lines = {f"α = {a:g}": grid.curve(pick[key], **{"nic.alpha": a}) for a in grid.values("nic.alpha")}
        rep.figure(line_plot(os.path.join(out, f"fig0{fig}_alpha_{key}"), lines, "traffic density u",
                             "message latency (cycles)", f"Fig. {fig}: latency of {title} (below saturation)",
                             ylim=(0, ymax)), f"Fig. {fig}")


def long_mixture(out, rep):
    """§5's 80 % long / 20 % short workload against the wk-mixture of Figs. 4-6."""
    grids = {name: Grid(out, experiment, ["nic.alpha", RATE], load=RATE) for name, experiment in
             (("wk-mixture", "fig04_06_alpha_scheduling"), ("80/20", "fig04_06b_alpha_long_mixture"))}
    gains = {name: alpha_gains(g)[0] for name, g in grids.items()}
    rep.section("§5 — alpha scheduling with 80 % long and 20 % short messages",
                "The wk-mixture's lengths with the shares turned round (2.9 % of packets in short messages, as the "
                "paper says). Gains are FIFO latency over α = 8 latency at the density where they are largest "
                "among those below saturation for both. Attainable u: "
                + ", ".join(f"α = {a:g} {grids['80/20'].knee_text(**{'nic.alpha': a})}"
                            for a in grids["80/20"].values("nic.alpha")) + ".")
    rep.table(["workload", "short messages", "all messages", "long messages"],
              [[name] + [f"×{g[k][0].text(2)} (u = {g[k][1]:g})" for k in ("short", "all", "long")]
               for name, g in gains.items()])
    mix, wk = gains["80/20"], gains["wk-mixture"]

    rep.claims([
        ("\"with 80% long messages and 20% short messages ... alpha scheduling has less of an impact on average "
         "message latency\"", f"overall gain ×{mix['all'][0].text(2)} against ×{wk['all'][0].text(2)} with the "
         "wk-mixture", greater(wk["all"][0], mix["all"][0]),
         "our reading: a smaller best gain than with the wk-mixture, by the paired differences"),
        ("\"However, we still see a significant improvement in the latency of short messages\"",
         f"short messages ×{mix['short'][0].text(2)}", with_readings(mix["short"][0], 1 + SIGNIFICANT, around=1.0),
         f"our reading of \"significant\": {SIGNIFICANT:.0%} or more"),
    ])


def length_class(point, name):
    return next(m for m in point["message_lengths"] if m["name"] == name)


def best_ratio(grid, f, rates, a, b):
    """(Value over seeds of each seed's largest f(α = a) / f(α = b) over the densities in
    `rates`: "up to", with an interval; u, the density where the mean ratio is largest, for the
    text)."""
    def ratio(x):
        return combine(lambda p, q: p / q, grid.value(f, **{"nic.alpha": a, RATE: x}),
                       grid.value(f, **{"nic.alpha": b, RATE: x}))
    ratios = [ratio(x) for x in rates]
    u = rates[max(range(len(rates)), key=lambda i: ratios[i].mean)]
    return combine(lambda *per_density: max(per_density), *ratios), u


def main():
    run_report(sys.argv[1], "fedx", "Cherkasova et al., *What Are the Pieces in the Congestion Control "
               "Puzzle?* (Fed-X): reproduction report",
               "An 8×8 wrapped hexagonal mesh (X-mesh) of Fed-X switches: 10 shared packet buffers, virtual "
               "cut-through, 12-cycle header decision, NACK link protocol, half-duplex links, hop-count buffer "
               "classes for deadlock freedom; 160-byte packets at one byte per cycle; Poisson message arrivals. "
               "The method table gives each experiment's seeds and cycles. Modelling choices: docs/models/fedx.md.",
               [method, backpressure.fig1_2, backpressure.fig3, fig4_6, long_mixture, fedx_balanced.fig7_10,
                fedx_balanced.investigation, sensitivity.section])


if __name__ == "__main__":
    main()
