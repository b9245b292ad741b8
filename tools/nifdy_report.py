#!/usr/bin/env python3
"""Figures and reproduction report for Callahan & Goldstein, *NIFDY: A Low Overhead, High
Throughput Network Interface* (ISCA '95). Work in progress: Figs. 2-3 on the eight networks
and Fig. 4 so far.

  nifdy_report.py OUT_DIR

OUT_DIR holds one sweep per experiment of experiments/nifdy/ (written by `icnsim reproduce
nifdy`). Writes OUT_DIR/nifdy.md and the figures. The paper's claims are quoted constants;
every measured value is read from the sweep output.
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_lib import bar_plot, heatmap_plots, line_plot, read_rows_with_points, run_report  # noqa: E402

NETWORKS = [  # experiment suffix, label, in the paper's order
    ("full_fat_tree", "full fat tree"),
    ("cm5_fat_tree", "CM-5 fat tree"),
    ("store_and_forward_fat_tree", "S&F fat tree"),
    ("mesh_8x8", "8x8 mesh"),
    ("torus_8x8", "8x8 torus"),
    ("mesh_4x4x4", "4x4x4 mesh"),
    ("butterfly", "butterfly"),
    ("multibutterfly", "multibutterfly"),
]
NIS = ["none", "buffers only", "NIFDY"]


def per_network(out, prefix, networks, key, value):
    """{(network label,) + key(row): value(point JSON)} over the sweeps OUT/<prefix><suffix>
    that exist."""
    table = {}
    for suffix, label in networks:
        directory = os.path.join(out, f"{prefix}{suffix}")
        if not os.path.exists(os.path.join(directory, "results.csv")):
            continue
        for r in read_rows_with_points(directory):
            if r["json"] is not None:
                table[(label,) + key(r)] = value(r["json"])
    if not table:
        raise FileNotFoundError(2, "no sweep output", os.path.join(out, f"{prefix}*"))
    return table


def delivered(out):
    """{(network label, traffic, ni): packets delivered} for the networks that have results."""
    return per_network(out, "fig02_03_", NETWORKS, lambda r: (r["traffic"], r["ni"]),
                       lambda j: j["delivered_packets"])


def fig2_3(out, rep):
    d = delivered(out)
    labels = [label for _, label in NETWORKS if (label, "heavy", "none") in d]
    cycles = None
    for path in glob.glob(os.path.join(out, "fig02_03_*", "points", "00000.json")):
        cycles = json.load(open(path))["config"].get("simulation.measure_cycles")
        break
    rep.section("Figs. 2-3 — packets delivered with heavy and light synthetic traffic",
                f"Packets the processors received in {cycles} cycles (the paper: 1 000 000), 64 nodes, "
                "T_send 40, T_receive 60, bulk-synchronous phases of 100-300 packets per sender; NIFDY "
                "with Table 3's parameters, buffers-only with the same total buffering.")
    pngs = []
    for fig, traffic in ((2, "heavy"), (3, "light")):
        pngs.append(bar_plot(os.path.join(out, f"fig0{fig}_{traffic}_traffic"), labels,
                             {ni: [d[(n, traffic, ni)] for n in labels] for ni in NIS},
                             "packets delivered", f"Fig. {fig}: {traffic} synthetic traffic"))
        rep.table(["network"] + NIS + ["NIFDY / none", "NIFDY / buffers only"],
                  [[n] + [d[(n, traffic, ni)] for ni in NIS]
                   + [f"{d[(n, traffic, 'NIFDY')] / d[(n, traffic, 'none')]:.2f}",
                      f"{d[(n, traffic, 'NIFDY')] / d[(n, traffic, 'buffers only')]:.2f}"] for n in labels])
    worst_none = min((d[(n, t, "NIFDY")] / d[(n, t, "none")], n, t) for n in labels for t in ("heavy", "light"))
    worst_buf = min((d[(n, t, "NIFDY")] / d[(n, t, "buffers only")], n, t) for n in labels for t in ("heavy", "light"))

    def gain(n):
        return sum(d[(n, t, "NIFDY")] for t in ("heavy", "light")) / sum(d[(n, t, "none")] for t in ("heavy", "light"))

    rows = [
        ("\"on every network NIFDY delivers at least as many packets in 1,000,000 cycles as no NIFDY\" (issue's "
         "reading of Figs. 2-3)", f"lowest NIFDY / none: {worst_none[0]:.2f} ({worst_none[1]}, {worst_none[2]})",
         worst_none[0] >= 1.0, "where it fails: the fat trees' light traffic, whose pairwise streams NIFDY's "
         "round trip limits before bulk dialogs start (docs/models/nifdy.md)"),
        ("\"it delivers more packets than the same network without NIFDY, and roughly the same as when "
         "NIFDY's buffering is used without the protocol\" (§4.6)",
         f"lowest NIFDY / buffers only: {worst_buf[0]:.2f} ({worst_buf[1]}, {worst_buf[2]})", worst_buf[0] >= 0.9,
         "roughly the same: within 10 %"),
    ]
    if "8x8 mesh" in labels and "full fat tree" in labels:
        rows.append(("\"The utility of NIFDY increases as a network's bisection bandwidth decreases\" (abstract): "
                     "mesh > fat tree", f"NIFDY / none, heavy and light together: 8x8 mesh {gain('8x8 mesh'):.2f}, "
                     f"full fat tree {gain('full fat tree'):.2f}", gain("8x8 mesh") > gain("full fat tree"), ""))
    rep.claims(rows)
    for fig, png in zip((2, 3), pngs):
        rep.figure(png, f"Fig. {fig}")


def normalised(out, experiment):
    """{case: ([terminals], [delivered / delivered without NIFDY])} over machine sizes."""
    rows = [r for r in read_rows_with_points(os.path.join(out, experiment)) if r["json"] is not None]
    base = {r["topology.n"]: r["json"]["delivered_packets"] for r in rows if r["ni"] == "none"}
    curves = {}
    for r in sorted(rows, key=lambda r: r["topology.n"]):
        if r["ni"] != "none" and r["topology.n"] in base:
            xs, ys = curves.setdefault(r["ni"], ([], []))
            xs.append(4 ** r["topology.n"])
            ys.append(r["json"]["delivered_packets"] / base[r["topology.n"]])
    return curves


def fig4(out, rep):
    pool = normalised(out, "fig04a_scalability_pool")
    table = normalised(out, "fig04b_scalability_table")
    rep.section("Fig. 4 — scalability on fat trees",
                "Full 4-ary fat trees of growing size, heavy traffic with 1-5 packet messages, no bulk dialogs; "
                "packets delivered with NIFDY divided by packets delivered without it on the same tree.")
    order = lambda c: int(c.split("=")[1])  # noqa: E731
    png_a = line_plot(os.path.join(out, "fig04a_scalability_pool"),
                      {c: pool[c] for c in sorted(pool, key=order)}, "nodes", "throughput / no NIFDY",
                      "Fig. 4a: pool size B (O = 8)", log2x=True)
    png_b = line_plot(os.path.join(out, "fig04b_scalability_table"),
                      {c: table[c] for c in sorted(table, key=order)}, "nodes", "throughput / no NIFDY",
                      "Fig. 4b: table size O (B = 16)", log2x=True)
    sizes = pool[next(iter(pool))][0]
    rep.table(["nodes"] + sorted(pool, key=order) + sorted(table, key=order),
              [[n] + [f"{pool[c][1][i]:.3f}" for c in sorted(pool, key=order)]
               + [f"{table[c][1][i]:.3f}" for c in sorted(table, key=order)] for i, n in enumerate(sizes)])
    change = {c: ys[-1] - ys[0] for c, (xs, ys) in pool.items()}
    best_o = []
    for i, n in enumerate(sizes):
        top = max(table[c][1][i] for c in table)
        best_o.append((n, [order(c) for c in table if table[c][1][i] >= top - 0.001]))
    o8 = all(8 in best for _, best in best_o[:-1])
    rep.claims([
        ("\"for a fixed B, the relative benefit of NIFDY does not decrease and in most cases increases as the "
         "MPP grows\"", ", ".join(f"{c}: {change[c]:+.3f}" for c in sorted(change, key=order))
         + f" from {sizes[0]} to {sizes[-1]} nodes", all(v >= 0 for v in change.values()), ""),
        ("\"In general, increasing B gives better performance for any size network\"",
         ", ".join(f"{n} nodes: B = 2 → {pool['B = 2'][1][i]:.3f}, B = 16 → {pool['B = 16'][1][i]:.3f}"
                   for i, n in enumerate(sizes)),
         all(pool["B = 16"][1][i] >= pool["B = 2"][1][i] for i in range(len(sizes))), ""),
        ("\"O = 8 is the best parameter across all machine sizes except for the largest we looked at (where the "
         "best value of O is 4)\"", "; ".join(f"{n} nodes: best O {best}" for n, best in best_o), o8,
         "best: within 0.001 of the highest; the paper's largest size is not given"),
    ])
    rep.text("On our full fat tree the heavy traffic is limited by the processors (40 + 60 cycles per packet "
             "sent and received), not by the network, so NIFDY can do little: every curve stays within a few "
             "percent of 1 and the small gain of the 16-node tree fades with size. Small pools and tables cost "
             "throughput, more so on larger trees, whose round trips are longer.")
    rep.figure(png_a, "Fig. 4a")
    rep.figure(png_b, "Fig. 4b")


def fig5_6(out, rep):
    rows = {r["run"]: r["json"] for r in read_rows_with_points(os.path.join(out, "fig05_06_cshift"))
            if r["json"] is not None}
    payload = {"NIFDY": 20}  # bytes per packet; the in-order library needs no offset word
    total = {name: j["delivered_packets"] * payload.get(name, 16) for name, j in rows.items()}
    done = {name: j["last_delivery"] for name, j in rows.items()}
    rate = {name: total[name] / done[name] for name in rows}
    peak = {name: max(max(r) for r in j["pending_per_receiver"]["pending"]) for name, j in rows.items()}
    rep.section("Figs. 5-6 — C-shift on a 32-node CM-5-style fat tree",
                "All-to-all by cyclic shift, 20 packets (320 payload bytes) per pair; the in-order library "
                "carries the same bytes in 16 packets. Throughput: payload bytes delivered per cycle until the "
                "last packet arrived.")
    names = ["no NIFDY", "no NIFDY, barriers", "NIFDY-", "NIFDY"]
    rep.table(["run", "packets", "finished at cycle", "payload bytes / cycle", "most packets pending at one receiver"],
              [[n, rows[n]["delivered_packets"], done[n], f"{rate[n]:.2f}", peak[n]] for n in names])
    png6 = bar_plot(os.path.join(out, "fig06_cshift_throughput"), ["C-shift"], {n: [rate[n]] for n in names},
                    "payload bytes per cycle", "Fig. 6: C-shift throughput, 32-node CM-5-style tree")
    panels = {}
    for n in ("no NIFDY", "NIFDY-"):
        series = rows[n]["pending_per_receiver"]
        keep = [i for i, c in enumerate(series["cycles"]) if c <= max(done.values())]
        panels[n] = ([series["cycles"][i] for i in keep], [series["pending"][i][:32] for i in keep])
    png5 = heatmap_plots(os.path.join(out, "fig05_cshift_pending"), panels, "cycle", "receiver",
                         "Fig. 5: pending packets per receiver (black: 20 or more)", vmax=20)
    rep.claims([
        ("\"Using NIFDY's congestion control alone results in better performance than optimized barriers\"",
         f"NIFDY- {rate['NIFDY-']:.2f} vs barriers {rate['no NIFDY, barriers']:.2f} bytes/cycle",
         rate["NIFDY-"] > rate["no NIFDY, barriers"], ""),
        ("NIFDY without barriers beats no NIFDY (issue)",
         f"NIFDY- {rate['NIFDY-']:.2f} vs {rate['no NIFDY']:.2f} bytes/cycle", rate["NIFDY-"] > rate["no NIFDY"], ""),
        ("\"When NIFDY's in-order delivery is exploited, the benefit is even greater\"",
         f"NIFDY {rate['NIFDY']:.2f} vs NIFDY- {rate['NIFDY-']:.2f} bytes/cycle", rate["NIFDY"] > rate["NIFDY-"],
         "the saving of one bookkeeping word per packet is our assumption"),
        ("Fig. 5: \"Some piling up does occur with NIFDY ... but these perturbations dissipate\"",
         f"most packets pending at one receiver: no NIFDY {peak['no NIFDY']}, NIFDY- {peak['NIFDY-']}",
         peak["NIFDY-"] < peak["no NIFDY"], "pile-ups smaller with NIFDY"),
    ])
    rep.figure(png5, "Fig. 5")
    rep.figure(png6, "Fig. 6")


SCAN_NETWORKS = [("full_fat_tree", "full fat tree"), ("store_and_forward_fat_tree", "S&F fat tree"),
                 ("mesh_8x8", "8x8 mesh"), ("butterfly", "butterfly")]


def fig9(out, rep):
    cycles = per_network(out, "fig09_scan_", SCAN_NETWORKS, lambda r: (r["ni"], r["delay"]),
                         lambda j: j["last_delivery"])
    labels = [label for _, label in SCAN_NETWORKS if (label, "no NIFDY", "no delay") in cycles]
    runs = [("no NIFDY", "no delay"), ("no NIFDY", "with delay"), ("NIFDY", "no delay"), ("NIFDY", "with delay")]
    rep.section("Fig. 9 — radix-sort scan phase",
                "Cycles until the last processor of the 64-processor chain has received every value "
                "(quick: 64 values, a 6-bit radix; `--full`: 256). CM-5 costs: send 46, receive 56 cycles; "
                "the delay is 60 cycles after each send.")
    rep.table(["network"] + [f"{ni}, {d}" for ni, d in runs],
              [[n] + [cycles[(n, ni, d)] for ni, d in runs] for n in labels])
    png = bar_plot(os.path.join(out, "fig09_radix_scan"), labels,
                   {f"{ni}, {d}": [cycles[(n, ni, d)] for n in labels] for ni, d in runs},
                   "cycles for one scan phase", "Fig. 9: radix-sort scan, 64 processors")
    delay_helps = all(cycles[(n, ni, "with delay")] < cycles[(n, ni, "no delay")] for n in labels
                      for ni in ("no NIFDY", "NIFDY"))
    gain = {n: {ni: cycles[(n, ni, "no delay")] / cycles[(n, ni, "with delay")] for ni in ("no NIFDY", "NIFDY")}
            for n in labels}
    nifdy_gain = {n: cycles[(n, "no NIFDY", "no delay")] / cycles[(n, "NIFDY", "no delay")] for n in labels}
    rows = [
        ("\"adding delays between successive sends helped in all cases\"",
         "; ".join(f"{n}: ×{gain[n]['no NIFDY']:.1f} without NIFDY, ×{gain[n]['NIFDY']:.1f} with" for n in labels),
         delay_helps, "helped: fewer cycles with the delay"),
        ("\"it was more critical when NIFDY was not included\"",
         "delay's gain without / with NIFDY: " + ", ".join(
             f"{n} {gain[n]['no NIFDY']:.1f} / {gain[n]['NIFDY']:.1f}" for n in labels),
         all(gain[n]["no NIFDY"] >= gain[n]["NIFDY"] for n in labels), ""),
    ]
    if "S&F fat tree" in labels and "full fat tree" in labels:
        rows.append(("\"Networks with higher latencies, e.g., the store and forward fat tree, get a bigger gain from "
                     "NIFDY, than those with lower latencies, like the full fat tree\"",
                     f"NIFDY's speed-up without delays: S&F fat tree ×{nifdy_gain['S&F fat tree']:.1f}, full fat "
                     f"tree ×{nifdy_gain['full fat tree']:.1f}",
                     nifdy_gain["S&F fat tree"] > nifdy_gain["full fat tree"], ""))
    coalesce = per_network(out, "fig09b_coalesce_", [("full_fat_tree", "full fat tree")], lambda r: (r["ni"],),
                           lambda j: j["last_delivery"])
    ratio = coalesce[("full fat tree", "NIFDY")] / coalesce[("full fat tree", "no NIFDY")]
    rows.append(("Coalesce phase: \"virtually identical with and without NIFDY ... NIFDY's restrictiveness did "
                 "not hurt performance\"", f"full fat tree, 512 keys per processor: {coalesce[('full fat tree', 'no NIFDY')]} "
                 f"cycles without NIFDY, {coalesce[('full fat tree', 'NIFDY')]} with (×{ratio:.2f})",
                 0.95 <= ratio <= 1.05, "virtually identical: within 5 %"))
    rep.claims(rows)
    rep.text("NIFDY slows a sender only when its round trip exceeds the receiver's 56-cycle receive: then the "
             "receiver gets gaps in which to forward. On the store-and-forward tree and the mesh the round "
             "trip is long enough; on the full fat tree and the butterfly (5 cycles per hop, cut-through) "
             "it is not, and NIFDY changes nothing without delays.")
    rep.figure(png, "Fig. 9")


EM3D_NETWORKS = [("full_fat_tree", "full fat tree"), ("multibutterfly", "multibutterfly"),
                 ("mesh_8x8", "8x8 mesh"), ("butterfly", "butterfly")]


def fig7_8(out, rep):
    def per_iteration(j):
        ends = j.get("iteration_ends", [])
        return (ends[-1] - ends[0]) / (len(ends) - 1) if len(ends) > 1 else None

    cycles = per_network(out, "fig07_08_em3d_", EM3D_NETWORKS, lambda r: (r["graph"], r["run"]), per_iteration)
    labels = [label for _, label in EM3D_NETWORKS if (label, "less communication", "no NIFDY") in cycles]
    runs = ["no NIFDY", "buffers only", "NIFDY-", "NIFDY"]
    rep.section("Figs. 7-8 — EM3D",
                "Cycles per iteration (after a warm-up iteration) on 64 processors. \"NIFDY-\": NIFDY's flow "
                "control with the library that does not rely on in-order delivery (2 values per packet); "
                "\"NIFDY\": the library exploits in-order delivery (5 values per packet). The mesh and the "
                "butterfly deliver in order by themselves, so all their runs use the in-order library and "
                "they have no NIFDY- run.")
    pngs = []
    for fig, graph in ((7, "less communication"), (8, "more communication")):
        rep.table(["network"] + runs, [[n] + [("—" if cycles.get((n, graph, r)) is None else f"{cycles[(n, graph, r)]:.0f}")
                                             for r in runs] for n in labels])
        pngs.append(bar_plot(os.path.join(out, f"fig0{fig}_em3d_{graph.split()[0]}"), labels,
                             {r: [cycles.get((n, graph, r)) or 0 for n in labels] for r in runs},
                             "cycles per iteration", f"Fig. {fig}: EM3D, {graph}"))
    graphs = ("less communication", "more communication")
    reorder = [n for n in labels if (n, graphs[0], "NIFDY-") in cycles]
    diff = {(n, g): cycles[(n, g, "NIFDY-")] / cycles[(n, g, "buffers only")] - 1 for n in reorder for g in graphs}
    wins = {(n, g): cycles[(n, g, "NIFDY")] / cycles[(n, g, "buffers only")] for n in labels for g in graphs}
    rep.claims([
        ("\"Without in-order delivery, the difference between NIFDY and the buffers-only configurations is "
         "negligible\"", "; ".join(f"{n}, {g}: {100 * d:+.0f} %" for (n, g), d in diff.items()),
         all(abs(d) <= 0.05 for d in diff.values()), "negligible: within 5 %"),
        ("\"Once the library takes advantage of the in-order delivery provided by NIFDY, it outperforms the "
         "buffers-only configuration in all cases\"",
         "; ".join(f"{n}, {g}: ×{w:.2f}" for (n, g), w in wins.items()) + " of buffers-only's cycles",
         all(w < 1.0 for w in wins.values()), ""),
    ])
    rep.text("On the networks that reorder, the in-order library needs 2.5 times fewer packets, and that "
             "dominates. On the mesh and the butterfly every run already uses the in-order library, so NIFDY "
             "competes with buffers-only on flow control alone.")
    for fig, png in zip((7, 8), pngs):
        rep.figure(png, f"Fig. {fig}")


# Table 3 as printed: (D, W, B, O). The 8x8 mesh's row lost its values in extraction; §2.4.3's
# initial guess for that network stands in.
TABLE3 = {
    "full fat tree": (1, 4, 8, 8), "CM-5 fat tree": (1, 4, 8, 8), "S&F fat tree": (1, 8, 16, 8),
    "8x8 mesh": (1, 2, 4, 4), "8x8 torus": (1, 2, 8, 4), "4x4x4 mesh": (1, 2, 8, 4),
    "butterfly": (0, 0, 8, 8), "multibutterfly": (1, 4, 8, 8),
}


def table3(out, rep):
    best, paper_score, rows_out = {}, {}, []
    for suffix, label in NETWORKS:
        directory = os.path.join(out, f"table3_{suffix}")
        if not os.path.exists(os.path.join(directory, "results.csv")):
            continue
        delivered = {}
        for r in read_rows_with_points(directory):
            if r["json"] is None:
                continue
            d, w = (0, 0) if r["bulk"] == "D 0" else (1, int(r["bulk"].split("W")[1]))
            delivered[((d, w, r["nic.B"], r["nic.O"]), r["traffic"])] = r["json"]["delivered_packets"]
        top = {t: max(v for (k, tt), v in delivered.items() if tt == t) for t in ("heavy", "light")}
        score = {k: sum(delivered[(k, t)] / top[t] for t in ("heavy", "light")) / 2
                 for (k, t) in delivered if t == "heavy" and (k, "light") in delivered}
        b = max(score, key=score.get)
        best[label] = b
        paper = TABLE3[label]
        paper_score[label] = score.get(paper, None)
        rows_out.append([label, "D {} W {} B {} O {}".format(*paper), "D {} W {} B {} O {}".format(*b),
                         f"{score[b]:.3f}", "—" if paper_score[label] is None else f"{paper_score[label]:.3f}"])
    if not rows_out:
        raise FileNotFoundError(2, "no sweep output", os.path.join(out, "table3_*"))
    rep.section("Table 3 — best NIFDY parameters per network",
                "Each network swept over O ∈ {4, 8}, B ∈ {4, 8, 16} and bulk dialogs (none, or D = 1 with "
                "W = 2, 4, 8), heavy and light traffic. Score: packets delivered relative to the best "
                "setting for each traffic pattern, averaged over the two patterns (the paper chose its "
                "parameters \"to give the best average performance with both test traffic patterns\").")
    rep.table(["network", "Table 3", "best in our sweep", "its score", "score of Table 3's"], rows_out)

    def looseness(p):
        d, w, b, o = p
        return o + b + d * w

    trees = [best[n] for n in ("full fat tree", "CM-5 fat tree", "S&F fat tree") if n in best]
    meshes = [best[n] for n in ("8x8 mesh", "8x8 torus", "4x4x4 mesh") if n in best]
    near = {n: s for n, s in paper_score.items() if s is not None}
    no_bulk = [n for n, p in best.items() if p[0] == 0]
    rows = [
        ("Table 3's parameters are the best for each network (\"The best NIFDY parameters ... are shown in "
         "Table 3\")", ", ".join(f"{n} {s:.3f}" for n, s in near.items()) + " of the best score",
         all(s >= 0.97 for s in near.values()), "best: within 3 % of our best setting"),
    ]
    if trees and meshes:
        t = sum(map(looseness, trees)) / len(trees)
        m = sum(map(looseness, meshes)) / len(meshes)
        rows.append(("\"The ideal NIFDY parameters for the fat-tree variations are less restrictive than those "
                     "for the meshes\"", f"mean O + B + D·W of the best settings: fat trees {t:.1f}, meshes {m:.1f}",
                     t > m, ""))
    rows.append(("\"the butterfly is the only network where it is best to have no bulk dialogs\"",
                 "best without bulk dialogs: " + (", ".join(no_bulk) or "none"), no_bulk == ["butterfly"], ""))
    rep.claims(rows)
    rep.text("In our model the largest pool (B = 16) is best or near-best everywhere: a larger pool only "
             "lets the NI choose among more eligible packets, and the network is protected by the OPT and the "
             "windows whatever B is. Table 3's settings come within 6-7 % of our best on most networks. The "
             "quick profile's 50 000 cycles per point make small differences noisy; `--full` runs 1 000 000.")


def main():
    run_report(sys.argv[1], "nifdy", "Callahan & Goldstein, *NIFDY*: reproduction report",
               "Work in progress (issue 5): Figs. 2-9 and Table 3. The quick "
               "profile runs 200 000 cycles per point (100 000 for Fig. 4); `--full` runs the paper's 1 000 000 "
               "(300 000 for Fig. 4). Modelling choices: "
               "docs/models/nifdy.md.", [fig2_3, fig4, fig5_6, fig7_8, fig9, table3])


if __name__ == "__main__":
    main()
