"""Execute the notebooks with papermill: validate parameters, run, time, summarise.

``python -m storrepro reproduce`` (or ``make reproduce``) lands here. Everything that can be
checked is checked before the first kernel starts: every ``-p`` value against each selected
notebook's config, the output folder (writable, not in use by another run, its kept results
readable), the paths the notebooks record (text the executed notebook can hold), the dask
scheduler (reachable) and the data a notebook reads. A notebook that fails stops nothing else:
the runner reports the failing cell and the error, runs the rest, and exits non-zero. A claim
that does not reproduce is a result, not a failure.

Only the canonical run — the full profile with default parameters — writes the committed
``figures/`` and ``results/``; any other run writes to its own folder under ``build/runs/``
unless ``--out`` is given. A run builds into a staging folder and swaps its outputs in only when
every notebook succeeded, so an output folder never mixes files of two runs.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import logging
import os
import platform
import shutil
import signal
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import nbformat
import papermill
from papermill.exceptions import PapermillExecutionError

from storrepro.suite import parallel
from storrepro.suite.compare import moved_report, record_run
from storrepro.suite.config import NotebookConfig, ParameterError
from storrepro.suite.notebooks import NOTEBOOKS, config_class, notebook_path
from storrepro.suite.parallel import SCHEDULER_ENV, WORKERS_CHECKED_ENV, WORKERS_ENV
from storrepro.suite.paths import (
    BATCH_ENV,
    OUT_ENV,
    build_dir,
    executed_dir,
    figures_dir,
    repo_root,
    results_dir,
    write_text_atomic,
)
from storrepro.suite.readme import update_readme
from storrepro.suite.scorecard import load_results, scorecard_files, verdict_counts
from storrepro.suite.traces import needs


@dataclass(frozen=True)
class Job:
    name: str
    parameters: dict
    #: When it starts: in the quick profile the estimated seconds (NotebookConfig.cost_estimate,
    #: the full profile's measured ones), longest first; in the full profile 0, notebook order
    seconds: float = 0.0


@dataclass(frozen=True)
class Outcome:
    name: str
    ok: bool
    wall_seconds: float
    message: str


#: Longer than this (a day) needs --force.
MAX_SECONDS = 86_400.0

#: The same floating-point code paths on every x86-64 machine, so that the committed results
#: are reproduced bit for bit whatever the CPU generation: numpy's AVX-512 kernels off (its
#: names before and since 2.x) and OpenBLAS's AVX2 (Haswell) kernels. Left alone, a machine
#: with AVX-512 rounds some sums, exponentials and BLAS products differently in the last bit,
#: and an optimiser or a simulation can carry that far (a Holt-Winters fit moved by 0.1 %).
X86_NUMERICS = {
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL "
    "AVX512_ICL AVX512_SPR",
    "OPENBLAS_CORETYPE": "Haswell",
}


def numeric_pins() -> dict[str, str]:
    """:data:`X86_NUMERICS` on an x86-64 machine, else nothing to pin."""
    return X86_NUMERICS if platform.machine().lower() in ("x86_64", "amd64") else {}


def _human_seconds(seconds: float) -> str:
    for unit, size in (("days", 86_400), ("hours", 3_600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


def check_cost(cfg: NotebookConfig, force: bool = False) -> None:
    """Refuse a run whose sizes cannot fit in this machine's memory, or (without ``force``)
    would take more than a day, with the estimate in the message."""
    import psutil

    seconds, mib, driver = cfg.cost_estimate()
    total_mib = psutil.virtual_memory().total / 2**20
    full_s, quick_mib, full_mib = cfg.full_cost
    if mib > total_mib:
        param = cfg.params[driver]
        value = getattr(cfg, driver)
        fits = param.full * (1 + (total_mib - full_mib) / (full_mib - quick_mib))
        raise ParameterError(
            f"parameter {driver!r} = {value!r}: {cfg.notebook} would need about "
            f"{mib / 1024:,.1f} GiB of memory ({full_mib / 1024:.1f} GiB at the full profile's "
            f"{driver} = {param.full!r}), more than this machine's {total_mib / 1024:.1f} GiB; "
            f"at most about {driver} = {fits:.3g} fits"
        )
    if seconds > MAX_SECONDS and not force:
        raise ParameterError(
            f"{cfg.notebook} with these sizes would take about {_human_seconds(seconds)} on "
            f"this machine ({_human_seconds(full_s)} in the full profile); pass --force to run "
            "beyond a day, or --scheduler to spread it over a cluster"
        )


def plan(
    profile: str, only: list[str] | None, overrides: list[str], force: bool = False
) -> list[Job]:
    """Check names, parameters and the cost of every selected notebook; raise before anything
    runs."""
    names = only or list(NOTEBOOKS)
    unknown = [n for n in names if n not in NOTEBOOKS]
    if unknown:
        raise ParameterError(
            f"--only {unknown[0]!r} is not a notebook; available: {', '.join(NOTEBOOKS)}"
        )
    jobs, cran_jobs, checked = [], [], set()
    for name in dict.fromkeys(names):
        cls = config_class(name)
        values = cls.parse_overrides(overrides_for(name, overrides, names))
        cfg = cls(profile=profile, **values)  # validates the resolved configuration
        check_cost(cfg, force)
        check_trace(values)
        needs.check(cfg)  # what the notebook needs from a user's trace, before any kernel
        check_real_vms(cfg, checked)
        # quick: each notebook runs serial in its own kernel, so the longest first pack the
        # cores best (the run ends about when half the notebooks' summed time is done); full:
        # notebook 01's pool, the critical path, would wait behind 02's and 04's sweeps on the
        # run's shared cluster (798.7 s against 781.9 s)
        seconds = cfg.cost_estimate()[0] if profile == "quick" else 0.0
        jobs.append(Job(name, {"profile": profile, **values}, seconds))
        if cls.needs_cran:
            cran_jobs.append(jobs[-1])
    if cran_jobs:
        from storrepro.suite.data.cran import check_cran, cran_source, ensure_cran

        dirs = {j.parameters.get("cran_dir") for j in cran_jobs} - {None, ""}
        # a folder given with -p cran_dir must hold the benchmark; without one, ensure_cran
        # fetches into the cache from the configured (or CRAN's cloud) mirror, and offline
        # raises CranDataMissing naming where it looked and both ways to provide the data
        for folder in [cran_source(d) for d in sorted(dirs)] or [ensure_cran()]:
            check_cran(folder)  # every file parsed once here, not in a kernel seconds later
    return jobs


def check_real_vms(cfg, checked: set) -> None:
    """Read a notebook's real-VM file through all its checks before any kernel starts (once
    per file and run: ``checked`` holds the files read), naming the parameter and the line."""
    if not getattr(cfg, "real_vms", "") or cfg.real_vms in checked:
        return
    from storrepro.suite.data.real_vms import load_real_vms, resolve

    try:
        load_real_vms(resolve(cfg.real_vms))
    except (OSError, ValueError) as err:
        raise ParameterError(f"parameter 'real_vms' = {cfg.real_vms!r}: {err}") from None
    checked.add(cfg.real_vms)


def check_trace(values: dict) -> None:
    """Refuse a ``trace`` whose first lines already show it cannot be read (empty, not UTF-8,
    not its ``trace_format``), before any kernel starts."""
    if not values.get("trace"):
        return
    from storrepro.suite.traces.reader import detect_format

    try:
        detect_format(values["trace"], values.get("trace_format") or None)
    except (OSError, ValueError) as err:
        raise ParameterError(f"parameter 'trace' = {values['trace']!r}: {err}") from None


def overrides_for(name: str, pairs: list[str], names: list[str]) -> list[str]:
    """The ``-p`` pairs that set notebook ``name``'s parameters: every ``NAME=VALUE``, and the
    ``NOTEBOOK:NAME=VALUE`` given for it (a pair for a notebook not in the run is an error)."""
    chosen = []
    for pair in pairs:
        notebook, sep, rest = pair.partition("=")[0].partition(":")
        if not sep:
            chosen.append(pair)
            continue
        if notebook not in names:
            raise ParameterError(
                f"-p {pair!r}: {notebook!r} is not among the notebooks of this run "
                f"({', '.join(names)})"
            )
        if notebook == name:
            chosen.append(pair[len(notebook) + 1 :])
    return chosen


def default_out(profile: str, jobs: list[Job]) -> Path:
    """The repository for the canonical run (full profile, default parameters); otherwise
    ``build/runs/<profile>-<notebooks>-<hash of the parameters>``."""
    overrides = {j.name: {k: v for k, v in j.parameters.items() if k != "profile"} for j in jobs}
    if profile == "full" and not any(overrides.values()):
        return repo_root()
    names = [j.name for j in jobs]
    which = "all" if names == list(NOTEBOOKS) else "+".join(n.split("_")[0] for n in names)
    digest = hashlib.sha256(json.dumps(overrides, sort_keys=True).encode()).hexdigest()[:8]
    return repo_root() / "build" / "runs" / f"{profile}-{which}-{digest}"


def check_scheduler(address: str | None, timeout_s: float = 5.0, source: str = "--scheduler"
                    ) -> None:  # fmt: skip
    """Refuse a malformed dask scheduler address, or one where no dask scheduler answers in
    dask's own protocol within ``timeout_s`` (a wrong port, such as the dashboard's, fails here
    in seconds); wait once, for the whole run, up to ``parallel.WORKER_TIMEOUT_S`` for the
    scheduler to have a worker. ``source`` says where the address came from."""
    if not address:
        return
    hostport = address.split("://", 1)[-1]
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise ParameterError(f"{source} {address!r}: expected tcp://HOST:PORT")
    deadline = None
    while True:
        try:
            identity = parallel.dask_identity(address, timeout_s)
        except (OSError, TimeoutError) as err:
            reason = f" ({err})" if str(err) else " (no dask handshake: not a scheduler's port?)"
            raise ParameterError(
                f"{source} {address!r}: no dask scheduler answers at {host}:{port} within "
                f"{timeout_s:g} s{reason}"
            ) from None
        if identity.get("type") != "Scheduler":
            raise ParameterError(
                f"{source} {address!r}: a dask {identity.get('type', 'process')} answers at "
                f"{host}:{port}, not a scheduler"
            )
        if identity.get("workers"):
            return
        if deadline is None:
            deadline = time.monotonic() + parallel.WORKER_TIMEOUT_S
            print(f"waiting up to {parallel.WORKER_TIMEOUT_S:g} s for a worker of the dask "
                  f"scheduler at {address}", flush=True)  # fmt: skip
        elif time.monotonic() > deadline:
            raise ParameterError(
                f"{source} {address!r}: the dask scheduler has no workers after "
                f"{parallel.WORKER_TIMEOUT_S:g} s: start some (`dask worker {address} "
                "--nthreads 1`) or run without a scheduler"
            )
        time.sleep(0.5)


def check_paths_as_text(out: Path, jobs: list[Job]) -> None:
    """Refuse a path the executed notebooks record (``--out``, a notebook's folder, an input
    file) whose name is not UTF-8 text here: a non-UTF-8 folder name, or a non-ASCII one under a
    C locale without UTF-8, reaches Python as surrogates, and writing the notebook would fail."""
    paths = {"--out": out}
    for job in jobs:
        paths[f"{job.name}'s notebook folder"] = notebook_path(job.name).parent
        spec = config_class(job.name).all_params()
        paths.update({f"parameter {name!r}": value for name, value in job.parameters.items()
                      if spec[name].is_file and value})  # fmt: skip
    for what, path in paths.items():
        try:
            str(path).encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(path).decode("utf-8", "backslashreplace")
            raise ParameterError(
                f"{what} {shown}: its name is not UTF-8 text in this process (file-system "
                f"encoding {sys.getfilesystemencoding()}), and the executed notebooks record it "
                "as UTF-8; run under a UTF-8 locale (LC_ALL=C.UTF-8, or PYTHONUTF8=1), or rename "
                "a folder whose name is not UTF-8"
            ) from None


def check_writable(out: Path) -> None:
    """Refuse an output folder this process cannot create or write into; in a checkout it may
    not write (read-only, or another user's), say to give the run an ``--out`` elsewhere."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=out).close()
    except OSError as err:
        hint = ""
        if err.errno in (errno.EACCES, errno.EPERM, errno.EROFS) and out.is_relative_to(
                repo_root()):  # fmt: skip
            hint = "; a read-only checkout? give this run an --out folder you can write"
        raise ParameterError(
            f"--out {out}: cannot write there ({err.strerror or err}){hint}") from None


#: Room left free on the output's file system after publishing writes its files.
SPARE_BYTES = 16 * 2**20


#: The least room a notebook's outputs are given when the repository holds none of them to
#: measure.
MIN_NOTEBOOK_BYTES = 16 * 2**20


def outputs_size(name: str) -> int:
    """Bytes of notebook ``name``'s committed outputs (figures, result, executed notebook), at
    least :data:`MIN_NOTEBOOK_BYTES`: roughly what a run of it writes."""
    root = repo_root()
    files = [results_dir(root) / f"{name}.json", executed_dir(root) / f"{name}.ipynb"]
    files += figures_dir(name, root).rglob("*")
    return max(MIN_NOTEBOOK_BYTES, sum(f.stat().st_size for f in files if f.is_file()))


def check_free_space(out: Path, names: list[str]) -> None:
    """Refuse a run whose outputs would not fit on ``out``'s file system (each notebook's
    outputs twice: written in staging, then the executed notebooks prepared for publishing),
    before any kernel starts; publishing checks again, on the sizes written."""
    needed = 2 * sum(outputs_size(name) for name in names) + SPARE_BYTES
    free = shutil.disk_usage(out).free
    if free < needed:
        raise ParameterError(
            f"--out {out}: {free / 2**20:,.0f} MiB free on its file system, this run needs about "
            f"{needed / 2**20:,.0f} MiB (twice its notebooks' outputs); free some space or give "
            "this run another --out"
        )


@contextmanager
def output_lock(out: Path):
    """Hold the output folder for this run: its staging folder and what publishing replaces.

    A second run into the same folder (``make reproduce`` twice, whatever its ``--only``: the
    canonical run's folder is the repository) is refused at once, before its slower checks and
    any kernel, with a message naming the run holding the lock: its pid, host, start and
    command, and the lock file. Refused rather than made to wait, because a waiting run would
    publish over the outputs the first just published, from checks (free space, CRAN data, the
    scheduler) made before the wait; the user decides whether to run again. The record is
    written only once the lock is held, and the file is opened without truncating it, so a
    refused run never erases the holder's record."""
    path = build_dir(out, LOCK_NAME)
    path.parent.mkdir(parents=True, exist_ok=True)
    with os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, 0o666), "r+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ParameterError(
                f"another run is writing into {out}: {_holder(handle)}; its lock: "
                f"{path}. Wait for it to end, or give this run another --out"
            ) from None
        handle.truncate()
        handle.write(json.dumps(_lock_record()) + "\n")
        handle.flush()
        yield


