"""What a notebook needs from a user's trace, and the part of the trace a run reads.

Each paper's package declares its needs (``trace_needs(cfg)``, a :class:`TraceNeeds`, in the
module its config names as ``trace_module``); :func:`check` reads the trace before any work (the
runner before a kernel starts, :class:`~storrepro.suite.run.Run` in a notebook's first cell) and
raises a :class:`~storrepro.suite.config.ParameterError` naming the parameter, its value and what
is allowed; a kernel the runner starts does not read the trace again for a check the runner
passed (:data:`CHECKED_ENV`). The parameters ``trace_start`` and ``trace_days`` (days from the
trace's first record; ``trace_days`` 0 to its end) and ``volumes`` (names, comma-separated; ''
all) select a part of the trace: :func:`selected` writes that part once into a cache file
(``build/traces``, or the user's cache folder where the checkout is read-only), in the
``requests`` format (``iops`` for a rate series), which the conversions then read as the whole
trace.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from storrepro.suite.config import ParameterError
from storrepro.suite.paths import atomic_path, made_once, repo_root
from storrepro.suite.traces.formats import COLUMNS, RATE_COLUMNS
from storrepro.suite.traces.reader import detect_format, read_chunks
from storrepro.suite.traces.summary import FINEST_BIN_S, UNITS, TraceInfo, trace_info

DAY_S = 86_400.0
#: The digests (:func:`checked_digest`) of the checks this process passed, which the runner hands
#: to the kernels it starts so that a notebook does not read a large trace a second time.
CHECKED_ENV = "STORREPRO_TRACE_CHECKED"
PASSED: set[str] = set()


@dataclass(frozen=True)
class TraceNeeds:
    """What a notebook needs from a trace; each ``*_why`` says which parameter sets the need.

    ``requests``: individual requests, not an ``iops`` series; ``volumes``: at least so many
    volumes, each with at least ``volume_requests`` requests; ``seconds``: a span from the first
    to the last record at least this long; ``fine_time`` (why it matters): timestamps to 1 ms or
    finer, not whole seconds, 0.1 s or 10 ms; ``series``: the paper's own check of its converted
    input, given the (selected) trace's path and format, returning what is missing ('' when
    nothing is).
    """

    requests: bool = False
    volumes: int = 1
    volume_requests: int = 0
    volumes_why: str = ""
    seconds: float = 0.0
    seconds_why: str = ""
    fine_time: str = ""
    series: Callable[[str, str], str] | None = None


def span_text(seconds: float) -> str:
    """A span in the unit a reader thinks in: ``2.00 h``, ``33.0 days``."""
    for unit, size in (("days", DAY_S), ("h", 3600.0), ("min", 60.0)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} s"


def selection(cfg) -> dict:
    """The selection parameters set away from their defaults (the whole trace)."""
    names = ("trace_start", "trace_days", "volumes")
    return {k: getattr(cfg, k) for k in names if getattr(cfg, k, None)}


def _volume_names(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def _window(cfg, info: TraceInfo) -> tuple[float, float, list[str]]:
    """``(start_s, end_s, volumes)`` of the selection, checked against the trace."""
    span = info.duration_s
    start = info.start_s + cfg.trace_start * DAY_S
    if cfg.trace_start and cfg.trace_start * DAY_S >= span:
        raise ParameterError(
            f"parameter 'trace_start' = {cfg.trace_start!r}: the trace spans "
            f"{span / DAY_S:.4g} days ({span_text(span)}); expected days from its first record "
            f"below {span / DAY_S:.4g}"
        )
    end = start + cfg.trace_days * DAY_S if cfg.trace_days else info.end_s
    names = _volume_names(cfg.volumes) or sorted(info.volumes)
    unknown = [v for v in names if v not in info.volumes]
    if unknown:
        shown = ", ".join(sorted(info.volumes)[:20]) + (" …" if len(info.volumes) > 20 else "")
        raise ParameterError(
            f"parameter 'volumes' = {cfg.volumes!r}: the trace has no volume {unknown[0]!r}; "
            f"expected names from {shown} (comma-separated; '' for all)"
        )
    return start, end, names


def _file_digest(cfg, *more) -> str:
    """A digest of the trace file as it is now (its path, size and modification time) and
    ``more``; raises OSError when the file cannot be read."""
    path = Path(cfg.trace).resolve()
    stat = path.stat()
    key = json.dumps([str(path), stat.st_size, stat.st_mtime_ns, *more], default=str)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _cache_file(cfg, fmt: str) -> Path:
    digest = _file_digest(cfg, cfg.trace_format, sorted(selection(cfg).items()))
    suffix = "iops.csv" if fmt == "iops" else "requests.csv"
    return _cache_folder() / f"{Path(cfg.trace).resolve().stem}-{digest}.{suffix}"


def _cache_folder() -> Path:
    """The checkout's ``build/traces``; where the checkout cannot be written (read-only, or
    another user's), this user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``)."""
    folder = repo_root() / "build" / "traces"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
        return folder
    except OSError:
        home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        return Path(home) / "storrepro" / "traces"


