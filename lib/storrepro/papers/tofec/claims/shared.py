"""What the rules of several sections share: the worst case over the λ grid or the phases, a
two-part verdict, a share written as a percentage, and the claims each claim requires."""

from __future__ import annotations

from collections.abc import Mapping

from storrepro.suite.bands import Band
from storrepro.suite.claims import interval, judged

_RANK = {"reproduced": 0, "inconclusive": 1, "not reproduced": 2}


def pct(x: float, digits: int = 0) -> str:
    return f"{100 * x:.{digits}f} %"


def _excess(band: Band, mean: float) -> float:
    """How far ``mean`` lies outside ``band`` (negative inside: its distance to the nearer edge)."""
    return max(band.low - mean, mean - band.high)


def worst_case(band: Band, samples: Mapping, of: str) -> tuple[object, dict, dict]:
    """Judge ``band`` on each key's replicates (``{λ or phase: samples}``): the deciding key (the
    worst verdict, then the mean furthest out or nearest an edge), its interval, and every
    key's ``{"mean", "ci95", "verdict"}``. A claim "at every λ" takes the deciding key's
    verdict."""
    if not samples:
        raise ValueError(f"worst case of {of!r}: no replicates given")
    per = {}
    for key, xs in samples.items():
        u = interval(xs, of=f"{of} at {key}")
        per[key] = {"mean": u["mean"], "ci95": u["ci95"], "verdict": judged(band, u), "u": u}
    key = max(per, key=lambda k: (_RANK[per[k]["verdict"]], _excess(band, per[k]["mean"])))
    table = {k: {x: v for x, v in p.items() if x != "u"} for k, p in per.items()}
    return key, per[key]["u"], table


def both(a: str, b: str) -> str:
    """The verdict of a claim that needs two parts: reproduced when both are, not reproduced
    when both are not, partly when one is and the other is not, else inconclusive."""
    if a == b:
        return a
    if {a, b} == {"reproduced", "not reproduced"}:
        return "partly"
    return "inconclusive"


#: A light-load ratio means something only if the surrogate reproduces that baseline's
#: light-load delays; the capacity claims need its calibrated capacity ratios.
REQUIRES = {
    "B4-mean-11": ("B1-(1,1)",),
    "B4-median-11": ("B1-(1,1)",),
    "B4-greedy-mean": ("B1-(1,1)",),
    "B4-greedy-median": ("B1-(1,1)",),
    "B4-mean-21": ("B1-(2,1)",),
    "B4-abs": ("B1-best",),
    "B3-21": ("B2-21",),
    "B2-fixedk": ("B2-66",),
}
