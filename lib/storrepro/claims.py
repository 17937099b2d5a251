"""Claims as data: what each claim of a paper is evidence of, its verdict, and why.

A paper package's ``claims.py`` holds one rule per claim id: a function that takes the
experiment's outputs and returns a :class:`Claim` — verdict, tolerance text built from the same
band the check uses, a short human ``reproduced_value`` with units, the structured ``values``
and a ``reason``. A notebook opens a :class:`Run` from its config, records each claim with
:meth:`Run.record` (with the same rule applied under every alternative reading of the paper's
open choices), sets a :meth:`Run.headline`, saves figures with :meth:`Run.save_figure` and calls
:meth:`Run.finish` last, which writes ``results/<notebook>.json`` atomically and the scorecard.

A claim's ``role`` says what it is evidence of:

- ``test``: a statement of the paper that could have come out false here;
- ``calibration``: a stand-in was fitted to it, so it shows the stand-in is calibrated, not that
  the paper holds;
- ``invariant``: a property of this implementation (a simulator against a closed form, a
  conservation law).

Only ``test`` claims count in a scorecard's verdict columns. A claim that ``requires`` others is
``void`` when one of them is not reproduced: its verdict without the condition stays in its
``values`` and its reason names the failed prerequisite.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from storrepro.config import NotebookConfig, reading_label
from storrepro.paths import (
    git_commit,
    output_root,
    read_json,
    results_dir,
    write_json_atomic,
    write_text_atomic,
)

#: What a rule may return; ``void`` is given only by :meth:`Run.record`, from ``requires``.
RULE_VERDICTS = ("reproduced", "partly", "not reproduced", "not checkable")
VERDICTS = ("reproduced", "partly", "not reproduced", "void", "not checkable")
KINDS = ("must", "should", "report")
ROLES = ("test", "calibration", "invariant")
VERDICT_COLOURS = {
    "reproduced": "#c8e6c9",
    "partly": "#fff3c4",
    "not reproduced": "#ffcdd2",
    "void": "#d7ccc8",
    "not checkable": "#e0e0e0",
}


@dataclass(frozen=True)
class Claim:
    """One claim of a paper, judged: what a claim rule returns.

    ``reproduced_value`` is a short human string with units ("0.825 accuracy", "−6.0 %");
    ``values`` holds the structured numbers behind it. ``reason`` says in one or two sentences
    what was measured and, for a claim that is not reproduced or only partly, its measured cause
    and the notebook experiment that shows it.
    """

    id: str
    statement: str
    paper_value: Any
    reproduced_value: str
    tolerance: str
    verdict: str
    reason: str
    role: str = "test"
    kind: str = "must"
    requires: tuple[str, ...] = ()
    values: dict = field(default_factory=dict)

    def __post_init__(self):
        where = f"claim {self.id!r}"
        if self.verdict not in RULE_VERDICTS:
            raise ValueError(f"{where}: verdict {self.verdict!r}, expected one of {RULE_VERDICTS}")
        if self.kind not in KINDS:
            raise ValueError(f"{where}: kind {self.kind!r}, expected one of {KINDS}")
        if self.role not in ROLES:
            raise ValueError(f"{where}: role {self.role!r}, expected one of {ROLES}")
        if not isinstance(self.reproduced_value, str) or not self.reproduced_value.strip():
            raise ValueError(f"{where}: reproduced_value must be a non-empty human string")
        if not self.reason.strip():
            raise ValueError(f"{where}: every claim needs a reason")
        object.__setattr__(self, "requires", tuple(self.requires))
        object.__setattr__(self, "values", plain(self.values))
        object.__setattr__(self, "paper_value", plain(self.paper_value))


def verdict_of(ok: bool) -> str:
    """A pass/fail rule's verdict: ``reproduced`` when ``ok``, else ``not reproduced``."""
    return "reproduced" if ok else "not reproduced"


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