def _write_selection(cfg, info: TraceInfo, target: Path) -> None:
    start, end, names = _window(cfg, info)
    columns = list(RATE_COLUMNS if info.format == "iops" else COLUMNS)
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(target) as tmp, open(tmp, "w", encoding="utf-8") as out:
        out.write(",".join(columns) + "\n")
        for chunk in read_chunks(cfg.trace, info.format, progress=False):
            keep = (chunk.time_s >= start) & (chunk.time_s <= end) & chunk.volume.isin(names)
            # 9 decimals keep every float64 Unix time exactly (its ulp is above 1e-7 s)
            chunk[keep].to_csv(out, header=False, index=False, float_format="%.9f")


def selected(cfg) -> tuple[str, str]:
    """``(path, format)`` ('' detects it) of the trace a run reads: the user's ``trace`` itself,
    or the part of it ``trace_start``, ``trace_days`` and ``volumes`` select (written once to a
    cache file, then reused); ``('', '')`` without a trace (the stand-in)."""
    if not getattr(cfg, "trace", ""):
        return "", ""
    if not selection(cfg):
        return cfg.trace, cfg.trace_format
    fmt, _ = detect_format(cfg.trace, cfg.trace_format or None)
    target = _cache_file(cfg, fmt)
    if not target.exists():
        with made_once(target):  # a run (or the lab) sharing build/traces may be making it
            if not target.exists():
                _write_selection(cfg, trace_info(cfg.trace, fmt, progress=False), target)
    return str(target), "iops" if fmt == "iops" else "requests"


def _module(cfg):
    return importlib.import_module(cfg.trace_module) if cfg.trace_module else None


def needs_of(cfg) -> TraceNeeds:
    """What the notebook of ``cfg`` needs from a trace: its package's ``trace_needs(cfg)``."""
    module = _module(cfg)
    return module.trace_needs(cfg) if module else TraceNeeds()


def words_of(cfg) -> dict[str, str]:
    """The stand-in's words and what they mean on the user's trace: the config's
    ``trace_words`` and its package's ``trace_words(cfg)``, where it has one; none without a
    trace."""
    if not getattr(cfg, "trace", ""):
        return {}
    module = _module(cfg)
    extra = module.trace_words(cfg) if hasattr(module, "trace_words") else {}
    return {**cfg.trace_words, **extra}


def check(cfg) -> None:
    """Refuse, before any work, a user trace (or the part of it selected) that cannot give the
    notebook's input, saying what the notebook needs; nothing without a ``trace`` or a config
    that declares no needs (no ``trace_module``)."""
    if not (getattr(cfg, "trace", "") and cfg.trace_module):
        return
    digest = checked_digest(cfg)
    if digest and digest in os.environ.get(CHECKED_ENV, "").split(","):
        return  # the runner checked this trace, unchanged since, for these parameters
    subject = f"parameter 'trace' = {cfg.trace!r}"
    try:
        info = trace_info(cfg.trace, cfg.trace_format or None, progress=False)
        if not info.requests:
            raise ValueError("no read or write request in this trace")
        if selection(cfg):
            path, fmt = selected(cfg)
            info = trace_info(path, fmt or None, progress=False)
            chosen = ", ".join(f"{k} = {v!r}" for k, v in selection(cfg).items())
            subject += f" ({chosen})"
            if not info.requests:
                raise ValueError("the selection holds no record")
    except ParameterError:
        raise  # a selection parameter, named by _window
    except (OSError, ValueError) as err:
        raise ParameterError(f"{subject}: {err}") from None
    problem = missing(needs_of(cfg), info, *selected(cfg))
    if problem:
        raise ParameterError(f"{subject}: {cfg.notebook} needs {problem}")
    if digest:
        PASSED.add(digest)


def checked_digest(cfg) -> str:
    """What a passed check vouches for: the notebook, all its parameters, and the trace file's
    path, size and modification time ('' when the file cannot be read: nothing is vouched)."""
    try:
        return _file_digest(cfg, cfg.notebook, cfg.as_dict())
    except OSError:
        return ""


def missing(needs: TraceNeeds, info: TraceInfo, path: str, fmt: str) -> str:
    """What the trace described by ``info`` lacks of ``needs`` ('' when nothing)."""
    if needs.requests and info.format == "iops":
        return "individual requests, not an iops series (rates per interval)"
    if needs.fine_time and info.resolution and UNITS[info.resolution] > FINEST_BIN_S:
        return (
            f"timestamps to 1 ms or finer ({needs.fine_time}); this trace's are in "
            f"{info.resolution}, and {100 * info.tie_share:.1f} % of consecutive requests share "
            "their timestamp"
        )
    if needs.seconds and info.duration_s < needs.seconds:
        return (
            f"at least {span_text(needs.seconds)} of trace ({needs.seconds_why}); it spans "
            f"{span_text(info.duration_s)}"
        )
    enough = [v for v, n in info.volumes.items() if n >= needs.volume_requests]
    if len(enough) < needs.volumes:
        counts = ", ".join(f"{v}: {n:,}" for v, n in sorted(info.volumes.items())[:10])
        each = (f" of at least {needs.volume_requests:,} requests each"
                if needs.volume_requests else "")  # fmt: skip
        return (
            f"at least {needs.volumes} volume(s){each} ({needs.volumes_why}); it has "
            f"{len(enough)} such of {len(info.volumes)} ({counts}{' …' * (len(info.volumes) > 10)})"
        )
    return needs.series(path, fmt) if needs.series else ""
