#!/usr/bin/env python3
"""Figures and reproduction report for Callahan & Goldstein, *NIFDY: A Low Overhead, High
Throughput Network Interface (ISCA '95): Figs. 2-9 and Table 3.

  python3 -m tools.nifdy.report OUT_DIR

OUT_DIR holds one sweep per experiment of experiments/nifdy/ (written by `icnsim reproduce
nifdy`). Writes OUT_DIR/nifdy.md and the figures. The paper's claims are quoted constants;
every measured value is read from the sweep output.

Method. The paper's measures are fixed workloads (packets delivered in a fixed time, cycles
to finish a communication pattern), not loads swept to saturation. Every point runs with
one seed (quick) or five (full); a value is the mean over seeds with its 95 % confidence
interval, ratios are taken seed by seed (tools/report/seed_stats.py).
"""
import glob
import json
import os
import sys

from tools.nifdy.bound import ceiling_section, fig4_without_ceiling, latency_section
from tools.nifdy.common import (NEGLIGIBLE, NETWORKS, NIS, cshift_rates, cshift_runs, em3d_cycles, best_buffers, delivered, network_rows, over, per_network, split_name,
                                with_best_buffers)
from tools.nifdy.retransmission import retransmission
from tools.nifdy.scan import fig9
from tools.nifdy.sensitivity import cshift_sensitivity, em3d_sensitivity, figs2_3_sensitivity
from tools.report import verdict as vd
from tools.report.lib import bar_plot, heatmap_plots, line_plot, read_rows_with_points, run_report
from tools.report.seed_stats import Value, combine, greater, joined, method_section

ROUGHLY = 0.10     # our reading of "roughly the same": within 10 %


def fig2_3(out, rep):
    raw = delivered(out)
    best = best_buffers(raw)
    d = with_best_buffers(raw, best)
    labels = [label for _, label in NETWORKS if (label, "heavy", "none") in d]
    cycles = None
    for path in glob.glob(os.path.join(out, "fig02_03_*", "points", "00000.json")):
        cycles = json.load(open(path))["config"].get("simulation.measure_cycles")
        break
    rep.section("Figs. 2-3 — packets delivered with heavy and light synthetic traffic",
                f"Packets the processors received in {cycles} cycles (the paper: 1 000 000), 64 nodes, "
                "T_send 40, T_receive 60, bulk-synchronous phases of 100-300 packets per sender; NIFDY "
                "with Table 3's parameters, buffers-only with the same total buffering, split between the "
                "arrivals queue and the outgoing pool as 1/4, 1/2 or 3/4 and the best split taken per case (the "
                "paper: \"redistributed to be most effective for each case\"; the split column).")
    pngs = []
    for fig, traffic in ((2, "heavy"), (3, "light")):
        pngs.append(bar_plot(os.path.join(out, f"fig0{fig}_{traffic}_traffic"), labels,
                             {ni: [d[(n, traffic, ni)] for n in labels] for ni in NIS},
                             "packets delivered", f"Fig. {fig}: {traffic} synthetic traffic"))
        rep.table(["network"] + NIS + ["split", "NIFDY / none", "NIFDY / buffers only"],
                  [[n] + [d[(n, traffic, ni)].text(0) for ni in NIS] + [split_name(best[(n, traffic)])]
                   + [over(d[(n, traffic, "NIFDY")], d[(n, traffic, base)]).text(2) for base in ("none", "buffers only")]
                   for n in labels])
    cases = [(n, t) for n in labels for t in ("heavy", "light")]
    vs_none = {c: over(d[c + ("NIFDY",)], d[c + ("none",)]) for c in cases}
    vs_buf = {c: over(d[c + ("NIFDY",)], d[c + ("buffers only",)]) for c in cases}
    more = {c: vd.greater(d[c + ("NIFDY",)], d[c + ("none",)]) for c in cases}
    fewer = [f"{n} {t} {vs_none[(n, t)].text(2)}" for n, t in cases if not more[(n, t)].holds]
    apart = [f"{n} {t} {vs_buf[(n, t)].text(2)}" for n, t in cases
             if not vd.decide_between(vs_buf[(n, t)], 1 - ROUGHLY, 1 + ROUGHLY).holds]

    def gain(n):  # per seed: NIFDY's packets over the plain NI's, heavy and light together
        both = [d[(n, t, ni)] for t in ("heavy", "light") for ni in ("NIFDY", "none")]
        return combine(lambda h, l, hn, ln: (h + l) / (hn + ln), both[0], both[2], both[1], both[3])

    rows = [
        ("\"Our results show that it delivers more packets than the same network without NIFDY\" (§4.6)",
         f"NIFDY more than none (paired by seed) in {len(cases) - len(fewer)} of {len(cases)} cases; not: "
         + (", ".join(fewer) or "none"), vd.all_hold(*more.values()),
         "where NIFDY delivers fewer, and the suspected cause (not tested): docs/models/nifdy.md, \"Where NIFDY "
         "delivers fewer packets\"" if fewer else ""),
        ("\"and roughly the same as when NIFDY's buffering is used without the protocol\" (§4.6)",
         f"NIFDY / buffers only within {ROUGHLY:.0%} of 1 in {len(cases) - len(apart)} of {len(cases)} cases; "
         "not: " + (", ".join(apart) or "none"), vd.within_with_readings(list(vs_buf.values()), ROUGHLY, 1.0),
         "our reading of \"roughly\""),
    ]
    if "8x8 mesh" in labels and "full fat tree" in labels:
        rows.append(("\"The utility of NIFDY increases as a network's bisection bandwidth decreases\" (abstract)",
                     f"NIFDY / none, heavy and light together: 8x8 mesh {gain('8x8 mesh').text(2)}, "
                     f"full fat tree {gain('full fat tree').text(2)}", vd.greater(gain("8x8 mesh"), gain("full fat tree")),
                     "our reading: the mesh (low bisection) gains more than the full fat tree, paired by seed"))
    rows += payload_claims(out, rep, d, best, labels)
    rep.claims(rows)
    for fig, png in zip((2, 3), pngs):
        rep.figure(png, f"Fig. {fig}")


