#!/usr/bin/env python3
"""A multi-rail network losing a rail, per allocator (experiments/faults/rail_out_of_service.toml,
docs/faults.md): bandwidth and latency of the network with one rail out of service against the
intact network, compared on the same seeds by per-seed ratios.

  python3 -m tools.faults.rail_study SWEEP_DIR --out DIR

The sweep's axes: `allocator`, `measure` ("bandwidth": the accepted load at an offered load
above saturation; "latency": the mean message latency below saturation; a sweep may run
one of them only, the other's cells are then "—"), `rails` ("intact" and the other case,
the rail out of service) and the seed. Writes into DIR:
  rail_study.md  per allocator: intact and degraded values with 95 % intervals, the per-seed
                 ratio degraded / intact with its interval, whether the latency points were
                 below saturation (accepted at least 0.95 of offered, drained) for every seed,
                 and the I/O buses' changes of direction over the latency runs;
  rail_study.*   the figure (needs python3-matplotlib): the ratios with their intervals.
"""
import os

from tools.faults import study_cli
from tools.report import lib
from tools.report.seed_stats import Value

INTACT = "intact"
KEYS = ["allocator", "measure", "rails"]


def degraded_case(grid):
    """The `rails` case that is not the intact network."""
    others = [r for r in grid.values("rails") if r != INTACT]
    if len(others) != 1:
        raise SystemExit(f"expected the rails cases \"{INTACT}\" and one other, got {grid.values('rails')}")
    return others[0]


def paired_ratio(grid, f, allocator, measure, degraded):
    """Value over seeds of f(degraded) / f(intact), only seeds both ran."""
    intact = grid.seeds(allocator=allocator, measure=measure, rails=INTACT)
    lost = grid.seeds(allocator=allocator, measure=measure, rails=degraded)
    return Value([f(lost[s]) / f(intact[s]) for s in sorted(intact) if s in lost and f(intact[s])])


def accepted(j):
    return j["accepted_fraction"]


def latency(j):
    return j["message_latency"]["mean"]


def bus_turns(j):
    return j["nic"].get("io_bus_turns", 0.0)


def rows(grid, degraded):
    """Per allocator: (name, bandwidth intact, degraded, ratio, latency intact, degraded, ratio, below,
    bus turns at the latency point intact, degraded)."""
    out = []
    for a in grid.values("allocator"):
        def cell(f, measure, rails):
            return grid.value(f, allocator=a, measure=measure, rails=rails)
        below = all(grid.unsaturated(allocator=a, measure="latency", rails=r) for r in (INTACT, degraded))
        out.append((a, cell(accepted, "bandwidth", INTACT), cell(accepted, "bandwidth", degraded),
                    paired_ratio(grid, accepted, a, "bandwidth", degraded), cell(latency, "latency", INTACT),
                    cell(latency, "latency", degraded), paired_ratio(grid, latency, a, "latency", degraded), below,
                    cell(bus_turns, "latency", INTACT), cell(bus_turns, "latency", degraded)))
    return out


def table(table_rows, degraded, seeds):
    lines = [f"{seeds} seeds; values are means with 95 % intervals over seeds; ratios are per seed "
             f"({degraded} / intact) on the same seeds.", "",
             "| allocator | accepted, intact | accepted, degraded | ratio | latency, intact (cycles) | "
             "latency, degraded | ratio | latency points below saturation | I/O bus turns, intact | degraded |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for a, bi, bd, br, li, ld, lr, below, ti, td in table_rows:
        lines.append(f"| {a} | {bi.text(3)} | {bd.text(3)} | {br.text(3)} | {li.text(0)} | {ld.text(0)} | "
                     f"{lr.text(3)} | {'yes' if below else 'no'} | {ti.text(0)} | {td.text(0)} |")
    return "\n".join(lines) + "\n"


def main():
    grid, out = study_cli.read_sweep(__doc__, KEYS)
    degraded = degraded_case(grid)
    table_rows = rows(grid, degraded)
    study_cli.write_table(out, "rail_study", table(table_rows, degraded, study_cli.seeds_of(grid)))
    names = [r[0] for r in table_rows]
    png = lib.bar_plot(os.path.join(out, "rail_study"), names,
                       {"accepted load (above saturation)": [r[3] for r in table_rows],
                        "mean message latency (below saturation)": [r[6] for r in table_rows]},
                       f"{degraded} / intact (per seed, 95 % CI)", "A rail out of service, per allocator")
    if png:
        print(f"wrote {png}")


if __name__ == "__main__":
    main()