def relative_band(tolerance: float, partly: float | None = None) -> str:
    """The tolerance text of :func:`verdict_within` for the same band."""
    text = f"±{tolerance * 100:g} % relative"
    return text + (f" (partly within ±{partly * 100:g} %)" if partly is not None else "")


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


def headline_verdict(verdicts: Iterable[str]) -> str:
    """The verdict on a paper's core claims: reproduced if all are, not reproduced if none is
    (void counts as not), partly otherwise."""
    verdicts = list(verdicts)
    if all(v == "reproduced" for v in verdicts):
        return "reproduced"
    if all(v in ("not reproduced", "void", "not checkable") for v in verdicts):
        return "not reproduced"
    return "partly"


class Run:
    """One execution of a notebook: its config, claims, headline, figures and timing."""

    def __init__(self, config: NotebookConfig, out: Path | None = None):
        self.config = config
        self.notebook = config.notebook
        self.out = Path(out) if out is not None else output_root()
        self.commit = git_commit()
        self.started = datetime.now(UTC).isoformat(timespec="seconds")
        self._t0 = time.perf_counter()
        self.claims: dict[str, dict] = {}
        self.figures: list[Path] = []
        self.captions: dict[str, str] = {}
        self.figure_claims: dict[str, dict] = {}
        self._headline: dict | None = None

    @property
    def provenance(self) -> dict[str, str]:
        return {
            "notebook": self.notebook,
            "commit": self.commit,
            "profile": self.config.profile,
            "seed": str(self.config.seed),
        }

    def verdict(self, id: str) -> str:
        """The recorded (possibly voided) verdict of claim ``id``."""
        return self.claims[id]["verdict"]

    def record(
        self,
        claim: Claim,
        readings: Mapping[str, Claim] | None = None,
        not_affected_by: Iterable[str] = (),
    ) -> dict:
        """Record ``claim`` (judged under the primary readings) and return its JSON entry.

        ``readings`` maps each alternative reading, ``"name=value"``, to the same rule's claim
        under it; ``not_affected_by`` names the readings that cannot change this claim's inputs.
        A ``test`` claim must be judged under every alternative of every reading of the config
        that touches it. Claims named in ``requires`` must be recorded first: the claim is
        ``void`` (under a reading, too) when one of them is not reproduced.
        """
        readings = dict(readings or {})
        not_affected = list(not_affected_by)
        labels = self.config.reading_labels()
        where = f"claim {claim.id!r}"
        if claim.id in self.claims:
            raise ValueError(f"{where} is recorded twice")
        unknown = [x for x in readings if x not in labels]
        unknown += [n for n in not_affected if n not in self.config.readings]
        if unknown:
            raise ValueError(f"{where}: unknown readings {unknown}; declared: {labels}")
        if any(alt.id != claim.id for alt in readings.values()):
            raise ValueError(f"{where}: a reading's claim has another id")
        if claim.role == "test":
            missing = [
                x for x in labels if x not in readings and x.split("=")[0] not in not_affected
            ]
            if missing:
                raise ValueError(
                    f"test {where} is not judged under the readings {missing}: pass its claim "
                    "under each, or name the reading in not_affected_by"
                )
        missing_prereq = [p for p in claim.requires if p not in self.claims]
        if missing_prereq:
            raise ValueError(f"{where} requires {missing_prereq}: record them first")
        entry = asdict(claim)
        entry["requires"] = list(claim.requires)
        entry["by_reading"] = {}
        for label, alt in readings.items():
            verdict, _ = self._conditioned(alt, label)
            entry["by_reading"][label] = {
                "verdict": verdict,
                "reproduced_value": alt.reproduced_value,
            }
        verdict, failed = self._conditioned(claim, None)
        if verdict == "void":
            pid, pverdict = failed
            entry["values"] = {**entry["values"], "verdict without its conditions": claim.verdict}
            entry["verdict"] = "void"
            entry["reason"] = (
                f"Void: it requires {pid}, which is {pverdict} "
                f"({self.claims[pid]['reproduced_value']}). Without that condition it would be "
                f"{claim.verdict}: {claim.reason}"
            )
        changed = sorted(
            {x.split("=")[0] for x, v in entry["by_reading"].items() if v["verdict"] != verdict}
        )
        entry["robust"] = not changed if (readings or claim.role == "test") else None
        entry["decided_by"] = changed
        entry["not_affected_by"] = not_affected
        self.claims[claim.id] = entry
        return entry

    def _conditioned(self, claim: Claim, label: str | None) -> tuple[str, tuple | None]:
        """The claim's verdict under reading ``label`` (None: primary) after its conditions."""
        for pid in claim.requires:
            prereq = self.claims[pid]
            pverdict = prereq["by_reading"].get(label, {}).get("verdict", prereq["verdict"])
            if pverdict != "reproduced":
                return "void", (pid, pverdict)
        return claim.verdict, None

    def headline(self, statement: str, core: Iterable[str], cause: str) -> dict:
        """The paper's core claim(s) in one sentence, the verdict on them (from the recorded
        ``core`` claims: the paper's test claims; a notebook without a paper names its
        invariants) and the main cause, shown first wherever results are read."""
        core = list(core)
        unknown = [c for c in core if c not in self.claims]
        if not core or unknown:
            raise ValueError(f"headline core {unknown or core}: must name recorded claims")
        self._headline = {
            "statement": statement,
            "core": core,
            "verdict": headline_verdict(self.verdict(c) for c in core),
            "cause": cause,
            "robust": all(self.claims[c]["robust"] is not False for c in core),
            "hangs_on": sorted({r for c in core for r in self.claims[c]["decided_by"]}),
        }
        return self._headline

    def save_figure(
        self,
        fig,
        name: str,
        caption: str,
        paper_figure: str | None = None,
        claims: Sequence[str] = (),
    ) -> None:
        """Save ``fig`` under ``figures/<notebook>/<name>.png`` (and ``.svg`` in the full
        profile, written in the background until :meth:`finish`), record it and show it (the
        figure cell shows the picture, not the files' paths).

        ``caption`` says what the figure shows; ``paper_figure`` names the paper's figure or
        table it reproduces (``"Fig. 9"``; None for a figure of our own) and ``claims`` the ids
        of the claims it bears on, whose verdicts the site prints under it. The quick profile
        skips the SVG: it is a smoke run, and the vector copy of every figure cost about a
        tenth of its time.
        """
        from storrepro.plotting import save_figure

        if not caption or not caption.strip():
            raise ValueError(f"figure {name!r}: give a caption saying what it shows")
        formats = ("png", "svg") if self.config.profile == "full" else ("png",)
        paths = save_figure(fig, self.notebook, name, out=self.out, metadata=self.provenance,
                            formats=formats, background=True)  # fmt: skip
        self.figures.extend(p for p in paths if p not in self.figures)
        for path in paths:
            key = path.relative_to(self.out).as_posix()
            self.captions[key] = caption
            self.figure_claims[key] = {"paper_figure": paper_figure, "claims": list(claims)}
        show_saved(fig, paths[0])

    def claims_frame(self) -> pd.DataFrame:
        return claims_frame(list(self.claims.values()))

    def show_claims(self):
        """The claims as a table with verdicts coloured (renders in Jupyter)."""
        return style_claims(self.claims_frame())

    def reading_table(self) -> pd.DataFrame:
        """Test claims x readings: the verdict (and value) under the primary and each
        alternative; ``—`` where the reading cannot touch the claim."""
        return reading_table(self.result())

    def result(self) -> dict[str, Any]:
        if self._headline is None:
            raise ValueError(f"{self.notebook}: set run.headline(...) before finishing")
        for path, meta in self.figure_claims.items():
            unknown = [c for c in meta["claims"] if c not in self.claims]
            if unknown:
                raise ValueError(f"figure {path} names claims never recorded: {unknown}")
        return {
            "notebook": self.notebook,
            "paper": self.config.paper,
            "profile": self.config.profile,
            "seed": self.config.seed,
            "parameters": plain(self.config.as_dict()),
            "input": self.config.input_description(),
            "git_commit": self.commit,
            "started": self.started,
            "wall_seconds": round(time.perf_counter() - self._t0, 2),
            "headline": self._headline,
            "readings": {name: asdict(r) for name, r in self.config.readings.items()},
            "figures": [p.relative_to(self.out).as_posix() for p in self.figures],
            "captions": self.captions,
            "figure_claims": self.figure_claims,
            "claims": list(self.claims.values()),
        }

    def finish(self) -> None:
        """Write ``results/<notebook>.json`` and refresh the scorecard, once every figure is
        written. Returns nothing, so that a notebook's last line shows no build path."""
        from storrepro.plotting import wait_for_figures

        wait_for_figures()
        write_json_atomic(results_dir(self.out) / f"{self.notebook}.json", self.result())
        write_scorecard(self.out)


