"""``make bench``: what the suite costs on this machine, measured in one run, against its targets.

Four measurements (issue 9), written to ``results/bench.json`` and ``results/BENCH.md``:

1. **Device speeds** — simulated requests per second of each ``sim/`` model in simpy, and of the
   fast kernel that replaces it in the sweeps, side by side on the same workload.
2. **Notebooks** — each profile as one ``reproduce`` run (what ``make reproduce`` costs), with
   every notebook's wall time and peak memory (the whole process tree: runner, kernel and dask
   workers), quick and full profile.
3. **Parallel sweeps** — each paper's largest sweep on a local dask cluster of 1 and of 2
   workers; the speedup, and a check that both give identical results.
4. **Scaling** — each simulator at 1×, 10× and 100× the requests, each point in a fresh process:
   wall time (the growth exponent should be about 1) and the memory the run added.
"""

from __future__ import annotations

import json
import math
import platform
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

import numpy as np

from storrepro.suite.bench_cases import Simulator, Sweep
from storrepro.suite.notebooks import NOTEBOOKS, config_class
from storrepro.suite.paths import git_commit, repo_root, write_json_atomic, write_text_atomic

TARGETS = {
    "full_suite_s": 10 * 60,  # make reproduce, every notebook, full profile, every reading
    "quick_suite_s": 2 * 60,
    "peak_memory_mib": 4096,  # any one notebook
    "speedup_2_workers": 1.7,
    "fifo_fast_requests_per_s": 1e7,
}
MIB = 2**20


# ---- 1. device speeds ----------------------------------------------------------------------


def package_bench(notebook: str):
    """The ``bench`` module of ``notebook``'s package, or None when it declares no bench cases."""
    package = NOTEBOOKS[notebook].partition(":")[0].rpartition(".")[0]
    try:
        return import_module(f"{package}.bench")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.bench":
            raise
        return None


def simulators() -> list[Simulator]:
    """Every package's simulators, in notebook order."""
    found = []
    for notebook in NOTEBOOKS:
        module = package_bench(notebook)
        found.extend(getattr(module, "SIMULATORS", []))
    return found


def largest_sweeps() -> dict[str, Callable[[], Sweep]]:
    """notebook -> builder of its largest sweep, for every package that declares one."""
    builders = {}
    for notebook in NOTEBOOKS:
        module = package_bench(notebook)
        if hasattr(module, "largest_sweep"):
            builders[notebook] = module.largest_sweep
    return builders


