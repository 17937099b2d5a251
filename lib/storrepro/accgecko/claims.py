"""Claim rules of notebook 02 (AccGecko): one function per claim id, each returning a
:class:`storrepro.claims.Claim` built from the experiment's outputs.

Roles:
- ``invariant``: S1, S2 (the simulated node against its fast path and a closed form), U1, U2 (the
  LAMBDA and DBSCAN procedures on hand-made inputs), X1, X2 (the under-prediction experiment:
  this reproduction's reference queue model and where the top latencies fall);
- ``calibration``: M4 (the Table 1 replicas are *built* to match Table 1), G1, G2 (the synthetic
  tenant pool against the generators' target ranges);
- ``test``: everything else.

Conditions (``requires``): every admission gain (T1, T2, T2m, T3, T5) requires SLO safety (T4) —
admitting more tenants is no gain if they miss their SLOs; the rankings by positive error (A5,
A6) require A0, bounded negative error — a predictor that under-predicts has small positive
error for the wrong reason.

Every band is a module constant, fixed before any run (A0's is T4's 10 %
margin, see :data:`NEGATIVE_BOUND_PCT`); tolerance texts are built from the same constants.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from storrepro.claims import Claim, verdict_of

P = (99.0, 99.9)

S1_TOL_US = 1.0
S2_TOL = 0.01
U1_TOP, U1_EDGE, U1_TOL = 8.254, 2.508, 1e-3
U2_CASES = {(10, 2, 2, 2): [], (10, 10): [[0, 1]], (10, 2, 10, 0, 0): [[0, 2]], (6, 0, 0, 0, 6): []}
M4_BANDS = {"burst time spread": 0.07, "intensity spread": 0.08, "max-duration ratio": 2.0}
#: the generators' target ranges per segment (total burst time as a share of the segment)
POOL_TARGETS = {
    "total_burst_share": (0.003, 0.05),
    "intensity": (2.0, 6.0),
    "max_duration_ms": (3.0, 40.0),
}
POOL_INSIDE = 0.90  # share of segments inside every range for a calibrated pool
POOL_PARTLY = 0.50
M1_GAP = 0.05
M2_RISE = 0.05
M3_MAX = 0.8
M5_SPREAD, M5_RATIO = 0.15, 2.0
M6_MEAN, M6_MAX = (3.0, 15.0), (10.0, 50.0)
M7_MEAN, M7_MAX = 3.0, 100.0
#: A0: the most negative error (%) a predictor may have for a ranking by positive error to mean
#: anything. Chosen before looking: T4's margin (no admitted tenant may exceed its SLO by more
#: than 10 %), i.e. the same under-prediction this reproduction tolerates for SLO safety.
NEGATIVE_BOUND_PCT = 10.0
A0_METHODS = ("DB+25µs", "M=1.5", *(f"k={k}" for k in range(2, 8)))
A1_MMP_NEG, A1_RATIO = 10.0, 0.5
A2_NEG = 2.0
A4_AVG, A4_MAX = (30.0, 135.0), (80.0, 330.0)
A6S_AVG = {99.0: 60.0, 99.9: 50.0}
A6S_NEG = 2.0
A8_SNCM = {99.0: 5.0, 99.9: 2.0}
A8_PM = {99.0: 10.0, 99.9: 3.0}
T2_BANDS = {99.0: (0.5, 2.0), 99.9: (0.05, 0.6), "mean": (0.3, 1.2)}
T3_MIN = {99.0: 1.0, 99.9: 0.5}
T4_SHARE_PCT, T4_WORST = 2.0, 1.10
T5_CAPACITIES = (50_000.0, 100_000.0, 200_000.0)
X1_TOL = 0.10  # the reference queue model's median |error| against the segment replay
X2_SHARE = 0.5  # "most" top-1 % latencies inside continuous bursts: a majority


def _pk(p: float) -> str:
    return f"p{p:g}"


def _in(x: float, band: tuple[float, float]) -> bool:
    return band[0] <= x <= band[1]


# --- invariants: simulator and procedures -------------------------------------------------------


def s1(check: dict, tol_us: float = S1_TOL_US) -> Claim:
    gap = float(check["p999_diff_us"])
    ok = gap <= tol_us
    return Claim(
        "S1", "simpy node and vectorized pacer agree at p99.9 (two co-located tenants)",
        paper_value=f"<= {tol_us:g} µs", reproduced_value=f"|Δp99.9| {gap:.3g} µs",
        tolerance=f"|Δp99.9| <= {tol_us:g} µs", verdict=verdict_of(ok), role="invariant",
        reason=f"Over {check['requests']:,} requests the largest per-request difference is "
        f"{check['max_abs_diff_us']:.3g} µs and the p99.9 differs by {gap:.3g} µs"
        + ("." if ok else f", above {tol_us:g} µs: the fast path models another node."),
        values=check,
    )  # fmt: skip


def s2(check: dict, tol: float = S2_TOL) -> Claim:
    err = float(check["max_rel_error"])
    ok = err <= tol
    return Claim(
        "S2", "constant-rate burst: simulated wait of request j = j(1/sr − 1/λ)",
        paper_value=f"within {tol * 100:g} %", reproduced_value=f"max error {err * 100:.3g} %",
        tolerance=f"max relative error <= {tol * 100:g} %",
        verdict=verdict_of(ok), role="invariant",
        reason=f"A constant-spacing burst's waits match j(1/sr − 1/λ) to {err * 100:.3g} % "
        f"(last wait {check['last_wait_us']:.0f} µs)"
        + ("." if ok else "; the pacer does not follow its own rule."),
        values=check,
    )  # fmt: skip


def u1(rates, edges, covers: list[list[int]]) -> Claim:
    top, edge = float(rates[0]), float(edges[0])
    want = [list(range(3, 15)), [1, 2]]
    ok = abs(top - U1_TOP) <= U1_TOL and abs(edge - U1_EDGE) <= U1_TOL and covers == want
    return Claim(
        "U1", "LAMBDA with high = 14, a = 2: top state 8.254, lower edge 2.508, states "
        "{3..14} and {1, 2}",
        paper_value="8.25; 3–14 and 1–2",
        reproduced_value=f"top {top:.4f}, edge {edge:.4f}; {covers[0][0]}–{covers[0][-1]} "
        f"and {covers[1]}",
        tolerance=f"± {U1_TOL:g} and the same states", verdict=verdict_of(ok), role="invariant",
        reason="LAMBDA on the paper's Fig. 5 example gives "
        f"{'the paper' if ok else 'not the paper'}'s states (top rate {top:.4f}).",
        values={"top": top, "edge": edge, "covers": covers},
    )  # fmt: skip


def u2(found: dict) -> Claim:
    ok = {tuple(k): v for k, v in found.items()} == U2_CASES
    return Claim(
        "U2", "one-directional truncated DBSCAN on four hand-made sequences (N = 2, M = 2)",
        paper_value=str(list(U2_CASES.values())), reproduced_value=str(list(found.values())),
        tolerance="exact", verdict=verdict_of(ok), role="invariant",
        reason="The continuous bursts found are "
        + ("exactly the expected ones." if ok else "not the expected ones: the scan is wrong."),
        values={"found": [list(v) for v in found.values()]},
    )  # fmt: skip


# --- calibration: Table 1 replicas and the pool --------------------------------------------------


def m4(table: pd.DataFrame) -> Claim:
    """M4: T1–T3 replicas built to Table 1's total burst time, intensity and max duration."""
    spread = lambda x: float(x.max() / x.min() - 1)  # noqa: E731
    got = {
        "burst time spread": spread(table.total_burst_ms),
        "intensity spread": spread(table.intensity),
        "max-duration ratio": float(table.max_duration_ms.max() / table.max_duration_ms.min()),
    }
    ok = (got["burst time spread"] <= M4_BANDS["burst time spread"]
          and got["intensity spread"] <= M4_BANDS["intensity spread"]
          and got["max-duration ratio"] >= M4_BANDS["max-duration ratio"])  # fmt: skip
    return Claim(
        "M4", "T1–T3 replicas: total burst time within 7 %, intensity within 8 %, max duration "
        "ratio >= 2",
        paper_value="7 %, 8 %, 27/11 = 2.45",
        reproduced_value=f"{got['burst time spread'] * 100:.1f} %, "
        f"{got['intensity spread'] * 100:.1f} %, ratio {got['max-duration ratio']:.2f}",
        tolerance=f"<= {M4_BANDS['burst time spread'] * 100:g} %, "
        f"<= {M4_BANDS['intensity spread'] * 100:g} %, >= {M4_BANDS['max-duration ratio']:g}",
        verdict=verdict_of(ok), role="calibration",
        reason="The replicas are built from blocks of burst periods to match Table 1; "
        + ("they do." if ok else "the construction misses its own target."),
        values=got,
    )  # fmt: skip


