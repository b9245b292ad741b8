#!/usr/bin/env python3
"""Figures and reproduction report for Dally, *Virtual-Channel Flow Control*.

  python3 -m tools.dally.report OUT_DIR

OUT_DIR holds one sweep per experiment of experiments/dally/ (written by `icnsim reproduce
dally`). Writes OUT_DIR/dally.md and one PNG + SVG figure per paper figure. The paper's
claims are quoted constants; every measured value is read from the sweep output.

Method. The analytic model (Figs. 11-12) is deterministic. Every simulated point runs with
one seed (quick) or five (full); a value is the mean over seeds with its 95 % confidence
interval (tools/report/seed_stats.py). Throughput is measured as the paper does, with saturation
sources (Figs. 13, 14, the Fig. 19 text); latency with Poisson sources, source queueing
included, and only below saturation (accepted at least 0.95 of offered, every seed).
Fig. 19's saturation is read off its latency sweep, as the paper does (§V-D).
"""
import os
import sys

from tools.report.lib import fmt, line_plot, read_sweep, run_report, series
from tools.report.seed_stats import LOAD, Grid, Value, against, between, joined, method_section
from tools.report.verdict import (all_hold, at_readings, between_with_readings, decide, decide_between, greater,
                                  with_readings, within_with_readings)
from tools.dally import histograms as dally_histograms

LANES = "router.lanes"
STAGES = "topology.n"
EXPERIMENTS = ["fig13_fly_single_flit_lanes", "fig14_fly_equal_storage", "fig15_fly_latency_model",
               "fig16_fly_equal_storage_latency", "fig17_fly_scheduling_histogram", "fig18_fly_priority_histogram",
               "fig19a_mesh_saturation", "fig19b_mesh_latency", "fig19c_mesh_single_lane_knee"]
AT_FIFTY = 0.05     # our reading of "saturates at 50%": a knee within 0.05 of capacity of it
ABOUT = 0.20        # our reading of "about"/"close": within 20 % of the paper's figure
MID_LOAD = 0.3      # our reading of "mid to high traffic rates": offered load 0.3 and above


def accepted(j):
    return j["accepted_fraction"]


def latency(j):
    return j["latency"]["mean"]


def method(out, rep):
    method_section(rep, out, EXPERIMENTS)


def fig11(out, rep):
    rows = read_sweep(os.path.join(out, "fig11_model_latency"))
    curves = series(rows, LANES, LOAD, "model_latency")
    png = line_plot(os.path.join(out, "fig11_model_latency"),
                    {f"{l} lane{'s' * (l > 1)}": v for l, v in curves.items()},
                    "offered traffic (fraction of capacity)", "latency (cycles)",
                    "Fig. 11: model latency, 2-ary 8-fly, single-flit lanes", ylim=(0, 300), xlim=(0, 1))
    rep.section("Fig. 11 — model latency against offered traffic (2-ary 8-fly)",
                "Analytic model of §IV (eq. 8), 20-flit packets, T_d = 1 cycle per stage. Model only.")
    at = {l: dict(zip(*v)) for l, v in curves.items()}
    last = {l: max(v[0]) for l, v in curves.items()}
    load = max(x for x in at[2] if x <= 0.5 * last[2])  # half the 2-lane curve's highest load
    multi = {l: at[l][load] for l in at if l > 1 and load in at[l]}
    spread = max(multi.values()) / min(multi.values()) - 1
    half = min((x for x in at[1] if x >= 0.5 * last[1]), default=None)  # 1 lane at half its limit
    one_ratio = at[1][half] / at[max(at)][half] - 1 if half is not None else float("nan")
    rep.claims([
        ("\"adding lanes has little effect on latency below saturation throughput. The curves lie on top "
         "of each other until traffic approaches saturation throughput\" (2 … 16 lanes)",
         f"at load {load:g}: {', '.join(f'{l} lanes {fmt(y, 1)}' for l, y in sorted(multi.items()))} cycles "
         f"(spread {100 * spread:.1f} %)", with_readings(Value([spread]), 0.05, higher=False, exact=True),
         "our reading of \"on top of each other\": a spread of at most 5 %"),
        ("the same for 1 lane", f"at load {half:g} (half its highest finite load): {fmt(at[1][half], 1)} vs "
         f"{fmt(at[max(at)][half], 1)} cycles with {max(at)} lanes ({100 * one_ratio:+.0f} %)",
         with_readings(Value([one_ratio]), 0.10, higher=False, exact=True), "our reading: within 10 %"),
        ("\"the addition of virtual channels greatly increases the traffic that can be offered to the "
         "network before saturation occurs\"",
         "highest load with a finite latency: " + ", ".join(f"{l}: {last[l]:.2f}" for l in sorted(last)),
         with_readings(Value([last[max(last)] / last[min(last)]]), 2.0, exact=True, around=1.0),
         "our reading of \"greatly\": more than doubled"),
    ])
    rep.figure(png, "Fig. 11")


