"""Execute the notebooks with papermill: validate parameters, run, time, summarise.

``python -m storrepro reproduce`` (or ``make reproduce``) lands here. Every ``-p`` value is
checked by each selected notebook's config before the first kernel starts. A notebook that fails
stops nothing else: the runner reports the failing cell and the error, runs the rest, and exits
non-zero. A claim that does not reproduce is a result, not a failure.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import papermill
from papermill.exceptions import PapermillExecutionError

from storrepro.claims import load_results, verdict_counts
from storrepro.config import NotebookConfig, ParameterError
from storrepro.notebooks import NOTEBOOKS, config_class, notebook_path
from storrepro.parallel import SCHEDULER_ENV, WORKERS_ENV
from storrepro.paths import OUT_ENV, build_dir, repo_root, results_dir


@dataclass(frozen=True)
class Job:
    name: str
    parameters: dict


@dataclass(frozen=True)
class Outcome:
    name: str
    ok: bool
    wall_seconds: float
    message: str


def plan(profile: str, only: list[str] | None, overrides: list[str]) -> list[Job]:
    """Check names and parameters of every selected notebook; raise before anything runs."""
    names = only or list(NOTEBOOKS)
    unknown = [n for n in names if n not in NOTEBOOKS]
    if unknown:
        raise ParameterError(
            f"--only {unknown[0]!r} is not a notebook; available: {', '.join(NOTEBOOKS)}"
        )
    jobs = []
    for name in dict.fromkeys(names):
        cls = config_class(name)
        values = cls.parse_overrides(overrides)
        cls(profile=profile, **values)  # validates the whole resolved configuration
        jobs.append(Job(name, {"profile": profile, **values}))
    return jobs


@contextmanager
def kernel_environment(out: Path, workers: int | None, scheduler: str | None):
    """Environment the kernels inherit: where to write and where sweeps run."""
    settings = {
        OUT_ENV: str(out),
        WORKERS_ENV: str(workers) if workers else None,
        SCHEDULER_ENV: scheduler,
    }
    saved = {k: os.environ.get(k) for k in settings}
    try:
        _set_environment(settings)
        yield
    finally:
        _set_environment(saved)


def _set_environment(values: dict[str, str | None]) -> None:
    """Set each variable, or unset it where the value is None."""
    for key, value in values.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def execute(job: Job, executed_dir: Path) -> Outcome:
    """Run one notebook; its executed copy goes to ``executed_dir/<name>.ipynb``."""
    source = notebook_path(job.name)
    target = executed_dir / f"{job.name}.ipynb"
    partial = executed_dir / f".{job.name}.running.ipynb"
    executed_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
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
        )
        ok, message = True, "ok"
    except PapermillExecutionError as err:
        ok = False
        source_lines = "\n".join("    | " + line for line in err.source.splitlines())
        message = f"failed in cell {err.exec_count}:\n{source_lines}\n    {err.ename}: {err.evalue}"
    except Exception as err:  # the kernel could not start, the file is unreadable, ...
        ok, message = False, f"could not run the notebook: {type(err).__name__}: {err}"
    finally:
        if partial.exists():
            os.replace(partial, target)
    return Outcome(job.name, ok, time.perf_counter() - start, message)


def reproduce(
    profile: str = "full",
    only: list[str] | None = None,
    out: Path | None = None,
    overrides: list[str] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> int:
    """Run the selected notebooks; return the process exit code (0 when all ran)."""
    jobs = plan(profile, only, overrides or [])
    out = Path(out).resolve() if out else repo_root()
    executed_dir = build_dir(out, "executed")
    outcomes = []
    with kernel_environment(out, workers, scheduler):
        for i, job in enumerate(jobs, 1):
            print(f"[{i}/{len(jobs)}] {job.name}  ({_describe(job.parameters)})", flush=True)
            outcome = execute(job, executed_dir)
            outcomes.append(outcome)
            status = "done" if outcome.ok else "FAILED"
            print(f"      {status} in {outcome.wall_seconds:.1f} s", flush=True)
            if not outcome.ok:
                print(f"      {outcome.message}", flush=True)
                print(f"      full traceback: {executed_dir / (job.name + '.ipynb')}", flush=True)
    _print_summary(outcomes, out)
    return 0 if all(o.ok for o in outcomes) else 1


def _describe(parameters: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in parameters.items())


def _print_summary(outcomes: list[Outcome], out: Path) -> None:
    results = {r["notebook"]: r for r in load_results(out)}
    print("\nSummary")
    for o in outcomes:
        counts = verdict_counts(results[o.name]) if o.ok and o.name in results else {}
        tally = ", ".join(f"{n} {v}" for v, n in counts.items() if n) or "no test claims"
        print(f"  {o.name:<28} {'ok' if o.ok else 'FAILED':<7} {o.wall_seconds:7.1f} s   {tally}")
    total = sum(o.wall_seconds for o in outcomes)
    folder = results_dir(out)
    print(f"  total {total:.1f} s; results in {folder}; scorecard {folder / 'SCORECARD.md'}")


def describe_parameters(name: str) -> str:
    """A notebook's parameters with their quick/full values and what is allowed."""
    cls: type[NotebookConfig] = config_class(name)
    lines = [f"{name}: {cls.paper}"]
    for pname, p in cls.all_params().items():
        lines.append(
            f"  {pname:<24} quick={p.quick!r:<12} full={p.full!r:<12} ({p.allowed()}) {p.help}"
        )
    return "\n".join(lines)
