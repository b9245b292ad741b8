#!/usr/bin/env python3
"""Figures and reproduction report for Dally, *Virtual-Channel Flow Control*.

  dally_report.py OUT_DIR

OUT_DIR holds one sweep per experiment of experiments/dally/ (written by `icnsim reproduce
dally`). Writes OUT_DIR/dally.md and one PNG + SVG figure per paper figure. The paper's
claims are quoted constants; every measured value is read from the sweep output.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_lib import fmt, histogram_plot, line_plot, read_points, read_sweep, run_report, series  # noqa: E402

LANES = "router.lanes"
LOAD = "traffic.load"


def drained(r):
    return r.get("drained") is not False


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
    load = 0.2  # below the 2-lane lambda_max (0.52): every curve but the 1-lane one
    multi = {l: at[l][load] for l in at if l > 1 and load in at[l]}
    spread = max(multi.values()) / min(multi.values()) - 1
    half = min((x for x in at[1] if x >= 0.5 * max(at[1])), default=None)  # 1 lane at half its limit
    one_ratio = at[1][half] / at[16][half] - 1 if half is not None else float("nan")
    last = {l: max(v[0]) for l, v in curves.items()}
    rep.claims([
        ("\"adding lanes has little effect on latency below saturation throughput. The curves lie on top "
         "of each other until traffic approaches saturation throughput\" (2 … 16 lanes)",
         f"at load {load}: {', '.join(f'{l} lanes {fmt(y, 1)}' for l, y in sorted(multi.items()))} cycles "
         f"(spread {100 * spread:.1f} %)", spread <= 0.05, ""),
        ("the same for 1 lane", f"at load {half} (half its highest finite load): {fmt(at[1][half], 1)} vs "
         f"{fmt(at[16][half], 1)} cycles with 16 lanes ({100 * one_ratio:+.0f} %)", one_ratio <= 0.10,
         "the single-lane curve leaves the others well before its own saturation"),
        ("\"the addition of virtual channels greatly increases the traffic that can be offered to the "
         "network before saturation occurs\"",
         "highest load with a finite latency: " + ", ".join(f"{l}: {last[l]:.2f}" for l in sorted(last)),
         last[max(last)] > 2 * last[min(last)], ""),
    ])
    rep.figure(png, "Fig. 11")


def fig12(out, rep):
    rows = read_sweep(os.path.join(out, "fig12_model_throughput"))
    curves = series(rows, "topology.n", LANES, "model_saturation_fraction")
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
    rep.claims([
        ("\"Conventional networks with four and fourteen stages have throughputs of 0.39 and 0.14\"",
         f"{fmt(t[4][1])} and {fmt(t[14][1])}", abs(t[4][1] - 0.39) <= 0.01 and abs(t[14][1] - 0.14) <= 0.01,
         "with n + 1 channel stages per path (docs/models/dally.md)"),
        ("\"With 18 virtual channels, the difference is narrowed to 6%, 0.83 versus 0.88\"",
         f"{fmt(t[14][18])} (14 stages) versus {fmt(t[4][18])} (4 stages): "
         f"{100 * (t[4][18] / t[14][18] - 1):.1f} % apart",
         abs(t[4][18] - 0.88) <= 0.03 and abs(t[14][18] - 0.83) <= 0.03,
         "the equations as printed make the stage count almost irrelevant at 18 lanes: "
         "b_{i,j} = (w/j)^j vanishes for large j, so only the first stage limits λ_max. "
         "The paper's 6 % spread must come from a variant it does not print"),
        ("\"eight lanes per physical channel results in at least 80% of the throughput as a network with 20 lanes\"",
         f"lowest ratio over n = 4…14: {100 * ratio8:.0f} %", ratio8 >= 0.8, ""),
        ("\"adding a small number of virtual channels causes a large increase in throughput with "
         "diminishing returns\"", "n = 8: " + " → ".join(fmt(t[8][l], 2) for l in (1, 2, 4, 8, 16)),
         all(t[8][2] - t[8][1] > t[8][l * 2] - t[8][l] for l in (2, 4, 8)), ""),
    ])
    rep.figure(png, "Fig. 12")


def fig13(out, rep):
    rows = read_sweep(os.path.join(out, "fig13_fly_single_flit_lanes"))
    sim = series(rows, None, LANES, "accepted_fraction")[""]
    model = series(rows, None, LANES, "model_saturation_fraction")[""]
    png = line_plot(os.path.join(out, "fig13_model_vs_sim_throughput"), {"model (eq. 10)": model},
                    "lanes per physical channel (1 flit each)", "throughput (fraction of capacity)",
                    "Fig. 13: 2-ary 8-fly, predicted and measured throughput",
                    points={"simulation": sim}, ylim=(0, 1))
    rep.section("Fig. 13 — predicted and measured throughput (2-ary 8-fly, single-flit lanes)",
                "Simulation: synchronous timing, saturation sources, random channel arbitration.")
    m = dict(zip(*model))
    s = dict(zip(*sim))
    rep.table(["lanes", "simulated", "model", "difference"],
              [[l, fmt(s[l]), fmt(m[l]), f"{s[l] - m[l]:+.3f}"] for l in sorted(s)])
    worst = max(abs(s[l] - m[l]) for l in s)
    rep.claims([
        ("\"There is close agreement between the predicted and measured data\"",
         f"largest difference {worst:.3f} of capacity "
         f"(1 lane {s[1] - m[1]:+.3f}, 16 lanes {s[max(s)] - m[max(m)]:+.3f})", worst <= 0.05,
         "our simulation meets the model at 1 lane and nears it at 16 but stays up to 0.21 below it in "
         "between. Not a per-packet overhead (the measured throughput does not change with packet "
         "length) nor the arbitration policy; we attribute it to the model's independence "
         "assumption (eq. 4), see docs/models/dally.md"),
    ])
    rep.figure(png, "Fig. 13")
    rep.state["single_flit"] = s


def fig14(out, rep):
    single_flit = rep.state.get("single_flit")
    rows = read_sweep(os.path.join(out, "fig14_fly_equal_storage"))
    curves = series(rows, "topology.n", LANES, "accepted_fraction")
    png = line_plot(os.path.join(out, "fig14_equal_storage_throughput"),
                    {f"2-ary {n}-fly": v for n, v in curves.items()},
                    "lanes per physical channel (16 flits of storage per channel)",
                    "saturation throughput (fraction of capacity)", "Fig. 14: equal storage",
                    log2x=True, ylim=(0, 1))
    t = {n: dict(zip(*v)) for n, v in curves.items()}
    lanes = sorted({l for d in t.values() for l in d})
    rep.section("Fig. 14 — throughput against lanes at equal storage (2-ary n-fly, 16 flits/channel)")
    rep.table(["n"] + [f"{l} × {16 // l} flits" for l in lanes],
              [[n] + [fmt(t[n].get(l)) for l in lanes] for n in sorted(t)])
    claims = []
    if 10 in t:
        r10 = t[10][16] / t[10][1]
        claims.append(("2-ary 10-fly: 16 lanes have about 4× the throughput of 1 lane (issue's reading of Fig. 14)",
                       f"{fmt(t[10][1])} → {fmt(t[10][16])}: ×{r10:.2f}", abs(r10 - 4) <= 0.8,
                       "our single 16-flit lane is better (0.28) than the paper's ≈0.2; the 16-lane end agrees"))
    if single_flit and 8 in t:
        depth_gain = t[8][1] - single_flit[1]
        lane_gain = single_flit[16] - single_flit[1]
        claims.append(("\"adding lanes gives a far greater throughput improvement than does increasing the total "
                       "amount of buffering with a single lane\"",
                       f"2-ary 8-fly: one lane 1 → 16 flits deep: {fmt(single_flit[1])} → {fmt(t[8][1])} "
                       f"({depth_gain:+.3f}); 1 → 16 single-flit lanes: {fmt(single_flit[1])} → "
                       f"{fmt(single_flit[16])} ({lane_gain:+.3f})", lane_gain > 3 * depth_gain,
                       "depth data from this figure, single-flit lanes from Fig. 13"))
    mono = all(t[n][a] < t[n][b] for n in t for a, b in zip(lanes, lanes[1:]))
    claims.append(("throughput rises with lanes for every n at fixed storage", "see table", mono, ""))
    rep.claims(claims)
    rep.figure(png, "Fig. 14")


def equal_storage_latency(out, experiment, figure, storage, title):
    """Latency against offered traffic, one curve per lane count at `storage` flits per
    channel, drained points only. Returns (curves, PNG name)."""
    rows = read_sweep(os.path.join(out, experiment))
    curves = series(rows, LANES, "offered_fraction", "latency_mean", drained)
    png = line_plot(os.path.join(out, figure), {f"{l} × {storage // l} flits": v for l, v in curves.items()},
                    "offered traffic (fraction of capacity)", "latency (cycles)", title, ylim=(0, 400))
    return curves, png


def fig15(out, rep):
    rows = read_sweep(os.path.join(out, "fig15_fly_latency_model"))
    sim = series(rows, None, LOAD, "latency_mean", drained)[""]
    model = series(rows, None, LOAD, "model_latency")[""]
    png = line_plot(os.path.join(out, "fig15_model_vs_sim_latency"), {"model (eq. 8)": model},
                    "offered traffic (fraction of capacity)", "latency (cycles)",
                    "Fig. 15: 2-ary 8-fly, 4 single-flit lanes", points={"simulation": sim}, ylim=(0, 400))
    rep.section("Fig. 15 — predicted and measured latency (2-ary 8-fly, 4 single-flit lanes)",
                "Poisson sources; latency from creation to the tail's delivery, source queueing included.")
    m = dict(zip(*model))
    s = dict(zip(*sim))
    rep.table(["offered load", "simulated (cycles)", "model (cycles)", "ratio"],
              [[f"{x:g}", fmt(s[x], 1), fmt(m.get(x), 1), fmt(s[x] / m[x], 2) if m.get(x) else "—"]
               for x in sorted(s)])
    low = [x for x in s if x <= 0.3 and m.get(x)]
    worst_low = max(abs(s[x] / m[x] - 1) for x in low)
    rep.claims([
        ("\"the latency measurements are in close agreement with the value predicted by analysis\"",
         f"within {100 * worst_low:.0f} % up to load 0.3; beyond, the simulation saturates earlier "
         "(as in Fig. 13)", worst_low <= 0.15 and all(s[x] <= 1.3 * m[x] for x in s if x <= 0.4 and m.get(x)),
         "the model's zero-load latency is L + n = 28; ours is L + n + 1 = 29 (the ejection hop)"),
    ])
    rep.figure(png, "Fig. 15")


def fig16(out, rep):
    curves, png = equal_storage_latency(out, "fig16_fly_equal_storage_latency", "fig16_equal_storage_latency",
                                        16, "Fig. 16: 2-ary 8-fly, 16 flits per channel")
    rep.section("Fig. 16 — latency against offered traffic at equal storage (2-ary 8-fly, 16 flits/channel)",
                "Points that did not drain (offered load beyond saturation) are left out.")
    byload = {}
    for l, (xs, ys) in curves.items():
        for x, y in zip(xs, ys):
            byload.setdefault(round(x, 2), {})[l] = y
    loads = sorted(byload)
    rep.table(["offered (measured)"] + [f"{l} lanes" for l in sorted(curves)],
              [[f"{x:.2f}"] + [fmt(byload[x].get(l), 1) for l in sorted(curves)] for x in loads])
    # Latency penalty of more lanes at mid-high load: at each load where 4, 8 and 16 lanes all
    # drained, the excess of 16 lanes over the best of them.
    penalties = []
    for x in loads:
        d = byload[x]
        if all(l in d for l in (4, 8, 16)) and x >= 0.3:
            penalties.append((d[16] / min(d[4], d[8], d[16]) - 1, x))
    worst = max(penalties) if penalties else (float("nan"), 0)
    sat = {l: max(xs) for l, (xs, ys) in curves.items()}
    rep.claims([
        ("\"adding lanes to a network is a more effective use of storage than adding depth to a lane\"",
         "highest drained load: " + ", ".join(f"{l} lanes {sat[l]:.2f}" for l in sorted(sat)),
         sat[max(sat)] > sat[min(sat)] + 0.2, ""),
        ("\"a small latency penalty (as much as 7%) at mid to high traffic rates\" with more lanes",
         f"16 lanes vs the best of 4/8/16 at loads ≥ 0.3: up to {100 * worst[0]:.0f} % (at {worst[1]:.2f})",
         0 <= worst[0] <= 0.10, "a penalty exists and is small; our size differs from the quoted 7 %"
         if worst[0] > 0.10 else ""),
    ])
    rep.figure(png, "Fig. 16")


def histogram(point):
    return point["histogram"]["counts"]


def fig17(out, rep):
    points = read_points(os.path.join(out, "fig17_fly_scheduling_histogram"))
    by = {p["config"]["router.arbitration"].strip("'\""): p for p in points}
    hists = {"random": histogram(by["random"]), "oldest first (deadline)": histogram(by["oldest_first"])}
    png = histogram_plot(os.path.join(out, "fig17_scheduling_histogram"), hists, "latency (cycles)",
                         "packets", "Fig. 17: 2-ary 6-fly at 50 % of capacity", xmax=140)
    r, d = by["random"]["latency"], by["oldest_first"]["latency"]
    hd = histogram(by["oldest_first"])
    hr = histogram(by["random"])
    first = next(i for i, c in enumerate(hd) if c)
    peak = lambda h, lo, hi: max(range(lo, min(hi, len(h))), key=lambda i: h[i])
    rep.section("Fig. 17 — latency histograms, random vs deadline (oldest-first) channel scheduling",
                "2-ary 6-fly, Poisson sources at 50 % of capacity, 4 lanes × 4 flits (our choice, "
                "see docs/models/dally.md). Histograms truncated at 140 cycles as in the paper.")
    rep.table(["scheduling", "mean", "std. dev.", "minimum", "mode", "packets"],
              [[name, fmt(x["mean"], 1), fmt(x["stddev"], 1), x["min"], peak(h, 0, len(h)), x["count"]]
               for name, x, h in (("random", r, hr), ("oldest first", d, hd))])
    sd_ratio = r["stddev"] / d["stddev"]
    share_min_d = sum(hd[first:first + 3]) / sum(hd)
    share_min_r = sum(hr[first:first + 3]) / sum(hr)
    rep.claims([
        ("\"deadline scheduling reduced the average packet latency from 75.1 cycles to 62.2 cycles\"",
         f"{fmt(r['mean'], 1)} → {fmt(d['mean'], 1)} cycles ({100 * (d['mean'] / r['mean'] - 1):+.0f} %; "
         "paper −17 %)", d["mean"] < r["mean"],
         "trend holds; our absolute latencies are higher (the minimum is 26 = 20 flits + 6 stages, "
         "the paper reports 24)"),
        ("\"reduced the standard deviation of packet latency by a factor of two\"",
         f"{fmt(r['stddev'], 1)} → {fmt(d['stddev'], 1)} (÷{sd_ratio:.2f})", sd_ratio >= 1.7, ""),
        ("\"The deadline curve shows a sharp peak at 24 cycles latency, the minimum latency\"",
         f"share within 2 cycles of the minimum ({first}): deadline {100 * share_min_d:.1f} %, "
         f"random {100 * share_min_r:.1f} %; deadline mode {peak(hd, 0, len(hd))}",
         share_min_d > 2 * share_min_r and share_min_d > 0.02, ""),
    ])
    rep.figure(png, "Fig. 17")


def fig18(out, rep):
    (point,) = read_points(os.path.join(out, "fig18_fly_priority_histogram"))
    names = [c["name"] for c in point["classes"]]
    hi = names.index("priority")
    hists = {f"{c['name']} ({100 * c['share']:.0f} %)": c["histogram"] for c in point["classes"]}
    png = histogram_plot(os.path.join(out, "fig18_priority_histogram"), hists, "latency (cycles)",
                         "packets", "Fig. 18: 2-ary 6-fly at 50 %, 10 % priority traffic", xmax=140)
    overall = histogram(point)
    minimum = next(i for i, c in enumerate(overall) if c)
    h = point["classes"][hi]["histogram"]
    at_min = (h[minimum] if len(h) > minimum else 0) / max(1, sum(h))
    near_min = sum(h[minimum:minimum + 3]) / max(1, sum(h))
    rep.section("Fig. 18 — 10 % high-priority traffic scheduled by age over random standard traffic",
                "Same network as Fig. 17; arbitration `priority_deadline`.")
    rep.table(["class", "mean latency", "std. dev.", "packets"],
              [[c["name"], fmt(c["latency"]["mean"], 1), fmt(c["latency"]["stddev"], 1), c["latency"]["count"]]
               for c in point["classes"]])
    rep.claims([
        ("\"80% of the priority traffic is delivered with the minimum latency (24 cycles)\"",
         f"{100 * at_min:.0f} % at the minimum ({minimum} cycles), {100 * near_min:.0f} % within 2 cycles of it",
         at_min >= 0.7, "priority packets still wait for a free lane and share the source's injection "
         "channel with standard packets already on it; see docs/models/dally.md"),
        ("priority traffic is much faster than standard traffic",
         f"{fmt(point['classes'][hi]['latency']['mean'], 1)} vs "
         f"{fmt(point['classes'][1 - hi]['latency']['mean'], 1)} cycles",
         point["classes"][hi]["latency"]["mean"] < 0.6 * point["classes"][1 - hi]["latency"]["mean"], ""),
    ])
    rep.figure(png, "Fig. 18")


def fig19(out, rep):
    rows = read_sweep(os.path.join(out, "fig19a_mesh_saturation"))
    t = dict(zip(*series(rows, None, LANES, "accepted_fraction")[""]))
    curves, png = equal_storage_latency(out, "fig19b_mesh_latency", "fig19_mesh_latency", 32,
                                        "Fig. 19: 16-ary 2-cube mesh, 32 flits per channel")
    png_sat = line_plot(os.path.join(out, "fig19_mesh_saturation"),
                        {"saturation sources": (sorted(t), [t[l] for l in sorted(t)])},
                        "lanes per physical channel (32 flits of storage per channel)",
                        "saturation throughput (fraction of capacity)", "Fig. 19 (text): 16-ary 2-cube",
                        log2x=True, ylim=(0, 1))
    rep.section("Fig. 19 — 16-ary 2-cube mesh, dimension-order routing, 32 flits per channel")
    rep.table(["lanes"] + [str(l) for l in sorted(t)], [["saturation throughput"] + [fmt(t[l]) for l in sorted(t)]])
    share = (t[4] - t[1]) / (t[16] - t[1])
    below = {}
    for l, (xs, ys) in curves.items():
        for x, y in zip(xs, ys):
            if 0.25 <= x <= 0.35:
                below[l] = y
    spread = max(below.values()) / min(below.values()) - 1 if below else float("nan")
    rep.claims([
        ("\"With a single lane, the network saturates at 50% capacity\"", fmt(t[1]), abs(t[1] - 0.5) <= 0.05, ""),
        ("\"with 16-lanes throughputs of 90% capacity are achievable\"", fmt(t[16]), abs(t[16] - 0.9) <= 0.05,
         "the gap to 0.90 grows with lanes; candidates in docs/models/dally.md"),
        ("\"Most of the throughput gain is realized with four lanes\"",
         f"{100 * share:.0f} % of the 1 → 16 lane gain at 4 lanes", share >= 0.5, ""),
        ("\"adding lanes has little effect on latency below the saturation throughput for a single lane\" … "
         "\"actually increases latency by as much as 20%\"",
         f"at load ≈0.3: {', '.join(f'{l}: {fmt(y, 1)}' for l, y in sorted(below.items()))} cycles "
         f"(spread {100 * spread:.0f} %)", spread <= 0.20, ""),
    ])
    rep.figure(png_sat, "Fig. 19 saturation throughput")
    rep.figure(png, "Fig. 19 latency")


def main():
    run_report(sys.argv[1], "dally", "Dally, *Virtual-Channel Flow Control*: reproduction report",
               "Every simulation uses the paper's synchronous flow-control timing, 20-flit packets, "
               "uniform random destinations and random channel arbitration unless stated. The quick "
               "profile runs 2 000 warm-up + 4 000 measured cycles (8 000 for Figs. 17-18) instead of "
               "the paper's 10 000 + 20 000; `--full` runs the paper's lengths. Modelling choices: "
               "docs/models/dally.md.",
               [fig11, fig12, fig13, fig14, fig15, fig16, fig17, fig18, fig19])


if __name__ == "__main__":
    main()
