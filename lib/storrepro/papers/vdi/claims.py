"""Claim rules F1–F9 and S1–S12 of notebook 03 (smart background scheduling for VDI).

One function per claim id, named ``<id>_<slug>``; each takes the experiment's outputs (small
frames, series and dicts the notebook already has) and returns a
:class:`storrepro.suite.claims.Claim`. The notebook records each through ``run.judge``, with the
rule's inputs under every alternative reading. The bands and calibration targets are the module
constants below, each from the paper's words (:mod:`storrepro.suite.bands`) with the tolerance of
this reproduction's acceptance checks (sized beside a scratch prototype's numbers; the register
dates each from git); the config's decision register points at them. Roles:

- ``test``: F5, F7, F8 (forecasting), S5, S6 (scheduler), each judged on the seeds: a 95 %
  interval over the seeds inside the band is reproduced, one straddling its edge inconclusive;
- ``calibration``: F1, F2, F4, F6 (the synthetic trace's noise and shape were calibrated to
  them) and S4 (the fixed baseline's ramp is fitted to the paper's 54.6 % / 21.7 %);
- ``stand-in``: F3 (the weekly shape of the paper's trace, which our generator builds in);
- ``invariant``: F9, S1–S3, S10, S11 (properties of this implementation);
- ``analysis``: S7, S8, S9, S12 (our own references, consistency checks and sensitivity).

Conditions (``requires``): F5 requires F9 (Holt-Winters beating ARIMA means nothing against a
divergent ARIMA fit scored 200 %); S6 requires S4 (the ratio fixed/smart is the paper's only
against a baseline at the paper's numbers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import pandas as pd

from storrepro.papers.vdi.books import trace_cover
from storrepro.papers.vdi.metrics import dynamics, mean_violation, per_seed_frame
from storrepro.papers.vdi.seeds import PSYN_DAY, WINDOW_RANGE
from storrepro.suite import bands
from storrepro.suite.claims import (
    Claim,
    bootstrap_interval,
    ci_text,
    headline_verdict,
    interval,
    judged,
    verdict_of,
)
from storrepro.suite.consistency import Reported

# ---------------------------------------------------------------- bands and calibration targets

ACF_ARGMAX = (141, 147)  # F1: argmax of the ACF over lags 36–300
ACF144_MIN = 0.35  # F1
ACF_GAP_MIN = 0.5  # F1: ACF(144) − ACF(72)
LAG_R_MIN = 0.45  # F2
WTF_SPREAD_MAX = 0.10  # F3: Wed/Thu/Fri trend within ±10 % of their mean
WEEKEND_MAX = 0.6  # F3: Sat and Sun ≤ 0.6× the Wed–Fri mean
MONDAY_MIN = 1.05  # F3: Mon ≥ 1.05×
#: F5: the proposed model's SMAPE minus Holt-Winters', per seed, below zero.
F5_BAND = bands.direction("few percentage better than triple exponential smoothing", -1)
#: F5: Holt-Winters' SMAPE minus ARIMA's, per seed, below zero.
F5_ARIMA_BAND = bands.direction(
    "ARIMA achieves SMAPE of 27.8% [...] SMAPE achieved for triple exponential smoothing is "
    "19.2%", -1)
#: F5 before issue 32: proposed ≤ HW + 0.5 pp and HW < ARIMA in the mean and on ≥ 80 % of the
#: seeds; its verdict is shown once in F5's reason.
F5_OLD_MARGIN, F5_OLD_SHARE = 0.5, 0.8
#: The paper's SMAPE gap proposed − Holt-Winters (14.8 − 19.2 %), reported beside F5.
F5_PAPER_GAP = 14.8 - 19.2
F6_BANDS = {"proposed": (10.0, 20.0), "holt-winters": (14.0, 25.0)}
F6_ARIMA_GAP = 1.0  # F6: ARIMA ≥ HW + 1 pp
F6_RATIO_MAX = 0.85  # F6: proposed / ARIMA
#: F7: the proposed model's P-syn MPE, mean over seeds.
F7_BAND = bands.Band("bound", "MPE (Mean Percentage Error) is well below 10%", -10.0, 10.0, "%")
#: F8: each seed's worst end-of-day |CumErr| (%): 5 %, the acceptance check's reading of the
#: paper's "small" (the paper gives no number).
F8_BAND = bands.number(0.0, 5.0, "the cumulative error at any time t is small", unit="%")
DIVERGENT_SMAPE = 150.0  # F9: a SMAPE above this marks a divergent fit
DIVERGENT_SCORE = 200.0  # F9: and it is scored so
S3_SMART_MAX = 97.0  # S3: smart max debt, % of the pool
#: S4 (calibration target of the fixed ramp): the paper's fixed-bucket numbers and the
#: acceptance check's half-widths (the experiment's ``BASELINE_TARGET`` weighs the ramp's two
#: misses by the same numbers).
S4_TARGET = {"violation": (54.6, 10.0), "queued": (21.7, 11.0)}
S4_BANDS = {
    "violation": bands.number(*S4_TARGET["violation"], "SLO performance violation of 54.6%",
                              unit="%"),
    "queued": bands.number(*S4_TARGET["queued"], "21.7% of IO was queued due to out of "
                           "resources", unit="%"),
}
#: S5: the smart scheduler's violation and queued %, mean over seeds, ± the acceptance check's
#: 4 and 2 pp.
S5_BANDS = {
    "violation": bands.number(6.2, 4.0, "SLO performance violation of only 6.2%", unit="%"),
    "queued": bands.number(2.6, 2.0, "2.6% of IO was queued due to out of resources", unit="%"),
}
#: S6: fixed/smart per seed, at least the acceptance check's 4× / 3× (about half the paper's
#: 8.8× / 8.3×).
S6_BANDS = {
    "violation": bands.Band("number", "reduced SLO violations from 54.6% [...] to merely a 6.2%",
                            low=4.0, unit="×"),
    "queued": bands.Band("number", "21.7% of IO was queued [...] 2.6% of IO was queued",
                         low=3.0, unit="×"),
}
S6_PAPER = {"violation": 54.6 / 6.2, "queued": 21.7 / 2.6}
#: S6: a seed without violations counts as this many % in a ratio, so the ratio stays finite.
S6_FLOOR_PCT = 0.01
S7_MARGIN = 0.5  # S7: idle-only ≤ smart-oracle ≤ smart + 0.5 pp
S9_IN_BAND = 0.8  # S9: fixed debt in its band on ≥ 80 % of the busy weekday ticks
S9_SMART_PEAK = (0.80, 0.97)  # S9: smart peak debt / P
S9_DRAINS = 3  # S9: ≥ 3 of the 6 nights drain
S10_AGREE_PP = 0.1  # S10: simpy vs fluid
S10_TICK_PP = 3.0  # S10: 60 s tick vs 600 s

#: The verdict of a claim of two parts, each judged on its band.
_TWO_PARTS = {
    ("reproduced", "reproduced"): "reproduced",
    ("not reproduced", "not reproduced"): "not reproduced",
    ("reproduced", "not reproduced"): "partly",
}


def _two_parts(first: str, second: str) -> str:
    """Both reproduced: reproduced; both not: not; one each: partly; an inconclusive part:
    inconclusive (its interval straddles its band's edge)."""
    return _TWO_PARTS.get((first, second)) or _TWO_PARTS.get((second, first)) or "inconclusive"


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
    """F3 (calibration): the decomposition's daily-mean trend, by calendar date, is flat Wed–Fri,
    lower at the weekend and higher on Monday, on every seed. A property of the paper's trace
    that our generator builds in (a 1.15× Monday in working hours, quiet weekends): it says the
    stand-in has the paper's weekly shape, not that VDI traces have it. ``char`` has
    ``wtf_spread``, ``weekend_ratio`` and ``monday_ratio`` per seed
    (:func:`storrepro.papers.vdi.experiment.characterization.characterize`). A calibration, not a
    stand-in check: the shape was built into the generator to match Fig. 9."""
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
        f"3): {measured} of the Wed–Fri mean on {len(char)} seeds. The generator builds this "
        "shape in (Monday's working hours 1.15× a weekday's, quiet weekends), so this checks "
        "that the stand-in carries the paper's weekly shape through the decomposition, not that "
        "VDI traces have it."
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
        role="calibration",
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


#: The forecasts each forecasting claim reads: (models, the window days forecast, day-ahead).
FORECAST_READS = {
    "F5": (("proposed", "holt-winters", "arima-ridge"), (PSYN_DAY,)),
    "F7": (("proposed",), (PSYN_DAY,)),
    "F8": (("proposed",), tuple(WINDOW_RANGE)),
    "F10": (("proposed", "holt-winters", "seasonal-naive"), (PSYN_DAY,)),
}


#: The paper's reported SMAPEs (§VI-A), each with the band of measured values compatible with
#: it: the forecasting readings are checked against them (the consistency rule).
PAPER_SMAPE = {"proposed": 14.8, "holt-winters": 19.2, "arima": 27.8}
REPORTED_SMAPE = {
    model: Reported(quote=f'"{words}" (§VI-A)', paper_value=f"{PAPER_SMAPE[model]:g} %",
                    band=bands.approx_ratio(f'"{words}"'),
                    of=f"{name}'s P-syn SMAPE per seed / {PAPER_SMAPE[model]:g} %")
    for model, name, words in (
        ("proposed", "the proposed model",
         "We achieve Symmetric mean absolute percentage error (SMAPE) of 14.8%"),
        ("holt-winters", "Holt-Winters", "SMAPE achieved for triple exponential smoothing is "
         "19.2%"),
        ("arima", "ARIMA", "ARIMA achieves Symmetric mean absolute percentage error (SMAPE) of "
         "27.8%"),
    )
}
#: The models whose reported SMAPE each forecasting reading changes.
PROTOCOL_CHECKS = {"train_window": ("holt-winters", "arima"), "proposed_history": ("proposed",),
                   "forecast_alpha": ("proposed",)}


def protocol_consistency(smape_by: Mapping, readings: Mapping) -> list[tuple]:
    """``(reading, reported, measured)`` for :meth:`storrepro.suite.run.Run.consistency`: each
    forecasting reading's alternatives (the primary: key None of ``smape_by``, the others
    ``"name=value"``; each a :func:`psyn_smape` table) measured against the paper's SMAPE of
    every model it changes, per seed as a ratio to the paper's number."""
    checks = []
    for name, models in PROTOCOL_CHECKS.items():
        reading = readings[name]
        for model in models:
            measured = {
                value: list(smape_by[None if value == reading.primary else f"{name}={value}"]
                            [model] / PAPER_SMAPE[model])
                for value in reading.alternatives
            }
            checks.append((name, REPORTED_SMAPE[model], measured))
    return checks


def forecast_cover(st, cid: str, label: str | None = None) -> dict | None:
    """What claim ``cid``'s forecasts (:data:`FORECAST_READS`) need of a user's trace under the
    forecasting reading ``label``, and what it has (:func:`~storrepro.papers.vdi.books.
    trace_cover`; None on the stand-in)."""
    models, days = FORECAST_READS[cid]
    return trace_cover(st, models, days, label)


def where_covered(rule):
    """``rule`` judged only where a user's trace covers what its forecasts read: the returned
    rule takes a :func:`~storrepro.papers.vdi.books.trace_cover` record first (None on the
    stand-in), then ``rule``'s inputs. A trace shorter than the forecasts' history plus the
    forecast day makes the claim ``not checkable`` (repeated to fill the calendar, it would
    hand the forecasters copies of the day they forecast); a repeated trace that covers it is
    judged, and the reason says so."""

    def judged_on(cover: Mapping | None, *inputs, **kwargs) -> Claim:
        claim = rule(*inputs, **kwargs)
        if cover is None:
            return claim
        have, need = cover["have_days"], cover["need_days"]
        if need > have:
            return replace(
                claim,
                verdict="not checkable",
                reason=f"Not checkable: the trace has {have:.2f} days of whole 10-minute bins, "
                f"and these forecasts read {need - 1} days of history plus the forecast day "
                f"({need} days); repeated to fill the calendar, the trace would hand the "
                f"forecasters copies of the day they forecast (on it: {claim.reproduced_value}).",
            )
        if cover["repeated"]:
            claim = replace(claim, reason=claim.reason + (
                f" The trace ({have:.2f} days) is repeated to fill the calendar; these "
                f"forecasts read {need} days, so none reads a copy of its own target."))
        return claim

    judged_on.__name__ = judged_on.__qualname__ = rule.__name__
    judged_on.__doc__ = rule.__doc__
    return judged_on


def psyn_smape(psyn: pd.DataFrame, arima: str = "arima-ridge") -> pd.DataFrame:
    """Per-seed P-syn SMAPE of the proposed model, Holt-Winters and the reported ARIMA row,
    divergent fits scored :data:`DIVERGENT_SCORE` (the F9 scoring rule)."""
    rows = psyn[psyn.model.isin(["proposed", "holt-winters", arima])]
    scored = rows.smape.where(~rows.divergent.astype(bool), DIVERGENT_SCORE)
    table = rows.assign(smape=scored).pivot(index="seed", columns="model", values="smape")
    return table.rename(columns={arima: "arima"})[["proposed", "holt-winters", "arima"]]


def f5_ordering(smape: pd.DataFrame) -> Claim:
    """F5 (test), judged per seed: the proposed model's P-syn SMAPE minus Holt-Winters' is below
    zero (:data:`F5_BAND`) on the bootstrap 95 % interval of the median gap over the seeds (one
    seed's large gap must not carry the mean), and Holt-Winters' minus ARIMA's too
    (:data:`F5_ARIMA_BAND`) on the interval of its mean gap. ``smape``: per seed, columns
    proposed, holt-winters, arima (:func:`psyn_smape`). The verdict is the worse part's
    (reproduced < inconclusive < not reproduced); the mean gap is reported."""
    prop, hw, arima = smape["proposed"], smape["holt-winters"], smape["arima"]
    gap, arima_gap = prop - hw, hw - arima
    u = interval(gap, of="proposed − Holt-Winters P-syn SMAPE (pp), mean over seeds")
    u_arima = interval(arima_gap, of="Holt-Winters − ARIMA P-syn SMAPE (pp), mean over seeds")
    median = bootstrap_interval(gap, of="proposed − Holt-Winters SMAPE (pp), median over seeds")
    parts = (judged(F5_BAND, median), judged(F5_ARIMA_BAND, u_arima))
    order = ("reproduced", "inconclusive", "not reproduced")
    verdict = max(parts, key=order.index)
    n = len(smape)
    per_seed = ", ".join(f"{g:+.2f}" for g in gap)
    measured = (
        f"proposed − HW median {median['mean']:+.2f} pp, mean {u['mean']:+.2f} pp "
        f"(paper {F5_PAPER_GAP:+.1f} pp); HW − ARIMA mean {u_arima['mean']:+.1f} pp"
    )
    reason = (
        f"P-syn SMAPE per seed, proposed − Holt-Winters: {per_seed} pp; median "
        f"{ci_text(median, '{:+.2f}')} (bootstrap), mean {ci_text(u, '{:+.2f}')}; the paper's "
        f"gap is {F5_PAPER_GAP:+.1f} pp. Holt-Winters − ARIMA: mean "
        f"{ci_text(u_arima, '{:+.2f}')} (section 4)."
    )
    if parts[0] == "inconclusive":
        reason += (
            f" The proposed model is ahead on {int((gap < 0).sum())} of {n} seeds, but by little "
            "on most: the interval of the median gap straddles zero, so this stand-in cannot "
            "tell it from Holt-Winters."
        )
    elif parts[0] == "not reproduced":
        reason += " The proposed model is behind Holt-Winters on the median's whole interval."
    if parts[1] != "reproduced":
        reason += f" Holt-Winters below ARIMA: {parts[1]}."
    old_ordered = (prop <= hw + F5_OLD_MARGIN) & (hw < arima)
    old_ok = (prop.mean() <= hw.mean() + F5_OLD_MARGIN and hw.mean() < arima.mean()
              and int(old_ordered.sum()) >= math.ceil(F5_OLD_SHARE * n))
    reason += (
        f" Under the earlier band (proposed ≤ HW + {F5_OLD_MARGIN:g} pp and HW < ARIMA, in the "
        f"mean and on ≥ {F5_OLD_SHARE:.0%} of the seeds), which let the proposed model be "
        f"slightly worse than Holt-Winters, it would be {verdict_of(old_ok)}."
    )
    return Claim(
        id="F5",
        statement="The proposed forecaster beats Holt-Winters, which beats ARIMA(144,0,2) (SMAPE)",
        paper_value="14.8 < 19.2 < 27.8 % (proposed − HW −4.4 pp)",
        reproduced_value=measured,
        tolerance="proposed − HW < 0 on the 95 % bootstrap interval of the median gap over the "
        "seeds, and HW − ARIMA < 0 on the 95 % CI of its mean gap",
        verdict=verdict,
        reason=reason,
        requires=("F9",),
        band=F5_BAND.source,
        uncertainty=median,
        values={"gap_pp": list(gap), "median_gap_pp": median["mean"], "mean_gap": u,
                "median_ci95": median["ci95"], "arima_gap": u_arima,
                "proposed": float(prop.mean()), "holt_winters": float(hw.mean()),
                "arima": float(arima.mean()), "parts": list(parts),
                "old_band_verdict": verdict_of(old_ok)},
    )


#: F10 (analysis): the proposed model minus seasonal-naive, per seed, below zero.
F10_BAND = bands.direction("our baseline: yesterday's same slot", -1)


def f10_seasonal_naive(psyn: pd.DataFrame) -> Claim:
    """F10 (analysis, ours): the proposed model against a seasonal-naive forecast (the
    previous cluster day's same slot: yesterday on a weekday), on the bootstrap 95 % interval of
    the median per-seed P-syn SMAPE gap; Holt-Winters' gap is reported beside it. A forecaster
    that does not beat yesterday's copy has learnt nothing a daily cycle does not give."""
    table = psyn.pivot(index="seed", columns="model", values="smape")
    naive = table["seasonal-naive"]
    gap, hw_gap = table["proposed"] - naive, table["holt-winters"] - naive
    median = bootstrap_interval(gap, of="proposed − seasonal-naive SMAPE (pp), median over seeds")
    hw = bootstrap_interval(hw_gap, of="Holt-Winters − seasonal-naive SMAPE (pp), median")
    verdict = judged(F10_BAND, median)
    measured = (f"proposed − naive median {median['mean']:+.2f} pp, Holt-Winters − naive "
                f"{hw['mean']:+.2f} pp (naive SMAPE {naive.mean():.1f} %)")
    reason = (
        "P-syn SMAPE per seed, proposed − seasonal-naive: "
        + ", ".join(f"{g:+.2f}" for g in gap)
        + f" pp, median {ci_text(median, '{:+.2f}')} (bootstrap); Holt-Winters − seasonal-naive "
        f"median {ci_text(hw, '{:+.2f}')}."
    )
    reason += {
        "reproduced": " The proposed model beats yesterday's copy.",
        "inconclusive": " The interval straddles zero: the proposed model is not told apart "
        "from yesterday's copy.",
        "not reproduced": " Yesterday's copy is at least as good: what the proposed model "
        "adds to a daily cycle does not show here.",
    }[verdict]
    return Claim(
        id="F10",
        statement="The proposed model beats a seasonal-naive forecast (yesterday's same slot; "
        "our baseline, not the paper's)",
        paper_value="(ours)",
        reproduced_value=measured,
        tolerance="proposed − seasonal-naive < 0 on the 95 % bootstrap interval of the median "
        "gap over the seeds",
        verdict=verdict,
        reason=reason,
        role="analysis",
        kind="should",
        uncertainty=median,
        values={"gap_pp": list(gap), "median_gap_pp": median["mean"],
                "hw_median_gap_pp": hw["mean"], "naive": float(naive.mean())},
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
        f"proposed/ARIMA ≤ {F6_RATIO_MAX:g}": arima > 0 and prop <= F6_RATIO_MAX * arima,
    }
    ratio = f"{prop / arima:.2f}" if arima > 0 else "undefined (ARIMA 0 %)"
    passed = sum(checks.values())
    failed = [k for k, ok in checks.items() if not ok]
    verdict = "reproduced" if passed == 4 else "partly" if passed >= 2 else "not reproduced"
    return Claim(
        id="F6",
        statement="SMAPE magnitudes: proposed 14.8 %, Holt-Winters 19.2 %, ARIMA 27.8 %",
        paper_value="14.8 / 19.2 / 27.8 %, ratio 0.53",
        reproduced_value=f"{prop:.1f} / {hw:.1f} / {arima:.1f} %, ratio {ratio}",
        tolerance="; ".join(checks),
        verdict=verdict,
        reason=f"Mean P-syn SMAPE {prop:.1f} / {hw:.1f} / {arima:.1f} %; the trace's noise "
        "(σ = 0.45) was calibrated to put them near the paper's"
        + (f"; outside: {', '.join(failed)}." if failed else "."),
        role="calibration",
        values={"proposed": prop, "holt_winters": hw, "arima": arima, "failed": failed},
    )


def f7_mpe(psyn: pd.DataFrame) -> Claim:
    """F7 (test): the proposed model's P-syn MPE within ±10 % (:data:`F7_BAND`) on the 95 %
    interval of its mean over the seeds, and below its SMAPE. Seasonal-naive's and
    Holt-Winters' MPE are shown beside it: the band does not single the proposed model out
    when they pass it too."""
    by = psyn.groupby("model")
    mpe = by.mpe.mean()
    smape = by.smape.mean()
    rows = psyn[psyn.model == "proposed"].sort_values("seed")
    u = interval(rows.mpe, of="the proposed model's P-syn MPE (%), mean over seeds")
    prop, prop_smape = u["mean"], float(smape["proposed"])
    verdict = judged(F7_BAND, u)
    if abs(prop) >= prop_smape:
        verdict = "not reproduced"
    others = {m: float(mpe[m]) for m in ("seasonal-naive", "holt-winters") if m in mpe.index}
    passing = [m for m, v in others.items() if F7_BAND.contains(v) and abs(v) < smape[m]]
    beside = ", ".join(f"{m} {v:+.1f} %" for m, v in others.items())
    reason = f"P-syn MPE of the proposed model {ci_text(u, '{:+.1f}')} % (SMAPE {prop_smape:.1f} %)"
    reason += f"; beside it {beside}." if others else "."
    if verdict == "not reproduced":
        reason += " Outside ±10 % or not below the SMAPE: the errors do not cancel."
    elif verdict == "inconclusive":
        reason += " The interval reaches past ±10 %: the seeds are too few to say."
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
        tolerance="95 % CI of the mean MPE over the seeds within ±10 %, and |MPE| < SMAPE",
        verdict=verdict,
        reason=reason,
        band=F7_BAND.source,
        uncertainty=u,
        values={"mpe": prop, "smape": prop_smape, "others_mpe": others,
                "others_passing": passing},
    )


