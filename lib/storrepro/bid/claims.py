"""Claim rules of notebook 04: one function per claim id, each returning a
:class:`storrepro.claims.Claim` judged on a band fixed before any run.

- D1–D4 and D9 are ``invariant``: the disk models against their reference values, the toy
  example's orders, and conservation of every sector.
- C3 (Noop/CFQ ≈ 0.88 on Grep and WordStdev) is a ``calibration``: the synthetic traces' run
  length was tuned to it.
- C1, C2, C4–C12 are ``test`` claims, judged on per-workload means over seeds. "Best Linux" is
  min(CFQ, Noop) per workload; every check involving CFQ is made with q = 8 and q = 2 and passes
  if it passes under either, which the statement names. Strict bands are the paper's range
  ± 10 pp, weak (partly) the direction.
- E (C1 and C4 keep their direction over the sensitivity sweep) is an ``invariant`` of this
  reproduction: how robust its verdicts are to its own parameter choices.

The reasons of C1, C2 and C5 cite the oracle bound (:mod:`storrepro.bid.oracle`): what any
dispatch order could save under the authors' disk model.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from storrepro.bid.config import MODERN_CONFIG, VARIANTS
from storrepro.bid.metrics import means, ranking, reduction, workload_means
from storrepro.claims import Claim, verdict_of
from storrepro.validation.claims import hdd_reference, ssd_reference

QUANTA = ("cfq-q8", "cfq-q2")
Q_LABEL = {"cfq-q8": "CFQ q=8", "cfq-q2": "CFQ q=2"}
SECTION_ORACLE = "section 4, 'Oracle bound'"

# -- bands, fixed before any run (strict = the paper's range ± 10 pp) --------------------------
PAPER_C1 = (0.28, 0.52)
C1_STRICT, C1_STRICT_MIN, C1_WEAK = (0.18, 0.62), 4, 0.10
C2_RATIO, C2_STRICT_RANK, C2_WEAK_RANK = (0.35, 0.65), 2, 3
SEQUENTIAL = ("Grep", "WordStdev")
C3_BAND = (0.78, 0.98)
PAPER_C4 = (0.06, 0.23)
C4_STRICT = (0.01, 0.33)
PAPER_C5 = (0.33, 0.54)
C5_BAND, C5_MIN = (0.23, 0.64), 4
C6_TERASORT = (0.30, 0.70)
C7_MIN = 4
C9_SHORT_RATIO = 1.5
C10_BID_MIN, C10_NOOP_MIN = 8, 6
C11_SHARE, C11_SMALL, C11_SMALL_SECTORS = 0.15, 0.80, 64
PF_THRESHOLD = 204.8
C12_MIN = 5
E_SHARE = 0.8
SCHEMES = ("cfq-q8", "cfq-q2", "noop", "bid-hdd", "bid-hybrid")


# -- tables ----------------------------------------------------------------------------------
def oracle_gain(table: pd.DataFrame, oracle: pd.Series, q: str) -> pd.Series:
    """What the oracle saves against best(CFQ q, Noop), per workload (a fraction)."""
    return 1 - oracle / table[[q, "noop"]].min(axis=1)


def oracle_table(table: pd.DataFrame, oracle: pd.DataFrame) -> pd.DataFrame:
    """Per workload: the best baseline, the oracle's times and gains beside BID's and the
    paper's (percent). ``oracle`` has the columns oracle_floor_s and oracle_tiered_s."""
    rows = {}
    for w in table.index:
        row = {}
        for q in QUANTA:
            best = table.loc[w, [q, "noop"]].min()
            row[f"best({Q_LABEL[q]}, Noop) s"] = best
            floor = oracle.loc[w, "oracle_floor_s"]
            row[f"oracle gain vs {Q_LABEL[q]} %"] = 100 * (1 - floor / best)
            row[f"BID-HDD gain vs {Q_LABEL[q]} %"] = 100 * (1 - table.loc[w, "bid-hdd"] / best)
            row[f"tiered oracle gain vs {Q_LABEL[q]} %"] = 100 * (
                1 - oracle.loc[w, "oracle_tiered_s"] / best
            )
            row[f"BID-Hybrid gain vs {Q_LABEL[q]} %"] = 100 * (
                1 - table.loc[w, "bid-hybrid"] / best
            )
        row["oracle s"] = oracle.loc[w, "oracle_floor_s"]
        row["paper: BID-HDD gain %"] = "28–52"
        row["paper: BID-Hybrid gain %"] = "33–54"
        rows[w] = row
    return pd.DataFrame.from_dict(rows, orient="index")


# -- formatting ------------------------------------------------------------------------------
def _pct(series: pd.Series) -> dict:
    return {k: round(100 * float(v), 1) for k, v in series.items()}


def _span(series: pd.Series) -> str:
    return f"{100 * series.min():+.1f} … {100 * series.max():+.1f} %"


def _band(lo_hi) -> str:
    return f"[{100 * lo_hi[0]:g}, {100 * lo_hi[1]:g}] %"


def _names(index) -> str:
    return ", ".join(index) if len(index) else "none"


def _first_passing(results: dict) -> str:
    """The first q whose verdict is not 'not reproduced' (best verdict first), else q = 8."""
    for wanted in ("reproduced", "partly"):
        for q in QUANTA:
            if results[q]["verdict"] == wanted:
                return q
    return QUANTA[0]


def _within(series: pd.Series, lo_hi) -> pd.Series:
    return (series >= lo_hi[0]) & (series <= lo_hi[1])


# -- invariants: disk models, toy, conservation ----------------------------------------------
def d1_hdd_model(hdd: pd.DataFrame) -> Claim:
    """D1: notebook 00's disk-model check (V8), made again where BID uses the model."""
    return hdd_reference(hdd, id="D1")


