"""Claim rules of notebook 05 (TOFEC): one function per claim id, each returning a
:class:`storrepro.claims.Claim` judged against a band from the paper's words
(:mod:`storrepro.bands`; every band is a constant of :mod:`storrepro.tofec.config`, where the
decision register dates it). :mod:`~storrepro.tofec.claims.judging` judges them on the
experiment's outputs under every reading.

Roles. The task-delay surrogate SUR was calibrated to the paper's light-load delays of (1,1),
(2,1) and TOFEC (84 / 74 ms) and to its capacity ratios, so B1-*, B2-21, B2-66, B2-126 and the
light-load ratios B4-* are ``calibration``; so are B3-21 and B2-fixedk, which follow from the
calibrated capacity ratios, and the copula's correlation C1-copula (which calibrates nothing a
claim uses). A1, A2, A2-gap, A5 (it solves Theorem 1's own equations), B3-sat, A6, KERNEL and
MDS are properties of this implementation (``invariant``). C1, B5-strict, C2 and C3 are our
own reports (``analysis``). Every other claim is a statement of the paper that could have come
out false here (``test``), judged on its replicates: the seeds of the λ grid (5 per rate, 10 at
0.90–0.98·C_full) or of the changing workload (10 per pattern).

Where the band used before came from the pilot of our stand-in (the plan's acceptance checks
were "sized from the pilot so that a correct implementation passes"), the claim's reason says
once what that band would have given (:data:`PILOT_BANDS`).

Rules take plain numbers, per-seed samples or small pandas objects, so a unit test can build an
input on which each fails and one on which it passes (``tests/test_tofec_claims.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from storrepro.bands import Band
from storrepro.claims import Claim, ci_text, interval, judged, verdict_of
from storrepro.tofec.config import (
    A1_SAT_BAND,
    A3_BAND,
    A4_BAND,
    B1_BAND,
    B1_BEST_BAND,
    B1_BEST_PAPER,
    B1_PAPER,
    B2_126_BAND,
    B2_BAND,
    B2_FIXEDK_BAND,
    B2_TARGETS,
    B3_21_BAND,
    B3_21_FRACTION,
    B3_STABLE_BAND,
    B4_BAND,
    B5_BAND,
    B6_BAND,
    B6_VS_GREEDY_BAND,
    B7_ENVELOPE_BAND,
    B7_VS_GREEDY_BAND,
    B8_GREEDY_BAND,
    B8_MODAL_BAND,
    B8_TOP2_BAND,
    B9A_BAND,
    B9B_BAND,
    B9C_BAND,
    B9C_GREEDY_BAND,
    B9D_BAND,
    C1_COPULA_BAND,
    band_text,
)

#: The bands used before this register, sized from the plan's pilot of our own stand-in: a
#: claim's reason quotes the verdict they give, once (claim id -> the old band's text).
PILOT_BANDS = {
    "A1-sat": "every code within ±3 %",
    "B5-mean": "≤ 1.15× at every λ",
    "B5-median": "≤ 1.25× at every λ",
    "B5-greedy": "≤ 1.40× at every λ",
    "B5-high": "≤ 1.30× at 0.90–0.95·C_full",
    "B6-p90": "≤ 1.30× at every λ",
    "B6-p99": "≤ 2.0× at every λ",
    "B6-vs-greedy": "p90 ≤ 0.95×, p99 ≤ 0.70× Greedy's",
    "B7-vs-greedy": "≤ 0.70× Greedy's",
    "B7-envelope": "≤ 2.0× at every λ",
    "B8-top2": "≥ 0.80 at every λ, partly ≥ 0.60",
    "B8-greedy": "≥ 0.60 at every λ",
    "B9a": "switch ≤ 2 s and mean k ≤ 1.2",
    "B9b": "within 12 % (phases 1, 3) and 15 % (phase 2)",
    "B9c": "k-std < 0.7× Greedy's and ≥ 90 % k = 1 in phase 2",
    "B9d": "TOFEC ≤ 1.2× Ideal's recovery time and Greedy ≤ Ideal's",
    "B1": "mean ±5 %, median ±6 % ((1,1)) / ±5 % ((2,1)) of the paper's",
    "B1-best": "in [70, 90] ms",
    "B2": "the paper's ratio ± 0.05",
    "B4": "≤ 0.50, 0.65, 0.55, 0.55, 0.55× (B4-mean-11, -mean-21, -median-11, -greedy-mean, "
    "-greedy-median); TOFEC's mean in [75, 95] ms",
}
#: The pilot's upper limits of the B4 ratios.
_PILOT_B4 = {"B4-mean-11": 0.50, "B4-mean-21": 0.65, "B4-median-11": 0.55,
             "B4-greedy-mean": 0.55, "B4-greedy-median": 0.55}

_RANK = {"reproduced": 0, "inconclusive": 1, "not reproduced": 2}
def _pct(x: float, digits: int = 0) -> str:
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


def _pilot_note(cid: str, ok: bool) -> str:
    """The verdict the band sized from our pilot would give, said once."""
    word = "reproduced" if ok else "not reproduced"
    return f" Under the pilot band ({PILOT_BANDS[cid]}) it would be {word}."


def _both(a: str, b: str) -> str:
    """The verdict of a claim that needs two parts: reproduced when both are, not reproduced
    when both are not, partly when one is and the other is not, else inconclusive."""
    if a == b:
        return a
    if {a, b} == {"reproduced", "not reproduced"}:
        return "partly"
    return "inconclusive"


# ---- Section 1: task-delay model ---------------------------------------------------------------

FIG5_PAPER = (0.50, 0.65, 0.80)


def c1_fig5(reductions: Mapping[str, float]) -> Claim:
    """C1 (analysis): p99 service-delay reductions with 1/2/3 extra coded chunks (SUR)."""
    values = list(reductions.values())
    return Claim(
        id="C1",
        statement="Fig. 5: p99 service delay of a 3 MB / 1 MB-chunk read falls by ~50/65/80 % "
        "with 1/2/3 extra coded chunks (all tasks started together)",
        paper_value="50 / 65 / 80 %",
        reproduced_value=" / ".join(_pct(v) for v in values),
        tolerance="reported, not judged",
        verdict="not checkable",
        reason="The paper measured these on S3 traces that are not public; the surrogate SUR was "
        "calibrated to other numbers (light-load delays and capacity ratios), so its "
        f"{' / '.join(_pct(v) for v in values)} reduction says how SUR's tail compares, not "
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


# ---- Section 2: MDS codes ----------------------------------------------------------------------


def mds_strip_batching(batched: Mapping[str, bool], strips_exact: bool, trials: int) -> Claim:
    """MDS (invariant): one (12,6) strip code read as chunk codes by strip batching.

    ``batched``: ``{"(n,k)": every k-subset of chunks decoded exactly}``; ``strips_exact``:
    ``trials`` random 6-subsets of the 12 strips themselves decoded exactly.
    """
    results = {**batched, f"(12,6) strips, {trials} random subsets": strips_exact}
    failed = [name for name, ok in results.items() if not ok]
    return Claim(
        id="MDS",
        statement="One (12,6) Reed–Solomon code over 0.5 MB strips serves every chunk size: "
        "batched 6, 3 or 2 strips per chunk it is a (2,1), (4,2) or (6,3) code whose every "
        "k-subset of chunks rebuilds the 3 MB object exactly",
        paper_value="MDS property (Fig. 3)",
        reproduced_value=f"{len(results) - len(failed)} of {len(results)} codes exact",
        tolerance="byte-exact for every subset",
        verdict=verdict_of(not failed),
        reason=(
            f"Every k-subset of chunks of the batched codes {', '.join(batched)} and {trials} "
            "random 6-subsets of the strips decoded to the original bytes."
            if not failed
            else f"Decoding failed for {', '.join(failed)}: strip batching does not keep the MDS "
            "property in this implementation."
        ),
        role="invariant",
        values={"exact": results},
    )


# ---- Section 3: analysis -----------------------------------------------------------------------

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
        reproduced_value=f"max |error| {_pct(error, 2)}",
        tolerance=f"max |error| <= {_pct(FORMULA_TOLERANCE, 0)}",
        verdict=verdict_of(ok),
        reason=f"Largest relative gap between the Monte-Carlo {what} and the closed form over the "
        f"27 codes: {_pct(error, 2)}" + ("." if ok else "; the sampler or the formula is wrong."),
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


# ---- Section 4: static capacities --------------------------------------------------------------


def a1_sat_capacity(seed_ratios: Mapping[tuple[int, int], list[float]], n_threads: int) -> Claim:
    """A1-sat (test): simulated saturated capacity of each code over L / E[U] (Eq. 4), one ratio
    per seed; judged at every code, the worst deciding.

    The reason separates codes whose n divides L from the others.
    """
    band = A1_SAT_BAND
    code, u, table = worst_case(band, seed_ratios, "simulated / predicted capacity")
    verdict = judged(band, u)
    errors = {c: abs(t["mean"] - 1) for c, t in table.items()}
    worst = max(errors, key=errors.get)
    divides = [c for c in errors if n_threads % c[0] == 0]
    max_div = max((errors[c] for c in divides), default=math.nan)
    reason = (
        f"Saturated throughput of the 27 codes against L / E[U] (E[U] by Monte Carlo with "
        f"simultaneous start): largest gap {_pct(errors[worst], 1)} at {worst}; the deciding "
        f"code {code} at {ci_text(u, '{:.3f}')}×."
    )
    if n_threads % worst[0]:
        reason += (
            f" Where n does not divide L = {n_threads} a saturated request's tasks start one by "
            "one as threads free up, so its late tasks are interrupted sooner than with the "
            f"simultaneous start Eq. (4) assumes; where n divides L the largest gap is "
            f"{_pct(max_div, 1)} (Section 4, capacity table)."
        )
    reason += _pilot_note("A1-sat", errors[worst] <= 0.03)
    return Claim(
        id="A1-sat",
        statement="Eq. (4): the simulated saturated capacity of every static code is L / E[U] "
        "(SUR)",
        paper_value="C ≈ L / E[U]",
        reproduced_value=f"max |error| {_pct(errors[worst], 1)} at {worst}",
        tolerance=band_text(band, "{:.3f}") + " for every code",
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={
            "max_abs_error": errors[worst],
            "worst_code": list(worst),
            "deciding_code": list(code),
            "max_error_n_divides_L": max_div,
        },
    )


B2_STATEMENTS = {
    "B2-21": "C(2,1)/C(1,1): replication keeps ~70 % of basic's capacity",
    "B2-66": "C(6,6)/C(1,1): the best k = 6 code loses almost 60 % of capacity",
}
_CALIBRATED = "SUR was calibrated to this ratio, so it shows the surrogate, not the paper"


def b2_ratio(id: str, ratio: float) -> Claim:
    """B2-21, B2-66 (calibration): simulated capacity ratio to (1,1), ≈ the paper's."""
    statement, target = B2_STATEMENTS[id], B2_TARGETS[id]
    band = B2_BAND
    ok = band.contains(ratio / target)
    return Claim(
        id=id,
        statement=statement,
        paper_value=target,
        reproduced_value=f"{ratio:.3f} of C(1,1) ({ratio / target:.3f}× the paper's)",
        tolerance=band_text(band, "{:.2f}") + " of the paper's ratio",
        verdict=verdict_of(ok),
        reason=f"Simulated saturated throughput ratio {ratio:.3f}; {_CALIBRATED}"
        + ("." if ok else "; outside the band, the calibration has drifted.")
        + _pilot_note("B2", abs(ratio - target) <= 0.05),
        role="calibration",
        band=band.source,
        values={"ratio": ratio, "target": target},
    )


