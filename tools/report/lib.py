"""Shared pieces of the reproduction reports and the plotting tool: reading sweep output,
drawing figures (PNG and SVG, labelled axes, units, legend) and writing claim tables.

Figures need Debian's python3-matplotlib and python3-numpy (scripts/install-deps.sh
--with-plots). Without them the reports are still written, with a note instead of figures.
"""
import csv
import glob
import json
import math
import os
import sys

from tools.report import against_full
from tools.report.verdict import DEPENDS_ON_READING, FAILS, HOLDS, INCONCLUSIVE, NOT_APPLICABLE, as_verdict, count


def read_sweep(directory):
    """Rows of DIR/results.csv, numbers converted; points that did not finish are dropped."""
    path = os.path.join(directory, "results.csv")
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] not in ("ok", "model"):
                continue
            rows.append({k: number(v) for k, v in row.items()})
    return rows


def read_points(directory):
    """Every point's full JSON result (histograms, classes), in point order."""
    if not os.path.isdir(os.path.join(directory, "points")):
        raise FileNotFoundError(2, "no sweep output", os.path.join(directory, "points"))
    return [_load_json(p) for p in sorted(glob.glob(os.path.join(directory, "points", "*.json")))]


def _load_json(path):
    with open(path) as f:
        return json.load(f)


def read_rows_with_points(directory):
    """Rows of DIR/results.csv (every status), each with its point's JSON under "json"
    (None if the point has none, e.g. a stuck network)."""
    path = os.path.join(directory, "results.csv")
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            r = {k: number(v) for k, v in row.items()}
            point = os.path.join(directory, "points", f"{int(r['point']):05d}.json")
            r["json"] = _load_json(point) if os.path.exists(point) else None
            rows.append(r)
    return rows


def number(text):
    if text in ("true", "false"):
        return text == "true"
    try:
        v = float(text)
        return int(v) if v.is_integer() and "." not in text and "e" not in text.lower() else v
    except (TypeError, ValueError):
        return text if text != "" else None


def series(rows, key, x, y, where=None):
    """{series value: ([x...], [y...])} sorted by x, skipping rows whose y is missing."""
    out = {}
    for r in rows:
        if where and not where(r):
            continue
        if r.get(y) is None:
            continue
        out.setdefault(r[key] if key else "", []).append((r[x], r[y]))
    return {k: tuple(map(list, zip(*sorted(v)))) for k, v in sorted(out.items())}


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


class WriteError(Exception):
    """A report or figure could not be written (no such directory, a full disk)."""


def write_atomic(path, write):
    """Calls write(file) on a temporary file beside PATH, then renames it into place, so a
    reader sees the old file or the new one, never half of one; raises WriteError."""
    temp = f"{path}.tmp.{os.getpid()}"
    try:
        with open(temp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except OSError as e:
        if os.path.exists(temp):
            os.remove(temp)
        raise WriteError(f"{path}: cannot write: {e.strerror}") from e


def _save_both(fig, path):
    for ext in ("png", "svg"):
        write_atomic(f"{path}.{ext}", lambda f: fig.savefig(f, format=ext, dpi=110))


def save_figure(fig, path):
    """Writes PATH.png and PATH.svg; returns the PNG's file name."""
    fig.tight_layout()
    _save_both(fig, path)
    _pyplot().close(fig)
    return os.path.basename(path) + ".png"


def line_plot(path, lines, xlabel, ylabel, title, points=None, log2x=False, ylim=None, xlim=None, rings=False,
              logy=False):
    """lines/points: {label: (xs, ys)}; lines are drawn as curves, points as markers only
    (with `rings`, hollow rings around the curves' own points). A
    line with `errs` (a seed_stats Curve: 95 % half-widths) gets error bars; a line with no
    point says so in the legend. `ylim` is the largest range shown: the axis ends a tenth above
    the highest point drawn when that is lower; `logy` a logarithmic y axis. Returns the PNG
    name, or None without matplotlib."""
    plt = _pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    if logy:
        ax.set_yscale("log")
    top = 0.0
    for label, data in (lines or {}).items():
        xs, ys = data
        errs = getattr(data, "errs", None)
        top = max([top] + [y + (e or 0.0) for y, e in zip(ys, errs or [0.0] * len(ys))])
        if not xs:
            label += " (no point to draw)"
        if errs and any(errs):
            ax.errorbar(xs, ys, yerr=errs, marker="." if len(xs) < 30 else None, capsize=2, label=label)
        else:
            ax.plot(xs, ys, marker="." if len(xs) < 30 else None, label=label)
    for label, (xs, ys) in (points or {}).items():
        top = max([top] + list(ys))
        style = {"markersize": 11, "markerfacecolor": "none", "markeredgewidth": 1.5} if rings else {}
        ax.plot(xs, ys, linestyle="none", marker="o", label=label, **style)
    if log2x:
        ax.set_xscale("log", base=2)
        ticks = sorted({x for d in (lines or {}, points or {}) for xs, _ in d.values() for x in xs})
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"{t:g}" for t in ticks])
    if ylim:
        ax.set_ylim(ylim[0], min(ylim[1], 1.1 * top) if top > ylim[0] else ylim[1])
    if xlim:
        ax.set_xlim(*xlim)
    return _finish(fig, ax, path, xlabel, ylabel, title)


