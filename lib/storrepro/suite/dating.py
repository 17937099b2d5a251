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

Git is asked once per file (its history, with each version's blob id) and once for the versions
it needs; what an extractor finds in a version is kept in ``build/dating/`` by blob id, so a
later run parses only the versions it has not seen.

``python -m storrepro dates`` prints every notebook's register with its dates.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import hashlib
import importlib
import json
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from storrepro.suite.paths import repo_root, write_text_atomic

UNCOMMITTED = "uncommitted"
NO_HISTORY = "unknown: no git history"


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=repo_root(), capture_output=True, text=True)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def _read_objects(names: Iterable[str]) -> dict[str, str | None]:
    """The text of each git object named (a blob id, ``commit:path``), read by one ``git
    cat-file --batch``; None for one that does not exist."""
    names = list(dict.fromkeys(names))
    if not names:
        return {}
    try:
        done = subprocess.run(["git", "cat-file", "--batch"], cwd=repo_root(),
                              input="".join(f"{n}\n" for n in names).encode(),
                              capture_output=True)
    except OSError:
        return dict.fromkeys(names)
    out, at, found = done.stdout, 0, {}
    for name in names:
        end = out.find(b"\n", at)
        if end < 0:  # git stopped early: the rest is unknown
            break
        header, at = out[at:end].split(), end + 1
        if len(header) != 3:  # "<name> missing" (or ambiguous)
            continue
        size = int(header[2])
        found[name] = out[at:at + size].decode("utf-8", errors="replace")
        at += size + 1
    return {name: found.get(name) for name in names}


#: A blob id of git's "no file here" (the file deleted by a commit).
_NO_BLOB = "0" * 40


@cache
def _history(relpath: str) -> tuple[tuple[str, str, str], ...]:
    """``(commit, path at that commit, blob id of the file there)`` of every commit on the
    first-parent line that touched ``relpath``, newest first: a branch's work counts from the
    merge that brought it (without ``--first-parent`` git leaves the merges out, and the walk
    would compare HEAD's value with one branch's older version)."""
    out = _git("log", "--follow", "--first-parent", "--format=@%H", "--raw", "--no-abbrev",
               "--", relpath)
    if not out:
        return ()
    entries, commit = [], None
    for line in out.splitlines():
        if line.startswith("@"):
            commit = line[1:]
        elif line.startswith(":") and commit:  # ":<modes> <old blob> <new blob> <status>\t<path>"
            fields, path = line.split("\t", 1)[0].split(), line.split("\t")[-1]
            entries.append((commit, path, fields[3]))
            commit = None
    return tuple(entries)


@cache
def _sources(relpath: str) -> dict[str, str | None]:
    """Every version of ``relpath`` in its history, by blob id, read at once."""
    return _read_objects(blob for _, _, blob in _history(relpath) if blob != _NO_BLOB)


# The value an extractor finds in a version of a file depends only on the version's content (its
# blob id) and the extractor: kept between runs in build/dating/, one file per dated file, each
# written by this module's code under this Python (whose ast.unparse writes the values).
_MEMO_VERSION = hashlib.sha256(
    Path(__file__).read_bytes() + sys.version.split()[0].encode()).hexdigest()[:16]
_memos: dict[str, dict] = {}
_changed: set[str] = set()


def _memo_path(relpath: str) -> Path:
    return repo_root() / "build" / "dating" / (relpath.replace("/", "__") + ".json")


def _memo(relpath: str) -> dict:
    """The kept values of ``relpath``'s versions (``"<blob>:<extractor>"`` -> value)."""
    if relpath not in _memos:
        _memos[relpath] = _memo_on_disk(_memo_path(relpath))
    return _memos[relpath]


def _memo_on_disk(path: Path) -> dict:
    """What a memo file holds; nothing when it is missing, damaged or kept by other code."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        values = kept["values"] if kept.get("version") == _MEMO_VERSION else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    return values if isinstance(values, dict) else {}


def _keep_memos() -> None:
    """Write the memos that gained values, merged with what another run kept meanwhile and
    pruned to the blobs of the file's history; a checkout it cannot write keeps nothing."""
    for relpath in sorted(_changed):
        path, blobs = _memo_path(relpath), {blob for _, _, blob in _history(relpath)}
        values = {**_memo_on_disk(path), **_memo(relpath)}
        values = {k: v for k, v in values.items() if k.split(":", 1)[0] in blobs}
        with contextlib.suppress(OSError):
            write_text_atomic(path, json.dumps({"version": _MEMO_VERSION, "values": values}))
    _changed.clear()


