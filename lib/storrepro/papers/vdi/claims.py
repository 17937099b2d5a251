"""Notebook 03's claims as a table (:mod:`storrepro.suite.table`): F1–F10 (workload and
forecasting), S1–S12 (scheduler) and the real-VM claims F5-real, F5a-real, F10-real. The
notebook judges each group of rows on its inputs under the primary readings and each
alternative; a calibration target's numbers are the constants below, which its row states."""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from functools import partial
from itertools import groupby

import numpy as np
import pandas as pd

from storrepro.papers.vdi.books import trace_cover
from storrepro.papers.vdi.config import FORECAST_READINGS, READING_FIELDS
from storrepro.papers.vdi.metrics import dynamics, mean_violation, per_seed_frame, violation_causes
from storrepro.papers.vdi.seeds import PSYN_DAY, WINDOW_RANGE
from storrepro.suite import bands
from storrepro.suite.claims import (
    bootstrap_interval,
    ci_text,
    headline_verdict,
    interval,
    verdict_words,
)
from storrepro.suite.consistency import Reported
from storrepro.suite.replicates import estimate
from storrepro.suite.table import Measured, Part, Row, judge_row

# ---------------------------------------------------------------- calibration targets, rules

ACF_ARGMAX = (141, 147)  # F1: argmax of the ACF over lags 36–300
ACF144_MIN = 0.35  # F1
ACF_GAP_MIN = 0.5  # F1: ACF(144) − ACF(72)
LAG_R_MIN = 0.45  # F2
WTF_SPREAD_MAX = 0.10  # F3: Wed/Thu/Fri trend within ±10 % of their mean
WEEKEND_MAX = 0.6  # F3: Sat and Sun ≤ 0.6× the Wed–Fri mean
MONDAY_MIN = 1.05  # F3: Mon ≥ 1.05×
F6_BANDS = {"proposed": (10.0, 20.0), "holt-winters": (14.0, 25.0)}
F6_ARIMA_GAP = 1.0  # F6: ARIMA ≥ HW + 1 pp
F6_RATIO_MAX = 0.85  # F6: proposed / ARIMA
#: The paper's SMAPE gap proposed − Holt-Winters (14.8 − 19.2 %), reported beside F5.
F5_PAPER_GAP = 14.8 - 19.2
DIVERGENT_SMAPE = 150.0  # F9: a SMAPE above this marks a divergent fit
DIVERGENT_SCORE = 200.0  # F9: and it is scored so
S3_SMART_MAX = 97.0  # S3: smart max debt, % of the pool
#: S4's calibration target (the fixed ramp): the paper's fixed-bucket numbers and the acceptance
#: check's half-widths (the experiment's ``BASELINE_TARGET`` weighs the ramp's misses by them).
S4_TARGET = {"violation": (54.6, 10.0), "queued": (21.7, 11.0)}
#: S5's targets: the paper's smart-bucket numbers and the acceptance check's half-widths.
S5_TARGET = {"violation": (6.2, 4.0), "queued": (2.6, 2.0)}
S6_PAPER = {k: S4_TARGET[k][0] / S5_TARGET[k][0] for k in ("violation", "queued")}
#: S6: a seed without violations counts as this many % in a ratio, so the ratio stays finite.
S6_FLOOR_PCT = 0.01
S7_MARGIN = 0.5  # S7: idle-only ≤ smart-oracle ≤ smart + 0.5 pp
S9_IN_BAND = 0.8  # S9: fixed debt in its band on ≥ 80 % of the busy weekday ticks
S9_SMART_PEAK = (0.80, 0.97)  # S9: smart peak debt / P
S9_DRAINS = 3  # S9: ≥ 3 of the 6 nights drain
S10_AGREE_PP = 0.1  # S10: simpy vs fluid
S10_TICK_PP = 3.0  # S10: 60 s tick vs 600 s

_SMAPE_WORDS = ('"we cut the error range by half if compared to ARIMA and few percentage '
                'better than triple exponential smoothing"; "ARIMA achieves [...] SMAPE of '
                '27.8%"; "SMAPE achieved for triple exponential smoothing is 19.2%"')
_BELOW = partial(bands.direction, sign=-1)
_HW_PART = Part("proposed − HW", _BELOW, statistic="median",
                of="proposed − Holt-Winters SMAPE (pp), median over seeds")
_ARIMA_PART = Part("HW − ARIMA", _BELOW,
                   of="Holt-Winters − ARIMA P-syn SMAPE (pp), mean over seeds")
_SCHEDULER = tuple(READING_FIELDS)