def b2_126_ratio(ratio: float) -> Claim:
    band = B2_126_BAND
    ok = band.contains(ratio)
    return Claim(
        id="B2-126",
        statement="The latency-optimal static code (12,6) supports under a third of basic's "
        "capacity (TOFEC 'over 3×' its requests)",
        paper_value="<= 0.333",
        reproduced_value=f"{ratio:.3f} of C(1,1)",
        tolerance=band_text(band, "{:.3f}"),
        verdict=verdict_of(ok),
        reason=f"Simulated C(12,6)/C(1,1) = {ratio:.3f}; the surrogate's per-task overhead was "
        "calibrated to the paper's capacity ratios"
        + ("." if ok else ", yet (12,6) keeps more than a third: the calibration has drifted."),
        role="calibration",
        band=band.source,
        values={"ratio": ratio},
    )


# ---- Section 5: delay vs arrival rate ----------------------------------------------------------

def b1_code(code: str, means, medians) -> Claim:
    """B1-(1,1), B1-(2,1) (calibration): light-load (λ = 2) mean and median of a static code,
    one value per seed, each ≈ the paper's."""
    m_ref, med_ref = B1_PAPER[code]
    band = B1_BAND
    u_mean = interval(np.asarray(means) / m_ref, of="mean / the paper's")
    u_med = interval(np.asarray(medians) / med_ref, of="median / the paper's")
    verdict = _both(judged(band, u_mean), judged(band, u_med))
    ok = verdict == "reproduced"
    u = max((u_mean, u_med), key=lambda x: abs(math.log(x["mean"])))
    mean, median = u_mean["mean"] * m_ref, u_med["mean"] * med_ref
    return Claim(
        id=f"B1-{code}",
        statement=f"Light load (λ = 2 req/s): {code} mean {m_ref:g} ms, median {med_ref:g} ms",
        paper_value=f"{m_ref:g} / {med_ref:g} ms",
        reproduced_value=f"{mean:.1f} / {median:.1f} ms",
        tolerance=band_text(band, "{:.2f}") + " of the paper's mean and median",
        verdict=verdict,
        reason=f"Mean {ci_text(u_mean, '{:.3f}')}×, median {ci_text(u_med, '{:.3f}')}× the "
        "paper's; SUR was calibrated to these delays"
        + ("." if ok else ", so a miss means the calibration has drifted.")
        + _pilot_note("B1", abs(u_mean["mean"] - 1) <= 0.05
                      and abs(u_med["mean"] - 1) <= (0.06 if code == "(1,1)" else 0.05)),
        role="calibration",
        band=band.source,
        uncertainty=u,
        values={"mean_ms": mean, "median_ms": median},
    )


