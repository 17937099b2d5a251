"""Notebook 05's claims (TOFEC) as tables (:mod:`storrepro.suite.table`), one module per section
of the paper: ``model`` (1–3: the delay model, the formulas, Theorem 1 and Corollary 1; and this
implementation's own checks, 8–10), ``capacity`` (4, 6), ``rates`` (5: delay against the arrival
rate and the codes TOFEC picks), ``phases`` (7: the changing workload) and ``headline``.

The light-load delays and capacity ratios SUR was calibrated to, and what follows from them, are
``calibration``; the copula's correlation is a ``stand-in`` check; this implementation's own
checks are ``invariant``; our reports ``analysis``; every other claim is a ``test``. A claim "at
every λ" (or in every phase) is judged on the λ that decides it (:func:`deciding`). The retired
pilot bands are stated once, in the register (``config.PILOT_BANDS_RETIRED``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storrepro.suite.bands import Band
from storrepro.suite.claims import interval, judged
from storrepro.suite.table import Row

#: The delay model's alternative reading: Eq. (1)'s shifted exponential alone.
PURE = "delay_model=PURE"

_RANK = {"reproduced": 0, "inconclusive": 1, "not reproduced": 2}


def pct(x: float, digits: int = 0) -> str:
    return f"{100 * x:.{digits}f} %"


def by_reading(cfg, inputs: dict, **pure) -> dict[str, dict]:
    """``inputs`` under each alternative memory factor (another TOFEC policy of the same runs)
    and, given ``pure`` (the inputs that differ under it), under the delay model's reading."""
    alts = {f"alpha={v}": {**inputs, "alpha": float(v)} for v in cfg.readings["alpha"].others()}
    return alts | ({PURE: {**inputs, **pure}} if pure else {})


def pick(table: Sequence[Row], *ids: str) -> tuple[Row, ...]:
    """The rows of ``table`` with these ids, in that order (a notebook cell judges those whose
    inputs it has)."""
    rows = {row.id: row for row in table}
    missing = [i for i in ids if i not in rows]
    if missing:
        raise ValueError(f"no claim rows {missing}; the table has {list(rows)}")
    return tuple(rows[i] for i in ids)


def band_of(table: Sequence[Row], claim_id: str) -> Band:
    """The band of row ``claim_id``, built from its words."""
    return pick(table, claim_id)[0].bands()[""]


def deciding(band: Band, samples: Mapping, of: str) -> tuple[object, dict, dict]:
    """The key that decides a claim judged at every key (``{λ or phase: replicates}``): the worst
    verdict, then the mean furthest outside the band (or nearest its edge); its interval, and
    every key's ``{"mean", "ci95", "verdict"}``."""
    if not samples:
        raise ValueError(f"deciding key of {of!r}: no replicates given")
    us = {key: interval(xs, of=f"{of} at {key}") for key, xs in samples.items()}
    table = {k: {"mean": u["mean"], "ci95": u["ci95"], "verdict": judged(band, u)}
             for k, u in us.items()}

    def excess(k):
        return max(band.low - table[k]["mean"], table[k]["mean"] - band.high)

    key = max(table, key=lambda k: (_RANK[table[k]["verdict"]], excess(k)))
    return key, us[key], table