def fig12(out, rep):
    rows = read_sweep(os.path.join(out, "fig12_model_throughput"))
    curves = series(rows, STAGES, LANES, "model_saturation_fraction")
    png = line_plot(os.path.join(out, "fig12_model_throughput"),
                    {f"2-ary {n}-fly": v for n, v in curves.items()},
                    "lanes per physical channel", "saturation throughput (fraction of capacity)",
                    "Fig. 12: model throughput vs lanes", ylim=(0, 1))
    t = {n: dict(zip(*v)) for n, v in curves.items()}
    rep.section("Fig. 12 — model throughput against lanes (2-ary n-fly)",
                "λ_max from eq. 10 for n = 4 … 14 stages and 1 … 20 single-flit lanes. Model only.")
    rep.table(["n"] + [f"l={l}" for l in (1, 2, 4, 8, 16, 18, 20)],
              [[n] + [fmt(t[n][l]) for l in (1, 2, 4, 8, 16, 18, 20)] for n in sorted(t)])
    ratio8 = min(t[n][8] / t[n][20] for n in t)
    r10 = t[10][16] / t[10][1]
    rep.claims([
        ("\"Conventional networks with four and fourteen stages have throughputs of 0.39 and 0.14\"",
         f"{fmt(t[4][1])} and {fmt(t[14][1])}", abs(t[4][1] - 0.39) <= 0.01 and abs(t[14][1] - 0.14) <= 0.01,
         "with n + 1 channel stages per path (docs/models/dally.md); within 0.01"),
        ("\"With 18 virtual channels, the difference is narrowed to 6%, 0.83 versus 0.88\"",
         f"{fmt(t[14][18])} (14 stages) versus {fmt(t[4][18])} (4 stages): "
         f"{100 * (t[4][18] / t[14][18] - 1):.1f} % apart",
         abs(t[4][18] - 0.88) <= 0.03 and abs(t[14][18] - 0.83) <= 0.03,
         "the equations as printed make the stage count almost irrelevant at 18 lanes: "
         "b_{i,j} = (w/j)^j vanishes for large j, so only the first stage limits λ_max; "
         "the paper's spread must come from a variant it does not print"),
        ("\"eight lanes per physical channel results in at least 80% of the throughput as a network with 20 lanes\"",
         f"lowest ratio over n = 4…14: {100 * ratio8:.0f} %", ratio8 >= 0.8, ""),
        ("\"adding a small number of virtual channels causes a large increase in throughput with "
         "diminishing returns\"", "n = 8: " + " → ".join(fmt(t[8][l], 2) for l in (1, 2, 4, 8, 16)),
         all(t[8][2] - t[8][1] > t[8][l * 2] - t[8][l] for l in (2, 4, 8)), ""),
        ("\"The model shows that … For a 2-ary 10-fly network (1024 input butterfly), the throughput with "
         "16 lanes per channel is 4 times the throughput with a single lane\" (§VI)",
         f"{fmt(t[10][1])} → {fmt(t[10][16])}: ×{r10:.2f}",
         within_with_readings([Value([r10 / 4])], ABOUT, center=1.0, exact=True),
         f"single-flit lanes, as in the model's figures; our reading: within {100 * ABOUT:.0f} % of 4"),
    ])
    rep.figure(png, "Fig. 12")