def bar_plot(path, categories, bars, ylabel, title):
    """Grouped bars: categories along x; bars = {label: [value per category]}, each value a
    number or a seed_stats Value (its 95 % half-width drawn as an error bar). Returns the PNG
    name, or None without matplotlib."""
    plt = _pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(max(6.4, 1.1 * len(categories)), 4.4))
    width = 0.8 / max(1, len(bars))
    for i, (label, values) in enumerate(bars.items()):
        xs = [c + (i - (len(bars) - 1) / 2) * width for c in range(len(categories))]
        means = [getattr(v, "mean", v) for v in values]
        errs = [getattr(v, "half", None) or 0.0 for v in values]
        ax.bar(xs, means, width, label=label, yerr=errs if any(errs) else None, capsize=2)
    ax.set_xticks(range(len(categories)))
    ax.set_xticklabels(categories, rotation=20, ha="right", fontsize="small")
    return _finish(fig, ax, path, "", ylabel, title)


def heatmap_plots(path, panels, xlabel, ylabel, title, vmax=None):
    """Side-by-side heat maps, one per panel: panels = {label: (x_values, rows)} where rows[i]
    is the row at x_values[i] (drawn as a column). Returns the PNG name, or None without
    matplotlib."""
    plt = _pyplot()
    if plt is None:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4.0), squeeze=False)
    for ax, (label, (xs, rows)) in zip(axes[0], panels.items()):
        columns = list(map(list, zip(*rows))) if rows else [[0]]
        image = ax.imshow(columns, aspect="auto", origin="lower", cmap="Greys", vmin=0, vmax=vmax,
                          extent=[xs[0], xs[-1], -0.5, len(columns) - 0.5] if xs else None)
        ax.set_title(label, fontsize="small")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8)
    fig.suptitle(title)
    _save_both(fig, path)
    plt.close(fig)
    return os.path.basename(path) + ".png"


def unit_histogram(h):
    """Counts per one-cycle bin from latency 0 of a stored latency histogram
    ({"bin_width", "first_bin", "counts"}; results written before the stored form was
    trimmed hold the counts in "counts" from bin 0, or, per class, a bare list)."""
    if isinstance(h, list):
        return h
    if h["bin_width"] != 1:
        raise ValueError(f"a one-cycle histogram is needed; this one has bins of {h['bin_width']} cycles "
                         "(raise simulation.histogram_max_bins)")
    return [0] * h.get("first_bin", 0) + h["counts"]


def histogram_plot(path, histograms, xlabel, ylabel, title, xmax=None):
    """histograms: {label: [count per bin]} with unit bins from 0; drawn as steps."""
    plt = _pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for label, counts in histograms.items():
        n = len(counts) if xmax is None else min(len(counts), xmax + 1)
        ax.step(range(n), counts[:n], where="mid", label=label)
    return _finish(fig, ax, path, xlabel, ylabel, title)


def _finish(fig, ax, path, xlabel, ylabel, title):
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    return save_figure(fig, path)


