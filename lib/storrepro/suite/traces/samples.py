"""Small seeded block traces in the public formats, for running a notebook end to end on a
real-format trace (the tests do, for every notebook that takes a ``trace``).

Each paper's package declares its sample as ``TRACE_SAMPLE``, a :class:`TraceSample`, in the
module its config names as ``trace_module``: a writer built from the arrivals and formats here,
and the other parameters a trace that small needs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from storrepro.suite.traces.formats import FILETIME_UNIX_EPOCH

T0 = 1_700_000_000.0  # the traces' first second (Unix time)


@dataclass(frozen=True)
class TraceSample:
    """A notebook's small trace: ``write(path, rng)`` writes it to ``path`` and returns the
    path; ``params``: the other parameters (``"name=value"``) the notebook needs on a trace that
    small."""

    write: Callable[[Path, np.random.Generator], Path]
    params: tuple[str, ...] = ()


def daily_arrivals(rng, volumes: int, hours: float, per_hour: float) -> tuple:
    """Seconds from T0 and volume of Poisson arrivals whose rate follows a day's sine (peak at
    noon, a fifth at midnight), so the per-interval series have a daily period."""
    times, vols = [], []
    grid = np.arange(0.0, hours * 3600, 60.0)
    shape = 0.6 - 0.4 * np.cos(2 * np.pi * grid / 86_400)
    for v in range(volumes):
        counts = rng.poisson(per_hour / 60 * shape * (1 + 0.2 * v))
        starts = np.repeat(grid, counts)
        times.append(starts + rng.uniform(0, 60, starts.size))
        vols.append(np.full(starts.size, v))
    return np.concatenate(times), np.concatenate(vols)


def bursty_arrivals(rng, volumes: int, seconds: float, iops: float) -> tuple:
    """Seconds from T0 and volume of on/off bursts: 5 % of the time at 10x the mean rate."""
    times, vols = [], []
    for v in range(volumes):
        ms = np.arange(int(seconds * 1000))
        burst = rng.random(ms.size // 20 + 1) < 0.05
        rate = np.where(np.repeat(burst, 20)[: ms.size], 10.0, 0.53) * iops / 1000
        counts = rng.poisson(rate)
        starts = np.repeat(ms, counts) / 1000
        times.append(starts + rng.uniform(0, 1e-3, starts.size))
        vols.append(np.full(starts.size, v))
    return np.concatenate(times), np.concatenate(vols)


def write_msr(path: Path, times, volumes, rng) -> Path:
    """MSR Cambridge CSV lines, in time order, 4-64 KB requests, 30 % writes."""
    order = np.argsort(times, kind="stable")
    times, volumes = times[order], volumes[order]
    ticks = FILETIME_UNIX_EPOCH + np.round((T0 + times) * 1e7).astype(np.int64)
    ops = np.where(rng.random(times.size) < 0.3, "Write", "Read")
    sizes = 4096 * rng.integers(1, 17, times.size)
    offsets = 4096 * rng.integers(0, 2**20, times.size)
    with open(path, "w", encoding="utf-8") as f:
        for t, v, op, off, size in zip(ticks, volumes, ops, offsets, sizes, strict=True):
            f.write(f"{t},src,{v},{op},{off},{size},100\n")
    return path


def write_blkparse(path: Path, rng, processes: int = 6, requests: int = 4000) -> Path:
    """blkparse's default output: Q events of ``processes`` streams (each a sequential run of
    256-sector reads or writes, restarting at a random sector now and then), with the G and C
    events blkparse prints around them, and the closing summary."""
    times = np.sort(rng.exponential(2e-3, requests).cumsum())
    pids = rng.integers(1000, 1000 + processes, requests)
    lines, cursor = [], {}
    for seq, (t, pid) in enumerate(zip(times, pids, strict=True)):
        if pid not in cursor or rng.random() < 0.05:
            cursor[pid] = int(rng.integers(0, 2**30)) // 256 * 256
        op = "R" if pid % 3 else "W"
        sector = cursor[pid]
        cursor[pid] += 256
        for action in ("Q", "G", "C"):
            lines.append(
                f"  8,0    {pid % 2}  {3 * seq + 'QGC'.index(action) + 1:>7}  {t:14.9f}"
                f"  {pid}  {action}   {op} {sector} + 256 [java]"
            )
    lines += ["", "CPU0 (8,0):", f" Reads Queued: {requests}, 0KiB"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_alibaba(path: Path, times, volumes, rng) -> Path:
    """Alibaba cloud block trace lines ``device_id,opcode,offset,length,timestamp`` (µs)."""
    order = np.argsort(times, kind="stable")
    stamps = np.round((T0 + times[order]) * 1e6).astype(np.int64)
    ops = np.where(rng.random(times.size) < 0.3, "W", "R")
    with open(path, "w", encoding="utf-8") as f:
        for v, op, t in zip(volumes[order], ops, stamps, strict=True):
            f.write(f"{v},{op},{4096 * int(rng.integers(0, 2**20))},4096,{t}\n")
    return path
