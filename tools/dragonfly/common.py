"""What the dragonfly report's sections share: the pattern key, the sources a claim may come from, and claim
tables whose verdicts are kept by source for the report's closing count."""

PATTERN = "traffic.pattern.type"
ABSTRACT, BOOK = "the paper's abstract", "S1 (a book by two of the paper's authors)"


def claims_from(rep, rows):
    """rep.claims of (source, claim row) pairs, each row's verdict kept under its source."""
    rep.claims([row for _, row in rows])
    judged = rep.verdicts[-len(rows):]
    rep.state.setdefault("by_source", []).extend((source, v) for (source, _), v in zip(rows, judged))
