#!/usr/bin/env python3
"""Table of the dragonfly investigation (docs/models/dragonfly.md, "A second reference").

  python3 -m tools.dragonfly.investigations arbitration OUT/dragonfly_ugal_arbitration

The sweep of experiments/investigations/dragonfly_ugal_arbitration.toml: per arbitration
policy and offered load, accepted load, mean latency, the longest latency and the measured
packets still undelivered when the drain ended (mean ± 95 % interval over seeds). Prints
Markdown.
"""
import os
import sys

from tools.report.seed_stats import Grid

LOAD = "traffic.load"


def arbitration(directory):
    out, name = os.path.split(directory.rstrip("/"))
    g = Grid(out, name, ["arbitration", LOAD], order={LOAD: float}, load=LOAD)
    print("| arbitration | offered | accepted | latency | longest latency | undelivered measured packets |")
    print("|---|---|---|---|---|---|")
    for policy in g.values("arbitration"):
        for load in g.values(LOAD):
            where = {"arbitration": policy, LOAD: load}
            cells = [g.value(lambda j: j["accepted"], **where).text(),
                     g.value(lambda j: j["latency"]["mean"], **where).text(0),
                     g.value(lambda j: j["latency"]["max"], **where).text(0),
                     g.value(lambda j: j["undelivered_packets"], **where).text(0)]
            print(f"| {policy} | {load:g} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "arbitration":
        sys.exit(__doc__)
    arbitration(sys.argv[2])