def b1_best(values, code: str) -> Claim:
    """B1-best (calibration): the best static code's light-load mean, per seed."""
    band = B1_BEST_BAND
    u = interval(np.asarray(values) / B1_BEST_PAPER, of="best static mean / 84 ms")
    verdict = judged(band, u)
    mean = u["mean"] * B1_BEST_PAPER
    return Claim(
        id="B1-best",
        statement="Best static light-load (λ = 2 req/s) mean delay ≈ 84 ms",
        paper_value="≈ 84 ms",
        reproduced_value=f"{mean:.1f} ms with {code}",
        tolerance=band_text(band, "{:.2f}") + " of 84 ms",
        verdict=verdict,
        reason=f"The best stable static code at λ = 2 is {code} with {mean:.1f} ms "
        f"({ci_text(u, '{:.3f}')}× 84 ms); SUR's chunk-size dependence was calibrated to the "
        "paper's light-load delays"
        + ("." if verdict == "reproduced" else ", so a miss means the calibration has drifted.")
        + _pilot_note("B1-best", 70.0 <= mean <= 90.0),
        role="calibration",
        band=band.source,
        uncertainty=u,
        values={"mean_ms": mean, "code": code},
    )


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


def b4_ratio(id: str, text: str, ratios, paper: float) -> Claim:
    """B4-* (calibration): a light-load (λ = 5) delay ratio, one per seed, ≈ the paper's. SUR
    was calibrated to the paper's light-load delays of (1,1), (2,1) and TOFEC (84 / 74 ms),
    so the ratio echoes the calibration."""
    band = B4_BAND
    u = interval(np.asarray(ratios) / paper, of="ratio / the paper's")
    verdict = judged(band, u)
    value = u["mean"] * paper
    return Claim(
        id=id,
        statement=f"Light load (λ = 5 req/s): {text}",
        paper_value=paper,
        reproduced_value=f"{value:.3f}×",
        tolerance=band_text(band, "{:.2f}") + " of the paper's ratio",
        verdict=verdict,
        reason=f"Measured ratio {value:.3f} ({ci_text(u, '{:.3f}')}× the paper's {paper:g}). "
        "SUR was calibrated to the paper's light-load delays, TOFEC's 84 / 74 ms among them, so "
        "this shows the calibration, not the paper's gain."
        + (_pilot_note("B4", value <= _PILOT_B4[id]) if id in _PILOT_B4 else ""),
        role="calibration",
        requires=REQUIRES.get(id, ()),
        band=band.source,
        uncertainty=u,
        values={"ratio": value, "paper": paper},
    )


