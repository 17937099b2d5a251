"""Section 3, the analysis: the cost and service-delay formulas (A1, A2, A2-gap), Theorem 1
(A3), Corollary 1 (A4) and separability (A5)."""

from __future__ import annotations

from collections.abc import Mapping

from storrepro.papers.tofec.claims.shared import pct
from storrepro.papers.tofec.config import A3_BAND, A4_BAND, band_text
from storrepro.suite.claims import Claim, verdict_of

#: Invariant tolerances: Monte Carlo against a closed form (the plan's checks).
FORMULA_TOLERANCE = 0.01
GAP_RANGE = (0.0, 0.43)  # 1 − γ bounds the integral gap for integers 1 <= k < n
A5_TOLERANCE = 1e-6


def _formula(id, statement, error, what) -> Claim:
    ok = error <= FORMULA_TOLERANCE
    return Claim(
        id=id,
        statement=statement,
        paper_value=0.0,
        reproduced_value=f"max |error| {pct(error, 2)}",
        tolerance=f"max |error| <= {pct(FORMULA_TOLERANCE, 0)}",
        verdict=verdict_of(ok),
        reason=f"Largest relative gap between the Monte-Carlo {what} and the closed form over the "
        f"27 codes: {pct(error, 2)}" + ("." if ok else "; the sampler or the formula is wrong."),
        role="invariant",
        values={"max_abs_relative_error": error},
    )


def a1_cost(error: float) -> Claim:
    return _formula(
        "A1",
        "Eq. (3): MC mean cost of all 27 codes (PURE sampler, simultaneous start) matches nΔ + kE",
        error,
        "mean cost",
    )


def a2_service(error: float) -> Claim:
    return _formula(
        "A2",
        "Eq. (2): MC mean service delay of all 27 codes (PURE sampler) matches Δ + E·Σ1/i",
        error,
        "mean service delay",
    )


def a2_gap(gaps: Mapping[tuple[int, int], float]) -> Claim:
    """A2-gap (invariant): ln(n/(n−k)) − Σ1/i lies in [0, 1 − γ] for 1 <= k < n <= 12."""
    lo, hi = GAP_RANGE
    low, high = min(gaps.values()), max(gaps.values())
    ok = lo <= low and high <= hi
    at = max(gaps, key=gaps.get)
    return Claim(
        id="A2-gap",
        statement="The integral bound's gap ln(n/(n−k)) − Σ1/i stays below Euler's γ for "
        "1 <= k < n <= 12",
        paper_value="<= 0.577",
        reproduced_value=f"{low:.4f} to {high:.4f}",
        tolerance=f"within [{lo:g}, {hi:g}]",
        verdict=verdict_of(ok),
        reason=f"The gap ranges over [{low:.4f}, {high:.4f}], largest at (n,k) = {at}"
        + ("." if ok else "; the harmonic sums are computed wrongly."),
        role="invariant",
        values={"min": low, "max": high, "argmax": list(at)},
    )


def a3_theorem1(residual: float, spread: float) -> Claim:
    """A3 (test): one optimum, satisfying k = g(r), φ(Λ) = h(r), at λ = 5, 20, 40, 60."""
    band = A3_BAND
    worst = max(residual, spread)
    verdict = band.judge(worst)
    if verdict == "reproduced":
        reason = (
            f"Eight Nelder–Mead starts per λ end within {spread:.1e} of each other and the best "
            f"satisfies Theorem 1's conditions to {residual:.1e}."
        )
    elif not band.contains(spread):
        reason = (
            f"Nelder–Mead starts end {spread:.1e} apart (log scale): the objective has more than "
            "one local optimum, against Theorem 1's uniqueness (Section 3, A3 table)."
        )
    else:
        reason = (
            f"The numerical optimum misses Theorem 1's conditions by {residual:.1e}: the "
            "reconstructed conditions do not characterise the optimum (Section 3, A3 table)."
        )
    return Claim(
        id="A3",
        statement="Theorem 1: at λ = 5, 20, 40, 60 req/s all Nelder–Mead starts reach one optimum "
        "and it satisfies k = g(r), φ(Λ) = h(r)",
        paper_value="unique optimum",
        reproduced_value=f"residual {residual:.1e}, start spread {spread:.1e}",
        tolerance=band_text(band),
        verdict=verdict,
        reason=reason,
        band=band.source,
        no_uncertainty="a deterministic optimisation of closed-form functions",
        values={"max_residual": residual, "max_start_spread": spread},
    )


def a4_corollary1(checks: Mapping[str, bool]) -> Claim:
    """A4 (test): Corollary 1's monotonicity (each named check must hold strictly)."""
    failed = [name for name, ok in checks.items() if not ok]
    return Claim(
        id="A4",
        statement="Corollary 1: k*, n*, r* strictly decrease in E[Q] on 0.01…20; g and r·g "
        "increase and h decreases on (1, 20]",
        paper_value="strictly monotone",
        reproduced_value=f"{len(checks) - len(failed)} of {len(checks)} strictly monotone",
        tolerance=band_text(A4_BAND) + " on every step of k*, n*, r*, h (> 0 for g, r·g)",
        verdict=verdict_of(not failed),
        reason="Every one of " + ", ".join(checks) + " is strictly monotone on its grid."
        if not failed
        else f"Not strictly monotone: {', '.join(failed)} (Section 3, Corollary 1 figure).",
        band=A4_BAND.source,
        no_uncertainty="closed-form functions and a deterministic optimum on a fixed grid",
        values={"checks": dict(checks)},
    )


def a5_separability(gap: float) -> Claim:
    """A5 (invariant): Theorem 1's equations, solved for two class mixes of the same Λ, give the
    same codes. The optimum depends on Λ alone in those equations, so the gap is 0 by
    construction: a check of the solver, not of the paper."""
    ok = gap <= A5_TOLERANCE
    return Claim(
        id="A5",
        statement="Separability: two classes at the same total usage Λ get the same optimal "
        "codes for any (λ, p), and class 1 alone at that Λ the same code",
        paper_value=0.0,
        reproduced_value=f"max difference {gap:.1e} in r or k",
        tolerance=f"<= {A5_TOLERANCE:g}",
        verdict=verdict_of(ok),
        reason=f"Largest difference of r or k between the two mixes and class 1 alone: {gap:.1e}. "
        "Theorem 1's equations depend on the mix only through Λ, so this holds by construction "
        "and checks the multi-class solver"
        + ("." if ok else "; the solver does not find the equations' solution (Section 3, A5)."),
        role="invariant",
        values={"max_difference": gap},
    )