def d2_ssd_model(ssd: pd.DataFrame) -> Claim:
    """D2: notebook 00's SSD check (V9), made again where BID-Hybrid uses the model."""
    return ssd_reference(ssd, id="D2")


TOY_CFQ_ORDER = "A1 A2 C1 B1 B2 A3 A4 C2 B3 B4 A5 A6"
TOY_CFQ_TRACKS = "3 3 16 71 71 72 3 4 16 72 72 4 4"
TOY_DEADLINE_ORDER = "B1 A1 A2 A3 C1 A4 A5 A6 B2 B3 C2 B4"


def d3_toy_cfq(table: pd.DataFrame) -> Claim:
    row = table.loc["CFQ (q=2)"]
    ok = bool(
        row.order == TOY_CFQ_ORDER
        and row.tracks == TOY_CFQ_TRACKS
        and row.TMD == 275
        and row.n1 == 8
        and row.n2 == 6
    )
    return Claim(
        id="D3",
        statement="Toy CFQ (q=2): the paper's order and track sequence, TMD = 275 (the paper "
        "prints 203; its own terms sum to 275), n1 = 8, AD = 34.375, TD_sweep = 2.75",
        paper_value=f"{TOY_CFQ_ORDER}; TMD 275",
        reproduced_value=f"{row.order}; TMD {row.TMD:g}, n1 {row.n1}, n2 {row.n2}",
        tolerance="exact order, tracks, TMD, n1 and n2",
        verdict=verdict_of(ok),
        reason="The CFQ model replays Table 1 in the paper's order with the paper's track sequence."
        if ok
        else f"The CFQ model's toy order {row.order} or its metrics differ from the paper's.",
        role="invariant",
        values={"TMD": row.TMD, "n1": row.n1, "n2": row.n2, "AD": row.AD, "TD": row.TD_sweep},
    )


def d4_toy_noop_deadline(table: pd.DataFrame, submission: str) -> Claim:
    noop, deadline = table.loc["Noop"].order, table.loc["Deadline"].order
    ok = noop == submission and deadline == TOY_DEADLINE_ORDER
    return Claim(
        id="D4",
        statement="Toy Noop serves in submission order; toy Deadline gives the paper's six batches",
        paper_value="B1 A1 A2 A3 C1 | A4 A5 A6 | B2 B3 | C2 | B4",
        reproduced_value=f"Deadline {deadline}",
        tolerance="exact orders",
        verdict=verdict_of(ok),
        reason="Noop keeps the submission order and Deadline forms the paper's six batches."
        if ok
        else f"Noop order {noop} or Deadline order {deadline} differs from the paper's.",
        role="invariant",
        values={"noop": noop, "deadline": deadline},
    )


def conservation(summary: pd.DataFrame) -> Claim:
    lost = summary[(summary.sectors_served != summary.sectors_submitted) | (summary.leftover != 0)]
    ok = lost.empty
    return Claim(
        id="D9",
        statement="Every submitted sector is served exactly once and no request is left queued, "
        "in every run",
        paper_value="conservation",
        reproduced_value=f"{len(summary) - len(lost)}/{len(summary)} runs conserved",
        tolerance="exact, every run",
        verdict=verdict_of(ok),
        reason=f"Served sectors equal submitted sectors and no request is left in any of "
        f"{len(summary)} runs."
        if ok
        else f"{len(lost)} runs lose or keep requests (e.g. {lost.iloc[0].workload}, "
        f"{lost.iloc[0].scheduler}): a defect of the replay.",
        role="invariant",
        values={"runs": len(summary), "not_conserved": len(lost)},
    )


# -- C1: BID-HDD vs best Linux ---------------------------------------------------------------
def _c1_like(t, scheme, oracle, id, label, strict, paper, required_all=True, kind="must"):
    results = {}
    for q in QUANTA:
        r = reduction(t, scheme, (q, "noop"))
        required = bool((r > 0).all())
        in_band = int(_within(r, strict).sum())
        if id == "C1":
            strict_ok = in_band >= C1_STRICT_MIN
            weak_ok = int((r >= C1_WEAK).sum()) >= C1_STRICT_MIN
        else:  # C5: the band on >= 4/6, partly: faster on 6/6
            strict_ok, weak_ok = in_band >= C5_MIN, True
        if (required or not required_all) and strict_ok:
            verdict = "reproduced"
        elif required and weak_ok:
            verdict = "partly"
        else:
            verdict = "not reproduced"
        results[q] = {"verdict": verdict, "r": r, "required": required, "in_band": in_band}
    q = _first_passing(results)
    res = results[q]
    r, verdict = res["r"], res["verdict"]
    og = oracle_gain(t, oracle, q)
    reason = (
        f"{label} needs {_span(r)} less cumulative device time than best({Q_LABEL[q]}, Noop) "
        f"(positive = faster), faster on {int((r > 0).sum())}/6 workloads and in the band on "
        f"{res['in_band']}/6."
    )
    other = QUANTA[1] if q == QUANTA[0] else QUANTA[0]
    reason += f" Against best({Q_LABEL[other]}, Noop): {_span(results[other]['r'])}."
    if verdict != "reproduced":
        slower = r.index[r <= 0]
        if len(slower):
            reason += f" It is slower than that baseline on {_names(slower)}."
        if og.max() < paper[0]:
            reason += (
                f" No dispatch order could reach the paper's {100 * paper[0]:g}–"
                f"{100 * paper[1]:g} %: the oracle bound (maximal merging, no seeks; "
                f"{SECTION_ORACLE}) is only {_span(og)} below the same baseline, because the "
                "authors' disk model charges a fixed 6.2 ms per request and has no transfer term."
            )
        else:
            reach = og.index[og >= paper[0]]
            reason += (
                f" The oracle bound (maximal merging, no seeks; {SECTION_ORACLE}) is {_span(og)} "
                f"below the same baseline: it reaches the paper's {100 * paper[0]:g} % only on "
                f"{_names(reach)}, so the disk model excludes the paper's magnitude on the other "
                f"{6 - len(reach)} workloads; {label} gets "
                f"{100 * float((r / og).clip(upper=1).mean()):.0f} % of the oracle's saving on "
                "average."
            )
    return Claim(
        id=id,
        kind=kind,
        statement=f"{label} needs less cumulative device time than the best of CFQ "
        f"({Q_LABEL[q]}) and Noop on every workload, by {100 * paper[0]:g}–{100 * paper[1]:g} %",
        paper_value=f"{100 * paper[0]:g}–{100 * paper[1]:g} % on 6/6",
        reproduced_value=f"{_span(r)} vs best({Q_LABEL[q]}, Noop); faster on "
        f"{int((r > 0).sum())}/6",
        tolerance=(
            f"required > 0 on 6/6; strict {_band(strict)} on >= {C1_STRICT_MIN}/6; weak "
            f"(partly) >= {100 * C1_WEAK:g} % on >= {C1_STRICT_MIN}/6; under q = 8 or q = 2"
            if id == "C1"
            else f"{_band(strict)} on >= {C5_MIN}/6; partly: > 0 on 6/6; under q = 8 or q = 2"
        ),
        verdict=verdict,
        reason=reason,
        values={
            "q": q,
            "reduction %": _pct(r),
            "oracle reduction %": _pct(og),
            "other q reduction %": _pct(results[other]["r"]),
        },
    )


