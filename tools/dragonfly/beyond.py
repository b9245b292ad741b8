"""The dragonfly report's study beyond the paper: the same routing comparison on a Slim Fly
and a HyperX of about the dragonfly's size and radix (experiments/dragonfly/beyond_*.toml),
beside the dragonfly's own (routing.toml). No claim of the paper is judged here."""
import os

from tools.dragonfly.common import PATTERN
from tools.report.lib import line_plot
from tools.report.seed_stats import LOAD, Grid

ROUTINGS = ["MIN", "VAL", "UGAL-L", "UGAL-L queue", "UGAL-LVC", "UGAL-LVC_H", "UGAL-G", "DAL"]
# experiment -> (network, its adversarial pattern)
NETWORKS = {"routing": ("dragonfly", "group_shift"), "beyond_slim_fly": ("Slim Fly", "tornado"),
            "beyond_hyperx": ("HyperX", "tornado")}


def network_line(j):
    """The network a point ran on, as the result names it, with its terminal count."""
    return f"{j['topology']}, {j['terminals']} terminals"


def beyond_section(out, rep):
    grids = {}
    for experiment in NETWORKS:
        try:
            grids[experiment] = Grid(out, experiment, ["split", PATTERN, LOAD], order={"split": ROUTINGS.index})
        except FileNotFoundError:
            continue
    if len(grids) < 2:
        raise FileNotFoundError(2, "no sweep output", os.path.join(out, "beyond_slim_fly"))
    rep.section("Beyond the paper: the same comparison on a Slim Fly and a HyperX",
                "Minimal, Valiant and UGAL routing on three networks of about a thousand terminals and radix 15-20 "
                "(the quick profile: 54-150 terminals, radix 5-10), each under uniform traffic and its own "
                "adversarial pattern: the dragonfly's worst case (every group to the next), tornado on the Slim Fly "
                "(a router-level shift by half the routers less one) and on the HyperX (half way round each "
                "dimension less one). Buffers per port are equal (48 flits). The dragonfly's rows are the "
                "comparison above (UGAL-LVC, UGAL-LVC_H and UGAL-G are its own); UGAL-L queue compares the ports' "
                "queues with the waiting heads counted; DAL is the HyperX's dimension-by-dimension adaptive routing. "
                "Maximum accepted load (of capacity) per seed over the offered loads.")
    rows = []
    for experiment, grid in grids.items():
        name, adversarial = NETWORKS[experiment]
        first = next(iter(next(iter(grid.cells.values())).values()))
        for split in grid.values("split"):
            rows.append([name if split == grid.values("split")[0] else "", split,
                         grid.max_accepted(split=split, **{PATTERN: "uniform"}).text(3),
                         grid.max_accepted(split=split, **{PATTERN: adversarial}).text(3)])
        rep.text(f"{name}: {network_line(first)}.")
    rep.table(["network", "routing", "uniform", "adversarial"], rows)
    rep.text(best_routings(grids))
    for experiment, grid in grids.items():
        name, adversarial = NETWORKS[experiment]
        accepted = {s: grid.curve(lambda j: j["accepted_fraction"], only_unsaturated=False, split=s,
                                  **{PATTERN: adversarial}) for s in grid.values("split")}
        png = line_plot(os.path.join(out, f"beyond_{name.lower().replace(' ', '_')}_adversarial"), accepted,
                        "offered load (of capacity)", "accepted load (of capacity)",
                        f"{name}, {adversarial}: accepted load", ylim=(0, 1.05))
        rep.figure(png, f"{name}: accepted load under its adversarial pattern")


def best_routings(grids):
    """Which routing accepts most under each network's adversarial pattern, from the data."""
    parts = []
    for experiment, grid in grids.items():
        name, adversarial = NETWORKS[experiment]
        best = max(grid.values("split"), key=lambda s: grid.max_accepted(split=s, **{PATTERN: adversarial}).mean)
        minimal = "MIN"
        parts.append(f"{name}: {best} ({grid.max_accepted(split=best, **{PATTERN: adversarial}).text(3)} against "
                     f"{minimal}'s {grid.max_accepted(split=minimal, **{PATTERN: adversarial}).text(3)})")
    return ("Most accepted under the adversarial pattern, by the mean over seeds (not a paired test): "
            + "; ".join(parts) + ".")