TABLE = (
    Row(id="F1", role="calibration", paper_value="ACF maximum at lag 144",
        statement="VDI IO intensity is periodic with a 24 h season: the ACF peaks at lag 144",
        words='"Figure 5 plots the autocorrelation of incoming intensity at different lags, where '
        'the highest at is at point 144 (a one-day lag, plotted at 10 minute intervals)"',
        rule=f"every seed: ACF argmax over lags 36–300 in [{ACF_ARGMAX[0]}, {ACF_ARGMAX[1]}], "
        f"ACF(144) ≥ {ACF144_MIN:g}, ACF(144) − ACF(72) ≥ {ACF_GAP_MIN:g} (acceptance check F1)"),
    Row(id="F2", role="calibration", paper_value="strong correlation (Fig. 6)",
        statement="The 24 h lag spread shows a strong 24 h correlation",
        words='"the 24-hour lag spread, which indicates a strong 24hour correlation"',
        rule=f"Pearson r(y_t, y_t+144) ≥ {LAG_R_MIN:g} on every seed (acceptance check F2)"),
    Row(id="F3", role="calibration", paper_value="flat Wed–Fri, low weekend, high Monday (Fig. 9)",
        statement="Decomposition: the trend is flat Wednesday to Friday, lower at the weekend "
        "and higher on Monday", words="Fig. 9's trend (the paper's decomposition)",
        rule=f"every seed: Wed/Thu/Fri within ±{WTF_SPREAD_MAX * 100:g} % of their mean, Sat and "
        f"Sun ≤ {WEEKEND_MAX:g}×, Mon ≥ {MONDAY_MIN:g}× (calendar dates)"),
    Row(id="F4", role="calibration", paper_value="weekday vs weekend clusters",
        statement="K-means (k = 2 ≤ ⌊√(7/2)⌋) separates the weekend days from the weekdays",
        words='"we group weekday as a separate cluster from weekend, leading to 2 stationary '
        'intensity signals"',
        rule="K-means (k = 2) puts Saturday and Sunday alone in one cluster on every seed"),
    Row(id="F9", role="invariant", kind="should",
        paper_value="(not discussed; the paper reports a valid 27.8 % fit)",
        statement="ARIMA(144,0,2) fits are stable or flagged as divergent (and scored 200 %)",
        words="(this suite's scoring rule: a divergent fit scores 200 %)",
        rule=f"every fit with an explosive AR part or SMAPE > {DIVERGENT_SMAPE:g} % flagged and "
        f"scored {DIVERGENT_SCORE:g} %; the reported (arima-ridge) fit stable on every row"),
    Row(id="F5", core=True, requires=("F9",), not_affected_by=_SCHEDULER, fmt="{:+.2f}",
        statement="The proposed forecaster beats Holt-Winters, which beats ARIMA(144,0,2) (SMAPE)",
        paper_value="14.8 < 19.2 < 27.8 % (proposed − HW −4.4 pp)", words=_SMAPE_WORDS,
        parts=(_HW_PART, _ARIMA_PART), of="the per-seed P-syn SMAPE gaps (pp)",
        note="Before issue 32 the band was proposed ≤ HW + 0.5 pp and HW < ARIMA, in the mean "
        "and on ≥ 80 % of the seeds, which let the proposed model be slightly worse than "
        "Holt-Winters; on the full profile's seeds F5 was reproduced under it."),
    Row(id="F6", role="calibration", paper_value="14.8 / 19.2 / 27.8 %, ratio 0.53",
        statement="SMAPE magnitudes: proposed 14.8 %, Holt-Winters 19.2 %, ARIMA 27.8 %",
        words='"ARIMA achieves [...] 27.8%"; "triple exponential smoothing is 19.2%"; "We '
        'achieve [...] SMAPE of 14.8%"',
        rule="proposed SMAPE in [{:g}, {:g}] %, Holt-Winters in [{:g}, {:g}] %, ".format(
            *F6_BANDS["proposed"], *F6_BANDS["holt-winters"]) + f"ARIMA ≥ HW + {F6_ARIMA_GAP:g} "
        f"pp, proposed/ARIMA ≤ {F6_RATIO_MAX:g} (acceptance check F6 for a synthetic trace)"),
    Row(id="F7", not_affected_by=_SCHEDULER, fmt="{:+.1f}", unit=" %", paper_value="< 10 %",
        statement="The proposed model's MPE is well below 10 %",
        words='"MPE (Mean Percentage Error) is well below 10%"',
        band=partial(bands.Band, "bound", low=-10.0, high=10.0, unit="%"),
        of="the proposed model's P-syn MPE (%), mean over seeds"),
    Row(id="F8", not_affected_by=_SCHEDULER, fmt="{:.1f}", unit=" %", paper_value="ε small",
        statement="The proposed model's cumulative error stays small: over- and "
        "under-prediction cancel over the day",
        words='"as long as the cumulative error at any time t is small" (no number: 5 %, the '
        "acceptance check's reading of small)",
        band=partial(bands.number, 0.0, 5.0, unit="%"),
        of="worst end-of-day |CumErr| (%) of a seed, mean over seeds"),
    Row(id="F10", role="analysis", kind="should", not_affected_by=_SCHEDULER, fmt="{:+.2f}",
        statement="The proposed model beats a seasonal-naive forecast (yesterday's same slot; "
        "our baseline, not the paper's)", paper_value="(ours)",
        words="(ours: yesterday's same slot)", band=_BELOW, statistic="median",
        of="proposed − seasonal-naive SMAPE (pp), median over seeds"),
    Row(id="S1", role="invariant", paper_value="(model)",
        statement="Scheduler invariants: C_FG + C_BG = 64, 0 ≤ C_FG ≤ 64, debt ≥ 0, FG served ≤ "
        "min(demand, 50·C_FG) in every bin", words="(the paper's model)",
        rule="every bin of every run"),
    Row(id="S2", role="invariant", paper_value="(model)",
        statement="Debt conservation: generated = freed + final; BG frees ≤ 20·C_BG·Δ per bin",
        words="(the paper's model)", rule="relative error ≤ 1e-9, every run"),
    Row(id="S3", role="invariant", paper_value="40–50 % / ≤ 95 %",
        statement="Watermarks respected: fixed ≤ 50 % + one hourly lump; smart ≤ 97 % of the pool",
        words='"between 40 and 50% of total pool size"; "up to 95% of pool size"',
        rule=f"fixed ≤ its high watermark + the largest hourly lump; smart ≤ {S3_SMART_MAX:g} % "
        "(95 % cap plus one lump)"),
    Row(id="S4", role="calibration", paper_value="54.6 % / 21.7 %", combine="partly",
        of="the fixed bucket's violation and queued IO % (mean over seeds)",
        fmt="{:.1f}", unit=" %", no_uncertainty="a calibration target, met on the mean over "
        "the seeds the ramp was fitted to", miss="No ramp of the grid reaches both bands here.",
        statement="Fixed 40–50 % bucket (calibrated ramp): SLO violations and queued IO",
        words='"SLO performance violation of 54.6% where 21.7% of IO was queued due to out of '
        'resources"',
        parts=(Part("violation", partial(bands.number, *S4_TARGET["violation"], unit="%"),
                    of="fixed violation % (mean over seeds)"),
               Part("queued", partial(bands.number, *S4_TARGET["queued"], unit="%"),
                    of="fixed queued IO % (mean over seeds)"))),
    Row(id="S8", role="analysis", paper_value="21.7 < 54.6; 2.6 < 6.2",
        statement="Queued % < violation % for both schemes", words="(the paper's four numbers)",
        rule="strict, both schemes, every seed"),
    Row(id="S12", role="analysis", paper_value="(ours)",
        statement="S5 and S6 keep their verdicts when the pool size P is scaled (our analysis: "
        "the paper never gives P)", words="(ours: the paper never gives P)",
        rule="the same S5 and S6 verdict at every scale"),
    Row(id="S5", core=True, combine="partly", not_affected_by=FORECAST_READINGS, fmt="{:.1f}",
        of="the smart scheduler's violation and queued IO % (mean over seeds)",
        unit=" %", paper_value="6.2 % / 2.6 %",
        statement="The smart scheduler (knobs frozen, run once) violates the SLO in 6.2 % of the "
        "time with 2.6 % of IO queued",
        words='"SLO performance violation of only 6.2% through the 6 days where 2.6% of IO was '
        "queued\" (± the acceptance check's 4 and 2 pp)",
        parts=(Part("violation", partial(bands.number, *S5_TARGET["violation"], unit="%"),
                    of="smart violation % (mean over seeds)"),
               Part("queued", partial(bands.number, *S5_TARGET["queued"], unit="%"),
                    of="smart queued IO % (mean over seeds)"))),
    Row(id="S6", core=True, requires=("S4",), combine="sizes", statistic="geomean",
        not_affected_by=FORECAST_READINGS, fmt="{:.2f}", unit="×",
        of="the per-seed ratios fixed/smart of violation and queued IO %",
        paper_value=f"{S6_PAPER['violation']:.1f}× / {S6_PAPER['queued']:.1f}×",
        statement="The forecast-driven debt bucket cuts SLO violations and queued IO relative to "
        "the fixed bucket (ratios fixed/smart)",
        words='"reduced SLO violations from 54.6% when using a fixed debt bucket to merely a '
        "6.2%\" (8.8×; queued 21.7 → 2.6 %, 8.3×; bands: the acceptance check's 4× and 3×, "
        "about half)",
        parts=(Part("violation", partial(bands.Band, "number", low=4.0, unit="×"),
                    of="fixed/smart violation % per seed, geometric mean"),
               Part("queued", partial(bands.Band, "number", low=3.0, unit="×"),
                    of="fixed/smart queued % per seed, geometric mean"))),
    Row(id="S7", role="invariant", kind="should", paper_value="(ours)",
        statement="Ordering of references: idle-only ≤ smart with an oracle ≤ smart with the "
        "forecast", words="(ours: the order our references must come in)",
        rule=f"violation %, idle-only ≤ oracle ≤ forecast + {S7_MARGIN:g} pp"),
    Row(id="S9", role="analysis", kind="should", paper_value="Figs. 13, 14",
        statement="Dynamics: the fixed debt sits in the 40–50 % band in weekday busy hours; the "
        "smart debt rises toward (not above) 95 % and drains at night", words="Figs. 13, 14",
        rule=f"≥ {S9_IN_BAND:.0%} of busy ticks in band; smart peak in [{S9_SMART_PEAK[0]:.0%}, "
        f"{S9_SMART_PEAK[1]:.0%}] of P; ≥ {S9_DRAINS} nights drain"),
    Row(id="S10", role="invariant", paper_value="(ours)",
        statement="simpy core pool = numpy fluid reference at a 600 s tick; a 60 s tick moves "
        "violation % by ≤ 3 pp", words="(ours: two models of one pool)",
        rule=f"≤ {S10_AGREE_PP:g} pp; ≤ {S10_TICK_PP:g} pp"),
    Row(id="S11", role="invariant", paper_value="(ours)",
        statement="Determinism: same seed, same outputs (trace, forecasts and smart run "
        "recomputed)", words="(ours)", rule="identical tick logs"),
    Row(id="F5-real", not_affected_by=_SCHEDULER, fmt="{:+.2f}",
        statement="The proposed forecaster beats Holt-Winters on real production VMs (SMAPE)",
        paper_value="14.8 vs 19.2 % (proposed − HW −4.4 pp)",
        words='"few percentage better than triple exponential smoothing" (14.8 vs 19.2 %)',
        band=_BELOW, statistic="median",
        of="proposed − Holt-Winters SMAPE (pp) per VM, median"),
    Row(id="F5a-real", not_affected_by=_SCHEDULER, fmt="{:+.1f}",
        statement="Holt-Winters beats ARIMA on real production VMs, and the proposed model cuts "
        "ARIMA's error by about half (SMAPE)", paper_value="19.2 < 27.8 %; 14.8 / 27.8 = 0.53",
        words='"ARIMA achieves [...] SMAPE of 27.8%"; "SMAPE achieved for triple exponential '
        'smoothing is 19.2%"', band=_BELOW, of="Holt-Winters − ARIMA SMAPE (pp) per VM, mean"),
    Row(id="F10-real", role="analysis", kind="should", not_affected_by=_SCHEDULER, fmt="{:+.2f}",
        statement="The proposed model beats a seasonal-naive forecast (yesterday's same "
        "snapshots) on real production VMs (our baseline)", paper_value="(ours)",
        words="(ours: yesterday's same snapshots)", band=_BELOW, statistic="median",
        of="proposed − seasonal-naive SMAPE (pp) per VM, median"),
)
_ROWS = {r.id: r for r in TABLE}


