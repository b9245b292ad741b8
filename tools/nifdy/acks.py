"""Sensitivity of Figs. 2-3 on the CM-5 tree to which logical network NIFDY's acks take: the
reply network (our choice; the two networks alternate cycles strictly, so acks there take
nothing from the data) or the request network, "competing with data packets for network
bandwidth" (§3). experiments/nifdy/sensitivity_cm5_acks.toml."""
from tools.nifdy.common import over, per_network
from tools.report.verdict import greater

CASES = ("NIFDY, acks on reply", "NIFDY, acks on request")


def cm5_acks(out, rep):
    try:
        d = per_network(out, "sensitivity_cm5_acks", [("", "CM-5 fat tree")], lambda r: (r["traffic"], r["ni"]),
                        lambda j: j["delivered_packets"])
    except FileNotFoundError:
        return
    traffics = list(dict.fromkeys(t for _, t, _ in d))
    rep.section("Sensitivity — which network NIFDY's acks take (CM-5 tree)",
                "Figs. 2-3's CM-5 tree with NIFDY's acks on the reply network (as in Figs. 2-3) or on the request "
                "network with the data (`sensitivity_cm5_acks.toml`): packets delivered, NIFDY / none seed by "
                "seed, and the verdict of \"it delivers more packets than the same network without NIFDY\" (§4.6) "
                "by the paired differences.")
    rows = []
    for t in traffics:
        none = d[("CM-5 fat tree", t, "none")]
        for case in CASES:
            nifdy = d[("CM-5 fat tree", t, case)]
            rows.append([t, case.split(", ")[1], none.text(0), nifdy.text(0), over(nifdy, none).text(2),
                         greater(nifdy, none).outcome])
    rep.table(["traffic", "acks", "none", "NIFDY", "NIFDY / none", "NIFDY more"], rows)
