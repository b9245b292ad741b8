"""A quick report set against its paper's full run.

Every report writes its claims' verdicts beside it (PAPER.verdicts.json). The full runs'
files are committed with their reports (docs/reproduction/PAPER/full/); a quick report reads
its paper's, links the full report and lists every claim whose verdict differs from the full
run's, so that a reader of the quick report knows which of its verdicts the full run reverses.
Claims are matched by their text, in order where a text repeats.
"""
import json
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def full_report(paper):
    """The committed full report's path from the repository root."""
    return f"docs/reproduction/{paper}/full/{paper}.md"


def full_verdicts_path(paper):
    return os.path.join(REPO, "docs", "reproduction", paper, "full", f"{paper}.verdicts.json")


def verdict_log(rep):
    """[{section, claim, outcome, reading_dependent}] of a Report's claims, in order."""
    return [{"section": section, "claim": claim, "outcome": "n/a" if v is None else v.outcome,
             "reading_dependent": bool(v is not None and v.reading_dependent)} for section, claim, v in rep.claim_log]


def _keyed(log):
    """{(claim, occurrence): entry}."""
    seen, keyed = {}, {}
    for entry in log:
        n = seen.get(entry["claim"], 0)
        seen[entry["claim"]] = n + 1
        keyed[(entry["claim"], n)] = entry
    return keyed


def _label(entry):
    if entry is None:
        return "not judged there"
    return entry["outcome"] + (", depends on our reading" if entry["reading_dependent"] else "")


def differences(quick, full):
    """[(section, claim, quick label, full label)] of the claims whose outcome differs, and
    those judged in one run only, in the quick report's order (then the full run's)."""
    q, f = _keyed(quick), _keyed(full)
    rows = []
    for key, entry in q.items():
        other = f.get(key)
        if other is None or other["outcome"] != entry["outcome"]:
            rows.append((entry["section"], entry["claim"], _label(entry), _label(other)))
    for key, entry in f.items():
        if key not in q:
            rows.append((entry["section"], entry["claim"], "not judged here", _label(entry)))
    return rows


def compare(rep, paper, full_path=None):
    """Adds to a quick report the sentence under its summary and the section listing the
    verdicts that differ from the full run's; returns the number that differ (None without
    a committed full run)."""
    full_path = full_path or full_verdicts_path(paper)
    link = f"[the full run's report](/{full_report(paper)})"
    if not os.path.exists(full_path):
        rep.lines.insert(5, f"*Quick profile: no full run's verdicts are committed to compare with "
                            f"({full_report(paper)} is missing or has no {paper}.verdicts.json).*\n")
        return None
    with open(full_path) as f:
        full = json.load(f)
    quick = verdict_log(rep)
    rows = differences(quick, full)
    rep.lines.insert(5, f"*Quick profile: shorter windows and fewer seeds than the full run; {len(rows)} of the "
                        f"{len(quick)} verdicts differ from {link} (listed in \"Against the full run\" at the "
                        "end). The full run's verdicts are the reproduction's.*\n")
    rep.section("Against the full run",
                f"Each claim whose verdict in this quick run differs from the full run's ({full_report(paper)}: "
                "five seeds, the papers' run lengths), or that one of the two could not judge.")
    if rows:
        rep.table(["section", "paper's claim", "quick", "full"], [list(r) for r in rows])
    else:
        rep.text("Every verdict is the full run's.")
    return len(rows)
