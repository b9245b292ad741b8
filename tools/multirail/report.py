#!/usr/bin/env python3
"""Figures and reproduction report for Coll et al., *Multirail allocation* (several
independent networks per node: static, basic, local-dynamic, dynamic and hybrid rail
allocation).

  python3 -m tools.multirail.report OUT_DIR

OUT_DIR holds one sweep per experiment of experiments/multirail/ (written by `icnsim
reproduce multirail`). Writes OUT_DIR/multirail.md and the figures. The paper's claims are
quoted constants; every measured value is read from the sweep output.

Method. Every point runs with several seeds; a value is the mean over seeds with its 95 %
confidence interval (Student's t). A point is below saturation only when its accepted load
is at least 0.95 of its offered load (for every seed); latencies are reported only there.
The maximum accepted load of a configuration is, per seed, the largest accepted load over
its offered loads; the saturation point is the least offered load whose point is not
below saturation (§5.3). Loads are fractions of a node's unidirectional injection
bandwidth over all its rails (the paper normalises by the rails too, §6.4).
"""
import os
import sys

from tools.report.lib import line_plot, run_report
from tools.report.seed_stats import NEAR, SEED, WINDOW_LATENCIES, all_points, load_points, short_windows

from tools.multirail.hybrid import fig17_20
from tools.multirail.load import fig7_10, fig11, sensitivity
from tools.multirail.scaling import fig12, fig13_16, fig14_15


# ---------------------------------------------------------------- Figs. 2 and 4: static


PAPER_FIG4_ROWS = ["11111111110000000000", "11110000001111110000"]  # rails 0-1 of Fig. 4


def fig2_4(out, rep):
    models = {j["model"]["nodes"]: j["model"] for _, j in load_points(out, "fig02_04_static_rails")}
    if not models:
        raise FileNotFoundError(2, "no sweep output", os.path.join(out, "fig02_04_static_rails"))
    nodes = sorted(models)
    rep.section("Figs. 2 and 4 — static allocation (analytic)",
                "Rails needed to connect n nodes when every NIC is fixed as a transmitter or a receiver "
                "(Algorithm 1 and the optimal Algorithm 2), from `[model] type = \"static_rails\"` "
                "(the same code as `icnsim analytic rails`).")
    png = line_plot(os.path.join(out, "fig02_static_rails"),
                    {"optimal allocation (Algorithm 2)": (nodes, [models[n]["rails_optimal"] for n in nodes]),
                     "2 log2 allocation (Algorithm 1)": (nodes, [models[n]["rails_algorithm1"] for n in nodes])},
                    "nodes", "rails", "Fig. 2: rails needed against nodes", log2x=True)
    rep.table(["nodes", "Algorithm 1 rails", "optimal rails", "C(r, r/2)", "every pair connected (1, 2)"],
              [[n, models[n]["rails_algorithm1"], models[n]["rails_optimal"], models[n]["sperner_bound"],
                f"{models[n]['connected_algorithm1']}, {models[n]['connected_optimal']}"] for n in nodes])
    six = [n for n in nodes if models[n]["rails_optimal"] <= 6]
    six1 = [n for n in nodes if models[n]["rails_algorithm1"] <= 6]
    matrix = models.get(20, {}).get("matrix_optimal", "").split("\n")
    largest = nodes[-1]
    rep.claims([
        ("\"20 nodes is the maximum for 6 rails\" (Fig. 4)",
         f"most nodes with 6 optimal rails in our sweep: {max(six)}; 21 nodes need "
         f"{models[21]['rails_optimal'] if 21 in models else '—'}", max(six) == 20 and models.get(21, {}).get(
             "rails_optimal") == 7, "the sweep includes 20 and 21 nodes"),
        ("\"a maximum of 8 nodes can be allocated using 6 rails\" (Algorithm 1)",
         f"most nodes with 6 rails by Algorithm 1 in our sweep: {max(six1)}", max(six1) == 8, ""),
        ("Fig. 2: the optimal allocation never needs more rails than Algorithm 1, and both grow with log n (our "
         "reading)", f"at {largest} nodes: Algorithm 1 {models[largest]['rails_algorithm1']}, optimal "
         f"{models[largest]['rails_optimal']}", all(models[n]["rails_optimal"] <= models[n]["rails_algorithm1"]
                                                     for n in nodes), ""),
        ("Algorithm 2's matrix connects every ordered pair for every n up to 4096 (issue)",
         f"complete enumerations for every r up to {models[largest]['rails_optimal']} connected: "
         f"{models[largest]['every_smaller_count_connected']}; every swept n: "
         f"{all(models[n]['connected_optimal'] for n in nodes)}",
         models[largest]["every_smaller_count_connected"] and all(models[n]["connected_optimal"] for n in nodes)
         and largest >= 4096, "the matrix for n nodes is a prefix of the enumeration for its r"),
        ("Fig. 4's allocation matrix (rails 0 and 1; the text extraction garbles the others)",
         "ours: " + " / ".join(matrix[:2]), matrix[:2] == PAPER_FIG4_ROWS, ""),
    ])
    rep.text("Algorithm 2's allocation matrix for 20 nodes on 6 rails (Fig. 4; rows: rails, columns: nodes, "
             "1 = transmits):\n\n```\n" + "\n".join(matrix) + "\n```")
    rep.figure(png, "Fig. 2")



