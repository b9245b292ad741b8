#!/usr/bin/env python3
"""SPIDER's CRC log put to use (experiments/faults/noisy_link_diagnosis.toml, docs/faults.md):
a mesh with one noisy cable and end-to-end retransmission, with and without the host's
diagnosis. Compares each diagnosis case with "no diagnosis" on the same seeds.

  python3 -m tools.faults.diagnosis_study SWEEP_DIR --out DIR

The sweep has the axis `host` ("no diagnosis" and one or more diagnosis cases) and the seed.
Per case: resends, failed CRC checks logged, the cycle the cable was diagnosed, mean and 99th
percentile packet latency (mean ± 95 % interval over seeds); per diagnosis case, the per-seed
ratio of mean latencies (case / no diagnosis) and the verdict on our reading of the claim,
"diagnosing the link and routing around it lowers the mean packet latency" (ratio below 1),
with the verdict at half the gain (ratio below 0.95 when the claim holds) as a sensitivity
line. Writes DIR/diagnosis_study.md.
"""
from tools.faults import study_cli
from tools.report import verdict
from tools.report.value import Value

KEYS = ["host"]
NONE = "no diagnosis"


def resends(j):
    return j["nic"].get("retransmit_resends", 0.0)


def failed_checks(j):
    return sum(e["failed_checks"] for f in j["faults"] for e in f.get("crc_log", []))


def diagnosed(j):
    cycles = [e["diagnosed"] for f in j["faults"] for e in f.get("crc_log", []) if e["diagnosed"] is not None]
    return min(cycles) if cycles else None


def mean_latency(j):
    return j["latency"]["mean"]


def p99_latency(j):
    return j["latency"]["p99"]


def latency_ratio(grid, case):
    """Per seed: mean latency of `case` / of no diagnosis."""
    a, b = grid.seeds(host=case), grid.seeds(host=NONE)
    return Value([mean_latency(a[s]) / mean_latency(b[s]) for s in sorted(a) if s in b])


def rows(grid):
    """Per case: (case, {measure: Value}, diagnosed cycles, latency ratio or None, verdict, at half)."""
    if NONE not in grid.values("host"):
        raise SystemExit(f"expected the host case \"{NONE}\", got {grid.values('host')}")
    out = []
    for case in grid.values("host"):
        cells = {name: grid.value(f, host=case) for name, f in
                 (("resends", resends), ("failed checks", failed_checks), ("mean latency", mean_latency),
                  ("p99 latency", p99_latency))}
        cycles = sorted(str(diagnosed(j)) for j in grid.seeds(host=case).values())
        if case == NONE:
            out.append((case, cells, cycles, None, None, None))
            continue
        ratio = latency_ratio(grid, case)
        claim = verdict.decide(ratio, 1.0, higher=False)
        half = verdict.decide(ratio, 1.0 - (1.0 - ratio.mean) / 2, higher=False) if claim.holds else None
        out.append((case, cells, cycles, ratio, claim, half))
    return out


def table(case_rows, seeds):
    lines = [f"{seeds} seeds; mean ± 95 % interval; latency ratios per seed (case / {NONE}).", "",
             "| host | resends | failed checks | diagnosed at cycle | mean latency | p99 latency | "
             "mean latency / no diagnosis | lowers the mean latency | at half the gain |",
             "|---|---|---|---|---|---|---|---|---|"]
    for case, cells, cycles, ratio, claim, half in case_rows:
        lines.append(f"| {case} | {cells['resends'].text(0)} | {cells['failed checks'].text(0)} | "
                     f"{', '.join(cycles)} | {cells['mean latency'].text(2)} | {cells['p99 latency'].text(1)} | "
                     f"{ratio.text(3) if ratio is not None else '—'} | {claim.outcome if claim is not None else '—'} | "
                     f"{half.outcome if half is not None else '—'} |")
    return "\n".join(lines) + "\n"


def main():
    grid, out = study_cli.read_sweep(__doc__, KEYS)
    study_cli.write_table(out, "diagnosis_study", table(rows(grid), study_cli.seeds_of(grid)))


if __name__ == "__main__":
    main()