def c1_bid_vs_best(t: pd.DataFrame, oracle: pd.Series) -> Claim:
    """C1: BID-HDD vs best(CFQ, Noop); ``oracle`` = per-workload oracle floor (s)."""
    return _c1_like(t, "bid-hdd", oracle, "C1", "BID-HDD", C1_STRICT, PAPER_C1)


def c5_hybrid_vs_best(t: pd.DataFrame, tiered_oracle: pd.Series) -> Claim:
    """C5: BID-Hybrid vs best(CFQ, Noop); ``tiered_oracle`` = per-workload tiered floor (s)."""
    return _c1_like(
        t, "bid-hybrid", tiered_oracle, "C5", "BID-Hybrid", C5_BAND, PAPER_C5, required_all=False
    )


# -- C2: the most sequential workloads gain most ---------------------------------------------
def c2_sequential_gain_most(t: pd.DataFrame, oracle: pd.Series) -> Claim:
    results = {}
    for q in QUANTA:
        ranks = reduction(t, "bid-hdd", (q, "noop")).rank(ascending=False, method="min")
        ranks = ranks[list(SEQUENTIAL)]
        ratio = (t["bid-hdd"] / t[q])[list(SEQUENTIAL)]
        band = bool(_within(ratio, C2_RATIO).all())
        strict = bool((ranks <= C2_STRICT_RANK).all()) and band
        weak = bool((ranks <= C2_WEAK_RANK).all())
        verdict = "reproduced" if strict else "partly" if weak else "not reproduced"
        results[q] = {"verdict": verdict, "ranks": ranks, "ratio": ratio, "band": band}
    q = _first_passing(results)
    res = results[q]
    ranks, ratio = res["ranks"], res["ratio"]
    floor = (oracle / t[q])[list(SEQUENTIAL)]
    reason = (
        f"BID-HDD's reduction ranks {int(ranks['Grep'])} (Grep) and {int(ranks['WordStdev'])} "
        f"(WordStdev) of 6; BID-HDD/{Q_LABEL[q]} is {ratio['Grep']:.2f} and "
        f"{ratio['WordStdev']:.2f} there."
    )
    if not res["band"]:
        if floor.min() > C2_RATIO[1]:
            reason += (
                f" About half is out of reach for any order: the oracle bound ({SECTION_ORACLE}) "
                f"needs {floor['Grep']:.2f} and {floor['WordStdev']:.2f} of CFQ's time there."
            )
        else:
            reason += (
                f" The oracle bound ({SECTION_ORACLE}) needs {floor['Grep']:.2f} and "
                f"{floor['WordStdev']:.2f} of CFQ's time, so the ratio is not excluded by the "
                "disk model."
            )
    if res["verdict"] == "not reproduced":
        reason += " They are not both among the 3 largest gains."
    return Claim(
        id="C2",
        statement=f"Grep and WordStdev gain most from BID-HDD, which needs about half of "
        f"{Q_LABEL[q]}'s time on them",
        paper_value="top-2 ranks; BID-HDD/CFQ ≈ 0.5",
        reproduced_value=f"ranks {int(ranks['Grep'])}, {int(ranks['WordStdev'])}; "
        f"BID/CFQ {ratio['Grep']:.2f}, {ratio['WordStdev']:.2f}",
        tolerance=f"strict: ranks <= {C2_STRICT_RANK} and ratio in [{C2_RATIO[0]}, "
        f"{C2_RATIO[1]}]; weak (partly): ranks <= {C2_WEAK_RANK}; under q = 8 or q = 2",
        verdict=res["verdict"],
        reason=reason,
        values={
            "q": q,
            "ranks": {k: int(v) for k, v in ranks.items()},
            "BID/CFQ": {k: round(float(v), 3) for k, v in ratio.items()},
            "oracle/CFQ": {k: round(float(v), 3) for k, v in floor.items()},
        },
    )


