"""Claim rules of notebook 05 (TOFEC): one function per claim id, each returning a
:class:`storrepro.claims.Claim` judged on a band fixed in advance (:data:`TOLERANCES`).

Roles. The task-delay surrogate SUR was calibrated to the paper's light-load delays of (1,1)
and (2,1) and to its capacity ratios, so B1-(1,1), B1-(2,1), B1-best, B2-21, B2-66 and B2-126
are ``calibration`` (and so is the copula's correlation, C1-copula). A1, A2, A2-gap, B3-sat,
A6, KERNEL and MDS are properties of this implementation (``invariant``). Every other claim is
a statement of the paper that could have come out false here (``test``).

Rules take plain numbers (or small pandas objects) so a unit test can build an input on which
each fails and one on which it passes (``tests/test_tofec_claims.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

import pandas as pd

from storrepro.claims import Claim, relative_band, relative_error, verdict_of
from storrepro.tofec.analysis import backlog
from storrepro.tofec.config import READINGS, TOLERANCES
from storrepro.tofec.metrics import (
    GridResults,
    ideal_name,
    modal_k,
    ratio_to_envelope,
    tofec_name,
    top2_fraction,
)

T = TOLERANCES


def _pct(x: float, digits: int = 0) -> str:
    return f"{100 * x:.{digits}f} %"


# ---- Section 1: task-delay model ---------------------------------------------------------------

FIG5_PAPER = (0.50, 0.65, 0.80)


def c1_fig5(reductions: Mapping[str, float]) -> Claim:
    """C1 (report): p99 service-delay reductions with 1/2/3 extra coded chunks (SUR)."""
    values = list(reductions.values())
    return Claim(
        id="C1",
        statement="Fig. 5: p99 service delay of a 3 MB / 1 MB-chunk read falls by ~50/65/80 % "
        "with 1/2/3 extra coded chunks (all tasks started together)",
        paper_value="50 / 65 / 80 %",
        reproduced_value=" / ".join(_pct(v) for v in values),
        tolerance="report only",
        verdict="not checkable",
        reason="The paper measured these on S3 traces that are not public; the surrogate SUR was "
        "calibrated to other numbers (light-load delays and capacity ratios), so its "
        f"{' / '.join(_pct(v) for v in values)} reduction is reported, not judged.",
        kind="report",
        values={"p99_reduction": dict(reductions), "paper": list(FIG5_PAPER)},
    )


def c1_copula(pearson: float, rho: float, rho_for_middle: float, band=(0.11, 0.17)) -> Claim:
    """C1-copula (calibration): the proposed copula ρ gives a task correlation in the paper's
    measured range."""
    low, high = band
    ok = low <= pearson <= high
    reason = (
        f"A Gaussian copula with ρ = {rho:g} gives a Pearson correlation of {pearson:.3f} between "
        f"one request's task delays (1 MB chunks, SUR marginals)."
    )
    if not ok:
        reason += (
            f" Outside the paper's measured {low:g}–{high:g}: the normal-scale correlation "
            f"shrinks on SUR's skewed two-component marginal; ρ = {rho_for_middle:.3f} gives "
            f"the middle of the range (Section 1, copula table)."
        )
    return Claim(
        id="C1-copula",
        statement=f"A Gaussian copula with the proposed ρ = {rho:g} gives a task-delay "
        f"correlation within the paper's measured {low:g}–{high:g}",
        paper_value=f"{low:g}–{high:g}",
        reproduced_value=f"Pearson {pearson:.3f} at ρ = {rho:g}",
        tolerance=f"within [{low:g}, {high:g}]",
        verdict=verdict_of(ok),
        reason=reason,
        role="calibration",
        kind="should",
        values={"pearson": pearson, "rho": rho, "rho_for_middle": rho_for_middle},
    )


# ---- Section 2: MDS codes ----------------------------------------------------------------------


def mds(batched: Mapping[str, bool], strips_exact: bool, trials: int) -> Claim:
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


def _formula(id, statement, error, tolerance, what) -> Claim:
    ok = error <= tolerance
    return Claim(
        id=id,
        statement=statement,
        paper_value=0.0,
        reproduced_value=f"max |error| {_pct(error, 2)}",
        tolerance=f"max |error| <= {_pct(tolerance, 0)}",
        verdict=verdict_of(ok),
        reason=f"Largest relative gap between the Monte-Carlo {what} and the closed form over the "
        f"27 codes: {_pct(error, 2)}" + ("." if ok else "; the sampler or the formula is wrong."),
        role="invariant",
        values={"max_abs_relative_error": error},
    )


def a1_cost(error: float, tolerance: float = T["a1_cost"]) -> Claim:
    return _formula(
        "A1",
        "Eq. (3): MC mean cost of all 27 codes (PURE sampler, simultaneous start) matches nΔ + kE",
        error,
        tolerance,
        "mean cost",
    )


def a2_service(error: float, tolerance: float = T["a2_service"]) -> Claim:
    return _formula(
        "A2",
        "Eq. (2): MC mean service delay of all 27 codes (PURE sampler) matches Δ + E·Σ1/i",
        error,
        tolerance,
        "mean service delay",
    )


def a2_gap(gaps: Mapping[tuple[int, int], float], band=T["a2_gap"]) -> Claim:
    """A2-gap (invariant): ln(n/(n−k)) − Σ1/i lies in the band for 1 <= k < n <= 12."""
    lo, hi = band
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


def a3_theorem1(residual: float, spread: float, tolerance: float = T["a3_residual"]) -> Claim:
    """A3 (test): one optimum, satisfying k = g(r), φ(Λ) = h(r), at λ = 5, 20, 40, 60."""
    ok = residual < tolerance and spread < tolerance
    if ok:
        reason = (
            f"Eight Nelder–Mead starts per λ end within {spread:.1e} of each other and the best "
            f"satisfies Theorem 1's conditions to {residual:.1e}."
        )
    elif spread >= tolerance:
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
        tolerance=f"residuals and spread < {tolerance:g}",
        verdict=verdict_of(ok),
        reason=reason,
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
        tolerance="every one strict",
        verdict=verdict_of(not failed),
        reason="Every one of " + ", ".join(checks) + " is strictly monotone on its grid."
        if not failed
        else f"Not strictly monotone: {', '.join(failed)} (Section 3, Corollary 1 figure).",
        values={"checks": dict(checks)},
    )


def a5_separability(gap: float, tolerance: float = T["a5_codes"]) -> Claim:
    ok = gap <= tolerance
    return Claim(
        id="A5",
        statement="Separability: two classes at the same total usage Λ get the same optimal "
        "codes for any (λ, p), and class 1 alone at that Λ the same code",
        paper_value=0.0,
        reproduced_value=f"max difference {gap:.1e} in r or k",
        tolerance=f"<= {tolerance:g}",
        verdict=verdict_of(ok),
        reason=f"Largest difference of r or k between the two mixes and class 1 alone: {gap:.1e}"
        + ("." if ok else "; the optimum depends on the mix, not only on Λ (Section 3, A5)."),
        values={"max_difference": gap},
    )


# ---- Section 4: static capacities --------------------------------------------------------------


def a1_saturation(
    static_cap: pd.DataFrame, n_threads: int, tolerance: float = T["a1_capacity"]
) -> Claim:
    """A1-sat (test): simulated saturated capacity of each code vs L / E[U] (Eq. 4).

    ``static_cap`` is indexed by (n, k) with an ``error`` column (simulated / predicted − 1).
    The reason separates codes whose n divides L from the others.
    """
    err = static_cap["error"].abs()
    err.index = [(int(n), int(k)) for n, k in err.index]
    worst = err.idxmax()
    ok = err.max() <= tolerance
    outside = [code for code, e in err.items() if e > tolerance]
    divides = [code for code in err.index if n_threads % code[0] == 0]
    max_div = float(err.loc[divides].max()) if divides else math.nan
    values = {
        "max_abs_error": float(err.max()),
        "worst_code": list(worst),
        "outside": [list(c) for c in outside],
        "max_error_n_divides_L": max_div,
    }
    reason = (
        f"Saturated throughput of the 27 codes against L / E[U] (E[U] by Monte Carlo with "
        f"simultaneous start): largest gap {_pct(err.max(), 1)} at {worst}."
    )
    if not ok:
        if all(n_threads % n for n, _ in outside):
            reason += (
                f" Every code outside ±{_pct(tolerance)} has an n that does not divide L = "
                f"{n_threads} ({', '.join(map(str, outside))}); where n divides L the largest gap "
                f"is {_pct(max_div, 1)}. Under saturation such a request's tasks start one by one "
                "as threads free up, so its late tasks are interrupted sooner than with the "
                "simultaneous start Eq. (4) assumes (Section 4, capacity table)."
            )
        else:
            reason += (
                f" Codes outside ±{_pct(tolerance)}: {', '.join(map(str, outside))}, including "
                "ones whose n divides L: the capacity formula misses more than the staggered "
                "task starts (Section 4, capacity table)."
            )
    return Claim(
        id="A1-sat",
        statement="Eq. (4): the simulated saturated capacity of every static code is L / E[U] "
        "(SUR)",
        paper_value="C = L / E[U]",
        reproduced_value=f"max |error| {_pct(err.max(), 1)} at {worst}",
        tolerance=f"every code within ±{_pct(tolerance)}",
        verdict=verdict_of(ok),
        reason=reason,
        values=values,
    )


B2_STATEMENTS = {
    "B2-21": "C(2,1)/C(1,1): replication keeps ~70 % of basic's capacity",
    "B2-66": "C(6,6)/C(1,1): the best k = 6 code loses almost 60 % of capacity",
}
_CALIBRATED = "SUR was calibrated to this ratio, so it shows the surrogate, not the paper"


def b2_ratio(id: str, ratio: float, target: float, width: float) -> Claim:
    """B2-21, B2-66 (calibration): simulated capacity ratio to (1,1)."""
    ok = abs(ratio - target) <= width
    return Claim(
        id=id,
        statement=B2_STATEMENTS[id],
        paper_value=target,
        reproduced_value=f"{ratio:.3f} of C(1,1)",
        tolerance=f"{target:g} ± {width:g}",
        verdict=verdict_of(ok),
        reason=f"Simulated saturated throughput ratio {ratio:.3f}; {_CALIBRATED}"
        + ("." if ok else "; outside the band, the calibration has drifted."),
        role="calibration",
        values={"ratio": ratio},
    )


def b2_126(ratio: float, limit: float = T["b2_12_6"]) -> Claim:
    ok = ratio <= limit
    return Claim(
        id="B2-126",
        statement="The latency-optimal static code (12,6) supports under a third of basic's "
        "capacity (TOFEC 'over 3×' its requests)",
        paper_value=f"<= {limit:.3f}",
        reproduced_value=f"{ratio:.3f} of C(1,1)",
        tolerance=f"<= {limit:.3f}",
        verdict=verdict_of(ok),
        reason=f"Simulated C(12,6)/C(1,1) = {ratio:.3f}; the surrogate's per-task overhead was "
        "calibrated to the paper's capacity ratios"
        + ("." if ok else ", yet (12,6) keeps more than a third: the calibration has drifted."),
        role="calibration",
        values={"ratio": ratio},
    )


# ---- Section 5: delay vs arrival rate ----------------------------------------------------------


def b1_code(code: str, mean: float, median: float, ref=None) -> Claim:
    """B1-(1,1), B1-(2,1) (calibration): light-load (λ = 2) mean and median of a static code."""
    m_ref, m_tol, med_ref, med_tol = ref or T["b1"][code]
    e_mean, e_med = relative_error(mean, m_ref), relative_error(median, med_ref)
    ok = abs(e_mean) <= m_tol and abs(e_med) <= med_tol
    return Claim(
        id=f"B1-{code}",
        statement=f"Light load (λ = 2 req/s): {code} mean {m_ref:g} ms, median {med_ref:g} ms",
        paper_value=f"{m_ref:g} / {med_ref:g} ms",
        reproduced_value=f"{mean:.1f} / {median:.1f} ms",
        tolerance=f"mean {relative_band(m_tol)}, median {relative_band(med_tol)}",
        verdict=verdict_of(ok),
        reason=f"Mean {e_mean * 100:+.1f} %, median {e_med * 100:+.1f} % from the paper; SUR was "
        "calibrated to these delays"
        + ("." if ok else ", so a miss means the calibration has drifted."),
        role="calibration",
        values={"mean_ms": mean, "median_ms": median, "mean_error": e_mean, "median_error": e_med},
    )


def b1_best(value: float, code: str, band=T["b1_best_mean"]) -> Claim:
    lo, hi = band
    ok = lo <= value <= hi
    return Claim(
        id="B1-best",
        statement="Best static light-load (λ = 2 req/s) mean delay ≈ 84 ms",
        paper_value="≈ 84 ms",
        reproduced_value=f"{value:.1f} ms with {code}",
        tolerance=f"in [{lo:g}, {hi:g}] ms",
        verdict=verdict_of(ok),
        reason=f"The best stable static code at λ = 2 is {code} with {value:.1f} ms; SUR's "
        "chunk-size dependence was calibrated to the paper's light-load delays"
        + ("." if ok else ", so a miss means the calibration has drifted."),
        role="calibration",
        values={"mean_ms": value, "code": code},
    )


#: A light-load gain over a static baseline means something only if the surrogate reproduces
#: that baseline's light-load delays; the capacity claims need its calibrated capacity ratios.
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


def b4_ratio(id: str, text: str, value: float, limit: float, paper: float) -> Claim:
    """B4-* (test): a light-load (λ = 5) delay ratio at most ``limit``."""
    ok = value <= limit
    return Claim(
        id=id,
        statement=f"Light load (λ = 5 req/s): {text}",
        paper_value=paper,
        reproduced_value=f"{value:.3f}×",
        tolerance=f"<= {limit:g}×",
        verdict=verdict_of(ok),
        reason=f"Measured ratio {value:.3f} (paper {paper:g})"
        + (
            "."
            if ok
            else f", above {limit:g}: the adaptive policy gains less at light load than the "
            "paper (Section 5, light-load table)."
        ),
        requires=REQUIRES.get(id, ()),
        values={"ratio": value, "paper": paper},
    )


def b4_abs(mean: float, band=T["b4"]["abs_mean"]) -> Claim:
    lo, hi = band
    ok = lo <= mean <= hi
    return Claim(
        id="B4-abs",
        statement="TOFEC's light-load (λ = 5 req/s) mean delay is 84 ms",
        paper_value="84 ms",
        reproduced_value=f"{mean:.1f} ms",
        tolerance=f"in [{lo:g}, {hi:g}] ms",
        verdict=verdict_of(ok),
        reason=f"TOFEC's mean delay at λ = 5 req/s: {mean:.1f} ms"
        + ("." if ok else f", outside [{lo:g}, {hi:g}] ms (Section 5, light-load table)."),
        requires=REQUIRES["B4-abs"],
        values={"mean_ms": mean},
    )


def b5_envelope(
    id: str,
    text: str,
    ratios: pd.Series,
    limit: float,
    context: Mapping[float, Mapping] | None = None,
) -> Claim:
    """B5-*, B6-p90/p99, B7-envelope (test): max ratio of a policy's metric to the best static.

    ``ratios`` is indexed by λ (req/s). ``context[λ]`` may give ``best_code`` (for this metric),
    ``best_mean_code``, ``k_off`` and ``k_above`` (shares of the policy's requests with another k
    than the best code's, and with a larger one: codes meant for a lighter load), ``measured_q``
    and ``model_q`` (E[Q] of (1,1) measured and by Eq. (11)), to name the cause of a miss.
    """
    value, at = float(ratios.max()), float(ratios.idxmax())
    ok = value <= limit
    reason = f"Largest ratio to the best static code {value:.3f} at λ = {at:g} req/s."
    ctx = (context or {}).get(at)
    if not ok and ctx:
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
    elif not ok:
        reason += " Section 5's ratio table shows it per λ."
    return Claim(
        id=id,
        statement=text + " — max ratio to the best static code",
        paper_value="≈ 1 (almost optimal)",
        reproduced_value=f"{value:.3f}× at λ = {at:g} req/s",
        tolerance=f"<= {limit:g}× at every λ",
        verdict=verdict_of(ok),
        reason=reason,
        values={"max_ratio": value, "at_rate": at, "ratios": ratios.to_dict()},
    )


def b5_strict(value: float, limit: float = 1.05) -> Claim:
    return Claim(
        id="B5-strict",
        statement="Paper-strict level: TOFEC's mean and median within 5 % of the best static "
        "code everywhere",
        paper_value=f"<= {limit:g}",
        reproduced_value=f"{value:.3f}×",
        tolerance="report only",
        verdict="not checkable",
        reason=f"Largest mean or median ratio to the best static code: {value:.3f}. 'Almost "
        "optimal' sets no band; the tested bands are B5-mean and B5-median.",
        kind="report",
        values={"max_ratio": value},
    )


def b6_vs_greedy(p90: float, p99: float, limits=None) -> Claim:
    lim90, lim99 = limits or (T["b6"]["vs_greedy_p90"], T["b6"]["vs_greedy_p99"])
    ok = p90 <= lim90 and p99 <= lim99
    reason = f"Largest TOFEC/Greedy ratio over λ = 5–30 req/s: p90 {p90:.3f}, p99 {p99:.3f}."
    if not ok:
        reason += " TOFEC's tail gain over Greedy is smaller than the paper's (Section 5 table)."
    return Claim(
        id="B6-vs-greedy",
        statement="TOFEC beats Greedy at p90 and p99 at light–medium load (λ = 5–30 req/s)",
        paper_value="TOFEC better",
        reproduced_value=f"p90 {p90:.3f}×, p99 {p99:.3f}× Greedy",
        tolerance=f"p90 <= {lim90:g}×, p99 <= {lim99:g}×",
        verdict=verdict_of(ok),
        reason=reason,
        values={"p90_ratio": p90, "p99_ratio": p99},
    )


def b7_vs_greedy(ratio: float, limit: float = T["b7"]["vs_greedy"]) -> Claim:
    ok = ratio <= limit
    return Claim(
        id="B7-vs-greedy",
        statement="TOFEC's delay STD is much lower than Greedy's at light–medium load "
        "(λ = 5–40 req/s)",
        paper_value="X–Y× lower (stripped)",
        reproduced_value=f"{ratio:.3f}× Greedy's at most",
        tolerance=f"<= {limit:g}× at every λ",
        verdict=verdict_of(ok),
        reason=f"Largest TOFEC/Greedy STD ratio over λ = 5–40 req/s: {ratio:.3f}"
        + ("." if ok else "; TOFEC's code choice is not steadier than Greedy's here (Fig. 9)."),
        values={"max_ratio": ratio},
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
        tolerance="non-increasing; 5 or 6 at λ <= 10; 1 at λ >= 0.9·C_full",
        verdict=verdict_of(ok),
        reason="Modal k by λ: "
        + " ".join(str(int(v)) for v in ks)
        + ("." if ok else "; " + "; ".join(problems) + " (Fig. 10)."),
        values={"modal_k": {f"{r:g}": int(v) for r, v in modal.items()}},
    )


def b8_top2(shares: pd.Series, alpha: float, limits=None) -> Claim:
    """B8-top2 (test): share of TOFEC's requests in its best two neighbouring k, at every λ."""
    full, part = limits or (T["b8"]["top2"], T["b8"]["top2_partly"])
    value, at = float(shares.min()), float(shares.idxmin())
    verdict = "reproduced" if value >= full else ("partly" if value >= part else "not reproduced")
    reason = f"With α = {alpha:g} the two neighbouring k TOFEC uses most serve at least "
    reason += f"{_pct(value)} of its requests (lowest at λ = {at:g} req/s)."
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
        reproduced_value=f"min {value:.3f} at λ = {at:g} req/s (α = {alpha:g})",
        tolerance=f">= {full:g} at every λ (partly >= {part:g})",
        verdict=verdict,
        reason=reason,
        values={"min_share": value, "at_rate": at, "alpha": alpha},
    )