def b4_abs(means) -> Claim:
    """B4-abs (calibration): TOFEC's light-load mean, per seed, ≈ the paper's 84 ms."""
    band = B4_BAND
    u = interval(np.asarray(means) / B1_BEST_PAPER, of="TOFEC's mean / 84 ms")
    verdict = judged(band, u)
    mean = u["mean"] * B1_BEST_PAPER
    return Claim(
        id="B4-abs",
        statement="TOFEC's light-load (λ = 5 req/s) mean delay is 84 ms",
        paper_value="84 ms",
        reproduced_value=f"{mean:.1f} ms",
        tolerance=band_text(band, "{:.2f}") + " of 84 ms",
        verdict=verdict,
        reason=f"TOFEC's mean delay at λ = 5 req/s: {mean:.1f} ms ({ci_text(u, '{:.3f}')}× 84 "
        "ms); SUR was calibrated to it." + _pilot_note("B4", 75.0 <= mean <= 95.0),
        role="calibration",
        requires=REQUIRES["B4-abs"],
        band=band.source,
        uncertainty=u,
        values={"mean_ms": mean},
    )


ENVELOPE_BANDS = {
    "B5-mean": B5_BAND,
    "B5-median": B5_BAND,
    "B5-greedy": B5_BAND,
    "B5-high": B5_BAND,
    "B6-p90": B6_BAND,
    "B6-p99": B6_BAND,
    "B7-envelope": B7_ENVELOPE_BAND,
}
#: The pilot bands' upper limits, to say once what they would have given.
_PILOT_LIMITS = {
    "B5-mean": 1.15, "B5-median": 1.25, "B5-greedy": 1.40, "B5-high": 1.30,
    "B6-p90": 1.30, "B6-p99": 2.0, "B7-envelope": 2.0,
}  # fmt: skip


def b5_envelope(
    id: str,
    text: str,
    seed_ratios: Mapping[float, list[float]],
    context: Mapping[float, Mapping] | None = None,
) -> Claim:
    """B5-*, B6-p90/p99, B7-envelope (test): a policy's metric over the best static code's, per
    λ and seed (common random numbers), judged at every λ; the worst λ decides.

    ``context[λ]`` may give ``best_code`` (for this metric), ``best_mean_code``, ``k_off`` and
    ``k_above`` (shares of the policy's requests with another k than the best code's, and with
    a larger one: codes meant for a lighter load), ``measured_q`` and ``model_q`` (E[Q] of
    (1,1) measured and by Eq. (11)), to name the cause of a miss.
    """
    band = ENVELOPE_BANDS[id]
    at, u, table = worst_case(band, seed_ratios, "ratio to the best static code")
    verdict = judged(band, u)
    means = {r: t["mean"] for r, t in table.items()}
    top = max(means, key=means.get)
    reason = (
        f"Ratio to the best static code, per seed: deciding λ = {at:g} req/s at "
        f"{ci_text(u, '{:.3f}')}; "
        f"largest mean {means[top]:.3f} at λ = {top:g}."
    )
    ctx = (context or {}).get(at)
    if verdict != "reproduced" and ctx and u["mean"] > 1:
        best, best_mean = ctx["best_code"], ctx.get("best_mean_code", ctx["best_code"])
        reason += (
            f" There the best static code is {best}; {_pct(ctx['k_off'])} of the requests use "
            f"another k, {_pct(ctx['k_above'])} a larger one (Fig. 10)"
        )
        lighter = ctx["k_above"] >= ctx["k_off"] / 2
        model_q, measured_q = ctx.get("model_q", 0.0), ctx.get("measured_q", math.inf)
        if best != best_mean:
            reason += (
                f". TOFEC's thresholds aim at the mean delay, whose best code here is "
                f"{best_mean}, not this metric's {best} (Section 5 envelope)."
            )
        elif lighter and model_q >= 1.0 and model_q > 1.5 * measured_q:
            reason += (
                f". Section 9 shows why TOFEC picks codes meant for a lighter load: the M/M/1 "
                f"backlog model (Eq. 11) behind its thresholds expects E[Q] = {model_q:.2f} at "
                f"this load where (1,1) measures {measured_q:.2f}."
            )
        elif lighter:
            reason += ": codes meant for a lighter load."
        else:
            reason += ": mostly smaller k, codes meant for a heavier load."
    elif verdict != "reproduced" and u["mean"] < 1:
        reason += " The policy beats the best static code there by more than the band."
    elif verdict != "reproduced":
        reason += " Section 5's ratio table shows it per λ."
    if id in _PILOT_LIMITS:
        reason += _pilot_note(id, max(means.values()) <= _PILOT_LIMITS[id])
    return Claim(
        id=id,
        statement=text + " — ratio to the best static code at every λ",
        paper_value="≈ 1 (almost optimal)",
        reproduced_value=f"{u['mean']:.3f}× at λ = {at:g} req/s (max {means[top]:.3f}×)",
        tolerance=band_text(band, "{:.2f}") + " at every λ",
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={"deciding_rate": at, "max_ratio": means[top], "at_rate": top,
                "by_rate": {f"{r:g}": t for r, t in table.items()}},
    )


def b5_strict(value: float, limit: float = 1.05) -> Claim:
    """B5-strict (analysis): the plan's paper-strict level, reported."""
    return Claim(
        id="B5-strict",
        statement="Paper-strict level: TOFEC's mean and median within 5 % of the best static "
        "code everywhere",
        paper_value=f"<= {limit:g}",
        reproduced_value=f"{value:.3f}×",
        tolerance="reported, not judged",
        verdict="not checkable",
        reason=f"Largest mean or median ratio to the best static code: {value:.3f}. 'Almost "
        "optimal' is judged in B5-mean and B5-median; this level is the plan's, not the paper's.",
        role="analysis",
        kind="report",
        values={"max_ratio": value},
    )


