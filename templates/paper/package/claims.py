"""PaperTemplate's claims as a table (:mod:`storrepro.suite.table`): T1, the paper's mean
response time (a test), and K1, the kernel equals the simpy model (an invariant of this suite);
with one ``measure_<id>`` per claim and the result the paper reports that checks the
``service`` reading."""

from __future__ import annotations

from functools import partial

from storrepro.suite import bands
from storrepro.suite.consistency import Reported
from storrepro.suite.table import Measured, Row

from storrepro.papers.paper_template.config import MEAN_AT_90, MEAN_RESPONSE

TABLE = (
    Row(id="T1", core=True, pool="replicates",
        statement="At half load a request spends twice its service time in the system",
        words="'at half load a request spends twice its service time in the system'",
        paper_value=MEAN_RESPONSE, band=partial(bands.approx_ratio),
        of="mean response / paper's, per replicate", fmt="{:.3f}", unit="×"),
    Row(id="K1", role="invariant", not_affected_by=("service",),
        statement="The fast kernel gives every request the simpy model's response time",
        words="(this suite's own check: the sweeps use the kernel)", paper_value=0.0),
)

#: What the paper reports at 90 % load, which the service-time reading must allow.
AT_90 = Reported(
    quote="'at 90 % load it spends ten times its service time'",
    paper_value=f"{MEAN_AT_90:g} service times",
    band=bands.approx_ratio("'ten times its service time'"),
    of="mean response at 90 % load / the paper's",
)

#: K1's tolerance: floating-point round-off of the closed form against the simulated clock.
KERNEL_TOLERANCE = 1e-9


def measure_t1(replicates) -> Measured:
    ratios = [m / MEAN_RESPONSE for m in replicates]
    mean = sum(replicates) / len(replicates)
    return Measured(ratios, f"{mean:.3f} service times")


def explain_t1(replicates, verdict: str, measured: Measured) -> str:
    if verdict == "reproduced":
        return ""
    return ("Outside ×/÷ 1.15 of the paper's number: the stand-in's service times or load "
            "differ from the paper's disk (section 1 shows the distribution).")


def measure_k1(inputs) -> Measured:
    gap = inputs["kernel_gap"]
    ok = gap <= KERNEL_TOLERANCE
    return Measured(gap, f"largest difference {gap:.2e}",
                    verdict="reproduced" if ok else "not reproduced",
                    reason=f"Same requests through both, within {KERNEL_TOLERANCE:g}."
                    + ("" if ok else " The kernel is wrong."))


def headline_summary(verdict: str) -> str:
    """The plain headline: T1's verdict first, then what it says."""
    return {
        "reproduced": "Reproduced: at half load a request spends about twice its service time "
        "in the system, as the paper says.",
        "inconclusive": "Inconclusive: the replicates' mean response time straddles the edge of "
        "twice the service time; more requests or replicates would decide.",
    }.get(verdict, "Not reproduced: at half load the mean response time is not about twice the "
          "service time.")
