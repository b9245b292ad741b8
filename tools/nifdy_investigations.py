#!/usr/bin/env python3
"""Table of the NIFDY ack-timing investigation of issue 14 (docs/models/nifdy.md).

  nifdy_investigations.py ack_on OUT

OUT holds the sweeps of experiments/investigations/nifdy_ack_on_<network>.toml as
OUT/nifdy_ack_on_<network>. Prints Markdown: packets delivered with the ack sent on accept
(the paper's protocol) and on arrival (its footnote 2), and their ratio seed by seed.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_stats import Grid, combine  # noqa: E402


def ack_on(out):
    print("| network | traffic | ack on accept | ack on arrival | arrival / accept |")
    print("|---|---|---|---|---|")
    for directory in sorted(glob.glob(os.path.join(out, "nifdy_ack_on_*"))):
        name = os.path.basename(directory)
        g = Grid(out, name, ["traffic", "nic.ack_on"])
        for traffic in g.values("traffic"):
            accept, arrival = (g.value(lambda j: j["delivered_packets"], traffic=traffic, **{"nic.ack_on": a})
                               for a in ("accept", "arrival"))
            print(f"| {name[len('nifdy_ack_on_'):]} | {traffic} | {accept.text(0)} | {arrival.text(0)} | "
                  f"{combine(lambda x, y: y / x, accept, arrival).text(3)} |")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "ack_on":
        sys.exit(__doc__)
    ack_on(sys.argv[2])