def b6_vs_greedy(p90: Mapping[float, list[float]], p99: Mapping[float, list[float]]) -> Claim:
    """B6-vs-greedy (test): TOFEC/Greedy at p90 and p99 per λ in 5–30 req/s and seed: TOFEC
    significantly better everywhere, the worst λ and percentile deciding."""
    band = B6_VS_GREEDY_BAND
    samples = {(m, r): xs for m, d in (("p90", p90), ("p99", p99)) for r, xs in d.items()}
    (metric, at), u, table = worst_case(band, samples, "TOFEC / Greedy")
    verdict = judged(band, u)
    worst = {m: max(t["mean"] for (mm, _), t in table.items() if mm == m) for m in ("p90", "p99")}
    reason = (
        f"Largest TOFEC/Greedy ratio over λ = 5–30 req/s: p90 {worst['p90']:.3f}, p99 "
        f"{worst['p99']:.3f}; deciding {metric} at λ = {at:g}: {ci_text(u, '{:.3f}')}."
    )
    if verdict != "reproduced":
        reason += " TOFEC's tail is not significantly better than Greedy's there (Section 5)."
    reason += _pilot_note("B6-vs-greedy", worst["p90"] <= 0.95 and worst["p99"] <= 0.70)
    return Claim(
        id="B6-vs-greedy",
        statement="TOFEC beats Greedy significantly at p90 and p99 at light–medium load "
        "(λ = 5–30 req/s)",
        paper_value="over X and Y better (stripped)",
        reproduced_value=f"p90 {worst['p90']:.3f}×, p99 {worst['p99']:.3f}× Greedy (max)",
        tolerance=band_text(band, "{:.3f}") + " at every λ, p90 and p99",
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={"p90_ratio": worst["p90"], "p99_ratio": worst["p99"]},
    )


def b7_vs_greedy(seed_ratios: Mapping[float, list[float]]) -> Claim:
    """B7-vs-greedy (test): TOFEC's delay STD over Greedy's per λ in 5–40 req/s and seed."""
    band = B7_VS_GREEDY_BAND
    at, u, table = worst_case(band, seed_ratios, "TOFEC STD / Greedy STD")
    verdict = judged(band, u)
    top = max(t["mean"] for t in table.values())
    return Claim(
        id="B7-vs-greedy",
        statement="TOFEC's delay STD is much lower than Greedy's at light–medium load "
        "(λ = 5–40 req/s)",
        paper_value="X–Y× lower (stripped)",
        reproduced_value=f"{top:.3f}× Greedy's at most",
        tolerance=band_text(band, "{:.3f}") + " at every λ",
        verdict=verdict,
        reason=f"TOFEC/Greedy STD ratio, deciding λ = {at:g} req/s: {ci_text(u, '{:.3f}')}"
        + ("." if verdict == "reproduced"
           else "; TOFEC's code choice is not steadier than Greedy's here (Fig. 9).")
        + _pilot_note("B7-vs-greedy", top <= 0.70),
        band=band.source,
        uncertainty=u,
        values={"max_ratio": top, "deciding_rate": at},
    )


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
        f"{_pct(low)} of its requests; deciding λ = {at:g} req/s at {ci_text(u, '{:.3f}')}."
    )
    if verdict != "reproduced":
        reason += (
            " The moving average of the backlog still follows the queue's fluctuations at this "
            "memory, spreading the choice over three or more k; the α table of Section 8 shows "
            "the share grow with α."
        )
    old = "reproduced" if low >= 0.80 else "partly" if low >= 0.60 else "not reproduced"
    reason += f" Under the pilot band ({PILOT_BANDS['B8-top2']}) it would be {old}."
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
        reproduced_value=f"min {_pct(low)} with k ∈ {{1, 6}}",
        tolerance=band_text(band) + " at every λ",
        verdict=verdict,
        reason=f"At every λ at least {_pct(low)} of Greedy's requests use k = 1 or 6; deciding "
        f"λ = {at:g} at {ci_text(u, '{:.3f}')}"
        + ("." if verdict == "reproduced" else "; Greedy spreads over middle k here (Fig. 10).")
        + _pilot_note("B8-greedy", low >= 0.60),
        band=band.source,
        uncertainty=u,
        values={"min_share": low, "deciding_rate": at},
    )


# ---- Section 6: capacity -----------------------------------------------------------------------

SATURATED_TOLERANCE = 0.03  # the plan's check; it holds by construction (invariant)


def b3_saturated(policy: str, throughput: float, c_full: float) -> Claim:
    """B3-sat-* (invariant): at 1.2·C_full the adaptive policy serves (1,1)'s capacity: at a
    large backlog both rules pick (1,1) by construction."""
    err = throughput / c_full - 1
    ok = abs(err) <= SATURATED_TOLERANCE
    return Claim(
        id=f"B3-sat-{policy}",
        statement=f"{policy} keeps the full capacity of basic (1,1): saturated throughput at "
        "1.2·C_full",
        paper_value="= C_full",
        reproduced_value=f"{throughput:.1f} req/s ({err * 100:+.1f} % of C_full)",
        tolerance=f"±{SATURATED_TOLERANCE * 100:g} % relative",
        verdict=verdict_of(ok),
        reason=f"Saturated throughput {throughput:.1f} req/s against C_full = {c_full:.1f}; with "
        "a long queue (TOFEC) or no idle thread (Greedy) the rule picks (1,1), so this holds by "
        "construction"
        + ("." if ok else ", yet it failed: the policy does not fall back to (1,1)."),
        role="invariant",
        values={"throughput": throughput, "c_full": c_full, "relative_error": err},
    )


