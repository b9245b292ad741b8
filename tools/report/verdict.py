"""Verdicts with three outcomes, decided by a value's 95 % interval against a claim's threshold.

A claim *holds* when the whole interval lies on the claim's side of the threshold, *does not
hold* when the whole interval lies on the other side, and is *inconclusive* when the interval
straddles the threshold: more seeds or longer windows would be needed to decide it. A value
measured with one seed (a quick run) has no interval: it is judged on its mean, and the note
says so; the full runs have five seeds or more.

Two variants run on the same seeds are compared by the interval of their per-seed differences
(`paired`), not by whether two unpaired intervals overlap. A ratio to a baseline that is zero
for some seed is undefined: `paired_ratio` refuses it and the caller compares differences.

Where a claim is qualitative ("dramatically lower", "slight") the threshold is the report's
reading; `at_readings` (and `with_readings` and its kin built on it) shows the verdict at half
and twice that threshold beside it, and a verdict that differs at either is marked as
depending on our reading (the report says so and counts it).

No verdict is read from a mean alone where seeds give an interval: `is_best` decides an
argmax by paired differences (a tie is inconclusive), `slope` gives a slope per seed, and
`direction_and_size` judges a change the paper gives a number for by its sign and by its
size, said apart.
"""
from tools.report.value import ROUNDING, Value

HOLDS = "holds"
FAILS = "does not hold"
INCONCLUSIVE = "inconclusive"
OUTCOMES = (HOLDS, FAILS, INCONCLUSIVE)


DEPENDS_ON_READING = "depends on our reading"


class Verdict:
    """An outcome and the note that explains it (empty when the data decide it plainly);
    `reading_dependent` when the outcome differs at half or twice a threshold of our reading."""

    def __init__(self, outcome, note="", reading_dependent=False):
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}")
        self.outcome = outcome
        self.note = note
        self.reading_dependent = reading_dependent

    @property
    def label(self):
        """The outcome as a report prints it: "holds", or "holds, depends on our reading"."""
        return f"{self.outcome}, {DEPENDS_ON_READING}" if self.reading_dependent else self.outcome

    @property
    def holds(self):
        return self.outcome == HOLDS

    @property
    def fails(self):
        return self.outcome == FAILS

    @property
    def inconclusive(self):
        return self.outcome == INCONCLUSIVE

    def __bool__(self):
        raise TypeError("a Verdict has three outcomes: test .holds, .fails or .inconclusive")

    def __repr__(self):
        return f"Verdict({self.outcome!r}, {self.note!r}, reading_dependent={self.reading_dependent})"


def _interval(value):
    """(low, high) of the value's 95 % interval; the mean twice for one seed."""
    if value.half is None:
        return value.mean, value.mean
    return value.low(), value.high()


STRADDLES = "the 95 % interval contains the threshold"
ONE_SEED = "one seed: judged on the mean, no interval"


def _noted(value, verdict, exact):
    """The verdict, noting a one-seed value that is not exact."""
    if value.half is None and not exact:
        return Verdict(verdict.outcome, "; ".join(n for n in (verdict.note, ONE_SEED) if n))
    return verdict


def decide(value, threshold, higher=True, exact=False):
    """The claim "value >= threshold" (higher) or "value <= threshold" (not higher). `exact`:
    the value does not vary with the seed (a count, a model's output)."""
    low, high = _interval(value)
    if higher:
        if low >= threshold - ROUNDING:
            return _noted(value, Verdict(HOLDS), exact)
        if high < threshold - ROUNDING:
            return _noted(value, Verdict(FAILS), exact)
    else:
        if high <= threshold + ROUNDING:
            return _noted(value, Verdict(HOLDS), exact)
        if low > threshold + ROUNDING:
            return _noted(value, Verdict(FAILS), exact)
    return Verdict(INCONCLUSIVE, STRADDLES)


