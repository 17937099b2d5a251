"""Claims as data: record paper-vs-reproduced numbers, show them, write results, make a scorecard.

A notebook opens a :class:`Run` from its config, records each quantitative claim of its paper
with :meth:`Run.claim`, saves figures with :meth:`Run.save_figure`, and calls :meth:`Run.finish`
last, which writes ``results/<notebook>.json`` atomically. Its keys are read by other tools:
``notebook, paper, profile, seed, parameters, git_commit, started, wall_seconds, figures, claims``
(and ``captions``: figure path -> caption, for the site).

Verdicts come from tolerances fixed before the run (the spec's, or the config's); a claim that
does not reproduce is a result, recorded as ``"not reproduced"`` with its reason.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from storrepro.config import NotebookConfig
from storrepro.paths import (
    git_commit,
    output_root,
    results_dir,
    write_json_atomic,
    write_text_atomic,
)

VERDICTS = ("reproduced", "partly", "not reproduced", "not checkable")
KINDS = ("must", "should", "report")
VERDICT_COLOURS = {
    "reproduced": "#c8e6c9",
    "partly": "#fff3c4",
    "not reproduced": "#ffcdd2",
    "not checkable": "#e0e0e0",
}


@dataclass(frozen=True)
class Claim:
    id: str
    statement: str
    paper_value: Any
    reproduced_value: Any
    tolerance: str
    verdict: str
    kind: str


def relative_error(value: float, reference: float) -> float:
    """``(value - reference) / |reference|``."""
    return (value - reference) / abs(reference)


def verdict_within(error: float, tolerance: float, partly: float | None = None) -> str:
    """``reproduced`` when ``|error| <= tolerance``; ``partly`` within ``partly``; else not."""
    if not math.isfinite(error):
        return "not reproduced"
    if abs(error) <= tolerance:
        return "reproduced"
    if partly is not None and abs(error) <= partly:
        return "partly"
    return "not reproduced"


def plain(value: Any) -> Any:
    """numpy scalars and arrays -> JSON-ready Python values."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


class Run:
    """One execution of a notebook: its config, claims, figures and timing."""

    def __init__(self, config: NotebookConfig, out: Path | None = None):
        self.config = config
        self.notebook = config.notebook
        self.out = Path(out) if out is not None else output_root()
        self.commit = git_commit()
        self.started = datetime.now(UTC).isoformat(timespec="seconds")
        self._t0 = time.perf_counter()
        self.claims: list[Claim] = []
        self.figures: list[Path] = []
        self.captions: dict[str, str] = {}

    @property
    def provenance(self) -> dict[str, str]:
        return {
            "notebook": self.notebook,
            "commit": self.commit,
            "profile": self.config.profile,
            "seed": str(self.config.seed),
        }

    def claim(
        self,
        id: str,
        statement: str,
        *,
        paper_value: Any,
        reproduced_value: Any,
        tolerance: str,
        verdict: str,
        kind: str = "must",
    ) -> Claim:
        if verdict not in VERDICTS:
            raise ValueError(f"verdict {verdict!r} for claim {id!r}: expected one of {VERDICTS}")
        if kind not in KINDS:
            raise ValueError(f"kind {kind!r} for claim {id!r}: expected one of {KINDS}")
        if any(c.id == id for c in self.claims):
            raise ValueError(f"claim id {id!r} is recorded twice")
        claim = Claim(
            id, statement, plain(paper_value), plain(reproduced_value), tolerance, verdict, kind
        )
        self.claims.append(claim)
        return claim

    def claim_relative(
        self,
        id: str,
        statement: str,
        *,
        reproduced: float,
        reference: float,
        tolerance: float,
        kind: str = "must",
    ) -> Claim:
        """A numeric claim judged by relative error: reproduced when within ``tolerance``."""
        error = relative_error(reproduced, reference)
        return self.claim(
            id,
            statement,
            paper_value=reference,
            reproduced_value=reproduced,
            tolerance=f"±{tolerance * 100:g} % relative",
            verdict=verdict_within(error, tolerance),
            kind=kind,
        )

    def save_figure(self, fig, name: str, caption: str | None = None) -> list[Path]:
        """Save ``fig`` under ``figures/<notebook>/<name>.png`` (and ``.svg`` in the full
        profile) and record it.

        ``caption`` says what the figure shows and which paper figure it reproduces; the site
        prints it under the image. The quick profile skips the SVG: it is a smoke run, and the
        vector copy of every figure cost about a tenth of its time.
        """
        from storrepro.plotting import save_figure

        formats = ("png", "svg") if self.config.profile == "full" else ("png",)
        paths = save_figure(
            fig, self.notebook, name, out=self.out, metadata=self.provenance, formats=formats
        )
        self.figures.extend(p for p in paths if p not in self.figures)
        if caption:
            for path in paths:
                self.captions[path.relative_to(self.out).as_posix()] = caption
        return paths

    def claims_frame(self) -> pd.DataFrame:
        return claims_frame([asdict(c) for c in self.claims])

    def show_claims(self):
        """The claims as a table with verdicts coloured (renders in Jupyter)."""
        return style_claims(self.claims_frame())

    def result(self) -> dict[str, Any]:
        return {
            "notebook": self.notebook,
            "paper": self.config.paper,
            "profile": self.config.profile,
            "seed": self.config.seed,
            "parameters": plain(self.config.as_dict()),
            "git_commit": self.commit,
            "started": self.started,
            "wall_seconds": round(time.perf_counter() - self._t0, 2),
            "figures": [p.relative_to(self.out).as_posix() for p in self.figures],
            "captions": self.captions,
            "claims": [asdict(c) for c in self.claims],
        }

    def finish(self) -> Path:
        """Write ``results/<notebook>.json`` and refresh the scorecard; return the JSON's path."""
        path = results_dir(self.out) / f"{self.notebook}.json"
        write_json_atomic(path, self.result())
        write_scorecard(self.out)
        return path


