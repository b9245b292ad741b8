#!/usr/bin/env python3
"""Figures and reproduction report for Callahan & Goldstein, *NIFDY: A Low Overhead, High
Throughput Network Interface* (ISCA '95). Work in progress: Figs. 2-3 on six of the eight
networks so far.

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
from report_lib import bar_plot, read_rows_with_points, run_report  # noqa: E402

NETWORKS = [  # experiment suffix, label, in the paper's order
    ("full_fat_tree", "full fat tree"),
    ("store_and_forward_fat_tree", "S&F fat tree"),
    ("mesh_8x8", "8x8 mesh"),
    ("torus_8x8", "8x8 torus"),
    ("mesh_4x4x4", "4x4x4 mesh"),
    ("butterfly", "butterfly"),
]
NIS = ["none", "buffers only", "NIFDY"]


def delivered(out):
    """{(network label, traffic, ni): packets delivered} for the networks that have results."""
    table = {}
    for suffix, label in NETWORKS:
        directory = os.path.join(out, f"fig02_03_{suffix}")
        if not os.path.exists(os.path.join(directory, "results.csv")):
            continue
        for r in read_rows_with_points(directory):
            if r["json"] is not None:
                table[(label, r["traffic"], r["ni"])] = r["json"]["delivered_packets"]
    if not table:
        raise FileNotFoundError(2, "no sweep output", os.path.join(out, "fig02_03_*"))
    return table


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
                "with Table 3's parameters, buffers-only with the same total buffering. Networks not yet "
                "built: the CM-5 fat tree and the multibutterfly.")
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


def main():
    run_report(sys.argv[1], "nifdy", "Callahan & Goldstein, *NIFDY*: reproduction report (in progress)",
               "Work in progress (issue 5): Figs. 2-3 on six of the paper's eight networks. The quick profile "
               "runs 200 000 cycles per point; `--full` runs the paper's 1 000 000. Modelling choices: "
               "docs/models/nifdy.md.", [fig2_3])


if __name__ == "__main__":
    main()
