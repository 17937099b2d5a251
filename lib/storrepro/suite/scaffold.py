"""A new paper from the template (``python -m storrepro new-paper NAME NUMBER``): its package,
notebook and tests copied from ``templates/paper/`` under the paper's names, and its one line in
the notebook registry. Nothing else in the repository changes: every command, the runner, the
site, the bench and the tests find the paper through that line."""

from __future__ import annotations

import keyword
import re
import shutil
import tempfile
from pathlib import Path

from storrepro.suite.config import ParameterError
from storrepro.suite.notebooks import NOTEBOOKS
from storrepro.suite.paths import repo_root

TEMPLATE = Path("templates") / "paper"
REGISTRY = Path("lib") / "storrepro" / "suite" / "notebooks.py"
#: The template's own names, as they appear in its files.
NAME, CLASS, NOTEBOOK = "paper_template", "PaperTemplate", "NN_paper_template"


def targets(name: str, number: str) -> dict[str, Path]:
    """Template part -> where the new paper's copy goes (relative to the repository)."""
    return {
        "package": Path("lib") / "storrepro" / "papers" / name,
        "notebook.ipynb": Path("notebooks") / f"{number}_{name}.ipynb",
        "tests": Path("tests") / "papers" / name,
    }


def class_name(name: str) -> str:
    """``slow_disk`` -> ``SlowDisk``."""
    return "".join(part.capitalize() for part in name.split("_"))


def _check(name: str, number: str, root: Path) -> None:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name) or name == NAME:
        raise ParameterError(f"NAME = {name!r}: expected a new Python package name (lower case "
                             "letters, digits and _, starting with a letter)")
    if not re.fullmatch(r"\d\d", number):
        raise ParameterError(f"NUMBER = {number!r}: expected two digits, e.g. 06")
    taken = [n for n in NOTEBOOKS if n.split("_", 1)[0] == number]
    if taken:
        raise ParameterError(f"NUMBER = {number!r}: {taken[0]} has it; expected one no notebook "
                             "has")
    for target in targets(name, number).values():
        if (root / target).exists():
            raise ParameterError(f"NAME = {name!r}: {target} exists already")
    if not (root / TEMPLATE).is_dir():
        raise ParameterError(f"the template {TEMPLATE} is missing from {root}")


def _renamed(text: str, name: str, number: str) -> str:
    text = text.replace(NOTEBOOK, f"{number}_{name}").replace("# NN —", f"# {number} —")
    return text.replace(NAME, name).replace(CLASS, class_name(name))


def registry_line(name: str, number: str) -> str:
    return f'    "{number}_{name}": "storrepro.papers.{name}.config:{class_name(name)}Config",\n'


def new_paper(name: str, number: str, root: Path | None = None) -> list[Path]:
    """Copy the template as paper ``name`` with notebook number ``number`` and register it;
    returns the paths written. Checks everything before writing; the copies are made in a
    temporary folder first, so a failure leaves nothing half-written."""
    root = root or repo_root()
    _check(name, number, root)
    registry = root / REGISTRY
    source = registry.read_text(encoding="utf-8")
    end = re.search(r"^NOTEBOOKS = \{\n(?:.*\n)*?^\}\n", source, re.MULTILINE)
    if end is None:
        raise ParameterError(f"{REGISTRY}: no NOTEBOOKS = {{...}} block to add the paper to")
    written = []
    with tempfile.TemporaryDirectory(dir=root) as staging:
        staged = {}
        for part, target in targets(name, number).items():
            src, copy = root / TEMPLATE / part, Path(staging) / part
            if src.is_dir():
                shutil.copytree(src, copy, ignore=shutil.ignore_patterns("__pycache__"))
                files = sorted(p for p in copy.rglob("*") if p.is_file())
            else:
                shutil.copy(src, copy)
                files = [copy]
            for file in files:
                file.write_text(_renamed(file.read_text(encoding="utf-8"), name, number),
                                encoding="utf-8")
            staged[copy] = root / target
        for copy, target in staged.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            copy.rename(target)
            written += sorted(target.rglob("*")) if target.is_dir() else [target]
    cut = end.end() - 2  # before the closing brace
    registry.write_text(source[:cut] + registry_line(name, number) + source[cut:],
                       encoding="utf-8")
    return [p for p in written if p.is_file()] + [registry]
