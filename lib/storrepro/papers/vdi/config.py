"""Parameters of notebook 03 (smart background scheduling for VDI), the readings of the
paper's open choices that move its verdicts, and the simulated system they describe."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from storrepro.suite.config import (
    NotebookConfig,
    Param,
    ParameterError,
    Reading,
    real_vm_params,
    trace_params,
)

#: Pool size an earlier scratch prototype of the same generator reported: 75–81 M blocks over
#: its seeds 0–4; the ``pool=prototype`` reading uses the middle on every seed.
PROTOTYPE_POOL = 78e6

#: How the pool size P is set (reading ``pool``).
POOL_RULES = {
    "a7": "P = the peak debt of an unlimited replay of the 6-day window that frees debt only on "
    "the cores FG leaves idle, FG sized ⌈A/50⌉ from the demand A, so the 95 % cap just binds "
    "(54–71 M blocks on seeds 0–4)",
    "a7-forecast": "the same replay with FG sized the way the smart scheduler sizes it, "
    "⌈max(A, Â)/50⌉ with Â the proposed model's day-ahead forecast (61–78 M blocks)",
    "prototype": f"P = {PROTOTYPE_POOL / 1e6:g} M blocks on every seed, the middle of the "
    "75–81 M blocks the scratch prototype of the same generator reported",
}

#: The planner's spreading rule (reading ``spread``).
SPREADS = {
    "bg-floor": "each planner iteration raises a floor on the BG cores by one over the window "
    "before the breach; FG keeps every core above the floor, so only ticks whose idle cores "
    "fall short of the floor lose FG cores",
    "even-cores": "each planner iteration steals one more FG core (CFF + 1) in every tick of the "
    "window before the breach where FG still has one, whatever the idle cores already give BG",
}

#: How many preceding days of the target's cluster each model learns from (reading
#: ``train_window``).
TRAIN_WINDOWS = {
    "p-syn": "the proposed model and Holt-Winters learn from the 3 preceding weekday-cluster "
    "days, ARIMA from the 9 preceding ones (ridge-CSS, a stable fit required)",
    "hw-9": "Holt-Winters learns from ARIMA's 9 preceding cluster days; the proposed model "
    "keeps its 3",
    "all-3": "every model learns from the 3 preceding cluster days, ARIMA too (plain CSS: the "
    "ridge choice needs a fourth day to hold out; a divergent fit scores 200 %)",
}

#: What the proposed model averages (reading ``proposed_history``).
PROPOSED_HISTORIES = {
    "cluster-3": "an EWMA of the 3 preceding cluster days, slot by slot (trend and season "
    "both over those days)",
    "weekly": "the historical weeks: trend an EWMA of the same weekday over the previous "
    "weeks, season an EWMA over every earlier same-cluster day (the scheduler's forecaster)",
}

#: The α of the forecasters compared in F5, F7, F8 (reading ``forecast_alpha``); the
#: scheduler's books keep the ``alpha`` parameter.
FORECAST_ALPHAS = {
    "as-set": "α = the notebook's alpha parameter (0.5 in both profiles)",
    "0.3": "α = 0.3 (older days weigh more)",
    "0.7": "α = 0.7 (the most recent day weighs most)",
}

#: The readings of the forecasting protocol: they move F5, F7 and F8, never the scheduler.
FORECAST_READINGS = ("train_window", "proposed_history", "forecast_alpha")

#: reading name -> the SystemParams field it sets
READING_FIELDS = {"pool": "pool_rule", "spread": "spread"}


@dataclass(frozen=True)
class SystemParams:
    """The simulated array (cores, per-core rates, the fixed bucket's 40–50 % band) and the
    smart planner (cap, horizon, window, replan period); times in s."""

    n_cores: int = 64
    fg_iops_per_core: float = 50.0
    bg_blocks_per_core_s: float = 20.0
    cap: float = 0.95
    low: float = 0.40
    high: float = 0.50
    horizon_s: float = 86_400.0
    window_s: float = 43_200.0
    replan_s: float = 3_600.0
    alpha: float = 0.5
    spread: str = "bg-floor"
    pool_rule: str = "a7"

    def __post_init__(self):
        for name, known in (("spread", SPREADS), ("pool_rule", POOL_RULES)):
            if getattr(self, name) not in known:
                raise ValueError(f"{name} must be one of {tuple(known)}, got "
                                 f"{getattr(self, name)!r}")


class VdiConfig(NotebookConfig):
    notebook = "03_vdi_background"
    title = "smart background scheduler"
    reproduces = (
        "VDI IO forecasting (proposed EWMA, Holt-Winters, ARIMA), debt bucketing, fixed vs "
        "dynamic watermark on a 64-core pool"
    )
    trace_replaces = (
        "the foreground IOPS per 10 minutes (all volumes together), laid on the stand-in's "
        "calendar and repeated if shorter"
    )
    paper = (
        "M. Kachmar, D. Kaeli: A Smart Background Scheduler for Storage Systems, "
        "MASCOTS 2020 (arXiv 2006.01402)"
    )
    full_cost = (47.0, 1031.0, 1092.0)  # full s, quick and full peak MiB
    params = {
        "seeds": Param(int, 2, 5, "independent synthetic traces (seeds 0..seeds-1)", low=1,
                       high=20, grows="time"),
        "n_cores": Param(int, 64, 64, "datapath cores N", low=1, high=1024),
        "fg_iops_per_core": Param(float, 50.0, 50.0, "FG IOPS one core serves", low=1e-3),
        "bg_ops_per_core": Param(float, 20.0, 20.0, "BG debt blocks freed per core-second",
                                 low=1e-3),
        "cap": Param(float, 0.95, 0.95, "dynamic bucket cap, fraction of the pool in (0, 1]"),
        "alpha": Param(float, 0.5, 0.5, "EWMA smoothing factor of the proposed forecaster"),
        "window_h": Param(float, 12.0, 12.0, "planner: window before a breach (h)", low=1, high=24),
        "horizon_h": Param(float, 24.0, 24.0, "planner: look-ahead (h)", low=1, high=24),
        "sensitivity": Param(bool, True, True, "run the sensitivity section"),
        **trace_params("the synthetic VDI foreground IOPS"),
        **real_vm_params(),
    }
    readings: ClassVar[dict[str, Reading]] = {
        "pool": Reading(
            question="How large is the storage pool P that the deferred debt may fill?",
            paper_words=(
                'The paper gives no pool size: "We fix the debt bucket size to a range between '
                '40 and 50% of total pool size"; "The debt bucket implementation can grow up '
                'to 95% of pool size as long as the forecasted data allows."'
            ),
            primary="a7",
            alternatives=POOL_RULES,
            argument=(
                "The paper sizes both buckets relative to a pool it never states, so P comes "
                "from a rule. The A7 rule (the idle-only replay's peak debt) was planned before "
                "the code was written, is in the code since the notebook's first commit, before "
                "any result, and is computed "
                "from each seed's own trace; the prototype's 78 M blocks is a number from "
                "another implementation's random streams. The A7 replay sizes FG by ⌈A/50⌉ "
                "while the scheduler whose pool it sizes uses ⌈max(A, Â)/50⌉: `a7-forecast` "
                "sizes it the scheduler's way. It was added after a review reported what it "
                "gives (S5 9.1 % / 1.8 %, S6 5.8× on the means), so it is an alternative, "
                "judged beside the primary, not the primary; P moves S5 and S6 either way (S12 "
                "scales it)."
            ),
            kind="modelling",
        ),
        "spread": Reading(
            question="How does the planner spread the extra background work over the period "
            "before a forecast breach of 95 %?",
            paper_words=(
                '"The dynamic bucket algorithm maximizes foreground I/O as long there are free '
                "pool capacity. If a future period is observed where pool capacity will be 95% "
                "depleted, a greedy algorithm evenly spreads enough background load to a relative "
                "prior period. [...] Several iterations are needed to replay the forecasted data "
                "series and slowly increase the background processing rate so to find the optimal "
                'partition point between foreground and background cores."'
            ),
            primary="bg-floor",
            alternatives=SPREADS,
            argument=(
                'What the text spreads evenly is "background load", and what the iterations '
                'raise is "the background processing rate": a per-tick BG rate over the prior '
                "period, not a count of cores taken from FG. BG already runs on every idle core "
                '("harvest every ounce of processing capacity"), and FG is maximized "as long '
                'there are free pool capacity", so raising the BG rate takes FG cores only where '
                "the idle ones do not already give that rate. Stealing one core in every tick "
                "whatever BG already has (the earlier resolution) spreads stolen cores, not load. "
                "Against it, the paper's core formula C_FG = IOPS_a/CIOPS_FG − CFF, CFF being "
                '"the extra cores we need to steal from the set servicing foreground IOs", and '
                '"evenly spreads" lean to `even-cores`. This primary was chosen after the '
                "earlier rule's S5 was committed (19.4 % violations in the results of 3831bc6; "
                "bg-floor, set in 3f82af2, gives 13.8 %), so both rules are judged and shown "
                "side by side."
            ),
        ),
        "train_window": Reading(
            question="From how many preceding days of the target's cluster does each model "
            "learn its one-day forecast?",
            paper_words=(
                '"we used the standard ARIMA model to train on a cluster of days that has a '
                'stationary trend property"; Fig. 10: "ARIMA forecasting performance on a '
                'cluster of 3 days"; Fig. 12: "Prediction by averaging trend and season of '
                "historical week's data\"; Holt-Winters' history is not given"
            ),
            primary="p-syn",
            alternatives=TRAIN_WINDOWS,
            argument=(
                "The paper names a 3-day cluster only in Fig. 10's caption and gives no "
                "window for Holt-Winters. The primary is the protocol the forecasting study "
                "used before this reading was registered (books.HISTORY_DAYS): the 3 days "
                "of Fig. 10 for the two smoothing models, 9 for ARIMA(144,0,2), whose 146 "
                "regressors over-fit 3 days (a plain fit on 3 days is divergent on every seed, F9)."
                " `hw-9` gives Holt-Winters ARIMA's longer history, `all-3` holds every model "
                "to the caption's 3 days; the alternatives were added after a review reported "
                "F5's median gap under them (Holt-Winters on 9 days +0.48 pp), so they are "
                "judged beside the primary. The paper's 'ARIMA achieves [...] 27.8%' rules `all-3` "
                "out (the consistency record: its plain 3-day fits diverge, 200 %); its "
                "Holt-Winters 19.2 % leaves `hw-9` and the primary possible. The check leans to "
                "the primary: the stand-in's noise (σ = 0.45, F6) was calibrated on the primary "
                "protocol's forecasts to land their SMAPEs near the paper's, so the primary's "
                "'possible' here and under proposed_history and forecast_alpha is partly by "
                "construction, and an alternative that only moves a model's SMAPE level could be "
                "ruled out by that calibration rather than by the paper. `all-3`'s exclusion does "
                "not rest on the level: its fits diverge (146 regressors on 3 days)."
            ),
            kind="resolution",
        ),
        "proposed_history": Reading(
            question="Which history does the proposed model average for its forecast?",
            paper_words=(
                '"we use an exponentially weighted moving average (EWMA) of the trend with a '
                'weekly cycle and season based on daily cycle"; Fig. 12: "Prediction by '
                "averaging trend and season of historical week's data\""
            ),
            primary="cluster-3",
            alternatives=PROPOSED_HISTORIES,
            argument=(
                "F5 compares three models on one protocol, so the primary gives the proposed "
                "model the history the other two have (the 3 preceding cluster days; within one "
                "cluster its trend and season reduce to one slot-wise EWMA). The paper's words "
                "(a weekly trend, Fig. 12's 'historical week's data') describe the `weekly` "
                "variant, the one the scheduler uses; it was judged for F5 only after a review "
                "reported its gap (+0.18 pp), so it is an alternative, not the primary."
            ),
            kind="resolution",
        ),
        "forecast_alpha": Reading(
            question="Which smoothing factor α do the proposed model's EWMAs use in the "
            "forecasting comparison?",
            paper_words=(
                '"The coefficient α represents the degree of weighting decrease, a constant '
                'smoothing factor between 0 and 1. A higher α discounts older observations '
                'faster." No value is given.'
            ),
            primary="as-set",
            alternatives=FORECAST_ALPHAS,
            argument=(
                "The paper gives no α; 0.5, the middle of (0, 1), is the `alpha` parameter's "
                "value since the notebook's first commit and was not tuned (section 4's α "
                "table shows the others). 0.3 and 0.7 are judged beside it; a review "
                "reported F5's median gap at 0.7 (+0.60 pp) before they were added."
            ),
            kind="resolution",
        ),
    }

    #: On a user's trace: its first bin is laid on the stand-in's calendar (Wednesday
    #: 2016-01-27 00:00), so its days of the week are not the trace's; and every seed reads the
    #: same trace, so the seeds are replicates of it.
    trace_words = {
        r"\bseeds' runs\b": "runs on the trace",
        r"\bseeds\b": "replicates of the trace",
        r"\bseed\b": "replicate",
        r"\bSeed\b": "Replicate",
        r"\bthis stand-in\b": "this trace",
    }

    trace_module = "storrepro.papers.vdi.workload"  # trace_needs(cfg): what it needs of a trace
    paper_link = "https://doi.org/10.1109/MASCOTS50786.2020.9285967"

    def __init__(self, profile: str = "full", seed: int | None = 0, **values):
        super().__init__(profile, seed, **values)
        if self.trace and values.get("seeds") is None:
            self.seeds = 1  # every seed reads the same trace: more would repeat one run

    def validate(self) -> None:
        if not 0 < self.cap <= 1:
            raise ParameterError(f"parameter 'cap' = {self.cap!r}: expected a fraction in (0, 1]")
        if not 0 < self.alpha < 1:
            raise ParameterError(f"parameter 'alpha' = {self.alpha!r}: expected a value in (0, 1)")
        if self.window_h > self.horizon_h:
            raise ParameterError(
                f"parameter 'window_h' = {self.window_h!r}: must not exceed "
                f"horizon_h = {self.horizon_h!r}"
            )

    @property
    def system(self) -> SystemParams:
        """The simulated system of this run, under the primary readings."""
        return SystemParams(
            n_cores=self.n_cores,
            fg_iops_per_core=self.fg_iops_per_core,
            bg_blocks_per_core_s=self.bg_ops_per_core,
            cap=self.cap,
            horizon_s=3600.0 * self.horizon_h,
            window_s=3600.0 * self.window_h,
            alpha=self.alpha,
            **{f: self.readings[r].primary for r, f in READING_FIELDS.items()},
        )

    @classmethod
    def scheduler_labels(cls) -> list[str]:
        """The alternative readings that change the simulated system (not the forecasting
        protocol's)."""
        return [x for x in cls.reading_labels() if x.split("=")[0] in READING_FIELDS]

    @classmethod
    def forecast_labels(cls) -> list[str]:
        """The alternative readings of the forecasting protocol (F5, F7, F8)."""
        return [x for x in cls.reading_labels() if x.split("=")[0] in FORECAST_READINGS]

    def system_under(self, label: str):
        """The system with one reading ``"name=value"`` changed from the primary."""
        name, value = label.split("=", 1)
        if name not in READING_FIELDS or value not in self.readings[name].alternatives:
            raise ValueError(f"unknown reading {label!r}; declared: {self.reading_labels()}")
        return dataclasses.replace(self.system, **{READING_FIELDS[name]: value})