def b3_stable(policy: str, rate: float, seed_ratios, seed_trends) -> Claim:
    """B3-0.95-* (test): stable at 0.95·C_full — throughput / arrival rate per seed within the
    band, and no upward delay trend in any seed."""
    band = B3_STABLE_BAND
    u = interval(seed_ratios, of="throughput / arrival rate")
    trend = float(np.mean(seed_trends))
    verdict = judged(band, u) if trend == 0 else "not reproduced"
    reason = (
        f"At λ = {rate:g} req/s throughput / arrival rate = {ci_text(u, '{:.4f}')}; the last "
        f"fifth's mean delay exceeds twice the first fifth's in {_pct(trend)} of seeds."
    )
    if verdict != "reproduced":
        reason += " The queue grows: the policy loses capacity near saturation (Section 6)."
    return Claim(
        id=f"B3-0.95-{policy}",
        statement=f"{policy} is stable at λ = 0.95·C_full: throughput = arrival rate, no upward "
        "trend",
        paper_value="stable",
        reproduced_value=f"|throughput/rate − 1| = {_pct(abs(u['mean'] - 1), 2)}, trend in "
        f"{_pct(trend)} of seeds",
        tolerance=band_text(band) + "; no trend in any seed",
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={"rate": rate, "throughput_gap": abs(u["mean"] - 1), "trend_fraction": trend},
    )


def b3_21_replication(offered: float, throughput_ratio: float, trend_frac: float) -> Claim:
    """B3-21 (calibration): replication (2,1) offered :data:`B3_21_FRACTION`·C_full cannot
    keep up: it follows from the capacity ratio C(2,1)/C(1,1) that SUR was calibrated to
    (B2-21). Unstable when its throughput falls short of the arrivals by over 1 % or its delay
    trends up in most seeds."""
    band = B3_21_BAND
    unstable = band.contains(throughput_ratio) or trend_frac > 0.5
    reason = (
        f"Offered {offered:.1f} req/s ({B3_21_FRACTION:g}·C_full), (2,1) serves "
        f"{_pct(throughput_ratio, 1)} of the arrivals; delay trends up in {_pct(trend_frac)} of "
        "seeds. It follows from the calibrated C(2,1)/C(1,1) (B2-21)."
    )
    if not unstable:
        reason += " It keeps up: replication supports more than the paper's 70 % here."
    return Claim(
        id="B3-21",
        statement=f"Replication (2,1) fails beyond 70 % of basic's capacity: unstable at "
        f"{B3_21_FRACTION:g}·C_full",
        paper_value="unstable beyond 0.70·C_full",
        reproduced_value=f"throughput {_pct(throughput_ratio, 1)} of arrivals at "
        f"{B3_21_FRACTION:g}·C_full",
        tolerance=band_text(band) + " of the arrivals, or an upward trend in most seeds",
        verdict=verdict_of(unstable),
        reason=reason,
        role="calibration",
        requires=REQUIRES["B3-21"],
        band=band.source,
        values={"offered": offered, "throughput_ratio": throughput_ratio, "trend": trend_frac},
    )


def b2_fixedk(ratio: float, alpha: float) -> Claim:
    """B2-fixedk (calibration): [3]'s fixed-k strategy supports < 30 % of basic's capacity. It
    settles on (6,6) at saturation, whose ratio SUR was calibrated to (B2-66)."""
    band = B2_FIXEDK_BAND
    ok = band.contains(ratio)
    reason = (
        f"[3]'s k = 6 strategy (α = {alpha:g}) saturates at {ratio:.3f}·C_full; it settles on "
        "(6,6) at saturation, whose capacity ratio SUR was calibrated to (B2-66)."
    )
    if not ok:
        reason += (
            f" The paper's '< 30 %' is lower than its own 'almost 60 % loss' for k = 6 implies "
            "(Section 4). Under the plan's resolution (≤ 0.45 accepted, partly) it would be "
            f"{'partly' if ratio <= 0.45 else 'not reproduced'}."
        )
    return Claim(
        id="B2-fixedk",
        statement="The fixed-k (k = 6) adaptive strategy of [3] supports under 30 % of basic's "
        "capacity",
        paper_value="< 0.3",
        reproduced_value=f"{ratio:.3f} of C_full",
        tolerance=band_text(band),
        verdict=verdict_of(ok),
        reason=reason,
        role="calibration",
        requires=REQUIRES["B2-fixedk"],
        band=band.source,
        values={"ratio": ratio, "alpha": alpha},
    )


# ---- Section 7: changing workload --------------------------------------------------------------


def _load(pattern: str) -> str:
    return f"phase 2 at {pattern}"


def b9a_surge(surge_k, switch_s, alpha: float, pattern: str) -> Claim:
    """B9a (test): TOFEC's mean k over the surge [202, 400) s, per seed, ≈ the optimal 1."""
    band = B9A_BAND
    u = interval(surge_k, of="TOFEC's mean k over the surge")
    verdict = judged(band, u)
    switch = float(np.mean(switch_s))
    reason = (
        f"With α = {alpha:g} and {_load(pattern)}, TOFEC's mean k over [202, 400) s is "
        f"{ci_text(u, '{:.3f}')}; it reaches >= 90 % k = 1 {switch:.2f} s after the surge (mean "
        "over seeds)."
    )
    if verdict != "reproduced":
        reason += " The moving average lags the sudden backlog (Fig. 11(b))."
    reason += _pilot_note("B9a", switch <= 2.0 and u["mean"] <= 1.2)
    return Claim(
        id="B9a",
        statement="Surge: TOFEC switches to k = 1 at once",
        paper_value="especially responsive",
        reproduced_value=f"mean k {u['mean']:.3f}, switch {switch:.2f} s",
        tolerance=band_text(band, "{:.2f}") + " (mean k over the surge / the optimal 1)",
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={"switch_s": switch, "surge_mean_k": u["mean"]},
    )