def fig13(out, rep):
    grid = Grid(out, "fig13_fly_single_flit_lanes", [LANES])
    lanes = grid.values(LANES)
    sim = {l: grid.value(accepted, **{LANES: l}) for l in lanes}
    model = {l: next(iter(grid.seeds(**{LANES: l}).values()))["model"]["saturation_fraction"] for l in lanes}
    png = line_plot(os.path.join(out, "fig13_model_vs_sim_throughput"),
                    {"model (eq. 10)": (lanes, [model[l] for l in lanes])},
                    "lanes per physical channel (1 flit each)", "throughput (fraction of capacity)",
                    "Fig. 13: 2-ary 8-fly, predicted and measured throughput",
                    points={"simulation": (lanes, [sim[l].mean for l in lanes])}, ylim=(0, 1))
    rep.section("Fig. 13 — predicted and measured throughput (2-ary 8-fly, single-flit lanes)",
                "Simulation: synchronous timing, saturation sources (the paper's throughput method), random "
                "channel arbitration.")
    diff = {l: Value([s - model[l] for s in sim[l].samples]) for l in lanes}
    rep.table(["lanes", "simulated", "model", "difference"],
              [[l, sim[l].text(), fmt(model[l]), diff[l].text()] for l in lanes])
    worst = max(lanes, key=lambda l: abs(diff[l].mean))
    close = at_readings(lambda t: all_hold(*(decide(Value([abs(d) for d in diff[l].samples]), t, higher=False)
                                             for l in lanes)), 0.05)
    rep.claims([
        ("\"There is close agreement between the predicted and measured data\"",
         f"largest difference {diff[worst].text()} of capacity at {worst} lanes "
         f"({lanes[0]} lane: {diff[lanes[0]].text()}, {lanes[-1]} lanes: {diff[lanes[-1]].text()})", close,
         joined("our reading of \"close\": within 0.05 of capacity at every lane count",
                "the cause of the gap: docs/models/dally.md")),
    ])
    rep.figure(png, "Fig. 13")
    rep.state["single_flit"] = sim


def fig14(out, rep):
    grid = Grid(out, "fig14_fly_equal_storage", [STAGES, LANES])
    stages, lanes = grid.values(STAGES), grid.values(LANES)
    t = {(n, l): grid.value(accepted, **{STAGES: n, LANES: l}) for n in stages for l in lanes}
    png = line_plot(os.path.join(out, "fig14_equal_storage_throughput"),
                    {f"2-ary {n}-fly": (lanes, [t[(n, l)].mean for l in lanes]) for n in stages},
                    "lanes per physical channel (16 flits of storage per channel)",
                    "saturation throughput (fraction of capacity)", "Fig. 14: equal storage",
                    log2x=True, ylim=(0, 1))
    rep.section("Fig. 14 — throughput against lanes at equal storage (2-ary n-fly, 16 flits/channel)",
                "Saturation sources. The ratio of 16 lanes to 1 lane per network, for comparison with the "
                "conclusion's model statement (Fig. 12): "
                + ", ".join(f"n = {n}: ×{t[(n, lanes[-1])].mean / t[(n, lanes[0])].mean:.2f}" for n in stages) + ".")
    rep.table(["n"] + [f"{l} × {16 // l} flits" for l in lanes],
              [[n] + [t[(n, l)].text() for l in lanes] for n in stages])
    claims = []
    single = rep.state.get("single_flit")
    if single and 8 in stages:
        deep, one, many = t[(8, 1)], single[1], single[max(single)]
        def excess(k):  # lanes' gain minus k times depth's, seed by seed
            return Value([(m - o) - k * (d - o) for d, o, m in zip(deep.samples, one.samples, many.samples)])
        far = at_readings(lambda k: decide(excess(k), 0.0), 3.0)
        claims.append(("\"given a fixed amount of storage, adding lanes gives a far greater throughput improvement "
                       "than does increasing the total amount of buffering with a single lane\"",
                       f"2-ary 8-fly: one lane 1 → 16 flits deep: {one.text()} → {deep.text()}; "
                       f"1 → {max(single)} single-flit lanes: {one.text()} → {many.text()}", far,
                       "our reading of \"far greater\": more than 3× the gain; depth from this figure, "
                       "single-flit lanes from Fig. 13"))
    rises = [(n, a, b) for n in stages for a, b in zip(lanes, lanes[1:])]
    falls = [f"n = {n}: {a} → {b}" for n, a, b in rises if t[(n, b)].mean <= t[(n, a)].mean]
    claims.append(("throughput rises with lanes for every n at fixed storage (our reading of the figure)",
                   "falls: " + (", ".join(falls) or "none"), not falls, ""))
    rep.claims(claims)
    rep.figure(png, "Fig. 14")