def b8_greedy(share: float, limit: float = T["b8"]["greedy_1_6"]) -> Claim:
    ok = share >= limit
    return Claim(
        id="B8-greedy",
        statement="Greedy is 'all or nothing': most of its requests use k = 1 or k = 6, at every λ",
        paper_value="majority",
        reproduced_value=f"min {_pct(share)} with k ∈ {{1, 6}}",
        tolerance=f">= {limit:g} at every λ",
        verdict=verdict_of(ok),
        reason=f"At every λ at least {_pct(share)} of Greedy's requests use k = 1 or 6"
        + ("." if ok else "; Greedy spreads over middle k here (Fig. 10)."),
        values={"min_share": share},
    )


# ---- Section 6: capacity -----------------------------------------------------------------------


def b3_saturated(policy: str, throughput: float, c_full: float, tol=T["b3_saturated"]) -> Claim:
    """B3-sat-* (invariant): at 1.2·C_full the adaptive policy serves (1,1)'s capacity: at a
    large backlog both rules pick (1,1) by construction."""
    err = relative_error(throughput, c_full)
    ok = abs(err) <= tol
    return Claim(
        id=f"B3-sat-{policy}",
        statement=f"{policy} keeps the full capacity of basic (1,1): saturated throughput at "
        "1.2·C_full",
        paper_value="= C_full",
        reproduced_value=f"{throughput:.1f} req/s ({err * 100:+.1f} % of C_full)",
        tolerance=relative_band(tol),
        verdict=verdict_of(ok),
        reason=f"Saturated throughput {throughput:.1f} req/s against C_full = {c_full:.1f}; with "
        "a long queue (TOFEC) or no idle thread (Greedy) the rule picks (1,1), so this holds by "
        "construction"
        + ("." if ok else ", yet it failed: the policy does not fall back to (1,1)."),
        role="invariant",
        values={"throughput": throughput, "c_full": c_full, "relative_error": err},
    )