def _day_counts(days) -> str:
    counts = pd.Series(list(days)).value_counts()
    return ", ".join(f"{day} {k}" for day, k in counts.items())


def f8_cumulative(cum_err: pd.DataFrame, weekly_cum_err: pd.Series | None = None,
                  stand_in: bool = True) -> Claim:
    """F8 (test): each seed's worst |CumErr| at the end of a forecast day of the proposed model
    ≤ 5 % (:data:`F8_BAND`), on the 95 % interval of its mean over the seeds. ``cum_err`` has
    one row per forecast day: ``seed``, ``day`` (name) and ``cum_err`` (a fraction);
    ``weekly_cum_err`` is the scheduler's weekly-trend variant, reported beside it.
    ``stand_in`` False: the days are a user's trace laid on the calendar, whose weekday names
    are not the trace's own, so the stand-in's heavier Monday explains nothing."""
    cum = 100 * cum_err.set_index(["seed", "day"]).cum_err.abs()
    worst_by_seed = cum.groupby(level=0).max()
    u = interval(worst_by_seed, of="worst end-of-day |CumErr| (%) of a seed, mean over seeds")
    verdict = judged(F8_BAND, u)
    worst = float(cum.max())
    worst_day = cum.idxmax()[1]
    over = cum[cum > F8_BAND.high]
    reason = (
        f"|CumErr| at the end of the day: median {cum.median():.1f} %, worst {worst:.1f} % (a "
        f"{worst_day}) over {len(cum)} forecast days; each seed's worst day "
        f"{_range(worst_by_seed, '{:.1f}')} %, mean {ci_text(u, '{:.1f}')} % (section 4)."
    )
    if weekly_cum_err is not None:
        reason += (
            f" The weekly-trend variant's worst is {100 * weekly_cum_err.abs().max():.1f} %."
        )
    if len(over):
        days = [k[1] for k in over.index]
        mondays = days.count("Mon") if stand_in else 0
        named = (f"({_day_counts(days)})" if stand_in
                 else "(days of the calendar the trace is laid on)")
        reason += f" {len(over)} of {len(cum)} days exceed {F8_BAND.high:g} % {named}"
        if mondays * 2 > len(over):
            reason += (
                ": mostly Mondays, which the 3-day cluster protocol forecasts from Wed–Fri, so it "
                "misses Monday's heavier working hours."
            )
        elif mondays:
            reason += (
                f": {mondays} of them Mondays, which the 3-day cluster protocol forecasts from "
                "Wed–Fri and so misses Monday's heavier working hours; on the others the day's "
                "over- and under-predictions do not cancel."
            )
        else:
            reason += ": the day's over- and under-predictions do not cancel."
    return Claim(
        id="F8",
        statement="The proposed model's cumulative error stays small: over- and under-prediction "
        "cancel over the day",
        paper_value="ε small",
        reproduced_value=f"worst day per seed {u['mean']:.1f} % (mean), max |CumErr| "
        f"{worst:.1f} %, median {cum.median():.1f} %",
        tolerance=f"each seed's worst end-of-day |CumErr| ≤ {F8_BAND.high:g} % on the 95 % CI of "
        "its mean over the seeds",
        verdict=verdict,
        reason=reason,
        band=F8_BAND.source,
        uncertainty=u,
        values={"max": worst, "median": float(cum.median()), "days_over": len(over),
                "worst_by_seed": list(worst_by_seed),
                "weekly_max": None if weekly_cum_err is None
                else float(100 * weekly_cum_err.abs().max())},
    )


