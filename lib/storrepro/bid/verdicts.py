"""The claim checks C1–C11 of spec bid.md §7.3, judged on per-workload means over seeds.

Bands are the spec's, fixed before any run: strict = the paper's range ± 10 pp, weak = the
direction. "Best Linux" is min(CFQ, Noop) per workload; every check involving CFQ is made with
q = 8 and with q = 2 and passes if it passes under at least one q, which the statement names.
Each function returns keyword arguments for :meth:`storrepro.claims.Run.claim`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

QUANTA = ("cfq-q8", "cfq-q2")


def means(summary: pd.DataFrame, column: str) -> pd.DataFrame:
    """workload x scheduler table of the mean of ``column`` over replicates."""
    return summary.groupby(["workload", "scheduler"])[column].mean().unstack()


def reduction(table: pd.DataFrame, scheme: str, against) -> pd.Series:
    """``1 - scheme / min(against)`` per workload (a fraction)."""
    base = table[list(against)].min(axis=1)
    return 1 - table[scheme] / base


def _pct(series: pd.Series) -> dict:
    return {k: round(100 * float(v), 1) for k, v in series.items()}


def _first_passing(results: dict) -> tuple[str, tuple]:
    """The first q whose result passes (results: q -> (passes, ...)); else q = 8's."""
    for q, res in results.items():
        if res[0]:
            return q, res
    return QUANTA[0], results[QUANTA[0]]


def c1_bid_vs_best(
    t: pd.DataFrame,
    scheme: str = "bid-hdd",
    id: str = "C1",
    label: str = "BID-HDD",
    kind: str = "must",
) -> dict:
    results = {}
    for q in QUANTA:
        r = reduction(t, scheme, (q, "noop"))
        required = bool((r > 0).all())
        strict = int(((r >= 0.18) & (r <= 0.62)).sum()) >= 4
        weak = int((r >= 0.10).sum()) >= 4
        verdict = (
            "reproduced"
            if required and strict
            else ("partly" if required and weak else "not reproduced")
        )
        results[q] = (verdict != "not reproduced", verdict, r)
    q, (_, verdict, r) = _first_passing(results)
    if not any(res[0] for res in results.values()):
        verdict = "not reproduced"
    return dict(
        id=id,
        kind=kind,
        statement=f"{label} needs less cumulative device time than the best of CFQ ({q}) and "
        "Noop on every workload, by 28–52 %",
        paper_value="28–52 % on 6/6",
        reproduced_value={
            "q": q,
            **{f"{k} reduction %": v for k, v in _pct(r).items()},
            "other q": _pct(results[QUANTA[1] if q == QUANTA[0] else QUANTA[0]][2]),
        },
        tolerance="required > 0 on 6/6; strict [18, 62] % on >= 4/6; weak (partly) >= 10 % on "
        ">= 4/6",
        verdict=verdict,
    )


def c2_sequential_gain_most(t: pd.DataFrame) -> dict:
    results = {}
    for q in QUANTA:
        r = reduction(t, "bid-hdd", (q, "noop")).rank(ascending=False, method="min")
        ratio = t["bid-hdd"] / t[q]
        ranks = r[["Grep", "WordStdev"]]
        band = bool(ratio[["Grep", "WordStdev"]].between(0.35, 0.65).all())
        strict = bool((ranks <= 2).all()) and band
        weak = bool((ranks <= 3).all())
        results[q] = (
            strict or weak,
            "reproduced" if strict else "partly" if weak else "not reproduced",
            ranks,
            ratio,
        )
    q, (_, verdict, ranks, ratio) = _first_passing(results)
    return dict(
        id="C2",
        statement=f"Grep and WordStdev gain most from BID-HDD, which needs about half of CFQ's "
        f"({q}) time on them",
        paper_value="top-2 ranks; BID-HDD/CFQ ≈ 0.5",
        reproduced_value={
            "rank Grep": float(ranks["Grep"]),
            "rank WordStdev": float(ranks["WordStdev"]),
            "BID/CFQ Grep": round(float(ratio["Grep"]), 3),
            "BID/CFQ WordStdev": round(float(ratio["WordStdev"]), 3),
        },
        tolerance="strict: ranks <= 2 and ratio in [0.35, 0.65]; weak (partly): ranks <= 3",
        verdict=verdict,
    )