def inside_targets(features: pd.DataFrame) -> pd.DataFrame:
    """Per segment (row, with its length in ``segment_ms``), whether each burst statistic lies
    in :data:`POOL_TARGETS`."""
    share = features.total_burst_ms / features.segment_ms
    out = pd.DataFrame(
        {
            "total_burst_share": share.between(*POOL_TARGETS["total_burst_share"]),
            "intensity": features.intensity.between(*POOL_TARGETS["intensity"]),
            "max_duration_ms": features.max_duration_ms.between(*POOL_TARGETS["max_duration_ms"]),
        }
    )
    out["all"] = out.all(axis=1)
    return out


def pool_calibration(generator: str, features: pd.DataFrame) -> Claim:
    """G1 / G2: the share of the generator's segments inside each target range, and inside all
    (G1 includes the T1–T3 replicas' segments)."""
    inside = inside_targets(features)
    share = {k: float(inside[k].mean()) for k in inside}
    ok = share["all"] >= POOL_INSIDE
    verdict = verdict_of(ok) if ok or share["all"] < POOL_PARTLY else "partly"
    lo, hi = POOL_TARGETS["total_burst_share"]
    ranges = (f"total burst time {lo * 100:g}–{hi * 100:g} % of the segment, intensity "
              f"{POOL_TARGETS['intensity'][0]:g}–{POOL_TARGETS['intensity'][1]:g}×, longest "
              f"continuous burst {POOL_TARGETS['max_duration_ms'][0]:g}–"
              f"{POOL_TARGETS['max_duration_ms'][1]:g} ms")  # fmt: skip
    worst = min(("total_burst_share", "intensity", "max_duration_ms"), key=share.get)
    med = features.max_duration_ms.median()
    p90 = features.max_duration_ms.quantile(0.9)
    reason = (
        f"{share['all'] * 100:.0f} % of {len(features)} {generator} segments lie inside every "
        f"range; the range most often missed is {worst} ({share[worst] * 100:.0f} % inside). "
        f"Longest continuous burst: median {med:.1f} ms, 90th percentile {p90:.1f} ms."
    )
    if not ok:
        reason += (
            f" The {generator} knobs' ranges put {(1 - share['all']) * 100:.0f} % of segments "
            "outside their targets, so the pool is burstier or milder than intended (section "
            "2's table and histograms)."
        )
    return Claim(
        generator, f"{generator} pool segments inside the generator's target ranges ({ranges})",
        paper_value=f">= {POOL_INSIDE * 100:g} % of segments inside all",
        reproduced_value=f"{share['all'] * 100:.0f} % inside all ({len(features)} segments)",
        tolerance=f">= {POOL_INSIDE * 100:g} % inside all (partly >= {POOL_PARTLY * 100:g} %)",
        verdict=verdict, role="calibration", kind="should", reason=reason,
        values={"share_inside": share, "segments": len(features),
                "max_duration_median_ms": float(med), "max_duration_p90_ms": float(p90)},
    )  # fmt: skip


# --- motivation tests: Fig. 3–5 -----------------------------------------------------------------


def _rho_table(rho: pd.DataFrame) -> pd.DataFrame:
    return rho.pivot(index="feature", columns="p", values="rho")