def rows(*ids: str) -> tuple[Row, ...]:
    """The rows of ``ids``, in that order (the notebook judges them section by section)."""
    return tuple(_ROWS[i] for i in ids)


def _ok(ok: bool) -> str:
    return "reproduced" if ok else "not reproduced"


def _range(values, fmt: str = "{:.2f}") -> str:
    lo, hi = (fmt.format(float(f(values))) for f in (np.min, np.max))
    return lo if lo == hi else f"{lo} to {hi}" if lo.startswith("-") else f"{lo}–{hi}"


# ---------------------------------------------------------------- characterization: {"char"}


def measure_f1(inputs) -> Measured:
    char, (lo, hi) = inputs["char"], ACF_ARGMAX
    ok_seed = (char.acf_argmax.between(lo, hi) & (char.acf144 >= ACF144_MIN)
               & (char.acf144 - char.acf72 >= ACF_GAP_MIN))
    text = f"argmax lag {_range(char.acf_argmax, '{:.0f}')}, ACF(144) {_range(char.acf144)}"
    reason = (f"ACF over lags 36–300: {text}, ACF(72) {_range(char.acf72)} on {len(char)} seeds: "
              "the generator's daily cycle was calibrated to this shape.")
    if not ok_seed.all():
        reason += f" Failed on seeds {list(char.index[~ok_seed])}: the trace lost its daily cycle."
    return Measured(None, text, {**{c: list(char[c]) for c in ("acf_argmax", "acf144", "acf72")},
                                 "seeds_ok": int(ok_seed.sum())}, _ok(bool(ok_seed.all())), reason)


def measure_f2(inputs) -> Measured:
    char = inputs["char"]
    low = float(char.lag144_r.min())
    ok = low >= LAG_R_MIN
    return Measured(None, f"Pearson r {_range(char.lag144_r)}",
                    {"lag144_r": list(char.lag144_r), "min": low}, _ok(ok),
                    f"Pearson r between the intensity and its value 24 h later is "
                    f"{_range(char.lag144_r)} over {len(char)} seeds"
                    + ("; the generator's noise level was calibrated to it." if ok
                       else ": the trace's noise drowns the daily cycle."))


def measure_f3(inputs) -> Measured:
    char = inputs["char"]
    parts = {"Wed–Fri flat": char.wtf_spread <= WTF_SPREAD_MAX,
             "weekend low": char.weekend_ratio <= WEEKEND_MAX,
             "Monday high": char.monday_ratio >= MONDAY_MIN}
    ok_seed = parts["Wed–Fri flat"] & parts["weekend low"] & parts["Monday high"]
    text = (f"Wed–Fri spread ≤ {100 * char.wtf_spread.max():.1f} %, "
            f"weekend {_range(char.weekend_ratio)}×, Monday {_range(char.monday_ratio)}×")
    reason = (f"Daily means of the additive decomposition's trend, grouped by calendar date "
              f"(section 3): {text} of the Wed–Fri mean on {len(char)} seeds. The generator "
              "builds this shape in (Monday's working hours 1.15× a weekday's, quiet weekends), "
              "so this checks that the stand-in carries the paper's weekly shape through the "
              "decomposition, not that VDI traces have it.")
    if not ok_seed.all():
        failing = ", ".join(name for name, part in parts.items() if not part.all())
        reason += (f" Fails on {int((~ok_seed).sum())} seed(s) in: {failing} — the synthetic "
                   "week lacks that part of the paper's shape.")
    columns = ("wtf_spread", "weekend_ratio", "monday_ratio")
    return Measured(None, text, {**{c: list(char[c]) for c in columns},
                                 "seeds_ok": int(ok_seed.sum())}, _ok(bool(ok_seed.all())), reason)


def measure_f4(inputs) -> Measured:
    char = inputs["char"]
    n_ok, n = int(char.kmeans_ok.sum()), len(char)
    return Measured(None, f"{n_ok}/{n} seeds", {"seeds_ok": n_ok, "seeds": n}, _ok(n_ok == n),
                    "K-means on the window's daily means puts Saturday and Sunday alone in one "
                    f"cluster on {n_ok} of {n} seeds"
                    + ("; the generator's quiet weekend was built to do so." if n_ok == n
                       else ": the weekend is not quiet enough in the others."))


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
        ("holt-winters", "Holt-Winters",
         "SMAPE achieved for triple exponential smoothing is 19.2%"),
        ("arima", "ARIMA",
         "ARIMA achieves Symmetric mean absolute percentage error (SMAPE) of 27.8%"),
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
    return [(name, REPORTED_SMAPE[model], {
        value: list(smape_by[None if value == readings[name].primary else f"{name}={value}"]
                    [model] / PAPER_SMAPE[model]) for value in readings[name].alternatives})
        for name, models in PROTOCOL_CHECKS.items() for model in models]


