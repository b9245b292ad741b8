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