# Our reading of the payload in-order delivery allows (docs/models/nifdy.md): an 8-word
# packet carries a header word and, unless delivery is in order and it is not its message's
# first packet, a bookkeeping word (where its data goes).
PACKET_WORDS = 8


def payload_claims(out, rep, d, best, labels):
    """Figs. 2-3 in payload words: NIFDY's packets after a message's first carry one more word; a
    plain NI gets the same only on a network that delivered every packet in order. D: packets
    delivered with each case's best buffers-only split, BEST: which split that is."""
    messages = with_best_buffers(per_network(out, "fig02_03_", NETWORKS, lambda r: (r["traffic"], r["ni"]),
                                             lambda j: j["message_latency"]["count"]), best)
    reordered = per_network(out, "fig02_03_", NETWORKS, lambda r: (r["ni"],), lambda j: j["out_of_order_packets"])
    in_order = {n: all(max(v.samples) == 0 for (m, ni), v in reordered.items() if m == n and ni != "NIFDY")
                for n in labels}

    def payload(n, t, ni):
        if ni == "NIFDY" or in_order[n]:  # first packets PACKET_WORDS - 2 words, the others one more
            return combine(lambda p, m: (PACKET_WORDS - 1) * p - m, d[(n, t, ni)], messages[(n, t, ni)])
        return combine(lambda p: (PACKET_WORDS - 2) * p, d[(n, t, ni)])

    cases = [(n, t) for n in labels for t in ("heavy", "light")]
    words = {c + (ni,): payload(*c, ni) for c in cases for ni in NIS}
    vs = {base: {c: over(words[c + ("NIFDY",)], words[c + (base,)]) for c in cases} for base in NIS[:2]}
    rep.text(f"Payload words delivered (our reading: {PACKET_WORDS}-word packets with a header word and a "
             "bookkeeping word that in-order delivery drops from every packet but a message's first; a plain NI "
             "gets that only on a network that delivered every packet in order: "
             + (", ".join(n for n in labels if in_order[n]) or "none") + "):")
    rep.table(["network", "traffic"] + NIS + ["NIFDY / none", "NIFDY / buffers only"],
              [[n, t] + [words[(n, t, ni)].text(0) for ni in NIS] + [vs[b][(n, t)].text(2) for b in NIS[:2]]
               for n, t in cases])
    rows = []
    for base, quote in (("none", "\"When combined with the increased payload allowed by in-order delivery NIFDY "
                                 "increases total bandwidth delivered for all networks\" (abstract)"),
                        ("buffers only", "\"since NIFDY delivers packets in order, it increased total payload "
                                         "delivered on all networks\" (§7; our reading: over just added buffers)")):
        more = {c: vd.greater(words[c + ("NIFDY",)], words[c + (base,)]) for c in cases}
        short = [f"{n} {t} {vs[base][(n, t)].text(2)}" for n, t in cases if not more[(n, t)].holds]
        rows.append((quote, f"payload NIFDY more than {base} (paired by seed) in {len(cases) - len(short)} of "
                     f"{len(cases)} cases; not: " + (", ".join(short) or "none"), vd.all_hold(*more.values()),
                     "payload rule: docs/models/nifdy.md"))
    return rows