def psyn_smape(psyn: pd.DataFrame, arima: str = "arima-ridge") -> pd.DataFrame:
    """Per-seed P-syn SMAPE of the proposed model, Holt-Winters and the reported ARIMA row,
    divergent fits scored :data:`DIVERGENT_SCORE` (the F9 scoring rule)."""
    rows_ = psyn[psyn.model.isin(["proposed", "holt-winters", arima])]
    scored = rows_.smape.where(~rows_.divergent.astype(bool), DIVERGENT_SCORE)
    table = rows_.assign(smape=scored).pivot(index="seed", columns="model", values="smape")
    return table.rename(columns={arima: "arima"})[["proposed", "holt-winters", "arima"]]


def forecast_inputs(protocol: tuple, st=None, label: str | None = None,
                    stand_in: bool = True) -> dict:
    """The forecasting claims' inputs under the reading ``label`` (None: the primary):
    ``protocol`` is its (accuracy rows, P-syn rows, (cumulative errors, weekly variant's)) of
    :func:`~storrepro.papers.vdi.tables.protocol_inputs`; ``st`` the seed-0 trace, from which
    ``cover`` says what each claim's forecasts (:data:`FORECAST_READS`) need of a user's trace
    (:func:`~storrepro.papers.vdi.books.trace_cover`; None on the stand-in); ``stand_in``
    False: the days are a user's trace laid on the stand-in's calendar."""
    _, psyn, (cum, weekly) = protocol
    cover = {cid: None if st is None else trace_cover(st, *FORECAST_READS[cid], label)
             for cid in FORECAST_READS}
    return {"psyn": psyn, "smape": psyn_smape(psyn), "cum": cum, "weekly": weekly,
            "stand_in": stand_in, "cover": cover}


def _covered(inputs, cid: str, reason: str) -> tuple[str, str]:
    """Claim ``cid``'s ceiling and reason: not checkable where a user's trace does not cover what
    its forecasts read (a trace shorter than the history plus the forecast day, repeated to fill
    the calendar, would hand the forecasters copies of the day they forecast)."""
    cover = inputs.get("cover", {}).get(cid)
    if cover is None:
        return "", reason
    have, need = cover["have_days"], cover["need_days"]
    if need > have:
        return "not checkable", (
            f"Not checkable: the trace has {have:.2f} days of whole 10-minute bins, and these "
            f"forecasts read {need - 1} days of history plus the forecast day ({need} days); "
            "repeated to fill the calendar, the trace would hand the forecasters copies of the "
            "day they forecast.")
    if cover["repeated"]:
        reason += (f" The trace ({have:.2f} days) is repeated to fill the calendar; these "
                   f"forecasts read {need} days, so none reads a copy of its own target.")
    return "", reason


def measure_f9(inputs) -> Measured:
    """``arima_rows``: the accuracy rows of the ARIMA variants."""
    rows_, reported = inputs["arima_rows"], "arima-ridge"
    bad = ~rows_.stable.astype(bool) | (rows_.smape_fit > DIVERGENT_SMAPE)
    flagged = rows_.divergent.astype(bool)
    unflagged = rows_[bad & ~(flagged & np.isclose(rows_.smape, DIVERGENT_SCORE))]
    false_flags = rows_[~bad & flagged]
    report_div = int(rows_[rows_.model == reported].divergent.astype(bool).sum())
    counts = {m: int(g.divergent.astype(bool).sum()) for m, g in rows_.groupby("model")}
    consistent = unflagged.empty and false_flags.empty
    verdict = "not reproduced" if not consistent else "reproduced" if report_div == 0 else "partly"
    listed = ", ".join(f"{m} {k}/{len(rows_[rows_.model == m])}" for m, k in counts.items())
    reason = (f"Divergent fits (AR root inside the unit circle or SMAPE > {DIVERGENT_SMAPE:g} %): "
              f"{listed} over {rows_.seed.nunique()} seed(s) and the window days (section 4).")
    if not consistent:
        reason += (f" {len(unflagged)} divergent fit(s) not flagged and scored "
                   f"{DIVERGENT_SCORE:g} %, {len(false_flags)} stable fit(s) flagged: the "
                   "scoring rule is not applied.")
    elif report_div:
        reason += (f" The reported {reported} fit diverged on {report_div} row(s): its SMAPE in "
                   f"F5/F6 is the {DIVERGENT_SCORE:g} % of the scoring rule, not a forecast.")
    else:
        reason += f" Every divergent fit is flagged, and the reported {reported} fit is stable."
    return Measured(None, f"divergent: {listed}", {
        "divergent": counts, "unflagged": len(unflagged), "false_flags": len(false_flags),
        "reported_divergent": report_div}, verdict, reason)


def measure_f5(inputs) -> Measured:
    """Per seed, proposed − Holt-Winters P-syn SMAPE (the median: one seed's large gap must not
    carry it) and Holt-Winters − ARIMA (the mean), each below zero."""
    smape = inputs["smape"]
    prop, hw, arima = smape["proposed"], smape["holt-winters"], smape["arima"]
    gap, arima_gap = prop - hw, hw - arima
    u = interval(gap, of="proposed − Holt-Winters P-syn SMAPE (pp), mean over seeds")
    median = bootstrap_interval(gap, of=_HW_PART.of)
    return Measured(
        {_HW_PART.name: list(gap), _ARIMA_PART.name: list(arima_gap)},
        f"proposed − HW median {median['mean']:+.2f} pp, mean {u['mean']:+.2f} pp (paper "
        f"{F5_PAPER_GAP:+.1f} pp); HW − ARIMA mean {float(arima_gap.mean()):+.1f} pp",
        {"gap_pp": list(gap), "median_gap_pp": median["mean"], "mean_gap": u,
         "median_ci95": median["ci95"], "arima_gap": interval(arima_gap, of=_ARIMA_PART.of),
         "proposed": float(prop.mean()), "holt_winters": float(hw.mean()),
         "arima": float(arima.mean())},
        *_covered(inputs, "F5", f"Per seed, proposed − Holt-Winters: "
                  f"{', '.join(f'{g:+.2f}' for g in gap)} pp, mean {ci_text(u, '{:+.2f}')}; the "
                  f"paper's gap is {F5_PAPER_GAP:+.1f} pp (section 4)."))


def explain_f5(inputs, verdict: str, measured: Measured) -> str:
    first = measured.extra.get("verdict_per_part", {}).get(_HW_PART.name)
    gap = np.asarray(measured.extra["gap_pp"])
    if first == "inconclusive":
        return (f"The proposed model is ahead on {int((gap < 0).sum())} of {gap.size} seeds, but "
                "by little on most: the interval of the median gap straddles zero, so this "
                "stand-in cannot tell it from Holt-Winters.")
    return {"not reproduced": "The proposed model is behind Holt-Winters on the median's whole "
            "interval."}.get(first, "")