def _value_at(relpath: str, blob: str, extract: Extractor) -> str | None:
    """What ``extract`` finds in the version ``blob`` of ``relpath`` (None: not there, or the
    file deleted)."""
    if blob == _NO_BLOB:
        return None
    memo, key = _memo(relpath), f"{blob}:{extract.key}"
    if key not in memo:
        source = _sources(relpath).get(blob)
        if source is None:  # git could not read it: nothing to keep
            return None
        memo[key] = extract(source)
        _changed.add(relpath)
    return memo[key]


@cache
def _tree(source: str) -> ast.Module | None:
    """A source file's syntax tree, parsed once however many register entries it holds."""
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


@dataclass(frozen=True)
class Extractor:
    """Finds one value in a source file: ``kind`` names the index of the file's values it reads
    (:data:`_INDEXES`), ``name`` the value's key there."""

    kind: str
    name: str

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.name}"

    def __call__(self, source: str) -> str | None:
        write = _INDEXES[self.kind][1]
        node = _index(self.kind, source).get(self.name)
        return None if node is None else write(node)


@cache
def _index(kind: str, source: str) -> dict[str, ast.AST]:
    """The syntax node of every value of ``kind`` in ``source`` by its key, found in one pass
    over the syntax tree (the first one where a key occurs twice); empty for a file that does
    not parse."""
    tree = _tree(source)
    return {} if tree is None else _INDEXES[kind][0](tree)


def _primaries(tree: ast.Module) -> dict[str, ast.AST]:
    """The ``primary=`` of each ``"name": Reading(...)`` of a dict."""
    found = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if (isinstance(key, ast.Constant) and isinstance(key.value, str)
                    and key.value not in found and isinstance(value, ast.Call)):
                primary = [kw.value for kw in value.keywords if kw.arg == "primary"]
                if primary:
                    found[key.value] = primary[0]
    return found


def _constants(tree: ast.Module) -> dict[str, ast.AST]:
    """The value of each module-level assignment, with the literal constants assigned before it
    in the same file put in (:class:`_Literals`)."""
    found: dict[str, ast.AST] = {}
    known: dict[str, object] = {}
    for target, value in _assignments(tree):
        value = _Literals(known).visit(copy.deepcopy(value))
        found.setdefault(target, value)
        try:
            known[target] = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            known.pop(target, None)
    return found


def _table_rows(tree: ast.Module) -> dict[str, ast.AST]:
    """Each ``Row(id="...", ...)`` call by its id."""
    found = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("Row")):
            continue
        row = next((k.value for k in node.keywords if k.arg == "id"), None)
        if isinstance(row, ast.Constant) and isinstance(row.value, str) and row.value not in found:
            found[row.value] = node
    return found


def _row_band(node: ast.Call) -> str:
    """The part of a row a band entry dates: its words and band, parts or rule (a row that
    leaves its words to its band's is written as the ``words=<band>.words`` it stands for)."""
    kw = {k.arg: ast.unparse(k.value) for k in node.keywords}
    if "words" not in kw and "band" in kw:
        kw["words"] = f"{kw['band']}.words"
    return "; ".join(kw[k] for k in ("words", "band", "parts", "rule") if k in kw)


#: Each extractor kind: the index of a syntax tree's values and how a value is written.
_INDEXES = {"reading": (_primaries, ast.unparse), "constant": (_constants, ast.unparse),
            "row": (_table_rows, _row_band)}


def reading_primary(name: str) -> Extractor:
    """An extractor: the ``primary=`` of the ``Reading(...)`` stored under key ``name``."""
    return Extractor("reading", name)


def constant(name: str) -> Extractor:
    """An extractor: the source of the module-level assignment to ``name``, with the literal
    constants assigned before it in the same file put in (:class:`_Literals`)."""
    return Extractor("constant", name)


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


