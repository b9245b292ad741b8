#!/usr/bin/env python3
"""Plots one metric of a sweep against one axis, one curve per value of another axis.

  plot_sweep.py OUT/results.csv --x traffic.load --y latency_mean --series router.lanes \
      --out latency [--xlabel ...] [--ylabel ...] [--title ...] [--log2x] [--drained-only]

Writes latency.png and latency.svg. Column names are those of results.csv: the sweep axes
(e.g. router.lanes) and the metrics (offered_fraction, accepted_fraction, latency_mean,
latency_p99, model_latency, ...).
"""
import argparse
import os
import sys

from tools.report import lib as report_lib


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--x", required=True)
    ap.add_argument("--y", required=True)
    ap.add_argument("--series")
    ap.add_argument("--out", required=True, help="output path without extension")
    ap.add_argument("--xlabel")
    ap.add_argument("--ylabel")
    ap.add_argument("--title", default="")
    ap.add_argument("--log2x", action="store_true")
    ap.add_argument("--drained-only", action="store_true", help="skip points that did not drain")
    a = ap.parse_args()
    rows = report_lib.read_sweep(os.path.dirname(os.path.abspath(a.csv)))
    for col in [a.x, a.y] + ([a.series] if a.series else []):
        if rows and col not in rows[0]:
            sys.exit(f"{a.csv}: no column '{col}'; columns: {', '.join(rows[0])}")
    where = (lambda r: r.get("drained") is not False) if a.drained_only else None
    data = report_lib.series(rows, a.series, a.x, a.y, where)
    lines = {(f"{a.series} = {k}" if a.series else a.y): v for k, v in data.items()}
    png = report_lib.line_plot(a.out, lines, a.xlabel or a.x, a.ylabel or a.y, a.title, log2x=a.log2x)
    if png is None:
        sys.exit("python3-matplotlib is missing: bash scripts/install-deps.sh --with-plots")
    print(f"{a.out}.png, {a.out}.svg")


if __name__ == "__main__":
    main()