def b9b_phases(
    seed_ratios: Mapping[str, list[float]], ideal: str, pattern: str,
    recovery_s: float | None = None,
) -> Claim:
    """B9b (test): TOFEC's per-phase mean delay over Ideal's, per seed and phase (``{"phase 1":
    [...], ...}``), judged in every phase.

    ``recovery_s`` (TOFEC's recovery time after the drop) names the cause when phase 3 misses:
    phase 3's mean skips only its first 20 s.
    """
    band = B9B_BAND
    worst, u, table = worst_case(band, seed_ratios, f"TOFEC / {ideal} mean delay")
    verdict = judged(band, u)
    gaps = {p: t["mean"] - 1 for p, t in table.items()}
    reason = (
        f"TOFEC's mean delay over {ideal}'s ({_load(pattern)}): "
        + ", ".join(f"{p} {g * 100:+.1f} %" for p, g in gaps.items())
        + f"; deciding {worst} at {ci_text(u, '{:.3f}')}."
    )
    if verdict != "reproduced" and u["mean"] < 1:
        reason += (
            f" TOFEC is far better than {ideal} in {worst}: {ideal} drains the phase-2 backlog "
            "slowly after the drop (B9d), which phase 3's mean (only its first 20 s skipped) "
            "still holds."
        )
    elif verdict != "reproduced":
        if worst == "phase 3" and recovery_s is not None and recovery_s > 20.0:
            reason += (
                " TOFEC's recovery after the drop "
                f"({recovery_s:.0f} s) reaches past the 20 s that phase 3's mean skips "
                "(Section 8, recovery by α)."
            )
        else:
            reason += (
                " At this memory TOFEC's code choice spreads over more k than the oracle's "
                "single code (top-2 share by α, Section 8)."
            )
    g13 = max(abs(gaps.get("phase 1", 0)), abs(gaps.get("phase 3", 0)))
    reason += _pilot_note("B9b", g13 <= 0.12 and abs(gaps.get("phase 2", 0)) <= 0.15)
    return Claim(
        id="B9b",
        statement="TOFEC's per-phase mean delay is comparable to Ideal's",
        paper_value="comparable",
        reproduced_value=", ".join(f"{p} {g * 100:+.1f} %" for p, g in gaps.items()),
        tolerance=band_text(band, "{:.2f}") + " in every phase",
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={"gaps": gaps, "deciding_phase": worst},
    )


def b9c_stability(seed_ratios, phase2_k1: float, alpha: float, pattern: str) -> Claim:
    """B9c (test): TOFEC's within-phase std of k over Greedy's (phases 1 and 3), per seed."""
    band = B9C_BAND
    u = interval(seed_ratios, of="TOFEC k-std / Greedy k-std (phases 1, 3)")
    verdict = judged(band, u)
    reason = (
        f"With α = {alpha:g} the std of TOFEC's k within phases 1 and 3 is {ci_text(u, '{:.3f}')}× "
        f"Greedy's; {_pct(phase2_k1, 1)} of its phase-2 requests use k = 1 ({_load(pattern)})."
    )
    if verdict != "reproduced":
        reason += " TOFEC's code choice moves with the queue's fluctuations (Fig. 11(b))."
    reason += _pilot_note("B9c", u["mean"] < 0.7 and phase2_k1 >= 0.90)
    return Claim(
        id="B9c",
        statement="TOFEC's code choice is stable within phases; Greedy's oscillates",
        paper_value="little variation",
        reproduced_value=f"k-std {u['mean']:.2f}× Greedy's; {_pct(phase2_k1, 1)} k = 1 in "
        "phase 2",
        tolerance=band_text(band, "{:.3f}"),
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={"k_std_ratio": u["mean"], "phase2_k1": phase2_k1},
    )


def b9c_greedy(shares, pattern: str) -> Claim:
    """B9c-greedy (test): Greedy's share of phase-2 requests with k >= 4, per seed (percent)."""
    band = B9C_GREEDY_BAND
    u = interval(100 * np.asarray(shares, dtype=float), of="Greedy's phase-2 share with k >= 4 (%)")
    verdict = judged(band, u)
    top = 100 * float(np.max(shares))
    reason = (
        f"{u['mean']:.2f} % of Greedy's phase-2 requests use k >= 4 ({_load(pattern)}; "
        f"{ci_text(u, '{:.2f}')} %, largest seed {top:.2f} %)."
    )
    if verdict != "reproduced":
        reason += (
            " Near capacity Greedy rarely finds several idle threads, so it cannot oscillate "
            "to k = 6; the paper's phase 2 was probably further below its capacity, which its "
            "stripped text does not say."
        )
    return Claim(
        id="B9c-greedy",
        statement="Greedy keeps oscillating between k = 1 and k = 6 in phase 2",
        paper_value="oscillates",
        reproduced_value=f"{u['mean']:.2f} % of phase-2 requests with k >= 4",
        tolerance=band_text(band),
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u,
        values={"share_pct": u["mean"], "largest_seed_pct": top},
    )


def _recovery_text(seconds: float) -> str:
    """A mean recovery time; undefined (nan) when some replicate never recovers in phase 3."""
    if math.isfinite(seconds):
        return f"{seconds:.1f} s"
    return "no recovery by the end of phase 3 on some replicate"