def latency_curves(grid, key):
    """{key value: (loads, mean latencies)} of the points below saturation."""
    curves = {}
    for v in grid.values(key):
        xs = [x for x in grid.values(LOAD) if grid.unsaturated(**{key: v, LOAD: x})]
        curves[v] = (xs, [grid.value(latency, **{key: v, LOAD: x}).mean for x in xs])
    return curves


def cell(grid, **where):
    """Latency text, or the accepted load marked "sat." where the point is saturated."""
    if not grid.seeds(**where):
        return "—"
    if grid.unsaturated(**where):
        return grid.value(latency, **where).text(1)
    return f"sat. (accepted {grid.value(accepted, **where).text(2)})"


def fig15(out, rep):
    grid = Grid(out, "fig15_fly_latency_model", [LOAD])
    loads = grid.values(LOAD)
    first = {x: next(iter(grid.seeds(**{LOAD: x}).values())) for x in loads}
    model = {x: first[x]["model"].get("latency") for x in loads}
    below = [x for x in loads if grid.unsaturated(**{LOAD: x})]
    png = line_plot(os.path.join(out, "fig15_model_vs_sim_latency"),
                    {"model (eq. 8)": ([x for x in loads if model[x]], [model[x] for x in loads if model[x]])},
                    "offered traffic (fraction of capacity)", "latency (cycles)",
                    "Fig. 15: 2-ary 8-fly, 4 single-flit lanes",
                    points={"simulation (below saturation)": (below, [grid.value(latency, **{LOAD: x}).mean
                                                                      for x in below])}, ylim=(0, 400))
    rep.section("Fig. 15 — predicted and measured latency (2-ary 8-fly, 4 single-flit lanes)",
                "Poisson sources; latency from creation to the tail's delivery, source queueing included (the "
                "paper's method).")
    ratio = {x: Value([s / model[x] for s in grid.value(latency, **{LOAD: x}).samples]) for x in below if model[x]}
    rep.table(["offered load", "simulated (cycles)", "model (cycles)", "ratio"],
              [[f"{x:g}", cell(grid, **{LOAD: x}), fmt(model[x], 1), ratio[x].text(2) if x in ratio else "—"]
               for x in loads])
    worst = max(ratio, key=lambda x: abs(ratio[x].mean - 1))
    close = at_readings(lambda t: all_hold(*(decide(Value([abs(r - 1) for r in ratio[x].samples]), t, higher=False)
                                             for x in ratio)), ABOUT / 2)
    zero = first[loads[0]]
    rep.claims([
        ("\"the latency measurements are in close agreement with the value predicted by analysis\"",
         f"at every load below saturation ({below[0]:g} … {below[-1]:g}); farthest at {worst:g}: ratio "
         f"{ratio[worst].text(2)}", close,
         joined(f"our reading of \"close\": within {50 * ABOUT:.0f} % at every load",
                f"the model's zero-load latency is {fmt(zero['model']['zero_load_latency'], 0)} cycles; our shortest "
                f"packet took {zero['latency']['min']}")),
    ])
    rep.figure(png, "Fig. 15")


