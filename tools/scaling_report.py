#!/usr/bin/env python3
"""The simulator's scaling report: threads and ranks speed-up, cost growth with network
size, and the ranks' exchange volume against the scaling model.

  python3 -m tools.scaling_report DIR

DIR holds the CSV files `scripts/scaling.sh` writes with `icnsim bench --csv` (threads.csv,
ranks.csv, exchange.csv, sizes.csv); writes DIR/scaling.md and its figures.

The exchange model (its table in scaling.md): per cycle rank 0 receives
from the other ranks
    B_0(R) = (R - 1) * (TOTALS + LISTS / E) + (FLIT + HEAD / L) * F_in + CREDIT * F_out,
with E the lookahead (cycles per exchange: min(channel_latency, credit_delay), from the
row's overrides), F_in and F_out the flits per cycle on channels into and out of rank 0's
routers (the flits come to it, the credits for the flits it sent come back; each packet's
head, one flit in L, brings its packet's and message's records), and the sizes those of the
records VcNetwork packs (src/router/vc/ranks.cc). The bench's networks split by terminal
(docs/design/parallel.md): no NI call or injection lane's credit goes to every rank. The flit counts come from the channel loads of
dimension-order routing under uniform traffic, computed here from the topology, not from
the run. A row whose bench ran with --set overrides is its own network ("mesh16x16 with
timing.channel_latency=4; ...").
"""
import csv
import os
import re
import statistics
import sys

from tools.report import lib as report_lib

# The bench's standard traffic (src/sim/bench.cc): load 0.5 of capacity, 20-flit packets.
LOAD, PACKET_LENGTH = 0.5, 20
# Bytes per record in the rank exchange (sizeof of VcNetwork's structs, x86-64):
TOTALS = 48     # a cycle's counters (CycleTotals), per cycle
LISTS = 7 * 8   # the counts of a message's 7 lists, per exchange
FLIT = 20       # RankFlit
HEAD = 136      # RankHead: a head's packet and message records
CREDIT = 8      # RankCredit
TOLERANCE = 0.10  # the model holds when it is within 10 % of the measured volume
MODEL_RANKS = [2, 4, 8, 16, 32, 64]  # where the figure draws the model


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for key in r:
            if key not in ("config", "overrides"):
                r[key] = float(r[key])
        r["overrides"] = r.get("overrides") or ""
        r["network"] = r["config"] + (f" with {r['overrides'].replace(';', '; ')}" if r["overrides"] else "")
    return rows


def lookahead_of(overrides):
    """Cycles per exchange the ranks use: min(channel_latency, credit_delay) (1 unless the
    overrides set them)."""
    timing = {"timing.channel_latency": 1, "timing.credit_delay": 1}
    for item in filter(None, overrides.split(";")):
        key, _, value = item.partition("=")
        if key in timing:
            timing[key] = int(value)
    return min(timing.values())


def cube_of(name):
    """(k, n, wrap) of a bench configuration's name: mesh16x16, torus16x3 (and what
    follows it in a network's label)."""
    name = name.split(" ")[0]
    m = re.fullmatch(r"mesh(\d+)x(\d+)", name)
    if m and m.group(1) == m.group(2):
        return int(m.group(1)), 2, False
    m = re.fullmatch(r"torus(\d+)x(\d+)", name)
    if m:
        return int(m.group(1)), int(m.group(2)), True
    raise ValueError(f"{name}: not a k-ary n-cube the model knows")


def line_loads(k, wrap):
    """Per position of a line, the load on the + and - channels leaving it per unit of
    injection rate (uniform destinations, ties go +): topology.cc's maxLineChannelLoad."""
    plus, minus = [0.0] * k, [0.0] * k
    for s in range(k):
        for d in range(k):
            forward = (d - s) % k
            go_plus = forward <= k - forward if wrap else d > s
            steps = (forward if go_plus else k - forward) if wrap else abs(d - s)
            x = s
            for _ in range(steps):
                if go_plus:
                    plus[x] += 1.0 / k
                    x = (x + 1) % k
                else:
                    minus[x] += 1.0 / k
                    x = (x - 1) % k
    return plus, minus


def offered_rate(name):
    """The bench's injection rate, flits per node per cycle: LOAD of the uniform capacity."""
    k, _, wrap = cube_of(name)
    plus, minus = line_loads(k, wrap)
    return LOAD / max(max(plus), max(minus))