#: The lock file of an output folder (under its build folder, see :func:`build_dir`).
LOCK_NAME = ".storrepro.lock"


def _lock_record() -> dict:
    started = time.strftime("%Y-%m-%d %H:%M:%S %z")
    command = " ".join(["python -m storrepro", *sys.argv[1:]])
    return {"pid": os.getpid(), "host": platform.node(), "started": started, "command": command}


def _holder(handle) -> str:
    """Who holds an output lock, from the record in its file (a run older than the record, or
    one that has not written it yet, says so)."""
    try:
        held = json.loads(handle.read())
        return (f"pid {held['pid']} on {held['host']}, started {held['started']} "
                f"({held['command']})")  # fmt: skip
    except (ValueError, TypeError, KeyError):
        return "a run that recorded no pid or start"


class PublishError(OSError):
    """Publishing a finished run failed; the previous outputs are as they were."""


def publish(staging: Path, out: Path, names: list[str]) -> None:
    """Swap each notebook's figures (its folder replaced whole), result and executed notebook,
    and the scorecard, from ``staging`` into ``out``: all of them or, on any failure or an
    interrupt, none (the previous outputs are put back as they were; this run's stay in
    ``staging``).

    Everything that takes disk space — the executed notebooks without their progress bars, the
    new scorecard — is written into ``staging`` first, after checking the room for it; the swap
    itself only renames within the output's file system."""
    incoming = staging / "publish"
    shutil.rmtree(incoming, ignore_errors=True)
    try:
        moves = _prepare(staging, out, names, incoming)
    except OSError as err:
        raise PublishError(
            f"could not prepare this run's outputs for {out} ({err.strerror or err}); the "
            f"previous outputs are unchanged, and this run's are in {staging}"
        ) from err
    saved = staging / "previous"
    shutil.rmtree(saved, ignore_errors=True)
    done: list[tuple[Path, Path, Path | None, bool]] = []
    try:
        for new, target in moves:
            backup = None
            if os.path.lexists(target):
                backup = saved / target.relative_to(out)
                backup.parent.mkdir(parents=True, exist_ok=True)
                os.replace(target, backup)
            done.append((new, target, backup, False))
            os.replace(new, target)
            done[-1] = (new, target, backup, True)
    except BaseException as err:
        _roll_back(done)
        if isinstance(err, OSError):
            raise PublishError(
                f"could not swap this run's outputs into {out} ({err.strerror or err}); the "
                f"previous outputs are as they were, and this run's are in {staging}"
            ) from err
        raise
    shutil.rmtree(saved, ignore_errors=True)
    shutil.rmtree(incoming, ignore_errors=True)


