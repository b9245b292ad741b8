#!/usr/bin/env python3
"""NIFDY §6.3's question (experiments/nifdy/adaptive_mesh.toml and adaptive_mesh_lossy.toml,
docs/faults.md): does NIFDY's admission control and in-order delivery help adaptive routing on
a mesh "reach its potential"? Compares dimension-order and adaptive routing behind a plain NI
and behind NIFDY, on the same seeds, by per-seed ratios.

  python3 -m tools.faults.adaptive_study LABEL=SWEEP_DIR [LABEL=SWEEP_DIR ...] --out DIR

Each sweep has the axes `routing` ("dimension order" and one adaptive routing), `ni` ("plain"
and "NIFDY"), `traffic` and the seed; LABEL names its condition (e.g. "no faults"). Per
condition and traffic: packets delivered (mean, 95 % interval), the adaptive routing's gain
(adaptive / dimension order, per seed) behind each NI, and two verdicts from the data:
  "NIFDY helps adaptive routing": the per-seed ratio of the gains, NIFDY's over the plain
      NI's, above 1 (holds), below 1 (does not hold), or an interval containing 1;
  "adaptive routing reaches its potential with NIFDY": the gain behind NIFDY above 1.
Packets delivered out of order behind the plain NI (NIFDY delivers in order) are listed as a
share of those delivered. Writes DIR/adaptive_study.md and the figure DIR/adaptive_study.*.
"""
import argparse
import os

from tools.report import lib, verdict
from tools.report.seed_stats import Grid, Value

KEYS = ["routing", "ni", "traffic"]
DOR = "dimension order"
PLAIN, NIFDY = "plain", "NIFDY"


def delivered(j):
    return j["delivered_packets"]


def out_of_order_share(j):
    return j["out_of_order_packets"] / j["delivered_packets"] if j["delivered_packets"] else 0.0


def adaptive_case(grid):
    others = [r for r in grid.values("routing") if r != DOR]
    if len(others) != 1:
        raise SystemExit(f"expected the routing cases \"{DOR}\" and one adaptive routing, got {grid.values('routing')}")
    return others[0]


def paired_values(grid, f, **where):
    """{seed: f(point)} of one configuration."""
    return {s: f(j) for s, j in grid.seeds(**where).items()}


def gain(grid, adaptive, ni, traffic):
    """Per seed: delivered with adaptive routing / with dimension order, behind `ni`."""
    a = paired_values(grid, delivered, routing=adaptive, ni=ni, traffic=traffic)
    d = paired_values(grid, delivered, routing=DOR, ni=ni, traffic=traffic)
    return {s: a[s] / d[s] for s in sorted(a) if s in d and d[s]}


def condition_rows(grid):
    """Per traffic: (traffic, {(routing, ni): Value delivered}, gain plain, gain NIFDY, ratio of
    gains, verdict helps, verdict potential, out-of-order share behind the plain NI per routing)."""
    adaptive = adaptive_case(grid)
    out = []
    for traffic in grid.values("traffic"):
        cells = {(r, n): grid.value(delivered, routing=r, ni=n, traffic=traffic)
                 for r in (DOR, adaptive) for n in (PLAIN, NIFDY)}
        plain, nifdy = gain(grid, adaptive, PLAIN, traffic), gain(grid, adaptive, NIFDY, traffic)
        seeds = [s for s in plain if s in nifdy]
        ratio = Value([nifdy[s] / plain[s] for s in seeds])
        reorder = {r: grid.value(out_of_order_share, routing=r, ni=PLAIN, traffic=traffic) for r in (DOR, adaptive)}
        out.append((traffic, cells, Value([plain[s] for s in seeds]), Value([nifdy[s] for s in seeds]), ratio,
                    verdict.decide(ratio, 1.0), verdict.decide(Value([nifdy[s] for s in seeds]), 1.0), reorder))
    return adaptive, out


def section(label, adaptive, rows, seeds):
    lines = [f"### {label}", "",
             f"{seeds} seeds; packets delivered (mean ± 95 % interval); gains are per seed ({adaptive} / {DOR}).", "",
             f"| traffic | {DOR}, plain | {DOR}, NIFDY | {adaptive}, plain | {adaptive}, NIFDY | gain, plain | "
             "gain, NIFDY | NIFDY's gain / plain's | NIFDY helps adaptive routing | adaptive beats DOR with NIFDY | "
             f"out of order, plain, {DOR} | out of order, plain, {adaptive} |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for traffic, cells, gp, gn, ratio, helps, potential, reorder in rows:
        lines.append(f"| {traffic} | {cells[(DOR, PLAIN)].text(0)} | {cells[(DOR, NIFDY)].text(0)} | "
                     f"{cells[(adaptive, PLAIN)].text(0)} | {cells[(adaptive, NIFDY)].text(0)} | {gp.text(3)} | "
                     f"{gn.text(3)} | {ratio.text(3)} | {helps.outcome} | {potential.outcome} | "
                     f"{reorder[DOR].text(2, 100.0, ' %')} | {reorder[adaptive].text(2, 100.0, ' %')} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweeps", nargs="+", metavar="LABEL=SWEEP_DIR")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    text, bars, names = "", {}, []
    for spec in args.sweeps:
        label, _, path = spec.partition("=")
        if not path:
            raise SystemExit(f"{spec}: expected LABEL=SWEEP_DIR")
        path = os.path.abspath(path)
        grid = Grid(os.path.dirname(path), os.path.basename(path), KEYS)
        if not grid.cells:
            raise SystemExit(f"{path}: no points with results")
        adaptive, rows = condition_rows(grid)
        text += section(label, adaptive, rows, max(len(s) for s in grid.cells.values())) + "\n"
        for traffic, _, gp, gn, *_ in rows:
            names.append(f"{label}, {traffic}")
            bars.setdefault("behind a plain NI", []).append(gp)
            bars.setdefault("behind NIFDY", []).append(gn)
    os.makedirs(args.out, exist_ok=True)
    lib.write_atomic(os.path.join(args.out, "adaptive_study.md"), lambda f: f.write(text.encode()))
    print(text, end="")
    png = lib.bar_plot(os.path.join(args.out, "adaptive_study"), names, bars,
                       "packets delivered, adaptive / dimension order (per seed, 95 % CI)",
                       "Adaptive routing on the 8x8 mesh, with and without NIFDY")
    if png:
        print(f"wrote {png}")


if __name__ == "__main__":
    main()
