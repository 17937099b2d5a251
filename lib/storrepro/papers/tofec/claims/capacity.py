"""Sections 4 and 6, capacity: the static codes' capacities against Eq. (4) (A1-sat) and the
paper's ratios (B2-*), the saturated and stable throughputs of the adaptive policies (B3-*) and
[3]'s fixed-k capacity (B2-fixedk). Inputs: ``cap_seeds`` (per code, the simulated / predicted
capacity per seed), ``n_threads``, ``ratios`` (each code's capacity over (1,1)'s), ``demo``
(``experiment.capacity_demo``), ``grid``, ``alpha`` and ``c_full``."""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from storrepro.papers.tofec.claims import band_of, deciding, pct
from storrepro.papers.tofec.config import B2_TARGETS, B3_21_FRACTION
from storrepro.papers.tofec.metrics import tofec_name
from storrepro.suite import bands
from storrepro.suite.claims import interval
from storrepro.suite.table import Measured, Row

SATURATED_TOLERANCE = 0.03  # the plan's check; it holds by construction (invariant)
B2_WORDS = ("C(2,1) ≈ 0.70·C(1,1) ('fails … beyond 70% of the capacity of basic'); C(6,6) ≈ "
            "0.40·C(1,1) ('almost 60% loss')")
B3_WORDS = ("'both TOFEC and Greedy successfully support the full capacity region' (throughput "
            "= arrival rate within 1 %, the plan's stability check)")
QUEUE_GROWS = "The queue grows: the policy loses capacity near saturation (Section 6)."
DRIFTED = "The calibration has drifted."
ONE_RUN = "one saturation run per code: a capacity ratio without an interval"


def _saturated(policy: str) -> Row:
    return Row(id=f"B3-sat-{policy}", role="invariant", paper_value="= C_full",
               statement=f"{policy} keeps the full capacity of basic (1,1): saturated "
               "throughput at 1.2·C_full", words="(holds by construction: at a large backlog "
               "both rules pick (1,1))", tolerance=f"±{SATURATED_TOLERANCE * 100:g} % relative")