def f9_arima_sanity(rows: pd.DataFrame, reported: str = "arima-ridge") -> Claim:
    """F9 (invariant): every ARIMA fit is checked — a fit with an AR root inside the unit
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
        role="invariant",
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


def s8_consistency(fixed: pd.DataFrame, smart: pd.DataFrame) -> Claim:
    """S8 (analysis): queued % < violation % for both schemes on every seed, as in the paper's
    numbers (21.7 < 54.6, 2.6 < 6.2; queued/violation ≈ 0.40 in both). Not true by definition:
    a violation bin queues only its IO above capacity, so queued % is at most the
    demand-weighted share of the violation bins, which exceeds their share of the time when
    they are the busy ones (two ticks, one of them short of cores, can give 50 % violations
    and most of the IO queued). ``fixed``/``smart``: per-seed frames with ``violation_pct`` and
    ``queued_pct``."""
    below = {name: bool((f.queued_pct < f.violation_pct).all())
             for name, f in (("fixed", fixed), ("smart", smart))}
    ok = all(below.values())
    (fv, fq), (sv, sq) = ((f.violation_pct.mean(), f.queued_pct.mean()) for f in (fixed, smart))
    reason = (
        f"Mean over seeds: fixed {fq:.1f} % queued of {fv:.1f} % violations (ratio "
        f"{fq / fv:.2f}), smart {sq:.1f} % of {sv:.1f} % ({sq / sv:.2f}); the paper's ratios "
        "are 0.40 and 0.42. Queued % below violation % does not follow from the definitions: it "
        "holds only where the violation bins queue a small part of their IO"
    )
    if ok:
        reason += ", as they do here on every seed."
    else:
        failing = [name for name, v in below.items() if not v]
        who = "both schemes queue" if len(failing) == 2 else f"the {failing[0]} scheme queues"
        reason += (
            f"; on some seed {who} a larger share of the IO than the share of violation bins: "
            "the violations fall in the busiest bins and queue much of their IO."
        )
    return Claim(
        id="S8",
        statement="Queued % < violation % for both schemes",
        paper_value="21.7 < 54.6; 2.6 < 6.2",
        reproduced_value=f"{fq:.1f} < {fv:.1f}; {sq:.1f} < {sv:.1f} %",
        tolerance="strict, both schemes, every seed",
        verdict=verdict_of(ok),
        reason=reason,
        role="analysis",
        values={"fixed": [fv, fq], "smart": [sv, sq], "below_every_seed": below},
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
    """S4 (calibration): the fixed baseline's ramp is fitted to the paper's numbers
    (:data:`S4_BANDS`); mean over seeds."""
    v_band, q_band = S4_BANDS["violation"], S4_BANDS["queued"]
    verdict = _two_parts(v_band.judge(violation_pct), q_band.judge(queued_pct))
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
        paper_value="54.6 % / 21.7 %",
        reproduced_value=f"{violation_pct:.1f} % / {queued_pct:.1f} %",
        tolerance=f"{v_band.text()}; {q_band.text()} (mean over seeds)",
        verdict=verdict,
        reason=reason,
        role="calibration",
        band=v_band.source,
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


def _s5_parts(smart: pd.DataFrame) -> tuple[str, dict, dict]:
    """S5's verdict on per-seed smart runs, with the violation and queued intervals."""
    u_v = interval(smart.violation_pct, of="smart violation % (mean over seeds)")
    u_q = interval(smart.queued_pct, of="smart queued IO % (mean over seeds)")
    parts = judged(S5_BANDS["violation"], u_v), judged(S5_BANDS["queued"], u_q)
    return _two_parts(*parts), u_v, u_q


