"""Fed-X: the verdicts of Figs. 1-2 and 7-10 at other values of the numbers we chose where
the paper gives none (part of tools/fedx/report.py). Each sensitivity sweep repeats a figure's
sweep on the same seeds and densities with one of those numbers changed."""
import os

from tools.report.seed_stats import Grid
from tools.fedx import balanced
from tools.fedx.backpressure import BP, RATE, backpressure_grid, bounded_claim, fig1_claims

NACK_WK15, HOT_SENDERS, NACK_BALANCED = "sensitivity_nack_wk15", "sensitivity_hot_senders", "sensitivity_nack_balanced"
EXPERIMENTS = [HOT_SENDERS, NACK_BALANCED, NACK_WK15]
NACK, HOT = "nack", "hot"               # the sweeps' axes
OUR_NACK = "12 cycles (ours)"           # the header time, every other experiment's
OUR_HOT = "hot senders at 0.3 (ours)"
TITLE = "Sensitivity — the NACK time and the hot senders' density"


def ran(out, experiment):
    return os.path.isdir(os.path.join(out, experiment))


def fig1_2_rows(grid):
    return fig1_claims(grid) + [bounded_claim(grid)]


def by_nack(main, sens, claims):
    """{setting: claim rows} at our NACK time and at each value the sensitivity sweep runs."""
    rows = {OUR_NACK: claims(main)}
    for nack in sens.values(NACK):
        rows[nack] = claims(sens.select(**{NACK: nack}))
    return dict(sorted(rows.items(), key=lambda kv: int(kv[0].split()[0])))


def by_hot_senders(main, sens):
    """{setting: Figs. 1-2's claim rows} with the hot senders at each density; the case
    without hot spots (silent hot senders) is fig01_02's at every setting."""
    quiet = main.select(drop=False, case="no hot spots")
    rows = {OUR_HOT: fig1_2_rows(main)}
    for hot in sens.values(HOT):
        rows[hot] = fig1_2_rows(sens.select(**{HOT: hot}).labelled("case", "hot spots").union(quiet))
    return dict(sorted(rows.items(), key=lambda kv: float(kv[0].split()[3])))


def section(out, rep):
    if not all(ran(out, e) for e in EXPERIMENTS):
        rep.section(TITLE, "Not in this run: " + ", ".join(f"`{e}`" for e in EXPERIMENTS if not ran(out, e)) + ".")
        return
    wk15 = backpressure_grid(out, "fig01_02_wk15_backpressure")
    rep.section(TITLE,
                "The paper gives neither how long a refused offer (NACK) holds a link, nor how many PEs send to the "
                "hot spots at what density; we chose the 12-cycle header time and 19 hot senders at 0.3 each, 1.43 "
                "times what the 4 hot spots can take (docs/models/fedx.md). The verdicts of Figs. 1-2 and 7-10 with "
                "the NACK at 6 and at 24 cycles, and of Figs. 1-2 with the hot senders at 0.15 (0.71 times the hot "
                "spots' capacity: not overloaded) and at 0.6 (2.85 times), on the same seeds and densities "
                "(`experiments/fedx/sensitivity_*.toml`). Figs. 1-2, the NACK time:")
    nack_wk15 = backpressure_grid(out, NACK_WK15, ["case", NACK, BP, RATE])
    rep.verdicts_by_setting(by_nack(wk15, nack_wk15, fig1_2_rows))
    rep.text("Figs. 1-2, the hot senders' density:")
    hot = backpressure_grid(out, HOT_SENDERS, [HOT, BP, RATE])
    rep.verdicts_by_setting(by_hot_senders(wk15, hot))
    rep.text("Figs. 7-10, the NACK time:")
    main = Grid(out, "fig07_10_balanced_injection", ["case", balanced.ALPHA, RATE], load=RATE)
    nack_balanced = Grid(out, NACK_BALANCED, ["case", NACK, balanced.ALPHA, RATE], load=RATE)
    rep.verdicts_by_setting(by_nack(main, nack_balanced, balanced.claims))
