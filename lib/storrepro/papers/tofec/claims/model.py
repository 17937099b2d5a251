"""Sections 1–3 and 8–10: the task-delay model (C1, C1-copula), the MDS codes (MDS), the
analysis — Eqs. (2)–(4) (A1, A2, A2-gap), Theorem 1 (A3), Corollary 1 (A4), separability (A5) —
and this reproduction's own reports and checks: the α ablation (C2), the backlog model (C3),
the queue semantics (A6) and the kernel (KERNEL). The inputs are the notebook's tables and
numbers, named as the measures read them."""

from __future__ import annotations

from functools import partial

from storrepro.papers.tofec.claims import band_of, pct
from storrepro.suite import bands
from storrepro.suite.table import Measured, Row

#: Invariant tolerances: Monte Carlo against a closed form (the plan's checks).
FORMULA_TOLERANCE = 0.01
GAP_RANGE = (0.0, 0.43)  # 1 − γ bounds the integral gap for integers 1 <= k < n
A5_TOLERANCE = 1e-6
A6_TOLERANCE = 1e-9
OURS = "(this suite's own check of its implementation)"
REPORT = "reported, not judged"

TABLE = (
    Row(id="C1", role="analysis", kind="report", tolerance=REPORT,
        statement="Fig. 5: p99 service delay of a 3 MB / 1 MB-chunk read falls by ~50/65/80 % "
        "with 1/2/3 extra coded chunks (all tasks started together)",
        words="'both approaches reduce the 99th percentile delays by roughly 50%, 65% and 80% "
        "by downloading 1, 2 and 3 extra coded chunks'", paper_value="50 / 65 / 80 %"),
    Row(id="C1-copula", role="stand-in", kind="should",
        statement="A Gaussian copula with the proposed ρ = 0.15 gives a task-delay correlation "
        "within the paper's measured 0.11–0.17",
        words="a cross-task correlation of 0.11–0.17 (Shared Key)", paper_value="0.11–0.17",
        band=partial(bands.paper_range, 0.11, 0.17), of="Pearson correlation of one request's "
        "task delays", no_uncertainty="one correlation over every sampled request"),
    Row(id="MDS", role="invariant", tolerance="byte-exact for every subset", words=OURS,
        statement="One (12,6) Reed–Solomon code over 0.5 MB strips serves every chunk size: "
        "batched 6, 3 or 2 strips per chunk it is a (2,1), (4,2) or (6,3) code whose every "
        "k-subset of chunks rebuilds the 3 MB object exactly",
        paper_value="MDS property (Fig. 3)"),
    Row(id="A1", role="invariant", words=OURS, paper_value=0.0,
        tolerance=f"max |error| <= {pct(FORMULA_TOLERANCE)}",
        statement="Eq. (3): MC mean cost of all 27 codes (PURE sampler, simultaneous start) "
        "matches nΔ + kE"),
    Row(id="A2", role="invariant", words=OURS, paper_value=0.0,
        tolerance=f"max |error| <= {pct(FORMULA_TOLERANCE)}",
        statement="Eq. (2): MC mean service delay of all 27 codes (PURE sampler) matches "
        "Δ + E·Σ1/i"),
    Row(id="A2-gap", role="invariant", words=OURS, paper_value="<= 0.577",
        tolerance=f"within [{GAP_RANGE[0]:g}, {GAP_RANGE[1]:g}]",
        statement="The integral bound's gap ln(n/(n−k)) − Σ1/i stays below Euler's γ for "
        "1 <= k < n <= 12"),
    Row(id="A3", not_affected_by=("ideal_decision_point", "alpha", "phase2_load"),
        statement="Theorem 1: at λ = 5, 20, 40, 60 req/s all Nelder–Mead starts reach one "
        "optimum and it satisfies k = g(r), φ(Λ) = h(r)",
        words="Theorem 1: one optimum, where k = g(r) and φ(Λ) = h(r) (the plan's check: 4 "
        "significant digits)", paper_value="unique optimum",
        band=partial(bands.number, 0.0, 1e-4), of="the larger of the residual and the starts' "
        "spread", fmt="{:.1e}",
        no_uncertainty="a deterministic optimisation of closed-form functions"),
    Row(id="A4", not_affected_by=("ideal_decision_point", "alpha", "phase2_load"),
        statement="Corollary 1: k*, n*, r* strictly decrease in E[Q] on 0.01…20; g and r·g "
        "increase and h decreases on (1, 20]",
        words="Corollary 1: the optimal k*, n*, r* decrease as the backlog grows",
        paper_value="strictly monotone", band=partial(bands.direction, sign=-1),
        of="checks not strictly monotone", fmt="{:g}",
        tolerance="strictly monotone on every step of k*, n*, r*, h (> 0 for g, r·g)",
        no_uncertainty="closed-form functions and a deterministic optimum on a fixed grid"),
    Row(id="A5", role="invariant", words=OURS, paper_value=0.0,
        tolerance=f"<= {A5_TOLERANCE:g}",
        statement="Separability: two classes at the same total usage Λ get the same optimal "
        "codes for any (λ, p), and class 1 alone at that Λ the same code"),
    Row(id="C2", role="analysis", kind="report", tolerance=REPORT,
        statement="α sweep and threshold-rule ablation (envelope gap, top-2 share, recovery)",
        words="“We use memory factor [α = stripped] in TOFEC.”", paper_value="α stripped"),
    Row(id="C3", role="analysis", kind="report", tolerance=REPORT,
        statement="Measured E[Q] of (1,1) vs the M/M/1 backlog model (Eq. 11)",
        words="'we approximate the request queue with an [M/M/1] queue'",
        paper_value="approximation"),
    Row(id="A6", role="invariant", words=OURS,
        tolerance=f"no violation; relative gap <= {A6_TOLERANCE:g}",
        statement="Queue semantics hold on every event (simpy store; TOFEC, Greedy and the "
        "head-of-line Ideal at 60 req/s); thread busy time = Σ request costs",
        paper_value="FIFO queues; a request's other tasks cancelled at its k-th completion"),
    Row(id="KERNEL", role="invariant", words=OURS, tolerance="identical (0)", paper_value=0.0,
        statement="The numba kernel gives every request the simpy model's code, times and cost "
        "(TOFEC, Greedy, head-of-line Ideal)"),
)