CLAIM_COLUMNS = [
    "id",
    "role",
    "kind",
    "statement",
    "paper_value",
    "reproduced_value",
    "verdict",
    "reason",
]


def claims_frame(claims: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(claims, columns=CLAIM_COLUMNS)


def style_claims(frame: pd.DataFrame):
    return frame.style.map(
        lambda v: f"background-color: {VERDICT_COLOURS.get(v, '')}", subset=["verdict"]
    ).hide(axis="index")


def alternative_labels(readings: dict[str, dict]) -> list[str]:
    """``"name=value"`` of every non-primary reading of a result's ``readings``."""
    return [
        reading_label(name, value)
        for name, r in readings.items()
        for value in r["alternatives"]
        if value != r["primary"]
    ]


def reading_table(result: dict) -> pd.DataFrame:
    """A result's test claims x (primary + every alternative reading): ``verdict (value)``."""
    labels = alternative_labels(result.get("readings", {}))
    rows = {}
    for c in result["claims"]:
        if c["role"] != "test":
            continue
        row = {"primary": f"{c['verdict']} ({c['reproduced_value']})"}
        for label in labels:
            alt = c["by_reading"].get(label)
            row[label] = f"{alt['verdict']} ({alt['reproduced_value']})" if alt else "—"
        row["robust"] = "yes" if c["robust"] else "hangs on " + ", ".join(c["decided_by"])
        rows[c["id"]] = row
    return pd.DataFrame.from_dict(rows, orient="index", columns=["primary", *labels, "robust"])


def load_results(out: Path | None = None) -> list[dict]:
    """Every notebook's ``results/<notebook>.json`` under ``out``, sorted by notebook name
    (other JSON there, such as ``make bench``'s ``bench.json``, has no claims and is skipped)."""
    folder = results_dir(out)
    loaded = (read_json(p) for p in sorted(folder.glob("*.json")))
    return [r for r in loaded if "claims" in r]


def verdict_counts(result: dict, role: str = "test") -> dict[str, int]:
    """How many of a result's claims of ``role`` have each verdict."""
    counts = dict.fromkeys(VERDICTS, 0)
    for claim in result["claims"]:
        if claim["role"] == role:
            counts[claim["verdict"]] += 1
    return counts


def role_summary(result: dict, role: str) -> str:
    """``"5/6 met"``-style summary of a result's calibration or invariant claims."""
    counts = verdict_counts(result, role)
    total = sum(counts.values())
    return f"{counts['reproduced']}/{total}" if total else "—"


def robust_summary(result: dict) -> str:
    """``"12/20 robust"``: test claims whose verdict is the same under every reading."""
    tests = [c for c in result["claims"] if c["role"] == "test"]
    return f"{sum(bool(c['robust']) for c in tests)}/{len(tests)}" if tests else "—"


def _cell(value: Any) -> str:
    if isinstance(value, float):
        value = f"{value:.5g}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: Iterable[Iterable[Any]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(_cell(v) for v in row) + " |" for row in rows),
    ]


