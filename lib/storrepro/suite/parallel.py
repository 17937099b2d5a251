"""Sweeps of independent tasks, in-process or on dask.distributed, with the same numbers either way.

``sweep(fn, tasks, seed=...)`` calls ``fn(task, rng)`` for every task and returns the results in
task order. Each task's ``rng`` comes from ``SeedSequence([seed, *hash(stream_id(task))])``, so
it depends only on the base seed and the task itself, never on which worker ran it or in what
order: serial, a local cluster and a remote scheduler give identical numbers. A task keys its
stream explicitly: a dataclass task lists the fields that key it in ``STREAM`` (a field added
later changes no stream unless it is listed there); plain values (numbers, strings, tuples of
them) key it by their ``repr``. Tasks must be distinct.

Where the work runs (first match wins):
  1. ``scheduler=ADDRESS`` or ``$DASK_SCHEDULER_ADDRESS``: an existing dask cluster;
  2. ``workers=1`` or ``$STORREPRO_WORKERS=1``: in this process, no dask at all;
  3. otherwise a local cluster with one single-threaded worker process per core (or ``workers``).
The runner's ``--workers`` and ``--scheduler`` set those environment variables for the kernels.
"""

from __future__ import annotations

import asyncio
import atexit
import ctypes
import functools
import hashlib
import logging
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from tqdm import tqdm

from storrepro.suite.checks import whole

WORKERS_ENV = "STORREPRO_WORKERS"
SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"
#: Set by the runner once it has seen the scheduler's workers, so that no notebook waits again.
WORKERS_CHECKED_ENV = "STORREPRO_WORKERS_CHECKED"

_clients: dict[tuple, Any] = {}
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def stream_id(task: Any) -> str:
    """The text that keys ``task``'s random stream: for a task class with ``STREAM`` (its
    keying fields, in order) ``Name(field=value!r, ...)`` over those fields — what the
    dataclass's ``repr`` gave when those were its fields, so streams keyed so far keep their
    numbers —, for a plain value its ``repr``. A field holding a task with ``STREAM`` is
    written by its own stream id (a task nested in another keeps the key it has alone)."""
    fields = getattr(type(task), "STREAM", None)
    if fields is None:
        return repr(task)
    body = ", ".join(f"{name}={stream_id(getattr(task, name))}" for name in fields)
    return f"{type(task).__qualname__}({body})"


def task_seed(seed: int, task: Any) -> np.random.SeedSequence:
    """The seed sequence of one task: the base seed and a stable digest of its
    :func:`stream_id`."""
    seed = whole("seed", seed)
    digest = hashlib.sha256(stream_id(task).encode()).digest()
    words = np.frombuffer(digest[:16], dtype=np.uint32).tolist()
    return np.random.SeedSequence([seed, *words])


def task_rng(seed: int, task: Any) -> np.random.Generator:
    """The random generator of one task (:func:`task_seed`): the same for the same seed and
    task, in any process, in any order."""
    return np.random.default_rng(task_seed(seed, task))


@functools.cache
def retain_freed_memory() -> None:
    """Keep the memory this process frees for its next allocations (glibc's malloc; elsewhere a
    no-op). Sweep tasks allocate the same large arrays again and again, and on a virtual machine
    each fresh page costs a fault. glibc hands large arrays back at once when a trim threshold is
    set, as dask's nannies do (64 KiB): that cost BID's and AccGecko's tasks 40-70 % more time."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)  # large arrays from the heap, not fresh mappings
    libc.mallopt(M_TRIM_THRESHOLD, 2**31 - 1)  # and never return the heap's top to the system


def _run_task(fn: Callable, task: Any, seed: int) -> Any:
    retain_freed_memory()  # here, so that it holds on any worker, local or remote
    return fn(task, task_rng(seed, task))


def configured_scheduler() -> str | None:
    """The scheduler dask itself is configured with: ``$DASK_SCHEDULER_ADDRESS`` or the
    ``scheduler-address`` of dask's configuration files."""
    import dask.config

    return os.environ.get(SCHEDULER_ENV) or dask.config.get("scheduler-address", None) or None


def resolve_mode(workers: int | None = None, scheduler: str | None = None) -> tuple[str, Any]:
    """``("address", addr)``, ``("serial", 1)`` or ``("local", n_workers)``."""
    scheduler = scheduler or os.environ.get(SCHEDULER_ENV) or None
    if scheduler:
        return "address", scheduler
    if workers is None and not os.environ.get(WORKERS_ENV) and configured_scheduler():
        return "address", configured_scheduler()
    if workers is None and os.environ.get(WORKERS_ENV):
        text = os.environ[WORKERS_ENV]
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"{WORKERS_ENV}={text!r}: expected a whole number >= 1")
        workers = int(text)
    if workers is not None and workers < 1:
        raise ValueError(f"workers={workers!r}: expected a whole number >= 1")
    workers = workers or os.cpu_count() or 1
    return ("serial", 1) if workers == 1 else ("local", workers)


def local_cluster(n_workers: int):
    """A dask cluster on this machine: ``n_workers`` single-threaded worker processes."""
    from dask.distributed import LocalCluster

    return LocalCluster(
        n_workers=n_workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",  # this machine only, any free port
        silence_logs=logging.ERROR,
    )


#: How long to wait for a scheduler to answer, and for a remote cluster to have a worker.
CONNECT_TIMEOUT_S = 10.0
WORKER_TIMEOUT_S = 60.0


