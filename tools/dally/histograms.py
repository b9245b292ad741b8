"""Dally Figs. 17-18: latency histograms under random, deadline and priority scheduling
(part of tools/dally/report.py).

Histograms have one-cycle bins. Peak positions are read off the histogram pooled over
seeds, smoothed over five bins: a peak is a bin that is the largest within ten cycles either
side and holds at least a tenth of the tallest bin. The paper's minimum latency is 24
cycles and ours may differ (the stage-count convention, docs/models/dally.md), so peaks are
compared relative to each side's minimum.
"""
import os

from tools.report.lib import histogram_plot, unit_histogram
from tools.report.seed_stats import Grid, Value, joined
from tools.report.verdict import all_hold, at_readings, decide, direction_and_size, with_readings, within_with_readings

PAPER_MINIMUM = 24
PAPER_MEANS = (75.1, 62.2)          # random, deadline (§V-C)
PAPER_PEAKS = {"random": (44, 84), "deadline": (57,)}  # besides deadline's sharp peak at the minimum
PEAK_TOLERANCE = 5                  # our reading: a peak within 5 cycles of the paper's matches
ABOUT = 0.20
SIZE = 0.5                          # our reading of a change's size: within half the paper's change of it
SMOOTH, WINDOW, MIN_SHARE = 5, 10, 0.1
SCHEDULING = {"random": "random", "oldest_first": "deadline"}


def counts(j):
    return unit_histogram(j["histogram"])


def pooled(histograms):
    n = max(len(h) for h in histograms)
    return [sum(h[i] for h in histograms if i < len(h)) for i in range(n)]


def minimum(h):
    return next(i for i, c in enumerate(h) if c)


def peaks(h):
    """Positions of the broad peaks of histogram h (see the module comment)."""
    half = SMOOTH // 2
    s = [sum(h[max(0, i - half):i + half + 1]) / SMOOTH for i in range(len(h))]
    top = max(s)
    return [i for i in range(len(s)) if s[i] >= MIN_SHARE * top
            and s[i] == max(s[max(0, i - WINDOW):i + WINDOW + 1]) and (i == 0 or s[i] > s[i - 1])]


def sharp_at_minimum(h, following=3):
    """The bin at the minimum latency holds more packets than each of the `following` next ones."""
    m = minimum(h)
    return h[m] > max(h[m + 1:m + 1 + round(following)], default=0)


PROMINENT = 0.5  # our reading of a peak: the minimum bin at least half as tall as the histogram's tallest


def prominence(h):
    """The minimum bin's height over the tallest bin's."""
    return h[minimum(h)] / max(h) if max(h) else 0.0


def sharp_verdict(h):
    """A sharp peak at the minimum, our reading in two parts (pooled histograms: exact): the
    minimum bin above the next three (one and a half and six beside it), and a peak of the
    histogram, at least PROMINENT of its tallest bin (a quarter and all of it beside it)."""
    above = at_readings(lambda k: decide(Value([1.0 if sharp_at_minimum(h, k) else 0.0]), 1.0, exact=True), 3)
    tall = at_readings(lambda f: decide(Value([prominence(h)]), f, exact=True), PROMINENT)
    return all_hold(above, tall)


def share_at(h, latency):
    return (h[latency] if latency < len(h) else 0) / max(1, sum(h))


SPLIT, CHOSEN = "split", "4x4"  # lanes x depth: the sweeps' case axis, and the reproduction's


def fig17_data(grid):
    """({scheduling: {seed: JSON}}, {scheduling: pooled histogram}) of one split's grid."""
    arbs = {SCHEDULING[a.strip("'\"")]: a for a in grid.values("router.arbitration")}
    seeds = {name: grid.seeds(**{"router.arbitration": a}) for name, a in arbs.items()}
    return seeds, {name: pooled([counts(j) for j in s.values()]) for name, s in seeds.items()}


