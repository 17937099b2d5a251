"""Where the suite reads and writes, and the atomic writes every output goes through.

Outputs of a run under ``OUT``: ``OUT/figures/<notebook>/``, ``OUT/results/<notebook>.json`` and
``OUT/results/SCORECARD.md``. The runner sets ``OUT`` (default: the repository root, so a
``make reproduce`` refreshes the committed figures and results) through ``STORREPRO_OUT``. A
notebook run by hand in JupyterLab writes under ``build/lab/`` instead, so a student's quick
experiment never overwrites the committed full-profile results.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

OUT_ENV = "STORREPRO_OUT"
#: Set by the runner for the kernels it starts: their output is only read, no frontend is live.
BATCH_ENV = "STORREPRO_BATCH"
#: The HTML class of a live control's precomputed slider (``widgets.precomputed``), by which
#: the site finds it.
LIVE_CLASS = "storrepro-live"


def repo_root() -> Path:
    """The checkout holding this package (an editable install); else the working directory."""
    for parent in Path(__file__).resolve().parents:
        if (parent / "pyproject.toml").is_file() and (parent / "notebooks").is_dir():
            return parent
    return Path.cwd()


def output_root() -> Path:
    """``$STORREPRO_OUT`` when the runner set it, else ``build/lab`` of the checkout."""
    configured = os.environ.get(OUT_ENV)
    return Path(configured) if configured else repo_root() / "build" / "lab"


def figures_dir(notebook: str, out: Path | None = None) -> Path:
    return (out or output_root()) / "figures" / notebook


def results_dir(out: Path | None = None) -> Path:
    return (out or output_root()) / "results"


def executed_dir(out: Path | None = None) -> Path:
    """The executed notebooks of a run: ``results/executed`` (committed for the canonical run,
    so the site of a fresh clone has its rendered notebooks)."""
    return results_dir(out) / "executed"


def build_dir(out: Path, name: str) -> Path:
    """Where a run under ``out`` keeps build output (``staging``, ``site``): ``build/<name>`` of
    the repository for the canonical run, ``OUT/<name>`` for any other output folder."""
    return out / "build" / name if out == repo_root() else out / name


def git_commit() -> str:
    """The checkout's commit, with ``-dirty`` when its code or notebooks have uncommitted edits."""
    root = repo_root()

    def git(*args: str) -> str:
        try:
            done = subprocess.run(
                ["git", *args], cwd=root, capture_output=True, text=True, check=False
            )
        except OSError:  # no git on this machine (e.g. a downloaded archive)
            return ""
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short=12", "HEAD")
    if not commit:
        return "unknown"
    return commit + ("-dirty" if git("status", "--porcelain", "--", "lib", "notebooks") else "")


@contextmanager
def atomic_path(path: Path | str):
    """Yield a temporary path beside ``path``; rename it into place only if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are for readers too
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


@contextmanager
def made_once(path: Path | str):
    """Hold ``path``'s lock file (``<name>.lock`` beside it) while the block makes ``path``, so
    that runs sharing a cache folder make a file once: a second run waits here, then finds the
    file made. Says so when it has to wait."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting for another run making {path}", flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def write_text_atomic(path: Path | str, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_bytes_atomic(path: Path | str, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: Strict JSON has no NaN or infinity: they are written as these strings and read back.
NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
#: A string that would read back as a number (or starts with this mark) is written with this
#: mark before it, so strings and numbers alike come back as they went in.
STRING_MARK = "\\"


def _finite_json(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, str) and (value in NON_FINITE or value.startswith(STRING_MARK)):
        return STRING_MARK + value
    if isinstance(value, dict):
        return {k: _finite_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite_json(v) for v in value]
    return value


def _read_non_finite(value):
    if isinstance(value, str):
        if value.startswith(STRING_MARK):
            return value[len(STRING_MARK) :]
        return NON_FINITE.get(value, value)
    if isinstance(value, dict):
        return {k: _read_non_finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_read_non_finite(v) for v in value]
    return value


def write_json_atomic(path: Path | str, data) -> None:
    """Strict JSON: non-finite floats are written as ``"NaN"``, ``"Infinity"``, ``"-Infinity"``,
    and a string of those spellings (or starting with a backslash) with a backslash before it
    (see :func:`read_json`)."""
    write_text_atomic(path, json.dumps(_finite_json(data), indent=2, allow_nan=False) + "\n")


def read_json(path: Path | str):
    """What :func:`write_json_atomic` wrote, non-finite floats and strings restored; a file that
    is not valid JSON (a truncated result) is an error naming it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ValueError(
            f"{path}, line {err.lineno}: not a valid results file ({err.msg}); a truncated or "
            "damaged file? run its notebook again"
        ) from None
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{path}: not a valid results file ({err}); run its notebook again"
        ) from None
    return _read_non_finite(data)
