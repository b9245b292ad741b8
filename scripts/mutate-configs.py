#!/usr/bin/env python3
"""Hostile-user check: mutates configuration files line by line (numbers to extremes, values
to other types, lines dropped, duplicated or swapped between files), runs `icnsim validate`
and, for those that pass, a short `icnsim run` on each, and reports any exit code other than
0, 2 or 4 (and any crash or hang). Usage:
  scripts/mutate-configs.py [--runs N] [--seed S] [--bin build/icnsim] FILE...
"""
import argparse, os, random, re, subprocess, sys, tempfile

EXTREMES = ["0", "-1", "1", "2", "3", "1e300", "-1e300", "nan", "inf", "0.5", "1e-300",
            "2147483648", "9223372036854775807", "99999999999", '""', '"x"', "true", "[]",
            "[0]", "[1, 0, 2]", "{}", "[[]]"]


def mutate(lines, donors, rng):
    lines = list(lines)
    for _ in range(rng.randint(1, 3)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        kind = rng.random()
        if kind < 0.5 and "=" in lines[i]:
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {rng.choice(EXTREMES)}"
        elif kind < 0.65:
            del lines[i]
        elif kind < 0.8:
            lines.insert(i, lines[i])
        elif kind < 0.95:
            lines.insert(i, rng.choice(donors))
        else:
            lines[i] = re.sub(r"\d+", lambda m: str(int(m.group()) * rng.choice([0, 10, 1000])), lines[i])
    return lines


def run(binary, args, timeout):
    try:
        p = subprocess.run([binary] + args, capture_output=True, text=True, errors="replace", timeout=timeout)
        return p.returncode, p.stderr[-400:]
    except subprocess.TimeoutExpired:
        return "timeout", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default="build/icnsim")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    texts = {f: open(f).read().splitlines() for f in a.files}
    donors = [l for t in texts.values() for l in t if "=" in l]
    counts, bad = {}, []
    with tempfile.TemporaryDirectory() as d:
        for n in range(a.runs):
            src = rng.choice(a.files)
            path = os.path.join(os.path.dirname(os.path.abspath(src)), f".mutant_{os.getpid()}.toml")
            with open(path, "w") as f:
                f.write("\n".join(mutate(texts[src], donors, rng)) + "\n")
            try:
                code, err = run(a.bin, ["validate", path, "--set", "simulation.memory_limit_gb=1"], 60)
                if code == 0:
                    code, err = run(a.bin, ["run", "-q", path, "--profile", "quick", "--json", os.path.join(d, "r.json"),
                                            "--set", "simulation.measure_cycles=500", "--set", "simulation.drain_cycles=500",
                                            "--set", "simulation.warmup_cycles=100"], 120)
                    if code == 2 and "no such profile" in err:
                        code, err = run(a.bin, ["run", "-q", path, "--json", os.path.join(d, "r.json"),
                                                "--set", "simulation.measure_cycles=500", "--set",
                                                "simulation.drain_cycles=500", "--set", "simulation.warmup_cycles=100"], 120)
                counts[code] = counts.get(code, 0) + 1
                if code not in (0, 2, 4):
                    keep = os.path.join(d, f"bad_{n}.toml")
                    bad.append((src, code, err.strip().splitlines()[-1:] if err else ""))
                    with open(path) as f, open(f"mutant_{n}.toml", "w") as out:
                        out.write(f.read())
            finally:
                os.remove(path)
    print("exit codes:", dict(sorted(counts.items(), key=str)))
    for src, code, err in bad:
        print(f"  {src}: exit {code}: {err}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