def b3_stable(
    policy: str, rate: float, gap: float, trend_frac: float, tol: float = T["b3_throughput"]
) -> Claim:
    """B3-0.95-* (test): stable at 0.95·C_full (throughput = arrival rate, no upward trend)."""
    ok = gap <= tol and trend_frac == 0
    reason = (
        f"At λ = {rate:g} req/s throughput differs from the arrival rate by {_pct(gap, 2)}; the "
        f"last fifth's mean delay exceeds twice the first fifth's in {_pct(trend_frac)} of seeds."
    )
    if not ok:
        reason += " The queue grows: the policy loses capacity near saturation (Section 6)."
    return Claim(
        id=f"B3-0.95-{policy}",
        statement=f"{policy} is stable at λ = 0.95·C_full: throughput = arrival rate, no upward "
        "trend",
        paper_value="stable",
        reproduced_value=f"|throughput/rate − 1| = {_pct(gap, 2)}, trend in {_pct(trend_frac)} of "
        "seeds",
        tolerance=f"<= {_pct(tol)} and no trend in any seed",
        verdict=verdict_of(ok),
        reason=reason,
        values={"rate": rate, "throughput_gap": gap, "trend_fraction": trend_frac},
    )


def b3_replication(
    offered: float,
    throughput_ratio: float,
    trend_frac: float,
    fraction: float = T["b3_replication"],
    tol: float = T["b3_throughput"],
) -> Claim:
    """B3-21 (test): replication (2,1) offered ``fraction``·C_full cannot keep up.

    Judged on its own run at that rate (not on B2-21's capacity ratio): unstable when its
    throughput falls short of the arrival rate by more than ``tol`` or its delay trends up in
    most seeds.
    """
    unstable = throughput_ratio < 1 - tol or trend_frac > 0.5
    reason = (
        f"Offered {offered:.1f} req/s ({fraction:g}·C_full), (2,1) serves "
        f"{_pct(throughput_ratio, 1)} of the arrivals; delay trends up in {_pct(trend_frac)} of "
        "seeds."
    )
    if not unstable:
        reason += " It keeps up: replication supports more than the paper's 70 % here."
    return Claim(
        id="B3-21",
        statement=f"Replication (2,1) fails beyond 70 % of basic's capacity: unstable at "
        f"{fraction:g}·C_full",
        paper_value="unstable beyond 0.70·C_full",
        reproduced_value=f"throughput {_pct(throughput_ratio, 1)} of arrivals at "
        f"{fraction:g}·C_full",
        tolerance=f"throughput < {_pct(1 - tol)} of arrivals, or an upward trend in most seeds",
        verdict=verdict_of(unstable),
        reason=reason,
        requires=REQUIRES["B3-21"],
        values={"offered": offered, "throughput_ratio": throughput_ratio, "trend": trend_frac},
    )


