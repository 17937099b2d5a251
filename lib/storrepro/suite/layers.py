"""The layers of the package, read from its imports: which area imports which, drawn for the
README. An area is the command line (``__main__``), one paper package (``papers/<paper>``), the
shared device models (``sim``) or the suite's machinery (``suite``, with its ``data`` and
``traces``). Only imports written in the code count: the runner finds the paper packages at run
time through the notebook registry, which is no arrow."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from storrepro.suite.paths import repo_root

#: What each area is, in a reader's words; the modules listed beside it are read from the tree.
ROLES = {
    "__main__": "the command line",
    "papers": "one package per notebook, all of one shape: config, workload, experiment, "
    "claims, plots, bench, and for a paper its simpy model and fast kernel",
    "sim": "simpy device models the papers share",
    "suite": "the machinery every notebook shares",
}


def package_root() -> Path:
    return repo_root() / "lib" / "storrepro"


def area_of(module: str) -> str | None:
    """``storrepro.papers.bid.claims`` -> ``papers/bid``; ``storrepro.suite.traces.x`` ->
    ``suite``; None for the top package itself."""
    parts = module.split(".")[1:]
    if not parts:
        return None
    if parts[0] == "papers" and len(parts) > 1:
        return f"papers/{parts[1]}"
    return parts[0]


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def area_imports(root: Path | None = None) -> dict[str, set[str]]:
    """Area -> the other areas its modules import (absolute ``storrepro`` imports, anywhere in
    a module: a call-time import is still an arrow)."""
    root = root or package_root()
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        area = area_of(_module_name(path, root))
        if area is None or area == "papers":
            continue
        graph.setdefault(area, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                other = area_of(target) if target.startswith("storrepro.") else None
                if other and other not in (area, "papers"):
                    graph[area].add(other)
    return graph


def layers(graph: dict[str, set[str]]) -> list[list[str]]:
    """The areas by layer, lowest first: an area sits one above the highest area it imports.
    Raises on a cycle between areas, which has no layers."""
    level: dict[str, int] = {}

    def place(area: str, trail: tuple[str, ...]) -> int:
        if area in trail:
            raise ValueError("areas import each other: " + " -> ".join((*trail, area)))
        if area not in level:
            below = [place(other, (*trail, area)) for other in graph.get(area, ())]
            level[area] = 1 + max(below, default=-1)
        return level[area]

    for area in graph:
        place(area, ())
    out: list[list[str]] = [[] for _ in range(max(level.values(), default=-1) + 1)]
    for area in sorted(level):
        out[level[area]].append(area)
    return out


def _contents(area: str, root: Path) -> list[str]:
    """The modules and subpackages an area holds (a paper package: its shared shape)."""
    folder = root / area
    return sorted(
        p.stem if p.suffix == ".py" else p.name + "/"
        for p in folder.iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
    )


def _label(area: str) -> str:
    return area if area == "__main__" else area + "/"


def picture(root: Path | None = None, width: int = 100) -> str:
    """The layers as text, top layer first (areas that import the same areas on one line),
    then what each area holds."""
    root = root or package_root()
    graph = area_imports(root)
    lines = ["```"]
    for depth, areas in reversed(list(enumerate(layers(graph)))):
        groups: dict[tuple[str, ...], list[str]] = {}
        for area in areas:
            groups.setdefault(tuple(sorted(graph[area])), []).append(_label(area))
        for i, (imports, names) in enumerate(sorted(groups.items(), key=lambda g: g[1])):
            arrow = "imports " + ", ".join(map(_label, imports)) if imports else (
                "imports no other area")
            head = f"layer {depth}  " if i == 0 else " " * 9
            lines += textwrap.wrap(", ".join(names) + f"  ->  {arrow}", width - 4,
                                   initial_indent=head, subsequent_indent=" " * 11)
    lines += ["", "An area imports only from the layers below it; the runner finds each paper",
              "package at run time through the notebook registry (suite/notebooks.py), which is",
              "no import.", ""]
    papers = sorted(a for a in graph if a.startswith("papers/"))
    legend = [("__main__", ROLES["__main__"], []),
              ("papers/<paper>", ", ".join(p.split("/", 1)[1] for p in papers) + ": "
               + ROLES["papers"], []),
              ("sim/", ROLES["sim"], _contents("sim", root)),
              ("suite/", ROLES["suite"], _contents("suite", root))]
    for name, role, held in legend:
        text = role + (": " + ", ".join(held) if held else "")
        lines += textwrap.wrap(f"{name:<16}{text}", width - 4, subsequent_indent=" " * 16)
    lines.append("```")
    return "\n".join(lines)

