"""Section 5, delay against the arrival rate: the codes' delays (B1), TOFEC's light-load gains
(B4), its envelope (B5), its tails (B6) and its backlog delay (B7)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from storrepro.papers.tofec.claims.shared import REQUIRES, both, pct, worst_case
from storrepro.papers.tofec.config import (
    B1_BAND,
    B1_BEST_BAND,
    B1_BEST_PAPER,
    B1_PAPER,
    B4_BAND,
    B5_BAND,
    B6_BAND,
    B6_VS_GREEDY_BAND,
    B7_ENVELOPE_BAND,
    B7_VS_GREEDY_BAND,
    band_text,
)
from storrepro.suite.claims import Claim, ci_text, interval, judged


def b1_code(code: str, means, medians) -> Claim:
    """B1-(1,1), B1-(2,1) (calibration): light-load (λ = 2) mean and median of a static code,
    one value per seed, each ≈ the paper's."""
    m_ref, med_ref = B1_PAPER[code]
    band = B1_BAND
    u_mean = interval(np.asarray(means) / m_ref, of="mean / the paper's")
    u_med = interval(np.asarray(medians) / med_ref, of="median / the paper's")
    verdict = both(judged(band, u_mean), judged(band, u_med))
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
        + ("." if ok else ", so a miss means the calibration has drifted."),
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
        + ("." if verdict == "reproduced" else ", so a miss means the calibration has drifted."),
        role="calibration",
        band=band.source,
        uncertainty=u,
        values={"mean_ms": mean, "code": code},
    )


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
        "this shows the calibration, not the paper's gain.",
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
        "ms); SUR was calibrated to it.",
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
            f" There the best static code is {best}; {pct(ctx['k_off'])} of the requests use "
            f"another k, {pct(ctx['k_above'])} a larger one (Fig. 10)"
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
           else "; TOFEC's code choice is not steadier than Greedy's here (Fig. 9)."),
        band=band.source,
        uncertainty=u,
        values={"max_ratio": top, "deciding_rate": at},
    )