def m1(rho: pd.DataFrame) -> Claim:
    table = _rho_table(rho)
    gaps = {p: float(table[p].max() - table.loc["max_duration_ms", p]) for p in (99.9, 99.99)}
    best = {p: str(table[p].idxmax()) for p in gaps}
    ok = all(g <= M1_GAP for g in gaps.values())
    reason = "; ".join(
        f"at {_pk(p)} the largest ρ is {best[p]}'s ({table.loc[best[p], p]:.2f}), max duration "
        f"{table.loc['max_duration_ms', p]:.2f}" for p in gaps
    ) + "."
    if not ok:
        reason += (" In this synthetic pool another dimension ranks the segments' tail latency "
                   "better than the longest burst (Fig. 3 analog).")  # fmt: skip
    return Claim(
        "M1", "max continuous-burst duration has the largest ρ (or within 0.05) at p99.9 and "
        "p99.99", paper_value="largest at p99.9 and p99.99",
        reproduced_value=", ".join(f"{_pk(p)} gap {g:.3f}" for p, g in gaps.items()),
        tolerance=f"gap to the best ρ <= {M1_GAP:g}", verdict=verdict_of(ok), reason=reason,
        values={"gap": {_pk(p): g for p, g in gaps.items()}, "best": {_pk(p): b for p, b in
                                                                      best.items()}},
    )  # fmt: skip


def m2(rho: pd.DataFrame) -> Claim:
    table = _rho_table(rho)
    steps = {f: np.diff(table.loc[f].to_numpy()) for f in
             ("intensity", "total_burst_ms", "mean_duration_ms")}  # fmt: skip
    rise = {f: float(s.max()) for f, s in steps.items()}
    ok = all(r <= M2_RISE for r in rise.values())
    worst = max(rise, key=rise.get)
    return Claim(
        "M2", "ρ of intensity, total burst time and mean duration do not increase from p95 to "
        "p99.99", paper_value="decreasing",
        reproduced_value=f"largest rise {rise[worst]:+.3f} ({worst})",
        tolerance=f"each step rises by <= {M2_RISE:g}", verdict=verdict_of(ok),
        reason=f"Largest step-up of ρ from one percentile to the next: {rise[worst]:+.3f} for "
        f"{worst}" + ("." if ok else "; in this pool that feature matters more in the deeper "
                      "tail, not less (Fig. 3 analog)."),
        values={f: table.loc[f].round(4).tolist() for f in steps},
    )  # fmt: skip


def m3(rho: pd.DataFrame) -> Claim:
    top = float(_rho_table(rho).abs().max().max())
    ok = top < M3_MAX
    return Claim(
        "M3", "no feature is very strongly correlated: |ρ| < 0.8 everywhere (G1 + G2 pool)",
        paper_value=f"|ρ| < {M3_MAX:g}", reproduced_value=f"max |ρ| {top:.3f}",
        tolerance=f"< {M3_MAX:g}", verdict=verdict_of(ok), kind="should",
        reason=f"The strongest correlation over features and percentiles is |ρ| = {top:.3f}"
        + ("." if ok else ": a synthetic pool ties one feature to latency more tightly than "
           "real traces do."),
        values={"max_abs_rho": top},
    )  # fmt: skip


def m5(table: pd.DataFrame) -> Claim:
    pred = table["SNC p99.9, empirical rates (µs)"]
    act = table["actual p99.9 (µs)"]
    spread = float(pred.max() / pred.min() - 1)
    ratio = float(act.max() / act.min())
    ok = spread <= M5_SPREAD and ratio >= M5_RATIO
    reason = (f"On T1–T3 the MMPP+SNC p99.9 spreads {spread * 100:.0f} % while the replayed "
              f"p99.9 spreads {ratio:.2f}×.")  # fmt: skip
    if not ok:
        reason += (" The bound separates the replicas as much as the truth does, or the truth "
                   "does not differ enough (section 5)." if spread > M5_SPREAD else
                   " The replicas' density difference does not move their replayed p99.9 enough "
                   "(section 5).")  # fmt: skip
    return Claim(
        "M5", "MMPP+SNC p99.9 is nearly the same on T1–T3 while actual p99.9 differs >= 2x",
        paper_value="predicted spread 7 %, actual 2.93x",
        reproduced_value=f"predicted spread {spread * 100:.0f} %, actual {ratio:.2f}×",
        tolerance=f"spread <= {M5_SPREAD * 100:g} %, ratio >= {M5_RATIO:g}", verdict=verdict_of(ok),
        reason=reason, values={"predicted_spread": spread, "actual_ratio": ratio},
    )  # fmt: skip


def m6(folds: np.ndarray) -> Claim:
    mean, top = float(np.mean(folds)), float(np.max(folds))
    ok = _in(mean, M6_MEAN) and _in(top, M6_MAX)
    return Claim(
        "M6", "over > p95 points the MMPP+SNC bound over-predicts 3–15x on average, 10–50x at "
        "most", paper_value="7x mean, 23x max",
        reproduced_value=f"{mean:.1f}× mean, {top:.1f}× max",
        tolerance=f"mean in [{M6_MEAN[0]:g}, {M6_MEAN[1]:g}], max in [{M6_MAX[0]:g}, "
        f"{M6_MAX[1]:g}]", verdict=verdict_of(ok), kind="should",
        reason=f"Bound / actual over the CCDF points above p95 of T1–T3: mean {mean:.1f}×, "
        f"max {top:.1f}×" + ("." if ok else
                              "; the synthetic replicas' tails are shaped differently from the "
                              "SNIA traces', so the bound's looseness differs (section 5)."),
        values={"mean_fold": mean, "max_fold": top},
    )  # fmt: skip


def m7(folds: np.ndarray) -> Claim:
    mean, top = float(np.mean(folds)), float(np.max(folds))
    ok = mean >= M7_MEAN and top >= M7_MAX
    return Claim(
        "M7", "MMPP per-count probability fold error >= 3x on average and >= 100x at most",
        paper_value="11x mean, 1279x max", reproduced_value=f"{mean:.1f}× mean, {top:.0f}× max",
        tolerance=f"mean >= {M7_MEAN:g}, max >= {M7_MAX:g}", verdict=verdict_of(ok), kind="should",
        reason=f"LAMBDA's Poisson states against one G1 segment's per-ms counts: fold error "
        f"{mean:.1f}× on average, {top:.0f}× at most"
        + ("." if ok else "; this segment's counts are closer to Poisson than the paper's trace."),
        values={"mean_fold": mean, "max_fold": top},
    )  # fmt: skip


