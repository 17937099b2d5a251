"""The README's results block, written from ``results/*.json``, never typed.

The canonical run (``make reproduce``) rewrites the block between :data:`START` and :data:`END`
of ``README.md``: the scorecard's summary table and each paper's plain-language headline. A test
checks the committed README against the committed results.
"""

from __future__ import annotations

from pathlib import Path

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
    lines += ["", f"The notebooks of this run took {total:.0f} s together, every reading and "
              "replicate included (each notebook's own time; starting the kernels adds a few "
              "seconds each).", ""]
    lines += ["The headlines, in short (each with its measured cause in the scorecard):", ""]
    for r in results:
        h = r["headline"]
        others = "".join(f" Under {k}: {v}." for k, v in h.get("by_reading", {}).items())
        said = h.get("summary") or f"{h['verdict']}. {h['statement']}"
        lines.append(f"- **{r['notebook']}** — {said}{others}")
    return "\n".join(lines)


def update_readme(root: Path | None = None) -> bool:
    """Rewrite the README's results block from the results under ``root``; True if it
    changed."""
    root = root or repo_root()
    path = root / "README.md"
    text = path.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise ValueError(f"{path}: the results block's markers are missing ({START!r} … {END!r})")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{START}\n{results_block(load_results(root))}\n{END}{tail}"
    if new == text:
        return False
    write_text_atomic(path, new)
    return True
