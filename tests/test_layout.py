"""The shape every paper package shares (CONTRIBUTING.md's "Adding a paper"): the same file for the
same role, no import cycle, no upward import, no paper importing another, no simpy outside the
simulation layers, thin notebooks whose every parameter reaches their config, tests that mirror
the library."""

from __future__ import annotations

import ast
import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from storrepro.suite.notebooks import NOTEBOOKS, config_class, notebook_path

LIB = Path(__file__).resolve().parents[1] / "lib"
ROOT = LIB / "storrepro"
PACKAGES = {name: NOTEBOOKS[name].partition(":")[0].rsplit(".", 1)[0] for name in NOTEBOOKS}

#: Every notebook's package holds these modules (a module or a package of that name).
ROLES = ("config", "workload", "experiment", "claims", "plots", "bench")
#: ... and every paper's also its fast path and the twin that path is tested against: the simpy
#: model (``reference``) or, for a paper without a simulator, the plain numpy code (``plain``).
KERNEL, TWINS = "kernel", ("reference", "plain")
#: Modules that may load simpy: the simulation layer and what runs it (``plain`` uses the
#: vectorized FIFO of ``sim.fifo``, whose module also holds the simpy server).
MAY_LOAD_SIMPY = ("sim", "reference", "plain", "experiment", "bench")
#: Layers inside a package, lowest first; a module may import only from its own layer or below.
#: Every module not named here is an algorithm (layer 2); ``*_kernel`` modules are kernels.
LAYERS = {
    "config": 0,
    "results": 0,
    "workload": 1,
    "kernel": 3,
    "reference": 3,
    "plain": 3,
    "experiment": 4,
    "claims": 5,
    "plots": 5,
    "bench": 6,
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(LIB).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


@functools.cache
def _imports(name: str, path: Path, top_level_only: bool) -> frozenset[str]:
    """The storrepro modules (and simpy) that ``name`` imports."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    nodes = ast.walk(tree) if not top_level_only else _import_time_nodes(tree)
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1]
                    + ([base] if base else [])
                )
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target.split(".")[0] == "simpy":
                found.add("simpy")
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return frozenset(found)  # cached: shared by every test


def _import_time_nodes(tree):
    """Nodes that run when the module is imported: not inside a function body."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            stack.extend(ast.iter_child_nodes(node))


def _parents(name: str) -> list[str]:
    """Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) in MODULES]


def _role(module: str) -> str:
    parts = module.split(".")[3:]  # storrepro.papers.<package>.<parts>
    if len(parts) > 1 and parts[0] in LAYERS:
        return parts[0]  # a role grown into a subpackage: vdi/experiment/runs.py is "experiment"
    leaf = module.rsplit(".", 1)[-1]
    if leaf.endswith("_kernel"):
        return "kernel"
    return leaf if leaf in LAYERS else "algorithm"


@pytest.mark.parametrize("notebook", list(NOTEBOOKS))
def test_every_package_has_the_same_files_for_the_same_roles(notebook):
    package = ROOT / PACKAGES[notebook].split(".", 1)[1].replace(".", "/")
    paper = notebook != "00_simulator_validation"
    roles = ROLES + ((KERNEL,) if paper else ())

    def has(role: str) -> bool:
        return (package / f"{role}.py").is_file() or (package / role / "__init__.py").is_file()

    missing = [r for r in roles if not has(r)]
    assert not missing, f"{PACKAGES[notebook]} has no {', '.join(missing)}"
    if paper:
        assert sum(map(has, TWINS)) == 1, f"{PACKAGES[notebook]}: one of {' or '.join(TWINS)}"


@pytest.mark.parametrize(
    "name", [f"{p}.reference" for p in PACKAGES.values() if f"{p}.reference" in MODULES]
)
def test_reference_is_the_simpy_model_and_imports_no_kernel(name):
    assert "simpy" in _imports(name, MODULES[name], top_level_only=True), (
        f"{name} does not import simpy: a reference module is the simpy model"
    )
    kernels = [t for t in _imports(name, MODULES[name], False) if _role(t) == KERNEL]
    assert not kernels, f"{name} imports {kernels}: compare the two in experiment or tests"


def test_no_import_cycle():
    graph = {
        name: _imports(name, path, top_level_only=False) - {"simpy"}
        for name, path in MODULES.items()
    }
    cycles, state = [], {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(trail[trail.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    cycles = [c for c in cycles if len(c) > 2 or c[0] != c[-1]]
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("notebook", list(NOTEBOOKS))
def test_no_upward_import_inside_a_package(notebook):
    package = PACKAGES[notebook]
    upward = []
    for name, path in MODULES.items():
        if not name.startswith(package + ".") or path.name == "__init__.py":
            continue
        level = LAYERS.get(_role(name), 2)
        for target in _imports(name, path, top_level_only=False):
            if target.startswith(package + ".") and LAYERS.get(_role(target), 2) > level:
                upward.append(f"{name} -> {target}")
    assert not upward, "imports from a higher layer: " + ", ".join(upward)


def _loads_simpy(name: str, seen: set[str]) -> list[str] | None:
    """The import-time chain from ``name`` to simpy, or None."""
    seen.add(name)
    targets = _imports(name, MODULES[name], top_level_only=True)
    if "simpy" in targets:
        return [name, "simpy"]
    for target in sorted((targets | set(_parents(name))) - seen):
        chain = _loads_simpy(target, seen)
        if chain:
            return [name, *chain]
    return None


@pytest.mark.parametrize("notebook", list(NOTEBOOKS))
def test_algorithm_modules_do_not_load_simpy(notebook):
    package = PACKAGES[notebook]
    leaks = []
    for name in MODULES:
        if not name.startswith(package) or _role(name) in MAY_LOAD_SIMPY:
            continue
        chain = _loads_simpy(name, set())
        if chain:
            leaks.append(" -> ".join(chain))
    assert not leaks, "importing these loads simpy: " + "; ".join(leaks)


#: The shared simulation layer: every paper may import it; it imports no paper.
SIM = "storrepro.sim"


def _owner(module: str) -> str | None:
    """The paper package (or :data:`SIM`) that ``module`` belongs to."""
    for package in (SIM, *PACKAGES.values()):
        if module == package or module.startswith(package + "."):
            return package
    return None


def _crossings(modules: dict[str, Path]) -> list[str]:
    """Imports from one paper package into another, and from :data:`SIM` into any paper."""
    found = []
    for name, path in modules.items():
        owner = _owner(name)
        if owner is None:
            continue
        for target in _imports(name, path, top_level_only=False):
            other = _owner(target)
            if other not in (None, owner, SIM):
                found.append(f"{name} -> {target}")
    return found


def _notebook_imports(notebook: str) -> set[str]:
    source = "\n".join("".join(c["source"]) for c in _code_cells(notebook))
    tree = ast.parse("\n".join(line for line in source.splitlines() if not line.startswith("%")))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return names


def test_no_paper_package_imports_another_and_sim_imports_no_paper():
    assert not _crossings(MODULES), "imports across paper packages: " + ", ".join(
        _crossings(MODULES)
    )


@pytest.mark.parametrize("notebook", list(NOTEBOOKS))
def test_a_notebook_imports_no_other_papers_package(notebook):
    others = {_owner(name) for name in _notebook_imports(notebook)} - {None, SIM}
    assert others <= {PACKAGES[notebook]}, f"{notebook} imports {sorted(others)}"


def test_the_crossing_rule_finds_a_planted_import(tmp_path):
    planted = {
        "storrepro.papers.bid.planted":
            "from storrepro.papers.validation.claims import v8_hdd_reference\n",
        "storrepro.sim.planted": "def f():\n    from storrepro.papers.bid import claims\n",
        "storrepro.papers.tofec.clean":
            "from storrepro.sim import disk_checks\nimport storrepro.papers.tofec\n",
    }
    modules = {}
    for name, text in planted.items():
        modules[name] = tmp_path / f"{name}.py"
        modules[name].write_text(text)
    assert _crossings(modules) == [
        "storrepro.papers.bid.planted -> storrepro.papers.validation.claims",
        "storrepro.sim.planted -> storrepro.papers.bid.claims",
    ]


def _code_cells(notebook: str) -> list[dict]:
    cells = json.loads(notebook_path(notebook).read_text())["cells"]
    return [c for c in cells if c["cell_type"] == "code"]


def _lines(cell: dict) -> int:
    return len("".join(cell["source"]).strip().splitlines())


@pytest.mark.parametrize("notebook", list(NOTEBOOKS))
def test_notebooks_are_thin(notebook):
    """A cell calls, plots and explains; analysis lives in the package, where it is tested. The
    parameters cell is a list of the config's parameters, one a line, so it is as long as the
    paper has knobs and is not held to the longest cell's bound."""
    cells = _code_cells(notebook)
    lines = sorted(_lines(c) for c in cells)
    longest = max(_lines(c) for c in cells if "parameters" not in c["metadata"].get("tags", []))
    assert lines[(len(lines) - 1) // 2] <= 10, (
        f"median code cell {lines[(len(lines) - 1) // 2]} lines"
    )
    assert longest <= 25, f"a code cell of {longest} lines"


@pytest.mark.parametrize("notebook", list(NOTEBOOKS))
def test_every_parameter_reaches_the_config(notebook):
    cells = _code_cells(notebook)
    tagged = [c for c in cells if "parameters" in c["metadata"].get("tags", [])]
    assert len(tagged) == 1, "one cell tagged 'parameters'"
    tree = ast.parse("".join(tagged[0]["source"]))
    assigned = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets}
    assert assigned == set(config_class(notebook).all_params())
    source = "\n".join("".join(c["source"]) for c in cells)
    assert f"{config_class(notebook).__name__}.from_parameters(globals())" in source