# -- C3: calibration anchor ------------------------------------------------------------------
def c3_noop_vs_cfq(t: pd.DataFrame) -> Claim:
    results = {}
    for q in QUANTA:
        ratio = (t["noop"] / t[q])[list(SEQUENTIAL)]
        ok = bool(_within(ratio, C3_BAND).all())
        results[q] = {"verdict": verdict_of(ok), "ratio": ratio}
    q = _first_passing(results)
    ratio, verdict = results[q]["ratio"], results[q]["verdict"]
    reason = (
        f"Noop/{Q_LABEL[q]} is {ratio['Grep']:.3f} on Grep and {ratio['WordStdev']:.3f} on "
        "WordStdev. The synthetic traces' run length (L = 64) was tuned to this anchor (section "
        "3), so it shows the traces are calibrated, not that the paper holds."
    )
    if verdict != "reproduced":
        reason += f" At this scale the tuned anchor lies outside {C3_BAND}."
    return Claim(
        id="C3",
        kind="report",
        role="calibration",
        statement=f"Noop needs about 12 % less time than {Q_LABEL[q]} on Grep and WordStdev "
        "(the anchor the run length was tuned to)",
        paper_value=0.88,
        reproduced_value=f"Noop/CFQ {ratio['Grep']:.3f} (Grep), {ratio['WordStdev']:.3f} "
        "(WordStdev)",
        tolerance=f"Noop/CFQ in [{C3_BAND[0]}, {C3_BAND[1]}] on both, under q = 8 or q = 2",
        verdict=verdict,
        reason=reason,
        values={"q": q, "Noop/CFQ": {k: round(float(v), 4) for k, v in ratio.items()}},
    )


# -- C4: BID-Hybrid vs BID-HDD ---------------------------------------------------------------
def c4_hybrid_vs_bid(t: pd.DataFrame) -> Claim:
    r = 1 - t["bid-hybrid"] / t["bid-hdd"]
    required = bool((r > 0).all())
    rank = int(r.rank(ascending=False, method="min")["WordCount"])
    in_band = _within(r, C4_STRICT)
    strict = bool(in_band.all()) and rank == 1
    weak = rank <= 2
    verdict = (
        "reproduced" if required and strict else "partly" if required and weak else "not reproduced"
    )
    reason = (
        f"BID-Hybrid needs {_span(r)} less time than BID-HDD; WordCount's gain "
        f"({100 * r['WordCount']:.1f} %) ranks {rank} of 6."
    )
    if verdict != "reproduced":
        if not required:
            reason += f" It is slower than BID-HDD on {_names(r.index[r <= 0])}."
        outside = r.index[~in_band]
        if len(outside):
            reason += (
                f" Outside {_band(C4_STRICT)} on {_names(outside)}: the SSD takes the "
                "interrupters' small writes (and their re-reads) off the disk, and their seeks "
                "are a larger share of BID-HDD's time in these synthetic traces (section 9)."
            )
    return Claim(
        id="C4",
        statement="BID-Hybrid needs 6–23 % less time than BID-HDD on every workload, most on "
        "WordCount",
        paper_value="6–23 %, max WordCount",
        reproduced_value=f"{_span(r)}; WordCount rank {rank}",
        tolerance=f"required > 0 on 6/6; strict all in {_band(C4_STRICT)} and WordCount rank "
        "1; weak (partly) WordCount in the top 2",
        verdict=verdict,
        reason=reason,
        values={"reduction %": _pct(r), "WordCount rank": rank},
    )


# -- C6–C8: arm movements ----------------------------------------------------------------------
def c6_movements(n2: pd.DataFrame) -> Claim:
    results = {}
    cut = 1 - n2["bid-hybrid"] / n2["bid-hdd"]
    hybrid_ok = bool((n2["bid-hybrid"] <= n2["bid-hdd"]).all())
    rank = int(cut.rank(ascending=False, method="min")["TeraSort"])
    tera = float(cut["TeraSort"])
    for q in QUANTA:
        fewer = (n2["bid-hdd"] < n2["noop"]) & (n2["bid-hdd"] < n2[q])
        all_fewer = bool(fewer.all())
        strict = all_fewer and hybrid_ok and rank == 1 and C6_TERASORT[0] <= tera <= C6_TERASORT[1]
        weak = all_fewer and hybrid_ok and rank <= 2
        verdict = "reproduced" if strict else "partly" if weak else "not reproduced"
        results[q] = {"verdict": verdict, "fewer": fewer}
    q = _first_passing(results)
    fewer, verdict = results[q]["fewer"], results[q]["verdict"]
    reason = (
        f"BID-HDD makes fewer arm movements (d >= 2) than Noop and {Q_LABEL[q]} on "
        f"{int(fewer.sum())}/6 workloads; BID-Hybrid cuts BID-HDD's by {_span(cut)}, "
        f"{100 * tera:.1f} % on TeraSort (rank {rank})."
    )
    if verdict != "reproduced":
        if not fewer.all():
            reason += (
                f" BID-HDD moves the arm as often or more on {_names(fewer.index[~fewer])}: each "
                "flushed staging queue is one run, and the queues alternate between the "
                "processes' regions (section 6)."
            )
        if not hybrid_ok:
            reason += " BID-Hybrid moves more than BID-HDD somewhere."
        if rank != 1 or not C6_TERASORT[0] <= tera <= C6_TERASORT[1]:
            reason += (
                f" The hybrid's largest cut is on {cut.idxmax()} ({100 * cut.max():.0f} %), "
                "where the offloaded interrupters caused the most arm movements."
            )
    return Claim(
        id="C6",
        statement=f"BID-HDD makes fewer arm movements (n2, d >= 2) than Noop and {Q_LABEL[q]} on "
        "every workload; BID-Hybrid no more than BID-HDD, cutting most (~50 %) on TeraSort",
        paper_value="6/6 fewer; Hybrid cut max on TeraSort ≈ 50 %",
        reproduced_value=f"BID-HDD fewer on {int(fewer.sum())}/6; Hybrid cut on TeraSort "
        f"{100 * tera:.0f} % (rank {rank})",
        tolerance=f"strict: all three, TeraSort rank 1 with cut in {_band(C6_TERASORT)}; "
        "partly: the first two and TeraSort in the top 2; under q = 8 or q = 2",
        verdict=verdict,
        reason=reason,
        values={
            "q": q,
            "BID-HDD fewer": {k: bool(v) for k, v in fewer.items()},
            "Hybrid <= BID on 6/6": hybrid_ok,
            "Hybrid cut %": _pct(cut),
            "TeraSort rank": rank,
        },
    )


