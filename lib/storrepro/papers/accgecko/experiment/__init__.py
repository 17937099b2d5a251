"""The experiment: its design here (the percentiles and SLO grid, the predictor configurations
(:class:`Method`), the readings of the open choices (:class:`Choice`), the burst intensities), its
runs and what is made of them in the modules beside it:

- ``sweeps``: the tenant pool's run, tenant by tenant (segments, allocations);
- ``intensity``: the burst-intensity sensitivity, a run of its own;
- ``accuracy``, ``admission_runs``, ``motivation``, ``underprediction``: the analyses of the
  pool's tables, by the paper's figures;
- ``model_checks``: the simulator and procedure checks; ``tables``: the reading tables."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from storrepro.papers.accgecko.workload import MEAN_RATE
from storrepro.suite.config import reading_label

PERCENTILES = (95.0, 99.0, 99.9, 99.99)
MOTIVATION_RATE = 3000.0  # IOPS: 1.5x the mean, a 333 µs service interval (paper §2)
SLO_GRID = {99.0: (150.0, 300.0, 500.0, 1000.0), 99.9: (300.0, 500.0, 1000.0, 2000.0)}  # µs
HEADLINE_SLO = {99.0: 300.0, 99.9: 500.0}
MMP_CEILING_US = 2 * max(max(grid) for grid in SLO_GRID.values())  # MMP's inf beyond it
BEST_K = {99.0: 3, 99.9: 5}  # the paper's best k per percentile (Fig. 10)
FEATURES = ("intensity", "total_burst_ms", "mean_duration_ms", "max_duration_ms")
HAND_RATES = np.linspace(1.6 * MEAN_RATE, 4 * MEAN_RATE, 25)  # section 7b's example, IOPS
LIVE_RATES = np.linspace(2500.0, 12_000.0, 39)  # the live AccTail control's rates, IOPS


@dataclass(frozen=True)
class Method:
    """A predictor configuration: ``kind`` in acctail/pm/sncm/mmp/queue/exact; ``k=0`` means
    BEST_K. ``queue`` and ``exact`` are this reproduction's reference predictors
    (:mod:`~storrepro.papers.accgecko.burst_queue`, :mod:`~storrepro.papers.accgecko.exact`), not
    the paper's."""

    name: str
    kind: str
    m: float = 1.5
    k: int = 1
    c_us: float = 25.0


ACCTAIL = Method("AccTail", "acctail", 1.5, 0, 25.0)
PM = Method("PM", "pm")
SNCM = Method("SNCM", "sncm")
QUEUE = Method("BurstQueue", "queue", 1.5, 1, 25.0)
EXACT = Method("Exact", "exact", c_us=0.0)
ADMISSION_METHODS = (PM, SNCM, ACCTAIL, QUEUE, EXACT)
ABLATION = (
    Method("MMP", "mmp", c_us=0.0),
    Method("DB", "acctail", 2.0, 1, 0.0),
    Method("DB+17µs", "acctail", 2.0, 1, 17.0),
    Method("DB+25µs", "acctail", 2.0, 1, 25.0),
    Method("M=1.5", "acctail", 1.5, 1, 25.0),
    Method("M=1.3", "acctail", 1.3, 1, 25.0),
    *(Method(f"k={k}", "acctail", 1.5, k, 25.0) for k in range(2, 8)),
)
ACCURACY_METHODS = ABLATION + ADMISSION_METHODS
EXPLAIN_SLO = HEADLINE_SLO  # the allocations the under-prediction experiment looks at


@dataclass(frozen=True)
class Choice:
    """One reading of each open choice (see ``config.READINGS``): N, the modelled segment,
    Algorithm 1's line 9, which PriorityMeister, line 12's trn and ε."""

    normaliser: str = "tenant"
    segment: str = "burst_requests"
    line9: str = "stage_ratio"
    pm: str = "simplified"
    trn: str = "burst"
    epsilon: str = "rate"


def reading_choices() -> dict[str, Choice]:
    """``"primary"``, every ``"name=value"`` alternative (one reading changed at a time) and
    the joint alternatives of ``config.JOINT``."""
    from storrepro.papers.accgecko.config import JOINT, READINGS

    primary = Choice(**{name: r.primary for name, r in READINGS.items()})
    choices = {"primary": primary}
    for name, r in READINGS.items():
        for value in r.others():
            choices[reading_label(name, value)] = replace(primary, **{name: value})
    for label, values in JOINT.items():
        choices[label] = replace(primary, **values)
    return choices


PM_ORIGINAL = reading_label("pm", "original")

# the burst-intensity sensitivity (section 11,
# :mod:`~storrepro.papers.accgecko.experiment.intensity`)
INTENSITIES = (2.0, 4.0, 6.0, 8.0, 10.0)  # × the mean rate
LITERAL = "trn=segment&epsilon=fixed"  # config.JOINT: the literal reading
INTENSITY_LABELS = ("primary", LITERAL)
INTENSITY_METHODS = (SNCM, ACCTAIL, EXACT)