# --- prediction errors: Fig. 8–11 ---------------------------------------------------------------


def _neg(err, name, p) -> float:
    return float(err.loc[(name, p), "max_negative_%"])


def _pos(err, name, p, col="avg_positive_%") -> float:
    return float(err.loc[(name, p), col])


def under_numbers(explain: pd.DataFrame) -> dict[str, float]:
    """Section 7b's medians: how far AccTail is below the modelled segment's replay, how close
    the per-ms queue model is, and the share of the top 1 % inside continuous bursts."""
    p99 = explain[explain.p == P[0]]
    return {
        "acctail_under": float(np.median(explain.replay_us / explain.acctail_us)),
        "queue_error": float(np.median(np.abs(explain.queue_us / explain.replay_us - 1))),
        "in_bursts": float(p99.top1_in_bursts.sum() / max(1, p99.top1_requests.sum())),
    }


def _under_reason(explain: pd.DataFrame | None) -> str:
    """The measured cause of AccTail's under-prediction (section 7b), for reasons."""
    if explain is None or explain.empty:
        return ""
    n = under_numbers(explain)
    text = (f" Cause (section 7b): at its allocated rates AccTail predicts the modelled segment's "
            f"own percentile a median {n['acctail_under']:.0f}× too low; a per-ms queue model on "
            f"the same burst counts is within {n['queue_error'] * 100:.0f} % — Algorithm 1 "
            f"spreads each continuous burst evenly at its average rate, barely above M × mean")
    if n["queue_error"] > X1_TOL:
        outside = (1 - n["in_bursts"]) * 100
        text += (f"; the rest is queueing outside the continuous bursts ({outside:.0f} % of the "
                 "top 1 % arrive there)")
    return text + "."


def a0(err: pd.DataFrame, explain: pd.DataFrame | None = None) -> Claim:
    """A0: the AccTail variants ranked by positive error (A5, A6) have bounded negative error."""
    worst = {(n, p): _neg(err, n, p) for n in A0_METHODS for p in P}
    (name, p), top = max(worst.items(), key=lambda kv: kv[1])
    ok = top <= NEGATIVE_BOUND_PCT
    reason = (f"Largest max negative error among {', '.join(A0_METHODS)}: {top:.0f} % "
              f"({name}, {_pk(p)}).")  # fmt: skip
    if not ok:
        reason += " They under-predict, so a lower positive error is no better prediction." + \
            _under_reason(explain)
    return Claim(
        "A0", "AccTail's variants (M = 2, M = 1.5, k = 1…7) have bounded negative error, so "
        "ranking them by positive error means something",
        paper_value="0 % (c = 25 µs)", reproduced_value=f"max negative {top:.0f} % ({name})",
        tolerance=f"max negative error <= {NEGATIVE_BOUND_PCT:g} % for each, p99 and p99.9",
        verdict=verdict_of(ok), reason=reason,
        values={f"{n} {_pk(q)}": v for (n, q), v in worst.items()},
    )  # fmt: skip


def a1(err, explain=None) -> Claim:
    vals = {_pk(p): {"MMP": _neg(err, "MMP", p), "DB": _neg(err, "DB", p)} for p in P}
    ok = all(v["MMP"] > A1_MMP_NEG and v["DB"] <= A1_RATIO * v["MMP"] for v in vals.values())
    reason = "Max negative error " + "; ".join(
        f"{k}: MMP {v['MMP']:.0f} %, DB {v['DB']:.0f} %" for k, v in vals.items()) + "."
    if not ok:
        reason += (" DB under-predicts as much as MMP or more: both drop the burst shape."
                   + _under_reason(explain))  # fmt: skip
    return Claim(
        "A1", "MMP under-predicts (max negative error > 10 %) and DB's max negative error is <= "
        "half of MMP's, at p99 and p99.9", paper_value="MMP 89 % / 174 %; DB 20 % / 13 %",
        reproduced_value="; ".join(f"{k} MMP {v['MMP']:.0f} %, DB {v['DB']:.0f} %"
                                   for k, v in vals.items()),
        tolerance=f"MMP > {A1_MMP_NEG:g} %, DB <= {A1_RATIO:g} × MMP", verdict=verdict_of(ok),
        reason=reason, values=vals,
    )  # fmt: skip


def a2(err, explain=None) -> Claim:
    vals = {_pk(p): _neg(err, "DB+25µs", p) for p in P}
    ok = all(v <= A2_NEG for v in vals.values())
    reason = "DB+25µs max negative error " + ", ".join(f"{k} {v:.0f} %" for k, v in vals.items())
    reason += "." if ok else ("; adding c = 25 µs cannot make up for missing queueing." +
                              _under_reason(explain))
    return Claim(
        "A2", "DB+25µs has max negative error <= 2 % at p99 and p99.9", paper_value="0 %",
        reproduced_value=", ".join(f"{k} {v:.0f} %" for k, v in vals.items()),
        tolerance=f"<= {A2_NEG:g} %", verdict=verdict_of(ok), reason=reason, values=vals,
    )  # fmt: skip


def a3(err) -> Claim:
    vals = {_pk(p): {n: _neg(err, n, p) for n in ("DB", "DB+17µs", "DB+25µs")} for p in P}
    ok = all(v["DB+25µs"] <= v["DB+17µs"] <= v["DB"] for v in vals.values())
    return Claim(
        "A3", "DB+17µs negative error lies between DB's and DB+25µs's",
        paper_value="p99 0 %, p99.9 4 %",
        reproduced_value=", ".join(f"{k} {v['DB+17µs']:.0f} %" for k, v in vals.items()),
        tolerance="DB+25µs <= DB+17µs <= DB (max negative error)", verdict=verdict_of(ok),
        kind="should",
        reason="Max negative error (DB, DB+17µs, DB+25µs): " + "; ".join(
            f"{k} {v['DB']:.0f}, {v['DB+17µs']:.0f}, {v['DB+25µs']:.0f} %"
            for k, v in vals.items()) + ("." if ok else "; adding c does not order them, since "
                                         "the allocated rates move with c."),
        values=vals,
    )  # fmt: skip


