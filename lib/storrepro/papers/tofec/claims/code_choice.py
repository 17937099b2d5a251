"""Section 5, the codes TOFEC chooses (B8): its modal code, the share of its two most used
codes, and Greedy's."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from storrepro.papers.tofec.claims.shared import pct, worst_case
from storrepro.papers.tofec.config import B8_GREEDY_BAND, B8_MODAL_BAND, B8_TOP2_BAND, band_text
from storrepro.suite.claims import Claim, ci_text, judged, verdict_of


def b8_modal(modal: pd.Series, c_full: float) -> Claim:
    """B8-modal (test): TOFEC's modal k is non-increasing in λ, 5 or 6 at λ <= 10, 1 near C_full.

    ``modal`` is indexed by λ (req/s), sorted.
    """
    ks = modal.to_numpy()
    rising = [
        f"{a:g}→{b:g}"
        for a, b, x, y in zip(modal.index[:-1], modal.index[1:], ks[:-1], ks[1:], strict=True)
        if y > x
    ]
    low = modal[modal.index <= 10]
    top = modal[modal.index >= 0.9 * c_full - 1e-9]
    bad_low, bad_top = low[~low.isin([5, 6])], top[top != 1]
    ok = not rising and bad_low.empty and bad_top.empty
    problems = []
    if rising:
        problems.append(f"it rises between λ = {', '.join(rising)} req/s")
    if not bad_low.empty:
        problems.append(f"it is {bad_low.iloc[0]} at λ = {bad_low.index[0]:g}")
    if not bad_top.empty:
        problems.append(f"it is {bad_top.iloc[0]} at λ = {bad_top.index[0]:g} (>= 0.9·C_full)")
    return Claim(
        id="B8-modal",
        statement="TOFEC's most used k falls smoothly with λ: 5 or 6 at λ <= 10 req/s, 1 at "
        "λ >= 0.9·C_full",
        paper_value="smooth transition to k = 1",
        reproduced_value="modal k " + " ".join(str(int(v)) for v in ks),
        tolerance=band_text(B8_MODAL_BAND),
        verdict=verdict_of(ok),
        reason="Modal k by λ: "
        + " ".join(str(int(v)) for v in ks)
        + ("." if ok else "; " + "; ".join(problems) + " (Fig. 10)."),
        band=B8_MODAL_BAND.source,
        no_uncertainty="the mode of the k mix pooled over each rate's seeds: an integer shape "
        "check without an interval",
        values={"modal_k": {f"{r:g}": int(v) for r, v in modal.items()}},
    )


def b8_top2(seed_shares: Mapping[float, list[float]], alpha: float) -> Claim:
    """B8-top2 (test): share of TOFEC's requests in its best two neighbouring k, per λ and
    seed, judged at every λ."""
    band = B8_TOP2_BAND
    at, u, table = worst_case(band, seed_shares, "top-2 neighbouring-k share")
    verdict = judged(band, u)
    low = min(t["mean"] for t in table.values())
    reason = (
        f"With α = {alpha:g} the two neighbouring k TOFEC uses most serve at least "
        f"{pct(low)} of its requests; deciding λ = {at:g} req/s at {ci_text(u, '{:.3f}')}."
    )
    if verdict != "reproduced":
        reason += (
            " The moving average of the backlog still follows the queue's fluctuations at this "
            "memory, spreading the choice over three or more k; the α table of Section 8 shows "
            "the share grow with α."
        )
    return Claim(
        id="B8-top2",
        statement="Over 80 % of TOFEC's requests use 2 neighbouring values of k, at every λ",
        paper_value=">= 0.80",
        reproduced_value=f"min {low:.3f} at λ = {at:g} req/s (α = {alpha:g})",
        tolerance=band_text(band) + " at every λ",
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={"min_share": low, "at_rate": at, "alpha": alpha},
    )


def b8_greedy(seed_shares: Mapping[float, list[float]]) -> Claim:
    """B8-greedy (test): Greedy's share of requests with k = 1 or 6, per λ and seed."""
    band = B8_GREEDY_BAND
    at, u, table = worst_case(band, seed_shares, "Greedy's share with k ∈ {1, 6}")
    verdict = judged(band, u)
    low = min(t["mean"] for t in table.values())
    return Claim(
        id="B8-greedy",
        statement="Greedy is 'all or nothing': most of its requests use k = 1 or k = 6, at every λ",
        paper_value="majority",
        reproduced_value=f"min {pct(low)} with k ∈ {{1, 6}}",
        tolerance=band_text(band) + " at every λ",
        verdict=verdict,
        reason=f"At every λ at least {pct(low)} of Greedy's requests use k = 1 or 6; deciding "
        f"λ = {at:g} at {ci_text(u, '{:.3f}')}"
        + ("." if verdict == "reproduced" else "; Greedy spreads over middle k here (Fig. 10)."),
        band=band.source,
        uncertainty=u,
        values={"min_share": low, "deciding_rate": at},
    )