def s5_smart(
    smart: pd.DataFrame,
    causes: Mapping[str, float] | None = None,
    oracle_violation_pct: float | None = None,
) -> Claim:
    """S5 (test): the smart scheduler, frozen knobs, one run per seed: violation % in 6.2 ± 4
    and queued % in 2.6 ± 2 (:data:`S5_BANDS`), each on the 95 % interval of its mean over the
    seeds. ``smart``: per-seed frame with ``violation_pct`` and ``queued_pct``; ``causes``:
    :func:`violation_causes` averaged over the seeds; ``oracle_violation_pct``: the same
    scheduler fed the actual trace."""
    verdict, u_v, u_q = _s5_parts(smart)
    v_band = S5_BANDS["violation"]
    sv, sq = u_v["mean"], u_q["mean"]
    reason = (
        f"Smart scheduler: violations {ci_text(u_v, '{:.1f}', unit=' %')}, queued "
        f"{ci_text(u_q, '{:.1f}', unit=' %')} (seeds' runs)."
    )
    if causes:
        reason += (
            f" Of the violation bins, {causes['planner']:.1f} pp are ticks where the planner took "
            f"FG cores, {causes['capacity']:.1f} pp bins above the 3,200-IOPS FG capacity, "
            f"{causes['emergency']:.1f} pp emergency burns (section 8)."
        )
    if oracle_violation_pct is not None:
        reason += f" Fed the actual trace (oracle) it gives {oracle_violation_pct:.1f} %"
        own = sv - oracle_violation_pct
        if oracle_violation_pct > v_band.high and own <= S7_MARGIN:
            reason += ": a perfect forecast does no better, so the forecast is not the cause."
        elif oracle_violation_pct > v_band.high:
            reason += (
                f": a perfect forecast leaves it above the band too, and the forecast adds "
                f"{own:.1f} pp to it."
            )
        elif oracle_violation_pct > 6.2 and sv > v_band.high:
            reason += (
                f": {sv - oracle_violation_pct:.1f} pp of the gap are the forecast's, "
                f"{oracle_violation_pct - 6.2:.1f} pp remain with a perfect forecast."
            )
        else:
            reason += "."
    if sv > v_band.high and causes and causes["planner"] >= max(causes.values()):
        reason += " The excess comes from the planner's stolen cores on a pool the cap binds."
    elif sv < v_band.low:
        reason += (
            " Below the paper's: the planner barely has to take FG cores — the pool is large "
            "enough that the 95 % cap seldom binds — so only the bins above capacity remain."
        )
    return Claim(
        id="S5",
        statement="The smart scheduler (knobs frozen, run once) violates the SLO in 6.2 % of the "
        "time with 2.6 % of IO queued",
        paper_value="6.2 % / 2.6 %",
        reproduced_value=f"{sv:.1f} % / {sq:.1f} %",
        tolerance=f"95 % CI of the mean over seeds: violations {S5_BANDS['violation'].text()}; "
        f"queued {S5_BANDS['queued'].text()}",
        verdict=verdict,
        reason=reason,
        band=v_band.source,
        uncertainty=u_v,
        values={"violation_pct": sv, "queued_pct": sq, "queued": u_q,
                "causes_pp": dict(causes or {}), "oracle_violation_pct": oracle_violation_pct},
    )


