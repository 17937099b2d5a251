"""Notebook 00's experiments: the shared simulators run against closed-form results.

Checks (tolerances in :mod:`storrepro.papers.validation.config`, inputs in
:mod:`storrepro.papers.validation.workload`):
- M/M/1, M/D/1 and M/G/1 (gamma service, shape 4) waiting times from the simpy FIFO server vs the
  exponential M/M/1 law, Crommelin's M/D/1 law and Pollaczek–Khinchine (means only for M/G/1);
- the vectorized FIFO kernel vs the simpy server, request by request;
- parallel requests on the cloud store: the k-th fastest of n shifted-exponential tasks;
- the HDD and SSD service-time formulas against reference values of the BID authors' disk model
  (:mod:`storrepro.sim.disk_checks`, which notebook 04 runs again).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import simpy
from scipy import stats

from storrepro.papers.validation.config import ValidationConfig
from storrepro.papers.validation.workload import (
    GAMMA_SHAPE,
    QUEUES,
    QueueTask,
    queue_inputs,
    random_reads,
)
from storrepro.sim import theory
from storrepro.sim.block_device import DiskRequest
from storrepro.sim.cloud_store import CloudStore, ShiftedExponential, fixed_code
from storrepro.sim.core_pool import CorePool
from storrepro.sim.fifo import fifo_departures, simulate_fifo
from storrepro.sim.hdd import HDD
from storrepro.sim.ssd import SSD
from storrepro.suite.parallel import sweep, task_rng

CURVE_LOADS = (0.2, 0.4, 0.6, 0.8, 0.9)
#: Loads at which the Pollaczek–Khinchine lines of the wait-vs-load figure are drawn.
CURVE_GRID = np.linspace(0.05, 0.92, 100)


def run_queue(task: QueueTask, rng: np.random.Generator) -> np.ndarray:
    """Waiting times of every customer of one simpy FIFO run."""
    waits, _ = simulate_fifo(*queue_inputs(task, rng))
    return waits


def theory_mean_wait(queue: str, load: float) -> float:
    """Pollaczek–Khinchine mean wait for service of mean 1 and the queue's second moment."""
    second_moment = {"M/M/1": 2.0, "M/D/1": 1.0, "M/G/1": 1.0 + 1.0 / GAMMA_SHAPE}
    if queue not in second_moment:
        raise ValueError(f"queue = {queue!r}: expected one of {', '.join(QUEUES)}")
    return theory.pk_mean_wait(load, 1.0, second_moment[queue])


def theory_p99_wait(queue: str, load: float) -> float:
    """Closed-form 99th-percentile wait; NaN for M/G/1, which has none."""
    if queue == "M/M/1":
        return theory.mm1_wait_quantile(0.99, load, 1.0)
    if queue == "M/D/1":
        return theory.md1_wait_quantile(0.99, load, 1.0)
    return float("nan")


def summarise_waits(replicas: list[np.ndarray]) -> dict[str, float]:
    """Pooled mean and p99, with 95 % half-widths from the spread across replications."""
    pooled = np.concatenate(replicas)
    means = np.array([r.mean() for r in replicas])
    p99s = np.array([np.quantile(r, 0.99) for r in replicas])
    t = stats.t.ppf(0.975, len(replicas) - 1)

    def half(x: np.ndarray) -> float:
        return float(t * x.std(ddof=1) / np.sqrt(len(x)))

    return {
        "customers": int(pooled.size),
        "mean": float(pooled.mean()),
        "mean_ci": half(means),
        "p99": float(np.quantile(pooled, 0.99)),
        "p99_ci": half(p99s),
    }


def kernel_agreement(task: QueueTask, rng: np.random.Generator) -> float:
    """Largest per-request difference between simpy and the vectorized FIFO kernel."""
    arrivals, services = queue_inputs(task, rng)
    _, sojourns = simulate_fifo(arrivals, services)
    fast = fifo_departures(arrivals, services) - arrivals
    return float(np.max(np.abs(sojourns - fast)))