def table_band(claim_id: str) -> Extractor:
    """An extractor: the paper's words and band (or rule) of the claims-table
    ``Row(id=claim_id, ...)`` (:mod:`storrepro.suite.table`), the part of the row a band entry
    of the register dates."""
    return Extractor("row", claim_id)


def module_path(module: str) -> str:
    """The repository-relative path of an importable module's source file."""
    file = Path(importlib.import_module(module).__file__).resolve()
    return file.relative_to(repo_root().resolve()).as_posix()


def set_in(relpath: str, extract: Extractor) -> str:
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
    for commit, _, blob in history:
        if _value_at(relpath, blob, extract) != current:
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
    _read_claim_ids([f"{commit}^"], notebook)
    ids = _claim_ids[(f"{commit}^", notebook)]
    wanted = set(claims)
    return bool(ids & wanted) if wanted else bool(ids)


#: ``(commit, notebook)`` -> the claim ids of ``results/<notebook>.json`` at that commit.
_claim_ids: dict[tuple[str, str], frozenset[str]] = {}


def _read_claim_ids(commits: Iterable[str], notebook: str) -> None:
    """Read the claim ids of ``results/<notebook>.json`` at each commit not read yet, all in
    one git call (none when the file is missing or not a result)."""
    names = {c: f"{c}:results/{notebook}.json" for c in commits if (c, notebook) not in _claim_ids}
    texts = _read_objects(names.values())
    for commit, name in names.items():
        try:
            ids = frozenset(c["id"] for c in json.loads(texts[name] or "{}").get("claims", []))
        except (ValueError, KeyError, TypeError, AttributeError):
            ids = frozenset()
        _claim_ids[(commit, notebook)] = ids


def dated(relpath: str, extract: Extractor, notebook: str, decides: Iterable[str]) -> dict:
    """``{"set_in", "set_after_results", "since_file_created"}`` of one register entry; the
    last is true when ``set_in`` created the file, so the value may be older."""
    return _dated_all({"": (relpath, extract, decides)}, notebook)[""]


def _dated_all(entries: dict[str, tuple[str, Extractor, Iterable[str]]],
               notebook: str) -> dict[str, dict]:
    """:func:`dated` of each ``name -> (relpath, extract, decides)``: the results before every
    commit found read in one git call, the values found kept for the next run."""
    commits = {name: set_in(relpath, extract) for name, (relpath, extract, _) in entries.items()}
    _read_claim_ids([f"{c}^" for c in commits.values() if c not in (UNCOMMITTED, NO_HISTORY)],
                    notebook)
    _keep_memos()
    out = {}
    for name, (relpath, _, decides) in entries.items():
        commit, history = commits[name], _history(relpath)
        out[name] = {"set_in": commit,
                     "set_after_results": results_before(commit, notebook, decides),
                     "since_file_created": bool(history) and history[-1][0].startswith(commit)}
    return out


def date_bands(entries: dict[str, dict], notebook: str) -> dict[str, dict]:
    """Dates of the register's band entries written from a claims table
    (:func:`storrepro.suite.table.band_entries`)."""
    return _dated_all({name: (module_path(e["symbol"].split(":", 1)[0]), table_band(e["row"]),
                              e["decides"]) for name, e in entries.items()}, notebook)


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
    config_path = module_path(type(config).__module__)
    entries = {name: (config_path, reading_primary(name), decides.get(name, []))
               for name in config.readings}
    for name, forced in config.forced.items():
        if forced.symbol:
            module, symbol = forced.symbol.split(":", 1)
            entries[name] = (module_path(module), constant(symbol), forced.decides)
    found = _dated_all(entries, config.notebook)
    unnamed = {"set_in": None, "set_after_results": None, "since_file_created": None}
    return {name: found.get(name, unnamed) for name in [*config.readings, *config.forced]}


def _forget() -> None:
    """Drop what this process has read from git (the kept values stay on disk)."""
    for cached in (_history, _sources, _tree, _index):
        cached.cache_clear()
    _memos.clear(), _changed.clear(), _claim_ids.clear()


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
