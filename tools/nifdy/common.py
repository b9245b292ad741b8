"""What the NIFDY report's sections share: the networks of Figs. 2-3 and Table 3 in the
paper's order, reading a value per network over seeds, and per-seed ratios."""
import os

from tools.report.lib import read_rows_with_points
from tools.report.seed_stats import Value, combine

NETWORKS = [  # experiment suffix, label, in the paper's order
    ("full_fat_tree", "full fat tree"),
    ("cm5_fat_tree", "CM-5 fat tree"),
    ("store_and_forward_fat_tree", "S&F fat tree"),
    ("mesh_8x8", "8x8 mesh"),
    ("torus_8x8", "8x8 torus"),
    ("mesh_4x4x4", "4x4x4 mesh"),
    ("butterfly", "butterfly"),
    ("multibutterfly", "multibutterfly"),
]
NIS = ["none", "buffers only", "NIFDY"]


def network_rows(out, prefix, networks=NETWORKS):
    """(network label, row with its point's JSON) for every point that has a JSON, over the
    sweeps OUT/<prefix><suffix> that exist."""
    for suffix, label in networks:
        directory = os.path.join(out, f"{prefix}{suffix}")
        if not os.path.exists(os.path.join(directory, "results.csv")):
            continue
        for r in read_rows_with_points(directory):
            if r["json"] is not None:
                yield label, r


def per_network(out, prefix, networks, key, value):
    """{(network label,) + key(row): Value over seeds of value(point JSON)} over the sweeps
    OUT/<prefix><suffix> that exist."""
    samples = {}
    for label, r in network_rows(out, prefix, networks):
        samples.setdefault((label,) + key(r), []).append(value(r["json"]))
    if not samples:
        raise FileNotFoundError(2, "no sweep output", os.path.join(out, f"{prefix}*"))
    return {k: Value(v) for k, v in samples.items()}


def over(a, b):
    """Per-seed ratio a / b of two Values."""
    return combine(lambda x, y: x / y if y else float("nan"), a, b)


def delivered(out):
    """{(network label, traffic, ni): packets delivered} for the networks that have results."""
    return per_network(out, "fig02_03_", NETWORKS, lambda r: (r["traffic"], r["ni"]),
                       lambda j: j["delivered_packets"])


NEGLIGIBLE = 0.05  # our reading of "negligible" and "virtually identical": within 5 %
BUFFERS = "buffers only"


def best_buffers(values):
    """{(network, traffic): the buffers-only case (split of the buffering) with the most packets
    delivered, mean over seeds}: §3 compares with buffers "redistributed to be most effective for
    each case"."""
    best = {}
    for (n, t, ni), v in values.items():
        if ni.startswith(BUFFERS) and ((n, t) not in best or v.mean > values[(n, t, best[(n, t)])].mean):
            best[(n, t)] = ni
    return best


def with_best_buffers(values, best):
    """VALUES keyed (network, traffic, ni) with "buffers only" standing for each case's best split
    (BEST from best_buffers) and the other splits left out."""
    chosen = {k: v for k, v in values.items() if not k[2].startswith(BUFFERS)}
    for (n, t), ni in best.items():
        chosen[(n, t, BUFFERS)] = values[(n, t, ni)]
    return chosen


def split_name(case):
    """The arrivals queue's share of a buffers-only case: "buffers only, arrivals 1/4" -> "1/4";
    the plain "buffers only" has half."""
    return case.rsplit("arrivals ", 1)[1] if "arrivals " in case else "1/2"


CSHIFT_PAIR_BYTES = 320  # payload bytes each pair exchanges: 20 packets of 16 bytes (4 of 6 words)


def cshift_runs(out):
    """{run name: [point JSON per seed]} of the C-shift sweep."""
    rows = {}
    for r in read_rows_with_points(os.path.join(out, "fig05_06_cshift")):
        if r["json"] is not None:
            rows.setdefault(r["run"], []).append(r["json"])
    return rows


def cshift_rates(rows):
    """{run: payload bytes per cycle until the last delivery}: each pair's 320 bytes over its
    packets (16 bytes a packet in 20 packets; the in-order library's 16 packets carry 20)."""
    def rate(j):
        per_packet = CSHIFT_PAIR_BYTES / int(j["config"]["traffic.phases.packets_min"])
        return j["delivered_packets"] * per_packet / j["last_delivery"]
    return {name: Value([rate(j) for j in js]) for name, js in rows.items()}

def em3d_cycles(j):
    """EM3D cycles per iteration after the warm-up iteration."""
    ends = j.get("iteration_ends", [])
    return (ends[-1] - ends[0]) / (len(ends) - 1) if len(ends) > 1 else None
