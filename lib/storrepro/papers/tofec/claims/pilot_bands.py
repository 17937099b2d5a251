"""The bands used before the decision register, sized from the plan's pilot of our own stand-in;
a claim's reason quotes once the verdict they would give."""

from __future__ import annotations

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
PILOT_B4 = {"B4-mean-11": 0.50, "B4-mean-21": 0.65, "B4-median-11": 0.55,
             "B4-greedy-mean": 0.55, "B4-greedy-median": 0.55}


def pilot_note(cid: str, ok: bool) -> str:
    """The verdict the band sized from our pilot would give, said once."""
    word = "reproduced" if ok else "not reproduced"
    return f" Under the pilot band ({PILOT_BANDS[cid]}) it would be {word}."


#: The pilot bands' upper limits, to say once what they would have given.
PILOT_LIMITS = {
    "B5-mean": 1.15, "B5-median": 1.25, "B5-greedy": 1.40, "B5-high": 1.30,
    "B6-p90": 1.30, "B6-p99": 2.0, "B7-envelope": 2.0,
}  # fmt: skip