def c3_noop_vs_cfq(t: pd.DataFrame) -> dict:
    results = {}
    for q in QUANTA:
        ratio = (t["noop"] / t[q])[["Grep", "WordStdev"]]
        ok = bool(ratio.between(0.78, 0.98).all())
        results[q] = (ok, "reproduced" if ok else "not reproduced", ratio)
    q, (_, verdict, ratio) = _first_passing(results)
    return dict(
        id="C3",
        statement=f"Noop needs about 12 % less time than CFQ ({q}) on Grep and WordStdev "
        "(the calibration anchor of the run length: not an out-of-sample check)",
        paper_value=0.88,
        reproduced_value={k: round(float(v), 3) for k, v in ratio.items()},
        tolerance="Noop/CFQ in [0.78, 0.98] on both",
        verdict=verdict,
        kind="report",
    )


def c4_hybrid_vs_bid(t: pd.DataFrame) -> dict:
    r = 1 - t["bid-hybrid"] / t["bid-hdd"]
    required = bool((r > 0).all())
    rank = int(r.rank(ascending=False, method="min")["WordCount"])
    strict = bool(r.between(0.01, 0.33).all()) and rank == 1
    weak = rank <= 2
    verdict = (
        "reproduced"
        if required and strict
        else ("partly" if required and weak else "not reproduced")
    )
    return dict(
        id="C4",
        statement="BID-Hybrid needs 6–23 % less time than BID-HDD on every workload, most on "
        "WordCount",
        paper_value="6–23 %, max WordCount",
        reproduced_value={**{f"{k} %": v for k, v in _pct(r).items()}, "WordCount rank": rank},
        tolerance="required > 0 on 6/6; strict all in [1, 33] % and WordCount rank 1; "
        "weak (partly) WordCount in the top 2",
        verdict=verdict,
    )


def c5_hybrid_vs_best(t: pd.DataFrame) -> dict:
    results = {}
    for q in QUANTA:
        r = reduction(t, "bid-hybrid", (q, "noop"))
        ok = int(r.between(0.23, 0.64).sum()) >= 4
        weak = bool((r > 0).all())
        results[q] = (ok or weak, "reproduced" if ok else "partly" if weak else "not reproduced", r)
    q, (_, verdict, r) = _first_passing(results)
    return dict(
        id="C5",
        statement=f"BID-Hybrid needs 33–54 % less time than the best of CFQ ({q}) and Noop",
        paper_value="33–54 %",
        reproduced_value={f"{k} %": v for k, v in _pct(r).items()},
        tolerance="[23, 64] % on >= 4/6; partly: > 0 on 6/6",
        verdict=verdict,
    )


def c6_movements(n2: pd.DataFrame) -> dict:
    results = {}
    hybrid_cut = 1 - n2["bid-hybrid"] / n2["bid-hdd"]
    for q in QUANTA:
        fewer = bool(((n2["bid-hdd"] < n2["noop"]) & (n2["bid-hdd"] < n2[q])).all())
        results[q] = (fewer, fewer)
    q, (fewer, _) = _first_passing(results)
    hybrid_ok = bool((n2["bid-hybrid"] <= n2["bid-hdd"]).all())
    rank = int(hybrid_cut.rank(ascending=False, method="min")["TeraSort"])
    tera = float(hybrid_cut["TeraSort"])
    strict = fewer and hybrid_ok and rank == 1 and 0.30 <= tera <= 0.70
    weak = fewer and hybrid_ok and rank <= 2
    return dict(
        id="C6",
        statement=f"BID-HDD makes fewer arm movements (n2, d >= 2) than Noop and CFQ ({q}) on "
        "every workload; BID-Hybrid no more than BID-HDD, cutting most (~50 %) on TeraSort",
        paper_value="6/6 fewer; Hybrid cut max on TeraSort ≈ 50 %",
        reproduced_value={
            "BID < Noop and CFQ": fewer,
            "Hybrid <= BID on 6/6": hybrid_ok,
            "Hybrid cut %": _pct(hybrid_cut),
            "TeraSort rank": rank,
        },
        tolerance="strict: all three and TeraSort rank 1 with cut in [30, 70] %; partly: "
        "first two and TeraSort in the top 2",
        verdict="reproduced" if strict else "partly" if weak else "not reproduced",
    )


