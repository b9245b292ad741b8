"""Sensitivity of Figs. 2-3's NIFDY / none to choices the paper leaves open, each run on one
network with NIFDY against the plain NI on the same seeds:

- which logical network NIFDY's acks take on the CM-5 tree: the reply network (our choice;
  the two networks alternate cycles strictly, so acks there take nothing from the data) or
  the request network, "competing with data packets for network bandwidth" (§3);
  experiments/nifdy/sensitivity_cm5_acks.toml;
- how the butterfly holds its volume: one lane of 64 bytes per network (in order, as the
  paper's butterfly) or two of 32; experiments/nifdy/sensitivity_butterfly_lanes.toml;
- the full fat tree's latency against Table 3's line (one- or two-cycle channels);
  experiments/nifdy/sensitivity_fat_tree_latency.toml;

and of the real-traffic claims to our assumptions: a barrier's cost and the in-order
library's saving in the C-shift, the values per packet of EM3D's in-order library (runs of
fig05_06_cshift.toml and fig07_08_em3d_full_fat_tree.toml beside the figures' own).
"""
import os

from tools.nifdy.common import cshift_rates, cshift_runs, em3d_cycles, over, per_network
from tools.report.verdict import greater

CLAIM = "\"it delivers more packets than the same network without NIFDY\" (§4.6)"


def variants_table(out, rep, experiment, axis, label):
    """Per traffic and case of AXIS in OUT/EXPERIMENT (a sweep of NIFDY and the plain NI on
    LABEL's network): packets delivered, NIFDY / none seed by seed, the plain NI's packets
    received out of order, and CLAIM's verdict by the paired differences."""
    key = (lambda r: (r["traffic"], r[axis], r["ni"]))
    d = per_network(out, experiment, [("", label)], key, lambda j: j["delivered_packets"])
    late = per_network(out, experiment, [("", label)], key, lambda j: j["out_of_order_packets"])
    rows = []
    for traffic, case in dict.fromkeys((t, c) for _, t, c, _ in d):
        none, nifdy = d[(label, traffic, case, "none")], d[(label, traffic, case, "NIFDY")]
        rows.append([traffic, case, none.text(0), nifdy.text(0), over(nifdy, none).text(2),
                     late[(label, traffic, case, "none")].text(0), greater(nifdy, none).outcome])
    rep.table(["traffic", axis, "none", "NIFDY", "NIFDY / none", "out of order, none", "NIFDY more"], rows)


SENSITIVITIES = [  # experiment, axis, network, title, what varies
    ("sensitivity_cm5_acks", "acks", "CM-5 fat tree", "which network NIFDY's acks take (CM-5 tree)",
     "NIFDY's acks on the reply network (as in Figs. 2-3) or on the request network with the data"),
    ("sensitivity_butterfly_lanes", "lanes", "butterfly", "the butterfly's lanes",
     "the butterfly's volume in one lane of 64 bytes per network (as in Figs. 2-3) or two of 32"),
    ("sensitivity_fat_tree_latency", "latency", "full fat tree", "the full fat tree's latency",
     "one-cycle channels (as in Figs. 2-3, a hop's delay below Table 3's T_lat) or two-cycle channels "
     "(within about a cycle of its line at the largest distance)"),
]


def figs2_3_sensitivity(out, rep):
    for experiment, axis, label, title, varies in SENSITIVITIES:
        if not os.path.exists(os.path.join(out, experiment, "results.csv")):
            continue
        rep.section(f"Sensitivity — {title}",
                    f"Figs. 2-3 with {varies} (`{experiment}.toml`): packets delivered, NIFDY / none seed by seed, "
                    f"and the verdict of {CLAIM} by the paired differences.")
        variants_table(out, rep, experiment, axis, label)


def cshift_sensitivity(out, rep):
    rate = cshift_rates(cshift_runs(out))
    barriers = [n for n in rate if n.startswith("no NIFDY, barriers")]
    packets = [n for n in rate if n.startswith("NIFDY") and n != "NIFDY-"]
    if len(barriers) < 2 or "NIFDY-" not in rate:
        return
    rep.section("Sensitivity — C-shift: a barrier's cost and the in-order saving",
                "The paper gives neither what a barrier costs (0 cycles in Fig. 6) nor how many packets the "
                "library that exploits in-order delivery saves (our assumption: 16 packets a pair instead of 20). "
                "Payload bytes per cycle, ratios seed by seed, verdicts by the paired differences.")
    rows = [["barriers, " + (n.split("barriers ")[1] if "barriers " in n else "0 cycles"), rate[n].text(2),
             f"NIFDY- ÷ this {over(rate['NIFDY-'], rate[n]).text(2)}",
             "NIFDY alone better: " + greater(rate["NIFDY-"], rate[n]).outcome] for n in barriers]
    rows += [["NIFDY, " + (n.split(", ")[1] if ", " in n else "16 packets"), rate[n].text(2),
              f"this ÷ NIFDY- {over(rate[n], rate['NIFDY-']).text(2)}",
              "benefit even greater: " + greater(rate[n], rate["NIFDY-"]).outcome] for n in packets]
    rep.table(["run", "payload bytes / cycle", "ratio", "verdict"], rows)


def em3d_sensitivity(out, rep):
    try:
        cycles = per_network(out, "fig07_08_em3d_full_fat_tree", [("", "full fat tree")],
                             lambda r: (r["graph"], r["run"]), em3d_cycles)
    except FileNotFoundError:
        return
    runs = list(dict.fromkeys(r for _, _, r in cycles if r == "NIFDY" or r.startswith("NIFDY, ")))
    if len(runs) < 2:
        return
    rep.section("Sensitivity — EM3D: values per packet of the in-order library",
                "The in-order library's packets carry 5 values in Figs. 7-8 (our assumption: no index word per "
                "value; 2 without in-order delivery); here 4 and 3 on the full fat tree. Cycles per iteration "
                "against buffers-only, seed by seed, and the verdict of \"it outperforms the buffers-only "
                "configuration\" by the paired differences.")
    rows = []
    for graph in dict.fromkeys(g for _, g, _ in cycles):
        base = cycles[("full fat tree", graph, "buffers only")]
        for r in runs:
            v = cycles[("full fat tree", graph, r)]
            rows.append([graph, "5 values per packet" if r == "NIFDY" else r.split(", ")[1], v.text(0),
                         over(v, base).text(2), greater(base, v).outcome])
    rep.table(["graph", "NIFDY's library", "cycles per iteration", "÷ buffers only", "outperforms"], rows)