def c7_seek_distance(ad: pd.DataFrame, ad_std: pd.DataFrame) -> Claim:
    lowest = {}
    for q in QUANTA:
        cols = [q, "noop", "bid-hdd", "bid-hybrid"]
        lowest[q] = int((ad[cols].idxmin(axis=1) == q).sum())
    q = max(lowest, key=lowest.get)
    cols = [q, "noop", "bid-hdd", "bid-hybrid"]
    cv = (ad_std / ad)[cols]
    wide = int((cv > 1).all(axis=1).sum())
    ok_low, ok_wide = lowest[q] >= C7_MIN, wide >= C7_MIN
    verdict = (
        "reproduced" if ok_low and ok_wide else "partly" if ok_low or ok_wide else "not reproduced"
    )
    reason = (
        f"{Q_LABEL[q]} has the lowest mean seek distance on {lowest[q]}/6 workloads; every "
        f"scheme's std/mean exceeds 1 on {wide}/6 (std/mean {cv.min().min():.2f}–"
        f"{cv.max().max():.2f})."
    )
    if not ok_wide:
        reason += (
            " The seek distances spread less than the paper's 'fairly large' error bars: "
            f"lowest std/mean is {cv.min().idxmin()}'s (section 6)."
        )
    if not ok_low:
        reason += f" The lowest mean is mostly {ad[cols].idxmin(axis=1).mode().iloc[0]}'s."
    return Claim(
        id="C7",
        statement=f"{Q_LABEL[q]} has the lowest mean seek distance AD_seek on most workloads, "
        "and every scheme's seek distances spread widely (std > mean)",
        paper_value="CFQ lowest on most; large error bars",
        reproduced_value=f"CFQ lowest on {lowest[q]}/6; std/mean > 1 for all on {wide}/6",
        tolerance=f"CFQ lowest on >= {C7_MIN}/6 and std/mean > 1 for every scheme on >= "
        f"{C7_MIN}/6 (partly: one of the two)",
        verdict=verdict,
        reason=reason,
        values={"q": q, "CFQ lowest": lowest[q], "wide spread": wide},
    )


def c8_sweeps(td: pd.DataFrame) -> Claim:
    results = {}
    for q in QUANTA:
        below = {s: (td[s] < td[q]) & (td[s] < td["noop"]) for s in ("bid-hdd", "bid-hybrid")}
        ok = all(bool(b.all()) for b in below.values())
        results[q] = {"verdict": verdict_of(ok), "below": below}
    q = _first_passing(results)
    below, verdict = results[q]["below"], results[q]["verdict"]
    reason = (
        f"Total head travel (TD_sweep) of BID-HDD is below {Q_LABEL[q]}'s and Noop's on "
        f"{int(below['bid-hdd'].sum())}/6 workloads, BID-Hybrid's on "
        f"{int(below['bid-hybrid'].sum())}/6; CFQ on Grep travels {td.loc['Grep', q]:.0f} "
        "full-disk sweeps (paper: 380, scale-dependent)."
    )
    if verdict != "reproduced":
        failing = [f"{s} on {w}" for s, b in below.items() for w in b.index[~b]]
        reason += (
            f" Not below on {', '.join(failing)}: there BID alternates between the processes' "
            "regions once per flushed staging queue (section 6)."
        )
    return Claim(
        id="C8",
        statement=f"Both BID variants move the head less in total (TD_sweep) than {Q_LABEL[q]} "
        "and Noop on every workload",
        paper_value="6/6 (CFQ on Grep: 380 sweeps, scale-dependent)",
        reproduced_value=f"BID-HDD {int(below['bid-hdd'].sum())}/6, BID-Hybrid "
        f"{int(below['bid-hybrid'].sum())}/6",
        tolerance="both BID variants below CFQ and Noop on 6/6 (380 reported, not judged); "
        "under q = 8 or q = 2",
        verdict=verdict,
        reason=reason,
        values={
            "q": q,
            "sweeps": {s: _round(td[s]) for s in SCHEMES if s in td},
        },
    )


def _round(series: pd.Series) -> dict:
    return {k: round(float(v), 1) for k, v in series.items()}