def normalised(out, experiment):
    """{case: {nodes: Value of delivered / delivered without NIFDY, seed by seed}}."""
    rows = [r for r in read_rows_with_points(os.path.join(out, experiment)) if r["json"] is not None]
    seed = "simulation.seed"
    base = {(r["topology.n"], r.get(seed)): r["json"]["delivered_packets"] for r in rows if r["ni"] == "none"}
    samples = {}
    for r in rows:
        key = (r["topology.n"], r.get(seed))
        if r["ni"] != "none" and key in base:
            samples.setdefault(r["ni"], {}).setdefault(4 ** r["topology.n"], []).append(
                r["json"]["delivered_packets"] / base[key])
    return {c: {n: Value(v) for n, v in sorted(by.items())} for c, by in samples.items()}


def fig4(out, rep):
    pool = normalised(out, "fig04a_scalability_pool")
    table = normalised(out, "fig04b_scalability_table")
    rep.section("Fig. 4 — scalability on fat trees",
                "Full 4-ary fat trees of growing size, heavy traffic with 1-5 packet messages, no bulk dialogs; "
                "packets delivered with NIFDY divided by packets delivered without it on the same tree.")
    order = lambda c: int(c.split("=")[1])  # noqa: E731
    pngs = [line_plot(os.path.join(out, name), {c: (list(data[c]), [v.mean for v in data[c].values()])
                                                 for c in sorted(data, key=order)},
                      "nodes", "throughput / no NIFDY", title, log2x=True)
            for name, data, title in (("fig04a_scalability_pool", pool, "Fig. 4a: pool size B (O = 8)"),
                                      ("fig04b_scalability_table", table, "Fig. 4b: table size O (B = 16)"))]
    sizes = list(pool[next(iter(pool))])
    rep.table(["nodes"] + sorted(pool, key=order) + sorted(table, key=order),
              [[n] + [data[c][n].text(3) if n in data[c] else "—" for data in (pool, table)
                      for c in sorted(data, key=order)] for n in sizes])
    change = {c: combine(lambda a, b: b - a, pool[c][sizes[0]], pool[c][sizes[-1]]) for c in pool}
    complete = [n for n in sizes if all(n in table[c] for c in table)]
    at = {n: {order(c): table[c][n] for c in table} for n in complete}
    # The sizes of O that no other beats by the paired differences, and the claim's O at each size.
    best_o = [(n, [o for o in sorted(at[n]) if not any(vd.greater(v, at[n][o]).holds for v in at[n].values())])
              for n in complete]
    claimed = vd.all_hold(*(vd.is_best(at[n], 8 if n != complete[-1] else 4) for n in complete))
    larger_b = {n: vd.greater(pool["B = 16"][n], pool["B = 2"][n]) for n in sizes}
    rep.claims([
        ("\"for a fixed B, the relative benefit of NIFDY does not decrease and in most cases increases as the "
         "MPP grows\"", ", ".join(f"{c}: {change[c].text(3)}" for c in sorted(change, key=order))
         + f" from {sizes[0]} to {sizes[-1]} nodes", vd.all_hold(*(vd.decide(v, 0.0) for v in change.values())),
         "the change of the normalised throughput over the sizes swept, seed by seed"),
        ("\"In general, increasing B gives better performance for any size network\"",
         ", ".join(f"{n} nodes: B = 2 → {pool['B = 2'][n].text(3)}, B = 16 → {pool['B = 16'][n].text(3)}"
                   for n in sizes), vd.all_hold(*larger_b.values()), "B = 16 against B = 2, paired by seed"),
        ("\"O = 8 is the best parameter across all machine sizes except for the largest we looked at (where the "
         "best value of O is 4)\"", "; ".join(f"{n} nodes: best O {best}" for n, best in best_o), claimed,
         "best: beaten by no other O, by the paired differences (several where they tie: inconclusive); our "
         "largest size stands for the paper's, which it does not give"),
    ])
    top = max(((v.mean, c, n) for data in (pool, table) for c, by in data.items() for n, v in by.items()))
    rep.text(f"Highest normalised throughput: {top[0]:.3f} ({top[1]}, {top[2]} nodes). Whether the processors' "
             "ceiling (\"What limits Figs. 2-3\", above) is why the gains are small and shrink with size:")
    fig4_without_ceiling(out, rep)
    rep.figure(pngs[0], "Fig. 4a")
    rep.figure(pngs[1], "Fig. 4b")