def fig16(out, rep):
    grid = Grid(out, "fig16_fly_equal_storage_latency", [LANES, LOAD])
    lanes, loads = grid.values(LANES), grid.values(LOAD)
    curves = latency_curves(grid, LANES)
    png = line_plot(os.path.join(out, "fig16_equal_storage_latency"),
                    {f"{l} × {16 // l} flits": v for l, v in curves.items()},
                    "offered traffic (fraction of capacity)", "latency (cycles)",
                    "Fig. 16: 2-ary 8-fly, 16 flits per channel", ylim=(0, 400))
    rep.section("Fig. 16 — latency against offered traffic at equal storage (2-ary 8-fly, 16 flits/channel)",
                "Poisson sources. A saturated point (accepted below 0.95 of offered for some seed) shows its "
                "accepted load instead of a latency.")
    rep.table(["offered load"] + [f"{l} lanes" for l in lanes],
              [[f"{x:g}"] + [cell(grid, **{LANES: l, LOAD: x}) for l in lanes] for x in loads])
    knee = {l: grid.knee(**{LANES: l}) for l in lanes}
    best = max(lanes[1:], key=lambda l: knee[l].mean)
    gain = Value([b - a for a, b in zip(knee[lanes[0]].samples, knee[best].samples)])
    held, note = against(gain, 0.0)
    rep.claims([
        ("\"adding lanes to a network is a more effective use of storage than adding depth to a lane\"",
         "highest load below saturation: " + ", ".join(f"{l} lanes {grid.knee_text(**{LANES: l})}" for l in lanes),
         held and gain.mean > 0, joined(f"best: {best} lanes", note)),
        fig16_penalty(grid, loads),
        fig16_crossing(grid, loads, knee),
    ])
    rep.figure(png, "Fig. 16")


def fig16_penalty(grid, loads):
    """The latency cost of 16 lanes over the better of 4 and 8 at mid to high loads."""
    mid = [x for x in loads if x >= MID_LOAD and all(grid.unsaturated(**{LANES: l, LOAD: x}) for l in (4, 8, 16))]
    if not mid:
        return ("\"a small latency penalty (as much as 7%) at mid to high traffic rates\"",
                "no load ≥ 0.3 has 4, 8 and 16 lanes all below saturation", None, "")

    def penalty(x):
        lat = {l: grid.value(latency, **{LANES: l, LOAD: x}).samples for l in (4, 8, 16)}
        return Value([c / min(a, b) - 1 for a, b, c in zip(lat[4], lat[8], lat[16])])
    worst = max(mid, key=lambda x: penalty(x).mean)
    small = between_with_readings(penalty(worst), 0.0, 0.10)
    return ("\"with storage held constant, there is a small latency penalty (as much as 7%) at mid to high "
            "traffic rates associated with the shorter buffers that result when more virtual channels are used\"",
            f"16 lanes over the better of 4 and 8 at loads {mid[0]:g} … {mid[-1]:g} below saturation: up to "
            f"{penalty(worst).text(1, 100, ' %')} (at {worst:g})", small,
            f"our reading: a penalty between 0 and 10 % at loads ≥ {MID_LOAD:g}")


def fig16_crossing(grid, loads, knee):
    """8 lanes lower than 16 until the 8-lane curve nears its saturation: at every load from 0.2
    to `near` below the 8-lane knee (our reading of "nears", 0.1), by paired differences."""
    both = [x for x in loads if x >= 0.2 and all(grid.unsaturated(**{LANES: l, LOAD: x}) for l in (8, 16))]

    def lat(l, x):
        return grid.value(latency, **{LANES: l, LOAD: x})
    lower = {x: greater(lat(16, x), lat(8, x)) for x in both}

    def until(near):
        early = [x for x in both if x < knee[8].mean - near]
        return all_hold(*(lower[x] for x in early)) if early else decide(Value([0.0]), 1.0, exact=True)
    return ("\"the curve for eight lanes drops below the curve for 16 lanes until it nears its saturation "
            "throughput\"",
            f"8 lanes lower at {', '.join(f'{x:g}' for x in both if lower[x].holds) or 'no load'}; not lower at "
            f"{', '.join(f'{x:g}' for x in both if not lower[x].holds) or 'no load'} (8-lane knee "
            f"{knee[8].text(2)})", at_readings(until, 0.1),
            "our reading: 8 lanes lower, by the paired differences, at every load from 0.2 to 0.1 below its knee")


def fig17(out, rep):
    dally_histograms.fig17(out, rep)


def fig18(out, rep):
    dally_histograms.fig18(out, rep)


def lanes_depth_sensitivity(out, rep):
    dally_histograms.split_sensitivity(out, rep)


