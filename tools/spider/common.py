"""Readers and claim rows the SPIDER report's sections share (tools/spider/report.py)."""
from tools.report import verdict as vd


def router_counter(name, node=None):
    """A per-router counter per cycle (tools: host_arrivals, in-transit packets taken into host
    memory; host_busy, cycles of host work begun): mean over nodes, or at `node`."""
    def f(j):
        counters = j.get("router_counters", {}).get(name)
        if counters is None:
            return 0.0
        return counters["mean"] if node is None else counters["per_router_per_cycle"][node]
    return f


def host_arrivals(j, node=None):
    """In-transit packets taken into host memory per cycle: mean over nodes, or at `node`."""
    return router_counter("host_arrivals", node)(j)


def class_value(c, key):
    return lambda j: j["classes"][c][key]


def class_latency(c):
    return lambda j: j["classes"][c]["latency"]["mean"]


def hop_stddev(c, hops):
    def f(j):
        return next((h["stddev"] for h in j["classes"][c]["latency_by_hops"] if h["hops"] == hops), None)
    return f


def cell(grid, f, **where):
    """Value text, with "sat." where the point is not below saturation."""
    v = grid.value(f, **where)
    return v.text(1) + ("" if grid.unsaturated(**where) else " (sat.)")


def direction_row(pair_at, loads, what):
    """(measured, verdict, note) of a claim "a > b" judged at every load below saturation by
    paired differences (tools.report.verdict.direction)."""
    verdict, text = vd.direction({x: pair_at(x) for x in loads})
    return (f"{what}: {text} (loads below saturation for both: {loads})", verdict,
            "paired by seed at each load; holds if greater at some load and lower at none")
