#!/usr/bin/env python3
"""Plots one metric of a sweep against one axis, one curve per value of another axis.

  plot_sweep.py OUT/results.csv --x traffic.load --y latency_mean --series router.lanes \
      --out latency [--xlabel ...] [--ylabel ...] [--title ...] [--log2x] [--drained-only] [--over-seeds] [--where KEY=VALUE ...]

Writes latency.png and latency.svg. Column names are those of results.csv: the sweep axes
(e.g. router.lanes) and the metrics (offered_fraction, accepted_fraction, latency_mean,
latency_p99, model_latency, ...). With --over-seeds, each point is the mean over the values of
simulation.seed, drawn with its 95 % confidence interval (Student's t). --where keeps the rows
whose column KEY holds VALUE (as results.csv writes it), e.g. --where traffic.pattern.type=uniform.
"""
import argparse
import os
import sys

from tools.report import lib as report_lib
from tools.report.seed_stats import Curve
from tools.report.value import Value


def over_seeds(data):
    """{label: (xs, ys)} with repeated xs (one per seed) -> {label: Curve of means and half-widths}."""
    out = {}
    for label, (xs, ys) in data.items():
        by_x = {}
        for x, y in zip(xs, ys):
            by_x.setdefault(x, []).append(float(y))
        keys = sorted(by_x)
        values = [Value(by_x[x]) for x in keys]
        out[label] = Curve(keys, [v.mean for v in values], [v.half for v in values])
    return out


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
    ap.add_argument("--over-seeds", action="store_true", help="mean and 95 %% interval over simulation.seed")
    ap.add_argument("--where", action="append", default=[], help="KEY=VALUE: only the rows where column KEY is VALUE")
    a = ap.parse_args()
    rows = report_lib.read_sweep(os.path.dirname(os.path.abspath(a.csv)))
    for col in [a.x, a.y] + ([a.series] if a.series else []):
        if rows and col not in rows[0]:
            sys.exit(f"{a.csv}: no column '{col}'; columns: {', '.join(rows[0])}")
    wanted = [w.split("=", 1) for w in a.where]
    for w in a.where:
        if "=" not in w:
            sys.exit(f"--where {w}: expected KEY=VALUE")
    for key, _ in wanted:
        if rows and key not in rows[0]:
            sys.exit(f"{a.csv}: no column '{key}'; columns: {', '.join(rows[0])}")

    def where(r):
        return (not a.drained_only or r.get("drained") is not False) and all(
            str(r.get(k)) == v for k, v in wanted)
    data = report_lib.series(rows, a.series, a.x, a.y, where)
    if a.over_seeds:
        data = over_seeds(data)
    lines = {(f"{a.series} = {k}" if a.series else a.y): v for k, v in data.items()}
    png = report_lib.line_plot(a.out, lines, a.xlabel or a.x, a.ylabel or a.y, a.title, log2x=a.log2x)
    if png is None:
        sys.exit("python3-matplotlib is missing: bash scripts/install-deps.sh --with-plots")
    print(f"{a.out}.png, {a.out}.svg")


if __name__ == "__main__":
    main()