def fig17(out, rep):
    seeds, hist = fig17_data(Grid(out, "fig17_fly_scheduling_histogram", [SPLIT, "router.arbitration"])
                             .select(**{SPLIT: CHOSEN}))
    png = histogram_plot(os.path.join(out, "fig17_scheduling_histogram"),
                         {"random": hist["random"], "oldest first (deadline)": hist["deadline"]},
                         "latency (cycles)", "packets (all seeds)", "Fig. 17: 2-ary 6-fly at 50 % of capacity", xmax=140)

    def stat(name, key):
        return Value([j["latency"][key] for j in seeds[name].values()])
    rep.section("Fig. 17 — latency histograms, random vs deadline (oldest-first) channel scheduling",
                "2-ary 6-fly, Poisson sources at 50 % of capacity, 4 lanes × 4 flits (our choice, see "
                "docs/models/dally.md). Histograms pooled over seeds, truncated at 140 cycles as in the paper.")
    rep.table(["scheduling", "mean", "std. dev.", "minimum", "peaks (pooled)", "packets per seed"],
              [[name, stat(name, "mean").text(1), stat(name, "stddev").text(1), minimum(hist[name]),
                ", ".join(map(str, peaks(hist[name]))), stat(name, "count").text(0)] for name in ("random", "deadline")])
    rep.claims(fig17_claims(seeds, hist))
    rep.figure(png, "Fig. 17")


def paired(a, b):
    """[(a[seed], b[seed])] over the seeds both ran."""
    return [(a[s], b[s]) for s in sorted(set(a) & set(b))]


def fig17_claims(seeds, hist):
    pairs = paired(seeds["random"], seeds["deadline"])
    change = Value([d["latency"]["mean"] / r["latency"]["mean"] - 1 for r, d in pairs])
    sd = Value([r["latency"]["stddev"] / d["latency"]["stddev"] for r, d in pairs])
    two = within_with_readings([sd], 2 * ABOUT, center=2.0)
    paper_change = PAPER_MEANS[1] / PAPER_MEANS[0] - 1
    lower = direction_and_size(change, paper_change, SIZE)
    at_min = {n: Value([share_at(counts(j), minimum(counts(j))) for j in seeds[n].values()]) for n in seeds}
    claims = [
        ("\"The use of deadline scheduling reduced the average packet latency from 75.1 cycles to 62.2 cycles\"",
         f"{change.text(0, 100, ' %')} (paper {100 * paper_change:.0f} %)", lower,
         f"our reading of the size: within {100 * SIZE:.0f} % of the paper's change"),
        ("\"and reduced the standard deviation of packet latency by a factor of two\"",
         f"random ÷ deadline: {sd.text(2)}", two, f"our reading: within {100 * ABOUT:.0f} % of 2"),
        ("\"The deadline curve shows a sharp peak at 24 cycles latency, the minimum latency required to traverse "
         "the network\"",
         f"deadline: {at_min['deadline'].text(1, 100, ' %')} of packets at the minimum ({minimum(hist['deadline'])} "
         f"cycles), random {at_min['random'].text(1, 100, ' %')}; the minimum bin "
         f"{'is' if sharp_at_minimum(hist['deadline']) else 'is not'} above the next three and holds "
         f"{prominence(hist['deadline']):.2f} of the tallest bin's packets (pooled)",
         sharp_verdict(hist["deadline"]),
         f"our reading of a sharp peak: the minimum bin above the next three and at least {PROMINENT:g} of the "
         "tallest"),
    ]
    for name, quote in (("deadline", "\"and a broad peak at 57 cycles\""),
                        ("random", "\"The random curve shows peaks at 44 and 84 cycles\"")):
        claims.append(peak_claim(quote, name, hist[name]))
    return [(c, m, h, joined(n, DEPENDS)) for c, m, h, n in claims]


# The paper gives neither lanes nor depth for Figs. 17-18; we run its 16 flits per channel as
# 4 lanes x 4 flits, and these verdicts change with the split.
DEPENDS = ("the verdict depends on lanes x depth (the paper gives neither; we run 4 x 4): the section \"Sensitivity "
           "— lanes x depth\" gives it for each split")


def peak_claim(quote, name, h):
    shift = minimum(h) - PAPER_MINIMUM
    ours = peaks(h)
    expected = [p + shift for p in PAPER_PEAKS[name]]
    # The largest distance from a paper's peak to the nearest of ours (pooled: exact).
    farthest = max(min((abs(o - e) for o in ours), default=float("inf")) for e in expected)
    matched = with_readings(Value([farthest]), PEAK_TOLERANCE, higher=False, exact=True)
    return (quote, f"{name}: peaks at {', '.join(map(str, ours)) or 'none'} (paper's shifted by our minimum's "
            f"offset {shift:+d}: {', '.join(map(str, expected))})", matched,
            f"our reading: each of the paper's peaks within {PEAK_TOLERANCE} cycles of one of ours, "
            "relative to the minimum")