def fig5_6(out, rep):
    rows = cshift_runs(out)

    def value(f):
        return {name: Value([f(name, j) for j in js]) for name, js in rows.items()}
    rate = cshift_rates(rows)
    done = value(lambda name, j: j["last_delivery"])
    packets = value(lambda name, j: j["delivered_packets"])
    peak = value(lambda name, j: max(max(r) for r in j["pending_per_receiver"]["pending"]))
    rep.section("Figs. 5-6 — C-shift on a 32-node CM-5-style fat tree",
                "All-to-all by cyclic shift, 20 packets (320 payload bytes) per pair; the in-order library "
                "carries the same bytes in 16 packets. Throughput: payload bytes delivered per cycle until the "
                "last packet arrived.")
    names = [n for n in ("no NIFDY", "no NIFDY, barriers", "buffers only", "NIFDY-", "NIFDY") if n in rows]
    rep.table(["run", "packets", "finished at cycle", "payload bytes / cycle", "most packets pending at one receiver"],
              [[n, packets[n].text(0), done[n].text(0), rate[n].text(2), peak[n].text(0)] for n in names])
    png6 = bar_plot(os.path.join(out, "fig06_cshift_throughput"), ["C-shift"], {n: [rate[n]] for n in names},
                    "payload bytes per cycle", "Fig. 6: C-shift throughput, 32-node CM-5-style tree")
    panels = {}
    end = max(v.mean for v in done.values())
    for n in ("no NIFDY", "NIFDY-"):
        series = rows[n][0]["pending_per_receiver"]  # the first seed's run
        keep = [i for i, c in enumerate(series["cycles"]) if c <= end]
        panels[n] = ([series["cycles"][i] for i in keep], [series["pending"][i][:32] for i in keep])
    png5 = heatmap_plots(os.path.join(out, "fig05_cshift_pending"), panels, "cycle", "receiver",
                         "Fig. 5: pending packets per receiver (black: 20 or more; first seed)", vmax=20)
    gain = {(a, b): over(rate[a], rate[b]) for a, b in (("NIFDY-", "no NIFDY, barriers"), ("NIFDY-", "no NIFDY"),
                                                         ("NIFDY", "NIFDY-"))}
    much = vd.with_readings(gain[("NIFDY-", "no NIFDY")], 1 + ROUGHLY, around=1.0)
    rep.claims([
        ("\"Using NIFYD’s congestion control alone results in better performance than optimized barriers\"",
         f"NIFDY- ÷ barriers: {gain[('NIFDY-', 'no NIFDY, barriers')].text(2)} in payload bytes per cycle",
         vd.decide(gain[("NIFDY-", "no NIFDY, barriers")], 1.0), ""),
        ("\"in all cases performance was much better with NIFYD than with nothing at all\"",
         f"NIFDY- ÷ no NIFDY: {gain[('NIFDY-', 'no NIFDY')].text(2)}", much,
         f"our reading of \"much better\": at least {ROUGHLY:.0%} more"),
        ("\"When NIFYD’s in-order delivery is exploited, the benefit is even greater\"",
         f"NIFDY ÷ NIFDY-: {gain[('NIFDY', 'NIFDY-')].text(2)}", vd.decide(gain[("NIFDY", "NIFDY-")], 1.0),
         "the saving of one bookkeeping word per packet is our assumption"),
        ("Fig. 5: \"Some piling up does occur with NIFYD ... but these perturbations dissipate\"",
         f"most packets pending at one receiver: no NIFDY {peak['no NIFDY'].text(0)}, NIFDY- {peak['NIFDY-'].text(0)}",
         vd.greater(peak["no NIFDY"], peak["NIFDY-"]), "our reading: smaller pile-ups with NIFDY, paired by seed"),
    ])
    rep.figure(png5, "Fig. 5")
    rep.figure(png6, "Fig. 6")