def decide_between(value, low_bound, high_bound, exact=False):
    """The claim "low_bound <= value <= high_bound"."""
    low, high = _interval(value)
    if low >= low_bound - ROUNDING and high <= high_bound + ROUNDING:
        return _noted(value, Verdict(HOLDS), exact)
    if high < low_bound - ROUNDING or low > high_bound + ROUNDING:
        return _noted(value, Verdict(FAILS), exact)
    return Verdict(INCONCLUSIVE, "the 95 % interval crosses a bound")


class UnpairedError(ValueError):
    pass


def paired(a, b):
    """Per-seed differences a - b of two Values sampled with the same seeds, in the same order."""
    if len(a.samples) != len(b.samples):
        raise UnpairedError(f"{len(a.samples)} and {len(b.samples)} seeds: not paired")
    return Value([x - y for x, y in zip(a.samples, b.samples)])


class ZeroBaselineError(ZeroDivisionError):
    pass


def paired_ratio(a, b):
    """Per-seed ratios a / b; a baseline that is zero for a seed makes the ratio undefined."""
    if len(a.samples) != len(b.samples):
        raise UnpairedError(f"{len(a.samples)} and {len(b.samples)} seeds: not paired")
    if any(y == 0 for y in b.samples):
        raise ZeroBaselineError("the baseline is zero for a seed: compare differences instead")
    return Value([x / y for x, y in zip(a.samples, b.samples)])


def greater(a, b):
    """The claim "a > b", by the paired differences' interval."""
    d = paired(a, b)
    low, high = _interval(d)
    if low > ROUNDING:
        return _noted(d, Verdict(HOLDS), exact=False)
    if high <= ROUNDING:
        return _noted(d, Verdict(FAILS), exact=False)
    return Verdict(INCONCLUSIVE, "the paired differences' 95 % interval contains 0")


def direction(pairs):
    """The claim "a > b" across a figure's points, from {point: (a, b)} of paired Values:
    (Verdict, text). At each point the paired differences decide a > b, a < b, or neither.
    It holds when a > b at some point and a < b at none, does not hold when a < b anywhere,
    and is inconclusive when no point decides; the text lists the points of each kind."""
    above, below, undecided = [], [], []
    for point, (a, b) in pairs.items():
        if greater(a, b).holds:
            above.append(point)
        elif greater(b, a).holds:
            below.append(point)
        else:
            undecided.append(point)
    text = f"greater at {above or 'none'}; lower at {below or 'none'}; not decided at {undecided or 'none'}"
    if below:
        return Verdict(FAILS), text
    if above:
        return Verdict(HOLDS), text
    return Verdict(INCONCLUSIVE, "no point decides"), text


def _joined(*notes):
    return "; ".join(n for n in notes if n)


def at_readings(judge, threshold, around=0.0, describe=None):
    """judge(threshold), a Verdict, where `threshold` is our reading of a qualitative claim,
    with a note giving judge's verdicts where the reading asks half and twice as much:
    thresholds `around` + (threshold - around) x 1/2 and x 2. A verdict that differs at either
    depends on our reading and is marked so. `describe(t, verdict)` words one reading in the
    note (default "at t: outcome"); the note opens "threshold T is our reading"."""
    main = judge(threshold)
    readings = [around + (threshold - around) / 2, around + (threshold - around) * 2]
    others = [(t, judge(t)) for t in readings]
    describe = describe or (lambda t, v: f"at {t:.3g}: {v.outcome}")
    note = f"threshold {threshold:.3g} is our reading ({'; '.join(describe(t, v) for t, v in others)})"
    flips = any(v.outcome != main.outcome for _, v in others)
    return Verdict(main.outcome, _joined(main.note, note), reading_dependent=flips or main.reading_dependent)


def with_readings(value, threshold, higher=True, exact=False, around=0.0):
    """The verdict at `threshold`, our reading of a qualitative claim, with a note giving the
    verdicts where the reading asks half and twice as much: thresholds `around` + (threshold -
    around) x 1/2 and x 2 (around 1 for a ratio read as "within 5 % of 1")."""
    return at_readings(lambda t: decide(value, t, higher, exact), threshold, around)