def c9_arm_trace(short: dict, moves_per_s: dict) -> Claim:
    ratio = short["noop"] / max(short["bid-hdd"], 1)
    most = max(moves_per_s, key=moves_per_s.get)
    ok_short, ok_cfq = ratio >= C9_SHORT_RATIO, most.startswith("cfq")
    if ok_short and ok_cfq:
        verdict = "reproduced"
    elif ok_short or ok_cfq:
        verdict = "partly"
    else:
        verdict = "not reproduced"
    reason = (
        f"On WordStdev (seed 0) Noop makes {ratio:.2f}x BID-HDD's short moves, and {most} moves "
        f"the arm most often ({moves_per_s[most]:.1f} per s)."
    )
    if not ok_short:
        if ratio < 1:
            reason += (
                f" BID-HDD makes more short moves than Noop ({short['bid-hdd']:.0f} against "
                f"{short['noop']:.0f}): the dispatch queue steps through the flushed queues' "
                "extents in LBA order, a short move between each (section 5)."
            )
        else:
            reason += (
                f" BID-HDD makes {short['bid-hdd']:.0f} short moves against Noop's "
                f"{short['noop']:.0f}: "
                "fewer, but not by the paper's margin (section 5)."
            )
    return Claim(
        id="C9",
        statement=f"WordStdev arm trace: Noop makes >= {C9_SHORT_RATIO:g}x BID-HDD's short moves; "
        "CFQ moves the arm most often per unit time",
        paper_value="Noop short moves >> BID-HDD; CFQ most vertical lines",
        reproduced_value=f"Noop/BID short moves {ratio:.2f}; most moves per s: {most}",
        tolerance=f"ratio >= {C9_SHORT_RATIO:g} and CFQ (either q) highest moves per second",
        verdict=verdict,
        reason=reason,
        values={
            "Noop/BID short moves": round(ratio, 3),
            "moves per s": {k: round(float(v), 2) for k, v in moves_per_s.items()},
        },
    )


# -- C10: latency ------------------------------------------------------------------------------
def c10_latency(read: pd.DataFrame, write: pd.DataFrame) -> Claim:
    results = {}
    for q in QUANTA:
        bid = int((read["bid-hdd"] <= read[q]).sum() + (write["bid-hdd"] <= write[q]).sum())
        noop = int((read["noop"] <= read[q]).sum() + (write["noop"] <= write[q]).sum())
        ok_b, ok_n = bid >= C10_BID_MIN, noop >= C10_NOOP_MIN
        verdict = "reproduced" if ok_b and ok_n else "partly" if ok_b or ok_n else "not reproduced"
        results[q] = {"verdict": verdict, "bid": bid, "noop": noop}
    q = _first_passing(results)
    res = results[q]
    reason = (
        f"BID-HDD's mean latency is at most {Q_LABEL[q]}'s in {res['bid']}/12 (workload, op) "
        f"cases, Noop's in {res['noop']}/12."
    )
    if res["verdict"] != "reproduced":
        slower = [
            f"{w} {op}"
            for op, table in (("reads", read), ("writes", write))
            for w in table.index[table["bid-hdd"] > table[q]]
        ]
        reason += (
            f" BID-HDD is slower on {', '.join(slower) or 'none'}: in the backlogged replay "
            "latency is mostly the wait for one of the 128 request slots, and staged requests "
            "hold their slots until their queue is flushed (section 7)."
        )
    return Claim(
        id="C10",
        statement=f"BID-HDD's mean read/write latency is at most {Q_LABEL[q]}'s in most of the 12 "
        "(workload, op) cases; Noop's in a majority",
        paper_value="BID 10/12, Noop 8/12",
        reproduced_value=f"BID <= CFQ {res['bid']}/12, Noop <= CFQ {res['noop']}/12",
        tolerance=f"BID >= {C10_BID_MIN}/12 and Noop >= {C10_NOOP_MIN}/12 (partly: one of the "
        "two); under q = 8 or q = 2",
        verdict=res["verdict"],
        reason=reason,
        values={"q": q, "BID <= CFQ": res["bid"], "Noop <= CFQ": res["noop"]},
    )


# -- C11: the offload is small -----------------------------------------------------------------
def c11_offload(hybrid: pd.DataFrame, threshold: float = PF_THRESHOLD) -> Claim:
    """``hybrid``: one row per BID-Hybrid run (workload, ssd_byte_share, ssd_write_share,
    ssd_small_share, max_ssd_pf and, if known, write_byte_share: the trace's written share)."""
    by_w = hybrid.groupby("workload")
    share_all = by_w.ssd_byte_share.max()
    share_written = by_w.ssd_write_share.max()
    sizes, pfs = hybrid.ssd_small_share, hybrid.max_ssd_pf
    small = float(np.nanmin(sizes)) if sizes.notna().any() else 1.0  # no SSD request: vacuous
    max_pf = float(np.nanmax(pfs)) if pfs.notna().any() else 0.0
    ok_share = bool((share_all <= C11_SHARE).all())
    ok_small = small >= C11_SMALL
    ok_pf = max_pf <= threshold
    verdict = (
        "reproduced"
        if ok_share and ok_small and ok_pf
        else "partly"
        if ok_share and ok_pf
        else "not reproduced"
    )
    written_over = share_written.index[share_written > C11_SHARE]
    reason = (
        f"The SSD receives at most {100 * share_all.max():.1f} % of all bytes "
        f"({share_all.idxmax()}) — the paper's 'non-bulky data per HDD is usually small'; "
        f"{100 * small:.0f} % or more of SSD-bound requests are <= {C11_SMALL_SECTORS} sectors "
        f"in every run, and the largest PF sent to the SSD is {max_pf:.1f} sectors."
    )
    if len(written_over):
        reason += (
            f" As a share of written bytes the offload reaches {100 * share_written.max():.0f} % "
            f"on {_names(written_over)}."
        )
        if "write_byte_share" in hybrid:
            writes = by_w.write_byte_share.mean()
            read_bulk = [w for w in written_over if writes[w] <= C11_SHARE]
            if read_bulk:
                lo, hi = (f"{100 * writes[read_bulk].agg(f):.1f}" for f in ("min", "max"))
                reason += (
                    f" On {_names(read_bulk)} writes are only {lo if lo == hi else f'{lo}–{hi}'}"
                    " % of all bytes: the bulky processes "
                    "only read, and the only writes are the interrupters' small ones, which are "
                    "non-bulky by definition, so the written-bytes form cannot hold on a "
                    "read-only-bulk workload whatever BID does."
                )
    if not ok_small:
        reason += (
            f" Only {100 * small:.0f} % of SSD-bound requests are <= {C11_SMALL_SECTORS} sectors "
            "in the worst run: staging merges an interrupter's contiguous writes before its queue "
            f"is classified, up to a mean of {threshold:g} sectors (section 9)."
        )
    if not ok_share:
        over = share_all.index[share_all > C11_SHARE]
        reason += f" Above {100 * C11_SHARE:g} % of all bytes on {_names(over)}."
    return Claim(
        id="C11",
        statement="The non-bulky offload is small: the SSD gets a small share of the bytes, "
        f"mostly requests <= {C11_SMALL_SECTORS} sectors, and never a queue with PF > "
        f"{threshold:g}",
        paper_value="'the non-bulky data per HDD is usually small'",
        reproduced_value=f"<= {100 * share_all.max():.1f} % of all bytes "
        f"(<= {100 * share_written.max():.0f} % of written); small requests >= "
        f"{100 * small:.0f} %; max PF {max_pf:.1f}",
        tolerance=f"share of all bytes <= {100 * C11_SHARE:g} %, >= {100 * C11_SMALL:g} % of SSD "
        f"requests <= {C11_SMALL_SECTORS} sectors, PF <= {threshold:g} (worst run of every "
        f"workload and seed); partly: the share and PF hold; the share of written bytes is "
        "reported",
        verdict=verdict,
        reason=reason,
        values={
            "share of all bytes %": _pct(share_all),
            "share of written bytes %": _pct(share_written),
            "min small-request share %": round(100 * small, 1),
            "max PF to SSD": round(max_pf, 1),
        },
    )


