"""Section 1, the task-delay model: Fig. 5's reductions (C1) and the copula's correlation
(C1-copula)."""

from __future__ import annotations

from collections.abc import Mapping

from storrepro.papers.tofec.claims.shared import pct
from storrepro.papers.tofec.config import C1_COPULA_BAND, band_text
from storrepro.suite.claims import Claim, verdict_of

FIG5_PAPER = (0.50, 0.65, 0.80)


def c1_fig5(reductions: Mapping[str, float]) -> Claim:
    """C1 (analysis): p99 service-delay reductions with 1/2/3 extra coded chunks (SUR)."""
    values = list(reductions.values())
    return Claim(
        id="C1",
        statement="Fig. 5: p99 service delay of a 3 MB / 1 MB-chunk read falls by ~50/65/80 % "
        "with 1/2/3 extra coded chunks (all tasks started together)",
        paper_value="50 / 65 / 80 %",
        reproduced_value=" / ".join(pct(v) for v in values),
        tolerance="reported, not judged",
        verdict="not checkable",
        reason="The paper measured these on S3 traces that are not public; the surrogate SUR was "
        "calibrated to other numbers (light-load delays and capacity ratios), so its "
        f"{' / '.join(pct(v) for v in values)} reduction says how SUR's tail compares, not "
        "whether the paper holds.",
        role="analysis",
        kind="report",
        values={"p99_reduction": dict(reductions), "paper": list(FIG5_PAPER)},
    )


def c1_copula(pearson: float, rho: float, rho_for_middle: float) -> Claim:
    """C1-copula (stand-in): the proposed copula ρ gives a task correlation in the paper's
    measured range — how faithful the copula is to the paper's traces. No claim's runs use it
    (every run behind a claim has independent tasks), so it is not a calibration."""
    band = C1_COPULA_BAND
    ok = band.contains(pearson)
    reason = (
        f"A Gaussian copula with ρ = {rho:g} gives a Pearson correlation of {pearson:.3f} between "
        f"one request's task delays (1 MB chunks, SUR marginals)."
    )
    if not ok:
        reason += (
            f" Outside the paper's {band.low:g}–{band.high:g}: the normal-scale correlation "
            f"shrinks on SUR's skewed two-component marginal; ρ = {rho_for_middle:.3f} gives "
            "the middle of the range (Section 1, copula table)."
        )
    reason += (" It calibrates nothing a claim uses: every run behind a claim draws independent "
               "tasks, like the paper's analytical model; only Section 1's copula table uses it, "
               "so this says how faithful that copula is to the paper's traces.")
    return Claim(
        id="C1-copula",
        statement=f"A Gaussian copula with the proposed ρ = {rho:g} gives a task-delay "
        f"correlation within the paper's measured {band.low:g}–{band.high:g}",
        paper_value=f"{band.low:g}–{band.high:g}",
        reproduced_value=f"Pearson {pearson:.3f} at ρ = {rho:g}",
        tolerance=band_text(band),
        verdict=verdict_of(ok),
        reason=reason,
        role="stand-in",
        kind="should",
        band=band.source,
        values={"pearson": pearson, "rho": rho, "rho_for_middle": rho_for_middle},
    )
