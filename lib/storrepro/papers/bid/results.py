"""What a replay returns and the options it takes, shared by the simpy reference model
(:mod:`storrepro.papers.bid.experiment`) and the numba kernel (:mod:`storrepro.papers.bid.kernel`),
so that neither imports the other for them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from storrepro.suite.checks import whole

REQUEST_COLUMNS = (
    "device",
    "pid",
    "op",
    "lba",
    "size",
    "t_arrive",
    "t_start",
    "t_end",
    "service",
    "cylinder",
    "d",
)
FLUSH_COLUMNS = ("t", "pid", "requests", "sectors", "cause")
WAIT_COLUMNS = ("t", "pid", "wait")
DECISION_COLUMNS = ("t", "pid", "pf", "tier")
MODES = ("backlogged", "open")
ENGINES = ("kernel", "simpy")


@dataclass
class SimResult:
    """One run: every dispatched request (``requests``: device 0 = HDD, 1 = SSD, each in service
    order), every trace event's completion and admission time (ms), and BID's logs."""

    requests: pd.DataFrame
    event_completion: np.ndarray
    event_arrival: np.ndarray
    leftover: int  # requests still queued at the end (must be 0)
    flushes: pd.DataFrame | None = None  # BID: one row per marked staging queue
    waits: pd.DataFrame | None = None  # BID: every setting of a wait timer
    decisions: pd.DataFrame | None = None  # BID-Hybrid: every classified queue
    vfs_hits: dict | None = None  # BID-Hybrid: arrivals routed by the VFS-SSD table, per op


def check_options(rq_limit, mode: str, engine: str = "kernel") -> None:
    whole("rq_limit", rq_limit, minimum=1)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