# -- C12: Mode A and Mode B rank alike ---------------------------------------------------------
def c12_mode_consistency(mode_b: pd.DataFrame, mode_a: pd.DataFrame) -> Claim:
    schemes = list(mode_a.columns)
    b, a = ranking(mode_b[schemes]), ranking(mode_a[schemes])
    same = b == a
    best = mode_b[schemes].idxmin(axis=1) == mode_a[schemes].idxmin(axis=1)
    ok = int(same.sum()) >= C12_MIN
    reason = (
        f"The authors' window model (Mode A, defects fixed) and the DES rank the five schemes "
        f"alike on {int(same.sum())}/6 workloads and agree on the fastest on {int(best.sum())}/6."
    )
    if not ok:
        w = same.index[~same][0]
        reason += (
            f" E.g. {w}: Mode A {a[w]}, DES {b[w]} — Mode A packs each process's consecutive "
            "events into one structure before any scheduler runs, which changes every "
            "scheme's cost (section 10)."
        )
    return Claim(
        id="C12",
        kind="should",
        statement="Mode A (the authors' window simulator, code defects fixed) and Mode B (the "
        "DES) rank the five schemes alike by cumulative device time",
        paper_value=f"same ranking on >= {C12_MIN}/6 workloads",
        reproduced_value=f"same ranking on {int(same.sum())}/6; same fastest on "
        f"{int(best.sum())}/6",
        tolerance=f"identical ranking of the 5 schemes on >= {C12_MIN}/6 workloads (means over "
        "seeds)",
        verdict=verdict_of(ok),
        reason=reason,
        values={
            "same ranking": int(same.sum()),
            "same fastest": int(best.sum()),
            "Mode A": a.to_dict(),
            "Mode B": b.to_dict(),
        },
    )


# -- E: sensitivity ----------------------------------------------------------------------------


def e_sensitivity(sens: pd.DataFrame) -> Claim:
    sens = sens[sens.config != MODERN_CONFIG]
    c1 = (sens[["C1 reduction vs best (q=8) %", "C1 reduction vs best (q=2) %"]] > 0).any(axis=1)
    c4 = sens["C4 Hybrid vs BID-HDD %"] > 0
    s1, s4 = float(c1.mean()), float(c4.mean())
    ok1, ok4 = s1 >= E_SHARE, s4 >= E_SHARE
    verdict = "reproduced" if ok1 and ok4 else "partly" if ok1 or ok4 else "not reproduced"
    reason = (
        f"Over {len(sens)} (configuration, workload) pairs of the one-at-a-time sweep (section "
        f"11), BID-HDD beats best(CFQ, Noop) under q = 8 or 2 in {100 * s1:.0f} % and BID-Hybrid "
        f"beats BID-HDD in {100 * s4:.0f} %."
    )
    if not ok1:
        lost = sens[~c1].groupby("config").size().sort_values(ascending=False)
        reason += f" C1's direction is lost most under {_names(lost.index[:3])}."
    if not ok4:
        lost = sens[~c4].groupby("config").size().sort_values(ascending=False)
        reason += f" C4's direction is lost most under {_names(lost.index[:3])}."
    return Claim(
        id="E",
        kind="should",
        role="invariant",
        statement="This reproduction's C1 and C4 keep their direction when its own [R] "
        "parameters (wait default, write deadline, PF threshold, request slots) vary one at a "
        "time",
        paper_value=f">= {100 * E_SHARE:g} % of configurations",
        reproduced_value=f"C1 {100 * s1:.0f} %, C4 {100 * s4:.0f} % of pairs",
        tolerance=f"both >= {100 * E_SHARE:g} % of (configuration, workload) pairs",
        verdict=verdict,
        reason=reason,
        values={"C1 positive %": round(100 * s1, 1), "C4 positive %": round(100 * s4, 1)},
    )