def a4(err, explain=None) -> Claim:
    vals = {_pk(p): {"avg": _pos(err, "DB+25µs", p),
                     "max": _pos(err, "DB+25µs", p, "max_positive_%")} for p in P}  # fmt: skip
    ok = all(_in(v["avg"], A4_AVG) and _in(v["max"], A4_MAX) for v in vals.values())
    reason = "DB+25µs positive error " + "; ".join(
        f"{k}: avg {v['avg']:.0f} %, max {v['max']:.0f} %" for k, v in vals.items()) + "."
    if not ok:
        reason += " Its predictions are mostly below the truth, so little positive error is left."
        reason += _under_reason(explain)
    return Claim(
        "A4", "DB+25µs avg positive error in [30, 135] %, max positive in [80, 330] %",
        paper_value="avg 67 / 59 %, max 156 / 164 %",
        reproduced_value="; ".join(f"{k} avg {v['avg']:.0f} %, max {v['max']:.0f} %"
                                   for k, v in vals.items()),
        tolerance=f"avg in [{A4_AVG[0]:g}, {A4_AVG[1]:g}] %, max in [{A4_MAX[0]:g}, "
        f"{A4_MAX[1]:g}] %", verdict=verdict_of(ok), kind="should", reason=reason, values=vals,
    )  # fmt: skip


def a5(err) -> Claim:
    vals = {_pk(p): {"M=2": _pos(err, "DB+25µs", p), "M=1.5": _pos(err, "M=1.5", p)} for p in P}
    ok = all(v["M=1.5"] < v["M=2"] for v in vals.values())
    return Claim(
        "A5", "M = 1.5 has lower avg positive error than M = 2 at p99 and p99.9",
        paper_value="67 → 47 %, 59 → 40 %",
        reproduced_value="; ".join(f"{k} {v['M=2']:.0f} → {v['M=1.5']:.0f} %"
                                   for k, v in vals.items()),
        tolerance="avg positive error M=1.5 < M=2 at both",
        verdict=verdict_of(ok), requires=("A0",),
        reason="Avg positive error M = 2 → M = 1.5: " + "; ".join(
            f"{k} {v['M=2']:.0f} → {v['M=1.5']:.0f} %" for k, v in vals.items())
        + ("." if ok else "; lowering M does not lower it here."),
        values=vals,
    )  # fmt: skip


def _ks() -> list[str]:
    return ["M=1.5"] + [f"k={k}" for k in range(2, 8)]


def best_k(err) -> dict[float, str]:
    return {p: min(_ks(), key=lambda n: _pos(err, n, p)) for p in P}


def a6(err) -> Claim:
    best = best_k(err)
    vals = {_pk(p): {"best": best[p], "avg": _pos(err, best[p], p),
                     "k=1": _pos(err, "M=1.5", p)} for p in P}  # fmt: skip
    ok = all(v["avg"] < v["k=1"] for v in vals.values())
    return Claim(
        "A6", "the best k beats k = 1 on avg positive error at both percentiles",
        paper_value="k = 3 (p99, 36 %), k = 5 (p99.9, 30 %)",
        reproduced_value="; ".join(f"{k} {v['best']} {v['avg']:.0f} % vs k=1 {v['k=1']:.0f} %"
                                   for k, v in vals.items()),
        tolerance="best k's avg positive error < k = 1's at both", verdict=verdict_of(ok),
        requires=("A0",),
        reason="Best k by avg positive error: " + "; ".join(
            f"{k} {v['best']} ({v['avg']:.0f} % against {v['k=1']:.0f} % for k = 1)"
            for k, v in vals.items()) + ("." if ok else "; no k > 1 does better than one stage."),
        values=vals,
    )  # fmt: skip


def a6s(err, explain=None) -> Claim:
    best = best_k(err)
    k = {p: 1 if best[p] == "M=1.5" else int(best[p][2:]) for p in P}
    vals = {_pk(p): {"k": k[p], "avg": _pos(err, best[p], p), "max neg": _neg(err, best[p], p)}
            for p in P}  # fmt: skip
    ok = (k[99.9] >= k[99.0] and all(vals[_pk(p)]["avg"] <= A6S_AVG[p] for p in P)
          and all(v["max neg"] <= A6S_NEG for v in vals.values()))  # fmt: skip
    reason = "Best k " + "; ".join(f"{q}: k = {v['k']}, avg {v['avg']:.0f} %, max negative "
                                   f"{v['max neg']:.0f} %" for q, v in vals.items()) + "."
    if not ok and any(v["max neg"] > A6S_NEG for v in vals.values()):
        reason += _under_reason(explain)
    return Claim(
        "A6s", "best k for p99.9 >= best k for p99; best avg error <= 60 % (p99) and <= 50 % "
        "(p99.9) with negative error <= 2 %", paper_value="3 <= 5; 36 %, 30 %; 0 %",
        reproduced_value="; ".join(f"{q} k={v['k']}, {v['avg']:.0f} %, neg {v['max neg']:.0f} %"
                                   for q, v in vals.items()),
        tolerance=f"k(p99.9) >= k(p99); avg <= {A6S_AVG[99.0]:g} / {A6S_AVG[99.9]:g} %; max "
        f"negative <= {A6S_NEG:g} %",
        verdict=verdict_of(ok), kind="should", reason=reason, values=vals,
    )  # fmt: skip


def a7(f11: pd.DataFrame, explain=None) -> Claim:
    g = lambda p, m, s="mean": float(f11.loc[(p, m), s])  # noqa: E731
    names = ("PM", "SNCM", "AccTail")
    ok = all(g(p, "PM", s) > g(p, "SNCM", s) > g(p, "AccTail", s) for p in P
             for s in ("mean", "max"))  # fmt: skip
    vals = {_pk(p): {m: [g(p, m), g(p, m, "max")] for m in names} for p in P}
    reason = "Total error (avg / max) " + "; ".join(
        f"{k}: " + ", ".join(f"{m} {v[m][0]:.0f} / {v[m][1]:.0f} %" for m in names)
        for k, v in vals.items()) + "."
    if not ok:
        if any(g(p, "AccTail", s) >= g(p, "SNCM", s) for p in P for s in ("mean", "max")):
            reason += (" AccTail's under-prediction makes its total error no smaller."
                       + _under_reason(explain))  # fmt: skip
        else:
            reason += (" PM's deterministic bound on the modelled segment (the simplified one: "
                       "its exact maximum wait) is not looser than SNC-Meister's bound.")
    return Claim(
        "A7", "error(PM) > error(SNCM) > error(AccTail), avg and max, at p99 and p99.9",
        paper_value="PM > SNCM > AccTail",
        reproduced_value="; ".join(f"{k} avg " + " / ".join(f"{v[m][0]:.0f}" for m in names)
                                   + " %" for k, v in vals.items()),
        tolerance="strict ordering of total error (avg and max) at both", verdict=verdict_of(ok),
        reason=reason, values=vals,
    )  # fmt: skip


