"""A band judged on several groups at once: the claims whose band must hold "on >= 4 of the 6
workloads", each group by its own 95 % interval over replicates, or whose quantity must rank
first among the groups, and the level a claim's rule gives its parts when some are undecided.

A group counts as inside the band when its whole interval is, outside when the whole interval
is, undecided otherwise (:func:`status`, :func:`per_group`); a count ("in the band on >= k") is
decided by its k-th best group, whose interval the claim shows (:func:`at_least_k`); a rank by
the intervals that may lie above it (:func:`top_k`). A rule over the parts (one bool each,
by name) gives every level it could when an undecided part could go either way; the claim is
inconclusive when that is more than one (:func:`decided`). A measure of a claims table
(:mod:`storrepro.suite.table`) uses these and returns the verdict and the deciding interval
(:func:`uncertainty_of`).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from storrepro.suite.bands import Band
from storrepro.suite.claims import interval, judged

#: The levels a rule's criteria give, worst first.
LEVELS = ("not reproduced", "partly", "reproduced")
_STATE = {"reproduced": 2, "inconclusive": 1, "not reproduced": 0}


def status(band: Band, samples, of: str) -> dict:
    """``band``'s verdict on the interval of ``samples`` (one per replicate; NaN, a quantity a
    replicate does not have, such as the seek distance of a run without a seek, is left out).
    Without any value the verdict cannot be told: inconclusive."""
    x = np.asarray(samples, dtype=float)
    x = x[np.isfinite(x)]
    if not x.size:
        return {"verdict": "inconclusive", "band": band, "n": 0, "mean": float("nan"),
                "ci95": None, "of": f"{of} (no value in any run)"}
    u = interval(x, of)
    return {"verdict": judged(band, u), "band": band, **u}


def margin(s: dict) -> float:
    """How far the estimate lies inside its band (negative: outside; -inf: no estimate)."""
    if not np.isfinite(s["mean"]):
        return -np.inf
    return min(s["mean"] - s["band"].low, s["band"].high - s["mean"])


def per_group(x: pd.Series, band: Band, of: str) -> dict[str, dict]:
    """``band`` judged per group on ``x`` (indexed by group, then replicate: one value each)."""
    keys, values = x.index.get_level_values(0).to_numpy(), x.to_numpy(dtype=float)
    return {w: status(band, values[keys == w], f"{of}, {w}") for w in sorted(set(keys))}


def worst(statuses) -> dict:
    """Every status at once (an 'and'): the worst, by verdict then margin."""
    return min(statuses, key=lambda s: (_STATE[s["verdict"]], margin(s)))


def at_least_k(k: int, statuses: dict[str, dict], what: str = "groups") -> dict:
    """'In the band on >= k of them': decided by the k-th best (its verdict and interval)."""
    if not 1 <= k <= len(statuses):
        raise ValueError(f"at_least_k: k = {k} must be within 1..{len(statuses)} ({what})")
    ranked = sorted(statuses.items(), key=lambda kv: (_STATE[kv[1]["verdict"]], margin(kv[1])),
                    reverse=True)
    name, s = ranked[k - 1]
    inside = [n for n, v in ranked if v["verdict"] == "reproduced"]
    edge = [n for n, v in ranked if v["verdict"] == "inconclusive"]
    return {**s, "k": k, "of_n": len(statuses), "decided_by": name, "inside": inside,
            "undecided": edge}


def top_k(statuses: dict[str, dict], name: str, band: Band, of: str) -> dict:
    """Whether ``name``'s quantity ranks within ``band`` (``rank <= k``, largest first):
    certain when its worst rank by the intervals is <= k (every other interval that may lie
    above it counted), excluded when even its best rank is > k."""
    def bounds(s):
        ci = s["ci95"] or [s["mean"], s["mean"]]
        return ci[0], ci[1]

    lo, hi = bounds(statuses[name])
    others = [bounds(s) for n, s in statuses.items() if n != name]
    best = 1 + sum(o_lo > hi for o_lo, _ in others)
    worst_rank = 1 + sum(o_hi > lo for _, o_hi in others)
    verdict = ("reproduced" if band.contains(worst_rank) else "not reproduced"
               if not band.contains(best) else "inconclusive")
    rank = 1 + sum(s["mean"] > statuses[name]["mean"] for n, s in statuses.items() if n != name)
    return {"verdict": verdict, "band": band, "n": statuses[name]["n"],
            "mean": float(rank), "ci95": [best, worst_rank], "of": f"rank of {name}: {of}",
            "rank": rank}


def levels(rule, criteria: dict[str, dict]) -> set[str]:
    """Every verdict ``rule`` (one bool per criterion, by name) can give when each undecided
    criterion could go either way."""
    names = list(criteria)
    options = [
        (True,) if criteria[n]["verdict"] == "reproduced"
        else (False,) if criteria[n]["verdict"] == "not reproduced" else (False, True)
        for n in names
    ]
    return {rule(**dict(zip(names, combo, strict=True)))
            for combo in itertools.product(*options)}


def decided(rule, criteria: dict[str, dict]) -> tuple[str, list[str]]:
    """The verdict ``rule`` gives ``criteria`` (inconclusive when the undecided ones could
    turn it), and every verdict it could give."""
    possible = sorted(levels(rule, criteria), key=LEVELS.index)
    return (possible[0] if len(possible) == 1 else "inconclusive"), possible


def interval_of(status: dict) -> dict:
    """A criterion's interval, as a claim's ``uncertainty`` (with its replicates' values, which
    the claims picture draws, when it has them)."""
    return {k: status[k] for k in ("n", "mean", "ci95", "of", "samples") if k in status}


def uncertainty_of(criteria: dict[str, dict], main: str) -> dict:
    """The interval a claim shows: the first undecided criterion's, else its main one's."""
    pick = next((c for c in criteria.values() if c["verdict"] == "inconclusive"), criteria[main])
    return interval_of(pick)


def criteria_values(criteria: dict[str, dict]) -> dict:
    """Each criterion's verdict, estimate and interval, for a claim's values."""
    return {
        name: {"verdict": c["verdict"], "estimate": round(float(c["mean"]), 4),
               "ci95": [round(float(x), 4) for x in c["ci95"]] if c["ci95"] else None,
               "of": c["of"], "band": c["band"].text()}
        for name, c in criteria.items()
    }


def possible_text(verdict: str, possible) -> str:
    if verdict != "inconclusive":
        return ""
    return (f" Inconclusive: a seed interval straddles a band's edge, so the claim could be "
            f"{' or '.join(possible)}.")
