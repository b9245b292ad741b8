"""What the fault studies' command lines share: one sweep directory read into a Grid, and a
markdown table written beside the figures."""
import argparse
import os

from tools.report import lib
from tools.report.seed_stats import Grid


def read_sweep(doc, keys):
    """Parses `SWEEP_DIR --out DIR`; returns (grid of the sweep's points by `keys`, out dir)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sweep")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    path = os.path.abspath(args.sweep)
    grid = Grid(os.path.dirname(path), os.path.basename(path), keys)
    if not grid.cells:
        raise SystemExit(f"{args.sweep}: no points with results")
    return grid, args.out


def seeds_of(grid):
    return max(len(s) for s in grid.cells.values())


def write_table(out, name, text):
    """Writes DIR/name.md and prints it."""
    os.makedirs(out, exist_ok=True)
    lib.write_atomic(os.path.join(out, f"{name}.md"), lambda f: f.write(text.encode()))
    print(text, end="")