EM3D_NETWORKS = [("full_fat_tree", "full fat tree"), ("multibutterfly", "multibutterfly"),
                 ("mesh_8x8", "8x8 mesh"), ("butterfly", "butterfly")]


def fig7_8(out, rep):
    cycles = per_network(out, "fig07_08_em3d_", EM3D_NETWORKS, lambda r: (r["graph"], r["run"]), em3d_cycles)
    labels = [label for _, label in EM3D_NETWORKS if (label, "less communication", "no NIFDY") in cycles]
    runs = ["no NIFDY", "buffers only", "NIFDY-", "NIFDY"]
    rep.section("Figs. 7-8 — EM3D",
                "Cycles per iteration (after a warm-up iteration) on 64 processors. \"NIFDY-\": NIFDY's flow "
                "control with the library that does not rely on in-order delivery (2 values per packet); "
                "\"NIFDY\": the library exploits in-order delivery (5 values per packet). The 8x8 mesh "
                "and the butterfly deliver in order by themselves (one path and one lane per network), so all their "
                "runs use the in-order library and they have no NIFDY- run, as in the paper.")
    pngs = []
    for fig, graph in ((7, "less communication"), (8, "more communication")):
        rep.table(["network"] + runs, [[n] + [cycles[(n, graph, r)].text(0) if (n, graph, r) in cycles else "—"
                                             for r in runs] for n in labels])
        pngs.append(bar_plot(os.path.join(out, f"fig0{fig}_em3d_{graph.split()[0]}"), labels,
                             {r: [cycles[(n, graph, r)] if (n, graph, r) in cycles else 0 for n in labels]
                              for r in runs}, "cycles per iteration", f"Fig. {fig}: EM3D, {graph}"))
    graphs = ("less communication", "more communication")
    reorder = [n for n in labels if (n, graphs[0], "NIFDY-") in cycles]
    diff = {(n, g): combine(lambda a, b: a / b - 1, cycles[(n, g, "NIFDY-")], cycles[(n, g, "buffers only")])
            for n in reorder for g in graphs}
    wins = {(n, g): over(cycles[(n, g, "NIFDY")], cycles[(n, g, "buffers only")]) for n in labels for g in graphs}
    rep.claims([
        ("\"Without in-order delivery, the difference between NIFDY and the buffers-only configurations is "
         "negligible\"", "; ".join(f"{n}, {g}: {d.text(1, 100, ' %')}" for (n, g), d in diff.items()),
         vd.within_with_readings(list(diff.values()), NEGLIGIBLE), "our reading of \"negligible\""),
        ("\"Once the library takes advantage of the in-order delivery provided by NIFDY, it outperforms the "
         "buffers-only configuration in all cases\"",
         "; ".join(f"{n}, {g}: ×{w.text(2)}" for (n, g), w in wins.items()) + " of buffers-only's cycles",
         vd.all_hold(*(vd.decide(w, 1.0, higher=False) for w in wins.values())), "cycles per iteration, seed by seed"),
    ])
    for fig, png in zip((7, 8), pngs):
        rep.figure(png, f"Fig. {fig}")