def queue_checks(cfg: ValidationConfig) -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    """Simulate every queue type in ``cfg.replications`` parallel runs at ``cfg.load``.

    Returns one row per queue (simulated and closed-form mean and p99 wait, 95 % half-widths)
    and the pooled waiting times per queue, for plotting.
    """
    per_run = cfg.customers // cfg.replications
    tasks = [QueueTask(q, cfg.load, per_run, r) for q in QUEUES for r in range(cfg.replications)]
    waits = sweep(run_queue, tasks, seed=cfg.seed, desc="queue checks")
    rows, pooled = [], {}
    for queue in QUEUES:
        runs = [w for task, w in zip(tasks, waits, strict=True) if task.queue == queue]
        rows.append(
            {
                "queue": queue,
                **summarise_waits(runs),
                "theory_mean": theory_mean_wait(queue, cfg.load),
                "theory_p99": theory_p99_wait(queue, cfg.load),
            }
        )
        pooled[queue] = np.concatenate(runs)
    return pd.DataFrame(rows).set_index("queue"), pooled


def load_curve(cfg: ValidationConfig) -> pd.DataFrame:
    """Mean wait against load for every queue type: simulated and closed form."""
    tasks = [QueueTask(q, rho, cfg.curve_customers) for q in QUEUES for rho in CURVE_LOADS]
    waits = sweep(run_queue, tasks, seed=cfg.seed, desc="wait vs load")
    return pd.DataFrame(
        [
            {
                "queue": t.queue,
                "load": t.load,
                "simulated": float(w.mean()),
                "theory": theory_mean_wait(t.queue, t.load),
            }
            for t, w in zip(tasks, waits, strict=True)
        ]
    )