def a8(f11: pd.DataFrame, explain=None) -> Claim:
    g = lambda p, m: float(f11.loc[(p, m), "mean"])  # noqa: E731
    ratios = {p: {"SNCM/AccTail": g(p, "SNCM") / g(p, "AccTail"),
                  "PM/AccTail": g(p, "PM") / g(p, "AccTail")} for p in P}  # fmt: skip
    ok = (all(ratios[p]["SNCM/AccTail"] >= A8_SNCM[p] and ratios[p]["PM/AccTail"] >= A8_PM[p]
              for p in P) and ratios[99.0]["PM/AccTail"] > ratios[99.9]["PM/AccTail"])  # fmt: skip
    reason = "Avg total-error ratios " + "; ".join(
        f"{_pk(p)}: SNCM/AccTail {r['SNCM/AccTail']:.2f}, PM/AccTail {r['PM/AccTail']:.2f}"
        for p, r in ratios.items()) + "."
    if not ok:
        reason += _under_reason(explain)
    return Claim(
        "A8", "avg error ratios vs AccTail: SNCM >= 5x (p99), >= 2x (p99.9); PM >= 10x (p99), "
        ">= 3x (p99.9), larger at p99", paper_value="SNCM 36x / 8x; PM 56x / 12x",
        reproduced_value="; ".join(f"{_pk(p)} SNCM {r['SNCM/AccTail']:.2f}×, PM "
                                   f"{r['PM/AccTail']:.2f}×" for p, r in ratios.items()),
        tolerance=f"SNCM >= {A8_SNCM[99.0]:g}× / {A8_SNCM[99.9]:g}×, PM >= {A8_PM[99.0]:g}× / "
        f"{A8_PM[99.9]:g}×, PM ratio larger at p99", verdict=verdict_of(ok), kind="should",
        reason=reason, values={_pk(p): r for p, r in ratios.items()},
    )  # fmt: skip


# --- admission and safety: Fig. 12 --------------------------------------------------------------


def _admitted(adm: pd.DataFrame, p: float) -> pd.Series:
    return adm[adm.p == p].set_index("method").admitted


def _gain(adm, p, method, reference) -> float:
    part = _admitted(adm, p)
    return float(part[method] / part[reference] - 1)


def _separated(adm, p) -> bool:
    part = adm[adm.p == p].set_index("method")
    lo, hi = part.admitted - part.ci95, part.admitted + part.ci95
    return bool(lo["AccTail"] > hi["SNCM"] and lo["SNCM"] > hi["PM"])


def t4(safe: pd.DataFrame, explain=None) -> Claim:
    acc = safe[safe.method == "AccTail"].set_index("p")
    vals = {_pk(p): {"violating %": float(r["violating_%"]), "worst": float(r["worst actual/SLO"])}
            for p, r in acc.iterrows()}  # fmt: skip
    ok = all(v["violating %"] <= T4_SHARE_PCT and v["worst"] <= T4_WORST for v in vals.values())
    reason = "AccGecko-admitted tenants violating their SLO on the full-trace replay: " + "; ".join(
        f"{k} {v['violating %']:.1f} % (worst {v['worst']:.1f}× the SLO)"
        for k, v in vals.items()) + "."
    if not ok:
        reason += _under_reason(explain)
        if "BurstQueue" in set(safe.method):
            q = safe[safe.method == "BurstQueue"].set_index("p")["violating_%"]
            reason += (" The reference queue model admits tenants of whom "
                       + ", ".join(f"{v:.0f} % ({_pk(p)})" for p, v in q.items())
                       + " violate (section 9).")  # fmt: skip
    return Claim(
        "T4", "<= 2 % of AccGecko-admitted tenants violate their SLO, none by more than 10 %",
        paper_value="SLOs guaranteed",
        reproduced_value="; ".join(f"{k} {v['violating %']:.1f} % violate, worst "
                                   f"{v['worst']:.1f}×" for k, v in vals.items()),
        tolerance=f"<= {T4_SHARE_PCT:g} % violating, worst actual/SLO <= {T4_WORST:g}",
        verdict=verdict_of(ok), reason=reason, values=vals,
    )  # fmt: skip


def t1(adm: pd.DataFrame) -> Claim:
    sep = {p: _separated(adm, p) for p in P}
    vals = {_pk(p): {m: float(v) for m, v in _admitted(adm, p).items()} for p in P}
    ok = all(sep.values())
    return Claim(
        "T1", "tenants admitted: AccGecko > SNCM > PM at p99 and p99.9, separated beyond the "
        "95 % CIs", paper_value="AccGecko > SNCM > PM",
        reproduced_value="; ".join(f"{k} " + " / ".join(f"{v[m]:.1f}" for m in
                                   ("AccTail", "SNCM", "PM")) for k, v in vals.items())
        + " (AccGecko / SNCM / PM)",
        tolerance="non-overlapping 95 % CIs", verdict=verdict_of(ok), requires=("T4",),
        reason="Mean tenants admitted (AccGecko / SNCM / PM) " + "; ".join(
            f"{k}: " + " / ".join(f"{v[m]:.1f}" for m in ("AccTail", "SNCM", "PM"))
            for k, v in vals.items())
        + ("." if ok else "; the order does not hold beyond the CIs at "
           + ", ".join(_pk(p) for p, s in sep.items() if not s) + _t1_cause(vals)),
        values=vals,
    )  # fmt: skip


