"""When each choice of a paper's decision register was made, read from git, never typed.

For a reading, the value dated is its ``primary``; for a forced choice, band or calibration
target with a ``symbol`` (``"module:NAME"``), the source of that module-level constant. Walking
back the history of the file that holds it (following renames, along the first-parent line: a
branch's commits count from the merge that brought them), ``set_in`` is the oldest commit of the
unbroken run of commits in which the value was what it is now (a constant's source is compared
with the literal constants of its own file put in: a number named and quoted by an f-string keeps
the date of the literal it replaced); ``set_after_results`` says whether the commit before it
already held a committed ``results/<notebook>.json`` with one of the claims the choice decides —
a choice made with those results in view.

``python -m storrepro dates`` prints every notebook's register with its dates.
"""

from __future__ import annotations

import ast
import copy
import importlib
import json
import subprocess
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from storrepro.suite.paths import repo_root

UNCOMMITTED = "uncommitted"
NO_HISTORY = "unknown: no git history"


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=repo_root(), capture_output=True, text=True)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


@cache
def _history(relpath: str) -> tuple[tuple[str, str], ...]:
    """``(commit, path at that commit)`` of every commit on the first-parent line that touched
    ``relpath``, newest first: a branch's work counts from the merge that brought it (without
    ``--first-parent`` git leaves the merges out, and the walk would compare HEAD's value with
    one branch's older version)."""
    out = _git("log", "--follow", "--first-parent", "--format=@%H", "--name-only", "--", relpath)
    if not out:
        return ()
    pairs, commit = [], None
    for line in out.splitlines():
        if line.startswith("@"):
            commit = line[1:]
        elif line.strip() and commit:
            pairs.append((commit, line.strip()))
            commit = None
    return tuple(pairs)


@cache
def _show(commit: str, path: str) -> str | None:
    return _git("show", f"{commit}:{path}")


@cache
def _tree(source: str) -> ast.Module | None:
    """A source file's syntax tree, parsed once however many register entries it holds."""
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def reading_primary(name: str) -> Callable[[str], str | None]:
    """An extractor: the ``primary=`` of the ``Reading(...)`` stored under key ``name``."""

    def extract(source: str) -> str | None:
        tree = _tree(source)
        if tree is None:
            return None
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                if (isinstance(key, ast.Constant) and key.value == name
                        and isinstance(value, ast.Call)):
                    for kw in value.keywords:
                        if kw.arg == "primary":
                            return ast.unparse(kw.value)
        return None

    return extract


def constant(name: str) -> Callable[[str], str | None]:
    """An extractor: the source of the module-level assignment to ``name``, with the literal
    constants assigned before it in the same file put in (:class:`_Literals`)."""

    def extract(source: str) -> str | None:
        tree = _tree(source)
        if tree is None:
            return None
        known: dict[str, object] = {}
        for target, value in _assignments(tree):
            value = _Literals(known).visit(copy.deepcopy(value))
            if target == name:
                return ast.unparse(value)
            try:
                known[target] = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                known.pop(target, None)
        return None

    return extract


def _assignments(tree: ast.Module):
    """``(name, value)`` of each module-level assignment in order (``a, b = x, y`` pairwise)."""
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                yield target.id, value
            elif (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                  and len(target.elts) == len(value.elts)):
                yield from ((t.id, v) for t, v in zip(target.elts, value.elts, strict=True)
                            if isinstance(t, ast.Name))


class _Literals(ast.NodeTransformer):
    """Puts into an expression the literal constants ``known`` (name -> value) of its file: a
    name, a subscript of a literal, and an f-string whose every part is then a literal become
    the literal they stand for."""

    def __init__(self, known: dict[str, object]):
        self.known = known

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.known:
            return ast.parse(repr(self.known[node.id]), mode="eval").body
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node = self.generic_visit(node)
        try:
            return ast.Constant(ast.literal_eval(node.value)[ast.literal_eval(node.slice)])
        except (ValueError, TypeError, KeyError, IndexError, SyntaxError):
            return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        parts, literal = [], True
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(str(part.value))
                continue
            part.value = self.visit(part.value)
            spec = part.format_spec
            spec_parts = spec.values if isinstance(spec, ast.JoinedStr) else []
            if (part.conversion != -1 or not isinstance(part.value, ast.Constant)
                    or not all(isinstance(v, ast.Constant) for v in spec_parts)):
                literal = False
                continue
            parts.append(format(part.value.value, "".join(str(v.value) for v in spec_parts)))
        return ast.Constant("".join(parts)) if literal else node


def table_band(claim_id: str) -> Callable[[str], str | None]:
    """An extractor: the paper's words and band (or rule) of the claims-table
    ``Row(id=claim_id, ...)`` (:mod:`storrepro.suite.table`), the part of the row a band entry
    of the register dates."""

    def extract(source: str) -> str | None:
        tree = _tree(source)
        if tree is None:
            return None
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("Row")):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            if isinstance(kw.get("id"), ast.Constant) and kw["id"].value == claim_id:
                return "; ".join(ast.unparse(kw[k]) for k in ("words", "band", "parts", "rule")
                                 if k in kw)
        return None

    return extract