def fig19(out, rep):
    sat = Grid(out, "fig19a_mesh_saturation", [LANES])
    grid = Grid(out, "fig19b_mesh_latency", [LANES, LOAD])
    lanes, loads = grid.values(LANES), grid.values(LOAD)
    closed = {l: sat.value(accepted, **{LANES: l}) for l in lanes}
    knee = {l: grid.knee(**{LANES: l}) for l in lanes}
    png = line_plot(os.path.join(out, "fig19_mesh_latency"),
                    {f"{l} × {32 // l} flits": v for l, v in latency_curves(grid, LANES).items()},
                    "offered traffic (fraction of capacity)", "latency (cycles)",
                    "Fig. 19: 16-ary 2-cube mesh, 32 flits per channel", ylim=(0, 400))
    png_sat = line_plot(os.path.join(out, "fig19_mesh_saturation"),
                        {"saturation sources": (lanes, [closed[l].mean for l in lanes]),
                         "highest open-loop load below saturation": (lanes, [knee[l].mean for l in lanes])},
                        "lanes per physical channel (32 flits of storage per channel)",
                        "throughput (fraction of capacity)", "Fig. 19: 16-ary 2-cube saturation",
                        log2x=True, ylim=(0, 1))
    rep.section("Fig. 19 — 16-ary 2-cube mesh, dimension-order routing, 32 flits per channel",
                "The paper reads saturation off its latency curves (§V-D): the verdicts use the open-loop (Poisson) "
                f"sweep, offered loads {loads[0]:g} … {loads[-1]:g}, and its highest load below saturation. The "
                "closed-loop measure (saturation sources) is shown beside it.")
    rep.table(["lanes", "highest open-loop load below saturation", "saturation sources (accepted)"],
              [[l, grid.knee_text(**{LANES: l}), closed[l].text()] for l in lanes])
    rep.table(["offered load"] + [f"{l} lanes" for l in lanes],
              [[f"{x:g}"] + [cell(grid, **{LANES: l, LOAD: x}) for l in lanes] for x in loads])
    rep.claims(fig19_throughput_claims(grid, knee, closed, single_lane_knee(out)) + fig19_latency_claims(grid, knee))
    rep.figure(png, "Fig. 19 latency")
    rep.figure(png_sat, "Fig. 19 saturation throughput")


def single_lane_knee(out):
    """(knee Value, its grid's step, text) from the single-lane sweep on a finer grid, or None."""
    try:
        fine = Grid(out, "fig19c_mesh_single_lane_knee", [LOAD])
    except FileNotFoundError:
        return None
    loads = fine.values(LOAD)
    return fine.knee(), min(b - a for a, b in zip(loads, loads[1:])), fine.knee_text()


def fig19_throughput_claims(grid, knee, closed, fine=None):
    lanes, loads = grid.values(LANES), grid.values(LOAD)
    step = min(b - a for a, b in zip(loads, loads[1:]))
    one, many = lanes[0], lanes[-1]
    if fine:
        fine_knee, fine_step, fine_text = fine
        at_fifty = at_readings(lambda t: decide_between(fine_knee, 0.5 - t, 0.5 + t), AT_FIFTY)
        single = ("\"With a single lane, the network saturates at 50% capacity\"",
                  f"open loop, on a grid of {fine_step:.2g} (fig19c): {fine_text}; on fig19b's grid of {step:g}: "
                  f"{grid.knee_text(**{LANES: one})}; saturation sources: {closed[one].text()}", at_fifty,
                  f"our reading of \"at 50%\": a knee within {AT_FIFTY:g} of capacity of 0.5, the knee located "
                  f"to {fine_step:.2g}")
    else:
        single = None
    h1, n1 = between(knee[one], 0.5 - step, 0.5 + step)
    h16, n16 = against(knee[many], 0.9 - step)
    share = Value([(f - o) / (s - o) if s > o else float("nan")
                   for o, f, s in zip(knee[one].samples, knee[4].samples, knee[many].samples)])
    most = with_readings(share, 0.5)
    grid_note = f"the load grid's step is {step:g}: a knee within one step of the paper's figure holds"
    edge = (f"on the rule's edge: {knee[one].mean:g} is exactly one step from 0.5, so it holds by the grid's "
            "resolution, not by a margin" if any(abs(knee[one].mean - e) < 1e-9 for e in (0.5 - step, 0.5 + step))
            else "")
    return [
        single or ("\"With a single lane, the network saturates at 50% capacity\"",
                   f"open loop: {grid.knee_text(**{LANES: one})}; saturation sources: {closed[one].text()}", h1,
                   joined(grid_note, n1, edge)),
        ("\"with 16-lanes throughputs of 90% capacity are achievable\"",
         f"open loop: {grid.knee_text(**{LANES: many})}; saturation sources: {closed[many].text()}", h16,
         joined(grid_note, n16, "the closed-loop measure is lower: saturation sources push the network past "
                "its peak (docs/models/dally.md)" if closed[many].mean < 0.9 - step else "")),
        ("\"Most of the throughput gain is realized with four lanes\"",
         f"{share.text(0, 100, ' %')} of the {one} → {many} lane gain in open-loop knee at 4 lanes", most,
         "our reading of \"most\": more than half"),
    ]