def claims_frame(claims: list[dict]) -> pd.DataFrame:
    columns = ["id", "kind", "statement", "paper_value", "reproduced_value", "tolerance", "verdict"]
    return pd.DataFrame(claims, columns=columns)


def style_claims(frame: pd.DataFrame):
    return frame.style.map(
        lambda v: f"background-color: {VERDICT_COLOURS.get(v, '')}", subset=["verdict"]
    ).hide(axis="index")


def load_results(out: Path | None = None) -> list[dict]:
    """Every notebook's ``results/<notebook>.json`` under ``out``, sorted by notebook name
    (other JSON there, such as ``make bench``'s ``bench.json``, has no claims and is skipped)."""
    folder = results_dir(out)
    loaded = (json.loads(p.read_text()) for p in sorted(folder.glob("*.json")))
    return [r for r in loaded if "claims" in r]


def verdict_counts(result: dict) -> dict[str, int]:
    counts = dict.fromkeys(VERDICTS, 0)
    for claim in result["claims"]:
        counts[claim["verdict"]] += 1
    return counts


def _cell(value: Any) -> str:
    if isinstance(value, float):
        value = f"{value:.5g}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def build_scorecard(results: list[dict]) -> str:
    """A Markdown scorecard: one summary row per notebook, then every claim."""
    lines = [
        "# Scorecard",
        "",
        "Paper number vs reproduced number for every claim; written by the runner from "
        "`results/*.json`.",
        "",
        "| notebook | profile | seed | commit | wall (s) | claims | "
        + " | ".join(VERDICTS)
        + " | must not reproduced |",
        "|---|---|---|---|---|---|" + "---|" * len(VERDICTS) + "---|",
    ]
    for r in results:
        counts = verdict_counts(r)
        failing = [
            c["id"] for c in r["claims"] if c["kind"] == "must" and c["verdict"] == "not reproduced"
        ]
        lines.append(
            f"| {r['notebook']} | {r['profile']} | {r['seed']} | {r['git_commit']} | "
            f"{r['wall_seconds']:.1f} | {len(r['claims'])} | "
            + " | ".join(str(counts[v]) for v in VERDICTS)
            + f" | {', '.join(failing) or '—'} |"
        )
    for r in results:
        lines += [
            "",
            f"## {r['notebook']}",
            "",
            r["paper"],
            "",
            "| id | kind | statement | paper | reproduced | tolerance | verdict |",
            "|---|---|---|---|---|---|---|",
        ]
        for c in r["claims"]:
            lines.append(
                "| "
                + " | ".join(
                    _cell(c[k])
                    for k in (
                        "id",
                        "kind",
                        "statement",
                        "paper_value",
                        "reproduced_value",
                        "tolerance",
                        "verdict",
                    )
                )
                + " |"
            )
    return "\n".join(lines) + "\n"


def write_scorecard(out: Path | None = None) -> Path:
    path = results_dir(out) / "SCORECARD.md"
    write_text_atomic(path, build_scorecard(load_results(out)))
    return path
