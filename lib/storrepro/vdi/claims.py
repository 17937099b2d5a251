"""Claim rules F1–F9 and S1–S11 of notebook 03 (smart background scheduling for VDI).

One function per claim id; each takes the experiment's outputs (small frames, series and
dicts the notebook already has) and returns a :class:`storrepro.claims.Claim`. The bands are the
module constants below: each rule's tolerance text is written from the same constants its check
uses. Roles:

- ``calibration``: F1, F2, F4, F6 (the synthetic trace's noise and shape were calibrated to
  them) and S4 (the fixed baseline's ramp is fitted to the paper's 54.6 % / 21.7 %);
- ``invariant``: S1–S3, S10, S11 (properties of this implementation) and S8 (queued % <
  violation % holds by the queued-IO definition: a violation bin queues only part of its IO);
- ``test``: F3, F5, F7, F8, F9, S5, S6, S7, S9.

Conditions (``requires``): F5 requires F9 (Holt-Winters beating ARIMA means nothing against a
divergent ARIMA fit scored 200 %); S6 requires S4 (the ratio fixed/smart is the paper's only
against a baseline at the paper's numbers).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from storrepro.claims import Claim, verdict_of
from storrepro.vdi.metrics import dynamics, mean_violation, per_seed_frame

# ---------------------------------------------------------------- bands, fixed before any run

ACF_ARGMAX = (141, 147)  # F1: argmax of the ACF over lags 36–300
ACF144_MIN = 0.35  # F1
ACF_GAP_MIN = 0.5  # F1: ACF(144) − ACF(72)
LAG_R_MIN = 0.45  # F2
WTF_SPREAD_MAX = 0.10  # F3: Wed/Thu/Fri trend within ±10 % of their mean
WEEKEND_MAX = 0.6  # F3: Sat and Sun ≤ 0.6× the Wed–Fri mean
MONDAY_MIN = 1.05  # F3: Mon ≥ 1.05×
F5_MARGIN = 0.5  # F5: proposed ≤ HW + 0.5 pp
F5_SEED_SHARE = 0.8  # F5: ordered on ≥ 80 % of the seeds
F6_BANDS = {"proposed": (10.0, 20.0), "holt-winters": (14.0, 25.0)}
F6_ARIMA_GAP = 1.0  # F6: ARIMA ≥ HW + 1 pp
F6_RATIO_MAX = 0.85  # F6: proposed / ARIMA
MPE_MAX = 10.0  # F7: |MPE| < 10 %
CUM_ERR_MAX = 0.05  # F8: |CumErr| ≤ 5 % at the end of every forecast day
DIVERGENT_SMAPE = 150.0  # F9: a SMAPE above this marks a divergent fit
DIVERGENT_SCORE = 200.0  # F9: and it is scored so
S3_SMART_MAX = 97.0  # S3: smart max debt, % of the pool
S4_TARGET = {"violation": (54.6, 10.0), "queued": (21.7, 11.0)}
S5_TARGET = {"violation": (6.2, 4.0), "queued": (2.6, 2.0)}
S6_RATIO_MIN = {"violation": 4.0, "queued": 3.0}
S6_PAPER = {"violation": 54.6 / 6.2, "queued": 21.7 / 2.6}
S7_MARGIN = 0.5  # S7: idle-only ≤ smart-oracle ≤ smart + 0.5 pp
S9_IN_BAND = 0.8  # S9: fixed debt in its band on ≥ 80 % of the busy weekday ticks
S9_SMART_PEAK = (0.80, 0.97)  # S9: smart peak debt / P
S9_DRAINS = 3  # S9: ≥ 3 of the 6 nights drain
S10_AGREE_PP = 0.1  # S10: simpy vs fluid
S10_TICK_PP = 3.0  # S10: 60 s tick vs 600 s



def _both(first: bool, second: bool) -> str:
    return "reproduced" if first and second else "partly" if first or second else "not reproduced"


def _range(values, fmt: str = "{:.2f}") -> str:
    lo, hi = (fmt.format(float(f(values))) for f in (np.min, np.max))
    return lo if lo == hi else f"{lo} to {hi}" if lo.startswith("-") else f"{lo}–{hi}"


# ---------------------------------------------------------------- characterization


def f1_acf(char: pd.DataFrame) -> Claim:
    """F1 (calibration): ACF peak at the 24 h lag on every seed. ``char`` has one row per seed
    with ``acf_argmax``, ``acf144`` and ``acf72``."""
    lo, hi = ACF_ARGMAX
    ok_seed = (
        char.acf_argmax.between(lo, hi)
        & (char.acf144 >= ACF144_MIN)
        & (char.acf144 - char.acf72 >= ACF_GAP_MIN)
    )
    ok = bool(ok_seed.all())
    reason = (
        f"ACF argmax over lags 36–300 at lag {_range(char.acf_argmax, '{:.0f}')}, ACF(144) "
        f"{_range(char.acf144)}, ACF(72) {_range(char.acf72)} on {len(char)} seeds: the "
        "generator's daily cycle was calibrated to this shape."
    )
    if not ok:
        reason += f" Failed on seeds {list(char.index[~ok_seed])}: the trace lost its daily cycle."
    return Claim(
        id="F1",
        statement="VDI IO intensity is periodic with a 24 h season: the ACF peaks at lag 144",
        paper_value="ACF maximum at lag 144",
        reproduced_value=f"argmax lag {_range(char.acf_argmax, '{:.0f}')}, "
        f"ACF(144) {_range(char.acf144)}",
        tolerance=f"every seed: argmax in [{lo}, {hi}], ACF(144) ≥ {ACF144_MIN:g}, "
        f"ACF(144) − ACF(72) ≥ {ACF_GAP_MIN:g}",
        verdict=verdict_of(ok),
        reason=reason,
        role="calibration",
        values={"acf_argmax": list(char.acf_argmax), "acf144": list(char.acf144),
                "acf72": list(char.acf72), "seeds_ok": int(ok_seed.sum())},
    )


def f2_lag_spread(char: pd.DataFrame) -> Claim:
    """F2 (calibration): Pearson r(y_t, y_{t+144}) ≥ 0.45 on every seed."""
    low = float(char.lag144_r.min())
    ok = low >= LAG_R_MIN
    return Claim(
        id="F2",
        statement="The 24 h lag spread shows a strong 24 h correlation",
        paper_value="strong correlation (Fig. 6)",
        reproduced_value=f"Pearson r {_range(char.lag144_r)}",
        tolerance=f"r ≥ {LAG_R_MIN:g} on every seed",
        verdict=verdict_of(ok),
        reason=f"Pearson r between the intensity and its value 24 h later is "
        f"{_range(char.lag144_r)} over {len(char)} seeds"
        + ("; the generator's noise level was calibrated to it." if ok
           else f", below {LAG_R_MIN:g}: the trace's noise drowns the daily cycle."),
        role="calibration",
        values={"lag144_r": list(char.lag144_r), "min": low},
    )


def f3_decomposition(char: pd.DataFrame) -> Claim:
    """F3 (test): the decomposition's daily-mean trend, by calendar date, is flat Wed–Fri,
    lower at the weekend and higher on Monday, on every seed. ``char`` has ``wtf_spread``,
    ``weekend_ratio`` and ``monday_ratio`` per seed (:func:`forecast_study.characterize`)."""
    flat = char.wtf_spread <= WTF_SPREAD_MAX
    low = char.weekend_ratio <= WEEKEND_MAX
    high = char.monday_ratio >= MONDAY_MIN
    ok_seed = flat & low & high
    ok = bool(ok_seed.all())
    measured = (
        f"Wed–Fri spread ≤ {100 * char.wtf_spread.max():.1f} %, "
        f"weekend {_range(char.weekend_ratio)}×, Monday {_range(char.monday_ratio)}×"
    )
    reason = (
        f"Daily means of the additive decomposition's trend, grouped by calendar date (section "
        f"3): {measured} of the Wed–Fri mean on {len(char)} seeds."
    )
    if not ok:
        parts = [
            name
            for name, part in (("Wed–Fri flat", flat), ("weekend low", low), ("Monday high", high))
            if not part.all()
        ]
        reason += (
            f" Fails on {int((~ok_seed).sum())} seed(s) in: {', '.join(parts)} — the synthetic "
            "week lacks that part of the paper's shape."
        )
    return Claim(
        id="F3",
        statement="Decomposition: the trend is flat Wednesday to Friday, lower at the weekend "
        "and higher on Monday",
        paper_value="flat Wed–Fri, low weekend, high Monday (Fig. 9)",
        reproduced_value=measured,
        tolerance=f"every seed: Wed/Thu/Fri within ±{WTF_SPREAD_MAX * 100:g} % of their mean, "
        f"Sat and Sun ≤ {WEEKEND_MAX:g}×, Mon ≥ {MONDAY_MIN:g}× (calendar dates)",
        verdict=verdict_of(ok),
        reason=reason,
        values={"wtf_spread": list(char.wtf_spread), "weekend_ratio": list(char.weekend_ratio),
                "monday_ratio": list(char.monday_ratio), "seeds_ok": int(ok_seed.sum())},
    )


def f4_clusters(char: pd.DataFrame) -> Claim:
    """F4 (calibration): K-means separates {Sat, Sun} from the weekdays on every seed."""
    n_ok, n = int(char.kmeans_ok.sum()), len(char)
    ok = n_ok == n
    return Claim(
        id="F4",
        statement="K-means (k = 2 ≤ ⌊√(7/2)⌋) separates the weekend days from the weekdays",
        paper_value="weekday vs weekend clusters",
        reproduced_value=f"{n_ok}/{n} seeds",
        tolerance="exact split on every seed",
        verdict=verdict_of(ok),
        reason=f"K-means on the window's daily means puts Saturday and Sunday alone in one cluster "
        f"on {n_ok} of {n} seeds"
        + ("; the generator's quiet weekend was built to do so." if ok
           else ": the weekend is not quiet enough in the others."),
        role="calibration",
        values={"seeds_ok": n_ok, "seeds": n},
    )


# ---------------------------------------------------------------- forecasting


def psyn_smape(psyn: pd.DataFrame, arima: str = "arima-ridge") -> pd.DataFrame:
    """Per-seed P-syn SMAPE of the proposed model, Holt-Winters and the reported ARIMA row,
    divergent fits scored :data:`DIVERGENT_SCORE` (the F9 scoring rule)."""
    rows = psyn[psyn.model.isin(["proposed", "holt-winters", arima])]
    scored = rows.smape.where(~rows.divergent.astype(bool), DIVERGENT_SCORE)
    table = rows.assign(smape=scored).pivot(index="seed", columns="model", values="smape")
    return table.rename(columns={arima: "arima"})[["proposed", "holt-winters", "arima"]]


def f5_ordering(smape: pd.DataFrame) -> Claim:
    """F5 (test): proposed ≤ HW + 0.5 pp and HW < ARIMA, in the mean and on ≥ 80 % of the
    seeds. ``smape``: per seed, columns proposed, holt-winters, arima (:func:`psyn_smape`)."""
    prop, hw, arima = smape["proposed"], smape["holt-winters"], smape["arima"]
    n = len(smape)
    need = math.ceil(F5_SEED_SHARE * n)
    ordered = (prop <= hw + F5_MARGIN) & (hw < arima)
    in_mean = bool(prop.mean() <= hw.mean() + F5_MARGIN and hw.mean() < arima.mean())
    ok = in_mean and int(ordered.sum()) >= need
    measured = f"{prop.mean():.1f} / {hw.mean():.1f} / {arima.mean():.1f} % SMAPE"
    reason = (
        f"P-syn SMAPE (proposed / Holt-Winters / ARIMA) {measured} in the mean; ordered on "
        f"{int(ordered.sum())} of {n} seeds (section 4)."
    )
    if not ok:
        losing = "proposed above Holt-Winters" if prop.mean() > hw.mean() + F5_MARGIN else (
            "Holt-Winters not below ARIMA" if hw.mean() >= arima.mean() else
            f"the order holds on fewer than {need} seeds"
        )
        reason += f" Fails: {losing}."
    return Claim(
        id="F5",
        statement="The proposed forecaster beats Holt-Winters, which beats ARIMA(144,0,2) (SMAPE)",
        paper_value="14.8 < 19.2 < 27.8 %",
        reproduced_value=f"{measured}, ordered on {int(ordered.sum())}/{n} seeds",
        tolerance=f"proposed ≤ HW + {F5_MARGIN:g} pp and HW < ARIMA, in the mean and on "
        f"≥ {F5_SEED_SHARE:.0%} of the seeds ({need}/{n})",
        verdict=verdict_of(ok),
        reason=reason,
        requires=("F9",),
        values={"proposed": prop.mean(), "holt_winters": hw.mean(), "arima": arima.mean(),
                "seeds_ordered": int(ordered.sum()), "seeds": n},
    )


def f6_magnitudes(smape: pd.DataFrame) -> Claim:
    """F6 (calibration): SMAPE magnitudes in the synthetic bands (the generator's noise level
    was calibrated to land the forecast errors near the paper's)."""
    prop, hw, arima = (float(smape[c].mean()) for c in ("proposed", "holt-winters", "arima"))
    (p_lo, p_hi), (h_lo, h_hi) = F6_BANDS["proposed"], F6_BANDS["holt-winters"]
    checks = {
        f"proposed in [{p_lo:g}, {p_hi:g}] %": p_lo <= prop <= p_hi,
        f"HW in [{h_lo:g}, {h_hi:g}] %": h_lo <= hw <= h_hi,
        f"ARIMA ≥ HW + {F6_ARIMA_GAP:g} pp": arima >= hw + F6_ARIMA_GAP,
        f"proposed/ARIMA ≤ {F6_RATIO_MAX:g}": prop / arima <= F6_RATIO_MAX,
    }
    passed = sum(checks.values())
    failed = [k for k, ok in checks.items() if not ok]
    verdict = "reproduced" if passed == 4 else "partly" if passed >= 2 else "not reproduced"
    return Claim(
        id="F6",
        statement="SMAPE magnitudes: proposed 14.8 %, Holt-Winters 19.2 %, ARIMA 27.8 %",
        paper_value="14.8 / 19.2 / 27.8 %, ratio 0.53",
        reproduced_value=f"{prop:.1f} / {hw:.1f} / {arima:.1f} %, ratio {prop / arima:.2f}",
        tolerance="; ".join(checks),
        verdict=verdict,
        reason=f"Mean P-syn SMAPE {prop:.1f} / {hw:.1f} / {arima:.1f} %; the trace's noise "
        "(σ = 0.45) was calibrated to put them near the paper's"
        + (f"; outside: {', '.join(failed)}." if failed else "."),
        role="calibration",
        values={"proposed": prop, "holt_winters": hw, "arima": arima, "failed": failed},
    )


def f7_mpe(psyn: pd.DataFrame) -> Claim:
    """F7 (test): |MPE| of the proposed model < 10 % and < its SMAPE (P-syn, mean over seeds).
    Seasonal-naive's and Holt-Winters' MPE are shown beside it: the band does not single the
    proposed model out when they pass it too."""
    by = psyn.groupby("model")
    mpe = by.mpe.mean()
    smape = by.smape.mean()
    prop, prop_smape = float(mpe["proposed"]), float(smape["proposed"])
    ok = abs(prop) < MPE_MAX and abs(prop) < prop_smape
    others = {m: float(mpe[m]) for m in ("seasonal-naive", "holt-winters") if m in mpe.index}
    passing = [m for m, v in others.items() if abs(v) < MPE_MAX and abs(v) < smape[m]]
    beside = ", ".join(f"{m} {v:+.1f} %" for m, v in others.items())
    reason = f"P-syn MPE of the proposed model {prop:+.1f} % (SMAPE {prop_smape:.1f} %)"
    reason += f"; beside it {beside}." if others else "."
    if not ok:
        reason += (
            f" Outside |MPE| < {MPE_MAX:g} % or not below the SMAPE: the errors do not cancel."
        )
    elif passing:
        reason += (
            f" {' and '.join(passing)} pass the same band: it does not discriminate, the "
            "small MPE is a property of daily-seasonal forecasts of this trace, not of the "
            "proposed model alone."
        )
    return Claim(
        id="F7",
        statement="The proposed model's MPE is well below 10 %",
        paper_value="< 10 %",
        reproduced_value=f"{prop:+.1f} % ({beside})" if others else f"{prop:+.1f} %",
        tolerance=f"|MPE| < {MPE_MAX:g} % and |MPE| < SMAPE (mean over seeds)",
        verdict=verdict_of(ok),
        reason=reason,
        values={"mpe": prop, "smape": prop_smape, "others_mpe": others,
                "others_passing": passing},
    )


def f8_cumulative(cum_err: pd.Series, weekly_cum_err: pd.Series | None = None) -> Claim:
    """F8 (test): |CumErr| ≤ 5 % at the end of every forecast day of the proposed model.
    ``cum_err`` is indexed by (seed, day name); ``weekly_cum_err`` is the scheduler's
    weekly-trend variant, reported beside it."""
    cum = cum_err.abs()
    worst = float(cum.max())
    ok = worst <= CUM_ERR_MAX
    worst_day = cum.idxmax()[1] if isinstance(cum.idxmax(), tuple) else cum.idxmax()
    over = cum[cum > CUM_ERR_MAX]
    per_day = pd.Series([k[1] if isinstance(k, tuple) else k for k in over.index]).value_counts()
    reason = (
        f"|CumErr| at the end of the day: median {100 * cum.median():.1f} %, worst "
        f"{100 * worst:.1f} % (a {worst_day}) over {len(cum)} forecast days (section 4)."
    )
    if weekly_cum_err is not None:
        reason += f" The weekly-trend variant's worst is {100 * weekly_cum_err.abs().max():.1f} %."
    if not ok:
        spread = ", ".join(f"{day} {k}" for day, k in per_day.items())
        reason += f" {len(over)} day(s) exceed {100 * CUM_ERR_MAX:g} % ({spread})"
        if per_day.index[0] == "Mon":
            reason += (
                ": mostly Mondays, which the 3-day cluster protocol forecasts from Wed–Fri, so "
                "it misses Monday's heavier working hours; the daily errors do not cancel."
            )
        else:
            reason += ": the day's over- and under-predictions do not cancel."
    return Claim(
        id="F8",
        statement="The proposed model's cumulative error stays small: over- and under-prediction "
        "cancel over the day",
        paper_value="ε small",
        reproduced_value=f"max |CumErr| {100 * worst:.1f} %, median {100 * cum.median():.1f} %",
        tolerance=f"|CumErr| ≤ {100 * CUM_ERR_MAX:g} % at the end of every forecast day",
        verdict=verdict_of(ok),
        reason=reason,
        values={"max": worst, "median": float(cum.median()), "days_over": len(over),
                "weekly_max": None if weekly_cum_err is None
                else float(weekly_cum_err.abs().max())},
    )


def f9_arima_sanity(rows: pd.DataFrame, reported: str = "arima-ridge") -> Claim:
    """F9 (test, should): every ARIMA fit is checked — a fit with an AR root inside the unit
    circle or a SMAPE above 150 % is flagged divergent and scored 200 % — and the reported fit
    is stable. ``rows``: the accuracy rows of the ARIMA variants (``model``, ``seed``,
    ``stable``, ``smape_fit``, ``divergent``, ``smape``)."""
    bad = ~rows.stable.astype(bool) | (rows.smape_fit > DIVERGENT_SMAPE)
    flagged = rows.divergent.astype(bool)
    scored = np.isclose(rows.smape, DIVERGENT_SCORE)
    unflagged = rows[bad & ~(flagged & scored)]
    false_flags = rows[~bad & flagged]
    report = rows[rows.model == reported]
    report_div = int(report.divergent.astype(bool).sum())
    counts = {m: int(g.divergent.astype(bool).sum()) for m, g in rows.groupby("model")}
    seeds = rows.seed.nunique()
    consistent = unflagged.empty and false_flags.empty
    verdict = "not reproduced" if not consistent else "reproduced" if report_div == 0 else "partly"
    measured = ", ".join(f"{m} {k}/{len(rows[rows.model == m])}" for m, k in counts.items())
    reason = f"Divergent fits (AR root inside the unit circle or SMAPE > {DIVERGENT_SMAPE:g} %): "
    reason += f"{measured} over {seeds} seed(s) and the window days (section 4)."
    if not consistent:
        reason += (
            f" {len(unflagged)} divergent fit(s) not flagged and scored {DIVERGENT_SCORE:g} %, "
            f"{len(false_flags)} stable fit(s) flagged: the scoring rule is not applied."
        )
    elif report_div:
        reason += (
            f" The reported {reported} fit diverged on {report_div} row(s): its SMAPE in F5/F6 "
            f"is the {DIVERGENT_SCORE:g} % of the scoring rule, not a forecast."
        )
    else:
        reason += f" Every divergent fit is flagged, and the reported {reported} fit is stable."
    return Claim(
        id="F9",
        statement="ARIMA(144,0,2) fits are stable or flagged as divergent (and scored 200 %)",
        paper_value="(not discussed; the paper reports a valid 27.8 % fit)",
        reproduced_value=f"divergent: {measured}",
        tolerance=f"every fit with an explosive AR part or SMAPE > {DIVERGENT_SMAPE:g} % flagged "
        f"and scored {DIVERGENT_SCORE:g} %; the reported ({reported}) fit stable on every row",
        verdict=verdict,
        reason=reason,
        kind="should",
        values={"divergent": counts, "unflagged": len(unflagged),
                "false_flags": len(false_flags), "reported_divergent": report_div},
    )


# ---------------------------------------------------------------- scheduler: invariants


def s1_invariants(checks: list[Mapping[str, bool]]) -> Claim:
    n_ok = sum(bool(c["S1"]) for c in checks)
    ok = n_ok == len(checks)
    return Claim(
        id="S1",
        statement="Scheduler invariants: C_FG + C_BG = 64, 0 ≤ C_FG ≤ 64, debt ≥ 0, FG served ≤ "
        "min(demand, 50·C_FG) in every bin",
        paper_value="(model)",
        reproduced_value=f"{n_ok}/{len(checks)} runs",
        tolerance="every bin of every run",
        verdict=verdict_of(ok),
        reason=f"Checked on every tick log of the {len(checks)} runs of sections 6–8: held in "
        f"{n_ok}" + ("." if ok else "; a scheduler breaks the core split or serves too much."),
        role="invariant",
        values={"runs_ok": n_ok, "runs": len(checks)},
    )


def s2_conservation(checks: list[Mapping[str, bool]]) -> Claim:
    n_ok = sum(bool(c["S2"]) for c in checks)
    ok = n_ok == len(checks)
    return Claim(
        id="S2",
        statement="Debt conservation: generated = freed + final; BG frees ≤ 20·C_BG·Δ per bin",
        paper_value="(model)",
        reproduced_value=f"{n_ok}/{len(checks)} runs",
        tolerance="relative error ≤ 1e-9",
        verdict=verdict_of(ok),
        reason=f"Debt balance checked on the {len(checks)} runs: held in {n_ok}"
        + ("." if ok else "; the pool loses or creates debt."),
        role="invariant",
        values={"runs_ok": n_ok, "runs": len(checks)},
    )


def s3_watermarks(
    fixed_max_pct, fixed_lump_pct, smart_max_pct, high: float = 0.50
) -> Claim:
    """S3 (invariant): fixed debt ≤ 50 % + one hourly lump; smart ≤ 97 % of the pool."""
    fixed_max = np.asarray(fixed_max_pct, dtype=float)
    smart_max = float(np.max(smart_max_pct))
    fixed_ok = bool(np.all(fixed_max <= 100 * high + np.asarray(fixed_lump_pct, dtype=float)))
    smart_ok = smart_max <= S3_SMART_MAX
    ok = fixed_ok and smart_ok
    return Claim(
        id="S3",
        statement="Watermarks respected: fixed ≤ 50 % + one hourly lump; smart ≤ 97 % of the pool",
        paper_value="40–50 % / ≤ 95 %",
        reproduced_value=f"fixed max {fixed_max.max():.1f} %, smart max {smart_max:.1f} %",
        tolerance=f"fixed ≤ {100 * high:g} % + the largest hourly lump; smart ≤ "
        f"{S3_SMART_MAX:g} % (95 % cap plus one lump)",
        verdict=verdict_of(ok),
        reason=f"Peak debt as % of the pool: fixed {fixed_max.max():.1f} %, smart {smart_max:.1f} %"
        + ("." if ok else "; a scheduler lets the debt past its bucket."),
        role="invariant",
        values={"fixed_max_pct": float(fixed_max.max()), "smart_max_pct": smart_max},
    )


def s8_consistency(fixed: tuple[float, float], smart: tuple[float, float]) -> Claim:
    """S8 (invariant): queued % < violation % for both schemes — true by the queued-IO
    definition (A5), since a violation bin queues only the part of its IO above capacity.
    ``fixed``/``smart``: (violation %, queued %)."""
    (fv, fq), (sv, sq) = fixed, smart
    ok = fq < fv and sq < sv
    return Claim(
        id="S8",
        statement="Queued % < violation % for both schemes",
        paper_value="21.7 < 54.6; 2.6 < 6.2",
        reproduced_value=f"{fq:.1f} < {fv:.1f}; {sq:.1f} < {sv:.1f} %",
        tolerance="strict, both schemes",
        verdict=verdict_of(ok),
        reason="Holds by the queued-IO definition: a violation bin queues only its IO above the "
        f"FG capacity, so queued % ({fq:.1f}, {sq:.1f}) stays below violation % ({fv:.1f}, "
        f"{sv:.1f})" + ("." if ok else "; it failed, so the metrics are computed wrongly."),
        role="invariant",
        values={"fixed": [fv, fq], "smart": [sv, sq]},
    )


def s10_agreement(max_diff_pp: float, tick_shift_pp: float | None) -> Claim:
    """S10 (invariant): simpy = numpy fluid reference; a 60 s tick moves violation % ≤ 3 pp."""
    shift_ok = tick_shift_pp is None or not math.isfinite(tick_shift_pp) or (
        tick_shift_pp <= S10_TICK_PP
    )
    ok = max_diff_pp <= S10_AGREE_PP and shift_ok
    shift = "not run" if tick_shift_pp is None or not math.isfinite(tick_shift_pp) else (
        f"{tick_shift_pp:.2f} pp"
    )
    return Claim(
        id="S10",
        statement="simpy core pool = numpy fluid reference at a 600 s tick; a 60 s tick moves "
        "violation % by ≤ 3 pp",
        paper_value="(ours)",
        reproduced_value=f"max difference {max_diff_pp:.3g} pp; 60 s tick shift {shift}",
        tolerance=f"≤ {S10_AGREE_PP:g} pp; ≤ {S10_TICK_PP:g} pp",
        verdict=verdict_of(ok),
        reason=f"Largest simpy-vs-fluid difference in violation or queued % {max_diff_pp:.3g} pp "
        f"(section 5); 60 s tick shift {shift} (section 9)"
        + ("." if ok else ": the two models or the two ticks disagree."),
        role="invariant",
        values={"max_diff_pp": max_diff_pp, "tick_shift_pp": tick_shift_pp},
    )


def s11_determinism(same: bool) -> Claim:
    return Claim(
        id="S11",
        statement="Determinism: same seed, same outputs (trace, forecasts and smart run "
        "recomputed)",
        paper_value="(ours)",
        reproduced_value="identical tick logs" if same else "tick logs differ",
        tolerance="identical tick logs",
        verdict=verdict_of(same),
        reason="Seed 0's trace, forecasts and smart run rebuilt from scratch give "
        + ("the same tick log." if same else "another tick log: some stream is not seeded."),
        role="invariant",
        values={"identical": bool(same)},
    )


# ---------------------------------------------------------------- scheduler: the paper's claims


def s4_baseline(violation_pct: float, queued_pct: float, ramp: tuple[int, int]) -> Claim:
    """S4 (calibration): the fixed baseline's ramp is fitted to the paper's numbers."""
    (v0, dv), (q0, dq) = S4_TARGET["violation"], S4_TARGET["queued"]
    v_ok, q_ok = abs(violation_pct - v0) <= dv, abs(queued_pct - q0) <= dq
    verdict = _both(v_ok, q_ok)
    reason = (
        f"Fixed 40–50 % bucket with the calibrated ramp {ramp[0]}→{ramp[1]} cores: "
        f"{violation_pct:.1f} % violations, {queued_pct:.1f} % of IO queued (mean over seeds); "
        "the ramp was chosen from the grid of section 6 to land here."
    )
    if verdict != "reproduced":
        reason += " No ramp of the grid reaches both bands on this trace."
    return Claim(
        id="S4",
        statement=f"Fixed 40–50 % bucket (calibrated ramp {ramp[0]}→{ramp[1]}): SLO violations "
        "and queued IO",
        paper_value=f"{v0:g} % / {q0:g} %",
        reproduced_value=f"{violation_pct:.1f} % / {queued_pct:.1f} %",
        tolerance=f"±{dv:g} pp / ±{dq:g} pp (mean over seeds)",
        verdict=verdict,
        reason=reason,
        role="calibration",
        values={"violation_pct": violation_pct, "queued_pct": queued_pct, "ramp": list(ramp)},
    )


def violation_causes(result: Mapping, n_cores: int, fg_iops_per_core: float) -> dict[str, float]:
    """Where one smart run's violation bins come from, in pp of all bins: ``capacity`` (demand
    above N·CIOPS_FG: no policy avoids it), ``planner`` (the plan took FG cores, CFF > 0),
    ``emergency`` (the 95 % burn gave FG no core) and ``other``."""
    log = result["log"]
    violation = log["violation"].to_numpy(dtype=bool)
    demand = log["demand_iops"].to_numpy()
    cff = np.asarray(result.get("cff", np.zeros(len(log))))
    capacity = violation & (demand > n_cores * fg_iops_per_core)
    planner = violation & ~capacity & (cff > 0)
    emergency = violation & ~capacity & ~planner & (log["c_fg"].to_numpy() == 0)
    other = violation & ~capacity & ~planner & ~emergency
    n = len(log)
    return {k: 100.0 * float(v.sum()) / n for k, v in (
        ("capacity", capacity), ("planner", planner), ("emergency", emergency), ("other", other)
    )}


def _mean_causes(causes: list[Mapping[str, float]]) -> dict[str, float]:
    return {k: float(np.mean([c[k] for c in causes])) for k in causes[0]} if causes else {}


def s5_smart(
    violation_pct: float,
    queued_pct: float,
    causes: Mapping[str, float] | None = None,
    oracle_violation_pct: float | None = None,
) -> Claim:
    """S5 (test): the smart scheduler, frozen knobs, one run: 6.2 ± 4 % violations and
    2.6 ± 2 % queued (mean over seeds). ``causes``: :func:`violation_causes` averaged over the
    seeds; ``oracle_violation_pct``: the same scheduler fed the actual trace."""
    (v0, dv), (q0, dq) = S5_TARGET["violation"], S5_TARGET["queued"]
    v_ok, q_ok = abs(violation_pct - v0) <= dv, abs(queued_pct - q0) <= dq
    verdict = _both(v_ok, q_ok)
    reason = f"Smart scheduler: {violation_pct:.1f} % violations, {queued_pct:.1f} % queued."
    if causes:
        reason += (
            f" Of the violation bins, {causes['planner']:.1f} pp are ticks where the planner took "
            f"FG cores, {causes['capacity']:.1f} pp bins above the 3,200-IOPS FG capacity, "
            f"{causes['emergency']:.1f} pp emergency burns (section 8)."
        )
    if oracle_violation_pct is not None:
        reason += f" Fed the actual trace (oracle) it gives {oracle_violation_pct:.1f} %"
        if oracle_violation_pct > v0 + dv:
            reason += ": the forecast is not the cause."
        elif oracle_violation_pct > v0 and violation_pct > v0 + dv:
            reason += (
                f": {violation_pct - oracle_violation_pct:.1f} pp of the gap are the forecast's, "
                f"{oracle_violation_pct - v0:.1f} pp remain with a perfect forecast."
            )
        else:
            reason += "."
    if violation_pct > v0 + dv and causes and causes["planner"] >= max(causes.values()):
        reason += " The excess comes from the planner's stolen cores on a pool the cap binds."
    elif violation_pct < v0 - dv:
        reason += (
            " Below the paper's: the planner barely has to take FG cores — the pool is large "
            "enough that the 95 % cap seldom binds — so only the bins above capacity remain."
        )
    return Claim(
        id="S5",
        statement="The smart scheduler (knobs frozen, run once) violates the SLO in 6.2 % of the "
        "time with 2.6 % of IO queued",
        paper_value=f"{v0:g} % / {q0:g} %",
        reproduced_value=f"{violation_pct:.1f} % / {queued_pct:.1f} %",
        tolerance=f"±{dv:g} pp / ±{dq:g} pp (mean over seeds)",
        verdict=verdict,
        reason=reason,
        values={"violation_pct": violation_pct, "queued_pct": queued_pct,
                "causes_pp": dict(causes or {}), "oracle_violation_pct": oracle_violation_pct},
    )


def s6_improvement(
    fixed: pd.DataFrame,
    smart: pd.DataFrame,
    pools: Mapping[str, tuple[pd.Series, pd.Series]] | None = None,
) -> Claim:
    """S6 (test, the core claim): violation ratio fixed/smart ≥ 4, queued ratio ≥ 3, and smart
    < fixed on every seed and every pool size. ``fixed``/``smart``: per-seed frames with
    ``violation_pct`` and ``queued_pct`` (index = seed); ``pools``: label -> (fixed, smart)
    per-seed violation % at other pool sizes."""
    fv, fq = fixed.violation_pct.mean(), fixed.queued_pct.mean()
    sv, sq = smart.violation_pct.mean(), smart.queued_pct.mean()
    rv, rq = fv / sv if sv > 0 else math.inf, fq / sq if sq > 0 else math.inf
    pairs = {"×1": (fixed.violation_pct, smart.violation_pct), **dict(pools or {})}
    worse = [label for label, (f, s) in pairs.items() if not (s < f).all()]
    every = not worse
    ratios_ok = rv >= S6_RATIO_MIN["violation"] and rq >= S6_RATIO_MIN["queued"]
    if ratios_ok and every:
        verdict = "reproduced"
    elif every and rv > 1 and rq > 1:
        verdict = "partly"
    else:
        verdict = "not reproduced"
    reason = (
        f"Fixed/smart: {fv:.1f}/{sv:.1f} % violations ({rv:.2f}×), {fq:.1f}/{sq:.1f} % queued "
        f"({rq:.2f}×); smart < fixed on every seed at pool sizes {', '.join(pairs)}: "
        f"{'yes' if every else 'no, not at ' + ', '.join(worse)}."
    )
    if verdict != "reproduced" and every:
        reason += (
            " The direction holds everywhere, the size does not: the smart scheduler's own "
            "violations (S5) keep the ratio short."
        )
    return Claim(
        id="S6",
        statement="The forecast-driven debt bucket cuts SLO violations and queued IO relative to "
        "the fixed bucket (ratios fixed/smart)",
        paper_value=f"{S6_PAPER['violation']:.1f}× / {S6_PAPER['queued']:.1f}×",
        reproduced_value=f"{rv:.2f}× / {rq:.2f}×",
        tolerance=f"≥ {S6_RATIO_MIN['violation']:g}× / ≥ {S6_RATIO_MIN['queued']:g}×, and smart "
        "< fixed on every seed and pool size (×0.8, ×1, ×1.2)",
        verdict=verdict,
        reason=reason,
        requires=("S4",),
        values={"ratio_violation": rv, "ratio_queued": rq, "fixed": [fv, fq], "smart": [sv, sq],
                "smart_below_fixed_everywhere": every, "pools_failing": worse},
    )


def s7_ordering(idle_only: float, oracle: float, forecast: float) -> Claim:
    """S7 (test, should): idle-only ≤ smart with an oracle ≤ smart with the forecast + 0.5 pp
    (mean violation %)."""
    first, second = idle_only <= oracle, oracle <= forecast + S7_MARGIN
    ok = first and second
    reason = (
        f"Mean violation %: idle-only (unlimited debt) {idle_only:.1f}, smart with the actual "
        f"trace {oracle:.1f}, smart with the forecast {forecast:.1f} (section 8)."
    )
    if not first:
        reason += " The oracle run violates less than idle-only: it must be wrong."
    elif not second:
        reason += (
            f" The oracle is worse than the forecast by {oracle - forecast:.1f} pp: the planner "
            "does not profit from a better forecast."
        )
    return Claim(
        id="S7",
        statement="Ordering of references: idle-only ≤ smart with an oracle ≤ smart with the "
        "forecast",
        paper_value="(ours)",
        reproduced_value=f"{idle_only:.1f} ≤ {oracle:.1f} ≤ {forecast:.1f} %",
        tolerance=f"violation %, forecast + {S7_MARGIN:g} pp",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        values={"idle_only": idle_only, "oracle": oracle, "forecast": forecast},
    )


def s9_dynamics(measures: Mapping) -> Claim:
    """S9 (test, should): fixed debt in its band in busy hours; smart debt rises toward (not
    above) 95 % and drains at night. ``measures``: :func:`storrepro.vdi.experiment.dynamics`."""
    band, peak, drains = measures["band_share"], measures["smart_peak"], measures["drains"]
    lo, hi = S9_SMART_PEAK
    parts = {
        "fixed in band": band >= S9_IN_BAND,
        "smart peak": lo <= peak <= hi,
        "night drains": drains >= S9_DRAINS,
    }
    ok = all(parts.values())
    measured = (
        f"fixed in band {band:.0%} of busy ticks; smart peak {peak:.0%}, drains on "
        f"{drains}/{measures['nights']} nights"
    )
    reason = f"Seed 0's tick logs (Figs. 13, 14 analogues): {measured}."
    if not ok:
        reason += f" Missing: {', '.join(k for k, v in parts.items() if not v)}"
        reason += (
            " — the smart debt never nears the cap because the pool is larger than the "
            "week's debt needs." if not parts["smart peak"] and peak < lo else "."
        )
    return Claim(
        id="S9",
        statement="Dynamics: the fixed debt sits in the 40–50 % band in weekday busy hours; the "
        "smart debt rises toward (not above) 95 % and drains at night",
        paper_value="Figs. 13, 14",
        reproduced_value=measured,
        tolerance=f"≥ {S9_IN_BAND:.0%} of busy ticks in band; smart peak in "
        f"[{lo:.0%}, {hi:.0%}] of P; ≥ {S9_DRAINS} nights drain",
        verdict=verdict_of(ok),
        reason=reason,
        kind="should",
        values=dict(measures),
    )


def judge_reading(runs: Mapping, idle_only: list, times: pd.DatetimeIndex, system) -> dict:
    """S5, S6, S7 and S9 on one reading's runs (``{"fixed": {pool factor: results}, "smart":
    {...}, "oracle": results}``, see :func:`storrepro.vdi.experiment.reading_sets`), with the
    idle-only runs and the window's tick times; ``system``: the simulated array."""
    fixed, smart = per_seed_frame(runs["fixed"][1.0]), per_seed_frame(runs["smart"][1.0])
    causes = _mean_causes(
        [violation_causes(r, system.n_cores, system.fg_iops_per_core) for r in runs["smart"][1.0]]
    )
    oracle = mean_violation(runs["oracle"])
    pools = {
        f"×{k:g}": (
            per_seed_frame(runs["fixed"][k]).violation_pct,
            per_seed_frame(runs["smart"][k]).violation_pct,
        )
        for k in runs["smart"]
        if k != 1.0
    }
    first_fixed, first_smart = runs["fixed"][1.0][0], runs["smart"][1.0][0]
    measures = dynamics(first_fixed, first_smart, times, system.low, system.high)
    return {
        "S5": s5_smart(smart.violation_pct.mean(), smart.queued_pct.mean(), causes, oracle),
        "S6": s6_improvement(fixed, smart, pools),
        "S7": s7_ordering(mean_violation(idle_only), oracle, smart.violation_pct.mean()),
        "S9": s9_dynamics(measures),
    }


def recorder(run, trace_words: str | None) -> Callable[..., dict]:
    """``run.record`` for this notebook: with a user's trace in place of the synthetic stand-in
    (``trace_words``, e.g. ``cfg.input_description()``), every claim that rests on the workload
    (all but the invariants) says in its reason that it was checked on that trace."""

    def record(claim: Claim, **kwargs) -> dict:
        if trace_words and claim.role != "invariant":
            note = f" Checked on the user's {trace_words}, not on the paper's SNIA VDI traces."
            claim = dataclasses.replace(claim, reason=claim.reason + note)
        return run.record(claim, **kwargs)

    return record


# ---------------------------------------------------------------- headline


def headline_text(run) -> dict:
    """``run.headline`` kwargs from the recorded claims: the statement, the core claims and the
    main measured cause, branching on the outcome."""
    claims = run.claims
    s5, s6, f5 = claims["S5"], claims["S6"], claims["F5"]
    statement = (
        "The proposed EWMA forecaster beats Holt-Winters and ARIMA (F5), and the forecast-driven "
        "debt bucket cuts SLO violations from 54.6 % to 6.2 % of the time (S5, S6)."
    )
    causes = s5["values"].get("causes_pp") or {}
    sv = s5["values"]["violation_pct"]
    parts = [f"Forecasters: {f5['verdict']} ({f5['reproduced_value']})."]
    if s5["verdict"] == "reproduced" and s6["verdict"] == "reproduced":
        parts.append(
            f"Smart scheduler {sv:.1f} % violations, {s6['reproduced_value']} better than the "
            "calibrated fixed bucket."
        )
    else:
        parts.append(
            f"Smart scheduler {sv:.1f} % violations against the paper's 6.2 % (the fixed "
            f"bucket's violations / queued IO divided by {s6['reproduced_value']})"
        )
        if causes:
            parts[-1] += (
                f": {causes['planner']:.1f} pp come from ticks where the planner takes FG cores "
                "on a pool the 95 % cap binds"
            )
        parts[-1] += "."
    return {"statement": statement, "core": ["F5", "S5", "S6"], "cause": " ".join(parts)}