WELL_BELOW = 0.8   # our reading of "below the saturation throughput": at most 0.8 of the single-lane knee


def fig19_latency_claims(grid, knee):
    lanes, loads = grid.values(LANES), grid.values(LOAD)

    def lat(l, x):
        return grid.value(latency, **{LANES: l, LOAD: x})
    low = [x for x in loads if all(grid.unsaturated(**{LANES: l, LOAD: x}) for l in lanes)]
    spread = {x: Value([max(s) / min(s) - 1 for s in zip(*(lat(l, x).samples for l in lanes))]) for x in low}
    def window(fraction):  # the loads up to `fraction` of the single-lane knee (at least the lowest)
        return [x for x in low if x <= fraction * knee[lanes[0]].mean] or low[:1]
    well = window(WELL_BELOW)
    worst = max(well, key=lambda x: spread[x].mean)
    at_knee = max(low, key=lambda x: spread[x].mean)
    # Two readings: "little" (at most ABOUT) at every load of the window, and the window itself
    # (WELL_BELOW of the knee; half of it, and every load below saturation beside it).
    little = all_hold(
        at_readings(lambda t: all_hold(*(decide(spread[x], t, higher=False) for x in well)), ABOUT),
        at_readings(lambda f: all_hold(*(decide(spread[x], ABOUT, higher=False) for x in window(f))), WELL_BELOW))
    beyond = [l for l in lanes if l > 4]
    both = [x for x in loads if all(grid.unsaturated(**{LANES: l, LOAD: x}) for l in [4] + beyond)]
    rise = {x: Value([max(s[1:]) / s[0] - 1 for s in zip(*(lat(l, x).samples for l in [4] + beyond))]) for x in both}
    top = max(both, key=lambda x: rise[x].mean)
    as_much = between_with_readings(rise[top], 0.0, 0.25)
    return [
        ("\"adding lanes has little effect on latency below the saturation throughput for a single lane\"",
         f"loads {well[0]:g} … {well[-1]:g}: largest spread across lane counts {spread[worst].text(0, 100, ' %')} "
         f"(at {worst:g}); up to the single-lane knee: {spread[at_knee].text(0, 100, ' %')} (at {at_knee:g})", little,
         joined(f"our reading: loads up to {WELL_BELOW:g} of the single-lane knee, where the single-lane curve "
                f"has not yet turned up; \"little\": at most {100 * ABOUT:.0f} %, the increase the paper "
                "itself allows for more lanes")),
        ("\"Adding additional lanes yields diminishing returns and actually increases latency by as much as 20%\" "
         "(lanes beyond four)",
         f"{', '.join(map(str, beyond))} lanes over 4 lanes, loads {both[0]:g} … {both[-1]:g}: up to "
         f"{rise[top].text(0, 100, ' %')} (at {top:g})", as_much, "our reading: an increase between 0 and 25 %"),
    ]


def main():
    run_report(sys.argv[1], "dally", "Dally, *Virtual-Channel Flow Control*: reproduction report",
               "Every simulation uses the paper's synchronous flow-control timing, 20-flit packets, "
               "uniform random destinations and random channel arbitration unless stated. The paper runs "
               "\"a total of 30 000 flit times\" with \"the first 10 000 flit times\" not measured; the full "
               "profile does the same, the quick profile runs shorter (the method table gives each "
               "experiment's seeds and cycles). Modelling choices: docs/models/dally.md.",
               [method, fig11, fig12, fig13, fig14, fig15, fig16, fig17, fig18, fig19, lanes_depth_sensitivity])


if __name__ == "__main__":
    main()