def b2_fixedk(ratio: float, alpha: float, paper: float = 0.30, limit=T["b2_fixed_k"]) -> Claim:
    """B2-fixedk (test): [3]'s fixed-k strategy supports < 30 % (partly up to ``limit``)."""
    verdict = "reproduced" if ratio <= paper else ("partly" if ratio <= limit else "not reproduced")
    reason = f"[3]'s k = 6 strategy (α = {alpha:g}) saturates at {ratio:.3f}·C_full."
    if verdict != "reproduced":
        reason += (
            f" It settles on (6,6) at saturation, whose capacity is {ratio:.2f} of basic's in this "
            "surrogate (B2-66): the paper's '< 30 %' is lower than its own 'almost 60 % loss' for "
            "k = 6 implies (Section 4)."
        )
    return Claim(
        id="B2-fixedk",
        statement="The fixed-k (k = 6) adaptive strategy of [3] supports under 30 % of basic's "
        "capacity",
        paper_value=f"< {paper:g}",
        reproduced_value=f"{ratio:.3f} of C_full",
        tolerance=f"<= {paper:g} (partly <= {limit:g})",
        verdict=verdict,
        reason=reason,
        requires=REQUIRES["B2-fixedk"],
        values={"ratio": ratio, "alpha": alpha},
    )