def _ratio(fixed: pd.Series, smart: pd.Series, of: str) -> dict:
    """The geometric mean of the per-seed ratios fixed/smart (seeds matched by index) with its
    95 % interval: the t interval of the mean log-ratio, taken back to a ratio. A ratio spreads
    multiplicatively: one seed with a near-zero smart % makes an arithmetic mean's interval
    reach below 1× while every seed's ratio is far above it."""
    ratios = (fixed / smart.clip(lower=S6_FLOOR_PCT)).to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = interval(np.log(ratios), of=f"log of {of}")
    of = f"{of}, geometric mean"
    if u.get("undefined"):  # a zero or undefined ratio has no logarithm
        return {**u, "of": of}
    ci = None if u["ci95"] is None else [math.exp(x) for x in u["ci95"]]
    return {**u, "mean": math.exp(u["mean"]), "ci95": ci, "of": of}


def _s6_parts(fixed: pd.DataFrame, smart: pd.DataFrame, every: bool) -> tuple[str, dict, dict]:
    """S6's verdict: not reproduced unless smart < fixed everywhere; then reproduced when both
    ratios are inside their bands, inconclusive while one straddles and none misses, partly
    when one misses (the direction holds, the size does not)."""
    u_v = _ratio(fixed.violation_pct, smart.violation_pct, "fixed/smart violation % per seed")
    u_q = _ratio(fixed.queued_pct, smart.queued_pct, "fixed/smart queued % per seed")
    parts = judged(S6_BANDS["violation"], u_v), judged(S6_BANDS["queued"], u_q)
    if not every:
        return "not reproduced", u_v, u_q
    if parts == ("reproduced", "reproduced"):
        return "reproduced", u_v, u_q
    return ("partly" if "not reproduced" in parts else "inconclusive"), u_v, u_q