def module_path(module: str) -> str:
    """The repository-relative path of an importable module's source file."""
    file = Path(importlib.import_module(module).__file__).resolve()
    return file.relative_to(repo_root().resolve()).as_posix()


def set_in(relpath: str, extract: Callable[[str], str | None]) -> str:
    """The commit that set the value ``extract`` finds in ``relpath`` (see the module
    docstring); :data:`UNCOMMITTED` when the working tree's value is not yet committed. When the
    value goes back to the commit that created the file, it may be older still (moved from a
    file git does not connect): :func:`dated` says so."""
    current = extract((repo_root() / relpath).read_text(encoding="utf-8"))
    if current is None:
        raise ValueError(f"{relpath}: the value to date is not there")
    history = _history(relpath)
    if not history:
        return NO_HISTORY
    found = UNCOMMITTED
    for commit, path in history:
        source = _show(commit, path)
        if source is None or extract(source) != current:
            break
        found = commit
    # The newest commit touching the file holds HEAD's version: a working tree that differs from
    # it there stops the walk at once, so the value is uncommitted.
    return found if found == UNCOMMITTED else found[:12]


def results_before(commit: str, notebook: str, claims: Iterable[str]) -> bool | None:
    """Whether the commit before ``commit`` held ``results/<notebook>.json`` with one of
    ``claims``; None when the commit is not a real one."""
    if commit in (UNCOMMITTED, NO_HISTORY):
        return None
    ids = _claim_ids(f"{commit}^", notebook)
    wanted = set(claims)
    return bool(ids & wanted) if wanted else bool(ids)


@cache
def _claim_ids(commit: str, notebook: str) -> frozenset[str]:
    """The claim ids of ``results/<notebook>.json`` at ``commit``, read once for every register
    entry dated to it (none when the file is missing or not a result)."""
    text = _show(commit, f"results/{notebook}.json")
    if text is None:
        return frozenset()
    try:
        return frozenset(c["id"] for c in json.loads(text).get("claims", []))
    except (ValueError, KeyError, TypeError):
        return frozenset()


def dated(relpath: str, extract: Callable[[str], str | None], notebook: str,
          decides: Iterable[str]) -> dict:
    """``{"set_in", "set_after_results", "since_file_created"}`` of one register entry; the
    last is true when ``set_in`` created the file, so the value may be older."""
    commit = set_in(relpath, extract)
    history = _history(relpath)
    created = bool(history) and history[-1][0].startswith(commit)
    return {"set_in": commit, "set_after_results": results_before(commit, notebook, decides),
            "since_file_created": created}


def date_bands(entries: dict[str, dict], notebook: str) -> dict[str, dict]:
    """Dates of the register's band entries written from a claims table
    (:func:`storrepro.suite.table.band_entries`)."""
    out = {}
    for name, e in entries.items():
        module = e["symbol"].split(":", 1)[0]
        out[name] = dated(module_path(module), table_band(e["row"]), notebook, e["decides"])
    return out


def judged_under(claims: Iterable[dict], readings: Iterable[str]) -> dict[str, list[str]]:
    """The ids of the claims judged under each reading: the claims a reading decides."""
    claims = list(claims)
    return {
        name: [c["id"] for c in claims if any(x.split("=")[0] == name for x in c["by_reading"])]
        for name in readings
    }


def date_register(config, decides: dict[str, list[str]]) -> dict[str, dict]:
    """Dates of every entry of ``config``'s register: readings (``decides``: the claims judged
    under each) and forced choices that name a ``symbol``."""
    out = {}
    config_path = module_path(type(config).__module__)
    for name in config.readings:
        out[name] = dated(config_path, reading_primary(name), config.notebook,
                          decides.get(name, []))
    for name, forced in config.forced.items():
        if forced.symbol:
            module, symbol = forced.symbol.split(":", 1)
            out[name] = dated(module_path(module), constant(symbol), config.notebook,
                              forced.decides)
        else:
            out[name] = {"set_in": None, "set_after_results": None, "since_file_created": None}
    return out


def register_lines(notebook: str) -> list[str]:
    """``python -m storrepro dates``: one line per register entry of ``notebook``, the claims a
    reading decides taken from the committed results."""
    from storrepro.suite.notebooks import config_class
    from storrepro.suite.result_shape import read_result

    config = config_class(notebook)()
    path = repo_root() / "results" / f"{notebook}.json"
    claims = read_result(path)["claims"] if path.exists() else []
    lines = [f"{notebook}:"]
    for name, d in date_register(config, judged_under(claims, config.readings)).items():
        after = {True: "after results", False: "before results", None: ""}[
            d["set_after_results"]]
        older = " (the file's first commit: may be older)" if d["since_file_created"] else ""
        lines.append(f"  {name}: set in {d['set_in'] or '—'} {after}{older}".rstrip())
    return lines