def dask_identity(address: str, timeout_s: float = CONNECT_TIMEOUT_S) -> dict:
    """What the dask process at ``address`` says it is (dask's ``identity`` call: ``type``,
    ``workers``, ...), the whole exchange bounded by ``timeout_s``: distributed's own connect
    can wait forever for the handshake of a port that speaks another protocol (a dashboard's
    HTTP). Raises ``OSError`` or ``TimeoutError``."""
    from distributed.comm import connect

    async def ask() -> dict:
        comm = await connect(address, timeout=timeout_s)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def bounded() -> dict:
        return await asyncio.wait_for(ask(), timeout_s)

    with ThreadPoolExecutor(1) as pool:  # its own event loop, even inside a Jupyter kernel's
        return pool.submit(asyncio.run, bounded()).result()


def _client(mode: str, arg: Any):
    """One dask client per mode, reused across sweeps and closed at exit."""
    key = (mode, arg)
    if key not in _clients:
        from dask.distributed import Client

        if mode == "address":
            try:
                dask_identity(arg, CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError) as err:
                raise OSError(
                    f"no dask scheduler answers at {arg} within {CONNECT_TIMEOUT_S:g} s ({err})"
                ) from None
        address_or_cluster = arg if mode == "address" else _started_local_cluster(arg)
        client = Client(address_or_cluster, set_as_default=False, timeout=CONNECT_TIMEOUT_S)
        if mode == "address":
            try:
                wait_for_workers(client, arg)
            except TimeoutError:
                client.close()
                raise
        _clients[key] = client
    return _clients[key]


#: What to do when a script's worker processes re-run its unguarded top-level code.
UNGUARDED = (
    "a script that sweeps on local dask workers must put its top-level code under "
    '`if __name__ == "__main__":` (each worker process imports the script again); add the '
    f"guard, or set {WORKERS_ENV}=1 to sweep in this process"
)


def _started_local_cluster(n_workers: int):
    """:func:`local_cluster`, with one line saying what to do where a plain script without the
    ``__main__`` guard calls a sweep: each spawned worker re-runs the script, whose sweep would
    start workers of its own while it is still being imported."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise SystemExit(f"error: {UNGUARDED}")  # in the worker: its message, no traceback
    try:
        return local_cluster(n_workers)
    except Exception as err:
        if getattr(sys.modules.get("__main__"), "__file__", None) is None:
            raise  # not a script (a notebook, the interpreter): another cause
        raise RuntimeError(
            f"the local dask workers did not start ({type(err).__name__}: {err}); {UNGUARDED}"
        ) from None


def wait_for_workers(client, address: str) -> None:
    """Wait up to :data:`WORKER_TIMEOUT_S` for the scheduler to have a worker, or raise
    ``TimeoutError``; not at all where the runner has already waited once for the whole run
    (``$STORREPRO_WORKERS_CHECKED``)."""
    checked = bool(os.environ.get(WORKERS_CHECKED_ENV))
    try:
        if not checked:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT_S)
        elif not client.scheduler_info().get("workers"):
            raise TimeoutError
    except TimeoutError:
        after = "" if checked else f" after {WORKER_TIMEOUT_S:g} s"
        raise TimeoutError(
            f"the dask scheduler at {address} has no workers{after}: start some "
            "(`dask worker ADDRESS --nthreads 1`) or run without --scheduler"
        ) from None


@atexit.register
def close_clients() -> None:
    """Close every client (and local cluster) the sweeps opened; the next sweep opens anew."""
    for client in _clients.values():
        cluster = client.cluster
        client.close()
        if cluster is not None:
            cluster.close()
    _clients.clear()


def _wait_with_workers(client, futures: list, bar, where: str | None) -> None:
    """Wait for every future, advancing ``bar``; on a remote scheduler (``where``), give up
    with a clear error once it has had no worker for :data:`WORKER_TIMEOUT_S`."""
    from dask.distributed import as_completed

    completed = as_completed(futures, loop=client.loop)
    if where is None:
        for _ in completed:
            bar.update()
        return
    idle_since = None
    while not completed.is_empty():
        batch = completed.next_batch(block=False)
        bar.update(len(batch))
        if batch or client.scheduler_info().get("workers"):
            idle_since = None
        else:
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since > WORKER_TIMEOUT_S:
                raise TimeoutError(
                    f"the dask scheduler at {where} has had no worker for "
                    f"{WORKER_TIMEOUT_S:g} s; restart its workers and run again"
                )
        if not batch:
            time.sleep(0.2)


def sweep(
    fn: Callable[[Any, np.random.Generator], Any],
    tasks: Sequence[Any],
    *,
    seed: int,
    workers: int | None = None,
    scheduler: str | None = None,
    desc: str | None = None,
    progress: bool = True,
) -> list[Any]:
    """Run ``fn(task, rng)`` for every task; results in task order (see the module docstring)."""
    seed = whole("seed", seed, minimum=0)  # numpy's seed sequences take no negative entropy
    tasks = list(tasks)
    keys = [stream_id(t) for t in tasks]
    if len(set(keys)) != len(keys):
        raise ValueError("sweep tasks must be distinct (their stream ids seed their random "
                         "streams)")
    mode, arg = resolve_mode(workers, scheduler)
    bar = tqdm(total=len(tasks), desc=desc, disable=not progress or not tasks)
    try:
        if mode == "serial":
            results = []
            for task in tasks:
                results.append(_run_task(fn, task, seed))
                bar.update()
            return results
        client = _client(mode, arg)
        futures = [client.submit(_run_task, fn, t, seed, pure=False) for t in tasks]
        _wait_with_workers(client, futures, bar, where=arg if mode == "address" else None)
        return client.gather(futures)
    finally:
        bar.close()