# ---- Section 7: changing workload --------------------------------------------------------------


def b9a_surge(switch_s: float, surge_k: float, alpha: float, tol=None) -> Claim:
    b9 = tol or T["b9"]
    ok = switch_s <= b9["switch_s"] and surge_k <= b9["surge_k"]
    reason = (
        f"With α = {alpha:g} TOFEC reaches >= 90 % k = 1 {switch_s:.2f} s after the surge; its "
        f"mean k over [202, 400) s is {surge_k:.3f}."
    )
    if not ok:
        reason += " The moving average lags the sudden backlog (Fig. 11(b))."
    return Claim(
        id="B9a",
        statement="Surge: TOFEC switches to k = 1 at once",
        paper_value="especially responsive",
        reproduced_value=f"switch {switch_s:.2f} s, mean k {surge_k:.3f}",
        tolerance=f"switch <= {b9['switch_s']:g} s and mean k <= {b9['surge_k']:g}",
        verdict=verdict_of(ok),
        reason=reason,
        values={"switch_s": switch_s, "surge_mean_k": surge_k},
    )


def b9b_phases(
    gap13: float,
    gap2: float,
    ideal: str,
    worst_phase: str | None = None,
    recovery_s: float | None = None,
    tol=None,
) -> Claim:
    """B9b (test): TOFEC's per-phase mean delay within a band of Ideal's.

    ``recovery_s`` (TOFEC's recovery time after the drop) names the cause when phase 3 misses:
    phase 3's mean skips only its first 20 s.
    """
    b9 = tol or T["b9"]
    ok = gap13 <= b9["phase13"] and gap2 <= b9["phase2"]
    reason = (
        f"TOFEC's mean delay differs from {ideal}'s by {_pct(gap13, 1)} in phases 1/3 (worst) and "
        f"{_pct(gap2, 1)} in phase 2."
    )
    if not ok:
        if worst_phase == "phase 3" and recovery_s is not None and recovery_s > 20.0:
            reason += (
                " The largest gap is in phase 3: TOFEC's recovery after the drop "
                f"({recovery_s:.0f} s) reaches past the 20 s that phase 3's mean skips "
                "(Section 8, recovery by α)."
            )
        else:
            reason += (
                f" The largest gap is in {worst_phase or 'one phase'} (Section 7's per-phase "
                "table); at this memory TOFEC's code choice spreads over more k than the oracle's "
                "single code (top-2 share by α, Section 8)."
            )
    return Claim(
        id="B9b",
        statement="TOFEC's per-phase mean delay is comparable to Ideal's",
        paper_value="comparable",
        reproduced_value=f"gap {_pct(gap13, 1)} (phases 1/3), {_pct(gap2, 1)} (phase 2)",
        tolerance=f"<= {_pct(b9['phase13'])} (phases 1, 3), <= {_pct(b9['phase2'])} (phase 2)",
        verdict=verdict_of(ok),
        reason=reason,
        values={"gap_phase13": gap13, "gap_phase2": gap2},
    )


def b9c_stability(kstd_ratio: float, phase2_k1: float, alpha: float, tol=None) -> Claim:
    b9 = tol or T["b9"]
    ok = kstd_ratio < b9["k_std"] and phase2_k1 >= b9["phase2_k1"]
    reason = (
        f"With α = {alpha:g} the std of TOFEC's k within phases 1 and 3 is {kstd_ratio:.2f}× "
        f"Greedy's, and {_pct(phase2_k1, 1)} of its phase-2 requests use k = 1."
    )
    if not ok:
        reason += " TOFEC's code choice moves with the queue's fluctuations (Fig. 11(b))."
    return Claim(
        id="B9c",
        statement="TOFEC's code choice is stable within phases; Greedy's oscillates",
        paper_value="little variation",
        reproduced_value=f"k-std {kstd_ratio:.2f}× Greedy's; {_pct(phase2_k1, 1)} k = 1 in phase 2",
        tolerance=f"< {b9['k_std']:g}× Greedy's; >= {_pct(b9['phase2_k1'])} k = 1",
        verdict=verdict_of(ok),
        reason=reason,
        values={"k_std_ratio": kstd_ratio, "phase2_k1": phase2_k1},
    )


def b9c_greedy(primary: float, literal: float) -> Claim:
    return Claim(
        id="B9c-greedy",
        statement="Greedy keeps oscillating between k = 1 and k = 6 in phase 2",
        paper_value="oscillates",
        reproduced_value=f"{_pct(primary, 2)} (primary), {_pct(literal, 2)} (literal) of "
        "phase-2 requests with k >= 4",
        tolerance="report only",
        verdict="not checkable",
        reason=f"Only {_pct(primary, 2)} of Greedy's phase-2 requests use k >= 4 near capacity: "
        "it rarely finds several idle threads, so it cannot oscillate; the paper's phase 2 was "
        "probably further below its capacity, which its stripped text does not say.",
        kind="report",
        values={"primary": primary, "literal": literal},
    )