def over_buffers(out, rep):
    """§7: NIFDY with in-order delivery exploited against NIFDY's buffers without its protocol, on
    the real traffic patterns (EM3D, C-shift)."""
    cycles = per_network(out, "fig07_08_em3d_", EM3D_NETWORKS, lambda r: (r["graph"], r["run"]), em3d_cycles)
    light = {n: combine(lambda b, x: b / x - 1, cycles[(n, "less communication", "buffers only")],
                        cycles[(n, "less communication", "NIFDY")])
             for _, n in EM3D_NETWORKS if (n, "less communication", "NIFDY") in cycles}
    rate = cshift_rates(cshift_runs(out))
    if "buffers only" not in rate or not light:
        return
    cshift = combine(lambda x, b: x / b - 1, rate["NIFDY"], rate["buffers only"])
    rep.section("Conclusion — NIFDY against just added buffers",
                "Gain of NIFDY, with the library exploiting in-order delivery, over NIFDY's buffering without "
                "its protocol: EM3D with less communication (fewer cycles per iteration) and C-shift (payload "
                "bytes per cycle).")
    top = max(light.values(), key=lambda v: v.mean)
    by_itself = [n for n in light if (n, "less communication", "NIFDY-") not in cycles]
    held = vd.all_hold(*(vd.decide(v, 0.0) for v in light.values()),
                       vd.within_with_readings([cshift], 0.5, center=1.0), vd.as_verdict(*greater(cshift, top)))
    rep.claims([("\"For real traffic patterns we saw increases from 10% (under light loads presented in EM3D) to as "
                 "much as 100% (under all-to-all transfers) over just having added more buffers\" (§7)",
                 "EM3D, less communication: " + ", ".join(f"{n} {v.text(1, 100, ' %')}" for n, v in light.items())
                 + f"; C-shift: {cshift.text(1, 100, ' %')}", held,
                 joined("our reading: every gain positive, C-shift's between 50 % and 150 % and above every EM3D one",
                        f"{', '.join(by_itself)} delivers in order by itself, so its buffers-only run uses the "
                        "in-order library too" if by_itself else ""))])


# Table 3 as printed: (D, W, B, O). The 8x8 mesh's row lost its values in extraction; §2.4.3's
# initial guess for that network stands in.
TABLE3 = {
    "full fat tree": (1, 4, 8, 8), "CM-5 fat tree": (1, 4, 8, 8), "S&F fat tree": (1, 8, 16, 8),
    "8x8 mesh": (1, 2, 4, 4), "8x8 torus": (1, 2, 8, 4), "4x4x4 mesh": (1, 2, 8, 4),
    "butterfly": (0, 0, 8, 8), "multibutterfly": (1, 4, 8, 8),
}


def table3_scores(out):
    """{network: {setting: score Value over seeds}}: packets delivered relative to the setting
    best on average for each traffic pattern, averaged over the two patterns, seed by seed."""
    samples = {}
    for label, r in network_rows(out, "table3_"):
        d, w = (0, 0) if r["bulk"] == "D 0" else (1, int(r["bulk"].split("W")[1]))
        samples.setdefault(label, {}).setdefault(((d, w, r["nic.B"], r["nic.O"]), r["traffic"]), []).append(
            r["json"]["delivered_packets"])
    scores = {}
    for label, by_setting in samples.items():
        top = {t: max(sum(v) / len(v) for (k, tt), v in by_setting.items() if tt == t) for t in ("heavy", "light")}
        scores[label] = {k: Value([(h / top["heavy"] + lo / top["light"]) / 2
                                   for h, lo in zip(by_setting[(k, "heavy")], by_setting[(k, "light")])])
                         for (k, t) in by_setting if t == "heavy" and (k, "light") in by_setting}
    return scores


def undominated(score):
    """The settings no other beats by the paired differences of their scores."""
    return [k for k in score if not any(vd.greater(v, score[k]).holds for v in score.values())]