def waiting_ccdf(
    waits: dict[str, np.ndarray], load: float, t_max: float, every: int = 50, points: int = 200
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The waiting-time CCDF P(wait > t) of each simulated queue, and in closed form.

    Simulated: one row per ``every``-th sorted wait of each queue (``queue``, ``wait``,
    ``ccdf``). Closed form: M/M/1's ρ·exp(−(1 − ρ)t) and Crommelin's M/D/1 law on ``points``
    times from 0 to ``t_max`` (index ``t``); M/G/1 has none.
    """
    if every < 1:
        raise ValueError(f"every = {every!r}: expected a step >= 1")
    parts = []
    for queue, w in waits.items():
        w = np.sort(w)
        ccdf = 1 - np.arange(1, w.size + 1) / w.size
        parts.append(pd.DataFrame({"queue": queue, "wait": w[::every], "ccdf": ccdf[::every]}))
    columns = ["queue", "wait", "ccdf"]
    simulated = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
    t = np.linspace(0, t_max, points)
    closed = pd.DataFrame(
        {
            "M/M/1": load * np.exp(-(1 - load) * t),
            "M/D/1": [1 - theory.md1_wait_cdf(x, load, 1.0) for x in t],
        },
        index=pd.Index(t, name="t"),
    )
    return simulated, closed


def pk_lines(loads: np.ndarray = CURVE_GRID) -> pd.DataFrame:
    """Pollaczek–Khinchine mean wait of every queue type at ``loads`` (index ``load``)."""
    return pd.DataFrame(
        {q: [theory_mean_wait(q, rho) for rho in loads] for q in QUEUES},
        index=pd.Index(loads, name="load"),
    )


def kernel_check(cfg: ValidationConfig) -> float:
    """The M/M/1 run of the queue check, replayed by simpy and by the vectorized kernel."""
    task = QueueTask("M/M/1", cfg.load, cfg.customers // cfg.replications, 0)
    return kernel_agreement(task, task_rng(cfg.seed, task))


# --- parallel requests on the cloud store -------------------------------------------------------

#: (n, k) codes of the order-statistics check; every n fits in the 16 threads at once.
CODES = ((1, 1), (2, 1), (3, 2), (6, 3), (6, 6), (12, 6))
#: Task delay Δ + Exp(E) in ms with Δ and E linear in the chunk size (MB), of the order of
#: the TOFEC paper's S3 measurements; a 3 MB file is split into k chunks.
TASK_DELAY = ShiftedExponential(shift=10.0, mean=20.0, shift_per_size=6.0, mean_per_size=12.0)
FILE_MB = 3.0
THREADS = 16


@dataclass(frozen=True)
class CodeTask:
    STREAM = ("n", "k", "requests")  # what keys its random stream
    n: int
    k: int
    requests: int


def run_code(task: CodeTask, rng: np.random.Generator) -> np.ndarray:
    """Delays of ``task.requests`` requests issued one after another (each waits for the last),
    so every request finds all threads idle and its delay is the k-th fastest of n tasks."""
    env = simpy.Environment()
    store = CloudStore(
        env, rng, TASK_DELAY, fixed_code(task.n, task.k), n_threads=THREADS, file_size=FILE_MB
    )

    def closed_loop():
        for _ in range(task.requests):
            yield store.submit()

    env.process(closed_loop())
    env.run()
    return store.monitor.latencies


def kth_theory(n: int, k: int) -> float:
    chunk = FILE_MB / k
    return theory.kth_of_n_mean(
        n,
        k,
        TASK_DELAY.shift + TASK_DELAY.shift_per_size * chunk,
        TASK_DELAY.mean + TASK_DELAY.mean_per_size * chunk,
    )


def parallel_request_checks(cfg: ValidationConfig) -> pd.DataFrame:
    """Mean request delay of every code in :data:`CODES`: simulated vs order statistics."""
    tasks = [CodeTask(n, k, cfg.parallel_requests) for n, k in CODES]
    delays = sweep(run_code, tasks, seed=cfg.seed, desc="parallel requests")
    rows = []
    for task, d in zip(tasks, delays, strict=True):
        rows.append(
            {
                "code": f"({task.n},{task.k})",
                "n": task.n,
                "k": task.k,
                "requests": d.size,
                "simulated_ms": float(d.mean()),
                "ci_ms": float(1.96 * d.std(ddof=1) / np.sqrt(d.size)),
                "theory_ms": kth_theory(task.n, task.k),
            }
        )
    frame = pd.DataFrame(rows).set_index("code")
    frame["rel_error"] = frame.simulated_ms / frame.theory_ms - 1
    return frame


# --- simulation speed ---------------------------------------------------------------------------


def _timed(label: str, requests: int, run) -> dict:
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    return {
        "model": label,
        "requests": requests,
        "seconds": seconds,
        "requests_per_s": requests / seconds,
    }


def _run_device(device_cls, requests: list[DiskRequest], gaps_ms: np.ndarray) -> None:
    env = simpy.Environment()
    device = device_cls(env)

    def source():
        for request, gap in zip(requests, gaps_ms, strict=True):
            yield env.timeout(gap)
            device.submit(request)

    env.process(source())
    env.run()


def measure_speeds(seed: int, requests: int = 20_000) -> pd.DataFrame:
    """Requests simulated per wall-clock second for every device model, on one fixed workload
    each (a machine-dependent measurement: it varies run to run and is not a claim)."""
    rng = np.random.default_rng(seed)
    arrivals, services = queue_inputs(QueueTask("M/M/1", 0.8, requests), rng)
    big, big_services = queue_inputs(QueueTask("M/M/1", 0.8, 50 * requests), rng)
    lbas, gaps = random_reads(rng, requests)
    disk = [DiskRequest(int(lba), 8, "R") for lba in lbas]

    def core_pool():
        env = simpy.Environment()
        CorePool(env, rng.uniform(0, 3200, requests))  # fluid ticks of 600 s
        env.run()

    def cloud():
        env = simpy.Environment()
        store = CloudStore(
            env, rng, TASK_DELAY, fixed_code(6, 3), n_threads=THREADS, file_size=FILE_MB
        )
        store.replay(np.cumsum(rng.exponential(1000 / 40, requests)))  # 40 req/s
        env.run()

    return pd.DataFrame(
        [
            _timed("FIFO server (simpy)", requests, lambda: simulate_fifo(arrivals, services)),
            _timed(
                "FIFO server (vectorized kernel)",
                big.size,
                lambda: fifo_departures(big, big_services),
            ),
            _timed("HDD, random 8-sector reads", requests, lambda: _run_device(HDD, disk, gaps)),
            _timed(
                "SSD, random 8-sector reads", requests, lambda: _run_device(SSD, disk, gaps / 20)
            ),
            _timed("Cloud store, (6,3) at 40 req/s", requests, cloud),
            _timed("Core pool (ticks, not requests)", requests, core_pool),
        ]
    ).set_index("model")
