"""Readers, figures and claim helpers the multi-rail report's sections share
(tools/multirail/report.py)."""
import os

from tools.report import seed_stats
from tools.report import verdict as vd
from tools.report.lib import line_plot
from tools.report.seed_stats import Value

SIZE = "size"  # the case naming the average message size, e.g. "4 KB"
ALGORITHMS = ["basic", "local-dynamic", "local-dynamic, striping", "dynamic", "dynamic, striping"]


def kb(size):
    """KB of a size case's name ("64 KB")."""
    return int(size.split()[0])


def Grid(out, experiment, keys):  # noqa: N802 -- a Grid whose size column sorts by KB
    return seed_stats.Grid(out, experiment, keys, {SIZE: kb})


def load_curves(grid, f, only_unsaturated, **where):
    """{algorithm: (loads, mean values)} for the algorithms in the grid."""
    return {a: grid.curve(f, only_unsaturated, **where, algorithm=a) for a in grid.values("algorithm")}


def accepted_and_latency_figures(out, grid, name, title, **where):
    acc = line_plot(os.path.join(out, f"{name}_bandwidth"),
                    load_curves(grid, lambda j: j["accepted_fraction"], False, **where),
                    "offered load", "accepted load", f"{title}: accepted bandwidth", ylim=(0, 0.55))
    lat = line_plot(os.path.join(out, f"{name}_latency"),
                    load_curves(grid, lambda j: j["message_latency"]["mean"], True, **where),
                    "offered load", "message latency (cycles)", f"{title}: latency below saturation")
    return acc, lat


def accepted_at(grid, **where):
    return grid.value(lambda j: j["accepted_fraction"], **where)


def gain(v):
    """A per-seed ratio as a gain (ratio - 1)."""
    return Value([x - 1 for x in v.samples])


def lower_latency(a, b):
    """Verdict that latency `a` is below `b` (Values, None when not below saturation): holds
    when only `a` is below saturation, does not hold when only `b` is, paired otherwise; None
    when neither is."""
    if a is None and b is None:
        return None
    if b is None:
        return vd.Verdict(vd.HOLDS)
    if a is None:
        return vd.Verdict(vd.FAILS)
    return vd.greater(b, a)


def all_parts(verdicts):
    """all_hold over the parts that apply (None: not applicable); None when none does."""
    parts = [v for v in verdicts if v is not None]
    return vd.all_hold(*parts) if parts else None