def _prepare(staging: Path, out: Path, names: list[str], incoming: Path) -> list[tuple]:
    """Lay out in ``incoming`` what :func:`publish` swaps in; ``(new, target)`` pairs."""
    executed = {
        name: nbformat.writes(
            without_progress_bars(nbformat.read(executed_dir(staging) / f"{name}.ipynb", 4))
        ) + "\n"
        for name in names
    }
    results = {r["notebook"]: r for r in load_results(out, but=names)}
    results.update({r["notebook"]: r for r in load_results(staging)})
    scorecard = scorecard_files([results[k] for k in sorted(results)])
    needed = sum(len(t.encode()) for t in [*executed.values(), *scorecard.values()])
    needed += SPARE_BYTES
    free = shutil.disk_usage(staging).free
    if free < needed:
        raise OSError(
            errno.ENOSPC,
            f"not enough free space: {free / 2**20:,.0f} MiB free, {needed / 2**20:,.0f} MiB "
            "needed",
        )
    moves = []
    for name in names:
        figures = [figures_dir(name, folder) for folder in (staging, incoming, out)]
        result = [results_dir(folder) / f"{name}.json" for folder in (staging, incoming, out)]
        figures[1].parent.mkdir(parents=True, exist_ok=True)
        if figures[0].exists():
            os.replace(figures[0], figures[1])
        else:  # a notebook without figures still replaces its old figure folder
            figures[1].mkdir()
        result[1].parent.mkdir(parents=True, exist_ok=True)
        os.replace(result[0], result[1])
        moves += [(figures[1], figures[2]), (result[1], result[2])]
        new = executed_dir(incoming) / f"{name}.ipynb"
        write_text_atomic(new, executed[name])
        moves.append((new, executed_dir(out) / new.name))
    for name, text in scorecard.items():  # SCORECARD.md and each notebook's claims file
        new = results_dir(incoming) / name
        write_text_atomic(new, text)
        moves.append((new, results_dir(out) / name))
    for _, target in moves:
        target.parent.mkdir(parents=True, exist_ok=True)
    return moves