class Report:
    """A markdown report: sections, tables, figures and claim tables with verdicts."""

    def __init__(self, title, intro):
        self.lines = [f"# {title}", "", intro, ""]
        self.verdicts = []
        self.claim_log = []  # (section, claim, Verdict or None) of every claim row, in order
        self.current_section = ""
        self.state = {}  # results one figure's step leaves for a later one

    def section(self, title, text=None):
        self.current_section = title
        self.lines += [f"## {title}", ""]
        if text:
            self.lines += [text, ""]

    def table(self, header, rows):
        self.lines.append("| " + " | ".join(header) + " |")
        self.lines.append("|" + "---|" * len(header))
        for r in rows:
            self.lines.append("| " + " | ".join(str(c) for c in r) + " |")
        self.lines.append("")

    def claims(self, rows):
        """rows: (claim quoted from the paper, measured text, verdict, note). The verdict is a
        tools.report.verdict.Verdict (its note joins the row's), None where the claim does not
        apply, or a bool decided on the mean, which a note saying the threshold lies inside
        the interval (or the intervals overlap) turns into inconclusive."""
        self.lines.append("| paper's claim | measured | verdict | notes |")
        self.lines.append("|---|---|---|---|")
        for claim, measured, held, note in rows:
            verdict = as_verdict(held, note)
            self.verdicts.append(verdict)
            self.claim_log.append((self.current_section, claim, verdict))
            text = "n/a" if verdict is None else f"**{verdict.label}**"
            if verdict is not None and verdict.note and verdict.note not in note:
                note = "; ".join(n for n in (verdict.note, note) if n)
            self.lines.append(f"| {claim} | {measured} | {text} | {note} |")
        self.lines.append("")

    def verdicts_by_setting(self, by_setting, labels=None, count_changes=True):
        """A sensitivity table: each claim's outcome at every setting of a parameter we chose
        ({setting: claim rows as claims() takes them, in the same order for every setting}),
        then how many claims' outcomes differ between the settings."""
        settings = list(by_setting)
        rows, outcomes = [], []
        for i, row in enumerate(by_setting[settings[0]]):
            verdicts = [as_verdict(by_setting[s][i][2], by_setting[s][i][3]) for s in settings]
            rows.append([row[0]] + ["n/a" if v is None else v.label for v in verdicts])
            outcomes.append({None if v is None else v.outcome for v in verdicts})
        self.table(["claim"] + list(labels or settings), rows)
        if count_changes:  # outcomes, not whether each depends on our reading
            changed = sum(1 for o in outcomes if len(o) > 1)
            self.text(f"{changed} of {len(rows)} verdicts differ between the {len(settings)} settings.")

    def figure(self, png, caption):
        if png:
            self.lines += [f"![{caption}]({png})", ""]
        else:
            self.lines += [f"*(figure not drawn: python3-matplotlib is missing; "
                           "run `bash scripts/install-deps.sh --with-plots`)*", ""]

    def text(self, paragraph):
        self.lines += [paragraph, ""]

    def summary(self):
        """{outcome: number of claims}."""
        return count(self.verdicts)

    def write(self, path):
        text = "\n".join(self.lines).rstrip() + "\n"
        write_atomic(path, lambda f: f.write(text.encode()))


def fmt(v, digits=3):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:.{digits}f}"


def crossing(xs, ys, threshold):
    """The x at which the curve (xs ascending) first rises above `threshold`, linearly
    interpolated; (x, "below") if it starts above, (x, "beyond") if it never crosses."""
    if not xs:
        return None, "empty"
    if ys[0] > threshold:
        return xs[0], "below"
    for (x0, y0), (x1, y1) in zip(zip(xs, ys), zip(xs[1:], ys[1:])):
        if y1 > threshold:
            return x0 + (threshold - y0) / (y1 - y0) * (x1 - x0), "at"
    return xs[-1], "beyond"


def summary_line(counts):
    """"5 claims hold, 2 do not, 1 is inconclusive" from Report.summary(), with the claims
    not judged (n/a) and those that depend on our reading when there are any."""
    h, f, i = counts[HOLDS], counts[FAILS], counts[INCONCLUSIVE]
    line = (f"{h} {'claim holds' if h == 1 else 'claims hold'}, {f} {'does' if f == 1 else 'do'} not, "
            f"{i} {'is' if i == 1 else 'are'} inconclusive")
    if counts.get(NOT_APPLICABLE):
        line += f", {counts[NOT_APPLICABLE]} not judged (n/a)"
    if counts.get(DEPENDS_ON_READING):
        n = counts[DEPENDS_ON_READING]
        line += f"; {n} of the verdicts {'depends' if n == 1 else 'depend'} on our reading of a threshold"
    return line


def run_report(out, paper, title, intro, steps):
    """Writes OUT/PAPER.md: the intro (with the manifest's profile and run time), then each
    step(out, rep) in turn; a step whose results are missing leaves a note. Prints and
    returns the summary of verdicts. A report or figure that cannot be written (a full disk)
    ends the tool with exit status 2, which icnsim reproduce reports as such."""
    try:
        return _run_report(out, paper, title, intro, steps)
    except WriteError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)


def _run_report(out, paper, title, intro, steps):
    manifest = {}
    if os.path.exists(os.path.join(out, "manifest.json")):
        manifest = json.load(open(os.path.join(out, "manifest.json")))
    profile = manifest.get("profile", "unknown")
    rep = Report(title, f"Generated by `icnsim reproduce {paper}` ({profile} profile"
                 + (f", {manifest['seconds']:.0f} s" if "seconds" in manifest else "") + "). " + intro)
    for step in steps:
        try:
            step(out, rep)
        except FileNotFoundError as e:
            rep.text(f"*({step.__name__}: no results at {e.filename}; run `icnsim reproduce {paper}`)*")
    counts = rep.summary()
    line = summary_line(counts)
    rep.lines.insert(4, f"**Summary: {line}.**\n")
    if profile == "quick":
        against_full.compare(rep, paper)
    path = os.path.join(out, f"{paper}.md")
    verdicts = json.dumps(against_full.verdict_log(rep), indent=1, ensure_ascii=False) + "\n"
    write_atomic(os.path.join(out, f"{paper}.verdicts.json"), lambda f: f.write(verdicts.encode()))
    rep.write(path)
    print(f"{path}: {line}")
    return counts
