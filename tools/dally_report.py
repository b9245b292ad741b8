#!/usr/bin/env python3
"""Turns the Dally sweeps (results.csv) into figures and a report that puts each claim of
the paper beside our measured value. Usage: dally_report.py OUT_DIR

The paper's claims are quoted constants; every measured value is read from the sweep output.
"""
import csv
import os
import sys

TOLERANCE = 0.10  # a quoted saturation point "holds" if within 10 % of capacity


def read(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def verdict(ok):
    return "holds" if ok else "does not hold"


def plot(series, xlabel, ylabel, title, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: figures skipped (make deps-plots)", file=sys.stderr)
        return None
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, (xs, ys) in series.items():
        ax.plot(xs, ys, marker="o", label=label)
    ax.set_xscale("log", base=2)
    ticks = sorted({x for xs, _ in series.values() for x in xs})
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(t) for t in ticks])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.set_ylim(0, 1)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(f"{path}.{ext}")
    plt.close(fig)
    return os.path.basename(path) + ".png"


def fig19(out, lines):
    rows = read(os.path.join(out, "fig19_mesh_lanes", "results.csv"))
    t = {int(r["router.lanes"]): float(r["accepted_fraction"]) for r in rows}
    lanes = sorted(t)
    img = plot({"32 flits/channel": (lanes, [t[l] for l in lanes])}, "lanes per physical channel",
               "saturation throughput (fraction of capacity)",
               "16-ary 2-cube mesh, DOR, 20-flit packets", os.path.join(out, "fig19_saturation"))
    lines += ["## Fig. 19 — 16-ary 2-cube, 32 flits of storage per channel", "",
              "| lanes | depth | saturation throughput (fraction of capacity) |", "|---|---|---|"]
    lines += [f"| {l} | {32 // l} | {t[l]:.3f} |" for l in lanes]
    lines += ["", "| paper's claim (§V-D) | measured | verdict |", "|---|---|---|"]
    if 1 in t:
        lines.append(f"| \"With a single lane, the network saturates at 50% capacity\" | {t[1]:.3f} | "
                     f"{verdict(abs(t[1] - 0.50) <= TOLERANCE)} (±{TOLERANCE}) |")
    if 16 in t:
        lines.append(f"| \"with 16-lanes throughputs of 90% capacity are achievable\" | {t[16]:.3f} | "
                     f"{verdict(abs(t[16] - 0.90) <= TOLERANCE)} (±{TOLERANCE}) |")
    if all(l in t for l in (1, 4, 16)):
        share = (t[4] - t[1]) / (t[16] - t[1]) if t[16] > t[1] else 0
        lines.append(f"| \"Most of the throughput gain is realized with four lanes\" | "
                     f"{100 * share:.0f} % of the 1→16 gain reached at 4 lanes | {verdict(share >= 0.5)} |")
    mono = all(t[a] <= t[b] + 0.01 for a, b in zip(lanes, lanes[1:]))
    lines.append(f"| throughput rises with lanes | {' → '.join(f'{t[l]:.2f}' for l in lanes)} | {verdict(mono)} |")
    if img:
        lines += ["", f"![Fig. 19 saturation throughput]({img})"]
    lines.append("")


def fig14(out, lines):
    rows = read(os.path.join(out, "fig14_fly_equal_storage", "results.csv"))
    data = {}
    for r in rows:
        data.setdefault(int(r["topology.n"]), {})[int(r["router.lanes"])] = float(r["accepted_fraction"])
    ns = sorted(data)
    all_lanes = sorted({l for d in data.values() for l in d})
    img = plot({f"2-ary {n}-fly": (sorted(data[n]), [data[n][l] for l in sorted(data[n])]) for n in ns},
               "lanes per physical channel (16 flits of storage per channel)",
               "saturation throughput (fraction of capacity)", "2-ary n-fly, equal storage",
               os.path.join(out, "fig14_saturation"))
    lines += ["## Fig. 14 — 2-ary n-fly, 16 flits of storage per channel", "",
              "| n | " + " | ".join(f"{l} lane{'s' if l > 1 else ''}" for l in all_lanes) + " |",
              "|---|" + "---|" * len(all_lanes)]
    for n in ns:
        lines.append(f"| {n} | " + " | ".join(f"{data[n].get(l, float('nan')):.3f}" for l in all_lanes) + " |")
    lines += ["", "| paper's claim (§V-A) | measured | verdict |", "|---|---|---|"]
    for n in ns:
        d = data[n]
        lo, hi = min(d), max(d)
        ratio = d[hi] / d[lo] if d[lo] > 0 else float("inf")
        lines.append(f"| \"adding lanes gives a far greater throughput improvement than does increasing "
                     f"the total amount of buffering with a single lane\" (n = {n}) | {lo} lane {d[lo]:.3f} → "
                     f"{hi} lanes {d[hi]:.3f} (×{ratio:.2f}) | {verdict(ratio >= 1.5)} (needs ×1.5) |")
    if img:
        lines += ["", f"![Fig. 14 saturation throughput]({img})"]
    lines.append("")


def main():
    out = sys.argv[1]
    lines = ["# Dally, *Virtual-Channel Flow Control*: reproduction report", "",
             "Generated by `tools/dally_report.py` from the sweep results in this directory. "
             "Synchronous flow-control timing (the paper's simulator), random channel arbitration, "
             "20-flit packets, uniform random destinations, saturation sources (§V-A).", ""]
    for f in (fig19, fig14):
        try:
            f(out, lines)
        except FileNotFoundError as e:
            lines += [f"(missing results: {e.filename})", ""]
    with open(os.path.join(out, "report.md"), "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
