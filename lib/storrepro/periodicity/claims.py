"""Claim rules of notebook 01 (PrecisePeriod / PreciseScheduling): one function per claim id.

Each rule takes an experiment's outputs and returns a :class:`storrepro.claims.Claim`. Bands
and slacks are the module constants below, fixed before any run; every tolerance text is
built from the same constant the check uses. Roles:

- ``invariant``: A1 (PrecisePeriod on noiseless sines), A2/A3 (the baseline ports against
  their documented examples and R), A4 (the data sets as built), B8 (the SAZED ports against
  the SAZED paper's CRAN ranking);
- ``calibration``: F0 (the surrogate's load scaled so that hash placement's worst SSD reaches
  the paper's ≈ 10 ms 99.99 % latency);
- ``test``: every statement of the paper (A5's arithmetic, B1–B7, C1–C4, D1, E1–E3, F1–F7).

Conditions: PrecisePeriod's detection claims require A1 (a detector that cannot find a clean
sine's period says nothing about the paper), the baseline comparisons require A2.

:func:`headline_text` builds the paper's headline from the recorded claims.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from storrepro.claims import Claim, verdict_of
from storrepro.periodicity.metrics import error_direction, scores

PP = "PrecisePeriod"
BASELINES = ("findFrequency", "seasonLength", "SAZED_maj", "SAZED_opt")
ABLATIONS = ("No Preprocessing", "Single Verification")

# ---- bands (our acceptance checks, fixed before any run)
A1_EXACT, A1_WRONG = 0.95, 1
A2_SEASON_SLACK = 1
A3_AGREE = 0.95
B1_TIE = 0.01
B2B_CRAN_SLACK = 0.03
B3_PRECISION, B3_MARGIN, B3B_PRECISION = 0.90, 0.10, 0.85
B4_DROP = 0.10
B5_RANK = 2
B6_GAP = 0.10
B8_SLACK = 0.05
C_SLACK = {"synthetic": 0.01, "cran": 0.02}
C1_STRICT = 0.02
C3_LONGER = 0.60
C4_RATIO, C4_SPLIT = 1.5, 0.025
D1_PRECISION_DROP, D1_NEAR = 0.02, 0.02
E1_SHARE, E1_PRECISION = (0.25, 0.35), 0.9
E2_PCC = 0.8
E3_PERIODS = 5
F1_TIE, F1_BUDGET_SHARE, F1_REPLICATES = 2.0, 0.8, 3
F2_SLACK, F2_EARLY, F2_SHARE = 0.5, 0.25, 0.7
F3_REDUCTION = 50.0
F4_RATIO = 1.05
F6_CLOSE = 0.15
F7_CHANGE = 0.20
F0_TARGET_MS, F0_BAND = 10.0, 0.10  # the paper's single-SSD ≈ 10 ms; ±10 % relative
CEILING = "ceiling (actual future)"

_READINGS = "the table of PrecisePeriod under each verification reading (section 4b)"
VERIFY = "verification_target"


def on_input(claim: Claim, source: str) -> Claim:
    """``claim`` with its reason saying which workload it was checked on (``source``: the
    config's :meth:`~storrepro.config.NotebookConfig.input_description`); for the scheduling
    claims, which need the paper's private traces."""
    return dataclasses.replace(claim, reason=f"{claim.reason} Checked on the {source}.")


def judge(run, rule, by_reading: dict, *args, source: str | None = None) -> dict:
    """Record ``rule(by_reading[v], *args)`` under the primary verification reading and under
    each alternative (``by_reading``: the rule's input per reading); ``source``: see
    :func:`on_input`."""
    reading = run.config.readings[VERIFY]

    def claim(v):
        c = rule(by_reading[v], *args)
        return c if source is None else on_input(c, source)

    alternatives = {f"{VERIFY}={v}": claim(v) for v in reading.others()}
    return run.record(claim(reading.primary), readings=alternatives)


def _get(scored: pd.DataFrame, dataset: str, tol: float, method: str, metric: str) -> float:
    row = scored[
        (scored.dataset == dataset) & (scored.tolerance == tol) & (scored.method == method)
    ]
    return float(row[metric].iloc[0])


def _best_other(scored, dataset, tol, metric, methods=BASELINES):
    others = {m: _get(scored, dataset, tol, m, metric) for m in methods if m != PP}
    name = max(others, key=others.get)
    return name, others[name]


def _pp_profile(scored: pd.DataFrame, dataset: str, tol: float) -> str:
    """Why PrecisePeriod scores as it does on a data set: how often it answers, how precisely."""
    row = scored[
        (scored.dataset == dataset) & (scored.tolerance == tol) & (scored.method == PP)
    ].iloc[0]
    answered = row.answered / row.n if row.n else math.nan
    return (
        f"on {dataset} PrecisePeriod answers {answered:.0%} of {int(row.n)} series with "
        f"precision {row.precision:.3f}"
    )


def _cause_pp_low(scored, dataset, tol) -> str:
    row = scored[
        (scored.dataset == dataset) & (scored.tolerance == tol) & (scored.method == PP)
    ].iloc[0]
    if row.precision >= 0.85:
        return (
            f"{_pp_profile(scored, dataset, tol)}: its answers are right but its verification "
            f"rejects most candidates, and abstaining costs recall; {_READINGS} shows how much "
            "of it the verification target decides"
        )
    return f"{_pp_profile(scored, dataset, tol)}: its answers are often wrong"


def _pm(x: float) -> str:
    return f"±{x:.0%}"


# ------------------------------------------------------------------ A: sanity and arithmetic
def a1(exact: float, wrong: int, exact_eq5: float) -> Claim:
    ok = exact >= A1_EXACT and wrong <= A1_WRONG
    reason = (
        f"On noiseless sines of period 50, 55, …, 200 (N = 1000) PrecisePeriod returns the "
        f"period exactly for {exact:.0%} and a wrong one for {wrong}."
    )
    if not ok:
        reason += " The detector itself misreads clean periodic input: an implementation defect."
    return Claim(
        id="A1",
        statement="PrecisePeriod recovers the period of noiseless sines exactly",
        paper_value=f"≥ {A1_EXACT:.0%} exact, ≤ {A1_WRONG} wrong",
        reproduced_value=f"{exact:.0%} exact, {wrong} wrong (literal Eq. (5) ACF: "
        f"{exact_eq5:.0%} exact)",
        tolerance=f"≥ {A1_EXACT:.0%} exact and ≤ {A1_WRONG} wrong",
        verdict=verdict_of(ok),
        reason=reason,
        role="invariant",
        values={"exact": exact, "wrong": wrong, "exact_eq5": exact_eq5},
    )


def a2(outputs: dict, expected: dict) -> Claim:
    def ok_one(k):
        slack = A2_SEASON_SLACK if "season" in k else 0
        return outputs[k] is not None and abs(outputs[k] - expected[k]) <= slack

    bad = [k for k in expected if not ok_one(k)]
    return Claim(
        id="A2",
        statement="Baseline ports reproduce their documented examples",
        paper_value=expected,
        reproduced_value=", ".join(f"{k} = {v}" for k, v in outputs.items()),
        tolerance=f"exact; seasonLength ±{A2_SEASON_SLACK}",
        verdict=verdict_of(not bad),
        reason=(
            f"All {len(expected)} documented examples reproduced."
            if not bad
            else f"The ports miss {', '.join(bad)}: a porting defect."
        ),
        role="invariant",
        values={"outputs": outputs, "expected": expected, "missed": bad},
    )


def a3(keys: list[str], port: list[int], r: list[int] | None, oracle: str) -> Claim:
    """The findFrequency port (its R-valued output, 1 = no period) against R's own
    ``forecast::findfrequency`` on the same series; ``r`` None: R could not run, and ``oracle``
    says why, else it names R's and forecast's versions."""
    base = dict(
        id="A3",
        statement="findFrequency port agrees with R on ≥ 95 % of the CRAN series",
        paper_value=f"≥ {A3_AGREE:.0%}",
        tolerance=f"≥ {A3_AGREE:.0%} identical",
        role="invariant",
        kind="should",
    )
    if r is None:
        return Claim(
            **base,
            reproduced_value="R not available",
            verdict="not checkable",
            reason=f"{oracle}. The port is unit-tested against R's documented ar(lh) output "
            "instead.",
        )
    differ = {k: {"port": a, "R": b} for k, a, b in zip(keys, port, r, strict=True) if a != b}
    share = 1 - len(differ) / len(keys)
    shown = ", ".join(f"{k} (port {d['port']}, R {d['R']})" for k, d in list(differ.items())[:5])
    return Claim(
        **base,
        reproduced_value=f"{len(keys) - len(differ)}/{len(keys)} identical ({share:.0%})",
        verdict=verdict_of(share >= A3_AGREE),
        reason=f"{oracle} ran findfrequency on the same {len(keys)} series: "
        + ("every period identical." if not differ else f"the port differs on {shown}"
           + (f" and {len(differ) - 5} more" if len(differ) > 5 else "") + "."),
        values={"series": len(keys), "identical": len(keys) - len(differ), "differ": differ,
                "oracle": oracle},
    )


def a4(table: pd.DataFrame, syn_lengths, cran_lengths, cran_freqs, used: int) -> Claim:
    up = float((table.slope > 0).mean())
    ok_syn = (
        all(n == 1000 for n in syn_lengths)
        and table.period.between(50, 200).all()
        and table.outlier_ratio.between(0, 0.05).all()
        and table.noise_var.between(0, 0.5).all()
        and 0.4 <= up <= 0.6
    )
    ok_cran = (
        len(cran_lengths) == 82
        and min(cran_lengths) == 16
        and max(cran_lengths) == 3024
        and min(cran_freqs) == 2
        and round(max(cran_freqs)) == 52
    )
    full = len(syn_lengths) == 1000
    verdict = "reproduced" if ok_syn and ok_cran and full else (
        "partly" if ok_syn and ok_cran else "not reproduced"
    )
    if verdict == "reproduced":
        reason = "Both data sets have the sizes and ranges the paper gives."
    elif verdict == "partly":
        reason = f"The ranges hold, but this run uses {len(syn_lengths)} of the 1000 synthetic " \
            "series (a smaller profile)."
    else:
        reason = "A data set departs from the paper's description: " + (
            "synthetic ranges" if not ok_syn else "CRAN sizes or periods"
        ) + "."
    return Claim(
        id="A4",
        statement="Data sets as described: synthetic 1000 × length 1000, T ∈ [50, 200], "
        "r ≤ 0.05, σ² ≤ 0.5, both trend signs 40–60 %; CRAN 82 series, length 16–3024, period "
        "2–52",
        paper_value="1000 × 1000; CRAN 82, length 16–3024, period 2–52",
        reproduced_value=f"synthetic {len(syn_lengths)} × 1000, increasing trend {up:.0%}; CRAN "
        f"{len(cran_lengths)} series, length {min(cran_lengths)}–{max(cran_lengths)}, period "
        f"{min(cran_freqs):g}–{max(cran_freqs):.2f} (using {used})",
        tolerance="exact ranges; trend share 40–60 %",
        verdict=verdict,
        reason=reason,
        role="invariant",
        values={"synthetic": len(syn_lengths), "increasing_share": up, "cran": len(cran_lengths),
                "cran_used": used},
    )


def a5(moves: float, moves_gib: float) -> Claim:
    ok = round(moves) == 17
    return Claim(
        id="A5",
        statement="1 % traffic overhead = 17 segment moves per 6 h (decimal GB)",
        paper_value=17,
        reproduced_value=f"{moves:.2f} → {round(moves)} moves (binary GiB: {moves_gib:.2f} → "
        f"{round(moves_gib)})",
        tolerance="round() equal to 17",
        verdict=verdict_of(ok),
        reason=f"0.01 × 2.5 GB/s × 6 h / 32 GB = {moves:.2f} moves"
        + (", so the paper's 17 uses decimal units." if ok else ", not the paper's 17."),
        values={"moves": moves, "moves_gib": moves_gib},
    )


# ------------------------------------------------------------------ B: Table 1 / Fig. 8
def b1(scored: pd.DataFrame, datasets, tol: float) -> Claim:
    """B1 (±2 %, must) or B1b (±0 %, should): PrecisePeriod has the highest F1 on both sets."""
    cid, kind = ("B1", "must") if tol else ("B1b", "should")
    parts, lost, values = [], [], {}
    for d in datasets:
        pp = _get(scored, d, tol, PP, "f1")
        name, other = _best_other(scored, d, tol, "f1")
        parts.append(f"{d} {pp:.3f} vs {name} {other:.3f}")
        values[d] = {"PrecisePeriod": pp, "best_baseline": name, "best_baseline_f1": other}
        if pp < other - B1_TIE:
            lost.append((d, name, other, pp))
    if not lost:
        reason = "PrecisePeriod's F1 leads (or ties) every baseline on " + ", ".join(parts) + "."
    else:
        reason = "; ".join(
            f"on {d} {name}'s F1 {o:.3f} beats PrecisePeriod's {p:.3f}" for d, name, o, p in lost
        ) + ". Cause: " + "; ".join(_cause_pp_low(scored, d, tol) for d, *_ in lost) + "."
    return Claim(
        id=cid,
        statement=f"PrecisePeriod has the highest F1 of the 5 methods on both data sets at "
        f"{_pm(tol)}",
        paper_value="best overall (Table 1, Fig. 8)",
        reproduced_value="F1 " + "; ".join(parts),
        tolerance=f"≥ best baseline − {B1_TIE:g}",
        verdict=verdict_of(not lost),
        reason=reason,
        kind=kind,
        requires=("A1", "A2"),
        values=values,
    )


def b2(scored: pd.DataFrame) -> Claim:
    pp = _get(scored, "synthetic", 0.02, PP, "accuracy")
    name, other = _best_other(scored, "synthetic", 0.02, "accuracy")
    ok = pp >= other
    reason = f"Synthetic accuracy (±2 %): PrecisePeriod {pp:.3f}, best baseline {name} {other:.3f}."
    if not ok:
        reason += " Cause: " + _cause_pp_low(scored, "synthetic", 0.02) + "."
    return Claim(
        id="B2",
        statement="PrecisePeriod has the highest accuracy on the synthetic set at ±2 %",
        paper_value="best (Table 1)",
        reproduced_value=f"accuracy {pp:.3f} vs {name} {other:.3f}",
        tolerance="≥ best baseline",
        verdict=verdict_of(ok),
        reason=reason,
        requires=("A1", "A2"),
        values={"PrecisePeriod": pp, "best_baseline": name, "best_baseline_accuracy": other},
    )


def b2b(scored: pd.DataFrame) -> Claim:
    cells = [("cran", 0.0, B2B_CRAN_SLACK), ("cran", 0.02, B2B_CRAN_SLACK),
             ("synthetic", 0.0, 0.0)]
    parts, lost = [], []
    for d, t, slack in cells:
        pp = _get(scored, d, t, PP, "accuracy")
        name, other = _best_other(scored, d, t, "accuracy")
        parts.append(f"{d} {_pm(t)} {pp:.3f} vs {name} {other:.3f}")
        if pp < other - slack:
            lost.append((d, t))
    reason = "Accuracy: " + "; ".join(parts) + "."
    if lost:
        reason += " Cause: " + "; ".join(_cause_pp_low(scored, d, t) for d, t in lost) + "."
    return Claim(
        id="B2b",
        statement="PrecisePeriod has the highest accuracy on CRAN (≤ 0.03 behind allowed) and "
        "on synthetic at ±0 %",
        paper_value="best overall (Table 1)",
        reproduced_value="; ".join(parts),
        tolerance=f"CRAN: ≥ best − {B2B_CRAN_SLACK:g}; synthetic ±0 %: ≥ best",
        verdict=verdict_of(not lost),
        reason=reason,
        kind="should",
        requires=("A1", "A2"),
        values={"cells_lost": [f"{d} {_pm(t)}" for d, t in lost]},
    )


def b3(scored: pd.DataFrame) -> Claim:
    prec = _get(scored, "cran", 0.0, PP, "precision")
    name, other = _best_other(scored, "cran", 0.0, "precision")
    ok = prec >= B3_PRECISION and prec >= other + B3_MARGIN
    reason = f"CRAN precision (±0 %): PrecisePeriod {prec:.3f}, best baseline {name} {other:.3f}."
    if not ok:
        why = f"Below {B3_PRECISION:g}" if prec < B3_PRECISION else "Too close to the baseline"
        reason += f" {why}: {_pp_profile(scored, 'cran', 0.0)}."
    return Claim(
        id="B3",
        statement="PrecisePeriod precision on CRAN is nearly 1.0 and ≥ 0.10 above the best "
        "baseline's",
        paper_value="nearly 1.0 (Fig. 8)",
        reproduced_value=f"precision {prec:.3f} vs {name} {other:.3f}",
        tolerance=f"≥ {B3_PRECISION:g} and ≥ best baseline + {B3_MARGIN:g}",
        verdict=verdict_of(ok),
        reason=reason,
        requires=("A1", "A2"),
        values={"precision": prec, "best_baseline": name, "best_baseline_precision": other},
    )


def b3b(scored: pd.DataFrame) -> Claim:
    ps = _get(scored, "synthetic", 0.02, PP, "precision")
    ok = ps >= B3B_PRECISION
    reason = f"{_pp_profile(scored, 'synthetic', 0.02)} (±2 %)."
    if not ok:
        reason += " Many of its verified periods are wrong."
    return Claim(
        id="B3b",
        statement="PrecisePeriod precision on synthetic (±2 %) is high",
        paper_value="≈ 1.0",
        reproduced_value=f"precision {ps:.3f}",
        tolerance=f"≥ {B3B_PRECISION:g}",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        requires=("A1",),
        values={"precision": ps},
    )


def b4(scored: pd.DataFrame) -> Claim:
    fs = _get(scored, "synthetic", 0.02, "findFrequency", "accuracy")
    fc = _get(scored, "cran", 0.02, "findFrequency", "accuracy")
    ok = fs <= fc - B4_DROP
    return Claim(
        id="B4",
        statement="findFrequency accuracy decreases significantly on synthetic",
        paper_value="decreases significantly",
        reproduced_value=f"accuracy {fs:.3f} synthetic vs {fc:.3f} CRAN (±2 %)",
        tolerance=f"synthetic ≤ CRAN − {B4_DROP:g}",
        verdict=verdict_of(ok),
        reason=f"findFrequency's accuracy falls by {fc - fs:.3f} from CRAN to synthetic"
        + ("." if ok else f", less than {B4_DROP:g}."),
        requires=("A2",),
        values={"synthetic": fs, "cran": fc},
    )


def b5(scored: pd.DataFrame, methods) -> Claim:
    ranks = {}
    for metric in ("accuracy", "f1"):
        vals = sorted((_get(scored, "cran", 0.0, m, metric), m) for m in methods)
        ranks[metric] = [m for _, m in vals].index("seasonLength") + 1
    ok = max(ranks.values()) <= B5_RANK
    return Claim(
        id="B5",
        statement="seasonLength scores low on CRAN (overfits a specific data set)",
        paper_value="low on CRAN",
        reproduced_value=f"rank from the bottom: accuracy {ranks['accuracy']}, F1 {ranks['f1']}",
        tolerance=f"rank ≤ {B5_RANK} from the bottom in both",
        verdict=verdict_of(ok),
        reason=f"seasonLength ranks {ranks['accuracy']} (accuracy) and {ranks['f1']} (F1) from "
        "the bottom of the five methods on CRAN (±0 %)"
        + ("." if ok else ": it is not among the worst there."),
        kind="should",
        requires=("A2",),
        values=ranks,
    )


def b6(scored: pd.DataFrame, datasets) -> Claim:
    gaps = {
        f"{m} {d} {_pm(t)}": abs(_get(scored, d, t, m, "accuracy") - _get(scored, d, t, m, "f1"))
        for d in datasets
        for t in (0.0, 0.02)
        for m in ("findFrequency", "SAZED_maj", "SAZED_opt")
    }
    worst = max(gaps, key=gaps.get)
    ok = gaps[worst] <= B6_GAP
    return Claim(
        id="B6",
        statement="findFrequency and SAZED have accuracy close to F1",
        paper_value="accuracy ≈ F1",
        reproduced_value=f"max |accuracy − F1| {gaps[worst]:.3f} ({worst})",
        tolerance=f"max |accuracy − F1| ≤ {B6_GAP:g}",
        verdict=verdict_of(ok),
        reason=f"Largest accuracy–F1 gap of the three always-answering baselines: {gaps[worst]:.3f}"
        f" ({worst})" + ("." if ok else ": that method abstains often there."),
        requires=("A2",),
        values={"max_gap": gaps[worst], "where": worst},
    )


def b7(scored: pd.DataFrame) -> Claim:
    sz = max(_get(scored, "synthetic", 0.02, m, "accuracy") for m in ("SAZED_maj", "SAZED_opt"))
    ffs = _get(scored, "synthetic", 0.02, "findFrequency", "accuracy")
    pps = _get(scored, "synthetic", 0.02, PP, "accuracy")
    ok = ffs < sz < pps
    reason = (
        f"Synthetic accuracy (±2 %): findFrequency {ffs:.3f}, best SAZED {sz:.3f}, "
        f"PrecisePeriod {pps:.3f}."
    )
    if sz >= pps:
        reason += " SAZED beats PrecisePeriod: " + _cause_pp_low(scored, "synthetic", 0.02) + "."
    elif sz <= ffs:
        reason += " SAZED does not beat findFrequency."
    return Claim(
        id="B7",
        statement="SAZED keeps some accuracy on synthetic, between findFrequency and PrecisePeriod",
        paper_value="findFrequency < SAZED < PrecisePeriod",
        reproduced_value=f"findFrequency {ffs:.3f}, SAZED {sz:.3f}, PrecisePeriod {pps:.3f}",
        tolerance="strict order (±2 %)",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        requires=("A1", "A2"),
        values={"findFrequency": ffs, "SAZED": sz, "PrecisePeriod": pps},
    )


def b8(scored: pd.DataFrame) -> Claim:
    o, mj, ff = (_get(scored, "cran", 0.0, m, "accuracy")
                 for m in ("SAZED_opt", "SAZED_maj", "findFrequency"))
    ok = o >= mj - B8_SLACK and min(o, mj) >= ff - B8_SLACK
    return Claim(
        id="B8",
        statement="SAZED paper cross-check on CRAN: opt ≥ maj − 0.05, both ≥ findFrequency − 0.05",
        paper_value="SAZED paper's ranking",
        reproduced_value=f"accuracy opt {o:.3f}, maj {mj:.3f}, findFrequency {ff:.3f}",
        tolerance=f"−{B8_SLACK:g} slack",
        verdict=verdict_of(ok),
        reason="The ports rank on CRAN as the SAZED paper's benchmark does"
        + ("." if ok else ": they do not, a sign of a porting difference."),
        role="invariant",
        kind="should",
        values={"SAZED_opt": o, "SAZED_maj": mj, "findFrequency": ff},
    )


# ------------------------------------------------------------------ C: Table 2 / Fig. 9
def ablation(scored: pd.DataFrame, dataset: str) -> Claim:
    """C1 (synthetic, must; also ≥ +0.02 accuracy over each ablation once) or C2 (CRAN)."""
    cid, kind = ("C1", "must") if dataset == "synthetic" else ("C2", "should")
    slack = C_SLACK[dataset]
    strict_needed = cid == "C1"
    behind, strict = [], dict.fromkeys(ABLATIONS, False)
    for tol in (0.0, 0.02):
        for metric in ("accuracy", "f1"):
            full = _get(scored, dataset, tol, PP, metric)
            for a in ABLATIONS:
                other = _get(scored, dataset, tol, a, metric)
                if full < other - slack:
                    behind.append(f"{a} {metric} {_pm(tol)} {other:.3f} > {full:.3f}")
                if metric == "accuracy" and full >= other + C1_STRICT:
                    strict[a] = True
    ok = not behind and (all(strict.values()) or not strict_needed)
    acc = {a: _get(scored, dataset, 0.02, a, "accuracy") for a in (PP, *ABLATIONS)}
    shown = ", ".join(f"{a} {v:.3f}" for a, v in acc.items())
    reason = f"Accuracy on {dataset} (±2 %): {shown}."
    if behind:
        reason += " An ablation scores higher: " + "; ".join(behind) + "."
    elif not ok:
        weak = [a for a, s in strict.items() if not s]
        reason += f" Not {C1_STRICT:g} ahead of {', '.join(weak)} in accuracy at either tolerance."
    return Claim(
        id=cid,
        statement=f"Both ablations lower accuracy and F1 on {dataset}",
        paper_value="both ablations lower Acc and F1 (Table 2, Fig. 9)",
        reproduced_value="accuracy ±2 %: " + shown,
        tolerance=f"full ≥ ablation − {slack:g}"
        + (f", and ≥ ablation + {C1_STRICT:g} accuracy once each" if strict_needed else ""),
        verdict=verdict_of(ok),
        reason=reason,
        kind=kind,
        requires=("A1",),
        values={"accuracy_2pct": acc, "behind": behind, "strict": strict},
    )


def c3(results: pd.DataFrame) -> Claim:
    syn = results[results.dataset == "synthetic"]
    est = [None if pd.isna(e) else int(e) for e in syn["Single Verification"]]
    d = error_direction(est, syn.truth.tolist(), 0.02)
    share = d["longer"] / d["wrong"] if d["wrong"] else math.nan
    ok = d["wrong"] > 0 and share >= C3_LONGER
    reason = (
        f"{d['longer']} of {d['wrong']} wrong Single-Verification outputs on synthetic are longer"
        f" than T ({d['multiples']} near a multiple)."
    )
    if not ok and d["wrong"]:
        reason += f" The other {d['wrong'] - d['longer']} are shorter than T: its errors are " \
            "not biased long as the paper describes."
    return Claim(
        id="C3",
        statement="Single verification prefers long periods (its errors on synthetic are longer "
        "than T)",
        paper_value="prefers long periods",
        reproduced_value=f"{share:.0%} of wrong outputs longer" if d["wrong"] else "no errors",
        tolerance=f"≥ {C3_LONGER:.0%} longer",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        requires=("A1",),
        values={**d, "share_longer": share},
    )


def c4(results: pd.DataFrame) -> Claim:
    syn = results[results.dataset == "synthetic"]
    high = syn.outlier_ratio > C4_SPLIT
    gaps = []
    for part in (syn[~high], syn[high]):
        acc = [
            scores([None if pd.isna(e) else int(e) for e in part[m]], part.truth.tolist(), 0.02)[
                "accuracy"
            ]
            if len(part)
            else math.nan
            for m in (PP, "No Preprocessing")
        ]
        gaps.append(acc[0] - acc[1])
    ok = gaps[1] > 0 and gaps[1] >= C4_RATIO * gaps[0]
    reason = (
        f"Preprocessing's accuracy gain (±2 %) is {gaps[0]:.3f} on series with r ≤ {C4_SPLIT:g} "
        f"and {gaps[1]:.3f} above."
    )
    if not ok:
        reason += " The gain hardly depends on the outlier ratio: preprocessing helps about as " \
            "much on series with few outliers."
    return Claim(
        id="C4",
        statement=f"The preprocessing gain grows with the outlier ratio (r > {C4_SPLIT:g} vs "
        f"r ≤ {C4_SPLIT:g}, ±2 %)",
        paper_value="preprocessing helps with outliers",
        reproduced_value=f"gain {gaps[0]:.3f} (low r) vs {gaps[1]:.3f} (high r)",
        tolerance=f"high-r gain ≥ {C4_RATIO:g} × low-r gain and > 0",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        requires=("A1",),
        values={"gain_low_r": gaps[0], "gain_high_r": gaps[1]},
    )


# ------------------------------------------------------------------ D: theta
def d1(sweep_scores: pd.DataFrame) -> Claim:
    parts, mono, near, values = [], True, False, {}
    for dataset, part in sweep_scores.groupby("dataset", sort=False):
        part = part.sort_values("theta")
        p, r, f = part.precision.to_numpy(), part.recall.to_numpy(), part.f1.to_numpy()
        m = bool(np.all(np.diff(p) >= -D1_PRECISION_DROP) and np.all(np.diff(r) <= 1e-12))
        mono &= m
        f07 = float(part.loc[np.isclose(part.theta, 0.7), "f1"].iloc[0])
        best_theta = float(part.theta.iloc[int(np.argmax(f))])
        near |= f07 >= f.max() - D1_NEAR
        parts.append(f"{dataset} F1(0.7) {f07:.3f}, best {f.max():.3f} at θ = {best_theta:g}")
        values[dataset] = {"f1_at_0.7": f07, "best_f1": float(f.max()), "best_theta": best_theta,
                           "monotone": m}
    ok = mono and near
    reason = "; ".join(parts) + "."
    if not near:
        reason += " A lower θ gives a better F1: recall gained by accepting more candidates " \
            "outweighs the precision lost, so 0.7 is not the best here."
    elif not mono:
        reason += " Precision or recall is not monotone in θ."
    return Claim(
        id="D1",
        statement="Precision rises and recall falls with θ; θ = 0.7 gives the best F1",
        paper_value="0.7 is best",
        reproduced_value="; ".join(parts),
        tolerance=f"monotone (precision drops ≤ {D1_PRECISION_DROP:g}); F1(0.7) ≥ best − "
        f"{D1_NEAR:g} on ≥ 1 data set",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        requires=("A1",),
        values=values,
    )


# ------------------------------------------------------------------ E: cloud surrogate
def e1(results: list[dict]) -> Claim:
    det = [r["detection"] for r in results]
    found = sum(d["found"] for d in det)
    sampled = sum(d["sampled"] for d in det)
    correct = sum(d["correct"] for d in det)
    planted_n = sum(d.get("planted_sampled", 0) for d in det)
    unverifiable = sum(d.get("unverifiable", 0) for d in det)
    share = found / sampled if sampled else math.nan
    prec = correct / found if found else math.nan
    planted = float(np.mean([d["planted_share"] for d in det]))
    unv = unverifiable / planted_n if planted_n else math.nan
    lo, hi = E1_SHARE
    if planted == 0:
        return Claim(
            id="E1",
            statement="About 30 % of the cloud series are found periodic, and correctly",
            paper_value="30 % periodic and predictable",
            reproduced_value=f"{share:.1%} found periodic; no known periods to check them by",
            tolerance=f"share in [{lo:g}, {hi:g}] and precision ≥ {E1_PRECISION:g}",
            verdict="not checkable",
            reason=f"{found} of {sampled} sampled segments found periodic ({share:.1%}); the "
            "workload has no known (planted) periods, so whether they are right cannot be told.",
            kind="should",
            requires=("A1",),
            values={"found_share": share, "found": found, "sampled": sampled},
        )
    ok = lo <= share <= hi and prec >= E1_PRECISION
    reason = (
        f"{found} of {sampled} sampled segments found periodic ({share:.1%}, planted "
        f"{planted:.1%}), {correct} of them with a planted period within ±2 %; {unverifiable} of "
        f"the {planted_n} sampled periodic segments ({unv:.0%}) have a period too long to "
        "verify from the history at all (3T of history plus max(T, 11) future samples)."
    )
    if not ok:
        aperiodic = sum(d.get("found_aperiodic", 0) for d in det)
        reason += (
            f" Precision {prec:.2f}: {aperiodic} of the {found - correct} wrong detections are "
            "segments with no planted period, the rest periodic ones found at another period "
            "(section 11)." if prec < E1_PRECISION else " The found share is outside the band."
        )
    return Claim(
        id="E1",
        statement="About 30 % of the cloud series are found periodic, and correctly",
        paper_value="30 % periodic and predictable",
        reproduced_value=f"{share:.1%} found periodic (planted {planted:.1%}), precision "
        f"{prec:.2f}; unverifiable from the history: {unv:.0%} of periodic segments",
        tolerance=f"share in [{lo:g}, {hi:g}] and precision ≥ {E1_PRECISION:g}",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        requires=("A1",),
        values={"found_share": share, "precision": prec, "planted_share": planted,
                "unverifiable_share": unv, "found": found, "sampled": sampled},
    )


def e2(results: list[dict]) -> Claim:
    corr = np.array([c for r in results for c in r["aggregate_pcc"]], dtype=float)
    med = float(np.nanmedian(corr)) if np.isfinite(corr).any() else math.nan
    ok = med >= E2_PCC
    return Claim(
        id="E2",
        statement="The SSD-aggregate forecast of predictable segments follows the actual "
        "traffic over the next 6 h (Fig. 11)",
        paper_value="close to the actual traffic",
        reproduced_value=f"median Pearson {med:.3f}",
        tolerance=f"≥ {E2_PCC:g}",
        verdict=verdict_of(ok),
        reason=f"Median Pearson correlation of forecast and actual 10-min traffic over "
        f"{np.isfinite(corr).sum()} SSD × interval aggregates: {med:.3f}"
        + ("." if ok else ": the forecasts miss the surrogate's bursts (section 11)."),
        kind="should",
        requires=("A1",),
        values={"median_pcc": med, "aggregates": int(np.isfinite(corr).sum())},
    )


def e3(track_events: list, switch_at: int, new_period: int) -> Claim:
    lock = next(
        (
            t
            for t, p in track_events
            if t > switch_at and p is not None and abs(p - new_period) <= 0.02 * new_period
        ),
        None,
    )
    late = (lock - switch_at) / new_period if lock is not None else math.inf
    ok = late <= E3_PERIODS
    return Claim(
        id="E3",
        statement="Re-detection locks on a switched period",
        paper_value="tolerates period changes",
        reproduced_value=f"locked after {late:.1f} new periods" if lock is not None
        else "never locked",
        tolerance=f"≤ {E3_PERIODS} new periods",
        verdict=verdict_of(ok),
        reason=(
            f"After a switch from period 60 to {new_period}, re-detection reports {new_period} "
            f"{late:.1f} new periods later." if lock is not None
            else f"Re-detection never reports the new period {new_period}."
        ),
        kind="should",
        requires=("A1",),
        values={"periods_late": late},
    )


# ------------------------------------------------------------------ F: scheduling
_OTHERS = ("greedy-history", "random-history")


def f1(flows: pd.DataFrame) -> Claim:
    sweep = flows[flows.kind == "moves"]
    per_rep = sweep.groupby(["replicate", "method", "value"])[
        ["decline_p99", "decline_p999"]
    ].mean()
    budgets = sorted(sweep.value.unique())
    reps_ok, margins = [], []
    for rep in sorted(sweep.replicate.unique()):
        wins = 0
        for b in budgets:
            p = per_rep.loc[(rep, "PreciseScheduling", b)]
            margin = min(
                p[c] - per_rep.loc[(rep, m, b)][c]
                for m in _OTHERS
                for c in ("decline_p99", "decline_p999")
            )
            margins.append(margin)
            wins += margin >= -F1_TIE
        reps_ok.append(wins / len(budgets) >= F1_BUDGET_SHARE)
    ok = sum(reps_ok) >= F1_REPLICATES
    worst = float(min(margins))
    reason = (
        f"{sum(reps_ok)} of {len(reps_ok)} replicates have PreciseScheduling within "
        f"{F1_TIE:g} points of both history baselines at ≥ {F1_BUDGET_SHARE:.0%} of the move "
        f"budgets; its worst margin is {worst:+.1f} points."
    )
    if not ok:
        reason += (
            " PreciseScheduling may move only the top-20 % segments it verifies periodic "
            "(section 11 gives the share), the history baselines any segment (section 12)."
            if len(reps_ok) >= F1_REPLICATES
            else f" Fewer than {F1_REPLICATES} replicates in this profile."
        )
    return Claim(
        id="F1",
        requires=("F0",),
        statement="PreciseScheduling lowers the 99 % and 99.9 % tail flow at least as much as "
        "greedy- and random-history at every move budget (Fig. 12)",
        paper_value="best at every number of moves",
        reproduced_value=f"{sum(reps_ok)} of {len(reps_ok)} replicates win; worst margin "
        f"{worst:+.1f} points",
        tolerance=f"ties within {F1_TIE:g} points; ≥ {F1_BUDGET_SHARE:.0%} of budgets in ≥ "
        f"{F1_REPLICATES} replicates",
        verdict=verdict_of(ok),
        reason=reason,
        values={"replicates_won": sum(reps_ok), "replicates": len(reps_ok),
                "worst_margin_points": worst},
    )


def f2(flows: pd.DataFrame) -> Claim:
    sweep = flows[flows.kind == "moves"]
    mean = sweep.groupby(["method", "value"])[["decline_p99", "decline_p999"]].mean()
    ps = mean.loc["PreciseScheduling"].sort_index()
    mono = bool(np.all(np.diff(ps.decline_p99.to_numpy()) >= -F2_SLACK))
    budgets = ps.index.to_numpy()
    early = ps.decline_p999[budgets <= budgets.min() + F2_EARLY * (budgets.max() - budgets.min())]
    top = ps.decline_p999.max()
    sat = bool(early.max() >= F2_SHARE * top) if top > 0 else False
    ok = mono and sat
    p99 = np.round(ps.decline_p99.to_numpy(), 1).tolist()
    p999 = np.round(ps.decline_p999.to_numpy(), 1).tolist()
    reason = f"PreciseScheduling's declines at {budgets.tolist()} moves: 99 % {p99}, 99.9 % {p999}."
    if not mono:
        reason += " The 99 % decline falls somewhere as moves grow."
    elif not sat:
        reason += " The 99.9 % decline keeps growing instead of saturating early."
    return Claim(
        id="F2",
        requires=("F0",),
        statement="The 99 % decline grows with the moves; the 99.9 % decline saturates early",
        paper_value="grows; saturates",
        reproduced_value=f"99 %: {p99[0]}→{p99[-1]} %, 99.9 %: {p999[0]}→{p999[-1]} %",
        tolerance=f"non-decreasing ({F2_SLACK:g}-point slack); ≥ {F2_SHARE:.0%} of the max in "
        f"the first {F2_EARLY:.0%} of the move range",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        values={"moves": budgets.tolist(), "decline_p99": p99, "decline_p999": p999},
    )


def _lat_means(lat: pd.DataFrame) -> pd.DataFrame:
    return lat.groupby(["method", "overhead"])[["max_tail_ms", "mean_latency_ms"]].mean()


def f0(calibrations: list[dict | None]) -> Claim:
    """F0 (calibration): hash placement's worst SSD at the paper's ≈ 10 ms after scaling the
    surrogate's load (one calibration per replicate)."""
    cal = [c for c in calibrations if c]
    if not cal:
        return Claim(
            id="F0",
            statement="The surrogate is in the paper's regime: under hash placement the worst "
            "SSD's 99.99 % latency is ≈ 10 ms",
            paper_value=f"≈ {F0_TARGET_MS:g} ms on a single SSD; 1.019 ms mean over SSDs",
            reproduced_value="not calibrated (load scale 1)",
            tolerance=f"±{F0_BAND:.0%} relative",
            verdict="not checkable",
            reason="This run keeps the surrogate's traffic at the paper's mean per-SSD rate; no "
            "load calibration was made.",
            role="calibration",
        )
    worst = float(np.mean([c["hash_max_tail_ms"] for c in cal]))
    mean_tail = float(np.mean([c["hash_mean_ssd_tail_ms"] for c in cal]))
    scale = [c["scale"] for c in cal]
    err = worst / F0_TARGET_MS - 1
    ok = abs(err) <= F0_BAND
    return Claim(
        id="F0",
        statement="The surrogate is in the paper's regime: under hash placement the worst SSD's "
        "99.99 % latency is ≈ 10 ms",
        paper_value=f"≈ {F0_TARGET_MS:g} ms on a single SSD; 1.019 ms mean over SSDs",
        reproduced_value=f"worst SSD {worst:.2f} ms, mean over SSDs {mean_tail:.2f} ms, at "
        f"{min(scale):.2f}–{max(scale):.2f} × the paper's mean traffic",
        tolerance=f"worst SSD within ±{F0_BAND:.0%} of {F0_TARGET_MS:g} ms",
        verdict=verdict_of(ok),
        reason=(
            f"The surrogate's traffic was scaled by {min(scale):.2f}–{max(scale):.2f} so that hash"
            f" placement's worst SSD reaches {worst:.2f} ms in the first interval (a fitted "
            f"target, not a test); the mean per-SSD 99.99 % latency is then {mean_tail:.2f} ms "
            "against the paper's 1.019 ms"
            + ("." if ok else f": the bisection did not reach ±{F0_BAND:.0%}.")
        ),
        role="calibration",
        values={"hash_max_tail_ms": worst, "hash_mean_ssd_tail_ms": mean_tail, "scale": scale},
    )


def f3(lat: pd.DataFrame) -> Claim:
    m = _lat_means(lat)
    h = m.loc[("hash", 0.0)]
    red = {o: 100 * (1 - m.loc[("PreciseScheduling", o)].max_tail_ms / h.max_tail_ms)
           for o in (0.01, 0.02)}
    ceiling = (
        100 * (1 - m.loc[(CEILING, 0.01)].max_tail_ms / h.max_tail_ms)
        if (CEILING, 0.01) in m.index else math.nan
    )
    ok = min(red.values()) >= F3_REDUCTION
    reason = (
        f"The worst SSD's 99.99 % latency falls from {h.max_tail_ms:.3f} ms (hash) by "
        f"{red[0.01]:.1f} % at 1 % and {red[0.02]:.1f} % at 2 % overhead"
        + (f"; the ceiling (the same moves planned on the actual future traffic) by "
           f"{ceiling:.1f} % at 1 %." if math.isfinite(ceiling) else ".")
    )
    if not ok:
        if h.max_tail_ms < F0_TARGET_MS / 2:
            reason += (
                f" Under hash placement the surrogate's worst SSD reaches only "
                f"{h.max_tail_ms:.2f} ms, against the paper's single-SSD ≈ 10 ms: the load "
                "superposition the paper removed is not present, so there is little tail to "
                "remove (sections 11–12)."
            )
        elif math.isfinite(ceiling) and ceiling < F3_REDUCTION:
            reason += (
                f" Even the ceiling stays below {F3_REDUCTION:g} %: with this budget no "
                "scheduler can remove the worst SSD's tail, which a few hot segments cause "
                "(section 12)."
            )
        elif math.isfinite(ceiling):
            reason += (
                " The ceiling reaches it, so the shortfall is PreciseScheduling's forecast: it "
                "moves only segments it verifies periodic (section 12)."
            )
    return Claim(
        id="F3",
        requires=("F0",),
        statement="At 1–2 % overhead the worst SSD's 99.99 % latency falls by 50–90 %",
        paper_value="50–90 %",
        reproduced_value=f"{-red[0.01]:+.1f} % at 1 %, {-red[0.02]:+.1f} % at 2 % (hash "
        f"{h.max_tail_ms:.3f} ms)",
        tolerance=f"≥ {F3_REDUCTION:g} % at both",
        verdict=verdict_of(ok),
        reason=reason,
        values={"reduction_1pct": red[0.01], "reduction_2pct": red[0.02],
                "hash_max_tail_ms": h.max_tail_ms, "ceiling_reduction_1pct": ceiling},
    )


def f4(lat: pd.DataFrame) -> Claim:
    m = _lat_means(lat)
    p1, h = m.loc[("PreciseScheduling", 0.01)], m.loc[("hash", 0.0)]
    ratio = p1.mean_latency_ms / h.mean_latency_ms
    ok = ratio <= F4_RATIO
    return Claim(
        id="F4",
        requires=("F0",),
        statement="Average latency is not raised",
        paper_value="not increased",
        reproduced_value=f"{ratio:.4f} × hash",
        tolerance=f"≤ {F4_RATIO:g} × hash",
        verdict=verdict_of(ok),
        reason=f"Mean over SSDs of the average latency after PreciseScheduling at 1 %: "
        f"{ratio:.4f} × its hash-placement value"
        + ("." if ok else ": the moves concentrate load on some SSDs."),
        values={"ratio": ratio},
    )


def f5(lat: pd.DataFrame) -> Claim:
    m = _lat_means(lat)
    g5 = m.loc[("greedy-history", 0.05)].max_tail_ms
    p1 = m.loc[("PreciseScheduling", 0.01)].max_tail_ms
    ok = g5 > p1
    return Claim(
        id="F5",
        requires=("F0",),
        statement="greedy-history with 5× the moves still leaves a higher worst-SSD tail than "
        "PreciseScheduling at 1 %",
        paper_value="greedy needs > 5×",
        reproduced_value=f"greedy 5 %: {g5:.3f} ms vs PreciseScheduling 1 %: {p1:.3f} ms",
        tolerance="greedy higher",
        verdict=verdict_of(ok),
        reason=f"Worst-SSD 99.99 % latency: greedy-history at 5 % {g5:.3f} ms, PreciseScheduling"
        f" at 1 % {p1:.3f} ms"
        + ("." if ok else (
            ": with 5× the moves greedy-history, which may move any segment, removes more of "
            "the surrogate's tail (section 12)." if g5 < p1 else
            ": the two tie on the worst SSD's latency (section 12).")),
        kind="should",
        values={"greedy_5pct_ms": g5, "precise_1pct_ms": p1},
    )


def f6(lat: pd.DataFrame) -> Claim:
    m = _lat_means(lat)
    p1 = m.loc[("PreciseScheduling", 0.01)].max_tail_ms
    r = {o: m.loc[("random-history", o)].max_tail_ms for o in (0.01, 0.05, 0.1)}
    close = abs(r[0.1] / p1 - 1)
    ok = r[0.01] > p1 and r[0.05] > p1 and close <= F6_CLOSE
    reason = (
        f"Worst-SSD 99.99 % latency of random-history at 1/5/10 %: {r[0.01]:.3f}/{r[0.05]:.3f}/"
        f"{r[0.1]:.3f} ms, PreciseScheduling at 1 %: {p1:.3f} ms."
    )
    if not ok:
        reason += " " + (
            "random-history at 1 % or 5 % already does as well." if min(r[0.01], r[0.05]) <= p1
            else f"random-history at 10 % is {close:.0%} away, outside ±{F6_CLOSE:.0%}."
        )
    return Claim(
        id="F6",
        requires=("F0",),
        statement="random-history needs about 10 % overhead to match PreciseScheduling at 1 %",
        paper_value="10 %",
        reproduced_value=f"random 1/5/10 %: {r[0.01]:.3f}/{r[0.05]:.3f}/{r[0.1]:.3f} ms vs "
        f"{p1:.3f} ms",
        tolerance=f"1 %, 5 % worse; 10 % within ±{F6_CLOSE:.0%}",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        values={"random_ms": r, "precise_1pct_ms": p1},
    )


def f7(lat: pd.DataFrame) -> Claim:
    m = _lat_means(lat)
    p1 = m.loc[("PreciseScheduling", 0.01)].max_tail_ms
    p5 = m.loc[("PreciseScheduling", 0.05)].max_tail_ms
    change = abs(p5 / p1 - 1)
    ok = change <= F7_CHANGE
    return Claim(
        id="F7",
        requires=("F0",),
        statement="Raising the overhead from 1 % to 5 % changes little",
        paper_value="no discernible variation",
        reproduced_value=f"{100 * change:.1f} % relative",
        tolerance=f"≤ {F7_CHANGE:.0%} relative",
        verdict=verdict_of(ok),
        reason=f"Worst-SSD 99.99 % latency {p1:.3f} ms at 1 %, {p5:.3f} ms at 5 %"
        + ("." if ok else ": more moves keep lowering the tail."),
        kind="should",
        values={"precise_1pct_ms": p1, "precise_5pct_ms": p5, "change": change},
    )


# ------------------------------------------------------------------ headline
HEADLINE_CORE = ("B1", "B2", "B3", "F1", "F3")


def headline_text(run) -> dict:
    """``run.headline`` keyword arguments: the paper's core claims and the main measured cause,
    branching on the recorded verdicts (the notebook never writes a verdict)."""
    claims = run.claims
    statement = (
        "PrecisePeriod detects periods better than four baselines (highest F1 and accuracy, "
        "precision near 1.0 on CRAN), and PreciseScheduling built on it cuts the worst SSD's "
        "99.99 % latency by 50–90 % at 1–2 % overhead, beating history-based scheduling:"
    )
    causes = []
    detection = [c for c in ("B1", "B2", "B3") if claims[c]["verdict"] != "reproduced"]
    if detection:
        causes.append("detection: " + claims[detection[0]]["reason"])
    else:
        causes.append("detection reproduced")
    scheduling = [c for c in ("F1", "F3") if claims[c]["verdict"] != "reproduced"]
    if scheduling:
        causes.append("scheduling: " + claims[scheduling[0]]["reason"])
    else:
        causes.append("scheduling reproduced on the surrogate")
    return {"statement": statement, "core": list(HEADLINE_CORE), "cause": " — ".join(causes)}