TABLE = (
    Row(id="A1-sat", not_affected_by=("ideal_decision_point", "alpha", "phase2_load"),
        statement="Eq. (4): the simulated saturated capacity of every static code is L / E[U] "
        "(SUR)", words="Eq. (4): the capacity of a static code C(n,k) ≈ L / E[U]",
        paper_value="C ≈ L / E[U]", band=partial(bands.approx_ratio),
        of="simulated / predicted capacity of the deciding code", fmt="{:.3f}", unit="×"),
    Row(id="B2-21", role="calibration", miss=DRIFTED, words=B2_WORDS,
        paper_value=B2_TARGETS["B2-21"], no_uncertainty=ONE_RUN,
        statement="C(2,1)/C(1,1): replication keeps ~70 % of basic's capacity",
        band=partial(bands.approx_ratio), of="capacity ratio / the paper's", fmt="{:.3f}"),
    Row(id="B2-66", role="calibration", miss=DRIFTED, words=B2_WORDS,
        paper_value=B2_TARGETS["B2-66"],
        statement="C(6,6)/C(1,1): the best k = 6 code loses almost 60 % of capacity",
        no_uncertainty=ONE_RUN,
        band=partial(bands.approx_ratio), of="capacity ratio / the paper's", fmt="{:.3f}"),
    Row(id="B2-126", role="calibration", paper_value="<= 0.333", no_uncertainty=ONE_RUN,
        miss="(12,6) keeps more than a third: the calibration has drifted.",
        statement="The latency-optimal static code (12,6) supports under a third of basic's "
        "capacity (TOFEC 'over 3×' its requests)", words="TOFEC 'can scale to support over 3× "
        "as many requests' as the latency-optimised static code",
        band=partial(bands.at_most, 1 / 3), of="C(12,6) / C(1,1)", fmt="{:.3f}"),
    _saturated("TOFEC"),
    _saturated("Greedy"),
    Row(id="B3-0.95-TOFEC", miss=QUEUE_GROWS, core=True, paper_value="stable", words=B3_WORDS,
        statement="TOFEC is stable at λ = 0.95·C_full: throughput = arrival rate, no upward "
        "trend", band=partial(bands.number, 1.0, 0.01), of="throughput / arrival rate",
        fmt="{:.4f}", not_affected_by=("ideal_decision_point", "phase2_load")),
    Row(id="B3-0.95-Greedy", miss=QUEUE_GROWS, paper_value="stable", words=B3_WORDS,
        statement="Greedy is stable at λ = 0.95·C_full: throughput = arrival rate, no upward "
        "trend", band=partial(bands.number, 1.0, 0.01), of="throughput / arrival rate",
        fmt="{:.4f}", not_affected_by=("ideal_decision_point", "alpha", "phase2_load")),
    Row(id="B3-21", role="calibration", requires=("B2-21",),
        no_uncertainty="the replication runs' throughput pooled into one ratio",
        miss="It keeps up: replication supports more than the paper's 70 % here.",
        paper_value="unstable beyond 0.70·C_full",
        statement=f"Replication (2,1) fails beyond 70 % of basic's capacity: unstable at "
        f"{B3_21_FRACTION:g}·C_full", words="replication 'fails to support arrival rates beyond "
        "70% of the capacity of basic' (throughput short of the arrivals by over 1 %)",
        band=partial(bands.at_most, 0.99), of="throughput / arrival rate", fmt="{:.3f}",
        tolerance="throughput / arrival rate ≤ 0.99, or delay trending up in most seeds"),
    Row(id="B2-fixedk", role="calibration", requires=("B2-66",), paper_value="< 0.3",
        no_uncertainty="one saturation run of [3]'s strategy",
        miss="The paper's '< 30 %' is lower than its own 'almost 60 % loss' for k = 6 implies "
             "(Section 4); the plan's retired resolution (≤ 0.45 partly) is in the register's "
             "pilot_bands.",
        statement="The fixed-k (k = 6) adaptive strategy of [3] supports under 30 % of basic's "
        "capacity", words="[3] with fixed k 'can only support less than 30% of the original "
        "capacity region'", band=partial(bands.at_most, 0.30), of="saturated throughput / "
        "C_full", fmt="{:.3f}"),
)


def measure_a1_sat(inputs) -> Measured:
    code, u, table = deciding(band_of(TABLE, "A1-sat"), inputs["cap_seeds"],
                              "simulated / predicted capacity")
    errors = {c: abs(t["mean"] - 1) for c, t in table.items()}
    worst = max(errors, key=errors.get)
    divides = [c for c in errors if inputs["n_threads"] % c[0] == 0]
    max_div = max((errors[c] for c in divides), default=math.nan)
    return Measured(inputs["cap_seeds"][code], f"max |error| {pct(errors[worst], 1)} at {worst}",
                    {"max_abs_error": errors[worst], "worst_code": list(worst),
                     "deciding_code": list(code), "max_error_n_divides_L": max_div},
                    reason=f"E[U] by Monte Carlo with simultaneous start; deciding code {code}.")


def explain_a1_sat(inputs, verdict: str, measured: Measured) -> str:
    n_threads, worst = inputs["n_threads"], tuple(measured.extra["worst_code"])
    if not n_threads % worst[0]:
        return ""
    return (f"Where n does not divide L = {n_threads} a saturated request's tasks start one by "
            "one as threads free up, so its late tasks are interrupted sooner than with the "
            "simultaneous start Eq. (4) assumes; where n divides L the largest gap is "
            f"{pct(measured.extra['max_error_n_divides_L'], 1)} (Section 4, capacity table).")


