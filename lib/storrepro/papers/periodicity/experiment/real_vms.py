"""Period detection on real production VMs (issue 48): every detector on every VM's requests per
30-minute snapshot, judged without labels against the known physical period.

One day is :data:`DAY` = 48 snapshots, so a detector's answer on a VM is the daily cycle (48),
a harmonic of it (a divisor of 48 of at least 2 samples, or a whole multiple of 48: a period
of several days), another period, or none (the detector abstains). No VM carries a label, so
what can be judged is what the paper claims of PrecisePeriod's precision — its answers are right
— with "right" read as the daily cycle or a harmonic, and how often each detector answers at
all. Every method runs on every VM exactly as on the benchmark series
(:func:`~storrepro.papers.periodicity.experiment.series_row`: the baselines once, PrecisePeriod
under each of its readings), one sweep task per VM.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from storrepro.papers.periodicity.experiment import METHODS, reading_view, series_row
from storrepro.suite.data.real_vms import (
    PER_DAY,
    RealVMs,
    load_real_vms,
    missing_message,
    resolve,
)

DAY = PER_DAY
#: What a detector's answer is to the daily cycle, in the order the figure stacks them.
RELATIONS = ("daily (48)", "divisor or multiple of 48", "other period", "no answer")


def relation(period) -> str:
    """Which of :data:`RELATIONS` an answer is (None or NaN: no answer)."""
    if period is None or (isinstance(period, float) and np.isnan(period)):
        return RELATIONS[3]
    p = int(round(float(period)))
    if p == DAY:
        return RELATIONS[0]
    if (p >= 2 and DAY % p == 0) or p % DAY == 0:
        return RELATIONS[1]
    return RELATIONS[2]


def load(path: str, limit: int) -> RealVMs | None:
    """The real VMs of ``path`` ('': the shared file when present), the first ``limit`` of the
    file (0: all); None when there is no file."""
    found = resolve(path)
    return load_real_vms(found, limit) if found else None


@dataclass(frozen=True)
class VmSeries:
    vm: str
    series: np.ndarray = field(repr=False, compare=False)


def detect_vm(task: VmSeries, rng: np.random.Generator | None = None) -> dict:
    """Every method's answer on one VM (deterministic: ``rng`` is unused)."""
    info = {"key": task.vm, "dataset": "real VMs", "length": int(task.series.size)}
    return series_row(np.asarray(task.series, dtype=float), float(DAY), info)


def claim_inputs(vms: RealVMs | None, rows: pd.DataFrame | None, reading: str) -> tuple:
    """The real-VM claim rules' inputs under PrecisePeriod's reading ``reading``: the answers
    per VM (:func:`answers`), or None and the message naming the public source and the
    parameter; and the file's path and digest."""
    if vms is None:
        return None, missing_message("real_vms"), ""
    return answers(reading_view(rows, reading)), "", vms.describe()


def detection_study(vms: RealVMs, sweep_fn) -> pd.DataFrame:
    """:func:`detect_vm` on every VM of ``vms``, one row per VM (the benchmark's columns)."""
    tasks = [VmSeries(vm, s) for vm, s in vms.series.items()]
    return pd.DataFrame(sweep_fn(detect_vm, tasks, desc="detectors on real VMs"))


def answers(view: pd.DataFrame, methods=METHODS) -> pd.DataFrame:
    """Per VM (index), each method's answer (NaN: none) from a reading's view of the rows."""
    return view.set_index("key")[list(methods)].apply(pd.to_numeric).rename_axis("vm")


def relation_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Per method (rows), how many VMs got each relation of :data:`RELATIONS` (columns)."""
    counts = {m: table[m].map(relation).value_counts() for m in table.columns}
    return pd.DataFrame(counts).T.reindex(columns=list(RELATIONS)).fillna(0).astype(int)