def _parts(verdicts, decisive, otherwise):
    """A claim of parts that one part with outcome `decisive` settles, and that takes the
    outcome `otherwise` only when every part has it (inconclusive between); the parts' notes
    joined. It depends on our reading unless a part that does not settles it anyway."""
    notes = "; ".join(dict.fromkeys(v.note for v in verdicts if v.note))
    depends = any(v.reading_dependent for v in verdicts) and not any(
        v.outcome == decisive and not v.reading_dependent for v in verdicts)
    if any(v.outcome == decisive for v in verdicts):
        return Verdict(decisive, notes, depends)
    if all(v.outcome == otherwise for v in verdicts):
        return Verdict(otherwise, notes, depends)
    return Verdict(INCONCLUSIVE, notes, depends)


def all_hold(*verdicts):
    """A claim made of parts: holds when every part holds, does not hold when one fails,
    inconclusive otherwise; the parts' notes joined."""
    return _parts(verdicts, FAILS, HOLDS)


def any_holds(*verdicts):
    """A claim met by any one of its parts ("a lower u or a higher latency"): holds when a part
    holds, does not hold when every part fails, inconclusive otherwise; the parts' notes joined."""
    return _parts(verdicts, HOLDS, FAILS)


def all_hold_named(verdicts):
    """all_hold of a claim's parts given as {name: Verdict} (one per network, say), each
    part's note prefixed by its name so that readers can tell the parts' readings apart."""
    joined = all_hold(*verdicts.values())
    return Verdict(joined.outcome, "; ".join(f"{name}: {v.note}" for name, v in verdicts.items() if v.note),
                   joined.reading_dependent)


def relative_gain(a, b, threshold, reading=False):
    """The claim "a exceeds b by at least `threshold` (a fraction of b)", seed by seed (with
    `reading`, the threshold is ours: the verdicts at half and twice it are noted); where b is
    zero for a seed the relative gain is undefined and the claim is judged on the paired
    difference a - b > 0, which the note says."""
    try:
        gain = Value([r - 1 for r in paired_ratio(a, b).samples])
        return with_readings(gain, threshold) if reading else decide(gain, threshold)
    except ZeroBaselineError:
        v = greater(a, b)
        return Verdict(v.outcome, "; ".join(n for n in ("the baseline is 0 for a seed: judged on the paired "
                                                        "difference, not the relative gain", v.note) if n))


def between_with_readings(value, low, high, exact=False):
    """decide_between(value, low, high) where `high` is our reading of a qualitative bound
    ("slight": at most 15 %), with the verdicts at half and twice it noted."""
    v = at_readings(lambda t: decide_between(value, low, t, exact), high,
                    describe=lambda t, v: f"at most {t:.3g}: {v.outcome}")
    return Verdict(v.outcome, v.note.replace(f"threshold {high:.3g}", f"bound {high:.3g}", 1), v.reading_dependent)


def within_with_readings(values, tolerance, center=0.0, exact=False):
    """Every value within `center` ± `tolerance`, our reading of "comparable" or "largely
    unaffected" (all_hold of decide_between), with the verdicts at half and twice the
    tolerance noted."""
    def at(t):
        return all_hold(*(decide_between(v, center - t, center + t, exact) for v in values))

    v = at_readings(at, tolerance, describe=lambda t, v: f"within {t:.3g}: {v.outcome}")
    return Verdict(v.outcome, v.note.replace(f"threshold {tolerance:.3g}", f"tolerance {tolerance:.3g}", 1),
                   v.reading_dependent)