def fig18_seeds(grid):
    """[JSON per seed] and the class names of one split's grid."""
    seeds = list(grid.seeds().values())
    return seeds, [c["name"] for c in seeds[0]["classes"]]


def fig18(out, rep):
    seeds, names = fig18_seeds(Grid(out, "fig18_fly_priority_histogram", [SPLIT]).select(**{SPLIT: CHOSEN}))
    hists = {n: pooled([unit_histogram(j["classes"][i]["histogram"]) for j in seeds]) for i, n in enumerate(names)}
    png = histogram_plot(os.path.join(out, "fig18_priority_histogram"),
                         {f"{n} ({100 * seeds[0]['classes'][i]['share']:.0f} %)": hists[n] for i, n in enumerate(names)},
                         "latency (cycles)", "packets (all seeds)",
                         "Fig. 18: 2-ary 6-fly at 50 %, 10 % priority traffic", xmax=140)
    rep.section("Fig. 18 — 10 % high-priority traffic scheduled by age over random standard traffic",
                "Same network as Fig. 17; arbitration `priority_deadline`.")
    rep.table(["class", "mean latency", "std. dev.", "packets per seed"],
              [[n, Value([j["classes"][i]["latency"]["mean"] for j in seeds]).text(1),
                Value([j["classes"][i]["latency"]["stddev"] for j in seeds]).text(1),
                Value([j["classes"][i]["latency"]["count"] for j in seeds]).text(0)] for i, n in enumerate(names)])
    rep.claims(fig18_claims(seeds, names))
    rep.figure(png, "Fig. 18")


def fig18_claims(seeds, names):
    hi, lo = names.index("priority"), names.index("standard")
    at_min = Value([share_at(unit_histogram(j["classes"][hi]["histogram"]), minimum(counts(j))) for j in seeds])
    near = Value([sum(unit_histogram(j["classes"][hi]["histogram"])[minimum(counts(j)):minimum(counts(j)) + 3])
                  / max(1, sum(unit_histogram(j["classes"][hi]["histogram"]))) for j in seeds])
    faster = Value([j["classes"][hi]["latency"]["mean"] / j["classes"][lo]["latency"]["mean"] for j in seeds])
    eighty = with_readings(at_min, 0.8 * (1 - ABOUT), around=0.8)
    much = with_readings(faster, 0.6, higher=False, around=1.0)
    return [
        ("\"80% of the priority traffic is delivered with the minimum latency (24 cycles)\"",
         f"{at_min.text(1, 100, ' %')} at the minimum ({minimum(pooled([counts(j) for j in seeds]))} cycles), "
         f"{near.text(1, 100, ' %')} within 2 cycles of it", eighty,
         joined(f"our reading: at least {80 * (1 - ABOUT):.0f} %", DEPENDS)),
        ("priority traffic is much faster than standard traffic (our reading of the figure)",
         f"priority ÷ standard mean latency: {faster.text(2)}", much, "our reading: at most 0.6"),
    ]


def split_sensitivity(out, rep):
    """Figs. 17-18's verdicts for each lanes x depth split of 16 flits per channel (and 8 x 4)."""
    g17 = Grid(out, "fig17_fly_scheduling_histogram", [SPLIT, "router.arbitration"])
    g18 = Grid(out, "fig18_fly_priority_histogram", [SPLIT])
    splits = sorted(g17.values(SPLIT), key=lambda s: [int(x) for x in s.split("x")])
    rows = {s: fig17_claims(*fig17_data(g17.select(**{SPLIT: s}))) + fig18_claims(*fig18_seeds(g18.select(**{SPLIT: s})))
            for s in splits}
    rep.section("Sensitivity — lanes x depth (Figs. 17-18)",
                "The paper gives neither lanes nor depth for Figs. 17-18. Their verdicts for each split of 16 flits "
                "per channel, and for 8 lanes x 4 (32 flits), on the same seeds; 4 x 4 is the reproduction's "
                "(docs/models/dally.md, \"Figs. 17-18\"):")
    rep.verdicts_by_setting(rows, [f"{s} (lanes x depth)" for s in splits], count_changes=False)
