"""Claim rules V1–V9 of notebook 00: every one an ``invariant`` (a property of this suite's
simulators against a closed form or a reference value), judged on the bands of
:data:`storrepro.papers.validation.config.TOLERANCES` (about four standard errors of each
estimate)."""

from __future__ import annotations

import pandas as pd

from storrepro.sim import disk_checks
from storrepro.suite.claims import Claim, relative_band, relative_error, verdict_of, verdict_within

#: claim id -> (queue, statistic) of the waiting-time checks
QUEUE_CLAIMS = {
    "V1": ("M/M/1", "mean"),
    "V2": ("M/M/1", "p99"),
    "V3": ("M/D/1", "mean"),
    "V4": ("M/D/1", "p99"),
    "V5": ("M/G/1", "mean"),
}
_STAT = {"mean": "mean wait", "p99": "99th-percentile wait"}
_DISAGREES = (
    "the simulator disagrees with the closed form by more than about four standard errors of "
    "the estimate: a defect in the model or its random streams"
)


def _relative(id, statement, measured, reference, tolerance, unit, what) -> Claim:
    error = relative_error(measured, reference)
    verdict = verdict_within(error, tolerance)
    reason = (
        f"Simulated {what} {measured:.4g} {unit} against {reference:.4g} {unit} in closed form "
        f"({error * 100:+.2f} %)."
    )
    if verdict != "reproduced":
        reason += f" Outside ±{tolerance * 100:g} %: {_DISAGREES}."
    return Claim(
        id=id,
        statement=statement,
        paper_value=round(reference, 6),
        reproduced_value=f"{measured:.4g} {unit} ({error * 100:+.2f} %)",
        tolerance=relative_band(tolerance),
        verdict=verdict,
        reason=reason,
        role="invariant",
        values={"simulated": measured, "closed_form": reference, "relative_error": error},
    )


def v1_v5_queue_wait(id: str, queues: pd.DataFrame, load: float, tolerance: float) -> Claim:
    """V1–V5: a queue's mean or 99th-percentile wait against its closed form."""
    queue, stat = QUEUE_CLAIMS[id]
    row = queues.loc[queue]
    return _relative(
        id,
        f"{queue} {_STAT[stat]} at load {load:g} matches the closed form",
        float(row[stat]),
        float(row[f"theory_{stat}"]),
        tolerance,
        "service times",
        f"{queue} {_STAT[stat]}",
    )


def v6_kernel_identity(gap: float, tolerance: float) -> Claim:
    """V6: the vectorized FIFO kernel gives every request the simpy server's latency."""
    ok = gap <= tolerance
    return Claim(
        id="V6",
        statement="Vectorized FIFO kernel gives the simpy server's latency for every request",
        paper_value=0.0,
        reproduced_value=f"max difference {gap:.2g} service times",
        tolerance=f"max |difference| <= {tolerance:g}",
        verdict=verdict_of(ok),
        reason=(
            f"Largest per-request latency difference between the Lindley closed form and the "
            f"simpy server on the same inputs: {gap:.2g} service times"
            + ("." if ok else f", above {tolerance:g}: the fast path computes another queue.")
        ),
        role="invariant",
        values={"max_abs_difference": gap},
    )


def v7_order_statistic(codes: pd.DataFrame, tolerance: float) -> Claim:
    """V7: every (n, k) code's mean delay against the k-th order statistic (the worst code)."""
    worst = codes.rel_error.abs().idxmax()
    return _relative(
        "V7",
        f"Mean delay of every (n,k) code matches the order statistic (worst: {worst})",
        float(codes.loc[worst, "simulated_ms"]),
        float(codes.loc[worst, "theory_ms"]),
        tolerance,
        "ms",
        f"mean delay of the worst code {worst}",
    )


def v8_hdd_reference(hdd: pd.DataFrame) -> Claim:
    """V8: the HDD service time at the nine reference points of the BID disk model."""
    return disk_checks.hdd_reference_claim(hdd, "V8")


def v9_ssd_reference(ssd: pd.DataFrame) -> Claim:
    """V9: the SSD's page costs against the BID paper's SSD model."""
    return disk_checks.ssd_reference_claim(ssd, "V9")


def headline_summary(verdicts: dict[str, str]) -> str:
    """The plain headline of notebook 00 from its checks' verdicts (claim id → verdict)."""
    held = sum(v == "reproduced" for v in verdicts.values())
    if held == len(verdicts):
        return (f"Reproduced: all {held} checks hold, so the shared queue, disk and storage-cloud "
                "simulators agree with queueing theory and the disk model's published values, "
                "and the papers' notebooks can rely on them.")
    return (f"Not reproduced: {len(verdicts) - held} of {len(verdicts)} simulator checks fail "
            "(listed below), so the papers' results that use those simulators are in doubt.")
