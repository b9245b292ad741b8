"""Statistics over seeds shared by the reports that run every point with several seeds
(tools/multirail/report.py, tools/spider/report.py).

A value is the mean over seeds with its 95 % confidence half-width (Student's t). A point
is below saturation only when its accepted load is at least 0.95 of its offered load and
its measured packets were all delivered, for every seed.
"""
import copy
import os

from tools.report import verdict
from tools.report.lib import read_rows_with_points
from tools.report.value import ROUNDING, T95, Value  # noqa: F401 (the reports import them from here)

LOAD = "traffic.load"
SEED = "simulation.seed"
BELOW = 0.95        # accepted / offered at or above which a point is below saturation


PAIRED_UNDECIDED = "the paired differences' 95 % interval contains 0: not significant"


def greater(a, b):
    """a > b, with a note when the data do not decide it: two Values of the same seeds (as many
    samples, in seed order) by tools.report.verdict.greater (the interval of their per-seed
    differences; differences all zero decide "not greater"), others by whether their
    intervals overlap. Undecided, the bool is the means' comparison."""
    if a.half is None or b.half is None:
        return a.mean > b.mean, ""
    if len(a.samples) == len(b.samples):
        v = verdict.greater(a, b)
        return (a.mean > b.mean, PAIRED_UNDECIDED) if v.inconclusive else (v.holds, "")
    overlap = not (a.low() > b.high() or a.high() < b.low())
    return a.mean > b.mean, "the intervals overlap: not significant" if overlap else ""


FLIPS = "the threshold lies inside the 95 % interval: the verdict could flip"




def against(value, threshold, higher=True):
    """(held, note): the mean at or above `threshold` (at or below with higher=False), with a
    note when the threshold lies inside the value's 95 % interval."""
    held = value.mean >= threshold - ROUNDING if higher else value.mean <= threshold + ROUNDING
    flips = value.half is not None and value.low() <= threshold <= value.high()
    return held, FLIPS if flips else ""


def between(value, low, high):
    """(held, note): the mean within [low, high], with a note when either end lies inside the
    value's 95 % interval."""
    held = low - ROUNDING <= value.mean <= high + ROUNDING
    flips = value.half is not None and any(value.low() <= t <= value.high() for t in (low, high))
    return held, FLIPS if flips else ""


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


class Curve(tuple):
    """(xs, ys) with the 95 % half-width of each y as `errs`: unpacks as a pair."""

    def __new__(cls, xs, ys, errs=None):
        curve = super().__new__(cls, (xs, ys))
        curve.errs = errs
        return curve


class Grid:
    """Results of one sweep indexed by configuration (every column but the seed) and seed.
    `order`: {column: sort key} for columns whose values do not sort as they are; `below`: the
    rule for one point's JSON (default: the whole network's accepted and offered loads); `load`:
    the column of offered load."""

    def __init__(self, out, experiment, keys, order=None, below=None, load=LOAD):
        self.keys = keys
        self.load = load  # the axis of offered load
        self.order = order or {}
        self.below_saturation = below or below_saturation  # the saturation rule for one point
        self.cells = {}
        self.failed = {}  # configuration -> {seed: error} of points that ended in an error
        for r, j in all_points(out, experiment):
            cells = self.failed if "error" in j else self.cells
            seed = r.get(SEED, int(j.get("config", {}).get(SEED, 0)))  # a sweep without a seed axis
            cells.setdefault(tuple(r[k] for k in keys), {})[seed] = j.get("error", j)

    def values(self, key):
        return sorted({k[self.keys.index(key)] for k in self.cells}, key=self.order.get(key))

    def select(self, drop=True, **fixed):
        """The grid of the configurations with these values of some keys, without those keys
        (a sensitivity sweep's grid at one value of its parameter), or with them (drop=False)."""
        g = copy.copy(self)
        g.keys = [k for k in self.keys if k not in fixed] if drop else list(self.keys)
        kept = [self.keys.index(k) for k in g.keys]

        def keep(cells):
            return {tuple(c[i] for i in kept): s for c, s in cells.items()
                    if all(c[self.keys.index(k)] == v for k, v in fixed.items())}
        g.cells, g.failed = keep(self.cells), keep(self.failed)
        return g

    def among(self, key, values):
        """The grid of the configurations whose `key` is one of `values` (a sensitivity sweep
        run at fewer loads than the experiment it varies is compared at its own loads)."""
        g = copy.copy(self)
        i = self.keys.index(key)
        g.cells = {c: s for c, s in self.cells.items() if c[i] in values}
        g.failed = {c: s for c, s in self.failed.items() if c[i] in values}
        return g

    def labelled(self, key, value):
        """This grid with a key of one value put in front of its keys (a sensitivity variant's
        grid named as the configuration it stands in for, to union with the main grid)."""
        g = copy.copy(self)
        g.keys = [key] + list(self.keys)
        g.cells = {(value,) + c: s for c, s in self.cells.items()}
        g.failed = {(value,) + c: s for c, s in self.failed.items()}
        return g

    def union(self, other):
        """This grid with another's configurations (of the same keys) added."""
        g = copy.copy(self)
        g.cells, g.failed = dict(self.cells), dict(self.failed)
        g.cells.update(other.cells)
        g.failed.update(other.failed)
        return g

    def seeds(self, **where):
        """{seed: JSON} of the one configuration `where` names."""
        return self.cells.get(tuple(where[k] for k in self.keys), {})

    def value(self, f, **where):
        return Value([f(j) for j in self.seeds(**where).values()])

    def unsaturated(self, **where):
        """Below saturation for every seed; a point that ended in an error never is."""
        s = self.seeds(**where)
        return bool(s) and not self.errors(**where) and all(self.below_saturation(j) for j in s.values())

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
        return self.per_seed(lambda points: max(j["accepted_fraction"] for _, j in points), self.load, **where)

    def curve(self, f, only_unsaturated=True, **where):
        """(loads, mean of f) along the load axis, only below saturation if asked; a load where f
        gives no sample is left out. The curve's `errs` are the 95 % half-widths (0 for one
        seed), which line_plot draws as error bars."""
        xs, ys, errs = [], [], []
        for x in self.values(self.load):
            cell = dict(where, **{self.load: x})
            v = self.value(f, **cell)
            if v.samples and (not only_unsaturated or self.unsaturated(**cell)):
                xs.append(x)
                ys.append(v.mean)
                errs.append(v.half or 0.0)
        return Curve(xs, ys, errs)

    def knee_text(self, **where):
        """The knee's text, marked as a lower bound where some seed is below saturation at the
        highest load swept."""
        v = self.knee(**where)
        loads = self.values(self.load)
        if v.samples and all(s == 0.0 for s in v.samples):
            return f"< {loads[0]:g}"
        return ("≥ " if any(s >= loads[-1] for s in v.samples) else "") + v.text(2)

    def knee(self, **where):
        """Per seed: the highest load below saturation before the first load that is not (0.0
        for a seed whose lowest load is already saturated)."""
        def last_below(points):
            best = 0.0
            for x, j in points:
                if not self.below_saturation(j):
                    break
                best = x
            return best
        return self.per_seed(last_below, self.load, **where)

    def saturation_point(self, **where):
        """Per seed: the least load whose accepted load is below 0.95 of offered, undrained or
        not (multi-rail §5.3's saturation point; no sample if there is none)."""
        def first(points):
            return next((x for x, j in points if j["accepted"] < BELOW * j["offered"]), None)
        return self.per_seed(first, self.load, **where)