def measure_f6(inputs) -> Measured:
    """The generator's noise level was calibrated to land the forecast errors near the paper's:
    the mean SMAPEs in the calibration bands."""
    smape = inputs["smape"]
    prop, hw, arima = (float(smape[c].mean()) for c in ("proposed", "holt-winters", "arima"))
    (p_lo, p_hi), (h_lo, h_hi) = F6_BANDS["proposed"], F6_BANDS["holt-winters"]
    checks = {
        f"proposed in [{p_lo:g}, {p_hi:g}] %": p_lo <= prop <= p_hi,
        f"HW in [{h_lo:g}, {h_hi:g}] %": h_lo <= hw <= h_hi,
        f"ARIMA ≥ HW + {F6_ARIMA_GAP:g} pp": arima >= hw + F6_ARIMA_GAP,
        f"proposed/ARIMA ≤ {F6_RATIO_MAX:g}": arima > 0 and prop <= F6_RATIO_MAX * arima,
    }
    passed, failed = sum(checks.values()), [k for k, ok in checks.items() if not ok]
    ratio = f"{prop / arima:.2f}" if arima > 0 else "undefined (ARIMA 0 %)"
    return Measured(
        None, f"{prop:.1f} / {hw:.1f} / {arima:.1f} %, ratio {ratio}",
        {"proposed": prop, "holt_winters": hw, "arima": arima, "failed": failed},
        "reproduced" if passed == 4 else "partly" if passed >= 2 else "not reproduced",
        f"Mean P-syn SMAPE {prop:.1f} / {hw:.1f} / {arima:.1f} %; the trace's noise (σ = 0.45) "
        "was calibrated to put them near the paper's"
        + (f"; outside: {', '.join(failed)}." if failed else "."))


def measure_f7(inputs) -> Measured:
    """The proposed model's MPE per seed, and below its SMAPE (else not reproduced);
    seasonal-naive's and Holt-Winters' beside it: the band does not single the proposed model
    out when they pass it too."""
    psyn = inputs["psyn"]
    mpe, smape = psyn.groupby("model").mpe.mean(), psyn.groupby("model").smape.mean()
    values = psyn[psyn.model == "proposed"].sort_values("seed").mpe
    prop, prop_smape = interval(values, of="MPE")["mean"], float(smape["proposed"])
    others = {m: float(mpe[m]) for m in ("seasonal-naive", "holt-winters") if m in mpe.index}
    band = _ROWS["F7"].bands()[""]
    passing = [m for m, v in others.items() if band.contains(v) and abs(v) < smape[m]]
    beside = ", ".join(f"{m} {v:+.1f} %" for m, v in others.items())
    ceiling, reason = _covered(inputs, "F7", f"SMAPE {prop_smape:.1f} %, and |MPE| must stay "
                               "below it" + (f"; beside it {beside}." if others else "."))
    if abs(prop) >= prop_smape:
        ceiling = ceiling or "not reproduced"
    return Measured(list(values), f"{prop:+.1f} % ({beside})" if others else f"{prop:+.1f} %",
                    {"mpe": prop, "smape": prop_smape, "others_mpe": others,
                     "others_passing": passing}, ceiling, reason)


def explain_f7(inputs, verdict: str, measured: Measured) -> str:
    if verdict == "not reproduced":
        return "Outside ±10 % or not below the SMAPE: the errors do not cancel."
    if verdict == "inconclusive":
        return "The interval reaches past ±10 %: the seeds are too few to say."
    passing = measured.extra["others_passing"]
    if verdict == "reproduced" and passing:
        return (f"{' and '.join(passing)} pass the same band: it does not discriminate, the small "
                "MPE is a property of daily-seasonal forecasts of this trace, not of the "
                "proposed model alone.")
    return ""


def measure_f8(inputs) -> Measured:
    """Each seed's worst |CumErr| at the end of a forecast day of the proposed model (``cum``:
    one row per forecast day, ``seed``, ``day`` name, ``cum_err`` a fraction); the scheduler's
    weekly-trend variant (``weekly``) beside it."""
    cum = 100 * inputs["cum"].set_index(["seed", "day"]).cum_err.abs()
    worst_by_seed, weekly = cum.groupby(level=0).max(), inputs["weekly"]
    u = interval(worst_by_seed, of=_ROWS["F8"].of)
    reason = (f"|CumErr| at the end of the day: median {cum.median():.1f} %, worst "
              f"{float(cum.max()):.1f} % (a {cum.idxmax()[1]}) over {len(cum)} forecast days; each "
              f"seed's worst day {_range(worst_by_seed, '{:.1f}')} % (section 4).")
    if weekly is not None:
        reason += f" The weekly-trend variant's worst is {100 * weekly.abs().max():.1f} %."
    return Measured(list(worst_by_seed), f"worst day per seed {u['mean']:.1f} % (mean), max "
                    f"|CumErr| {float(cum.max()):.1f} %, median {cum.median():.1f} %",
                    {"max": float(cum.max()), "median": float(cum.median()),
                     "days_over": int((cum > 5.0).sum()), "worst_by_seed": list(worst_by_seed),
                     "weekly_max": None if weekly is None else float(100 * weekly.abs().max())},
                    *_covered(inputs, "F8", reason))


def explain_f8(inputs, verdict: str, measured: Measured) -> str:
    """Which days exceed 5 %: Mondays, which the 3-day cluster protocol forecasts from Wed–Fri
    (so it misses Monday's heavier working hours), are named only on the stand-in."""
    cum = 100 * inputs["cum"].set_index(["seed", "day"]).cum_err.abs()
    over = cum[cum > 5.0]
    if verdict == "not checkable" or not len(over):
        return ""
    days = [k[1] for k in over.index]
    stand_in = inputs.get("stand_in", True)
    mondays = days.count("Mon") if stand_in else 0
    counts = ", ".join(f"{d} {k}" for d, k in pd.Series(days).value_counts().items())
    named = f"({counts})" if stand_in else "(days of the calendar the trace is laid on)"
    said = f"{len(over)} of {len(cum)} days exceed 5 % {named}"
    monday = ("which the 3-day cluster protocol forecasts from Wed–Fri and so misses Monday's "
              "heavier working hours")
    cancel = "the day's over- and under-predictions do not cancel"
    if mondays * 2 > len(over):
        return f"{said}: mostly Mondays, {monday}."
    if mondays:
        return f"{said}: {mondays} of them Mondays, {monday}; on the others {cancel}."
    return f"{said}: {cancel}."


def measure_f10(inputs) -> Measured:
    """Against yesterday's same slot (the previous cluster day's): a forecaster that does not
    beat it has learnt nothing a daily cycle does not give; Holt-Winters' gap beside it."""
    table = inputs["psyn"].pivot(index="seed", columns="model", values="smape")
    naive = table["seasonal-naive"]
    gap, hw_gap = table["proposed"] - naive, table["holt-winters"] - naive
    median = bootstrap_interval(gap, of=_ROWS["F10"].of)
    hw = bootstrap_interval(hw_gap, of="Holt-Winters − seasonal-naive SMAPE (pp), median")
    return Measured(list(gap), f"proposed − naive median {median['mean']:+.2f} pp, Holt-Winters "
                    f"− naive {hw['mean']:+.2f} pp (naive SMAPE {naive.mean():.1f} %)",
                    {"gap_pp": list(gap), "median_gap_pp": median["mean"],
                     "hw_median_gap_pp": hw["mean"], "naive": float(naive.mean())},
                    *_covered(inputs, "F10", "Per seed, proposed − seasonal-naive: "
                              + ", ".join(f"{g:+.2f}" for g in gap) + " pp; Holt-Winters − "
                              f"seasonal-naive median {ci_text(hw, '{:+.2f}')}."))


