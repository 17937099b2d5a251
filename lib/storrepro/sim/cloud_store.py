"""Coded access to a cloud object store over L threads (the TOFEC paper's system model).

Time unit **ms**. A request for a file of size J served with an (n,k) MDS code becomes n tasks
on chunks of size B = J/k, with task delays D_1..D_n = ``sampler(rng, B, n)``. Task j started
at t_j finishes at t_j + D_j; the request finishes at the k-th smallest of these::

    delay = k-th smallest (t_j + D_j) - arrival          (queueing + service delay)
    cost  = Σ_j thread time: D_j if completed, elapsed if interrupted, 0 if cancelled in queue

Queue semantics (check A6): FIFO request queue and FIFO task queue. The head-of-line request
leaves the request queue only when a thread is idle and the task queue is empty; it is then
expanded into its n tasks. At the k-th completion its queued tasks are cancelled (they never
start) and its running tasks are interrupted (``process.interrupt()``), freeing their threads at
once. Dispatch is work-conserving: no thread idles while a task or request waits.

The code comes from a plain ``policy(StoreState) -> (n, k)`` callable, called on arrival (our
primary reading; the code is fixed then) or at admission (``decide_at="admission"``).
"""

from __future__ import annotations

import math
import numbers
from collections import deque
from dataclasses import dataclass, field

import numpy as np
import simpy

from storrepro.sim.cloud_inputs import (
    DECISION_POINTS,
    Policy,
    StoreState,
    TaskSampler,
)
from storrepro.sim.monitor import EventLog, LatencyMonitor
from storrepro.suite.checks import finite


def _check_code(n, k, source: str) -> tuple[int, int]:
    valid = all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in (n, k))
    if not valid or not 1 <= k <= n:
        raise ValueError(f"{source} must be integers with 1 <= k <= n, got (n, k) = ({n!r}, {k!r})")
    return int(n), int(k)


def fixed_code(n: int, k: int) -> Policy:
    """A static policy: every request uses the same (n, k) code."""
    code = _check_code(n, k, "fixed_code (n, k)")

    def policy(state: StoreState) -> tuple[int, int]:
        return code

    return policy


@dataclass(frozen=True)
class ShiftedExponential:
    """Task delay D(B) = Δ(B) + Exp(mean E(B)), Eq. (1), both linear in the chunk size B (ms).

    Δ(B) = shift + shift_per_size·B,  E(B) = mean + mean_per_size·B.
    """

    shift: float = 0.0
    mean: float = 1.0
    shift_per_size: float = 0.0
    mean_per_size: float = 0.0

    def __post_init__(self):
        for name in ("shift", "mean", "shift_per_size", "mean_per_size"):
            finite(name, getattr(self, name))

    def __call__(self, rng: np.random.Generator, chunk_size: float, n: int) -> np.ndarray:
        shift = self.shift + self.shift_per_size * chunk_size
        mean = self.mean + self.mean_per_size * chunk_size
        return shift + rng.exponential(mean, n)


@dataclass(eq=False)
class _Request:
    rid: int
    t_arrive: float
    done: simpy.Event
    n: int = 0
    k: int = 0
    t_admit: float = math.nan
    t_first_start: float = math.nan
    completed: int = 0
    cost: float = 0.0
    running: dict = field(default_factory=dict)  # task index -> (t_start, process)


