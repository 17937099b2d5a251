"""Detection metrics of PrecisePeriod §5.1.2, as we define them (the paper names them only).

A hit at tolerance ``tol`` means ``truth·(1 − tol) <= estimate <= truth·(1 + tol)`` (SAZED's
``determineTolerance``). Definition A (primary): with N series, D answered (not ``None``) and C
hits, accuracy = recall = C/N, precision = C/D (0 when D = 0), F1 = 2PR/(P + R). A method that
always answers therefore has P = R = accuracy = F1. Definition B (appendix): macro-averaged
precision, recall and F1 of a multi-class problem over period labels plus a "none" class.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def hit(estimate: int | None, truth: float, tol: float) -> bool:
    if tol < 0:
        raise ValueError(f"tol = {tol!r}: expected >= 0")
    if estimate is None:
        return False
    return truth * (1 - tol) - 1e-9 <= estimate <= truth * (1 + tol) + 1e-9


def scores(estimates: Sequence[int | None], truths: Sequence[float], tol: float) -> dict:
    """Definition A: ``n, answered, hits, abstentions, accuracy, precision, recall, f1``."""
    if len(estimates) != len(truths):
        raise ValueError(
            f"estimates and truths differ in length: {len(estimates)} vs {len(truths)}"
        )
    if not len(truths):
        raise ValueError("no series to score")
    n = len(truths)
    answered = sum(e is not None for e in estimates)
    hits = sum(hit(e, t, tol) for e, t in zip(estimates, truths, strict=True))
    precision = hits / answered if answered else 0.0
    recall = hits / n
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "n": n,
        "answered": answered,
        "hits": hits,
        "abstentions": n - answered,
        "accuracy": recall,
        "precision": precision,
        "recall": recall,
        "f1": f1,
    }


def scores_macro(estimates: Sequence[int | None], truths: Sequence[float], tol: float) -> dict:
    """Definition B: macro P/R/F1 over the truth labels and "none" (a hit counts as the truth)."""
    from sklearn.metrics import precision_recall_fscore_support

    truth_labels = [f"{t:g}" for t in truths]
    predicted = [
        f"{t:g}" if hit(e, t, tol) else ("none" if e is None else f"{e:g}")
        for e, t in zip(estimates, truths, strict=True)
    ]
    labels = sorted(set(truth_labels))
    p, r, f, _ = precision_recall_fscore_support(
        truth_labels, predicted, labels=labels, average="macro", zero_division=0
    )
    return {"precision": float(p), "recall": float(r), "f1": float(f)}


def error_direction(estimates: Sequence[int | None], truths: Sequence[float], tol: float) -> dict:
    """Among wrong answers: how many are longer than the truth, and how many near a multiple."""
    wrong = [
        (e, t)
        for e, t in zip(estimates, truths, strict=True)
        if e is not None and not hit(e, t, tol)
    ]
    longer = sum(e > t for e, t in wrong)
    multiple = sum(e > t and abs(e / t - np.round(e / t)) <= 0.05 for e, t in wrong)
    return {"wrong": len(wrong), "longer": longer, "multiples": multiple}
