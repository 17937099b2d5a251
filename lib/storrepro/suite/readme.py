"""The README's blocks that are written, never typed.

The canonical run (``make reproduce``) rewrites the results block between :data:`START` and
:data:`END` of ``README.md``: the scorecard's summary table and each paper's plain-language
headline. ``python -m storrepro readme`` rewrites the blocks written from the code
(:data:`CODE_BLOCKS`): the notebooks table and what a trace replaces in each, from the notebooks'
config classes, and the picture of the layers, from the imports. Tests check the committed README
against the committed results and the code, so a new paper needs no README edit by hand.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from storrepro.suite.layers import picture
from storrepro.suite.notebooks import NOTEBOOKS, config_class
from storrepro.suite.paths import repo_root, write_text_atomic
from storrepro.suite.scorecard import SUMMARY_HEADER, core_reproduced, load_results, summary_cells

START = "<!-- results: written by the canonical run from results/*.json; do not edit -->"
END = "<!-- end of results -->"


def results_block(results: list[dict]) -> str:
    """The table and the headlines in short, as Markdown."""
    header = ["notebook", "headline", "core reproduced", *SUMMARY_HEADER, "wall (s)"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in results:
        h = r["headline"]
        cells = [r["notebook"], f"**{h['verdict']}**", f"{core_reproduced(r)} of {len(h['core'])}",
                 *summary_cells(r), f"{r['wall_seconds']:.0f}"]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    total = sum(r["wall_seconds"] for r in results)
    starts = [datetime.fromisoformat(r["started"]).timestamp() for r in results]
    ends = [s + r["wall_seconds"] for s, r in zip(starts, results, strict=True)]
    span = max(ends, default=0.0) - min(starts, default=0.0)
    lines += ["", f"The notebooks of this run took {span:.0f} s from the first start to the last "
              "end, every reading and replicate included (starting the kernels adds a few "
              "seconds each). The table gives each notebook's own time, which grows when it "
              f"shares the machine with another run beside it: they add up to {total:.0f} s.", ""]
    lines += ["The headlines, in short (each with its measured cause in the scorecard):", ""]
    for r in results:
        h = r["headline"]
        others = "".join(f" Under {k}: {v}." for k, v in h.get("by_reading", {}).items())
        said = h.get("summary") or f"{h['verdict']}. {h['statement']}"
        lines.append(f"- **{r['notebook']}** — {said}{others}")
    return "\n".join(lines)


def notebooks_table() -> str:
    """Each notebook with its paper's short name and what it reproduces (its config's ``title``
    and ``reproduces``), in run order."""
    lines = ["| notebook | paper | what it reproduces |", "|---|---|---|"]
    for name in NOTEBOOKS:
        cls = config_class(name)
        lines.append(f"| [`{name}`](notebooks/{name}.ipynb) | {cls.title} | {cls.reproduces} |")
    return "\n".join(lines)


def trace_table() -> str:
    """What a user's trace replaces in each notebook that takes one (``trace_replaces``)."""
    lines = ["| notebook | what the trace replaces |", "|---|---|"]
    for name in NOTEBOOKS:
        replaces = config_class(name).trace_replaces
        if replaces:
            lines.append(f"| `{name}` | {replaces} |")
    return "\n".join(lines)


#: The blocks ``python -m storrepro readme`` writes from the code: name -> (what writes it).
CODE_BLOCKS = {"notebooks": notebooks_table, "trace replaces": trace_table, "layers": picture}


def markers(name: str) -> tuple[str, str]:
    return (f"<!-- {name}: written by `python -m storrepro readme` from the code; do not edit -->",
            f"<!-- end of {name} -->")


def replace_block(text: str, start: str, end: str, body: str, where: Path) -> str:
    """``text`` with what lies between ``start`` and ``end`` replaced by ``body``."""
    if start not in text or end not in text:
        raise ValueError(f"{where}: the block's markers are missing ({start!r} … {end!r})")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def _rewrite(path: Path, new: str) -> bool:
    if new == path.read_text(encoding="utf-8"):
        return False
    write_text_atomic(path, new)
    return True


def update_readme(root: Path | None = None) -> bool:
    """Rewrite the README's results block from the results under ``root``; True if it
    changed."""
    root = root or repo_root()
    path = root / "README.md"
    text = path.read_text(encoding="utf-8")
    return _rewrite(path, replace_block(text, START, END, results_block(load_results(root)), path))


def update_code_blocks(root: Path | None = None) -> bool:
    """Rewrite the README's blocks written from the code (:data:`CODE_BLOCKS`); True if any
    changed."""
    path = (root or repo_root()) / "README.md"
    text = path.read_text(encoding="utf-8")
    for name, write in CODE_BLOCKS.items():
        text = replace_block(text, *markers(name), write(), path)
    return _rewrite(path, text)