class CloudStore:
    """L threads serving (n,k)-coded requests (module docstring), time unit ms.

    ``monitor`` holds each request's delay; ``log`` one row per completed request
    (rid, t_arrive, t_admit, t_first_start, t_end, n, k, cost); with ``log_tasks`` also
    ``task_log`` one row per task (rid, task, delay, t_start, t_end, outcome), where outcome is
    ``completed``, ``interrupted`` or ``cancelled`` (never started, t_start NaN).
    ``check_invariants`` verifies the A6 queue invariants after every event.
    """

    def __init__(
        self,
        env: simpy.Environment,
        rng: np.random.Generator,
        sampler: TaskSampler,
        policy: Policy | None = None,
        n_threads: int = 16,
        file_size: float = 3.0,
        decide_at: str = "arrival",
        log_tasks: bool = False,
        check_invariants: bool = False,
    ):
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        if not callable(sampler):
            raise ValueError(f"sampler must be callable (rng, chunk_size, n), got {sampler!r}")
        if policy is not None and not callable(policy):
            raise ValueError(f"policy must be callable (StoreState) -> (n, k), got {policy!r}")
        if (
            isinstance(n_threads, bool)
            or not isinstance(n_threads, numbers.Integral)
            or n_threads < 1
        ):
            raise ValueError(f"n_threads must be an integer >= 1, got {n_threads!r}")
        finite("file_size", file_size, strict=True)
        if decide_at not in DECISION_POINTS:
            raise ValueError(f"decide_at must be one of {DECISION_POINTS}, got {decide_at!r}")
        self.env = env
        self.rng = rng
        self.sampler = sampler
        self.policy = fixed_code(1, 1) if policy is None else policy
        self.n_threads = int(n_threads)
        self.file_size = float(file_size)
        self.decide_at = decide_at
        self.check_invariants = check_invariants
        self.monitor = LatencyMonitor("cloud_store")
        self.log = EventLog(
            ("rid", "t_arrive", "t_admit", "t_first_start", "t_end", "n", "k", "cost")
        )
        self.task_log = (
            EventLog(("rid", "task", "delay", "t_start", "t_end", "outcome")) if log_tasks else None
        )
        self._requests: deque[_Request] = deque()
        self._tasks: deque[tuple[_Request, int, float]] = deque()
        self._idle = self.n_threads
        self._active: dict[int, _Request] = {}  # admitted, not complete; by rid
        self._next_rid = 0
        self._busy_time = 0.0
        self._busy_since = env.now

    # ---- public interface -------------------------------------------------------------------

    def submit(self) -> simpy.Event:
        """A request arrives now; the returned event fires at completion with its delay."""
        request = _Request(self._next_rid, self.env.now, self.env.event())
        self._next_rid += 1
        if self.decide_at == "arrival":
            request.n, request.k = self._choose_code()
        self._requests.append(request)
        self._dispatch()
        return request.done

    def replay(self, arrival_times) -> simpy.Process:
        """Start a process submitting one request at each of the given (sorted) times."""
        times = np.asarray(arrival_times, dtype=float)
        if times.ndim != 1:
            raise ValueError(f"arrival_times must be 1-D, got shape {times.shape}")
        steps = np.diff(times, prepend=self.env.now)
        bad = np.flatnonzero(~np.isfinite(times) | (steps < 0))
        if bad.size:
            raise ValueError(
                f"arrival_times must be finite, non-decreasing and >= now ({self.env.now} ms); "
                f"got {times[bad[0]]!r} at index {bad[0]}"
            )
        return self.env.process(self._replay(times))

    @property
    def busy_time(self) -> float:
        """Thread-time used so far (ms), integrated from the busy-thread count."""
        return self._busy_time + (self.n_threads - self._idle) * (self.env.now - self._busy_since)

    @property
    def queue_length(self) -> int:
        return len(self._requests)

    @property
    def idle_threads(self) -> int:
        return self._idle

    # ---- mechanics --------------------------------------------------------------------------

    def _replay(self, times: np.ndarray):
        for t in times:
            yield self.env.timeout(t - self.env.now)
            self.submit()

    def _choose_code(self) -> tuple[int, int]:
        state = StoreState(
            now=self.env.now,
            queue_length=len(self._requests),
            idle_threads=self._idle,
            task_queue_length=len(self._tasks),
            in_service=len(self._active),
            n_threads=self.n_threads,
        )
        n, k = self.policy(state)
        return _check_code(n, k, f"policy {self.policy!r} output")

    def _set_idle(self, change: int) -> None:
        self._busy_time = self.busy_time
        self._busy_since = self.env.now
        self._idle += change

    def _dispatch(self) -> None:
        while self._idle:
            if self._tasks:
                self._start(*self._tasks.popleft())
            elif self._requests:
                self._admit(self._requests.popleft())
            else:
                break
        if self.check_invariants:
            self._check_invariants()

    def _admit(self, request: _Request) -> None:
        if self.decide_at == "admission":
            request.n, request.k = self._choose_code()
        request.t_admit = self.env.now
        self._active[request.rid] = request
        chunk = self.file_size / request.k
        delays = np.asarray(self.sampler(self.rng, chunk, request.n), dtype=float)
        if delays.shape != (request.n,) or not np.all(np.isfinite(delays)) or np.any(delays < 0):
            raise ValueError(
                f"sampler {self.sampler!r} must return {request.n} finite delays >= 0 ms, "
                f"got {delays!r}"
            )
        self._tasks.extend((request, j, d) for j, d in enumerate(delays.tolist()))

    def _start(self, request: _Request, index: int, delay: float) -> None:
        self._set_idle(-1)
        if math.isnan(request.t_first_start):
            request.t_first_start = self.env.now
        process = self.env.process(self._run_task(request, index, delay))
        request.running[index] = (self.env.now, process)

    def _run_task(self, request: _Request, index: int, delay: float):
        # The task's process starts (URGENT) before any other completion at this instant, so an
        # interrupt always finds it inside this try block.
        try:
            yield self.env.timeout(delay)
        except simpy.Interrupt:
            return  # the finishing request has already freed this thread and charged the time
        t_start, _ = request.running.pop(index)
        request.cost += delay
        request.completed += 1
        self._log_task(request.rid, index, delay, t_start, "completed")
        self._set_idle(+1)
        if request.completed == request.k:
            self._finish(request)
        self._dispatch()

    def _finish(self, request: _Request) -> None:
        now = self.env.now
        kept = deque()
        for task in self._tasks:
            if task[0] is request:
                self._log_task(request.rid, task[1], task[2], math.nan, "cancelled")
            else:
                kept.append(task)
        self._tasks = kept
        for index, (t_start, process) in request.running.items():
            process.interrupt()
            request.cost += now - t_start
            self._log_task(request.rid, index, now - t_start, t_start, "interrupted")
        self._set_idle(len(request.running))
        request.running.clear()
        del self._active[request.rid]
        delay = now - request.t_arrive
        self.monitor.record(delay)
        self.log.append(
            request.rid,
            request.t_arrive,
            request.t_admit,
            request.t_first_start,
            now,
            request.n,
            request.k,
            request.cost,
        )
        request.done.succeed(delay)

    def _log_task(self, rid: int, index: int, delay: float, t_start: float, outcome: str):
        if self.task_log is not None:
            self.task_log.append(rid, index, delay, t_start, self.env.now, outcome)

    def _check_invariants(self) -> None:
        """A6, evaluated after every arrival and completion."""
        busy = sum(len(r.running) for r in self._active.values())
        problems = []
        if self._idle < 0 or self._idle + busy != self.n_threads:
            problems.append(f"idle {self._idle} + busy {busy} != {self.n_threads} threads")
        if self._idle and (self._tasks or self._requests):
            problems.append(f"{self._idle} idle threads while work waits")
        if len({id(task[0]) for task in self._tasks}) > 1:
            problems.append("tasks of more than one request in the task queue")
        if problems:
            raise RuntimeError(f"A6 violated at t={self.env.now}: " + "; ".join(problems))