def mean_channels(name):
    """Channels a flit crosses on average under uniform traffic: the hops between routers
    (ties go +) and the terminal's injection and ejection channels."""
    k, n, wrap = cube_of(name)
    plus, minus = line_loads(k, wrap)
    return n * (sum(plus) + sum(minus)) / k + 2


def predicted_exchange(name, ranks, threads, rate, lookahead=1):
    """B_0(R), the bytes rank 0 receives from the other ranks per cycle, with the flits per
    cycle on its cut channels (both ways) and the packets per cycle of the whole network,
    for a bench configuration whose terminals inject `rate` flits per node per cycle and
    whose ranks exchange every `lookahead` cycles."""
    k, n, wrap = cube_of(name)
    plus, minus = line_loads(k, wrap)
    routers = k ** n
    shards = ranks * threads
    rank_of = [(r * shards // routers) // threads for r in range(routers)]  # VcNetwork::buildShards
    into, out_of = 0.0, 0.0
    for r in range(routers):
        for d in range(n):
            stride = k ** d
            c = (r // stride) % k
            for step, loads in ((1, plus), (-1, minus)):
                to = c + step
                if wrap:
                    to %= k
                elif to < 0 or to >= k:
                    continue
                there = rank_of[r + (to - c) * stride]
                if rank_of[r] != 0 and there == 0:
                    into += rate * loads[c]
                elif rank_of[r] == 0 and there != 0:
                    out_of += rate * loads[c]
    packets = rate * routers / PACKET_LENGTH
    fixed = TOTALS + LISTS / lookahead
    volume = (ranks - 1) * fixed + (FLIT + HEAD / PACKET_LENGTH) * into + CREDIT * out_of
    return volume, into + out_of, packets


def rounds(rows, key):
    """{(config, key value): cycles_per_s of each round}."""
    groups = {}
    for r in rows:
        groups.setdefault((r["network"], int(r[key])), []).append(r["cycles_per_s"])
    return groups


def medians(rows, key):
    """{(config, key value): median of cycles_per_s over the rounds}."""
    return {g: statistics.median(v) for g, v in rounds(rows, key).items()}


def speedup_section(rep, rows, key, label, figure):
    every = rounds(rows, key)
    med = {g: statistics.median(v) for g, v in every.items()}
    configs = sorted({c for c, _ in med}, key=routers_of)
    counts = sorted({x for _, x in med})
    lines, table = {}, []
    for c in configs:
        base = med.get((c, 1))
        cells, xs, ys = [c], [], []
        for x in counts:
            v = med.get((c, x))
            if v is None or base is None:
                cells.append("")
                continue
            lo, hi = min(every[(c, x)]), max(every[(c, x)])
            cells.append(f"{v:,.0f} ({v / base:.2f}x; {lo:,.0f}-{hi:,.0f})")
            xs.append(x)
            ys.append(v / base)
        table.append(cells)
        lines[c] = (xs, ys)
    rep.table(["network"] + [f"{x} {label}: cycles/s (speed-up; range over the rounds)" for x in counts], table)
    lines["ideal"] = (counts, counts)
    png = report_lib.line_plot(figure, lines, label, "speed-up over one", f"Speed-up with {label}")
    rep.figure(png, f"speed-up with {label}")


def ranks_time_section(rep, rows):
    """The two-rank cycle's time, and the part rank 0 spends in the exchange."""
    rate = medians(rows, "ranks")
    exchange = {}
    for r in rows:
        if int(r["ranks"]) == 2:
            exchange.setdefault(r["network"], []).append(r["exchange_seconds_per_cycle"])
    table = []
    for config in sorted(exchange, key=routers_of):
        if (config, 1) not in rate or (config, 2) not in rate:
            continue
        t1, t2 = 1 / rate[(config, 1)], 1 / rate[(config, 2)]
        e2 = statistics.median(exchange[config])
        table.append([config, f"{t1 * 1e6:,.1f}", f"{t2 * 1e6:,.1f}", f"{t1 / 2 * 1e6:,.1f}", f"{e2 * 1e6:,.1f}",
                      f"{e2 / t2:.2f}"])
    if table:
        rep.text("Time per cycle (medians): t(1) on one rank, t(2) on two, and rank 0's time in the exchange"
                 " e(2), which includes waiting for the other rank to finish its cycle.")
        rep.table(["network", "t(1) us", "t(2) us", "t(1) / 2 us", "e(2) us", "e(2) / t(2)"], table)


def routers_of(name):
    k, n, _ = cube_of(name)
    return k ** n


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    rep = report_lib.Report("Simulator scaling", "Written by tools/scaling_report.py from the CSV files beside it"
                            " (scripts/scaling.sh, `icnsim bench --csv`); cycles/s are medians over the rounds."
                            " The machine has two cores: counts above two share them.")
    for key in ("threads", "ranks"):
        path = os.path.join(out, f"{key}.csv")
        if os.path.exists(path):
            rep.section(f"Speed-up with {key}")
            speedup_section(rep, read_rows(path), key, key, os.path.join(out, key))
            if key == "ranks":
                ranks_time_section(rep, read_rows(path))
    path = os.path.join(out, "exchange.csv")
    if os.path.exists(path):
        exchange_section(rep, read_rows(path), os.path.join(out, "exchange"))
    path = os.path.join(out, "sizes.csv")
    if os.path.exists(path):
        sizes_section(rep, read_rows(path), os.path.join(out, "sizes"))
    rep.write(os.path.join(out, "scaling.md"))


def steady_volumes(rows):
    """Per (config, ranks, threads): the cycles of the window, and per cycle in it the bytes
    of the exchange and the flits the terminals injected (from the flit-hops). The window
    runs from the end of the shorter run to the end of the longer one: runs are
    deterministic, so the longer one repeats the shorter one's cycles, and the difference
    leaves out the network's filling, which the model (a steady state) does not describe."""
    runs, overrides = {}, {}
    for r in rows:
        key = (r["network"], int(r["ranks"]), int(r["threads"]))
        overrides[key] = r["overrides"]
        runs.setdefault(key, []).append((int(r["cycles"]), r["exchange_bytes_per_cycle"] * r["cycles"], r["flit_hops"],
                                         r.get("exchanges", 0)))
    out = []
    for key in sorted(runs, key=lambda k: (routers_of(k[0]), k[0], k[1])):
        (c1, b1, h1, x1), (c2, b2, h2, x2) = min(runs[key]), max(runs[key])
        if c1 == c2:
            raise SystemExit(f"exchange.csv: {key[0]} on {key[1]} ranks needs runs of two lengths")
        injected = (h2 - h1) / (c2 - c1) / routers_of(key[0]) / mean_channels(key[0])
        per_exchange = (c2 - c1) / (x2 - x1) if x2 > x1 else float("nan")  # measured cycles per exchange
        out.append((key, c1, c2, (b2 - b1) / (c2 - c1), injected, lookahead_of(overrides[key]), per_exchange))
    return out


def exchange_section(rep, rows, figure):
    rep.section("Exchange volume against the model",
                "Bytes rank 0 receives from the other ranks per cycle (`bench` under `mpirun --oversubscribe -n R`, from the end"
                " of a short run to the end of a longer one, so that the network's filling is left out), against"
                f" B_0(R) = (R - 1) x ({TOTALS} + {LISTS} / E) + ({FLIT} + {HEAD} / {PACKET_LENGTH}) x F_in"
                f" + {CREDIT} x F_out (tools/scaling_report.py), with E the lookahead (min(channel_latency, credit_delay)),"
                " F_in and F_out the flits per cycle on channels into and out of"
                " rank 0's routers (each packet's head brings its records; split by terminal, nothing else goes"
                " to every rank);"
                " the flit and packet rates come from the channel loads of dimension-order routing under uniform"
                " traffic at the rate the terminals injected in the window (the flit-hops over the mean"
                " channels per flit; a network beyond saturation injects less than it is offered)."
                f" Verdict: holds when the model is within {TOLERANCE:.0%} of the measurement.")
    lines, points, table, rates = {}, {}, [], {}
    held = 0
    for (config, ranks, threads), first, last, measured, accepted, lookahead, per_exchange in steady_volumes(rows):
        rates.setdefault(config, (accepted, lookahead))
        at_offered = predicted_exchange(config, ranks, threads, offered_rate(config), lookahead)[0]
        model, crossing, packets = predicted_exchange(config, ranks, threads, accepted, lookahead)
        ratio = measured / model
        ok = abs(ratio - 1) <= TOLERANCE
        held += ok
        table.append([config, ranks, f"{first} to {last}", f"{lookahead} ({per_exchange:.2f})",
                      f"{accepted / offered_rate(config):.3f}",
                      f"{measured:,.0f}", f"{model:,.0f}", f"{at_offered:,.0f}", f"{crossing:.1f}", f"{packets:.2f}",
                      f"{ratio:.3f}", "holds" if ok else "does not hold"])
        xs, ys = points.setdefault(f"{config} measured", ([], []))
        xs.append(ranks)
        ys.append(measured)
    # The model beyond this machine's ranks, at the rate the fewest-rank run injected.
    for config, (rate, lookahead) in rates.items():
        lines[f"{config} model"] = (MODEL_RANKS, [predicted_exchange(config, r, 1, rate, lookahead)[0] for r in MODEL_RANKS])
    rep.table(["network", "ranks", "cycles", "E (measured cycles per exchange)", "accepted / offered", "measured B/cycle", "model B/cycle",
               "model at the offered rate", "rank 0's cut flits/cycle", "packets/cycle", "measured / model", "verdict"], table)
    rep.text(f"The model holds at {held} of {len(table)} points.")
    rep.text(f"The figure draws the model from 2 to {MODEL_RANKS[-1]} ranks (one thread each) at the rate the"
             " fewest-rank run injected: an extrapolation beyond the measured points.")
    png = report_lib.line_plot(figure, lines, "ranks", "bytes rank 0 receives per cycle", "Rank exchange volume",
                               points=points, log2x=True)
    rep.figure(png, "exchange volume against the model")


FULL = 0.95  # a timed window is of a full network when it moves this share of the steady flit-hops


def steady_hops_per_cycle(name):
    """Flit-hops per cycle of the bench's network in steady state: every terminal injects at
    the offered rate, and each flit crosses mean_channels channels (injection and ejection
    included, as the bench counts them)."""
    k, n, _ = cube_of(name)
    return k ** n * offered_rate(name) * mean_channels(name)


def fill_of(row):
    """The timed window's flit-hops per cycle as a share of the steady state's."""
    return row["flit_hops"] / row["cycles"] / steady_hops_per_cycle(row["config"])


def sizes_section(rep, rows, figure):
    rep.section("Cost growth with network size",
                "One thread, each network in its own process; the timed cycles follow a warm-up"
                f" (`bench --warmup`) long enough for the network to fill: its flit-hops per cycle are at least"
                f" {FULL:.2f} of the steady state's (terminals x offered rate x mean channels per flit, computed"
                " from the topology), or the row says it is short of that (still filling, or saturated: accepting"
                " less than it is offered) and the speed curve leaves it out. Peak memory is the process's.")
    names, xs, hops, mem, table = [], [], [], [], []
    for r in sorted(rows, key=lambda r: routers_of(r["config"])):
        routers = routers_of(r["config"])
        fill = fill_of(r)
        full = fill >= FULL
        table.append([r["config"], f"{routers:,}", int(r.get("warmup", 0)), int(r["cycles"]), f"{fill:.2f}",
                      "full" if full else "short of steady", f"{r['cycles_per_s']:,.0f}",
                      f"{r['flit_hops_per_s'] / 1e6:.1f} M", f"{r['peak_mb']:,.0f}",
                      f"{1024 * r['peak_mb'] / routers:.2f}"])
        if r["config"].startswith("mesh"):
            names.append(r["config"].removeprefix("mesh"))
            xs.append(routers)
            hops.append(r["flit_hops_per_s"] / 1e6 if full else None)
            mem.append(r["peak_mb"])
    rep.table(["network", "routers", "warm-up", "timed cycles", "fill", "network", "cycles/s", "flit-hops/s",
               "peak MB", "peak KB per router"], table)
    png = sizes_figure(figure, names, xs, hops, mem)
    rep.figure(png, "cost growth with mesh size")


def sizes_figure(path, names, routers, hops, megabytes):
    """Speed and memory against mesh size, side by side (log axes); the PNG's name or None."""
    plt = report_lib._pyplot()
    if plt is None:
        return None
    fig, (speed, memory) = plt.subplots(1, 2, figsize=(9.6, 4.0))
    timed_full = [(x, h) for x, h in zip(routers, hops) if h is not None]
    speed.plot([x for x, _ in timed_full], [h for _, h in timed_full], marker="o")
    speed.set_ylabel("flit-hops/s (millions), one thread, full network")
    speed.set_ylim(bottom=0)
    memory.plot(routers, megabytes, marker="o")
    memory.set_yscale("log")
    memory.set_ylabel("peak resident memory (MB)")
    for ax in (speed, memory):
        ax.set_xscale("log", base=2)
        ax.set_xticks(routers)
        ax.set_xticklabels(names, rotation=45, fontsize=8)
        ax.set_xlabel("mesh")
        ax.grid(True, alpha=0.3)
    fig.suptitle("Cost growth with mesh size")
    return report_lib.save_figure(fig, path)


if __name__ == "__main__":
    main()