def build_scorecard(results: list[dict]) -> str:
    """A Markdown scorecard: each paper's headline, a summary row per notebook counting only
    ``test`` claims in its verdict columns, then each notebook's readings and claims."""
    lines = [
        "# Scorecard",
        "",
        "Written by the runner from `results/*.json`. The verdict columns count only `test` "
        "claims — statements of the paper that could have come out false here. Calibration "
        "claims (targets a stand-in was fitted to) and invariants (properties of this "
        "implementation) are counted beside them, as met/total. *Robust* counts the test "
        "claims whose verdict is the same under every reading of the paper's open choices.",
        "",
        "## Headlines",
        "",
    ]
    for r in results:
        h = r["headline"]
        hangs = f" Hangs on: {', '.join(h['hangs_on'])}." if h["hangs_on"] else ""
        lines.append(
            f"- **{r['notebook']}** — {h['statement']} **{h['verdict']}** "
            f"({', '.join(h['core'])}). {h['cause']}{hangs}"
        )
    lines.append("")
    lines += _table(
        [
            "notebook",
            "profile",
            "seed",
            "commit",
            "wall (s)",
            "test claims",
            *VERDICTS,
            "robust",
            "calibration met",
            "invariants held",
        ],
        (
            [
                r["notebook"],
                r["profile"],
                r["seed"],
                r["git_commit"],
                f"{r['wall_seconds']:.1f}",
                sum(verdict_counts(r).values()),
                *verdict_counts(r).values(),
                robust_summary(r),
                role_summary(r, "calibration"),
                role_summary(r, "invariant"),
            ]
            for r in results
        ),
    )
    for r in results:
        lines += ["", f"## {r['notebook']}", "", r["paper"], ""]
        lines += [f"Input: {r.get('input', 'synthetic stand-in')}.", ""]
        if r["readings"]:
            lines += ["### Readings of the paper's open choices", ""]
            lines += _table(
                ["reading", "question", "primary", "alternatives", "why the primary"],
                (
                    [
                        name,
                        x["question"],
                        x["primary"],
                        "; ".join(f"{k}: {v}" for k, v in x["alternatives"].items()),
                        x["argument"],
                    ]
                    for name, x in r["readings"].items()
                ),
            )
            lines.append("")
        lines += ["### Claims", ""]
        lines += _table(
            [
                "id",
                "role",
                "kind",
                "statement",
                "paper",
                "reproduced",
                "tolerance",
                "verdict",
                "readings",
                "reason",
            ],
            (
                [
                    c["id"],
                    c["role"],
                    c["kind"],
                    c["statement"],
                    c["paper_value"],
                    c["reproduced_value"],
                    c["tolerance"],
                    c["verdict"],
                    _robustness(c),
                    c["reason"],
                ]
                for c in r["claims"]
            ),
        )
    return "\n".join(lines) + "\n"


def _robustness(claim: dict) -> str:
    if claim["robust"] is None:
        return "—"
    if claim["robust"]:
        return "robust"
    return "hangs on " + ", ".join(
        f"{x} → {v['verdict']}"
        for x, v in claim["by_reading"].items()
        if v["verdict"] != claim["verdict"]
    )


def write_scorecard(out: Path | None = None) -> Path:
    path = results_dir(out) / "SCORECARD.md"
    write_text_atomic(path, build_scorecard(load_results(out)))
    return path


def show_saved(fig, png: Path) -> None:
    """In a notebook, show the PNG just written and close the figure, which the inline backend
    would otherwise draw a second time (a third of a figure cell's time); shown at the size the
    inline backend would give it. Elsewhere, do nothing."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "kernel"):
        return
    import matplotlib as mpl
    import matplotlib.pyplot as plt
    from IPython.display import Image, display

    data = png.read_bytes()
    width = int.from_bytes(data[16:20], "big")  # the PNG header's pixel width
    saved_dpi = mpl.rcParams["savefig.dpi"]
    saved_dpi = fig.dpi if saved_dpi == "figure" else saved_dpi
    display(Image(data=data, width=round(width * mpl.rcParams["figure.dpi"] / saved_dpi)))
    plt.close(fig)
