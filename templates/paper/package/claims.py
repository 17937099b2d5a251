"""One rule per claim: T1 (the paper's mean response time, a test) and K1 (the kernel equals
the simpy model, an invariant of this suite)."""

from __future__ import annotations

from storrepro.suite import bands
from storrepro.suite.claims import Claim, ci_text, interval, judged, verdict_of

from storrepro.papers.paper_template.config import MEAN_RESPONSE

T1_BAND = bands.approx_ratio("'twice its service time'")


def t1_mean_response(means) -> Claim:
    """T1: the mean response time at half load over the paper's, per replicate."""
    u = interval([m / MEAN_RESPONSE for m in means], of="mean response / paper's")
    verdict = judged(T1_BAND, u)
    reason = f"Measured / paper: {ci_text(u, unit='×')}."
    if verdict != "reproduced":
        reason += (" Outside ×/÷ 1.15 of the paper's number: the stand-in's service times or "
                   "load differ from the paper's disk (section 1 shows the distribution).")
    return Claim(
        id="T1",
        statement="At half load a request spends twice its service time in the system",
        paper_value=MEAN_RESPONSE,
        reproduced_value=f"{u['mean'] * MEAN_RESPONSE:.3f} service times",
        tolerance=T1_BAND.text(),
        verdict=verdict,
        reason=reason,
        band=T1_BAND.source,
        uncertainty=u,
    )


def k1_kernel_matches_reference(gap: float, tolerance: float = 1e-9) -> Claim:
    """K1: every request's response time, kernel against simpy model, within ``tolerance``."""
    ok = gap <= tolerance
    return Claim(
        id="K1",
        statement="The fast kernel gives every request the simpy model's response time",
        paper_value=0.0,
        reproduced_value=f"largest difference {gap:.2e}",
        tolerance=f"≤ {tolerance:g}",
        verdict=verdict_of(ok),
        reason="Same requests through both." + ("" if ok else " The kernel is wrong."),
        role="invariant",
    )


def headline_summary(verdict: str) -> str:
    """The plain headline: T1's verdict first, then what it says."""
    return {
        "reproduced": "Reproduced: at half load a request spends about twice its service time "
        "in the system, as the paper says.",
        "inconclusive": "Inconclusive: the replicates' mean response time straddles the edge of "
        "twice the service time; more requests or replicates would decide.",
    }.get(verdict, "Not reproduced: at half load the mean response time is not about twice the "
          "service time.")