def c7_seek_distance(ad: pd.DataFrame, ad_std: pd.DataFrame) -> dict:
    cfq_lowest = {}
    for q in QUANTA:
        cols = [q, "noop", "bid-hdd", "bid-hybrid"]
        cfq_lowest[q] = int((ad[cols].idxmin(axis=1) == q).sum())
    q = max(cfq_lowest, key=cfq_lowest.get)
    cv = ad_std / ad
    wide = int((cv[[q, "noop", "bid-hdd", "bid-hybrid"]] > 1).all(axis=1).sum())
    ok = cfq_lowest[q] >= 4 and wide >= 4
    return dict(
        id="C7",
        statement=f"CFQ ({q}) has the lowest mean seek distance AD_seek on most workloads, and "
        "every scheme's seek distances spread widely (std > mean)",
        paper_value="CFQ lowest on most; large error bars",
        reproduced_value={"CFQ lowest (of 6)": cfq_lowest[q], "std/mean > 1 for all (of 6)": wide},
        tolerance="CFQ lowest on >= 4/6 and std/mean > 1 for every scheme on >= 4/6",
        verdict="reproduced"
        if ok
        else "partly"
        if cfq_lowest[q] >= 4 or wide >= 4
        else "not reproduced",
    )


def c8_sweeps(td: pd.DataFrame) -> dict:
    results = {}
    for q in QUANTA:
        ok = all(
            bool(((td[s] < td[q]) & (td[s] < td["noop"])).all()) for s in ("bid-hdd", "bid-hybrid")
        )
        results[q] = (ok, ok)
    q, (ok, _) = _first_passing(results)
    return dict(
        id="C8",
        statement=f"Both BID variants move the head less in total (TD_sweep) than CFQ ({q}) and "
        "Noop on every workload",
        paper_value="6/6 (CFQ on Grep: 380 sweeps, scale-dependent)",
        reproduced_value={
            "6/6": ok,
            "CFQ Grep sweeps": round(float(td.loc["Grep", q]), 1),
            **{
                f"{s} Grep": round(float(td.loc["Grep", s]), 1)
                for s in ("noop", "bid-hdd", "bid-hybrid")
            },
        },
        tolerance="both BID variants below CFQ and Noop on 6/6 (380 reported, not judged)",
        verdict="reproduced" if ok else "not reproduced",
    )


def c9_arm_trace(short: dict, moves_per_s: dict) -> dict:
    ratio = short["noop"] / max(short["bid-hdd"], 1)
    most = max(moves_per_s, key=moves_per_s.get)
    ok_short = ratio >= 1.5
    ok_cfq = most.startswith("cfq")
    return dict(
        id="C9",
        statement="WordStdev arm trace: Noop makes >= 1.5x BID-HDD's short moves; CFQ moves the "
        "arm most often per unit time",
        paper_value="Noop short moves >> BID-HDD; CFQ most vertical lines",
        reproduced_value={
            "Noop/BID short moves": round(ratio, 2),
            "most moves per s": most,
            "moves per s": {k: round(v, 1) for k, v in moves_per_s.items()},
        },
        tolerance="ratio >= 1.5 and CFQ (either q) highest moves per second",
        verdict="reproduced"
        if ok_short and ok_cfq
        else "partly"
        if ok_short or ok_cfq
        else "not reproduced",
    )