def explain_f10(inputs, verdict: str, measured: Measured) -> str:
    return {"reproduced": "The proposed model beats yesterday's copy.",
            "inconclusive": "The interval straddles zero: the proposed model is not told apart "
            "from yesterday's copy.",
            "not reproduced": "Yesterday's copy is at least as good: what the proposed model adds "
            "to a daily cycle does not show here."}.get(verdict, "")


# ---------------------------------------------------------------- scheduler: invariants


def _runs_held(inputs, key: str, what: str, broken: str) -> Measured:
    n_ok, n = sum(bool(c[key]) for c in inputs["checks"]), len(inputs["checks"])
    return Measured(None, f"{n_ok}/{n} runs", {"runs_ok": n_ok, "runs": n}, _ok(n_ok == n),
                    f"{what} on the {n} runs of sections 6–8: held in {n_ok}"
                    + ("." if n_ok == n else f"; {broken}."))


measure_s1 = partial(_runs_held, key="S1", what="Checked on every tick log",
                     broken="a scheduler breaks the core split or serves too much")
measure_s2 = partial(_runs_held, key="S2", what="Debt balance checked",
                     broken="the pool loses or creates debt")


def measure_s3(inputs) -> Measured:
    fixed, smart = inputs["fixed_df"], inputs["smart_df"]
    fixed_max, smart_max = fixed.max_debt_pct.to_numpy(float), float(smart.max_debt_pct.max())
    ok = bool(np.all(fixed_max <= 100 * inputs["high"] + fixed.max_lump_pct.to_numpy(float)))
    ok = ok and smart_max <= S3_SMART_MAX
    text = f"fixed max {fixed_max.max():.1f} %, smart max {smart_max:.1f} %"
    return Measured(None, text, {"fixed_max_pct": float(fixed_max.max()),
                                 "smart_max_pct": smart_max}, _ok(ok),
                    f"Peak debt as % of the pool: {text}"
                    + ("." if ok else "; a scheduler lets the debt past its bucket."))


def measure_s4(inputs) -> Measured:
    """The fixed baseline's calibrated ramp against the paper's numbers, mean over seeds."""
    v, q = (float(inputs["fixed_df"][c].mean()) for c in ("violation_pct", "queued_pct"))
    (low, high) = inputs["ramp"]
    return Measured({"violation": v, "queued": q}, f"{v:.1f} % / {q:.1f} %",
                    {"violation_pct": v, "queued_pct": q, "ramp": [low, high]},
                    reason=f"Fixed 40–50 % bucket with the calibrated ramp {low}→{high} cores; the "
                    "ramp was chosen from the grid of section 6 to land here.")


def measure_s8(inputs) -> Measured:
    """Queued % < violation % for both schemes on every seed, as in the paper's numbers. Not
    true by definition: a violation bin queues only its IO above capacity, so queued % is at
    most the demand-weighted share of the violation bins, which exceeds their share of the time
    when they are the busy ones."""
    fixed, smart = inputs["fixed"], inputs["smart"]
    below = {name: bool((f.queued_pct < f.violation_pct).all())
             for name, f in (("fixed", fixed), ("smart", smart))}
    (fv, fq), (sv, sq) = ((f.violation_pct.mean(), f.queued_pct.mean()) for f in (fixed, smart))
    reason = (f"Mean over seeds: fixed {fq:.1f} % queued of {fv:.1f} % violations (ratio "
              f"{fq / fv:.2f}), smart {sq:.1f} % of {sv:.1f} % ({sq / sv:.2f}); the paper's "
              "ratios are 0.40 and 0.42. Queued % below violation % does not follow from the "
              "definitions: it holds only where the violation bins queue a small part of their IO")
    if all(below.values()):
        reason += ", as they do here on every seed."
    else:
        failing = [name for name, v in below.items() if not v]
        who = "both schemes queue" if len(failing) == 2 else f"the {failing[0]} scheme queues"
        reason += (f"; on some seed {who} a larger share of the IO than the share of violation "
                   "bins: the violations fall in the busiest bins and queue much of their IO.")
    return Measured(None, f"{fq:.1f} < {fv:.1f}; {sq:.1f} < {sv:.1f} %",
                    {"fixed": [fv, fq], "smart": [sv, sq], "below_every_seed": below},
                    _ok(all(below.values())), reason)


def measure_s10(inputs) -> Measured:
    diff, shift = inputs["max_diff_pp"], inputs["tick_shift_pp"]
    ran = shift is not None and math.isfinite(shift)
    ok = diff <= S10_AGREE_PP and (not ran or shift <= S10_TICK_PP)
    said = f"{shift:.2f} pp" if ran else "not run"
    return Measured(None, f"max difference {diff:.3g} pp; 60 s tick shift {said}",
                    {"max_diff_pp": diff, "tick_shift_pp": shift}, _ok(ok),
                    f"Largest simpy-vs-fluid difference in violation or queued % {diff:.3g} pp "
                    f"(section 5); 60 s tick shift {said} (section 9)"
                    + ("." if ok else ": the two models or the two ticks disagree."))


def measure_s11(inputs) -> Measured:
    same = bool(inputs["same"])
    return Measured(None, "identical tick logs" if same else "tick logs differ",
                    {"identical": same}, _ok(same),
                    "Seed 0's trace, forecasts and smart run rebuilt from scratch give "
                    + ("the same tick log." if same else "another tick log: some stream is not "
                       "seeded."))


# ---------------------------------------------------------------- scheduler: the paper's claims


def scheduler_inputs(runs: Mapping, idle_only: list, times: pd.DatetimeIndex, system) -> dict:
    """The inputs of S5, S6, S7 and S9 under one reading's runs (``{"fixed": {pool factor:
    results}, "smart": {...}, "oracle": results}``, see
    :func:`storrepro.papers.vdi.experiment.sweeps.reading_sets`), with the idle-only runs and the
    window's tick times; ``system``: the simulated array."""
    fixed, smart = runs["fixed"][1.0], runs["smart"][1.0]
    causes = [violation_causes(r, system.n_cores, system.fg_iops_per_core) for r in smart]
    return {
        "fixed": per_seed_frame(fixed), "smart": per_seed_frame(smart),
        "causes": {k: float(np.mean([c[k] for c in causes])) for k in causes[0]},
        "oracle": mean_violation(runs["oracle"]), "idle_only": mean_violation(idle_only),
        "pools": {f"×{k:g}": (per_seed_frame(runs["fixed"][k]).violation_pct,
                              per_seed_frame(runs["smart"][k]).violation_pct)
                  for k in runs["smart"] if k != 1.0},
        "dynamics": dynamics(fixed[0], smart[0], times, system.low, system.high),
    }


def measure_s5(inputs) -> Measured:
    """The smart scheduler, frozen knobs, one run per seed (``smart``: per-seed frame)."""
    smart = inputs["smart"]
    sv = interval(smart.violation_pct, of="smart violation %")["mean"]
    queued = interval(smart.queued_pct, of="smart queued IO % (mean over seeds)")
    sq = queued["mean"]
    return Measured({"violation": list(smart.violation_pct), "queued": list(smart.queued_pct)},
                    f"{sv:.1f} % / {sq:.1f} %",
                    {"violation_pct": sv, "queued_pct": sq, "queued": queued,
                     "causes_pp": dict(inputs.get("causes") or {}),
                     "oracle_violation_pct": inputs.get("oracle")})