def _timed(sim: Simulator, n: int, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    sim.run(n, rng)
    return time.perf_counter() - start


def device_speeds(sims: list[Simulator] | None = None) -> list[dict]:
    """Requests per second of every simulator (default: every package's) at its base size,
    after one small warm-up run."""
    rows = []
    for sim in simulators() if sims is None else sims:
        _timed(sim, max(sim.base // 100, 200))  # imports and numba compilation, not timed
        seconds = _timed(sim, sim.base)
        rows.append(
            {
                "model": sim.name,
                "kind": sim.kind,
                "requests": sim.base,
                "seconds": seconds,
                "requests_per_s": sim.base / seconds,
            }
        )
    return rows


# ---- 4. scaling, one fresh process per point -------------------------------------------------


def _point(index: int, n: int, poll_s: float = 0.005) -> dict:
    """Run simulator ``index`` on ``n`` requests in this process: wall time and memory added.

    A sampling thread records the peak RSS during the run; "added" is that minus the RSS before.
    """
    import threading

    import psutil

    sim = simulators()[index]
    _timed(sim, max(sim.base // 100, 200))
    me = psutil.Process()
    before = me.memory_info().rss
    peak, done = [before], threading.Event()

    def sample():
        while not done.wait(poll_s):
            peak[0] = max(peak[0], me.memory_info().rss)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    seconds = _timed(sim, n)
    done.set()
    sampler.join()
    peak[0] = max(peak[0], me.memory_info().rss)
    return {"requests": n, "seconds": seconds, "added_mib": (peak[0] - before) / MIB}


def scaling(multiples=(1, 10, 100)) -> list[dict]:
    rows = []
    for index, sim in enumerate(simulators()):
        points = []
        for m in multiples:
            out = subprocess.run(
                [sys.executable, "-m", "storrepro.suite.bench", "point", str(index),
                 str(sim.base * m)],
                capture_output=True,
                text=True,
                check=True,
            )
            points.append({"multiple": m, **json.loads(out.stdout.splitlines()[-1])})
        first, last = points[0], points[-1]
        exponent = math.log(last["seconds"] / first["seconds"]) / math.log(multiples[-1])
        bounded = last["added_mib"] <= 1.5 * first["added_mib"] + 32
        rows.append(
            {
                "model": sim.name,
                "kind": sim.kind,
                "streaming": sim.streaming,
                "points": points,
                "time_exponent": exponent,
                "memory_bounded": bounded,
            }
        )
    return rows


# ---- 2. notebooks --------------------------------------------------------------------------


def run_suite(profile: str, out: Path, poll_s: float = 0.2) -> dict:
    """Run every notebook in one ``reproduce`` process, as ``make reproduce`` does.

    Returns the suite's wall time and, per notebook, the runner's wall time and the peak RSS of
    the whole process tree (runner, kernels, dask workers) while that notebook ran — with the
    notebook beside it, in the quick profile, which runs two at once; the runner's "[i/n] name"
    and "name: done in" lines say which notebooks are running.
    """
    import psutil

    cmd = [sys.executable, "-m", "storrepro", "reproduce", "--profile", profile, "--out", str(out)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    books: dict[str, dict] = {}
    running: set[str] = set()

    def follow() -> None:
        for line in proc.stdout:
            started = STARTED.match(line)
            if started and started["name"] in NOTEBOOKS:
                running.add(started["name"])
                books[started["name"]] = {
                    "notebook": started["name"],
                    "profile": profile,
                    "ok": False,
                    "wall_s": None,
                    "peak_mib": 0.0,
                }
            ended = ENDED.match(line)
            if ended and ended["name"] in books:
                running.discard(ended["name"])
                books[ended["name"]].update(
                    ok=ended["status"] == "done", wall_s=float(ended["seconds"])
                )

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    root = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            rss = sum(_rss(p) for p in [root, *root.children(recursive=True)]) / MIB
        except psutil.NoSuchProcess:
            rss = 0.0
        for name in list(running):
            books[name]["peak_mib"] = max(books[name]["peak_mib"], rss)
        time.sleep(poll_s)
    reader.join()
    return {
        "profile": profile,
        "ok": proc.returncode == 0
        and len(books) == len(NOTEBOOKS)
        and all(b["ok"] for b in books.values()),
        "wall_s": time.perf_counter() - start,
        "notebooks": list(books.values()),
    }


#: The runner's lines around each notebook: "[2/6] 01_precise_period  (...)" and
#: "01_precise_period: done in 35.3 s".
STARTED = re.compile(r"^\[\d+/\d+\] (?P<name>\S+)")
ENDED = re.compile(r"^\s+(?P<name>\S+): (?P<status>done|FAILED) in (?P<seconds>[\d.]+) s")


def _rss(process) -> int:
    import psutil

    try:
        return process.memory_info().rss
    except psutil.NoSuchProcess:
        return 0


def suites(profiles=("quick", "full")) -> list[dict]:
    """A first quick run, reported but not judged, then each profile timed.

    The first run compiles the numba kernels the measurements before it did not touch into
    numba's on-disk cache; every later run (the timed ones, CI's ``make reproduce`` after
    ``make test``, a student's re-run) loads them from there.
    """
    rows = []
    build = repo_root() / "build"
    if profiles:
        print("  quick profile, first run (numba fills its cache) ...", flush=True)
        rows.append({**run_suite("quick", build / "bench-first"), "first_run": True})
    for profile in profiles:
        print(f"  {profile} profile, every notebook ...", flush=True)
        rows.append({**run_suite(profile, build / f"bench-{profile}"), "first_run": False})
    return rows


def timed_suites(data: dict) -> list[dict]:
    return [suite for suite in data["suites"] if not suite.get("first_run")]


# ---- 3. parallel sweeps ----------------------------------------------------------------------


def sweep_speedups(sweeps: dict[str, Callable[[], Sweep]] | None = None) -> list[dict]:
    """Each sweep on a local cluster of one worker, then of two (workers started untimed).

    One dask worker, not a plain in-process loop, is the baseline: a worker runs one thread
    with one BLAS thread, as each of the two does, while a loop in this process would let
    numpy and statsmodels use both cores (VDI's fits: 18.6 s in-process, 26.0 s on one worker).
    """
    from storrepro.suite.parallel import close_clients, local_cluster, sweep

    rows = []
    for notebook, build in (largest_sweeps() if sweeps is None else sweeps).items():
        case = build()
        what, fn, tasks, seed = case.what, case.fn, case.tasks, case.seed
        times, results = {}, {}
        for workers in (1, 2):
            with local_cluster(workers) as cluster:
                address = cluster.scheduler_address
                sweep(_noop, range(4 * workers), seed=0, scheduler=address, progress=False)
                start = time.perf_counter()
                results[workers] = sweep(fn, tasks, seed=seed, scheduler=address, desc=what)
                times[workers] = time.perf_counter() - start
                close_clients()
        rows.append(
            {
                "notebook": notebook,
                "sweep": what,
                "tasks": len(tasks),
                "one_worker_s": times[1],
                "two_workers_s": times[2],
                "speedup": times[1] / times[2],
                "identical": case.comparable(results[1]) == case.comparable(results[2]),
            }
        )
    return rows


def _noop(task, rng):
    return task


# ---- report ----------------------------------------------------------------------------------


#: The sections of a bench run, in the order they run.
SECTIONS = ("devices", "scaling", "suites", "sweeps")


def run_bench(profiles=("quick", "full"), sections=SECTIONS) -> dict:
    """The chosen measurements (default: every one), cheapest first; each section is saved to
    build/bench-partial.json as soon as it is done, so an interrupted run keeps what it
    measured. The report says which sections this run measured."""
    data = {
        "machine": {
            "cores": _cores(),
            "memory_gib": _memory_gib(),
            "python": platform.python_version(),
        },
        "git_commit": git_commit(),
        "sections": [name for name in SECTIONS if name in sections],
        "targets": TARGETS,
        "devices": [],
        "scaling": [],
        "suites": [],
        "sweeps": [],
    }
    steps = [
        ("devices", "device speeds", device_speeds),
        ("scaling", "scaling (1x, 10x, 100x)", scaling),
        ("suites", f"notebooks ({', '.join(profiles) or 'none'})", lambda: suites(profiles)),
        ("sweeps", "parallel sweeps (1 and 2 workers)", sweep_speedups),
    ]
    steps = [step for step in steps if step[0] in sections]
    for i, (key, what, measure) in enumerate(steps, 1):
        print(f"{i}/{len(steps)} {what}", flush=True)
        data[key] = measure()
        write_json_atomic(repo_root() / "build" / "bench-partial.json", data)
    return data


def _cores() -> int:
    import os

    return os.cpu_count() or 1


def _memory_gib() -> float:
    import psutil

    return round(psutil.virtual_memory().total / 2**30, 1)


def write_report(data: dict, results: Path | None = None) -> Path:
    results = results or repo_root() / "results"
    write_json_atomic(results / "bench.json", data)
    path = results / "BENCH.md"
    write_text_atomic(path, render(data))
    return path


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def targets_met(data: dict) -> list[tuple[str, str, str, bool]]:
    """(target, goal, measured, met) rows; a measurement that was not run is left out."""
    rows = []
    for suite in timed_suites(data):
        key = f"{suite['profile']}_suite_s"
        rows.append(
            (
                f"all notebooks, {suite['profile']} profile (one `make reproduce`)",
                f"< {TARGETS[key] / 60:g} min",
                f"{suite['wall_s'] / 60:.1f} min" + ("" if suite["ok"] else " (a notebook failed)"),
                suite["wall_s"] <= TARGETS[key] and suite["ok"],
            )
        )
    books = [b for suite in timed_suites(data) for b in suite["notebooks"]]
    if books:
        worst = max(books, key=lambda b: b["peak_mib"])
        rows.append(
            (
                "peak memory of any notebook",
                f"< {TARGETS['peak_memory_mib']} MiB",
                f"{worst['peak_mib']:.0f} MiB ({worst['notebook']}, {worst['profile']})",
                worst["peak_mib"] < TARGETS["peak_memory_mib"],
            )
        )
    if not data["sweeps"] and "sweeps" in data.get("sections", SECTIONS):  # ran, measured nothing
        rows.append(
            (
                "2-worker speedup of each paper's largest sweep",
                f">= {TARGETS['speedup_2_workers']}",
                "not measured in this run",
                False,
            )
        )
    for row in data["sweeps"]:
        rows.append(
            (
                f"2-worker speedup, {row['notebook']}",
                f">= {TARGETS['speedup_2_workers']}",
                f"{row['speedup']:.2f}x" + ("" if row["identical"] else " (results differ!)"),
                row["speedup"] >= TARGETS["speedup_2_workers"] and row["identical"],
            )
        )
    fifo = [s for s in data["scaling"] if s["model"].startswith("FIFO") and s["kind"] == "fast"]
    if fifo:  # the longest run: a sustained rate, not a fraction of a second of first touches
        last = fifo[0]["points"][-1]
        rps = last["requests"] / last["seconds"]
        rows.append(
            (
                "FIFO fast path, sustained (workload drawn in the loop)",
                f">= {TARGETS['fifo_fast_requests_per_s']:.0e} req/s",
                f"{rps:.2e} req/s over {last['requests']:.0e} requests",
                rps >= TARGETS["fifo_fast_requests_per_s"],
            )
        )
    for row in data["scaling"]:
        linear = row["time_exponent"] <= 1.15
        rows.append(
            (
                f"cost grows linearly: {row['model']} ({row['kind']})",
                "exponent <= 1.15",
                f"{row['time_exponent']:.2f} (µs per request: "
                + " → ".join(f"{_per_request_us(p):.3g}" for p in row["points"])
                + ")",
                linear,
            )
        )
        if row["streaming"]:
            last = row["points"][-1]
            rows.append(
                (
                    f"bounded memory: {row['model']} ({row['kind']})",
                    "100x adds <= 1.5x of 1x + 32 MiB",
                    f"{last['added_mib']:.0f} MiB at {last['requests']:.0e} requests",
                    row["memory_bounded"],
                )
            )
    return rows


def render(data: dict) -> str:
    m = data["machine"]
    lines = [
        "# Benchmark",
        "",
        f"Measured by `make bench` in one run on {m['cores']} cores, {m['memory_gib']} GiB, "
        f"Python {m['python']}, at commit `{data['git_commit']}`. Numbers vary by a few per cent "
        "between runs and more on a loaded machine. Sections measured in this run: "
        f"{', '.join(data.get('sections', SECTIONS))} (`python -m storrepro bench --sections`).",
        "",
        "## Targets",
        "",
        "| target | goal | measured | |",
        "|---|---|---|---|",
    ]
    lines += [f"| {t} | {g} | {v} | {_met(ok)} |" for t, g, v, ok in targets_met(data)]
    lines += [
        "",
        "## Device models: simulated requests per second",
        "",
        "| model | simpy | fast kernel | fast / simpy |",
        "|---|---|---|---|",
    ]
    by_model: dict[str, dict] = {}
    for d in data["devices"]:
        by_model.setdefault(d["model"], {})[d["kind"]] = d["requests_per_s"]
    if not by_model:
        lines.append("| — | not measured in this run | | |")
    for model, kinds in by_model.items():
        simpy_rps, fast_rps = kinds.get("simpy"), kinds.get("fast")
        ratio = f"{fast_rps / simpy_rps:.0f}x" if simpy_rps and fast_rps else "—"
        lines.append(f"| {model} | {_rate(simpy_rps)} | {_rate(fast_rps)} | {ratio} |")
    if data["suites"]:
        lines += [
            "",
            "## Notebooks: wall time and peak memory (process tree)",
            "",
            "Each profile ran as one `make reproduce`; a notebook's time includes starting its "
            "kernel and its dask workers."
            + "".join(
                f" A first quick run before them, which compiled the numba kernels not yet in "
                f"numba's cache (as on a fresh checkout), took {first['wall_s'] / 60:.1f} min; "
                "every later run loads them from the cache."
                for first in data["suites"]
                if first.get("first_run")
            ),
            "",
            "| notebook | profile | wall (s) | budget (s) | peak (MiB) | |",
            "|---|---|---|---|---|---|",
        ]
        for b in (b for suite in timed_suites(data) for b in suite["notebooks"]):
            budget = config_class(b["notebook"]).budget_s[b["profile"] == "full"]
            wall = "—" if b["wall_s"] is None else f"{b['wall_s']:.0f}"
            status = _met(b["wall_s"] <= budget) if b["ok"] else "**failed**"
            lines.append(
                f"| {b['notebook']} | {b['profile']} | {wall} | {budget} | "
                f"{b['peak_mib']:.0f} | {status} |"
            )
    lines += [
        "",
        "## Largest sweep of each paper: 1 vs 2 local dask workers",
        "",
        "| notebook | sweep | tasks | 1 worker (s) | 2 workers (s) | speedup | identical |",
        "|---|---|---|---|---|---|---|",
    ]
    if not data["sweeps"]:
        lines.append("| — | not measured in this run | | | | | |")
    for r in data["sweeps"]:
        lines.append(
            f"| {r['notebook']} | {r['sweep']} | {r['tasks']} | {r['one_worker_s']:.1f} "
            f"| {r['two_workers_s']:.1f} | {r['speedup']:.2f}x | {r['identical']} |"
        )
    lines += [
        "",
        "## Scaling: 1x, 10x, 100x the simulated requests (a fresh process each)",
        "",
        "The exponent is log(time at 100x / time at 1x) / log(100): 1 is linear. A fast "
        "kernel's 1x run can fit in the CPU's caches and cost less per request than the larger "
        "runs, which do not; the µs-per-request column shows where any growth lies.",
        "",
        "| model | kind | requests | seconds | µs per request | memory added (MiB) | exponent "
        "| memory |",
        "|---|---|---|---|---|---|---|---|",
    ]
    if not data["scaling"]:
        lines.append("| — | not measured in this run | | | | | | |")
    for r in data["scaling"]:
        memory = "bounded (streaming percentiles)" if r["streaming"] else "keeps every request"
        for p in r["points"]:
            lines.append(
                f"| {r['model']} | {r['kind']} | {p['requests']:.0e} | "
                f"{p['seconds']:.2f} | {_per_request_us(p):.3g} | {p['added_mib']:.0f} | "
                f"{r['time_exponent']:.2f} | {memory} |"
            )
    return "\n".join(lines) + "\n"


def _per_request_us(point: dict) -> float:
    return 1e6 * point["seconds"] / point["requests"]


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.2e}"


if __name__ == "__main__" and sys.argv[1:2] == ["point"]:
    print(json.dumps(_point(int(sys.argv[2]), int(sys.argv[3]))))