# -- all test claims under one variant, and the headline ---------------------------------------
#: The test claims, in the order the notebook records them.
TEST_IDS = ("C1", "C2", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "C11", "C12")


def variant_inputs(summary: pd.DataFrame, variant: str, arm_moves: pd.DataFrame, mode_a) -> dict:
    """Everything the test claims read, for one variant (BID columns from its runs)."""
    hybrid = summary[summary.scheduler == "bid-hybrid"]
    if "variant" in hybrid:
        hybrid = hybrid[hybrid.variant == variant]
    return {
        "t": means(summary, "device_time_s", variant),
        "oracle": workload_means(summary, "oracle_floor_s"),
        "tiered": workload_means(summary, "oracle_tiered_s"),
        "n2": means(summary, "n2", variant),
        "ad": means(summary, "AD_seek", variant),
        "ad_std": means(summary, "AD_seek_std", variant),
        "td": means(summary, "TD_sweep", variant),
        "read": means(summary, "read_mean_ms", variant),
        "write": means(summary, "write_mean_ms", variant),
        "hybrid": hybrid,
        "moves": arm_moves,
        "mode_a": mode_a,
    }


def test_claims(x: dict) -> dict[str, Claim]:
    """Every test claim of one variant, from :func:`variant_inputs`."""
    t = x["t"]
    claims = [
        c1_bid_vs_best(t, x["oracle"]),
        c2_sequential_gain_most(t, x["oracle"]),
        c4_hybrid_vs_bid(t),
        c5_hybrid_vs_best(t, x["tiered"]),
        c6_movements(x["n2"]),
        c7_seek_distance(x["ad"], x["ad_std"]),
        c8_sweeps(x["td"]),
        c9_arm_trace(x["moves"]["short moves"].to_dict(), x["moves"]["moves per s"].to_dict()),
        c10_latency(x["read"], x["write"]),
        c11_offload(x["hybrid"]),
        c12_mode_consistency(t[list(x["mode_a"].columns)], x["mode_a"]),
    ]
    return {c.id: c for c in claims}


HEADLINE = (
    "BID-HDD needs 28–52 % less cumulative I/O time than the best of CFQ and Noop, and "
    "BID-Hybrid 6–23 % less than BID-HDD (33–54 % less than the best):"
)
CORE = ("C1", "C4", "C5")


def headline_text(run, t: pd.DataFrame, oracle: pd.Series) -> dict:
    """The keyword arguments of ``run.headline``: statement, core claims and the main cause,
    built from the primary run's numbers (``t``: workload x scheduler device times, ``oracle``:
    the per-workload oracle floor)."""
    r = {q: reduction(t, "bid-hdd", (q, "noop")) for q in QUANTA}
    og = {q: oracle_gain(t, oracle, q) for q in QUANTA}
    hybrid = 1 - t["bid-hybrid"] / t["bid-hdd"]
    cause = (
        f"Under the primary readings BID-HDD needs {_span(r['cfq-q8'])} less time than "
        f"best(CFQ q=8, Noop) and {_span(r['cfq-q2'])} less than best(CFQ q=2, Noop); "
        f"BID-Hybrid {_span(hybrid)} less than BID-HDD. "
    )
    if all(run.verdict(c) == "reproduced" for c in CORE):
        cause += "All three are within the paper's bands."
    else:
        cause += (
            "An oracle that merges every contiguous run and never seeks would save only "
            f"{_span(og['cfq-q8'])} and {_span(og['cfq-q2'])} against the same baselines "
            "(section 4): the authors' disk model charges a fixed 6.2 ms per request and has no "
            "transfer term, so "
        )
        out8 = int((og["cfq-q8"] < PAPER_C1[0]).sum())
        out2 = int((og["cfq-q2"] < PAPER_C1[0]).sum())
        cause += (
            f"no scheduler could reach the paper's 28 % against CFQ q=8 on {out8} of 6 workloads "
            f"(against q=2 on {out2} of 6), and BID-HDD gets "
            f"{100 * float((r['cfq-q8'] / og['cfq-q8']).clip(upper=1).mean()):.0f} % of the "
            "oracle's saving against q=8 on average."
        )
    return {"statement": HEADLINE, "core": list(CORE), "cause": cause}


def record_all(run, summary: pd.DataFrame, moves: dict, sens: pd.DataFrame) -> None:
    """Record C3, every test claim under the primary readings with its verdict under each
    alternative (one reading changed at a time), conservation and E, then the headline.
    ``moves``: variant -> the detail run's arm moves; ``sens``: the sensitivity table. On a
    user's trace every test claim's reason says so: the paper judged its own traces."""
    t = means(summary, "device_time_s")
    mode_a = means(summary, "modeA_time_s")[list(SCHEMES)]
    judged = {v: test_claims(variant_inputs(summary, v, moves[v], mode_a)) for v in VARIANTS}
    if getattr(run.config, "trace", ""):
        note = f" Checked on {run.config.input_description()}, not on the paper's traces."
        judged = {
            v: {cid: replace(c, reason=c.reason + note) for cid, c in claims.items()}
            for v, claims in judged.items()
        }
    run.record(c3_noop_vs_cfq(t))
    for cid in TEST_IDS:
        others = {v: judged[v][cid] for v in VARIANTS if v != "primary"}
        run.record(judged["primary"][cid], readings=others)
    run.record(conservation(summary))
    run.record(e_sensitivity(sens))
    run.headline(**headline_text(run, t, workload_means(summary, "oracle_floor_s")))