@pytest.mark.parametrize("notebook", list(NOTEBOOKS))
def test_notebook_passes_ruff(notebook):
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--quiet", str(notebook_path(notebook))],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr


#: A pointer to a document the project does not ship: the reproduction specs it was built from
#: or any other Markdown file not in the repository. Each open choice is described where used.
UNSHIPPED = re.compile(
    r"\bthe spec\b|\bspec's\b|\bspecs?/|\bspec\s*[`§(]|\bspec\s+[A-Z]{1,2}\d|\b[\w-]+\.md\b",
    re.IGNORECASE,
)
# index.md and glossary.md: the site builds them
SHIPPED = {"README.md", "CONTRIBUTING.md", "SCORECARD.md", "BENCH.md", "index.md", "glossary.md"}
#: A notebook's claims file, results/claims/<NN>_<name>.md, which the scorecard writes.
CLAIMS_FILE = re.compile(r"\d\d_\w+\.md")


def _texts(area: str) -> list[Path]:
    root = LIB.parent
    if area == "core":
        files = [p for p in ROOT.rglob("*.py") if "papers" not in p.relative_to(ROOT).parts]
        others = [*sorted((root / "site").rglob("*.py")), *sorted((root / "tests").rglob("*.py"))]
        return [*files, root / "README.md", root / "CONTRIBUTING.md", *others]
    package = ROOT / PACKAGES[area].split(".", 1)[1].replace(".", "/")
    return [*sorted(package.rglob("*.py")), notebook_path(area)]


