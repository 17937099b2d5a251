"""Small block traces in the public formats, written by the tests themselves (seeded), for
running the notebooks end to end on a real-format trace."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from storrepro.traces.formats import FILETIME_UNIX_EPOCH

T0 = 1_700_000_000.0  # the traces' first second (Unix time)


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
    with open(path, "w") as f:
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
    path.write_text("\n".join(lines) + "\n")
    return path


def write_alibaba(path: Path, times, volumes, rng) -> Path:
    """Alibaba cloud block trace lines ``device_id,opcode,offset,length,timestamp`` (µs)."""
    order = np.argsort(times, kind="stable")
    stamps = np.round((T0 + times[order]) * 1e6).astype(np.int64)
    ops = np.where(rng.random(times.size) < 0.3, "W", "R")
    with open(path, "w") as f:
        for v, op, t in zip(volumes[order], ops, stamps, strict=True):
            f.write(f"{v},{op},{4096 * int(rng.integers(0, 2**20))},4096,{t}\n")
    return path


def _precise_period(path, rng):  # six volumes over 31 h: a day of history and 6-h intervals
    return write_msr(path, *daily_arrivals(rng, 6, 31, 6), rng)


def _accgecko(path, rng):  # two tenants, each two 10-s segments once rescaled to 2000 IOPS
    return write_msr(path, *bursty_arrivals(rng, 2, 45, 1000), rng)


def _vdi(path, rng):  # eight hours of two volumes, repeated over the stand-in's calendar
    return write_msr(path, *daily_arrivals(rng, 2, 8, 50), rng)


def _bid(path, rng):  # six processes' sequential streams, cut into the cells' windows
    return write_blkparse(path, rng)


def _tofec(path, rng):  # bursty requests whose gaps shape the changing workload's arrivals
    return write_alibaba(path, *bursty_arrivals(rng, 2, 0.4, 1000), rng)


#: notebook -> (writer of its trace, the other parameters a trace that small needs)
TRACE_RUNS = {
    "01_precise_period": (_precise_period, []),
    "02_accgecko": (_accgecko, ["segment_seconds=10", "segments=2"]),
    "03_vdi_background": (_vdi, []),
    "04_bid": (_bid, []),
    "05_tofec": (_tofec, []),
}


def trace_arguments(folder: Path, notebooks, seed: int = 0) -> list[str]:
    """``-p NOTEBOOK:trace=PATH`` (and its other parameters) for every notebook in
    ``notebooks`` that takes a trace, each trace written into ``folder``."""
    args = []
    for name in notebooks:
        if name in TRACE_RUNS:
            writer, extra = TRACE_RUNS[name]
            path = writer(folder / f"{name}.trace", np.random.default_rng(seed))
            for pair in [f"trace={path}", *extra]:
                args += ["-p", f"{name}:{pair}"]
    return args
