"""The dragonfly report's second reference: the routing comparison at BookSim 2's dragonfly setup
(booksim_setup.toml), its claims judged there by the rows the main comparison uses, and icnsim's
values set beside BookSim's own on the same setup (docs/reproduction/dragonfly/booksim/, written
by tools/dragonfly/booksim_reference.py with a BookSim binary the user builds)."""
import csv
import os
import re

from tools.report.seed_stats import LOAD, Grid, Value

from tools.dragonfly.common import ABSTRACT, BOOK, PATTERN, claims_from
from tools.dragonfly.routing_claims import (PATTERNS, degraded_row, knee_and_max_table, latency_degraded_row,
                                            minimal_uniform_row, minimal_worst_case_row)

ROUTINGS = ["MIN", "VAL", "UGAL-L", "UGAL-G"]
REFERENCE_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "reproduction", "dragonfly", "booksim")
SETUP = ("BookSim 2's dragonfly (`src/examples/dragonflyconfig` and `src/networks/dragonfly.cpp` of BookSim, a "
         "simulator from the authors' group): BookSim's k = p = h, a = 2k; local and global channels of 10 and 100 "
         "cycles whose credits take as long back (`timing.credit_latency = \"link\"`); three lanes of 256 flits; "
         "10-flit packets; a lane takes its next packet once the tail is sent; separable input-first switch "
         "allocation; BookSim's pipeline; and BookSim's UGAL: the minimal path unless q_min > 2 q_val + 30, q the "
         "source router's output-port occupancy (`routing.weights = \"global_hops\"`, `threshold = 30`), the "
         "intermediate drawn among all groups (`routing.intermediate = \"any_group\"`). UGAL-G weighs its "
         "global channels' queues by the same rule. What icnsim does not model, so BookSim's runs below are made "
         "without it: BookSim's internal speedup (2 in its example file; 1 here). What differs still: BookSim "
         "draws an intermediate router, not a group (its path may take two local hops in the intermediate group, "
         "on a lane class whose dependencies form a cycle that icnsim's deadlock check refuses), allocates lanes "
         "with a separable allocator where icnsim's is sequential, and its uniform traffic may pick the sender "
         "itself")


def setup_grid(out):
    return Grid(out, "booksim_setup", ["split", PATTERN, LOAD], order={"split": ROUTINGS.index})


def k_of(grid):
    """BookSim's k of the network the sweep ran: its p."""
    for cell in grid.cells.values():
        for j in cell.values():
            return int(re.search(r"\bp=(\d+)", j["topology"]).group(1))
    return None


def reference_rows(k):
    path = os.path.join(REFERENCE_DIR, f"reference_k{k}.csv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return list(csv.DictReader(f))


def against_booksim(rep, grid):
    k = k_of(grid)
    rows = reference_rows(k)
    if rows is None:
        rep.text(f"No BookSim runs of k = {k} are stored (docs/reproduction/dragonfly/booksim/reference_k{k}.csv): "
                 f"`python3 -m tools.dragonfly.booksim_reference --booksim PATH --k {k} --csv FILE` makes them.")
        return
    cases = {}
    for r in rows:
        cases.setdefault((r["routing"], r["pattern"], float(r["load"]), r["metric"]), []).append(float(r[r["metric"]]))
    table = []
    for (routing, pattern, load, metric), samples in cases.items():
        theirs = Value(samples)
        field = (lambda j: j["accepted_fraction"]) if metric == "accepted" else (lambda j: j["message_latency"]["mean"])
        where = {"split": routing, PATTERN: pattern, LOAD: load}
        ours = grid.value(field, **where)
        if not ours.samples:
            continue
        below = "" if metric == "accepted" or grid.unsaturated(**where) else " (not below saturation)"
        digits = 3 if metric == "accepted" else 1
        table.append([routing, PATTERNS[pattern], f"{load:g}", "accepted load" if metric == "accepted" else "latency",
                      theirs.text(digits), ours.text(digits) + below, f"{ours.mean / theirs.mean:.3f}"])
        seeds = (len(theirs.samples), len(ours.samples))
    rep.table(["routing", "traffic", "offered", "compared", f"BookSim 2 ({seeds[0]} seeds)",
               f"icnsim ({seeds[1]} seeds)", "icnsim / BookSim (means)"], table)
    rep.text("BookSim's values: its latency mode (3,000 warm-up cycles, one 3,000-cycle sample) for latency, its "
             "throughput mode over the same windows for accepted load (icnsim's windows: the sample-size table "
             "above), its seeds 1 and up; the two simulators draw "
             "different random numbers, so their runs are not paired and the ratio is of means. Where they differ, "
             "docs/models/dragonfly.md (\"A second reference\") says which causes were tested.")


def booksim_setup(out, rep):
    grid = setup_grid(out)
    if not grid.cells:
        return
    rep.section("A second reference: BookSim's dragonfly setup",
                "The routing comparison again at the setup of " + SETUP + " (`booksim_setup.toml`). The rows "
                "judge the same claims as the comparison above, by the same rules.")
    knee_and_max_table(rep, grid)
    claims_from(rep, [(BOOK, at_booksim(minimal_uniform_row(grid))), (BOOK, at_booksim(minimal_worst_case_row(grid))),
                      (ABSTRACT, at_booksim(degraded_row(grid))), (ABSTRACT, at_booksim(latency_degraded_row(grid)))])
    rep.text("Against BookSim 2 itself, on the same setup and network:")
    against_booksim(rep, grid)


def at_booksim(row):
    claim, measured, verdict, note = row
    return ("at BookSim's setup: " + claim, measured, verdict, note)
