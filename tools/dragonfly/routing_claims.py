"""The routing comparison's claims, judged on a grid of (split, pattern, load) sweeps: routing.toml's at our
setup and booksim_setup.toml's at BookSim's, so that both are judged by the same rows."""
from tools.report import verdict as vd
from tools.report.seed_stats import LOAD, Grid, Value

from tools.dragonfly.common import PATTERN

ROUTINGS = ["MIN", "VAL", "UGAL-L", "UGAL-LVC", "UGAL-LVC_H", "UGAL-G"]
PATTERNS = {"uniform": "UR", "group_shift": "WC"}
DEGRADED = 0.10      # our reading of "degraded": UGAL-G accepts at least 10 % more than UGAL-L
WORKS_WELL = 0.8     # our reading of "works well": MIN accepts at least 0.8 of the best routing's maximum on UR
VERY_POOR = 0.5      # our reading of "very poor": MIN accepts at most half of what VAL accepts on WC
DEGRADED_CLAIM = ("\"Because of the indirect nature of this routing decision, conventional adaptive routing "
                  "algorithms give degraded performance.\" (abstract)")


def routing_grid(out):
    return Grid(out, "routing", ["split", PATTERN, LOAD], order={"split": ROUTINGS.index})


def max_accepted(grid, split, pattern):
    return grid.max_accepted(split=split, **{PATTERN: pattern})


def capped(grid, split, pattern):
    """Some seed is below saturation at the highest load swept: the maximum is a lower bound."""
    top = grid.values(LOAD)[-1]
    return any(grid.below_saturation(j) for j in grid.seeds(split=split, **{PATTERN: pattern, LOAD: top}).values())


def max_text(grid, split, pattern):
    return ("≥ " if capped(grid, split, pattern) else "") + max_accepted(grid, split, pattern).text(3)


def knee_and_max_table(rep, grid):
    """Each routing's knee and maximum accepted load on UR and WC."""
    rep.table(["routing"] + [f"{s}: {what}" for s in PATTERNS.values() for what in ("knee", "max accepted")],
              [[s] + [text for p in PATTERNS for text in (grid.knee_text(split=s, **{PATTERN: p}),
                                                          max_text(grid, s, p))] for s in grid.values("split")])


def best_other_ratio(grid, pattern):
    """Per seed: MIN's maximum accepted load over the largest of the other routings'."""
    others = [max_accepted(grid, s, pattern) for s in grid.values("split") if s != "MIN"]
    best = [max(samples) for samples in zip(*(v.samples for v in others))]
    return Value([m / b for m, b in zip(max_accepted(grid, "MIN", pattern).samples, best) if b])


def minimal_uniform_row(grid):
    ratio = best_other_ratio(grid, "uniform")
    bound = " (a lower bound: MIN is below saturation at the highest load swept)" if capped(grid, "MIN",
                                                                                             "uniform") else ""
    return ("\"This minimal routing works well for load-balanced traffic\" (S1, p. 66)",
            f"MIN's maximum accepted load on UR over the best other routing's, per seed: {ratio.text(3)}{bound}",
            vd.with_readings(ratio, WORKS_WELL, around=1.0),
            f"works well read as at least {WORKS_WELL} of the best routing's maximum (our reading)")


def minimal_worst_case_row(grid):
    ratio = vd.paired_ratio(max_accepted(grid, "MIN", "group_shift"), max_accepted(grid, "VAL", "group_shift"))
    return ("\"but results in very poor performance on adversarial traffic patterns\" (S1, p. 66)",
            f"MIN's maximum accepted load on WC over VAL's, per seed: {ratio.text(3)} (MIN "
            f"{max_text(grid, 'MIN', 'group_shift')}; its bound, 1/(a p), falls with the network's size)",
            vd.with_readings(ratio, VERY_POOR, higher=False),
            f"very poor read as at most {VERY_POOR} of what Valiant's routing accepts (our reading)")


def degraded_row(grid):
    ugal_l, ugal_g = (max_accepted(grid, s, "group_shift") for s in ("UGAL-L", "UGAL-G"))
    uniform = vd.paired_ratio(max_accepted(grid, "UGAL-G", "uniform"), max_accepted(grid, "UGAL-L", "uniform"))
    return (DEGRADED_CLAIM,
            f"maximum accepted load on WC: UGAL-L {ugal_l.text(3)}, UGAL-G {ugal_g.text(3)}; UGAL-G over UGAL-L "
            f"per seed: {vd.paired_ratio(ugal_g, ugal_l).text(3)} (on UR: {uniform.text(3)})",
            vd.relative_gain(ugal_g, ugal_l, DEGRADED, reading=True),
            "our reading throughout: conventional = UGAL-L (the source router's own queues), the ideal it falls "
            "short of = UGAL-G (the global channels' queues), performance = maximum accepted load on WC, where the "
            f"choice between paths matters; degraded = UGAL-G accepting at least {DEGRADED:.0%} more. On UR the "
            "ratio is given but not judged: minimal paths carry UR well, so it does not test the decision")




def latency_degraded_row(grid):
    """The "degraded" claim in latency: UGAL-L's mean latency over UGAL-G's on WC, paired by
    seed, at the highest load where every seed of both is below saturation (where the choice
    between paths shows; at light load both keep the minimal path)."""
    where = {PATTERN: "group_shift"}
    common = [x for x in grid.values(LOAD)
              if all(grid.unsaturated(split=s, **where, **{LOAD: x}) for s in ("UGAL-L", "UGAL-G"))]
    claim = "the same, in latency: " + DEGRADED_CLAIM
    if not common:
        return (claim, "no offered load is below saturation for both on WC", None,
                "not judged: no load to compare latencies at")
    latency = {x: {s: grid.latency(split=s, **where, **{LOAD: x}) for s in ("UGAL-L", "UGAL-G")} for x in common}
    top = common[-1]
    ugal_l, ugal_g = latency[top]["UGAL-L"], latency[top]["UGAL-G"]
    lowest = vd.paired_ratio(latency[common[0]]["UGAL-L"], latency[common[0]]["UGAL-G"])
    at_lowest = f" (at {common[0]:g}: {lowest.text(3)})" if len(common) > 1 else ""
    return (claim,
            f"mean latency on WC at offered load {top:g}, the highest below saturation for both: UGAL-L "
            f"{ugal_l.text(1)}, UGAL-G {ugal_g.text(1)} cycles; UGAL-L over UGAL-G per seed "
            f"{vd.paired_ratio(ugal_l, ugal_g).text(3)}{at_lowest}",
            vd.relative_gain(ugal_l, ugal_g, DEGRADED, reading=True),
            f"our reading: degraded latency = UGAL-L's mean latency at least {DEGRADED:.0%} above UGAL-G's at the "
            "highest load both carry below saturation")