def table3(out, rep):
    scores = table3_scores(out)
    if not scores:
        raise FileNotFoundError(2, "no sweep output", os.path.join(out, "table3_*"))
    best = {n: max(sc, key=lambda k: sc[k].mean) for n, sc in scores.items()}  # shown; verdicts use intervals
    tied = {n: undominated(sc) for n, sc in scores.items()}
    fmt_setting = "D {} W {} B {} O {}".format
    rows_out = [[n, fmt_setting(*TABLE3[n]), fmt_setting(*best[n]), len(tied[n]), scores[n][best[n]].text(3),
                 scores[n][TABLE3[n]].text(3) if TABLE3[n] in scores[n] else "—"] for n in scores]
    rep.section("Table 3 — best NIFDY parameters per network",
                "Each network swept over O ∈ {4, 8}, B ∈ {4, 8, 16} and bulk dialogs (none, or D = 1 with "
                "W = 2, 4, 8), heavy and light traffic. Score: packets delivered relative to the best "
                "setting for each traffic pattern, averaged over the two patterns (the paper chose its "
                "parameters \"to give the best average performance with both test traffic patterns\"), seed by "
                "seed. \"Tied\": the settings that no other beats by the paired differences of their scores.")
    rep.table(["network", "Table 3", "highest mean in our sweep", "settings tied for best", "its score",
               "score of Table 3's"], rows_out)
    paper_gap = {n: combine(lambda b, p: b - p, sc[best[n]], sc[TABLE3[n]]) for n, sc in scores.items()
                 if TABLE3[n] in sc}

    def looseness(p):
        d, w, b, o = p
        return o + b + d * w

    def decided(names):  # every network's tied settings agree on the property, or None
        return all(len(tied[n]) == 1 for n in names)
    trees = [n for n in ("full fat tree", "CM-5 fat tree", "S&F fat tree") if n in best]
    meshes = [n for n in ("8x8 mesh", "8x8 torus", "4x4x4 mesh") if n in best]
    no_bulk = [n for n in best if all(k[0] == 0 for k in tied[n])]
    some_no_bulk = [n for n in best if any(k[0] == 0 for k in tied[n])]
    rows = [
        ("Table 3's parameters are the best for each network (\"The best NIFDY parameters ... are shown in "
         "Table 3\")", "score of the highest-mean setting minus Table 3's, seed by seed: "
         + ", ".join(f"{n} {v.text(3)}" for n, v in paper_gap.items()),
         vd.at_readings(lambda t: vd.all_hold(*(vd.decide(v, t, higher=False) for v in paper_gap.values())), 0.03),
         "best: within 3 % of the best setting's score (our reading)"),
    ]
    if trees and meshes:
        t = sum(looseness(best[n]) for n in trees) / len(trees)
        m = sum(looseness(best[n]) for n in meshes) / len(meshes)
        verdict = (vd.Verdict(vd.HOLDS if t > m else vd.FAILS) if decided(trees + meshes) else
                   vd.Verdict(vd.INCONCLUSIVE, "the best setting is not decided: "
                              + ", ".join(f"{n} ties {len(tied[n])}" for n in trees + meshes if len(tied[n]) > 1)))
        rows.append(("\"The ideal NIFDY parameters for the fat-tree variations are less restrictive than those "
                     "for the meshes\"", f"mean O + B + D·W of the highest-mean settings: fat trees {t:.1f}, meshes "
                     f"{m:.1f}", verdict, "restrictiveness read as O + B + D·W (our reading)"))
    bulk_verdict = (vd.Verdict(vd.HOLDS if no_bulk == ["butterfly"] and some_no_bulk == ["butterfly"] else vd.FAILS)
                    if no_bulk == some_no_bulk or some_no_bulk == [] else
                    vd.Verdict(vd.INCONCLUSIVE, "tied settings with and without bulk dialogs on "
                               + ", ".join(n for n in some_no_bulk if n not in no_bulk)))
    rows.append(("\"the butterfly is the only network where it is best to have no bulk dialogs\"",
                 "best without bulk dialogs (every tied setting): " + (", ".join(no_bulk) or "none")
                 + "; with a tied setting without them: " + (", ".join(some_no_bulk) or "none"), bulk_verdict, ""))
    rep.claims(rows)
    pools = [p[2] for p in best.values()]
    common = max(set(pools), key=pools.count)
    rep.text(f"The pool size of the highest-mean setting: B = {common} on {pools.count(common)} of {len(pools)} "
             "networks; pools beyond the sweep's, and a faster processor, tested on the 8x8 mesh: "
             "docs/models/nifdy.md, \"Claims that do not hold\".")


def main():
    run_report(sys.argv[1], "nifdy", "Callahan & Goldstein, *NIFDY*: reproduction report",
               "Figs. 2-9, Table 3 and §6.2's retransmission. The method table gives each experiment's seeds and cycles (the paper runs "
               "1 000 000 cycles per point). Modelling choices: docs/models/nifdy.md.",
               [method, fig2_3, latency_section, ceiling_section, figs2_3_sensitivity, fig4, fig5_6,
                cshift_sensitivity, fig7_8, em3d_sensitivity, fig9, table3, over_buffers, retransmission])


def method(out, rep):
    experiments = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(out, "*", "results.csv")))
    method_section(rep, out, experiments)


if __name__ == "__main__":
    main()