EXPERIMENTS = ["fig07_10_load", "fig11_message_size", "fig12_nodes", "fig13_16_rails_size", "fig14_rails_bandwidth",
               "fig15_rails_latency", "fig17_20_hybrid", "sensitivity", "sensitivity_bus"]


def sample_sizes(out, rep):
    """How many messages each experiment's points measured: with long messages a window holds
    few, and the 0.95 rule and the latencies are then noisy."""
    rows = []
    for name in EXPERIMENTS:
        if not os.path.exists(os.path.join(out, name, "results.csv")):
            continue
        counts = [j["measured_messages"] for _, j in load_points(out, name)]
        seeds = {r[SEED] for r, _ in load_points(out, name)}
        cycles = {j["config"]["simulation.measure_cycles"] for _, j in load_points(out, name)}
        rows.append([name, len(counts), len(seeds), ", ".join(sorted(cycles, key=int)), min(counts), max(counts),
                     short_windows(all_points(out, name))])
    if not rows:
        raise FileNotFoundError(2, "no sweep output", out)
    rep.section("Sample sizes",
                "Messages measured per point. A point with few messages (long messages, low load, short window) "
                "has a noisy accepted load, so the 0.95 rule may call it saturated by chance; the seeds' spread "
                "shows in the confidence intervals. The last column counts the points whose window is shorter than "
                f"{WINDOW_LATENCIES} of their mean message latencies, below saturation and near it (accepting {NEAR:g} "
                "to 0.95 of the offered load: a longer window might find such a point below saturation).")
    rep.table(["experiment", "points", "seeds", "measurement cycles", "fewest messages", "most messages",
               f"windows under {WINDOW_LATENCIES} latencies: below / near saturation"], rows)


def main():
    run_report(sys.argv[1], "multirail", "Coll et al., *Multirail allocation*: reproduction report",
               "Rails of a quaternary fat tree behind one-way I/O buses (docs/models/multirail.md). The quick "
               "profile runs 16-node machines (64 for the larger of Fig. 12) with one or two seeds and short windows "
               "(the sample sizes are below); `--full` runs 64 and 256 nodes with five seeds and longer windows, which the "
               "sample-size table checks against ten mean message latencies (the paper: 32-128 SMPs). Values are means over seeds ± the 95 % "
               "confidence half-width; a point is below saturation when it accepts at least 0.95 of its offered "
               "load.",
               [sample_sizes, fig2_4, fig7_10, fig11, fig12, fig13_16, fig14_15, fig17_20, sensitivity])


if __name__ == "__main__":
    main()