def is_best(values, claimed, higher=True):
    """The claim "`claimed` is the best of `values`" ({option: Value}, all on the same seeds),
    by paired differences, not by the argmax of means: holds when it beats every other option,
    does not hold when another beats it, and is inconclusive when it ties with one (the paired
    differences' interval contains 0; with one seed, equal values). The note names them."""
    beaten, beats_it, tied = [], [], []
    for option, v in values.items():
        if option == claimed:
            continue
        mine, theirs = values[claimed], v
        better = greater(mine, theirs) if higher else greater(theirs, mine)
        worse = greater(theirs, mine) if higher else greater(mine, theirs)
        (beaten if better.holds else beats_it if worse.holds else tied).append(option)
    if beats_it:
        return Verdict(FAILS, f"better: {', '.join(map(str, beats_it))}")
    if tied:
        return Verdict(INCONCLUSIVE, f"tied with {', '.join(map(str, tied))} (paired differences' 95 % "
                                     "interval contains 0)")
    return _noted(values[claimed], Verdict(HOLDS), exact=False)


def slope(xs, values):
    """The least-squares slope of `values` (Values on the same seeds, one per x) against `xs`,
    seed by seed: a Value, so that a slope has an interval (and a ratio of two slopes, by
    paired_ratio, too)."""
    if len(xs) != len(values) or len(xs) < 2:
        raise ValueError("a slope needs two points or more, one Value per x")
    seeds = {len(v.samples) for v in values}
    if len(seeds) != 1:
        raise UnpairedError(f"{sorted(seeds)} seeds across the points: not paired")
    mx = sum(xs) / len(xs)
    sxx = sum((x - mx) ** 2 for x in xs)
    slopes = []
    for i in range(seeds.pop()):
        ys = [v.samples[i] for v in values]
        my = sum(ys) / len(ys)
        slopes.append(sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx)
    return Value(slopes)


def direction_and_size(change, paper_change, tolerance):
    """A change the paper gives a number for (`paper_change`, say -0.17 for "17 % lower", in
    the unit of `change`, a Value): its direction (the interval on paper_change's side of 0)
    and its size (within `tolerance` x |paper_change| of it, our reading, with half and twice
    noted), said apart in the note. Holds only when both hold; the size alone may depend on
    our reading, and the verdict does when the size decides it."""
    if paper_change == 0:
        raise ValueError("a direction needs a non-zero change")
    direction_ = decide(change, 0, higher=paper_change > 0)

    def size_at(t):
        span = t * abs(paper_change)
        return decide_between(change, paper_change - span, paper_change + span)

    size = at_readings(size_at, tolerance, describe=lambda t, v: f"within {t:.3g}: {v.outcome}")
    overall = at_readings(lambda t: all_hold(direction_, size_at(t)), tolerance)
    note = (f"direction {direction_.outcome}; size {size.outcome} (the paper's {paper_change:.3g}; "
            + size.note.replace("threshold", "tolerance", 1) + ")")
    return Verdict(overall.outcome, _joined(note, ONE_SEED if change.half is None else ""),
                   overall.reading_dependent)


NOT_APPLICABLE = "n/a"


def count(verdicts):
    """{outcome: number} over a list of Verdicts, with NOT_APPLICABLE counting the Nones (a
    claim the data cannot judge) and DEPENDS_ON_READING the verdicts that depend on our
    reading (also counted under their outcome)."""
    counts = {o: 0 for o in OUTCOMES}
    counts[NOT_APPLICABLE] = counts[DEPENDS_ON_READING] = 0
    for v in verdicts:
        if v is None:
            counts[NOT_APPLICABLE] += 1
            continue
        counts[v.outcome] += 1
        counts[DEPENDS_ON_READING] += v.reading_dependent
    return counts


# The notes tools.report.seed_stats gives a verdict decided on the mean when its interval
# does not decide it.
_UNDECIDED = ("the threshold lies inside the 95 % interval", "the intervals overlap",
              "the paired differences' 95 % interval contains 0")


def as_verdict(held, note=""):
    """A Verdict from a claim row's verdict: a Verdict as it is, None as None (not
    applicable), a bool decided on the mean as holds or does not hold unless its note says
    the interval does not decide it (inconclusive)."""
    if held is None or isinstance(held, Verdict):
        return held
    if any(u in (note or "") for u in _UNDECIDED):
        return Verdict(INCONCLUSIVE)
    return Verdict(HOLDS if held else FAILS)