def explain_s5(inputs, verdict: str, measured: Measured) -> str:
    """Where the smart violations come from (``causes``, mean over seeds) and what a perfect
    forecast (``oracle``: the same scheduler fed the actual trace) leaves of them."""
    causes, oracle = inputs.get("causes"), inputs.get("oracle")
    sv, band = measured.extra["violation_pct"], _ROWS["S5"].bands()["violation"]
    said = []
    if causes:
        said.append(f"Of the violation bins, {causes['planner']:.1f} pp are ticks where the "
                    f"planner took FG cores, {causes['capacity']:.1f} pp bins above the "
                    f"3,200-IOPS FG capacity, {causes['emergency']:.1f} pp emergency burns "
                    "(section 8).")
    if oracle is not None:
        own, tail = sv - oracle, "."
        if oracle > band.high and own <= S7_MARGIN:
            tail = ": a perfect forecast does no better, so the forecast is not the cause."
        elif oracle > band.high:
            tail = (f": a perfect forecast leaves it above the band too, and the forecast adds "
                    f"{own:.1f} pp to it.")
        elif oracle > 6.2 and sv > band.high:
            tail = (f": {own:.1f} pp of the gap are the forecast's, {oracle - 6.2:.1f} pp remain "
                    "with a perfect forecast.")
        said.append(f"Fed the actual trace (oracle) it gives {oracle:.1f} %{tail}")
    if sv > band.high and causes and causes["planner"] >= max(causes.values()):
        said.append("The excess comes from the planner's stolen cores on a pool the cap binds.")
    elif sv < band.low:
        said.append("Below the paper's: the planner barely has to take FG cores — the pool is "
                    "large enough that the 95 % cap seldom binds — so only the bins above "
                    "capacity remain.")
    return " ".join(said)


def measure_s6(inputs) -> Measured:
    """The per-seed ratios fixed/smart of violation and queued % (a smart % floored at
    :data:`S6_FLOOR_PCT`), aggregated by their geometric mean, and smart < fixed on every seed
    at every pool size (``pools``: label -> (fixed, smart) per-seed violation %) — else not
    reproduced."""
    fixed, smart = inputs["fixed"], inputs["smart"]
    ratios = {c: list((fixed[f"{c}_pct"] / smart[f"{c}_pct"].clip(lower=S6_FLOOR_PCT))
                      .to_numpy(dtype=float)) for c in ("violation", "queued")}
    pairs = {"×1": (fixed.violation_pct, smart.violation_pct), **dict(inputs.get("pools") or {})}
    worse = [label for label, (f, s) in pairs.items() if not (s < f).all()]
    u_v, u_q = (estimate(ratios[c], p.of, "geomean") for c, p in
                zip(ratios, _ROWS["S6"].parts, strict=True))
    everywhere = "yes" if not worse else "no, not at " + ", ".join(worse)
    return Measured(
        ratios, f"{u_v['mean']:.2f}× / {u_q['mean']:.2f}×",
        {"ratio_violation": u_v["mean"], "ratio_queued": u_q["mean"], "queued": u_q,
         "fixed": [float(fixed.violation_pct.mean()), float(fixed.queued_pct.mean())],
         "smart": [float(smart.violation_pct.mean()), float(smart.queued_pct.mean())],
         "smart_below_fixed_everywhere": not worse, "pools_failing": worse},
        "not reproduced" if worse else "",
        f"Paper {S6_PAPER['violation']:.1f}× / {S6_PAPER['queued']:.1f}×; smart < fixed on every "
        f"seed at pool sizes {', '.join(pairs)}: {everywhere}.")


def explain_s6(inputs, verdict: str, measured: Measured) -> str:
    return ("The direction holds everywhere, the size does not: the smart scheduler's own "
            "violations (S5) keep the ratio short.") if verdict == "partly" else ""


def measure_s7(inputs) -> Measured:
    """Idle-only steals no FG core, and a perfect forecast should not plan worse."""
    idle, oracle = inputs["idle_only"], inputs["oracle"]
    forecast = float(inputs["smart"].violation_pct.mean())
    first, second = idle <= oracle, oracle <= forecast + S7_MARGIN
    reason = (f"Mean violation %: idle-only (unlimited debt) {idle:.1f}, smart with the actual "
              f"trace {oracle:.1f}, smart with the forecast {forecast:.1f} (section 8).")
    if not first:
        reason += " The oracle run violates less than idle-only: it must be wrong."
    elif not second:
        reason += (f" The oracle is worse than the forecast by {oracle - forecast:.1f} pp: the "
                   "planner does not profit from a better forecast.")
    return Measured(None, f"{idle:.1f} ≤ {oracle:.1f} ≤ {forecast:.1f} %",
                    {"idle_only": idle, "oracle": oracle, "forecast": forecast},
                    _ok(first and second), reason)


def measure_s9(inputs) -> Measured:
    """Seed 0's fixed debt in its band in busy hours; smart debt rises toward (not above) 95 %
    and drains at night. Largely by construction (the fixed bucket's band, the smart cap): it
    shows the runs behave as Figs. 13 and 14 describe, not that the paper holds."""
    m = inputs["dynamics"]
    band, peak, drains = m["band_share"], m["smart_peak"], m["drains"]
    lo, hi = S9_SMART_PEAK
    parts = {"fixed in band": band >= S9_IN_BAND, "smart peak": lo <= peak <= hi,
             "night drains": drains >= S9_DRAINS}
    text = (f"fixed in band {band:.0%} of busy ticks; smart peak {peak:.0%}, drains on "
            f"{drains}/{m['nights']} nights")
    reason = f"Seed 0's tick logs (Figs. 13, 14 analogues): {text}."
    if not all(parts.values()):
        reason += f" Missing: {', '.join(k for k, v in parts.items() if not v)}" + (
            " — the smart debt never nears the cap because the pool is larger than the week's "
            "debt needs." if not parts["smart peak"] and peak < lo else ".")
    return Measured(None, text, dict(m), _ok(all(parts.values())), reason)


def measure_s12(inputs) -> Measured:
    """S5's and S6's verdicts by their own rows at each pool scale (P times a factor; the paper
    never gives P); ``scales``: factor -> (fixed, smart) per-seed frames."""
    by, module = {}, sys.modules[__name__]
    for factor, (fixed, smart) in sorted(inputs["scales"].items()):
        at = {"fixed": fixed, "smart": smart}
        s5, s6 = (judge_row(_ROWS[c], module, at, {}) for c in ("S5", "S6"))
        by[factor] = {"S5": s5.verdict, "S6": s6.verdict,
                      "smart_violation_pct": s5.values["violation_pct"],
                      "ratio_violation": s6.values["ratio_violation"]}
    ok = all(len({r[c] for r in by.values()}) == 1 for c in ("S5", "S6"))
    listed = "; ".join(f"×{f:g}: smart {r['smart_violation_pct']:.1f} % (S5 {r['S5']}), "
                       f"{r['ratio_violation']:.1f}× (S6 {r['S6']})" for f, r in by.items())
    return Measured(None, listed, {f"×{f:g}": r for f, r in by.items()}, _ok(ok),
                    f"Fixed and smart runs of every seed with P times each factor, under the "
                    f"primary readings: {listed}." + ("" if ok else " The verdicts move with P: "
                                                      "where the 95 % cap binds decides them."))


# ---------------------------------------------------------------- real production VMs (issue 48)