def s6_improvement(
    fixed: pd.DataFrame,
    smart: pd.DataFrame,
    pools: Mapping[str, tuple[pd.Series, pd.Series]] | None = None,
) -> Claim:
    """S6 (test, the core claim): the per-seed ratios fixed/smart of violation and queued %
    at least 4× and 3× (:data:`S6_BANDS`) on the 95 % interval of their geometric mean over the
    seeds (:func:`_ratio`),
    and smart < fixed on every seed and every pool size. ``fixed``/``smart``: per-seed frames
    with ``violation_pct`` and ``queued_pct`` (index = seed); ``pools``: label -> (fixed,
    smart) per-seed violation % at other pool sizes."""
    pairs = {"×1": (fixed.violation_pct, smart.violation_pct), **dict(pools or {})}
    worse = [label for label, (f, s) in pairs.items() if not (s < f).all()]
    verdict, u_v, u_q = _s6_parts(fixed, smart, not worse)
    rv, rq = u_v["mean"], u_q["mean"]
    everywhere = "yes" if not worse else "no, not at " + ", ".join(worse)
    reason = (
        f"Fixed/smart per seed, geometric mean: violations {ci_text(u_v, '{:.2f}')}×, queued "
        f"{ci_text(u_q, '{:.2f}')}× (paper "
        f"{S6_PAPER['violation']:.1f}× / {S6_PAPER['queued']:.1f}×); smart < fixed on every "
        f"seed at pool sizes {', '.join(pairs)}: {everywhere}."
    )
    if verdict == "partly":
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
        tolerance="95 % CI of the geometric mean per-seed ratio (t interval of the mean "
        f"log-ratio): violations {S6_BANDS['violation'].text()}; queued "
        f"{S6_BANDS['queued'].text()}; and smart < fixed on every seed and pool size",
        verdict=verdict,
        reason=reason,
        requires=("S4",),
        band=S6_BANDS["violation"].source,
        uncertainty=u_v,
        values={"ratio_violation": rv, "ratio_queued": rq, "queued": u_q,
                "fixed": [float(fixed.violation_pct.mean()), float(fixed.queued_pct.mean())],
                "smart": [float(smart.violation_pct.mean()), float(smart.queued_pct.mean())],
                "smart_below_fixed_everywhere": not worse, "pools_failing": worse},
    )


def s7_ordering(idle_only: float, oracle: float, forecast: float) -> Claim:
    """S7 (invariant): idle-only ≤ smart with an oracle ≤ smart with the forecast + 0.5 pp
    (mean violation %): our references, not the paper's, in the order this implementation must
    give them (idle-only steals no FG core; a perfect forecast should not plan worse)."""
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
        role="invariant",
        kind="should",
        values={"idle_only": idle_only, "oracle": oracle, "forecast": forecast},
    )


def s9_dynamics(measures: Mapping) -> Claim:
    """S9 (analysis): fixed debt in its band in busy hours; smart debt rises toward (not
    above) 95 % and drains at night, on seed 0. Largely by construction (the fixed bucket's band,
    the smart cap), so it shows the runs behave as Figs. 13 and 14 describe, not that the paper
    holds. ``measures``: :func:`storrepro.papers.vdi.metrics.dynamics`."""
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
        role="analysis",
        kind="should",
        values=dict(measures),
    )


def s12_pool_scale(scales: Mapping[float, tuple[pd.DataFrame, pd.DataFrame]]) -> Claim:
    """S12 (analysis): S5's and S6's verdicts at each pool scale (P times a factor; the paper
    never gives P). ``scales``: factor -> (fixed, smart) per-seed frames. Holds when neither
    verdict moves over the scales."""
    rows = {}
    for factor, (fixed, smart) in sorted(scales.items()):
        s5, u_v, _ = _s5_parts(smart)
        s6, r_v, _ = _s6_parts(fixed, smart, bool((smart.violation_pct
                                                   < fixed.violation_pct).all()))
        rows[factor] = {"S5": s5, "S6": s6, "smart_violation_pct": u_v["mean"],
                        "ratio_violation": r_v["mean"]}
    ok = all(len({r[c] for r in rows.values()}) == 1 for c in ("S5", "S6"))
    listed = "; ".join(
        f"×{f:g}: smart {r['smart_violation_pct']:.1f} % (S5 {r['S5']}), "
        f"{r['ratio_violation']:.1f}× (S6 {r['S6']})" for f, r in rows.items()
    )
    return Claim(
        id="S12",
        statement="S5 and S6 keep their verdicts when the pool size P is scaled (our analysis: "
        "the paper never gives P)",
        paper_value="(ours)",
        reproduced_value=listed,
        tolerance="the same S5 and S6 verdict at every scale",
        verdict=verdict_of(ok),
        reason=f"Fixed and smart runs of every seed with P times each factor, under the primary "
        f"readings: {listed}."
        + ("" if ok else " The verdicts move with P: where the 95 % cap binds decides them."),
        role="analysis",
        values={f"×{f:g}": r for f, r in rows.items()},
    )


def scheduler_inputs(runs: Mapping, idle_only: list, times: pd.DatetimeIndex, system) -> dict:
    """The inputs of S5, S6, S7 and S9 under one reading's runs (``{"fixed": {pool factor:
    results}, "smart": {...}, "oracle": results}``, see
    :func:`storrepro.papers.vdi.experiment.sweeps.reading_sets`), with the idle-only runs and the
    window's tick times; ``system``: the simulated array. ``{claim id: the rule's positional
    inputs}``."""
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
    return {
        "S5": (smart, causes, oracle),
        "S6": (fixed, smart, pools),
        "S7": (mean_violation(idle_only), oracle, float(smart.violation_pct.mean())),
        "S9": (dynamics(first_fixed, first_smart, times, system.low, system.high),),
    }


# ---------------------------------------------------------------- headline


def _under(claim: dict, label: str) -> str:
    alt = claim["by_reading"][label]
    return f"{claim['id']} {alt['verdict']} ({alt['reproduced_value']})"