def _roll_back(done: list[tuple[Path, Path, Path | None, bool]]) -> None:
    """Undo a partial swap, newest step first; a second Ctrl-C cannot cut it short."""
    previous = _ignore_interrupts()
    try:
        for new, target, backup, moved_in in reversed(done):
            if moved_in:
                os.replace(target, new)
            if backup is not None:
                os.replace(backup, target)
    finally:
        _restore_interrupts(previous)


def _ignore_interrupts():
    """Ignore Ctrl-C (and SIGTERM) in the main thread; the previous handlers, to restore."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}


def _restore_interrupts(previous) -> None:
    for sig, handler in (previous or {}).items():
        signal.signal(sig, handler)


def without_progress_bars(nb):
    """The notebook without its stderr streams (progress bars, kernel warnings): what a reader
    of the rendered notebook needs, at a fraction of the size."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [
                o for o in cell.outputs if not (o.output_type == "stream" and o.name == "stderr")
            ]
    return nb


@contextmanager
def kernel_environment(out: Path, workers: int | None, scheduler: str | None):
    """Environment the kernels inherit: where to write, where sweeps run and, on x86-64, which
    floating-point code paths the numerical libraries take (:func:`numeric_pins`), and that no
    frontend will move a live control (:func:`storrepro.suite.widgets.live` precomputes it)."""
    settings = {
        OUT_ENV: str(out),
        BATCH_ENV: "1",
        WORKERS_ENV: str(workers) if workers else None,
        SCHEDULER_ENV: scheduler,
        WORKERS_CHECKED_ENV: "1" if scheduler else None,
        needs.CHECKED_ENV: ",".join(sorted(needs.PASSED)) or None,  # plan()'s trace checks
        **numeric_pins(),
    }
    with environment(settings):
        yield


