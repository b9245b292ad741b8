#!/usr/bin/env python3
"""The contention study of docs/workloads.md: a sweep of
experiments/workloads/contention_dragonfly.toml drawn and tabulated.

  python3 -m tools.workloads.contention SWEEP_DIR OUT_DIR

For each algorithm and vector size: the allreduce's completion time alone and beside the
background job (mean over the seeds with its 95 % interval), their paired ratio (shared /
alone, per seed: the same placement), and the alpha-beta model's time. Writes
OUT_DIR/contention.png (and .svg) and OUT_DIR/contention.md.
"""
import os
import sys

from tools.report import lib
from tools.report.seed_stats import Curve
from tools.report.value import Value
from tools.report.verdict import paired_ratio

ALGORITHM = "traffic.schedule.job[0].algorithm"
SIZE = "size"  # the sweep group of the allreduce's vector, e.g. "64 KiB"
ALONE = "traffic.schedule.alone"
UNITS = {"KiB": 1024, "MiB": 1024 ** 2}


def size_bytes(name):
    """'64 KiB' -> 65536."""
    number, unit = str(name).split()
    return int(number) * UNITS[unit]


def allreduce_cycles(row):
    """The allreduce job's completion cycle in a point's JSON."""
    for job in row["json"]["schedule"]["jobs"]:
        if job["name"] == "allreduce":
            return job["completion_cycle"]
    raise ValueError(f"point {row['point']} has no allreduce job")


def collect(rows):
    """{(algorithm, vector bytes): {"alone": Value, "shared": Value, "model": cycles}}, seeds in order."""
    cells = {}
    for r in sorted(rows, key=lambda r: r["simulation.seed"]):
        cell = cells.setdefault((r[ALGORITHM], size_bytes(r[SIZE])), {"alone": [], "shared": [], "model": None})
        cell["alone" if r[ALONE] == "allreduce" else "shared"].append(allreduce_cycles(r))
        cell["model"] = r["json"]["model"]["completion_cycle"]
    return {k: {"alone": Value(c["alone"]), "shared": Value(c["shared"]), "model": c["model"]} for k, c in cells.items()}


def figure(cells, out):
    lines = {}
    for algorithm in sorted({a for a, _ in cells}):
        sizes = sorted(b for a, b in cells if a == algorithm)
        kib = [b / 1024 for b in sizes]
        for case in ("alone", "shared"):
            values = [cells[(algorithm, b)][case] for b in sizes]
            lines[f"{algorithm}, {case}"] = Curve(kib, [v.mean for v in values], [v.half for v in values])
        lines[f"{algorithm}, alpha-beta model"] = Curve(kib, [cells[(algorithm, b)]["model"] for b in sizes])
    return lib.line_plot(os.path.join(out, "contention"), lines, "allreduce vector (KiB)",
                         "allreduce completion (cycles)",
                         "32-rank allreduce on a 72-terminal dragonfly, random placement", log2x=True)


def table(cells):
    lines = ["| algorithm | vector | alpha-beta model | alone | beside the background | shared / alone (paired) "
             "| alone / model |", "|---|---|---|---|---|---|---|"]
    for (algorithm, size), c in sorted(cells.items()):
        ratio = paired_ratio(c["shared"], c["alone"])
        over_model = Value([a / c["model"] for a in c["alone"].samples])
        lines.append(f"| {algorithm} | {size // 1024} KiB | {c['model']:,.0f} | {c['alone'].text(0)} | "
                     f"{c['shared'].text(0)} | {ratio.text(2)} | {over_model.text(2)} |")
    return "\n".join(lines) + "\n"


def algorithms_table(cells, first="ring", second="halving_doubling"):
    """first / second per seed (the same placements), alone and shared, with the model's."""
    lines = [f"| vector | model {first} / {second} | alone | beside the background |", "|---|---|---|---|"]
    for size in sorted({b for a, b in cells if a == first and (second, b) in cells}):
        a, b = cells[(first, size)], cells[(second, size)]
        lines.append(f"| {size // 1024} KiB | {a['model'] / b['model']:.3f} | "
                     f"{paired_ratio(a['alone'], b['alone']).text(2)} | "
                     f"{paired_ratio(a['shared'], b['shared']).text(2)} |")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    sweep, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    cells = collect(lib.read_rows_with_points(sweep))
    seeds = len(next(iter(cells.values()))["alone"].samples)
    png = figure(cells, out)
    text = (f"Completion of the allreduce in cycles: mean over {seeds} seeds (placements) ± the 95 % interval "
            f"(Student's t); the ratios are per seed, on the same placement.\n\n" + table(cells) +
            "\nRing over halving-doubling, per seed:\n\n" + algorithms_table(cells))
    if png:
        text += f"\n![contention]({png})\n"
    lib.write_atomic(os.path.join(out, "contention.md"), lambda f: f.write(text.encode()))
    print(text)


if __name__ == "__main__":
    main(sys.argv)