def b9d_recovery(
    tofec: float, greedy: float, ideal: float, alpha: float, decision_point: str, tol=None
) -> Claim:
    """B9d (test): after the drop, TOFEC and Greedy reach optimal delay faster than Ideal.

    The paper's words: "TOFEC and Greedy both reduce their delay to optimal almost X× faster
    than Ideal does" (X stripped), so each must recover in less than ``recovery_vs_ideal`` ×
    Ideal's time; partly when only one does.
    """
    limit = (tol or T["b9"])["recovery_vs_ideal"]
    faster = {"TOFEC": tofec < limit * ideal, "Greedy": greedy < limit * ideal}
    n_fast = sum(faster.values())
    verdict = ("not reproduced", "partly", "reproduced")[n_fast]
    how = "the head of the line" if decision_point == "head_of_line" else "arrival"
    reason = (
        f"Recovery after the drop (literal 10/80/10 pattern): TOFEC {tofec:.1f} s (α = "
        f"{alpha:g}), Greedy {greedy:.1f} s, Ideal {ideal:.1f} s with its code fixed at {how}."
    )
    if verdict != "reproduced":
        slow = [p for p, ok in faster.items() if not ok]
        if decision_point == "arrival":
            reason += (
                f" {' and '.join(slow)} not faster: an Ideal that fixes each request's code on "
                "arrival drains the phase-2 backlog with (1,1) at full capacity, which the "
                "paper's 'if k is set to 5 right after the rate drops' does not describe "
                "(Section 7, both Ideals)."
            )
        else:
            reason += (
                f" {' and '.join(slow)} not faster: its moving average holds a high backlog "
                "estimate for tens of arrivals after the drop (Section 8, recovery by α)."
            )
    return Claim(
        id="B9d",
        statement="After the load drop TOFEC and Greedy reduce their delay to optimal faster "
        "than Ideal",
        paper_value="almost X× faster (X stripped)",
        reproduced_value=f"TOFEC {tofec:.1f} s, Greedy {greedy:.1f} s, Ideal {ideal:.1f} s",
        tolerance=f"each below {limit:g}× Ideal's recovery time (partly: one of the two)",
        verdict=verdict,
        reason=reason,
        values={
            "tofec_s": tofec,
            "greedy_s": greedy,
            "ideal_s": ideal,
            "tofec_vs_ideal": tofec / ideal if ideal else math.inf,
            "greedy_vs_ideal": greedy / ideal if ideal else math.inf,
        },
    )


def b9d_primary(tofec: float, greedy: float, ideal: float) -> Claim:
    return Claim(
        id="B9d-primary",
        statement="Recovery after the drop in the primary (0.98·C_full) pattern",
        paper_value="faster than Ideal",
        reproduced_value=f"TOFEC {tofec:.1f} s, Greedy {greedy:.1f} s, Ideal {ideal:.1f} s",
        tolerance="report only",
        verdict="not checkable",
        reason="Below capacity the phase-2 backlog is short and every policy recovers within "
        f"seconds (TOFEC {tofec:.1f} s, Greedy {greedy:.1f} s, Ideal {ideal:.1f} s); the "
        "paper's comparison concerns its 80 req/s phase, judged in B9d.",
        kind="report",
        values={"tofec_s": tofec, "greedy_s": greedy, "ideal_s": ideal},
    )


# ---- Sections 8-10: ablations, backlog model, simulator checks ---------------------------------


def c2_alpha(table: pd.DataFrame) -> Claim:
    """C2 (report): α sweep and threshold rule; ``table`` rows are variants with columns
    ``gap`` (max mean ratio to the envelope) and ``top2`` (min top-2 share)."""
    text = "; ".join(f"{v}: gap {r.gap:.2f}, top-2 {r.top2:.2f}" for v, r in table.iterrows())
    return Claim(
        id="C2",
        statement="α sweep and threshold-rule ablation (envelope gap, top-2 share, recovery)",
        paper_value="α stripped",
        reproduced_value=text,
        tolerance="report only",
        verdict="not checkable",
        reason="A larger α concentrates TOFEC's code choice (top-2 share) and slows its recovery "
        "after a drop; the paper's value was lost, so the sweep is reported (Section 8).",
        kind="report",
        values={"table": table.to_dict(orient="index")},
    )