def b9d_recovery(tofec_minus, greedy_minus, means: Mapping[str, float], alpha: float,
                 decision_point: str, pattern: str) -> Claim:
    """B9d (test): after the drop, TOFEC and Greedy reach optimal delay faster than Ideal:
    recovery time minus Ideal's on the same streams, per seed, negative for each; partly when
    only one is.

    ``means``: the mean recovery times (s) of TOFEC, Greedy and Ideal, for the reason.
    """
    band = B9D_BAND
    u_t = interval(tofec_minus, of="TOFEC − Ideal recovery time (s)")
    u_g = interval(greedy_minus, of="Greedy − Ideal recovery time (s)")
    v_t, v_g = judged(band, u_t), judged(band, u_g)
    verdict = _both(v_t, v_g)
    how = "the head of the line" if decision_point == "head_of_line" else "arrival"
    took = {who: _recovery_text(x) for who, x in means.items()}

    def gap(u: dict) -> str:
        return ci_text(u, "{:+.2f}", unit=" s")

    reason = (
        f"Recovery after the drop ({_load(pattern)}): TOFEC {took['TOFEC']} (α = "
        f"{alpha:g}), Greedy {took['Greedy']}, Ideal {took['Ideal']} with its code "
        f"fixed at {how}. TOFEC − Ideal {gap(u_t)} ({v_t}); Greedy − Ideal {gap(u_g)} ({v_g})."
    )
    if verdict != "reproduced":
        slow = [p for p, v in (("TOFEC", v_t), ("Greedy", v_g)) if v != "reproduced"]
        if decision_point == "arrival":
            reason += (
                f" {' and '.join(slow)} not shown faster: an Ideal that fixes each request's "
                "code on arrival drains the phase-2 backlog with (1,1) at full capacity, which "
                "the paper's 'if k is set to 5 right after the rate drops' does not describe "
                "(Section 7, both Ideals)."
            )
        elif pattern != "1.03·C_full":
            reason += (
                f" {' and '.join(slow)} not shown faster: below capacity the phase-2 backlog is "
                "short and every policy recovers within seconds, so Ideal's slow drain, the "
                "paper's explanation, hardly arises."
            )
        else:
            reason += (
                f" {' and '.join(slow)} not shown faster: its moving average holds a high "
                "backlog estimate for tens of arrivals after the drop (Section 8, recovery by α)."
            )
    old = means["TOFEC"] <= 1.2 * means["Ideal"] and means["Greedy"] <= means["Ideal"]
    reason += _pilot_note("B9d", old)
    return Claim(
        id="B9d",
        statement="After the load drop TOFEC and Greedy reduce their delay to optimal faster "
        "than Ideal",
        paper_value="almost X× faster (X stripped)",
        reproduced_value=f"TOFEC {took['TOFEC']}, Greedy {took['Greedy']}, Ideal {took['Ideal']}",
        tolerance=band_text(band) + " for TOFEC − Ideal and for Greedy − Ideal (partly: one of "
        "the two)",
        verdict=verdict,
        reason=reason,
        band=band.source,
        uncertainty=u_t,
        values={"tofec_s": means["TOFEC"], "greedy_s": means["Greedy"], "ideal_s": means["Ideal"],
                "tofec_minus_ideal": u_t, "greedy_minus_ideal": u_g},
    )


# ---- Sections 8-10: ablations, backlog model, simulator checks ---------------------------------


def c2_alpha(table: pd.DataFrame) -> Claim:
    """C2 (analysis): α sweep and threshold rule; ``table`` rows are variants with columns
    ``gap`` (max mean ratio to the envelope) and ``top2`` (min top-2 share)."""
    text = "; ".join(f"{v}: gap {r.gap:.2f}, top-2 {r.top2:.2f}" for v, r in table.iterrows())
    return Claim(
        id="C2",
        statement="α sweep and threshold-rule ablation (envelope gap, top-2 share, recovery)",
        paper_value="α stripped",
        reproduced_value=text,
        tolerance="reported, not judged",
        verdict="not checkable",
        reason="A larger α concentrates TOFEC's code choice (top-2 share) and slows its recovery "
        "after a drop; the paper's value was lost, so the sweep is reported (Section 8).",
        role="analysis",
        kind="report",
        values={"table": table.to_dict(orient="index")},
    )


def c3_backlog(table: pd.DataFrame) -> Claim:
    """C3 (analysis): measured E[Q] of (1,1) vs Eq. (11); ``table`` has columns measured, model
    in that order."""
    text = "; ".join(f"λ={r:g}: {a:.2f} vs {b:.2f}" for r, (a, b) in table.iterrows())
    return Claim(
        id="C3",
        statement="Measured E[Q] of (1,1) vs the M/M/1 backlog model (Eq. 11)",
        paper_value="approximation",
        reproduced_value=text,
        tolerance="reported, not judged",
        verdict="not checkable",
        reason="The L-thread system pools its servers, so its request queue is shorter than the "
        "M/M/1 model predicts at the same load; TOFEC's thresholds inherit the bias.",
        role="analysis",
        kind="report",
        values={"table": table.to_dict(orient="index")},
    )


def a6_semantics(requests: int, busy_vs_cost: float, tolerance: float = 1e-9) -> Claim:
    ok = busy_vs_cost <= tolerance
    return Claim(
        id="A6",
        statement="Queue semantics hold on every event (simpy store; TOFEC, Greedy and the "
        "head-of-line Ideal at 60 req/s); thread busy time = Σ request costs",
        paper_value="FIFO queues; a request's other tasks cancelled at its k-th completion",
        reproduced_value=f"{requests} requests, busy time vs cost {busy_vs_cost:.1e}",
        tolerance=f"no violation; relative gap <= {tolerance:g}",
        verdict=verdict_of(ok),
        reason=f"The A6 invariants were checked after every event of {requests} requests (a "
        f"violation raises); busy time and summed cost differ by {busy_vs_cost:.1e}"
        + ("." if ok else ": thread time is lost or double-counted."),
        role="invariant",
        values={"requests": requests, "busy_vs_cost": busy_vs_cost},
    )


def kernel_identity(max_difference: float) -> Claim:
    ok = max_difference == 0.0
    return Claim(
        id="KERNEL",
        statement="The numba kernel gives every request the simpy model's code, times and cost "
        "(TOFEC, Greedy, head-of-line Ideal)",
        paper_value=0.0,
        reproduced_value=f"max difference {max_difference:.2g}",
        tolerance="identical (0)",
        verdict=verdict_of(ok),
        reason="Every request's code, times and cost agree exactly between the kernel and the "
        "simpy store on the same random streams"
        + ("." if ok else f"; they differ by up to {max_difference:.2g}: the kernel is wrong."),
        role="invariant",
        values={"max_difference": max_difference},
    )