def _check(ok: bool, value, text: str, reason: str, failed: str, **extra) -> Measured:
    """A pass/fail rule's result: ``failed`` ends the reason when it does not hold."""
    return Measured(value, text, extra, verdict="reproduced" if ok else "not reproduced",
                    reason=reason + ("." if ok else failed))


def _report(text: str, reason: str, **extra) -> Measured:
    return Measured(None, text, extra, verdict="not checkable", reason=reason)


def measure_c1(inputs) -> Measured:
    values = list(inputs["fig5"].values())
    said = " / ".join(pct(v) for v in values)
    return _report(
        said, "The paper measured these on S3 traces that are not public; the "
        "surrogate SUR was calibrated to other numbers (light-load delays and capacity ratios), "
        f"so its {said} reduction says how SUR's tail compares, not whether the paper holds.",
        p99_reduction=dict(inputs["fig5"]), paper=[0.50, 0.65, 0.80])


def measure_c1_copula(inputs) -> Measured:
    pearson, rho, rho_mid = inputs["copula"]
    return Measured(pearson, f"Pearson {pearson:.3f} at ρ = {rho:g}",
                    {"pearson": pearson, "rho": rho, "rho_for_middle": rho_mid},
                    reason="1 MB chunks, SUR marginals. The copula calibrates nothing a claim "
                    "uses: every run behind a claim draws independent tasks, like the paper's "
                    "analytical model; only Section 1's copula table uses it, so this says how "
                    "faithful that copula is to the paper's traces.")


def explain_c1_copula(inputs, verdict: str, measured: Measured) -> str:
    return "" if verdict == "reproduced" else (
        "Outside the paper's range: the normal-scale correlation shrinks on SUR's skewed "
        f"two-component marginal; ρ = {measured.extra['rho_for_middle']:.3f} gives the middle of "
        "the range (Section 1, copula table).")


def measure_mds(inputs) -> Measured:
    batched, strips_exact, trials = inputs["mds"]
    results = {**batched, f"(12,6) strips, {trials} random subsets": strips_exact}
    failed = [name for name, ok in results.items() if not ok]
    return _check(
        not failed, len(failed), f"{len(results) - len(failed)} of {len(results)} codes exact",
        f"Every k-subset of chunks of the batched codes {', '.join(batched)} and {trials} "
        "random 6-subsets of the strips decoded to the original bytes",
        f"; decoding failed for {', '.join(failed)}: strip batching does not keep the MDS "
        "property in this implementation.", exact=results)


def _formula(inputs, key: str, what: str) -> Measured:
    error = inputs[key]
    return _check(
        error <= FORMULA_TOLERANCE, error, f"max |error| {pct(error, 2)}",
        f"Largest relative gap between the Monte-Carlo {what} and the closed form over the 27 "
        f"codes: {pct(error, 2)}", "; the sampler or the formula is wrong.",
        max_abs_relative_error=error)