def headline_text(run) -> dict:
    """``run.headline`` kwargs from the recorded claims: the statement, the core claims and the
    measured cause, naming the readings that move S5 or S6."""
    claims = run.claims
    s5, s6, f5 = claims["S5"], claims["S6"], claims["F5"]
    statement = (
        "The proposed EWMA forecaster beats Holt-Winters (by 4.4 pp SMAPE) and ARIMA (F5), and "
        "the forecast-driven debt bucket cuts SLO violations from 54.6 % to 6.2 % of the time and "
        "queued IO from 21.7 % to 2.6 % (S5, S6)."
    )
    gap = f5["values"]
    parts = [
        f"Forecasters: F5 {f5['verdict']} — proposed minus Holt-Winters SMAPE per seed "
        + ", ".join(f"{g:+.2f}" for g in gap["gap_pp"])
        + f" pp, median {gap['median_gap_pp']:+.2f} pp, mean "
        f"{ci_text(f5['uncertainty'], '{:+.2f}')} pp, against the paper's −4.4 pp.",
        f"Scheduler under the primary readings: S5 {s5['verdict']} ({s5['reproduced_value']}), "
        f"S6 {s6['verdict']} ({s6['reproduced_value']}).",
    ]
    if f5["verdict"] == "not checkable":
        parts[0] = f"Forecasters: F5 not checkable — {f5['reason']}"
    protocol = [label for label in f5["by_reading"]
                if f5["by_reading"][label]["verdict"] != f5["verdict"]]
    if protocol:
        parts[0] += (
            " F5 hangs on the forecasting protocol: "
            + "; ".join(f"{m}: {_under(f5, m)}" for m in protocol) + "."
        )
    causes = s5["values"].get("causes_pp") or {}
    if s5["verdict"] != "reproduced" and causes:
        parts[-1] = parts[-1][:-1] + (
            f": {causes['planner']:.1f} pp of the smart violations come from ticks where the "
            "planner takes FG cores on a pool the 95 % cap binds."
        )
    moving = [label for label in s5["by_reading"]
              if any(c["by_reading"][label]["verdict"] != c["verdict"] for c in (s5, s6))]
    if moving:
        parts.append(
            "S5/S6 hang on "
            + ", ".join(sorted({m.split("=")[0] for m in moving}))
            + ": "
            + "; ".join(f"{m}: {_under(s5, m)}, {_under(s6, m)}" for m in moving)
            + "."
        )
    if "S12" in claims:
        scales = claims["S12"]["values"]
        path = []
        for cid in ("S5", "S6"):
            verdicts = [r[cid] for r in scales.values()]
            steps = [v for i, v in enumerate(verdicts) if i == 0 or v != verdicts[i - 1]]
            path.append(f"{cid} {' → '.join(steps)}")
        low, high = list(scales)[0], list(scales)[-1]  # in increasing scale
        first, last = scales[low]["smart_violation_pct"], scales[high]["smart_violation_pct"]
        parts.append(
            f"Scaling P from {low} to {high} (S12) takes the smart violations "
            f"from {first:.1f} % to {last:.1f} %: {'; '.join(path)}."
        )
    if "F5-real" in claims:
        parts.append(_real_words(claims))
    return {"statement": statement, "core": ["F5", "S5", "S6"], "cause": " ".join(parts),
            "summary": _summary(claims)}


def _real_words(claims: Mapping) -> str:
    """The real-data verdict in its own sentence: F5's statements on real production VMs,
    beside the stand-in's, never folded into the headline's verdict."""
    f5, arima = claims["F5-real"], claims.get("F5a-real")
    if f5["verdict"] == "not checkable":
        said = f"F5-real not checkable — {f5['reason']}"
    else:
        gap = f5["values"]
        said = (f"F5-real {f5['verdict']}: proposed minus Holt-Winters a median "
                f"{gap['median_gap_pp']:+.2f} pp over {gap['n_vms']} VMs (paper −4.4 pp)")
    if arima is not None:
        said += f"; F5a-real {arima['verdict']} ({arima['reproduced_value']})"
    return f"On real production VMs, judged apart from the stand-in: {said}."


def _summary(claims: Mapping) -> str:
    """The headline in plain words (at most 40): the verdict, the forecaster against
    Holt-Winters as measured (the median per-seed gap), and whether the scheduler's cut holds at
    every pool size judged (the pool readings and S12's scales), at some, or at none."""
    f5, s5, s6 = claims["F5"], claims["S5"], claims["S6"]
    verdict = headline_verdict(c["verdict"] for c in (f5, s5, s6))
    gap = f5["values"]["median_gap_pp"]
    ahead = f" (error a median {abs(gap):.2f} percentage points {'lower' if gap < 0 else 'higher'}"
    first, second = f5["values"]["parts"]
    forecaster = {
        "reproduced": ("the forecaster beats Holt-Winters", f"{ahead}; paper 4.4)"),
        "not reproduced": ("the forecaster is not better than Holt-Winters", f"{ahead})"),
    }.get(first, ("the forecaster is not told apart from Holt-Winters", f"{ahead}; paper 4.4)"))
    arima = {"reproduced": "", "not reproduced": ", and Holt-Winters does not beat ARIMA"}.get(
        second, ", and Holt-Winters is not told apart from ARIMA")
    if f5["verdict"] == "not checkable":
        forecaster, arima = ("the forecasters cannot be compared on this trace", ""), ""
    pools = [(s5["verdict"], s6["verdict"])]
    pools += [(s5["by_reading"][x]["verdict"], s6["by_reading"][x]["verdict"])
              for x in s5["by_reading"] if x.startswith("pool=")]
    if "S12" in claims:
        pools += [(r["S5"], r["S6"]) for r in claims["S12"]["values"].values()]
    held = [a == b == "reproduced" for a, b in pools]
    cut = "the scheduler matches the paper's cut in service-level violations"
    scheduler = (f"{cut} at every pool size tried" if all(held)
                 else f"{cut} only at some pool sizes, which the paper never gives"
                 if any(held) else
                 "the scheduler falls short of the paper's cut in service-level violations at "
                 "every pool size tried")
    full = f"{verdict.capitalize()}: {''.join(forecaster)}{arima}; {scheduler}."
    if len(full.split()) <= 40:
        return full
    return f"{verdict.capitalize()}: {forecaster[0]}{arima}; {scheduler}."


# ---------------------------------------------------------------- real production VMs (issue 48)

#: F5-real, F5a-real, F10-real: judged on each real VM's last whole day, paired over the VMs.
REAL_CLAIMS = {
    "F5-real": ("The proposed forecaster beats Holt-Winters on real production VMs (SMAPE)",
                "14.8 vs 19.2 % (proposed − HW −4.4 pp)"),
    "F5a-real": ("Holt-Winters beats ARIMA on real production VMs, and the proposed model cuts "
                 "ARIMA's error by about half (SMAPE)", "19.2 < 27.8 %; 14.8 / 27.8 = 0.53"),
    "F10-real": ("The proposed model beats a seasonal-naive forecast (yesterday's same "
                 "snapshots) on real production VMs (our baseline)", "(ours)"),
}


