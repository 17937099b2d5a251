"""JupyterLab on working copies: what a student edits and saves never touches ``notebooks/``.

``make lab`` copies each committed notebook to ``build/lab/notebooks/`` (git-ignored) when it is
not there yet — a copy already there is the student's own and is kept — and starts JupyterLab
in that folder. Lab's autosave therefore writes only into the copies; their outputs (figures,
results, scorecard) go to ``build/lab/`` as every JupyterLab run's do. ``--fresh NAME`` replaces
one copy by the committed notebook again. A checkout (or Jupyter runtime folder) it cannot write
is said in one line, with what to do, before anything is copied or started.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
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


def write_error(folder: Path) -> OSError | None:
    """Why this process cannot write into ``folder`` (made when missing), or None: a probe file
    in its nearest existing ancestor, as a permission check cannot tell (root passes every
    mode check, yet a read-only mount refuses it)."""
    existing = next(p for p in (folder, *folder.parents) if p.exists())
    try:
        tempfile.TemporaryFile(dir=existing).close()
    except OSError as err:
        return err
    return None


def check_writable() -> None:
    """Refuse, in one line saying what to do, a lab that could not save: the working copies and
    the outputs of runs in the lab go to the checkout's ``build/lab/``, and Jupyter writes its
    server's connection files into its runtime folder."""
    from jupyter_core.paths import jupyter_runtime_dir

    folder = lab_folder()
    if err := write_error(folder):  # a clone, not a copy: a copied .venv imports this checkout
        root = repo_root()
        raise OSError(f"lab: cannot write {folder} ({err.strerror or err}): the working copies "
                      f"of the notebooks and their outputs go there; clone the checkout into a "
                      f"folder you can write (git clone {root} ~/storrepro) and run `make lab` "
                      "there")  # fmt: skip
    runtime = Path(jupyter_runtime_dir())
    if err := write_error(runtime):
        raise OSError(f"lab: cannot write Jupyter's runtime folder {runtime} "
                      f"({err.strerror or err}): set JUPYTER_RUNTIME_DIR to a folder you can "
                      "write")  # fmt: skip


def start_lab(fresh: list[str] = (), no_browser: bool = False, port: int | None = None) -> None:
    """Make the copies, say where they are, and replace this process by JupyterLab there."""
    args = lab_args(no_browser, port)  # a wrong port is refused before anything is copied
    check_writable()
    copies = working_copies(fresh)
    kept = [name for name, _, was in copies if was]
    print(f"JupyterLab on working copies in {lab_folder()} (never committed; notebooks/ is "
          "left alone).")
    if kept:
        print(f"kept your edited copies of {', '.join(kept)}; `make lab FRESH=NAME` resets one")
    os.execv(sys.executable, args)
