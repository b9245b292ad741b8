#!/usr/bin/env python3
"""Plots metrics of one or more sweeps against one axis, one curve per value of other axes.

  plot_sweep.py OUT/results.csv --x traffic.load --y latency_mean --series router.lanes \
      --out latency [--xlabel ...] [--ylabel ...] [--title ...] [--log2x] [--logy] [--drained-only] [--over-seeds] [--where KEY=VALUE ...]

Several --series keys give one curve per combination (--series routing.type --series
traffic.pattern.type); several --y draw each metric (--y latency_p50 --y latency_p99: the
percentiles); several CSV files are overlaid, each curve named by its --label (one per file,
in order) or its directory.

Writes latency.png and latency.svg. Column names are those of results.csv: the sweep axes
(e.g. router.lanes) and the metrics (offered_fraction, accepted_fraction, latency_mean,
latency_p99, model_latency, ...). With --over-seeds, each point is the mean over the values of
simulation.seed, drawn with its 95 % confidence interval (Student's t). --where keeps the rows
whose column KEY holds VALUE (as results.csv writes it), e.g. --where traffic.pattern.type=uniform.

The knee: where results.csv says which points are below saturation (below_saturation: accepted
at least 0.95 of offered, and drained), the points past it are ringed and each curve's knee is
printed, between its last load below saturation and the first past it (with --over-seeds, a load
is below only when every seed's point is). --no-knee leaves them out.
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


def past_saturation(rows, series_key, x, where):
    """{series value: sorted xs where some point is past saturation}; None without the column."""
    if not rows or "below_saturation" not in rows[0]:
        return None
    if not any(isinstance(r.get("below_saturation"), bool) for r in rows):
        return None  # no point judged (closed-loop traffic, saturation sources): no knee to draw
    out = {}
    for r in rows:
        if where(r) and r.get("below_saturation") is False:
            out.setdefault(r[series_key] if series_key else "", set()).add(r[x])
    return {k: sorted(v) for k, v in out.items()}


def knees(data, past):
    """Per series label: (last x below saturation, first x past it); either may be None."""
    out = {}
    for label, (xs, _) in data.items():
        first_past = min(past.get(label, []), default=None)
        below = [x for x in xs if first_past is None or x < first_past]
        out[label] = (max(below, default=None), first_past)
    return out


def ringed(data, past):
    """The (xs, ys) of the points past saturation, over every series, for the plot's markers."""
    xs, ys = [], []
    for label, (lx, ly) in data.items():
        for x, y in zip(lx, ly):
            if x in past.get(label, []):
                xs.append(x), ys.append(y)
    return xs, ys


SERIES = "__series"  # the column a row's series label is put in (several --series keys)


def label_series(rows, keys):
    """Puts each row's series label ("routing.type = ugal, traffic.pattern.type = uniform") in
    rows[SERIES]; the label is "" without series keys."""
    for r in rows:
        r[SERIES] = ", ".join(f"{k} = {r.get(k)}" for k in keys)


def check_columns(path, rows, columns):
    for col in columns:
        if rows and col not in rows[0]:
            sys.exit(f"{path}: no column '{col}'; columns: {', '.join(c for c in rows[0] if c != SERIES)}")


def curves(rows, a, y, where, prefix):
    """{label: curve} for one metric of one sweep, the knees printed, and the ringed points."""
    data = report_lib.series(rows, SERIES, a.x, y, where)
    if a.over_seeds:
        data = over_seeds(data)
    parts = [prefix] + ([y] if len(a.y) > 1 or not a.series else [])

    def name(k):
        return ": ".join(p for p in parts + [k] if p)
    past = None if a.no_knee else past_saturation(rows, SERIES, a.x, where)
    if past is None:
        return {name(k): v for k, v in data.items()}, None
    for k, (below, first_past) in knees(data, past).items():
        print(f"{name(k) or y}: " + (f"knee between {below:g} and {first_past:g}" if below is not None and first_past
                                     is not None else f"every point past saturation from {first_past:g}"
                                     if first_past is not None else "every point below saturation"))
    return {name(k): v for k, v in data.items()}, ringed(data, past)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", help="one or more results.csv, drawn on one plot")
    ap.add_argument("--label", action="append", default=[], help="a name per CSV (default: its directory's)")
    ap.add_argument("--x", required=True)
    ap.add_argument("--y", required=True, action="append", help="a metric; several draw each (e.g. percentiles)")
    ap.add_argument("--series", action="append", default=[], help="an axis; several make one curve per combination")
    ap.add_argument("--out", required=True, help="output path without extension")
    ap.add_argument("--xlabel")
    ap.add_argument("--ylabel")
    ap.add_argument("--title", default="")
    ap.add_argument("--log2x", action="store_true")
    ap.add_argument("--logy", action="store_true", help="a logarithmic y axis")
    ap.add_argument("--drained-only", action="store_true", help="skip points that did not drain")
    ap.add_argument("--over-seeds", action="store_true", help="mean and 95 %% interval over simulation.seed")
    ap.add_argument("--where", action="append", default=[], help="KEY=VALUE: only the rows where column KEY is VALUE")
    ap.add_argument("--no-knee", action="store_true", help="do not ring the points past saturation")
    a = ap.parse_args()
    if a.label and len(a.label) != len(a.csv):
        sys.exit(f"--label: {len(a.label)} given for {len(a.csv)} CSV files (one each, or none)")
    for w in a.where:
        if "=" not in w:
            sys.exit(f"--where {w}: expected KEY=VALUE")
    wanted = [w.split("=", 1) for w in a.where]

    def where(r):
        return (not a.drained_only or r.get("drained") is not False) and all(
            str(r.get(k)) == v for k, v in wanted)
    lines, rings = {}, ([], [])
    for i, path in enumerate(a.csv):
        rows = report_lib.read_sweep(os.path.dirname(os.path.abspath(path)))
        check_columns(path, rows, [a.x] + a.y + a.series + [k for k, _ in wanted])
        label_series(rows, a.series)
        prefix = a.label[i] if a.label else (os.path.basename(os.path.dirname(os.path.abspath(path)))
                                             if len(a.csv) > 1 else "")
        for y in a.y:
            these, past = curves(rows, a, y, where, prefix)
            lines.update(these)
            if past:
                rings[0].extend(past[0]), rings[1].extend(past[1])
    points = None if a.no_knee or not rings[0] else {
        "past saturation (accepted < 0.95 offered, or undrained)": rings}
    png = report_lib.line_plot(a.out, lines, a.xlabel or a.x, a.ylabel or ", ".join(a.y), a.title, points=points,
                               log2x=a.log2x, rings=True, logy=a.logy)
    if png is None:
        sys.exit("python3-matplotlib is missing: bash scripts/install-deps.sh")
    print(f"{a.out}.png, {a.out}.svg")


if __name__ == "__main__":
    main()