def _ratio(inputs, cid: str, code: tuple[int, int]) -> Measured:
    ratio, target = float(inputs["ratios"][code]), B2_TARGETS[cid]
    return Measured(ratio / target, f"{ratio:.3f} of C(1,1) ({ratio / target:.3f}× the paper's)",
                    {"ratio": ratio, "target": target})


measure_b2_21 = partial(_ratio, cid="B2-21", code=(2, 1))
measure_b2_66 = partial(_ratio, cid="B2-66", code=(6, 6))


def measure_b2_126(inputs) -> Measured:
    ratio = float(inputs["ratios"][(12, 6)])
    return Measured(ratio, f"{ratio:.3f} of C(1,1)", {"ratio": ratio},
                    reason="The surrogate's per-task overhead was calibrated to the paper's "
                    "capacity ratios.")


def _saturation(inputs, policy: str) -> Measured:
    throughput, c_full = float(inputs["demo"]["saturated"].throughput[policy]), inputs["c_full"]
    err = throughput / c_full - 1
    ok = abs(err) <= SATURATED_TOLERANCE
    return Measured(
        err, f"{throughput:.1f} req/s ({err * 100:+.1f} % of C_full)",
        {"throughput": throughput, "c_full": c_full, "relative_error": err},
        verdict="reproduced" if ok else "not reproduced",
        reason="With a long queue (TOFEC) or no idle thread (Greedy) the rule picks (1,1), so "
        "this holds by construction" + ("." if ok else ", yet it failed: no fall-back to (1,1)."))


measure_b3_sat_tofec = partial(_saturation, policy="TOFEC")
measure_b3_sat_greedy = partial(_saturation, policy="Greedy")


def _stability(inputs, who: str) -> Measured:
    grid = inputs["grid"]
    rate = min(grid.rates, key=lambda r: abs(r - round(0.95 * grid.c_full, 2)))
    rows = grid.seed_rows(tofec_name(inputs["alpha"]) if who == "TOFEC" else who, rate)
    ratios = (rows.throughput / rows.arrival_rate).to_numpy()
    trend = float(np.mean(rows.trend.to_numpy()))
    gap = abs(interval(ratios, of="throughput / arrival rate")["mean"] - 1)
    return Measured(
        ratios, f"|throughput/rate − 1| = {pct(gap, 2)}, trend in {pct(trend)} of seeds",
        {"rate": rate, "throughput_gap": gap, "trend_fraction": trend},
        verdict="" if trend == 0 else "not reproduced",
        reason=f"At λ = {rate:g} req/s the last fifth's mean delay exceeds twice the first "
        f"fifth's in {pct(trend)} of seeds (no trend in any seed is required).")


measure_b3_0_95_tofec = partial(_stability, who="TOFEC")
measure_b3_0_95_greedy = partial(_stability, who="Greedy")


def measure_b3_21(inputs) -> Measured:
    rep = inputs["demo"]["replication"]
    ratio, trend = float(rep.throughput / rep.arrival_rate), float(rep.trend)
    offered = B3_21_FRACTION * inputs["c_full"]
    return Measured(
        ratio, f"throughput {pct(ratio, 1)} of arrivals at {B3_21_FRACTION:g}·C_full",
        {"offered": offered, "throughput_ratio": ratio, "trend": trend},
        verdict="reproduced" if trend > 0.5 else "",  # a trend in most seeds fails it too
        reason=f"Offered {offered:.1f} req/s; delay trends up in {pct(trend)} of seeds. It "
        "follows from the calibrated C(2,1)/C(1,1) (B2-21).")


def measure_b2_fixedk(inputs) -> Measured:
    ratio, alpha = float(inputs["demo"]["fixed_k"][inputs["alpha"]]), inputs["alpha"]
    return Measured(ratio, f"{ratio:.3f} of C_full", {"ratio": ratio, "alpha": alpha},
                    reason=f"[3]'s k = 6 strategy (α = {alpha:g}) settles on (6,6) at saturation, "
                    "whose capacity ratio SUR was calibrated to (B2-66).")