measure_a1 = partial(_formula, key="cost_error", what="mean cost")
measure_a2 = partial(_formula, key="service_error", what="mean service delay")


def measure_a2_gap(inputs) -> Measured:
    gaps = inputs["gaps"]
    low, high = min(gaps.values()), max(gaps.values())
    at = max(gaps, key=gaps.get)
    return _check(GAP_RANGE[0] <= low and high <= GAP_RANGE[1], high,
                  f"{low:.4f} to {high:.4f}",
                  f"The gap ranges over [{low:.4f}, {high:.4f}], largest at (n,k) = {at}",
                  "; the harmonic sums are computed wrongly.", min=low, max=high, argmax=list(at))


def measure_a3(inputs) -> Measured:
    residual, spread = inputs["a3"]
    return Measured(max(residual, spread), f"residual {residual:.1e}, start spread {spread:.1e}",
                    {"max_residual": residual, "max_start_spread": spread})


def explain_a3(inputs, verdict: str, measured: Measured) -> str:
    residual, spread = inputs["a3"]
    if verdict == "reproduced":
        return (f"Eight Nelder–Mead starts per λ end within {spread:.1e} of each other and the "
                f"best satisfies Theorem 1's conditions to {residual:.1e}.")
    if not band_of(TABLE, "A3").contains(spread):
        return (f"Nelder–Mead starts end {spread:.1e} apart (log scale): the objective has more "
                "than one local optimum, against Theorem 1's uniqueness (Section 3, A3 table).")
    return (f"The numerical optimum misses Theorem 1's conditions by {residual:.1e}: the "
            "reconstructed conditions do not characterise the optimum (Section 3, A3 table).")


def measure_a4(inputs) -> Measured:
    checks = inputs["corollary"]
    failed = [name for name, ok in checks.items() if not ok]
    return _check(not failed, len(failed), f"{len(checks) - len(failed)} of {len(checks)} "
                  "strictly monotone", "Every one of " + ", ".join(checks) + " is strictly "
                  "monotone on its grid", f"; not strictly monotone: {', '.join(failed)} "
                  "(Section 3, Corollary 1 figure).", checks=dict(checks))


def measure_a5(inputs) -> Measured:
    gap = inputs["separability"]
    return _check(
        gap <= A5_TOLERANCE, gap, f"max difference {gap:.1e} in r or k",
        f"Largest difference of r or k between the two mixes and class 1 alone: {gap:.1e}. "
        "Theorem 1's equations depend on the mix only through Λ, so this holds by construction "
        "and checks the multi-class solver",
        "; the solver does not find the equations' solution (Section 3, A5).",
        max_difference=gap)


def measure_c2(inputs) -> Measured:
    table = inputs["alpha_table"]
    text = "; ".join(f"{v}: gap {r.gap:.2f}, top-2 {r.top2:.2f}" for v, r in table.iterrows())
    return _report(
        text, "A larger α concentrates TOFEC's code choice (top-2 "
        "share) and slows its recovery after a drop; the paper's value was lost, so the sweep "
        "is reported (Section 8).", table=table.to_dict(orient="index"))


def measure_c3(inputs) -> Measured:
    table = inputs["backlog_table"]
    text = "; ".join(f"λ={r:g}: {a:.2f} vs {b:.2f}" for r, (a, b) in table.iterrows())
    return _report(
        text, "The L-thread system pools its servers, so its "
        "request queue is shorter than the M/M/1 model predicts at the same load; TOFEC's "
        "thresholds inherit the bias.", table=table.to_dict(orient="index"))


def measure_a6(inputs) -> Measured:
    requests, gap = inputs["a6"]["requests"], inputs["a6"]["busy_vs_cost"]
    return _check(
        gap <= A6_TOLERANCE, gap, f"{requests} requests, busy time vs cost {gap:.1e}",
        f"The A6 invariants were checked after every event of {requests} requests (a violation "
        f"raises); busy time and summed cost differ by {gap:.1e}",
        ": thread time is lost or double-counted.", requests=requests, busy_vs_cost=gap)


def measure_kernel(inputs) -> Measured:
    gap = inputs["a6"]["max_difference"]
    return _check(
        gap == 0.0, gap, f"max difference {gap:.2g}", "Every request's code, times and cost "
        "agree exactly between the kernel and the simpy store on the same random streams",
        f"; they differ by up to {gap:.2g}: the kernel is wrong.", max_difference=gap)
