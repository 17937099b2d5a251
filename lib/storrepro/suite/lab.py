"""JupyterLab on working copies: what a student edits and saves never touches ``notebooks/``.

``make lab`` copies each committed notebook to ``build/lab/notebooks/`` (git-ignored) when it is
not there yet — a copy already there is the student's own and is kept — and starts JupyterLab
in that folder. Lab's autosave therefore writes only into the copies; their outputs (figures,
results, scorecard) go to ``build/lab/`` as every JupyterLab run's do. ``--fresh NAME`` replaces
one copy by the committed notebook again.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from storrepro.suite.notebooks import NOTEBOOKS, notebook_path
from storrepro.suite.paths import repo_root


def lab_folder() -> Path:
    return repo_root() / "build" / "lab" / "notebooks"


def working_copies(fresh: list[str] = ()) -> list[tuple[str, Path, bool]]:
    """Make the working copies; ``(name, path, kept)`` for each notebook, ``kept`` when the
    student's copy was already there and left as it was."""
    unknown = [n for n in fresh if n not in NOTEBOOKS]
    if unknown:
        raise KeyError(f"--fresh {unknown[0]!r}: unknown notebook; available: "
                       f"{', '.join(NOTEBOOKS)}")
    folder = lab_folder()
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in NOTEBOOKS:
        target = folder / f"{name}.ipynb"
        kept = target.exists() and name not in fresh
        if not kept:
            shutil.copyfile(notebook_path(name), target)
        out.append((name, target, kept))
    return out


def lab_args(no_browser: bool = False, port: int | None = None) -> list[str]:
    """JupyterLab's arguments: the copies' folder; ``--no-browser`` and ``--port`` passed
    through; CurveZMQ-encrypted kernel messages where libzmq has Curve (ipykernel's kernels then
    print no plain-TCP warning, as the runner's do)."""
    import zmq

    if port is not None and not 1 <= port <= 65535:
        raise ValueError(f"--port {port}: expected a TCP port from 1 to 65535")
    args = [sys.executable, "-m", "jupyter", "lab", f"--notebook-dir={lab_folder()}"]
    if no_browser:
        args.append("--no-browser")
    if port is not None:
        args.append(f"--port={port}")
    if zmq.has("curve"):
        args.append("--KernelManager.transport_encryption=auto")
    if hasattr(os, "getuid") and os.getuid() == 0:
        args.append("--allow-root")
    return args


def start_lab(fresh: list[str] = (), no_browser: bool = False, port: int | None = None) -> None:
    """Make the copies, say where they are, and replace this process by JupyterLab there."""
    args = lab_args(no_browser, port)  # a wrong port is refused before anything is copied
    copies = working_copies(fresh)
    kept = [name for name, _, was in copies if was]
    print(f"JupyterLab on working copies in {lab_folder()} (never committed; notebooks/ is "
          "left alone).")
    if kept:
        print(f"kept your edited copies of {', '.join(kept)}; `make lab FRESH=NAME` resets one")
    os.execv(sys.executable, args)
