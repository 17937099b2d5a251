"""The tables notebook 03 shows, from its sweeps' results: characterization, forecast accuracy
and the α sweep, the comparison of schemes, the sensitivity runs, the readings and the live
control's day. Plain pandas on the results the modules of :mod:`storrepro.papers.vdi.experiment`
return."""

from __future__ import annotations

import numpy as np
import pandas as pd

from storrepro.papers.vdi.books import PROTOCOL_ROWS
from storrepro.papers.vdi.metrics import (
    LATENCY_SLO_S,
    latency_violation_pct,
    per_seed_frame,
    summary_frame,
)
from storrepro.papers.vdi.seeds import PSYN_DAY, TREND_DAYS, WINDOW_DAY

#: The characterization measures the F1–F4 rules read, one row per seed.
CHARACTERIZATION_COLUMNS = (
    "acf_argmax",
    "acf144",
    "acf72",
    "lag144_r",
    "wtf_spread",
    "weekend_ratio",
    "monday_ratio",
    "kmeans_ok",
)

#: Row order of the accuracy table, and the paper's SMAPE (its ARIMA row for both ARIMA fits).
ACCURACY_ORDER = (
    "proposed",
    "holt-winters",
    "arima-ridge",
    "arima",
    "arima-3d",
    "seasonal-naive",
    "proposed-weekly",
    "holt-winters-9d",
)

PAPER_SMAPE = {"proposed": 14.8, "holt-winters": 19.2, "arima-ridge": 27.8, "arima": 27.8}

#: The paper's violation % and queued % of the two schemes it reports.
PAPER_SCHEMES = {"fixed": (54.6, 21.7), "smart (proposed)": (6.2, 2.6)}


def _seed_index(seed_results: list[dict]) -> pd.Index:
    return pd.Index([r["seed"] for r in seed_results], name="seed")


def characterization_table(seed_results: list[dict]) -> pd.DataFrame:
    """The characterization measures of :data:`CHARACTERIZATION_COLUMNS`, one row per seed."""
    rows = [
        {k: v for k, v in r["characterization"].items() if k in CHARACTERIZATION_COLUMNS}
        for r in seed_results
    ]
    return pd.DataFrame(rows, index=_seed_index(seed_results))


def trend_table(seed_results: list[dict]) -> pd.DataFrame:
    """Per seed, the trend's daily mean per calendar date (IOPS / 1000) and the K-means labels
    of the window's days, Wednesday to Monday."""
    table = pd.DataFrame(
        [r["characterization"]["trend_means"] / 1000 for r in seed_results],
        columns=list(TREND_DAYS),
        index=_seed_index(seed_results),
    )
    table["K-means labels (Wed..Mon)"] = [
        "".join(map(str, r["characterization"]["window_labels"])) for r in seed_results
    ]
    return table


