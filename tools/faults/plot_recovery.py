#!/usr/bin/env python3
"""Throughput over time of a sweep over seeds whose runs fail and repair parts during the run
([faults] `at`, `repair`; docs/faults.md), from each point's link statistics
(simulation.link_stats_interval).

  python3 -m tools.faults.plot_recovery SWEEP_DIR --out DIR

Writes into DIR:
  recovery.csv   per sample: its end cycle, the accepted throughput (flits per terminal per
                 cycle, over every ejection link) as the mean over seeds and its 95 % half-width;
  recovery.txt   the throughput before the first change, between changes, and the time from
                 each change to recovered throughput: the first sample after which every sample
                 up to the next change lies within 5 % of the throughput before the first change;
  recovery.*     the figure (needs python3-matplotlib), the changes marked.
"""
import argparse
import csv
import io
import os

from tools.report import lib
from tools.report.seed_stats import Curve
from tools.report.value import Value

SETTLED = 0.05  # a sample within this fraction of the throughput before the first change is recovered


def throughput_series(point):
    """(sample ends, accepted flits per terminal per cycle in each sample) of a point."""
    stats = point["link_stats"][0]
    kinds = stats["links"]["kind"]
    ejection = [i for i, k in enumerate(kinds) if k == "ejection"]
    ends = stats["sample_ends"]
    terminals = point["terminals"]
    values, start = [], 0
    for end, sample in zip(ends, stats["flits"]):
        values.append(sum(sample[i] for i in ejection) / terminals / max(end - start, 1))
        start = end
    return ends, values


def changes_of(point):
    """[(cycle, cycle routing learns)] of network 0's changes during the run."""
    return [(c["cycle"], c["routing_learns"]) for c in point["faults"][0].get("changes", [])]


def over_seeds(points):
    """Sample ends (those every point has, full samples only) and a Value per sample."""
    series = [throughput_series(p) for p in points]
    ends = series[0][0]
    n = min(len(s[0]) for s in series)
    interval = points[0]["link_stats"][0]["interval"]
    keep = [k for k in range(n) if ends[k] - (ends[k - 1] if k else 0) == interval]
    return [ends[k] for k in keep], [Value([s[1][k] for s in series]) for k in keep]


def recovery(ends, values, changes):
    """The throughput before the first change, and per change the cycles until recovered (None: not in the run)."""
    first = changes[0][0]
    before = Value([v.mean for e, v in zip(ends, values) if e <= first])
    times = []
    for i, (cycle, _) in enumerate(changes):
        until = changes[i + 1][0] if i + 1 < len(changes) else ends[-1] + 1
        window = [(e, v.mean) for e, v in zip(ends, values) if cycle < e <= until]
        recovered = None
        for k in range(len(window)):
            if all(abs(m - before.mean) <= SETTLED * before.mean for _, m in window[k:]):
                recovered = window[k][0] - cycle
                break
        times.append(recovered)
    return before, times


def between(ends, values, start, stop):
    """The mean over seeds of the samples wholly inside (start, stop]."""
    return Value([v.mean for e, v in zip(ends, values) if start < e <= stop])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweep")
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="Throughput over time")
    args = ap.parse_args()
    points = lib.read_points(args.sweep)
    if not points or "link_stats" not in points[0] or not changes_of(points[0]):
        raise SystemExit(f"{args.sweep}: needs points with link statistics and parts failing during the run")
    os.makedirs(args.out, exist_ok=True)
    ends, values = over_seeds(points)
    changes = changes_of(points[0])

    text = io.StringIO()
    w = csv.writer(text, lineterminator="\n")
    w.writerow(["sample_end", "accepted", "half_width_95"])
    for e, v in zip(ends, values):
        w.writerow([e, f"{v.mean:.6f}", "" if v.half is None else f"{v.half:.6f}"])
    lib.write_atomic(os.path.join(args.out, "recovery.csv"), lambda f: f.write(text.getvalue().encode()))
    before, times = recovery(ends, values, changes)
    lines = [f"{len(points)} seeds; throughput in flits per terminal per cycle (mean over seeds of each sample)",
             f"before cycle {changes[0][0]}: {before.text(4)} (over the samples)"]
    bounds = [c for c, _ in changes] + [ends[-1]]
    for (cycle, learns), stop, t in zip(changes, bounds[1:], times):
        lines.append(f"change at {cycle} (routing learns at {learns}): {between(ends, values, cycle, stop).text(4)} "
                     f"until {stop}; recovered (every later sample within {SETTLED:.0%} of before) "
                     + (f"{t} cycles after the change" if t is not None else "not before the next change"))
    lib.write_atomic(os.path.join(args.out, "recovery.txt"), lambda f: f.write(("\n".join(lines) + "\n").encode()))
    print("\n".join(lines))
    curve = Curve(ends, [v.mean for v in values], [v.half or 0.0 for v in values])
    marks = {f"change at {c}": ([c, c], [0, max(v.mean for v in values) * 1.1]) for c, _ in changes}
    png = lib.line_plot(os.path.join(args.out, "recovery"), {"accepted (mean over seeds, 95 % CI)": curve, **marks},
                        "cycle (end of each sample)", "accepted flits / terminal / cycle", args.title)
    if png:
        print(f"wrote {png}")


if __name__ == "__main__":
    main()