@contextmanager
def environment(settings: dict[str, str | None]):
    """``os.environ`` with ``settings`` (None unsets), as it was again after."""
    saved = {k: os.environ.get(k) for k in settings}
    try:
        _set_environment(settings)
        yield
    finally:
        _set_environment(saved)


@contextmanager
def run_cluster(start: bool):
    """Where ``start``: one local dask cluster for the whole run (one single-threaded worker
    per core), started inside :func:`kernel_environment` so that its workers take the kernels'
    numeric pins, and every notebook's sweeps sent to it. Notebooks side by side then share
    the cores: one notebook's sweep keeps both busy while another runs its serial cells, and no
    notebook starts workers of its own. Closed when the run ends, however it ends."""
    if not start:
        yield
        return
    cluster = parallel.local_cluster(os.cpu_count() or 1)
    try:
        with environment({SCHEDULER_ENV: cluster.scheduler_address, WORKERS_CHECKED_ENV: "1"}):
            yield
    finally:
        cluster.close()


def _set_environment(values: dict[str, str | None]) -> None:
    """Set each variable, or unset it where the value is None."""
    for key, value in values.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def execute(job: Job, folder: Path) -> Outcome:
    """Run one notebook; its executed copy goes to ``folder/<name>.ipynb``."""
    source = notebook_path(job.name)
    target = folder / f"{job.name}.ipynb"
    partial = folder / f".{job.name}.running.ipynb"
    folder.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    finished = False
    try:
        papermill.execute_notebook(
            str(source),
            str(partial),
            parameters=job.parameters,
            kernel_name="python3",
            language="python",
            cwd=str(source.parent),
            progress_bar=sys.stderr.isatty(),
            log_output=False,
            kernel_manager_class=_stoppable_kernel_manager(),
        )
        ok, message, finished = True, "ok", True
    except PapermillExecutionError as err:
        ok, finished = False, True
        source_lines = "\n".join("    | " + line for line in err.source.splitlines())
        message = f"failed in cell {err.exec_count}:\n{source_lines}\n    {err.ename}: {err.evalue}"
    except Exception as err:  # the kernel could not start, the file is unreadable, ...
        ok, message = False, f"could not run the notebook: {type(err).__name__}: {err}"
    finally:  # an interrupted notebook keeps its ".running" name: it is not a result
        if finished and partial.exists():
            os.replace(partial, target)
    return Outcome(job.name, ok, time.perf_counter() - start, message)


