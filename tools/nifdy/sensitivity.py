"""Sensitivity of Figs. 2-3's NIFDY / none to choices the paper leaves open, each run on one
network with NIFDY against the plain NI on the same seeds:

- which logical network NIFDY's acks take on the CM-5 tree: the reply network (our choice;
  the two networks alternate cycles strictly, so acks there take nothing from the data) or
  the request network, "competing with data packets for network bandwidth" (§3);
  experiments/nifdy/sensitivity_cm5_acks.toml;
- how the butterfly holds its volume: one lane of 64 bytes per network (in order, as the
  paper's butterfly) or two of 32; experiments/nifdy/sensitivity_butterfly_lanes.toml.
"""
import os

from tools.nifdy.common import over, per_network
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
]


def figs2_3_sensitivity(out, rep):
    for experiment, axis, label, title, varies in SENSITIVITIES:
        if not os.path.exists(os.path.join(out, experiment, "results.csv")):
            continue
        rep.section(f"Sensitivity — {title}",
                    f"Figs. 2-3 with {varies} (`{experiment}.toml`): packets delivered, NIFDY / none seed by seed, "
                    f"and the verdict of {CLAIM} by the paired differences.")
        variants_table(out, rep, experiment, axis, label)