def c10_latency(read: pd.DataFrame, write: pd.DataFrame) -> dict:
    results = {}
    for q in QUANTA:
        bid = int((read["bid-hdd"] <= read[q]).sum() + (write["bid-hdd"] <= write[q]).sum())
        noop = int((read["noop"] <= read[q]).sum() + (write["noop"] <= write[q]).sum())
        results[q] = (bid >= 8 and noop >= 6, bid, noop)
    q, (ok, bid, noop) = _first_passing(results)
    return dict(
        id="C10",
        statement=f"BID-HDD's mean read/write latency is at most CFQ's ({q}) in most of the 12 "
        "(workload, op) cases; Noop's in a majority",
        paper_value="BID 10/12, Noop 8/12",
        reproduced_value={"BID <= CFQ": bid, "Noop <= CFQ": noop},
        tolerance="BID >= 8/12 and Noop >= 6/12",
        verdict="reproduced" if ok else "partly" if bid >= 8 or noop >= 6 else "not reproduced",
    )


def c11_offload(summary: pd.DataFrame, threshold: float) -> dict:
    h = summary[summary.scheduler == "bid-hybrid"]
    share = float(h.ssd_write_share.max())
    small = float(np.nanmin(h.ssd_small_share)) if h.ssd_small_share.notna().any() else np.nan
    max_pf = float(np.nanmax(h.max_ssd_pf)) if h.max_ssd_pf.notna().any() else np.nan
    ok = share <= 0.15 and small >= 0.80 and not max_pf > threshold
    return dict(
        id="C11",
        statement="The non-bulky offload is small: the SSD gets <= 15 % of written bytes, "
        "mostly requests <= 64 sectors, and never a queue with PF > 204.8",
        paper_value="small non-bulky share",
        reproduced_value={
            "max SSD share of written bytes %": round(100 * share, 1),
            "min share of SSD requests <= 64 sectors %": round(100 * small, 1),
            "max PF sent to SSD": round(max_pf, 1),
        },
        tolerance="<= 15 %, >= 80 %, <= 204.8 (worst run of every workload and seed)",
        verdict="reproduced" if ok else "not reproduced",
    )


def conservation(summary: pd.DataFrame) -> dict:
    ok = bool(
        (summary.sectors_served == summary.sectors_submitted).all()
        and (summary.leftover == 0).all()
    )
    return dict(
        id="D9",
        statement="Every submitted sector is served exactly once and no request is left queued, "
        "in every run",
        paper_value="conservation",
        reproduced_value={"runs": len(summary), "all conserved": ok},
        tolerance="exact",
        verdict="reproduced" if ok else "not reproduced",
    )


def ranking(table: pd.DataFrame) -> pd.Series:
    """Per workload, the schemes from fastest to slowest (cumulative time), as one string."""
    return table.apply(lambda row: " < ".join(row.sort_values(kind="stable").index), axis=1)


def c12_mode_consistency(mode_b: pd.DataFrame, mode_a: pd.DataFrame) -> dict:
    """C12: the window model (Mode A, defects fixed) ranks the five schemes as the DES does."""
    schemes = list(mode_a.columns)
    b, a = ranking(mode_b[schemes]), ranking(mode_a[schemes])
    same = b == a
    best = mode_b[schemes].idxmin(axis=1) == mode_a[schemes].idxmin(axis=1)
    return dict(
        id="C12",
        kind="should",
        statement="Mode A (the authors' window simulator, code defects fixed) and Mode B (the "
        "DES) rank the five schemes alike by cumulative device time",
        paper_value="same ranking on >= 5/6 workloads",
        reproduced_value={
            "same ranking (of 6)": int(same.sum()),
            "same fastest scheme (of 6)": int(best.sum()),
            **{f"{w} A": a[w] for w in a.index[~same]},
            **{f"{w} B": b[w] for w in b.index[~same]},
        },
        tolerance="identical ranking of the 5 schemes on >= 5/6 workloads (means over seeds)",
        verdict="reproduced" if int(same.sum()) >= 5 else "not reproduced",
    )