def reproduce(
    profile: str = "full",
    only: list[str] | None = None,
    out: Path | None = None,
    overrides: list[str] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    at_once: int | None = None,
    force: bool = False,
) -> int:
    """Run the selected notebooks; return the process exit code (0 when all ran).

    ``at_once`` notebooks run side by side (default: one per core). Unless ``workers`` or
    ``scheduler`` says otherwise, the full profile's sweeps all run on one local cluster the run
    starts (:func:`run_cluster`), and with more than one notebook at once the quick profile's
    sweeps, too small to keep two cores busy, each in its notebook's own process.
    """
    with owned_signals():
        return _reproduce(profile, only, out, overrides, workers, scheduler, at_once, force)


class Stopped(KeyboardInterrupt):
    """The run was stopped by a signal (Ctrl-C's SIGINT, or SIGTERM)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stop(signum, frame) -> None:
    raise Stopped(signum)


@contextmanager
def owned_signals():
    """SIGINT and SIGTERM stop the run (its kernels killed, its outputs unchanged) whatever
    the process inherited: a non-interactive shell starts background commands with SIGINT
    ignored, and Python then installs no KeyboardInterrupt handler of its own."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        _restore_interrupts(previous)


def _reproduce(profile, only, out, overrides, workers, scheduler, at_once, force) -> int:
    jobs = plan(profile, only, overrides or [], force)
    at_once = max(1, min(at_once or os.cpu_count() or 1, len(jobs)))
    source = "--scheduler"
    if workers is None and scheduler is None and parallel.configured_scheduler():
        scheduler = parallel.configured_scheduler()  # dask's own configuration is honoured
        source = "dask's scheduler-address (DASK_SCHEDULER_ADDRESS)"
    shared = False  # one cluster for the run: the full profile, unless told where to sweep
    if workers is None and scheduler is None:
        shared = profile != "quick"
        if not shared and at_once > 1:
            workers = 1  # the quick profile's small sweeps, each in its notebook's process
    check_scheduler(scheduler, source=source)
    out = Path(out).resolve() if out else default_out(profile, jobs)
    check_paths_as_text(out, jobs)
    check_writable(out)
    with output_lock(out):  # before the checks left: a second run is refused at once
        check_free_space(out, [j.name for j in jobs])
        load_results(out, but=[j.name for j in jobs])  # publishing keeps them: read now
        check_inputs_outside(out, jobs)
        started = time.perf_counter()
        staging = build_dir(out, "staging")
        shutil.rmtree(staging, ignore_errors=True)
        try:
            with kernel_environment(staging, workers, scheduler), run_cluster(shared):
                outcomes = _run_jobs(jobs, executed_dir(staging), at_once)
            _print_summary(outcomes, staging, time.perf_counter() - started)
            if not all(o.ok for o in outcomes):
                print(
                    f"a notebook failed, so the outputs in {out} are unchanged; this run's "
                    f"outputs, executed notebooks with their tracebacks included, are in {staging}"
                )
                return 1
            publish(staging, out, [j.name for j in jobs])
        except KeyboardInterrupt as err:
            print(
                f"\ninterrupted: the outputs in {out} are unchanged; this run's partial "
                f"outputs are in {staging}",
                flush=True,
            )
            return 128 + getattr(err, "signum", signal.SIGINT)
        shutil.rmtree(staging)
        if out == repo_root():
            record_run(out, [j.name for j in jobs])
            update_readme(out)
        else:
            for result in load_results(out):
                if result["notebook"] in {j.name for j in jobs}:
                    print(moved_report(result))
        print(f"outputs of this run: {out} (scorecard {results_dir(out) / 'SCORECARD.md'})")
        return 0