def run_method(out, experiments):
    """Markdown: the method paragraph every report states, then one row per experiment with
    the seeds and run length read from its points (warm-up, measured and drain-limit cycles)."""
    rows = []
    for e in experiments:
        try:
            points = all_points(out, e)
        except FileNotFoundError:
            continue
        if not points:
            continue
        config = points[0][1].get("config", {})
        seeds = sorted({int(j.get("config", {}).get(SEED, 0)) for _, j in points})
        cycles = [config.get(f"simulation.{k}_cycles", "—") for k in ("warmup", "measure", "drain")]
        rows.append([e, len(seeds), *cycles, len(points), short_windows(points)])
    return rows


WINDOW_LATENCIES = 10  # a measurement window should span at least this many mean latencies
NEAR = 0.8             # a point accepting this much of its offered load, but not 0.95, is near saturation


def short_windows(points):
    """"below saturation / near it" counts of the points whose measured window is shorter than
    WINDOW_LATENCIES mean latencies: near saturation (accepting NEAR to 0.95 of the offered
    load), a longer window might find a point below saturation that this one calls past it."""
    below = near = 0
    for _, j in points:
        if "error" in j:
            continue
        window = float(j.get("config", {}).get("simulation.measure_cycles") or 0)
        latency = (j.get("message_latency") or j.get("latency") or {}).get("mean")
        if not window or not latency or window >= WINDOW_LATENCIES * latency:
            continue
        if below_saturation(j):
            below += 1
        elif j.get("offered") and j.get("accepted", 0) >= NEAR * j["offered"]:
            near += 1
    return f"{below} / {near}"


METHOD = ("A value is the mean over seeds with its 95 % confidence interval (Student's t; one seed "
          "gives no interval). A point is below saturation only when its accepted load is at least 0.95 "
          "of its offered load and every measured packet was delivered, for every seed; latencies are "
          "compared, and knees and highest loads read, only there. A verdict has three outcomes: a claim "
          "holds when the whole 95 % interval lies on its side of the threshold, does not hold when the "
          "whole interval lies on the other side, and is inconclusive when the interval contains the "
          "threshold. Two variants run on the same seeds are compared by the interval of their per-seed "
          "differences (inconclusive when it contains 0), variants run on different seeds by whether their "
          "intervals overlap. A value from one seed has no interval and is judged on its mean. Thresholds "
          "the paper does not give are marked as our reading.")


def method_section(rep, out, experiments):
    """The report's method section: METHOD, then seeds and run lengths per experiment."""
    rep.section("Method", METHOD)
    rep.table(["experiment", "seeds", "warm-up cycles", "measured cycles", "drain limit", "points",
               f"windows under {WINDOW_LATENCIES} mean latencies: below saturation / near it"],
              run_method(out, experiments))
    rep.text(f"The last column counts the points whose measured window is shorter than {WINDOW_LATENCIES} of their "
             f"mean latencies, below saturation and near it (accepting {NEAR:g} to 0.95 of the offered load: a "
             "longer window might find such a point below saturation).")


def combine(f, *values):
    """Value of f applied seed by seed to Values sampled with the same seeds."""
    return Value([f(*s) for s in zip(*(v.samples for v in values))])


def ratio(a, b):
    """Per-seed ratio a/b of two Values sampled with the same seeds."""
    return Value([x / y for x, y in zip(a.samples, b.samples) if y])