def c3_backlog(table: pd.DataFrame) -> Claim:
    """C3 (report): measured E[Q] of (1,1) vs Eq. (11); ``table`` has columns measured, model."""
    text = "; ".join(f"λ={r:g}: {a:.2f} vs {b:.2f}" for r, (a, b) in table.iterrows())
    return Claim(
        id="C3",
        statement="M/M/1 backlog model (Eq. 11) vs the measured E[Q] of (1,1)",
        paper_value="approximation",
        reproduced_value=text,
        tolerance="report only",
        verdict="not checkable",
        reason="The L-thread system pools its servers, so its request queue is shorter than the "
        "M/M/1 model predicts at the same load; TOFEC's thresholds inherit the bias.",
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


# ---- headline ----------------------------------------------------------------------------------

HEADLINE_CORE = ("B3-0.95-TOFEC", "B4-mean-11", "B5-mean", "B5-median", "B9d")


def headline_text(run) -> dict:
    """kwargs of ``run.headline``: the paper's core claims, and the main measured cause."""
    core = [c for c in HEADLINE_CORE if c in run.claims]
    failed = [c for c in core if run.verdict(c) != "reproduced"]
    statement = (
        "TOFEC keeps basic (1,1)'s full capacity, cuts light-load delay about 2.4× and tracks "
        "the best static code's mean and median delay at every load, and recovers from a load "
        "drop faster than a rate-driven oracle."
    )
    if not failed:
        cause = (
            "On the calibrated surrogate every core claim holds under the primary readings; see "
            "the reading table for those that hang on α or on Ideal's decision point."
        )
    else:
        parts = [f"{c}: {run.claims[c]['reproduced_value']}" for c in failed]
        cause = "Not reproduced or only partly: " + "; ".join(parts) + ". "
        if any(c.startswith("B5") for c in failed):
            cause += (
                "The envelope gap sits at high load, where the M/M/1 backlog model behind the "
                "thresholds reads the pooled L-thread queue as a lighter load (Section 9). "
            )
        if "B9d" in failed:
            cause += run.claims["B9d"]["reason"]
    return {"statement": statement, "core": core, "cause": cause.strip()}


# ---- recording: each claim under the readings that can move it ---------------------------------

#: The alternative memory factors: each is another TOFEC policy of the same runs.
ALPHA_ALTS = {f"alpha={v}": float(v) for v in READINGS["alpha"].others()}
POINT = READINGS["ideal_decision_point"]


def record_alpha(run, cfg, rule) -> dict:
    """Record ``rule(α)`` under the primary α and under every alternative α of the reading."""
    return run.record(
        rule(cfg.alpha),
        readings={x: rule(a) for x, a in ALPHA_ALTS.items()},
        not_affected_by=["ideal_decision_point"],
    )


def record_both(run, cfg, rule) -> dict:
    """Record ``rule(α, Ideal's decision point)`` under the primary and each single
    alternative."""
    alts = {x: rule(a, POINT.primary) for x, a in ALPHA_ALTS.items()}
    alts |= {f"ideal_decision_point={v}": rule(cfg.alpha, v) for v in POINT.others()}
    return run.record(rule(cfg.alpha, POINT.primary), readings=alts)


def _policy(who: str, alpha: float) -> str:
    return tofec_name(alpha) if who == "TOFEC" else who


#: B4: id -> (statement, policy, metric, baseline, tolerance key, the paper's ratio).
B4_RATIOS = {
    "B4-mean-11": (
        "TOFEC's mean delay vs basic (1,1)'s (paper 84/205 = 0.41)",
        "TOFEC", "mean", "(1,1)", "mean_11", 0.41,
    ),
    "B4-mean-21": (
        "TOFEC's mean delay vs replication (2,1)'s (paper 84/151 = 0.56)",
        "TOFEC", "mean", "(2,1)", "mean_21", 0.56,
    ),
    "B4-median-11": (
        "TOFEC's median delay vs basic's (paper 74/156 = 0.47)",
        "TOFEC", "median", "(1,1)", "median_11", 0.47,
    ),
    "B4-greedy-mean": (
        "Greedy's mean delay vs basic's (paper 89/205 = 0.43)",
        "Greedy", "mean", "(1,1)", "greedy_mean_11", 0.43,
    ),
    "B4-greedy-median": (
        "Greedy's median delay vs basic's (paper 79/156 = 0.51)",
        "Greedy", "median", "(1,1)", "greedy_median_11", 0.51,
    ),
}  # fmt: skip


def record_light_load(run, cfg, grid: GridResults) -> None:
    """B1 (the calibrated light-load delays) and B4 (the adaptive policies' light-load gains)."""
    pivot, no_reading = grid.pivot, list(cfg.readings)
    for name in T["b1"]:
        run.record(b1_code(name, pivot["mean"].loc[2.0, name], pivot["median"].loc[2.0, name]))
    best2 = grid.env["mean"].loc[2.0]
    run.record(b1_best(best2.value, best2.code))
    at5 = {m: pivot[m].loc[5.0] for m in ("mean", "median")}
    for cid, (text, who, metric, base, key, paper) in B4_RATIOS.items():

        def rule(a, cid=cid, text=text, who=who, metric=metric, base=base, key=key, paper=paper):
            value = at5[metric][_policy(who, a)] / at5[metric][base]
            return b4_ratio(cid, text, value, T["b4"][key], paper)

        if who == "TOFEC":
            record_alpha(run, cfg, rule)
        else:
            run.record(rule(cfg.alpha), not_affected_by=no_reading)
    record_alpha(run, cfg, lambda a: b4_abs(at5["mean"][tofec_name(a)]))


def envelope_context(grid: GridResults, policy: str, metric: str, n_threads: int) -> dict:
    """Per λ: the best static code, the share of ``policy``'s requests with another / a larger
    k, and (1,1)'s measured E[Q] against Eq. (11) — what a claim's reason needs to name a
    cause."""
    shares = grid.summary[grid.summary.policy == policy].set_index("rate")
    q11 = grid.q11
    out = {}
    for r, best in grid.env[metric].iterrows():
        kb = int(best.code.strip("()").split(",")[1])
        out[r] = {
            "best_code": best.code,
            "best_mean_code": grid.env["mean"].code.get(r, best.code),
            "k_off": 1 - shares.loc[r, f"k{kb}"],
            "k_above": sum(shares.loc[r, f"k{k}"] for k in range(kb + 1, 7)),
        }
        if r in q11.index:
            out[r] |= {
                "measured_q": q11[r],
                "model_q": backlog(r * grid.u11 / 1000, n_threads),
            }
    return out


#: B5/B6 envelope claims: id -> (statement, policy, metric, tolerance, rate range).
ENVELOPE = {
    "B5-mean": (
        "TOFEC's mean delay tracks the best static code (λ <= 0.90·C_full)",
        "TOFEC", "mean", T["b5"]["mean"], "mid",
    ),
    "B5-median": (
        "TOFEC's median delay tracks the best static code (λ <= 0.90·C_full)",
        "TOFEC", "median", T["b5"]["median"], "mid",
    ),
    "B5-greedy": (
        "Greedy's mean delay is near the best static code's (λ <= 0.90·C_full)",
        "Greedy", "mean", T["b5"]["greedy_mean"], "mid",
    ),
    "B5-high": (
        "TOFEC's mean delay is near the best static code's at 0.90–0.95·C_full",
        "TOFEC", "mean", T["b5"]["high_mean"], "high",
    ),
    "B6-p90": (
        "TOFEC's p90 delay is on a par with the best static code's (λ <= 0.90·C_full)",
        "TOFEC", "p90", T["b6"]["p90"], "mid",
    ),
    "B6-p99": (
        "TOFEC's p99 delay is on a par with the best static code's (λ <= 0.90·C_full)",
        "TOFEC", "p99", T["b6"]["p99"], "mid",
    ),
}  # fmt: skip


def record_envelope(run, cfg, grid: GridResults) -> None:
    """B5 and B6: TOFEC's and Greedy's delays against the best static code per rate."""
    summary, pivot = grid.summary, grid.pivot
    for cid, (text, who, metric, limit, span) in ENVELOPE.items():

        def rule(a, cid=cid, text=text, who=who, metric=metric, limit=limit, span=span):
            p = _policy(who, a)
            ratios = ratio_to_envelope(summary, p, metric).loc[getattr(grid, span)]
            return b5_envelope(
                cid, text, ratios, limit, envelope_context(grid, p, metric, cfg.n_threads)
            )

        if who == "TOFEC":
            record_alpha(run, cfg, rule)
        else:
            run.record(rule(cfg.alpha), not_affected_by=list(cfg.readings))

    def strict(a):
        p = tofec_name(a)
        ratios = [ratio_to_envelope(summary, p, m).loc[grid.mid].max() for m in ("mean", "median")]
        return b5_strict(max(ratios))

    record_alpha(run, cfg, strict)
    light_mid = [r for r in grid.rates if 5 <= r <= 30]

    def vs_greedy(a):
        p = tofec_name(a)
        vs = {
            m: (pivot[m].loc[light_mid, p] / pivot[m].loc[light_mid, "Greedy"]).max()
            for m in ("p90", "p99")
        }
        return b6_vs_greedy(vs["p90"], vs["p99"])

    record_alpha(run, cfg, vs_greedy)


def record_std(run, cfg, grid: GridResults) -> None:
    """B7: TOFEC's delay STD against Greedy's and against the best static code's."""
    std = grid.pivot["std"]
    std_mid = [r for r in grid.rates if 5 <= r <= 40]
    record_alpha(
        run,
        cfg,
        lambda a: b7_vs_greedy(
            (std.loc[std_mid, tofec_name(a)] / std.loc[std_mid, "Greedy"]).max()
        ),
    )
    record_alpha(
        run,
        cfg,
        lambda a: b5_envelope(
            "B7-envelope",
            "TOFEC's delay STD matches the best static code's (λ <= 0.90·C_full)",
            ratio_to_envelope(grid.summary, tofec_name(a), "std").loc[grid.mid],
            T["b7"]["vs_envelope"],
            envelope_context(grid, tofec_name(a), "std", cfg.n_threads),
        ),
    )


def k_mix_table(cfg, grid: GridResults) -> pd.DataFrame:
    """Per rate: TOFEC's top-2 adjacent-k share at each α of the reading, Greedy's share of
    k = 1 or 6, and TOFEC's modal k."""
    greedy = grid.k_shares("Greedy")
    table = pd.DataFrame(
        {
            f"top-2 α = {a:g}": grid.k_shares(tofec_name(a)).apply(top2_fraction, axis=1)
            for a in (cfg.alpha, *ALPHA_ALTS.values())
        }
    )
    table["Greedy k∈{1,6}"] = greedy.k1 + greedy.k6
    table["modal k TOFEC"] = grid.k_shares(tofec_name(cfg.alpha)).apply(modal_k, axis=1)
    return table


def record_k_mix(run, cfg, grid: GridResults, table: pd.DataFrame) -> None:
    """B8: TOFEC's modal k falls with the load and concentrates on two adjacent k; Greedy's
    does not."""

    def shares(a):
        return grid.k_shares(tofec_name(a))

    record_alpha(run, cfg, lambda a: b8_modal(shares(a).apply(modal_k, axis=1), grid.c_full))
    record_alpha(run, cfg, lambda a: b8_top2(shares(a).apply(top2_fraction, axis=1), a))
    run.record(b8_greedy(table["Greedy k∈{1,6}"].min()), not_affected_by=list(cfg.readings))


def record_capacity(run, cfg, grid: GridResults, demo: dict) -> None:
    """B3 and B2-fixedk from the saturation runs (``experiment.capacity_demo``) and the sweep's
    runs at 0.95·C_full."""
    sat, c_full, summary = demo["saturated"], grid.c_full, grid.summary
    for p in ("TOFEC", "Greedy"):
        run.record(b3_saturated(p, sat.throughput[p], c_full))
    r95 = min(grid.rates, key=lambda r: abs(r - round(0.95 * c_full, 2)))

    def stable(p):
        row = summary[(summary.rate == r95) & (summary.policy == p)].iloc[0]
        gap = abs(row.throughput / row.arrival_rate - 1)
        return b3_stable(p.split()[0], r95, gap, row.trend_frac)

    record_alpha(run, cfg, lambda a: stable(tofec_name(a)))
    run.record(stable("Greedy"), not_affected_by=list(cfg.readings))
    rep = demo["replication"]
    run.record(
        b3_replication(T["b3_replication"] * c_full, rep.throughput / rep.arrival_rate, rep.trend),
        not_affected_by=list(cfg.readings),
    )
    record_alpha(run, cfg, lambda a: b2_fixedk(demo["fixed_k"][a], a))


def on_input(cfg, claim: Claim) -> Claim:
    """``claim`` with its reason saying, when a real trace drove the changing workload, that it
    was checked on that trace's arrivals (the Poisson stand-in's claims are left as they are)."""
    if not getattr(cfg, "trace", ""):
        return claim
    return replace(
        claim,
        reason=f"{claim.reason} Checked on the arrivals of {cfg.input_description()}, "
        "rescaled to each phase's rate, not on Poisson arrivals.",
    )


def record_phases(run, cfg, ph: pd.DataFrame) -> None:
    """B9: the changing workload — the switch at the surge, the phases against Ideal, the code's
    stability and the recovery after the drop (each reason names a real trace's arrivals)."""
    P, Lit = ph.loc["primary"], ph.loc["literal 10/80/10"]
    ideal = {v: ideal_name(v) for v in POINT.alternatives}

    def name(a):
        return "TOFEC" if a == cfg.alpha else tofec_name(a)

    def surge(a):
        return on_input(cfg, b9a_surge(P.switch_s[name(a)], P.surge_mean_k[name(a)], a))

    def phases(a, point):
        t, i = name(a), ideal[point]
        gaps = {
            f"phase {j}": abs(P[f"phase{j}_mean"][t] / P[f"phase{j}_mean"][i] - 1)
            for j in (1, 2, 3)
        }
        worst = max(gaps, key=gaps.get)
        extremes = max(gaps["phase 1"], gaps["phase 3"])
        claim = b9b_phases(extremes, gaps["phase 2"], i, worst, P.recovery_s[t])
        return on_input(cfg, claim)

    def stability(a):
        ratio = P.k_std_p1p3[name(a)] / P.k_std_p1p3["Greedy"]
        return on_input(cfg, b9c_stability(ratio, P.phase2_k1[name(a)], a))

    def recovery(a, point):
        times = (Lit.recovery_s[name(a)], Lit.recovery_s["Greedy"], Lit.recovery_s[ideal[point]])
        return on_input(cfg, b9d_recovery(*times, a, point))

    def recovery_primary(a, point):
        times = (P.recovery_s[name(a)], P.recovery_s["Greedy"], P.recovery_s[ideal[point]])
        return on_input(cfg, b9d_primary(*times))

    record_alpha(run, cfg, surge)
    record_both(run, cfg, phases)
    record_alpha(run, cfg, stability)
    greedy = b9c_greedy(P.phase2_k_ge4["Greedy"], Lit.phase2_k_ge4["Greedy"])
    run.record(on_input(cfg, greedy), not_affected_by=list(cfg.readings))
    record_both(run, cfg, recovery)
    record_both(run, cfg, recovery_primary)