def check_inputs_outside(out: Path, jobs: list[Job]) -> None:
    """Refuse an input file (a ``trace``) inside what this run replaces or builds in."""
    replaced = [figures_dir(j.name, out) for j in jobs]
    replaced += [results_dir(out), build_dir(out, "staging")]
    for job in jobs:
        spec = config_class(job.name).all_params()
        for name, value in job.parameters.items():
            if not (spec[name].is_file and value):
                continue
            path = Path(value).resolve()
            clash = next((d for d in replaced if path.is_relative_to(d.resolve())), None)
            if clash is not None:
                raise ParameterError(
                    f"parameter {name!r} = {value!r}: an input inside {clash}, which this run "
                    "replaces; move the file or give this run another --out"
                )


def _run_jobs(jobs: list[Job], folder: Path, at_once: int = 1) -> list[Outcome]:
    """Run the notebooks, ``at_once`` of them side by side (each in its own kernel process),
    the longest (``Job.seconds``) first; numbered, reported and returned in the jobs' order. On
    Ctrl-C every running kernel is stopped at once, with its dask workers, and no further
    notebook starts."""

    def run(i: int, job: Job, first: bool) -> Outcome | None:
        if _STOP.is_set():
            return None
        print(f"[{i}/{len(jobs)}] {job.name}  ({_describe(job.parameters)})", flush=True)
        # the first one started skips the check of the scheduler's workers the run just made
        lost = "" if first else workers_lost(os.environ.get(SCHEDULER_ENV))
        outcome = Outcome(job.name, False, 0.0, lost) if lost else execute(job, folder)
        if _STOP.is_set():  # its kernel was stopped: no report, the run says it once
            return outcome
        print(
            f"      {job.name}: {'done' if outcome.ok else 'FAILED'} in "
            f"{outcome.wall_seconds:.1f} s",
            flush=True,
        )
        if not outcome.ok:
            print(f"      {outcome.message}", flush=True)
        return outcome

    _STOP.clear()
    pool = ThreadPoolExecutor(max_workers=at_once)
    order = sorted(range(len(jobs)), key=lambda k: -jobs[k].seconds)
    started = {k: pool.submit(run, k + 1, jobs[k], k == order[0]) for k in order}
    futures = [started[k] for k in range(len(jobs))]
    try:
        # the notebooks run in the pool, so that this (main) thread only waits and takes Ctrl-C
        outcomes = [future.result() for future in futures]
    except BaseException:
        _STOP.set()
        quiet = logging.getLogger("papermill")  # not "Kernel died ..." once per notebook
        level, quiet.level = quiet.level, logging.CRITICAL
        _stop_kernels()
        pool.shutdown(wait=False, cancel_futures=True)
        wait([f for f in futures if not f.cancelled()], timeout=STOP_WAIT_S)
        quiet.setLevel(level)
        raise
    pool.shutdown()
    return outcomes