def accuracy_rows(seed_results: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every seed's forecast scores, and the P-syn rows among them (day 2, the Friday)."""
    acc = pd.concat([r["accuracy"] for r in seed_results], ignore_index=True)
    return acc, psyn_rows(acc)


def psyn_rows(acc: pd.DataFrame) -> pd.DataFrame:
    """The P-syn rows of the accuracy rows (day 2, the Friday)."""
    return acc[acc.day == PSYN_DAY - WINDOW_DAY]


def protocol_inputs(seed_results: list[dict], labels) -> dict[str, tuple]:
    """Under the primary (key None) and each forecasting reading of ``labels``: the accuracy
    rows, their P-syn rows, and F8's cumulative errors (:func:`cumulative_errors`)."""
    acc = accuracy_rows(seed_results)[0]
    alpha_acc = pd.concat([r["alpha_accuracy"] for r in seed_results], ignore_index=True)
    out = {}
    for label in [None, *labels]:
        under = accuracy_under(acc, alpha_acc, label)
        out[label] = under, psyn_rows(under), cumulative_errors(under)
    return out


def accuracy_under(acc: pd.DataFrame, alpha_acc: pd.DataFrame, label: str | None) -> pd.DataFrame:
    """The accuracy rows as the forecasting protocol's reading ``label`` (None: the primary)
    scores them: the model a reading changes gets the rows of the variant it reads (``alpha_acc``:
    the proposed model's rows at each α, :func:`~storrepro.papers.vdi.experiment.forecast_study.
    alpha_accuracy`), under the model's own name, so every rule reads them unchanged."""
    if label is None:
        return acc
    name, value = label.split("=", 1)
    if name == "forecast_alpha":
        if value == "as-set":
            return acc
        model, rows = "proposed", alpha_acc[alpha_acc.alpha == float(value)].drop(columns="alpha")
        if rows.empty:
            raise ValueError(f"no accuracy rows at α = {value}; have {sorted(alpha_acc.alpha)}")
    elif label in PROTOCOL_ROWS:
        model, variant = PROTOCOL_ROWS[label]
        rows = acc[acc.model == variant]
    else:
        raise ValueError(f"unknown forecasting reading {label!r}")
    kept = acc[acc.model != model]
    return pd.concat([kept, rows.assign(model=model)], ignore_index=True)


def accuracy_table(seed_results: list[dict]) -> pd.DataFrame:
    """Per model: the paper's SMAPE, the P-syn SMAPE (mean, sd, 0–100 % variant), MPE and
    cumulative error, the SMAPE over all window days (none for a model scored on P-syn only),
    the divergent fits and the fit time."""
    acc, psyn = accuracy_rows(seed_results)
    by = psyn.groupby("model")
    every_day = acc[acc.model != "holt-winters-9d"]
    return pd.DataFrame(
        {
            "paper SMAPE %": pd.Series(PAPER_SMAPE),
            "P-syn SMAPE %": by.smape.mean(),
            "± sd": by.smape.std(),
            "SMAPE 0–100 %": by.smape100.mean(),
            "MPE %": by.mpe.mean(),
            "cum. error %": 100 * by.cum_err.mean(),
            "all days SMAPE %": every_day.groupby("model").smape.mean(),
            "divergent fits (P-syn)": by.divergent.sum(),
            "fit time (s)": pd.Series(seed_results[0]["fit_seconds"]),
        }
    ).loc[list(ACCURACY_ORDER)]


def alpha_table(seed_results: list[dict]) -> pd.DataFrame:
    """SMAPE of the proposed model per α, mean over seeds: P-syn and the weekly-trend variant."""
    table = (
        pd.concat([r["alpha"] for r in seed_results])
        .groupby("alpha")[["smape", "smape_weekly"]]
        .mean()
    )
    table.columns = ["P-syn SMAPE % (3 cluster days)", "all-days SMAPE % (weekly trend)"]
    return table


def cumulative_errors(acc: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """The end-of-day cumulative error of the proposed model, one row per (seed, day name)
    with ``cum_err``, and of its weekly-trend variant (F8). A plain frame rather than a
    MultiIndex series: the run's input digest reads flat indexes."""
    names = dict(enumerate(TREND_DAYS))  # the window's 07:00-aligned days, Wed..Mon
    proposed = acc[acc.model == "proposed"].assign(day=lambda d: d.day.map(names))
    weekly = acc[acc.model == "proposed-weekly"].cum_err.reset_index(drop=True)
    return proposed[["seed", "day", "cum_err"]].reset_index(drop=True), weekly


def comparison_table(results: list[dict]) -> pd.DataFrame:
    """Mean ± sd over seeds of each scheme's violation and queued %, its peak debt and the
    share of the debt freed, beside the paper's numbers."""
    summary = summary_frame(results)
    summary["scheme"] = [
        r["policy"] + (f" ({r['forecast']})" if r["forecast"] else "") for r in results
    ]
    table = summary.groupby("scheme", sort=False).agg(
        viol=("violation_pct", "mean"),
        viol_sd=("violation_pct", "std"),
        queued=("queued_pct", "mean"),
        queued_sd=("queued_pct", "std"),
        max_debt_pct=("max_debt_pct", "mean"),
        freed_pct=("freed_pct", "mean"),
    )
    paper = [PAPER_SCHEMES.get(s, (np.nan, np.nan)) for s in table.index]
    table.insert(0, "paper viol %", [v for v, _ in paper])
    table.insert(3, "paper queued %", [q for _, q in paper])
    return table


def sensitivity_frame(runs: dict, baseline: list[dict], per_core: float) -> pd.DataFrame:
    """One row per run of :func:`sensitivity_runs` and of the ``baseline`` runs: violation %,
    queued % and the latency-SLO violation % (:data:`LATENCY_SLO_S`)."""
    labelled = [(v, r) for v, by in runs.items() for rs in by.values() for r in rs]
    labelled += [("baseline", r) for r in baseline]
    return pd.DataFrame(
        [
            {
                "variant": v,
                "policy": r["policy"],
                "seed": r["seed"],
                "violation_pct": r["violation_pct"],
                "queued_pct": r["queued_pct"],
                "latency_violation_pct": latency_violation_pct(r["log"], per_core, LATENCY_SLO_S),
            }
            for v, r in labelled
        ]
    )


def fixed_day_table(day: dict) -> pd.DataFrame:
    """The live control's numbers for one :func:`fixed_day`: violations, queued IO, peak debt
    and the debt left at the end of the day (% of the pool)."""
    pool = day["pool_blocks"]
    row = {
        "band": f"{day['low']:.0%} -> {day['high']:.0%}",
        "violations %": day["violation_pct"],
        "IO queued %": day["queued_pct"],
        "peak debt % of pool": 100 * day["max_debt"] / pool,
        "debt left at 07:00 % of pool": 100 * day["final_debt"] / pool,
    }
    return pd.DataFrame([row]).set_index("band")


def reading_table(sets: dict[str, dict], causes: dict[str, dict]) -> pd.DataFrame:
    """Per reading: the mean pool size, the fixed bucket's and the smart scheduler's violation
    %, the smart queued %, the oracle's violation % and where the smart violations come from
    (``causes``: label -> pp per cause)."""
    rows = []
    for label, s in sets.items():
        fixed, smart = per_seed_frame(s["fixed"][1.0]), per_seed_frame(s["smart"][1.0])
        rows.append(
            {
                "reading": label,
                "P (M blocks, mean)": np.mean([r["pool_blocks"] for r in s["smart"][1.0]]) / 1e6,
                "fixed viol %": fixed.violation_pct.mean(),
                "smart viol %": smart.violation_pct.mean(),
                "smart queued %": smart.queued_pct.mean(),
                "oracle viol %": np.mean([r["violation_pct"] for r in s["oracle"]]),
                **{f"viol from {k} (pp)": v for k, v in causes[label].items()},
            }
        )
    return pd.DataFrame(rows).set_index("reading")


def pool_scale_table(by_scale: dict[float, tuple[pd.DataFrame, pd.DataFrame]]) -> pd.DataFrame:
    """Per pool scale (S12): the fixed and smart violation %, the smart queued % and the ratios
    fixed/smart, means over seeds of the per-seed frames ``(fixed, smart)``."""
    rows = []
    for factor, (fixed, smart) in sorted(by_scale.items()):
        rows.append(
            {
                "P scale": factor,
                "fixed viol %": fixed.violation_pct.mean(),
                "smart viol %": smart.violation_pct.mean(),
                "smart queued %": smart.queued_pct.mean(),
                "viol ratio (per-seed mean)": (fixed.violation_pct / smart.violation_pct).mean(),
                "queued ratio (per-seed mean)": (fixed.queued_pct / smart.queued_pct).mean(),
            }
        )
    return pd.DataFrame(rows).set_index("P scale")
