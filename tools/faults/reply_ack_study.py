#!/usr/bin/env python3
"""NIFDY's acks carried by replies (§6.1; experiments/nifdy/reply_acks.toml, docs/faults.md):
request-reply traffic behind NIFDY with separate acks and with each request's ack carried by
its reply, on the same seeds (the same requests).

  python3 -m tools.faults.reply_ack_study SWEEP_DIR --out DIR

The sweep has the axes `acks` ("separate acks", "acks on replies"), traffic.load and the
seed. A point is below saturation when the data it delivered in the window (requests and
replies; acks are not data) is at least 0.95 of the data offered, and it drained. Per load
and case: offered and delivered data, the network's traffic (every flit ejected, acks
included) and the mean and 99th-percentile packet latency (mean ± 95 % interval over seeds).
Per load where both cases are below saturation, the per-seed ratios (acks on replies /
separate acks) of the network's traffic and of the mean latency, and the verdict on the
paper's claim, "allowing acks to be combined with reply messages ... should reduce network
traffic" (traffic ratio below 1; with the verdict at half the measured reduction as a
sensitivity line); and the per-seed ratio of the most data delivered at any load. Writes
DIR/<name>.md and DIR/<name>.{png,svg} (latency against offered data), <name> from --name.
"""
import argparse
import os

from tools.faults import study_cli
from tools.report import lib, verdict
from tools.report.seed_stats import BELOW, Curve, Grid
from tools.report.value import Value

LOAD = "traffic.load"
KEYS = ["acks", LOAD]
SEPARATE, ON_REPLIES = "separate acks", "acks on replies"


def data_delivered(j):
    """Data flits (requests and replies, not acks) delivered per node per cycle in the window."""
    c = j["config"]
    length = float(c["traffic.packet_length"])
    if float(c.get("traffic.reply_packet_length", 0)) not in (0.0, length):
        raise SystemExit("the study counts data flits as packets x traffic.packet_length: replies must be as long")
    return j["delivered_packets"] * length / (j["terminals"] * float(c["simulation.measure_cycles"]))


def below_saturation(j):
    return data_delivered(j) >= BELOW * j["offered"] and j["drained"]


def mean_latency(j):
    return j["latency"]["mean"]


def ratio(grid, f, load):
    """Per seed: f(acks on replies) / f(separate acks) at `load`."""
    a, b = grid.seeds(acks=ON_REPLIES, **{LOAD: load}), grid.seeds(acks=SEPARATE, **{LOAD: load})
    return Value([f(a[s]) / f(b[s]) for s in sorted(a) if s in b])


def max_data_ratio(grid):
    on, off = (grid.per_seed(lambda pts: max(data_delivered(j) for _, j in pts), LOAD, acks=case)
               for case in (ON_REPLIES, SEPARATE))
    return Value([a / b for a, b in zip(on.samples, off.samples)]), on, off


def load_rows(grid):
    """Per load: (load, {case: cells}, {case: below}, traffic ratio, latency ratio, verdict, at half)."""
    for case in (SEPARATE, ON_REPLIES):
        if case not in grid.values("acks"):
            raise SystemExit(f"expected the acks case \"{case}\", got {grid.values('acks')}")
    out = []
    for load in grid.values(LOAD):
        cells, below = {}, {}
        for case in (SEPARATE, ON_REPLIES):
            where = {"acks": case, LOAD: load}
            cells[case] = {name: grid.value(f, **where) for name, f in
                           (("offered", lambda j: j["offered"]), ("data", data_delivered),
                            ("traffic", lambda j: j["accepted"]), ("mean", mean_latency),
                            ("p99", lambda j: j["latency"]["p99"]))}
            below[case] = grid.unsaturated(**where)
        if not all(below.values()):
            out.append((load, cells, below, None, None, None, None))
            continue
        traffic = ratio(grid, lambda j: j["accepted"], load)
        claim = verdict.decide(traffic, 1.0, higher=False)
        half = verdict.decide(traffic, 1.0 - (1.0 - traffic.mean) / 2, higher=False) if claim.holds else None
        out.append((load, cells, below, traffic, ratio(grid, mean_latency, load), claim, half))
    return out


def table(rows, grid, seeds):
    lines = [f"{seeds} seeds; mean ± 95 % interval; flits per node per cycle; ratios per seed "
             f"({ON_REPLIES} / {SEPARATE}); \"—\": a case is not below saturation at that load.", "",
             "| load | case | offered data | delivered data | network traffic | mean latency | p99 latency | "
             "below saturation |", "|---|---|---|---|---|---|---|---|"]
    for load, cells, below, *_ in rows:
        for case in (SEPARATE, ON_REPLIES):
            c = cells[case]
            lines.append(f"| {load} | {case} | {c['offered'].text(4)} | {c['data'].text(4)} | "
                         f"{c['traffic'].text(4)} | {c['mean'].text(1)} | {c['p99'].text(0)} | "
                         f"{'yes' if below[case] else 'no'} |")
    lines += ["", "| load | traffic ratio | reduces network traffic | at half the reduction | mean latency ratio |",
              "|---|---|---|---|---|"]
    for load, _, _, traffic, latency, claim, half in rows:
        lines.append(f"| {load} | {traffic.text(4) if traffic else '—'} | {claim.outcome if claim is not None else '—'} | "
                     f"{half.outcome if half is not None else '—'} | {latency.text(3) if latency else '—'} |")
    most, on, off = max_data_ratio(grid)
    lines += ["", f"Most data delivered at any load: {SEPARATE} {off.text(4)}, {ON_REPLIES} {on.text(4)}; "
              f"ratio per seed {most.text(3)}."]
    return "\n".join(lines) + "\n"


def figure(grid, path):
    lines = {}
    for case in (SEPARATE, ON_REPLIES):
        xs, ys, errs = [], [], []
        for load in grid.values(LOAD):
            where = {"acks": case, LOAD: load}
            if not grid.unsaturated(**where):
                continue
            v = grid.value(mean_latency, **where)
            xs.append(grid.value(lambda j: j["offered"], **where).mean)
            ys.append(v.mean)
            errs.append(v.half or 0.0)
        lines[case] = Curve(xs, ys, errs)
    return lib.line_plot(path, lines, "offered data (flits/node/cycle, requests and replies)",
                         "mean packet latency (cycles)", "NIFDY: acks carried by replies (below saturation)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweep")
    ap.add_argument("--out", required=True)
    ap.add_argument("--name", default="reply_ack_study", help="file names of the table and figure")
    args = ap.parse_args()
    path = os.path.abspath(args.sweep)
    grid = Grid(os.path.dirname(path), os.path.basename(path), KEYS, order={LOAD: float},
                below=below_saturation)
    if not grid.cells:
        raise SystemExit(f"{args.sweep}: no points with results")
    os.makedirs(args.out, exist_ok=True)
    figure(grid, os.path.join(args.out, args.name))
    study_cli.write_table(args.out, args.name, table(load_rows(grid), grid, study_cli.seeds_of(grid)))


if __name__ == "__main__":
    main()