def _real_missing(cid: str, why: str, band: bands.Band | None) -> Claim:
    statement, paper = REAL_CLAIMS[cid]
    return Claim(
        id=cid, statement=statement, paper_value=paper, reproduced_value="—",
        tolerance="judged on real VMs", verdict="not checkable", reason=f"Not checkable: {why}.",
        role="test" if band else "analysis", kind="must" if band else "should",
        band=band.source if band else "", no_uncertainty=why, values={"input": ""},
    )


def _paired(table: pd.DataFrame | None, first: str, second: str) -> pd.Series:
    """Per VM, ``first`` − ``second`` SMAPE (pp), the VMs that have both."""
    return (table[first] - table[second]).dropna() if table is not None else pd.Series([])


def _judged_on(on: str) -> str:
    return f" Judged on {on}." if on else ""


def _vm_list(gap: pd.Series) -> str:
    return ", ".join(f"{vm} {g:+.1f}" for vm, g in gap.items())


def f5_real_ordering(table: pd.DataFrame | None, why: str = "", on: str = "") -> Claim:
    """F5-real (test): the proposed model's SMAPE minus Holt-Winters' on each real VM's
    forecast day, below zero (:data:`F5_BAND`) on the bootstrap 95 % interval of the median gap
    over the VMs (paired: both on the same VM's day). ``table``:
    :func:`~storrepro.papers.vdi.experiment.real_vms.real_table`; None, with ``why``, when
    there is no real-VM file; ``on``: the file's path and digest, said in the reason."""
    gap = _paired(table, "proposed", "holt-winters")
    if gap.empty:
        return _real_missing("F5-real", why or "no VM has both models' look-back plus a "
                             "forecast day", F5_BAND)
    median = bootstrap_interval(gap, of="proposed − Holt-Winters SMAPE (pp) per VM, median")
    verdict = judged(F5_BAND, median)
    statement, paper = REAL_CLAIMS["F5-real"]
    reason = (
        f"Per VM, proposed − Holt-Winters SMAPE on its last whole day: median "
        f"{ci_text(median, '{:+.2f}')} pp (bootstrap over the VMs); ahead on "
        f"{int((gap < 0).sum())} of {len(gap)} VMs; the paper's gap is {F5_PAPER_GAP:+.1f} pp. "
        f"Mean SMAPE proposed {table.proposed[gap.index].mean():.1f} %, Holt-Winters "
        f"{table['holt-winters'][gap.index].mean():.1f} %."
    )
    return Claim(
        id="F5-real", statement=statement, paper_value=paper,
        reproduced_value=f"median proposed − HW {median['mean']:+.2f} pp over {len(gap)} VMs",
        tolerance="proposed − HW < 0 on the 95 % bootstrap interval of the median per-VM gap",
        verdict=verdict, reason=reason + _judged_on(on), band=F5_BAND.source, uncertainty=median,
        values={"gap_pp": gap.to_dict(), "median_gap_pp": median["mean"], "n_vms": len(gap),
                "input": on},
    )


def f5a_real_arima(table: pd.DataFrame | None, why: str = "", on: str = "") -> Claim:
    """F5a-real (test): Holt-Winters' SMAPE minus ARIMA's per real VM below zero
    (:data:`F5_ARIMA_BAND`) on the 95 % t interval of the mean gap over the VMs that have both
    look-backs; the proposed/ARIMA ratio (the paper's 'by half') and the share of VMs ranked
    proposed < Holt-Winters < ARIMA are reported beside it."""
    gap = _paired(table, "holt-winters", "arima")
    if gap.empty:
        return _real_missing("F5a-real", why or "no VM of the study has both models' "
                             "look-back plus a forecast day (ARIMA reads 9 days under the "
                             "primary protocol, 3 under train_window=all-3)", F5_ARIMA_BAND)
    u = interval(gap, of="Holt-Winters − ARIMA SMAPE (pp) per VM, mean")
    verdict = judged(F5_ARIMA_BAND, u)
    both = table.loc[gap.index]
    ratio = float((both.proposed / both.arima).median())
    ranked = int(((both.proposed < both["holt-winters"]) & (both["holt-winters"]
                                                             < both.arima)).sum())
    statement, paper = REAL_CLAIMS["F5a-real"]
    reason = (
        f"Per VM, Holt-Winters − ARIMA SMAPE: mean {ci_text(u, '{:+.1f}')} pp; per VM "
        f"{_vm_list(gap)}. Proposed / ARIMA median {ratio:.2f} (paper 0.53); ranked proposed "
        f"< Holt-Winters < ARIMA on {ranked} of {len(gap)} VMs. A divergent ARIMA fit counts "
        "200 % (F9's rule)."
    )
    return Claim(
        id="F5a-real", statement=statement, paper_value=paper,
        reproduced_value=f"HW − ARIMA mean {u['mean']:+.1f} pp, proposed/ARIMA {ratio:.2f}, "
        f"ranked on {ranked} of {len(gap)} VMs",
        tolerance="HW − ARIMA < 0 on the 95 % CI of the mean per-VM gap",
        verdict=verdict, reason=reason + _judged_on(on), band=F5_ARIMA_BAND.source,
        uncertainty=u, values={"gap_pp": gap.to_dict(), "ratio": ratio, "ranked": ranked,
                               "n_vms": len(gap), "input": on},
    )


def f10_real_seasonal_naive(table: pd.DataFrame | None, why: str = "", on: str = "") -> Claim:
    """F10-real (analysis, ours): the proposed model against yesterday's same snapshots per
    real VM, on the bootstrap 95 % interval of the median gap (:data:`F10_BAND`)."""
    gap = _paired(table, "proposed", "seasonal-naive")
    if gap.empty:
        return _real_missing("F10-real", why or "no VM has the look-back", None)
    median = bootstrap_interval(gap, of="proposed − seasonal-naive SMAPE (pp) per VM, median")
    verdict = judged(F10_BAND, median)
    statement, paper = REAL_CLAIMS["F10-real"]
    return Claim(
        id="F10-real", statement=statement, paper_value=paper,
        reproduced_value=f"median proposed − naive {median['mean']:+.2f} pp over {len(gap)} VMs",
        tolerance="proposed − seasonal-naive < 0 on the 95 % bootstrap interval of the median "
        "per-VM gap",
        verdict=verdict, role="analysis", kind="should", uncertainty=median,
        reason=f"Per VM, proposed − seasonal-naive SMAPE: median {ci_text(median, '{:+.2f}')} "
        f"pp; the proposed model is ahead on {int((gap < 0).sum())} of {len(gap)} VMs."
        + _judged_on(on),
        values={"gap_pp": gap.to_dict(), "median_gap_pp": median["mean"], "n_vms": len(gap),
                "input": on},
    )