def _t1_cause(vals: dict) -> str:
    """Which pair of T1's order fails, and why where it is known."""
    pm_wins = [k for k, v in vals.items() if v["PM"] >= v["SNCM"]]
    if pm_wins:
        return (f": PM admits at least as many as SNCM at {', '.join(pm_wins)} — PM's "
                "deterministic bound on the modelled segment (the simplified one: its exact "
                "maximum wait) is tighter here than SNC-Meister's stochastic bound.")
    return ": AccGecko's and SNC-Meister's admissions overlap within their CIs."


def t2(adm: pd.DataFrame) -> Claim:
    g = {p: _gain(adm, p, "AccTail", "SNCM") for p in P}
    mean = (g[99.0] + g[99.9]) / 2
    ok = _in(g[99.0], T2_BANDS[99.0]) and _in(g[99.9], T2_BANDS[99.9]) and \
        _in(mean, T2_BANDS["mean"])
    band = lambda b: f"+{b[0] * 100:g}…+{b[1] * 100:g} %"  # noqa: E731
    return Claim(
        "T2", "AccGecko vs SNCM: +50…+200 % at p99, +5…+60 % at p99.9, mean of the two in "
        "+30…+120 %", paper_value="+112 %, +19 %, mean 66 %",
        reproduced_value=f"{g[99.0] * 100:+.0f} %, {g[99.9] * 100:+.0f} %, mean "
        f"{mean * 100:+.0f} %",
        tolerance=f"{band(T2_BANDS[99.0])}, {band(T2_BANDS[99.9])}, mean "
        f"{band(T2_BANDS['mean'])}", verdict=verdict_of(ok), kind="should", requires=("T4",),
        reason=f"AccGecko admits {g[99.0] * 100:+.0f} % (p99) and {g[99.9] * 100:+.0f} % "
        f"(p99.9) tenants against SNC-Meister"
        + ("." if ok else "; outside its band: " + ", ".join(
            k for k, x in (("p99", g[99.0]), ("p99.9", g[99.9]), ("mean", mean))
            if not _in(x, T2_BANDS[99.0 if k == "p99" else 99.9 if k == "p99.9" else k]))
           + (". AccTail allocates rates barely above M × mean, where it predicts almost no "
              "queueing (section 7b)." if g[99.9] > T2_BANDS[99.9][1] else ".")),
        values={"p99": g[99.0], "p99.9": g[99.9], "mean": mean},
    )  # fmt: skip


def t2m(adm: pd.DataFrame) -> Claim:
    g = {p: _gain(adm, p, "AccTail", "SNCM") for p in P}
    ok = g[99.0] > g[99.9]
    return Claim(
        "T2m", "the AccGecko gain over SNCM is larger at p99 than at p99.9",
        paper_value="112 % > 19 %",
        reproduced_value=f"{g[99.0] * 100:+.0f} % vs {g[99.9] * 100:+.0f} %",
        tolerance="gain(p99) > gain(p99.9)", verdict=verdict_of(ok), requires=("T4",),
        reason=f"Gain over SNC-Meister {g[99.0] * 100:+.0f} % at p99, {g[99.9] * 100:+.0f} % at "
        "p99.9" + ("." if ok else "; the deeper percentile gains more here."),
        values={_pk(p): v for p, v in g.items()},
    )  # fmt: skip


def t3(adm: pd.DataFrame) -> Claim:
    g = {p: _gain(adm, p, "AccTail", "PM") for p in P}
    ok = all(g[p] >= T3_MIN[p] for p in P)
    return Claim(
        "T3", "AccGecko vs PM: >= +100 % at p99, >= +50 % at p99.9", paper_value="+194 %, +109 %",
        reproduced_value=f"{g[99.0] * 100:+.0f} %, {g[99.9] * 100:+.0f} %",
        tolerance=f">= +{T3_MIN[99.0] * 100:g} %, >= +{T3_MIN[99.9] * 100:g} %",
        verdict=verdict_of(ok),
        kind="should", requires=("T4",),
        reason=f"AccGecko admits {g[99.0] * 100:+.0f} % (p99) and {g[99.9] * 100:+.0f} % "
        "(p99.9) tenants against PriorityMeister" + ("." if ok else ", below the bands."),
        values={_pk(p): v for p, v in g.items()},
    )  # fmt: skip


def t5(sens: pd.DataFrame) -> Claim:
    held = int(sens["T1 holds"].sum())
    order = int((sens["gain p99 %"] > sens["gain p99.9 %"]).sum())
    n = len(sens)
    ok = held == n and order == n
    return Claim(
        "T5", "T1 and gain(p99) > gain(p99.9) hold for C in {50k, 100k, 200k} and both SLO "
        "modes", paper_value="robust", reproduced_value=f"{held}/{n} T1, {order}/{n} gain order",
        tolerance=f"{n}/{n} each", verdict=verdict_of(ok), requires=("T4",),
        reason=f"Over {n} capacity × SLO-mode settings T1 holds in {held} and the gain order in "
        f"{order}" + ("." if ok else " (section 10)."),
        values={"T1 holds": held, "gain order": order, "settings": n},
    )  # fmt: skip


# --- the under-prediction experiment (this reproduction's, not the paper's) ---------------------


def x1(explain: pd.DataFrame, tol: float = X1_TOL) -> Claim:
    """X1: the per-ms queue model (ours) predicts the modelled segment's replayed percentile at
    AccTail's allocated rates; AccTail's prediction for comparison."""
    qerr = np.abs(explain.queue_us / explain.replay_us - 1)
    acc = explain.replay_us / explain.acctail_us
    med = float(np.median(qerr))
    ok = med <= tol
    return Claim(
        "X1", "a per-ms queue model on AccTail's own burst counts (ours, not the paper's) "
        "predicts the modelled segment's replayed percentile at AccTail's allocated rates",
        paper_value="— (not in the paper)",
        reproduced_value=f"median |error| {med * 100:.1f} % (AccTail: {np.median(acc):.0f}× low)",
        tolerance=f"median |error| <= {tol * 100:g} %", verdict=verdict_of(ok), role="invariant",
        kind="report",
        reason=f"Over {len(explain)} (tenant, percentile) allocations the queue model's median "
        f"|error| is {med * 100:.1f} % (90th percentile {np.quantile(qerr, 0.9) * 100:.1f} %), "
        f"while AccTail is a median {np.median(acc):.0f}× (up to {acc.max():.0f}×) below the "
        "replay" + ("." if ok else
                     f"; the burst counts alone miss part of the queueing: "
                     f"{(1 - under_numbers(explain)['in_bursts']) * 100:.0f} % of the top 1 % "
                     "latencies arrive outside continuous bursts (X2)."),
        values={"queue_median_abs_error": med, "queue_p90_abs_error": float(np.quantile(qerr, .9)),
                "acctail_median_under": float(np.median(acc)), "acctail_max_under":
                float(acc.max())},
    )  # fmt: skip


