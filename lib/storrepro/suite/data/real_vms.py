"""Real production VMs: requests per 30-minute snapshot of CloudPhysics VMs, read at run time.

The file (``vms_30min.csv``: columns ``vm, interval, requests, ts``, ``ts`` the snapshot's end in
µs from the VM's trace start) holds the per-VM snapshot counts of the CloudPhysics block traces
as the public *BlockTraceFeatures* repository publishes them (its ``block_snap_<vm>.csv``
files). It is read from where the user keeps it — the ``real_vms`` parameter, else
``$STORREPRO_REAL_VMS``, else ``../shared/data/cloudphysics_vms/vms_30min.csv`` beside the
checkout — and never copied into this repository. :func:`load_real_vms` gives each VM's
requests per snapshot in interval order and records the file's path and SHA-256, which a run
keeps as its input.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from storrepro.suite.paths import repo_root

ENV = "STORREPRO_REAL_VMS"
COLUMNS = ("vm", "interval", "requests", "ts")
SNAPSHOT_S = 1800.0
PER_DAY = 48
#: Where the data comes from, for a reader without the file.
SOURCE = (
    "the CloudPhysics block traces' per-VM 30-minute snapshot counts (block_snap_<vm>.csv) "
    "of the public BlockTraceFeatures repository, gathered into one CSV with the columns "
    + ", ".join(COLUMNS)
)


@dataclass(frozen=True)
class RealVMs:
    """The VMs of one file: ``series[vm]`` the requests per snapshot in interval order, the VMs
    in the file's order."""

    path: str
    sha256: str
    series: dict[str, np.ndarray] = field(repr=False)

    def describe(self) -> str:
        """The run's input in words: path (relative to the checkout when the file sits beside
        it, so results do not depend on where the checkout is) and digest."""
        return f"real VMs {portable(self.path)} (sha256 {self.sha256[:16]}, {len(self.series)} VMs)"


def portable(path: str | Path) -> str:
    """``path`` relative to the checkout (``../shared/...``) when it lies in the checkout's
    parent folder, else as given: the same file reads the same wherever the checkout is. Links
    are not followed: a ``shared`` folder linked beside the checkout still reads ``../shared``."""
    path, home = Path(os.path.abspath(path)), Path(os.path.abspath(repo_root()))
    return os.path.relpath(path, home) if path.is_relative_to(home.parent) else str(path)


def default_path() -> Path | None:
    """The real-VM file a run reads when the user names none, or None when there is none."""
    candidates = [Path(os.environ[ENV])] if os.environ.get(ENV) else []
    candidates.append(repo_root().parent / "shared" / "data" / "cloudphysics_vms" / "vms_30min.csv")
    return next((c for c in candidates if c.is_file()), None)


def missing_message(parameter: str = "real_vms") -> str:
    """What a run without the file says: where the public source is and how to give it."""
    return (
        f"no real-VM file: these claims need {SOURCE}. Point the `{parameter}` parameter (or "
        f"${ENV}) at such a file, or place it at ../shared/data/cloudphysics_vms/vms_30min.csv "
        "beside the checkout"
    )


def resolve(path: str | Path | None) -> Path | None:
    """``path`` when given ('' or None: :func:`default_path`); a relative path not found from
    the working folder is read from the checkout (as :func:`portable` writes it)."""
    if not path:
        return default_path()
    path = Path(path)
    return repo_root() / path if not path.is_absolute() and not path.exists() else path


def load_real_vms(path: str | Path, limit: int = 0) -> RealVMs:
    """The VMs of ``path`` (the first ``limit`` in file order; 0: all), checked: the columns,
    whole non-negative requests, increasing ``ts`` per VM. Raises ValueError naming the file,
    the line where there is one, and what is wrong."""
    path = Path(path)
    data = path.read_bytes()
    try:
        frame = pd.read_csv(io.BytesIO(data))
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text (UTF-8) CSV file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as err:
        raise ValueError(f"{path}: not a CSV file of the columns {', '.join(COLUMNS)} "
                         f"({str(err).strip()})") from None
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: columns {missing} missing; a real-VM file has {COLUMNS}")
    if frame.empty:
        raise ValueError(f"{path}: no snapshots")
    requests = pd.to_numeric(frame.requests, errors="coerce")
    bad = requests.isna() | (requests < 0)
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(f"{path}, line {_line(row)}: requests must be numbers >= 0, got "
                         f"{str(frame.requests.iloc[row])!r}")
    frame = frame.assign(requests=requests.astype(float))
    if not isinstance(limit, int) or limit < 0:
        raise ValueError(f"limit must be a whole number >= 0, got {limit!r}")
    names = list(dict.fromkeys(frame.vm.astype(str)))
    names = names[:limit] if limit else names
    series = {vm: _on_grid(path, vm, rows) for vm, rows in frame.groupby(frame.vm.astype(str))
              if vm in names}
    return RealVMs(os.path.abspath(path), hashlib.sha256(data).hexdigest(),
                   {vm: series[vm] for vm in names})


def _on_grid(path: Path, vm: str, rows: pd.DataFrame) -> np.ndarray:
    """A VM's requests per snapshot in ``interval`` order, which must run 0, 1, 2, ... without
    a hole. An empty snapshot keeps the last request's ``ts`` (nothing stamps it), so a jump in
    ``ts`` follows a run of empty snapshots: the gap reads as idle snapshots."""
    rows = rows.sort_values("interval", kind="stable")
    expected = np.arange(len(rows))
    wrong = np.flatnonzero(rows.interval.to_numpy() != expected)
    if wrong.size:
        at = wrong[0]
        raise ValueError(f"{path}, line {_line(rows.index[at])}: VM {vm}'s intervals must run "
                         f"0, 1, 2, ... without a hole; interval {expected[at]} is missing")
    ts = pd.to_numeric(rows.ts, errors="coerce").to_numpy(dtype=float)
    falls = np.flatnonzero(~np.isfinite(ts) | (np.diff(ts, prepend=-np.inf) < 0))
    if falls.size:
        raise ValueError(f"{path}, line {_line(rows.index[falls[0]])}: VM {vm}'s ts must be "
                         "numbers and must not decrease with interval")
    return rows.requests.to_numpy(dtype=float)


def _line(row: int) -> int:
    """The file's line of data row ``row`` (the header is line 1)."""
    return int(row) + 2