@pytest.mark.parametrize("area", ["core", *NOTEBOOKS])
def test_no_pointer_to_a_document_the_project_does_not_ship(area):
    found = []
    for path in _texts(area):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in UNSHIPPED.finditer(line):
                if match.group(0) not in SHIPPED and not CLAIMS_FILE.fullmatch(match.group(0)):
                    found.append(f"{path.relative_to(LIB.parent)}:{number}: {match.group(0)!r}")
    assert not found, "\n".join(found)


#: Test files named for what spans a folder's modules rather than for one module: the roles'
#: contracts, a real trace in place of the stand-in, what the notebook calls end to end.
SPANNING = ("contract", "trace", "notebook")
#: The test files at the top of tests/: what spans the packages (the Makefile's, the checkout).
TOP_TESTS = ("test_layout.py", "test_library_edges.py", "test_makefile.py", "test_notebooks.py",
             "test_public_trace.py")


def _misplaced_tests(tests: Path, lib: Path) -> list[str]:
    """Test files that do not mirror the library: ``tests/<folder>/test_<module>.py`` beside
    ``lib/<folder>/<module>.py`` (or a module of one of the folder's subpackages, or a
    subpackage itself), or one of :data:`SPANNING`; at the top only :data:`TOP_TESTS`."""
    wrong = []
    for path in sorted(tests.rglob("test_*.py")):
        rel = path.relative_to(tests)
        if len(rel.parts) == 1:
            if rel.name not in TOP_TESTS:
                wrong.append(f"{rel}: at the top of tests/ only {', '.join(TOP_TESTS)}")
            continue
        folder, stem = lib.joinpath(*rel.parts[:-1]), path.stem.removeprefix("test_")
        places = [folder, *(p for p in folder.glob("*/") if (p / "__init__.py").is_file())]
        if stem in SPANNING or any(
            (p / f"{stem}.py").is_file() or (p / stem / "__init__.py").is_file() for p in places
        ):
            continue
        wrong.append(f"{rel}: no module {stem} in lib/storrepro/{'/'.join(rel.parts[:-1])}")
    return wrong


def test_the_tests_mirror_the_library():
    assert not _misplaced_tests(LIB.parent / "tests", ROOT), "\n".join(
        _misplaced_tests(LIB.parent / "tests", ROOT))


def test_the_mirror_rule_finds_a_misplaced_test(tmp_path):
    lib, tests = tmp_path / "lib", tmp_path / "tests"
    for module in ("suite/claims.py", "papers/bid/experiment/runs.py",
                   "papers/bid/experiment/__init__.py"):
        (lib / module).parent.mkdir(parents=True, exist_ok=True)
        (lib / module).write_text("")
    for test in ("suite/test_claims.py", "papers/bid/test_runs.py", "papers/bid/test_experiment.py",
                 "papers/bid/test_contract.py", "test_layout.py", "suite/test_gone.py",
                 "sim/test_fifo.py", "test_stray.py"):
        (tests / test).parent.mkdir(parents=True, exist_ok=True)
        (tests / test).write_text("")
    assert _misplaced_tests(tests, lib) == [
        "sim/test_fifo.py: no module fifo in lib/storrepro/sim",
        "suite/test_gone.py: no module gone in lib/storrepro/suite",
        f"test_stray.py: at the top of tests/ only {', '.join(TOP_TESTS)}",
    ]