def _real_gap(inputs, first: str, second: str) -> pd.Series:
    """Per real VM, ``first`` − ``second`` SMAPE (pp), the VMs that have both."""
    table = inputs["table"]
    return (table[first] - table[second]).dropna() if table is not None else pd.Series([])


def _no_vm(inputs, why: str) -> Measured:
    """Not checkable: no real-VM file (the inputs' ``why`` names the source and the
    parameter), or no VM with what the claim reads."""
    return Measured([], "—", {"input": ""}, "not checkable",
                    f"Not checkable: {inputs.get('why') or why}.")


def _on(inputs) -> str:
    return f" Judged on {inputs['on']}." if inputs.get("on") else ""


def _median_gap(inputs, gap: pd.Series, short: str, said: str = ".") -> Measured:
    """The proposed model's SMAPE minus another's per real VM (``gap``, paired: both on the same
    VM's last whole day), judged by the median over the VMs."""
    median = float(np.median(gap.to_numpy(dtype=float)))
    return Measured(list(gap), f"median proposed − {short} {median:+.2f} pp over {len(gap)} VMs",
                    {"gap_pp": gap.to_dict(), "median_gap_pp": median, "n_vms": len(gap),
                     "input": inputs["on"]},
                    reason=f"The proposed model is ahead on {int((gap < 0).sum())} of {len(gap)} "
                    f"VMs, each on its last whole day{said}" + _on(inputs))


def measure_f5_real(inputs) -> Measured:
    """Against Holt-Winters (bootstrap over the VMs); ``table``:
    :func:`~storrepro.papers.vdi.experiment.real_vms.real_table`, None (with ``why``) without a
    real-VM file."""
    gap = _real_gap(inputs, "proposed", "holt-winters")
    if gap.empty:
        return _no_vm(inputs, "no VM has both models' look-back plus a forecast day")
    both = inputs["table"].loc[gap.index]
    return _median_gap(inputs, gap, "HW", f"; the paper's gap is {F5_PAPER_GAP:+.1f} pp. Mean "
                       f"SMAPE proposed {both.proposed.mean():.1f} %, Holt-Winters "
                       f"{both['holt-winters'].mean():.1f} %.")


def measure_f5a_real(inputs) -> Measured:
    """Per real VM with both look-backs, Holt-Winters' SMAPE minus ARIMA's (a divergent ARIMA
    fit counts 200 %, F9's rule); the proposed/ARIMA ratio (the paper's 'by half') and the VMs
    ranked proposed < Holt-Winters < ARIMA beside it."""
    gap = _real_gap(inputs, "holt-winters", "arima")
    if gap.empty:
        return _no_vm(inputs, "no VM of the study has both models' look-back plus a forecast "
                      "day (ARIMA reads 9 days under the primary protocol, the VMs about a "
                      "week): the claim is judged only under train_window=all-3, whose ARIMA "
                      "reads 3 (see that reading's consistency record)")
    both = inputs["table"].loc[gap.index]
    ratio = float((both.proposed / both.arima).median())
    ranked = int(((both.proposed < both["holt-winters"]) & (both["holt-winters"]
                                                             < both.arima)).sum())
    return Measured(list(gap), f"HW − ARIMA mean {float(gap.mean()):+.1f} pp, proposed/ARIMA "
                    f"{ratio:.2f}, ranked on {ranked} of {len(gap)} VMs",
                    {"gap_pp": gap.to_dict(), "ratio": ratio, "ranked": ranked,
                     "n_vms": len(gap), "input": inputs["on"]},
                    reason=f"Per VM: {', '.join(f'{vm} {g:+.1f}' for vm, g in gap.items())}. "
                    f"Proposed / ARIMA median {ratio:.2f} (paper 0.53); ranked proposed < "
                    f"Holt-Winters < ARIMA on {ranked} of {len(gap)} VMs. A divergent ARIMA fit "
                    "counts 200 % (F9's rule)." + _on(inputs))


def measure_f10_real(inputs) -> Measured:
    """Per real VM, the proposed model against yesterday's same snapshots."""
    gap = _real_gap(inputs, "proposed", "seasonal-naive")
    if gap.empty:
        return _no_vm(inputs, "no VM has the look-back")
    return _median_gap(inputs, gap, "naive")


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
        f"Forecasters: F5 not checkable — {f5['reason']}" if f5["verdict"] == "not checkable"
        else f"Forecasters: F5 {f5['verdict']} — proposed minus Holt-Winters SMAPE per seed "
        + ", ".join(f"{g:+.2f}" for g in gap["gap_pp"])
        + f" pp, median {gap['median_gap_pp']:+.2f} pp, mean "
        f"{ci_text(f5['uncertainty'], '{:+.2f}')} pp, against the paper's −4.4 pp.",
        f"Scheduler under the primary readings: S5 {s5['verdict']} ({s5['reproduced_value']}), "
        f"S6 {s6['verdict']} ({s6['reproduced_value']}).",
    ]
    protocol = [m for m, r in f5["by_reading"].items() if r["verdict"] != f5["verdict"]]
    if protocol:
        parts[0] += (" F5 hangs on the forecasting protocol: "
                     + "; ".join(f"{m}: {_under(f5, m)}" for m in protocol) + ".")
    causes = s5["values"].get("causes_pp") or {}
    if s5["verdict"] != "reproduced" and causes:
        parts[-1] = parts[-1][:-1] + (
            f": {causes['planner']:.1f} pp of the smart violations come from ticks where the "
            "planner takes FG cores on a pool the 95 % cap binds.")
    moving = [label for label in s5["by_reading"]
              if any(c["by_reading"][label]["verdict"] != c["verdict"] for c in (s5, s6))]
    if moving:
        parts.append("S5/S6 hang on " + ", ".join(sorted({m.split("=")[0] for m in moving}))
                     + ": " + "; ".join(f"{m}: {_under(s5, m)}, {_under(s6, m)}" for m in moving)
                     + ".")
    if "S12" in claims:
        scales = claims["S12"]["values"]
        path = "; ".join(f"{c} " + " → ".join(v for v, _ in groupby(r[c] for r in scales.values()))
                         for c in ("S5", "S6"))
        low, high = list(scales)[0], list(scales)[-1]  # in increasing scale
        first, last = scales[low]["smart_violation_pct"], scales[high]["smart_violation_pct"]
        parts.append(f"Scaling P from {low} to {high} (S12) takes the smart violations "
                     f"from {first:.1f} % to {last:.1f} %: {path}.")
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
        said += f"; F5a-real {verdict_words(arima)}"
    return f"On real production VMs, judged apart from the stand-in: {said}."


def _summary(claims: Mapping) -> str:
    """The headline in plain words (at most 40): the verdict, the forecaster against
    Holt-Winters as measured (the median per-seed gap), and whether the scheduler's cut holds at
    every pool size judged (the pool readings and S12's scales), at some, or at none."""
    f5, s5, s6 = claims["F5"], claims["S5"], claims["S6"]
    verdict = headline_verdict(c["verdict"] for c in (f5, s5, s6))
    gap = f5["values"]["median_gap_pp"]
    ahead = f" (error a median {abs(gap):.2f} percentage points {'lower' if gap < 0 else 'higher'}"
    parts = f5["values"].get("verdict_per_part", {})
    first, second = (parts.get(p.name, "not checkable") for p in (_HW_PART, _ARIMA_PART))
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