def x2(explain: pd.DataFrame) -> Claim:
    """X2: where the top 1 % of latencies arrive — inside continuous bursts or in the drain."""
    part = explain[explain.p == P[0]]
    share = float(part.top1_in_bursts.sum() / part.top1_requests.sum())
    over = float(np.median(part.burst_rate_over_threshold))
    ok = share > X2_SHARE
    where = ("most of the tail is made inside the bursts, not in the queue's drain after them"
             if ok else
             "most of the slowest requests arrive outside them (the drain after a burst, or "
             "isolated 1 ms bursts)")
    return Claim(
        "X2", "most of the top 1 % latencies of the modelled segment (at AccTail's p99 "
        "allocation) arrive inside continuous bursts", paper_value="— (not in the paper)",
        reproduced_value=f"{share * 100:.1f} % inside", tolerance=f"> {X2_SHARE * 100:g} %",
        verdict=verdict_of(ok), role="invariant", kind="report",
        reason=f"{part.top1_in_bursts.sum():,} of {part.top1_requests.sum():,} top-1 % requests "
        f"arrive inside continuous bursts (M = 1.5): {where}. The bursts' average rate is a "
        f"median {over:.2f}× the threshold "
        f"M × mean, with a median peak of {np.median(part.median_peak_ms_count):.0f} requests "
        "in one ms.",
        values={"share_inside": share, "median_rate_over_threshold": over},
    )  # fmt: skip


def x3(safe: pd.DataFrame, allocations: pd.DataFrame) -> Claim:
    """X3: does keeping the bursts' per-ms shape (the reference queue model, ours) keep the
    tenants it admits within their SLOs (T4's band)?"""
    q = safe[safe.method == "BurstQueue"].set_index("p")
    vals = {_pk(p): {"violating %": float(r["violating_%"]), "worst": float(r["worst actual/SLO"])}
            for p, r in q.iterrows()}  # fmt: skip
    ok = all(v["violating %"] <= T4_SHARE_PCT and v["worst"] <= T4_WORST for v in vals.values())
    rows = allocations[(allocations.method == "BurstQueue") & np.isfinite(allocations.rate)]
    excess = float(np.median(rows.actual_us / rows.predicted_us)) if len(rows) else float("nan")
    reason = ("Tenants admitted on the per-ms queue model's rates violating their SLO on the "
              "full-trace replay: " + "; ".join(
                  f"{k} {v['violating %']:.0f} % (worst {v['worst']:.1f}×)"
                  for k, v in vals.items()) + ".")  # fmt: skip
    if not ok:
        reason += (f" At the allocated rates the full trace's percentile is a median {excess:.2f}× "
                   "the model's prediction: the smallest rate that meets the SLO leaves no "
                   "margin, so both the model's own misses (queueing outside continuous bursts, "
                   "X1/X2) and segments burstier than the modelled one become violations.")
    return Claim(
        "X3", "a predictor that keeps the bursts' per-ms shape (ours, not the paper's) keeps the "
        "tenants it admits within their SLOs", paper_value="— (not in the paper)",
        reproduced_value="; ".join(f"{k} {v['violating %']:.0f} % violate, worst "
                                   f"{v['worst']:.1f}×" for k, v in vals.items()),
        tolerance=f"T4's band: <= {T4_SHARE_PCT:g} % violating, worst <= {T4_WORST:g}",
        verdict=verdict_of(ok), role="invariant", kind="report", reason=reason,
        values={**vals, "median_actual_over_predicted": excess},
    )  # fmt: skip


# --- the headline -------------------------------------------------------------------------------

CORE = ["A7", "T2", "T4"]


def headline_text(run, explain: pd.DataFrame) -> dict:
    """Keyword arguments of ``run.headline``: the paper's core claims and the measured cause."""
    statement = ("AccTail predicts tail latency with far lower error than PriorityMeister and "
                 "SNC-Meister, and AccGecko admits about 66 % more tenants than SNC-Meister "
                 "while meeting their SLOs:")  # fmt: skip
    t4_values = run.claims["T4"]["values"]
    worst = max(v["violating %"] for v in t4_values.values())
    if run.verdict("T4") == "reproduced":
        cause = (f"Admitted tenants keep their SLOs (at most {worst:.1f} % violate); the gains "
                 f"and errors are judged against the paper's bands.")  # fmt: skip
    else:
        n = under_numbers(explain)
        cause = (f"Up to {worst:.0f} % of the tenants AccGecko admits miss their SLO: Algorithm 1 "
                 f"spreads each continuous burst's requests evenly at its average rate, barely "
                 f"above M × mean, so it predicts almost no queueing and allocates too little (a "
                 f"median {n['acctail_under']:.0f}× under the modelled segment's own replay, "
                 f"where a per-ms queue model on the same counts is within "
                 f"{n['queue_error'] * 100:.0f} %); every admission gain is void.")  # fmt: skip
    return {"statement": statement, "core": CORE, "cause": cause}



def record_readings(run, rule, inputs: dict[str, tuple], **extra) -> dict:
    """Record ``rule`` on the primary reading's ``inputs`` and on each alternative's (``inputs``
    maps every reading label, ``"primary"`` included, to the rule's arguments)."""
    others = {label: args for label, args in inputs.items() if label != "primary"}
    return run.record(
        rule(*inputs["primary"], **extra),
        readings={label: rule(*args, **extra) for label, args in others.items()},
    )


def note_input(run) -> None:
    """With a real trace in place of the synthetic pool, every test claim's reason ends by
    naming it (the paper's traces were not used either way; the results name the input)."""
    if getattr(run.config, "trace", ""):
        words = run.config.input_description()
        for entry in run.claims.values():
            if entry["role"] == "test":
                entry["reason"] += f" Checked on {words}, not on the paper's SNIA traces."
