"""Statistics over seeds shared by the reports that run every point with several seeds
(multirail_report.py, spider_report.py).

A value is the mean over seeds with its 95 % confidence half-width (Student's t). A point
is below saturation only when its accepted load is at least 0.95 of its offered load and
its measured packets were all delivered, for every seed.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_lib import read_rows_with_points  # noqa: E402

LOAD = "traffic.load"
SEED = "simulation.seed"
BELOW = 0.95        # accepted / offered at or above which a point is below saturation
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


class Value:
    """Mean of per-seed samples with a 95 % confidence half-width (None with one sample)."""

    def __init__(self, samples):
        self.samples = [s for s in samples if s is not None]
        n = len(self.samples)
        self.mean = sum(self.samples) / n if n else float("nan")
        if n > 1:
            sd = math.sqrt(sum((s - self.mean) ** 2 for s in self.samples) / (n - 1))
            self.half = T95.get(n - 1, 1.96) * sd / math.sqrt(n)
        else:
            self.half = None

    def text(self, digits=3, scale=1.0, unit=""):
        if not self.samples:
            return "—"
        m = self.mean * scale
        if self.half is None:
            return f"{m:.{digits}f}{unit} (1 seed)"
        return f"{m:.{digits}f} ± {self.half * scale:.{digits}f}{unit}"

    def low(self):
        return self.mean - (self.half or 0.0)

    def high(self):
        return self.mean + (self.half or 0.0)


def greater(a, b):
    """a > b by the means, and a note when the 95 % intervals overlap (the verdict could flip
    within them)."""
    return a.mean > b.mean, ("" if a.half is None or b.half is None or a.low() > b.high() and a.mean > b.mean
                             or a.high() < b.low() and a.mean < b.mean else "the intervals overlap: not significant")


def joined(*notes):
    return "; ".join(n for n in notes if n)


def percent(v):
    return v.text(1, 100.0, " %")


def all_points(out, experiment):
    """[(row, point JSON)] of the points that ran, including those that ended in an error (a
    stuck network: the JSON then has "error" and no results)."""
    return [(r, r["json"]) for r in read_rows_with_points(os.path.join(out, experiment)) if r["json"] is not None]


def load_points(out, experiment):
    """[(row, point JSON)] of the points that finished with results."""
    return [(r, j) for r, j in all_points(out, experiment) if "error" not in j]


def below_saturation(j):
    return j["accepted"] >= BELOW * j["offered"] and j["drained"]


class Grid:
    """Results of one sweep indexed by configuration (every column but the seed) and seed.
    `order`: {column: sort key} for columns whose values do not sort as they are."""

    def __init__(self, out, experiment, keys, order=None):
        self.keys = keys
        self.order = order or {}
        self.cells = {}
        self.failed = {}  # configuration -> {seed: error} of points that ended in an error
        for r, j in all_points(out, experiment):
            cells = self.failed if "error" in j else self.cells
            cells.setdefault(tuple(r[k] for k in keys), {})[r[SEED]] = j.get("error", j)

    def values(self, key):
        return sorted({k[self.keys.index(key)] for k in self.cells}, key=self.order.get(key))

    def seeds(self, **where):
        """{seed: JSON} of the one configuration `where` names."""
        return self.cells.get(tuple(where[k] for k in self.keys), {})

    def value(self, f, **where):
        return Value([f(j) for j in self.seeds(**where).values()])

    def unsaturated(self, **where):
        """Below saturation for every seed; a point that ended in an error never is."""
        s = self.seeds(**where)
        return bool(s) and not self.errors(**where) and all(below_saturation(j) for j in s.values())

    def errors(self, **where):
        """{seed: error message} of the configuration's points that ended in an error."""
        return self.failed.get(tuple(where[k] for k in self.keys), {})

    def below(self, f, **where):
        """Value of f over seeds, or None when any seed is not below saturation."""
        if not self.unsaturated(**where):
            return None
        return self.value(f, **where)

    def latency(self, **where):
        """Mean message latency, or None when any seed is not below saturation."""
        return self.below(lambda j: j["message_latency"]["mean"], **where)

    def per_seed(self, f, over, **where):
        """Value over seeds of f([(x, JSON) along axis `over`, in order]) for each seed."""
        seeds = {}
        for x in self.values(over):
            for seed, j in self.seeds(**where, **{over: x}).items():
                seeds.setdefault(seed, []).append((x, j))
        return Value([f(points) for points in seeds.values()])

    def max_accepted(self, **where):
        return self.per_seed(lambda points: max(j["accepted_fraction"] for _, j in points), LOAD, **where)

    def saturation_point(self, **where):
        """Per seed: the least load not below saturation (no sample if every load is)."""
        def first(points):
            return next((x for x, j in points if j["accepted"] < BELOW * j["offered"]), None)
        return self.per_seed(first, LOAD, **where)


def ratio(a, b):
    """Per-seed ratio a/b of two Values sampled with the same seeds."""
    return Value([x / y for x, y in zip(a.samples, b.samples) if y])