#: Set on Ctrl-C: no notebook starts, and every kernel that starts is stopped at once.
_STOP = threading.Event()
_KERNELS: set = set()
_KERNELS_LOCK = threading.Lock()
#: How long an interrupted run waits for its notebooks' threads to notice their kernels died.
STOP_WAIT_S = 10.0


#: How long the check between notebooks waits for the scheduler's answer.
CHECK_TIMEOUT_S = 5.0


def workers_lost(address: str | None) -> str:
    """Why no notebook should start on the run's dask scheduler (it no longer answers, or has
    no worker left), or "": asked once before each notebook after the first (at most
    :data:`CHECK_TIMEOUT_S`), so that a cluster lost mid-run fails the notebooks left at
    once, without starting their kernels."""
    if not address:
        return ""
    try:
        if parallel.dask_identity(address, CHECK_TIMEOUT_S).get("workers"):
            return ""
        reason = "has no worker left"
    except (OSError, TimeoutError):
        reason = "no longer answers"
    return (f"not started: the dask scheduler at {address} {reason} (it had workers when the "
            "run began); restart them and run the notebooks that failed again")


def _stoppable_kernel_manager():
    """jupyter_client's kernel manager, keeping each kernel it launches in :data:`_KERNELS`
    so that :func:`_stop_kernels` can end it (a kernel runs in a session of its own, so a
    Ctrl-C at the terminal never reaches it)."""
    import zmq
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class StoppableKernelManager(AsyncKernelManager):
        @default("transport_encryption")
        def _encrypt(self):
            # CurveZMQ keys for every kernel whose kernelspec supports them (ipykernel's does):
            # the messages are encrypted, and the kernel's plain-TCP warning stays away. A
            # libzmq built without Curve refuses "auto", so it keeps the plain transport.
            return "auto" if zmq.has("curve") else "disabled"

        async def _async_launch_kernel(self, kernel_cmd, **kw):
            await super()._async_launch_kernel(kernel_cmd, **kw)
            with _KERNELS_LOCK:  # their Popen: a pid is ours until its Popen reaps it
                _KERNELS.difference_update([p for p in _KERNELS if p.poll() is not None])
                _KERNELS.add(self.provisioner.process)
            if _STOP.is_set():
                _stop_kernels()

    return StoppableKernelManager


def _stop_kernels() -> None:
    """Kill every kernel this run launched, with its process group (its dask workers)."""
    with _KERNELS_LOCK:
        for process in _KERNELS:
            if process.poll() is None:
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)  # its own session: pgid == pid
        _KERNELS.clear()


def _describe(parameters: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in parameters.items())


def _print_summary(outcomes: list[Outcome], out: Path, wall_s: float) -> None:
    results = {r["notebook"]: r for r in load_results(out)}
    print("\nSummary")
    for o in outcomes:
        counts = verdict_counts(results[o.name]) if o.ok and o.name in results else {}
        tally = ", ".join(f"{n} {v}" for v, n in counts.items() if n) or "no test claims"
        print(f"  {o.name:<28} {'ok' if o.ok else 'FAILED':<7} {o.wall_seconds:7.1f} s   {tally}")
    print(f"  all notebooks in {wall_s:.1f} s")


def describe_parameters(name: str) -> str:
    """A notebook's parameters with their quick/full values and what is allowed."""
    cls: type[NotebookConfig] = config_class(name)
    lines = [f"{name}: {cls.paper}"]
    for pname, p in cls.all_params().items():
        lines.append(
            f"  {pname:<24} quick={p.quick!r:<12} full={p.full!r:<12} ({p.allowed()}) {p.help}"
        )
    return "\n".join(lines)
