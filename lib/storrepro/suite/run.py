"""One execution of a notebook: its config, claims, headline, figures and timing.

A notebook opens a :class:`Run` from its config, judges each claim with :meth:`Run.judge` (the
rule, its inputs, and its inputs under every alternative reading of the paper's open choices),
sets a :meth:`Run.headline`, saves figures with :meth:`Run.save_figure` and calls
:meth:`Run.finish` last, which writes ``results/<notebook>.json`` atomically, the claims picture
and the scorecard.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from storrepro.suite import claims_picture
from storrepro.suite.claims import (
    Claim,
    headline_verdict,
    input_digest,
    plain,
    plain_words_problems,
    verdict_words,
)
from storrepro.suite.config import NotebookConfig, reading_label
from storrepro.suite.consistency import Register, Reported
from storrepro.suite.paths import git_commit, output_root, repo_root, results_dir, write_json_atomic
from storrepro.suite.replicates import Pool
from storrepro.suite.scorecard import claims_frame, reading_table, style_claims, write_scorecard
from storrepro.suite.table import Row, band_entries, grow, judge_row
from storrepro.suite.traces.needs import check as check_trace
from storrepro.suite.traces.needs import words_of

#: Roles whose claims rest on the workload, so a user's trace in place of the stand-in is said.
_ON_INPUT = ("test", "calibration", "stand-in", "analysis")


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
        self._consistency = Register(config.readings)
        self._bands: dict[str, dict] = {}  # the register's band entries, from claims tables
        check_trace(config)  # a user's trace that cannot give the notebook's input: before work
        self._trace_words: dict[str, str] | None = None

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

    def judge(
        self,
        rule: Callable[..., Claim],
        *args: Any,
        by_reading: Mapping[str, tuple] | None = None,
        not_affected_by: Iterable[str] = (),
        on_trace: bool = True,
        **kwargs: Any,
    ) -> dict:
        """Apply ``rule`` to ``args`` (the inputs under the primary readings) and to each
        alternative reading's inputs, record the claim and return its JSON entry.

        ``by_reading`` maps ``"name=value"`` to the rule's positional inputs under that reading
        (``kwargs`` are shared); ``not_affected_by`` names the readings that cannot change the
        inputs. A ``test`` claim must be judged under every alternative of every reading of the
        config that touches it. The entry stores a digest of each reading's inputs, and a claim
        judged on a user's trace says so in its reason; ``on_trace`` False (or a config's
        ``trace_claims`` that leaves the claim out) says the claim's inputs do not come from the
        trace even when the notebook takes one: they stay the stand-in's.
        """
        claim = self._on_input(rule(*args, **kwargs), on_trace)
        alternatives = {label: self._on_input(rule(*alt, **kwargs), on_trace)
                        for label, alt in (by_reading or {}).items()}
        gaps = claim.test_gaps() if claim.role == "test" else []
        if gaps:
            raise ValueError(f"test claim {claim.id!r} lacks {' and '.join(gaps)}")
        entry = self._record(claim, alternatives, not_affected_by)
        entry["inputs"] = input_digest(args, kwargs)
        for label, alt in (by_reading or {}).items():
            entry["by_reading"][label]["inputs"] = input_digest(alt, kwargs)
        return entry

    def judge_table(
        self,
        table: Iterable[Row],
        module: Any,
        inputs: Any = None,
        pools: Mapping[str, Pool] | None = None,
        by_reading: Mapping[str, Any] | None = None,
        pools_by_reading: Mapping[str, Mapping[str, Pool]] | None = None,
        on_trace: bool = True,
    ) -> list[dict]:
        """Judge every row of a paper's claims ``table`` (:mod:`storrepro.suite.table`) with
        the ``measure_<id>`` / ``explain_<id>`` functions of ``module``, on ``inputs`` and the
        replicate ``pools``, and under each alternative reading on ``by_reading[label]`` (the
        inputs under it) and ``pools_by_reading[label]`` (its pools); a reading given in
        neither is the primary's for that claim only when the row names it in
        ``not_affected_by``. Records each claim (as :meth:`judge` does) and the register's band
        entries written from the rows; returns the claims' entries."""
        table, pools = list(table), dict(pools or {})
        cases = self._cases(table, inputs, pools, by_reading, pools_by_reading)
        grow([case for row in table for case in cases[row.id].values()], module)
        entries = []
        for row in table:
            claim = judge_row(row, module, inputs, pools)
            alternatives = {label: judge_row(row, module, alt_inputs, alt_pools)
                            for label, (_, alt_inputs, alt_pools) in cases[row.id].items()
                            if label}
            entries.append(self.judge(
                _given, claim, by_reading={k: (c,) for k, c in alternatives.items()},
                not_affected_by=row.not_affected_by, on_trace=on_trace))
        self._bands.update(band_entries(table, module.__name__))
        return entries

    def draw(self, table: Iterable[Row], module: Any, inputs: Any = None,
             pools: Mapping[str, Pool] | None = None,
             by_reading: Mapping[str, Any] | None = None,
             pools_by_reading: Mapping[str, Mapping[str, Pool]] | None = None) -> None:
        """Grow the pools of ``table``'s rows as :meth:`judge_table` would before judging them
        (:func:`storrepro.suite.table.grow`), for a notebook that shows the replicates (or
        judges a claim on them) before it judges the rows."""
        table = list(table)
        cases = self._cases(table, inputs, dict(pools or {}), by_reading, pools_by_reading)
        grow([case for row in table for case in cases[row.id].values()], module)

    def _cases(self, table: list[Row], inputs: Any, pools: dict, by_reading, pools_by_reading
               ) -> dict[str, dict[str, tuple]]:
        """Per row, ``{label: (row, inputs, pools)}`` for the primary (label '') and each
        alternative reading the row is judged under: those given in ``by_reading`` or
        ``pools_by_reading`` (the primary's inputs or pools where one of them is missing) that
        the row does not name in ``not_affected_by``."""
        by_reading, pools_by_reading = dict(by_reading or {}), dict(pools_by_reading or {})
        labels = [x for x in self.config.reading_labels()
                  if x in by_reading or x in pools_by_reading]
        return {row.id: {"": (row, inputs, pools), **{
            label: (row, by_reading.get(label, inputs), pools_by_reading.get(label, pools))
            for label in labels if label.split("=")[0] not in row.not_affected_by}}
            for row in table}

    def _on_input(self, claim: Claim, on_trace: bool = True) -> Claim:
        """With a user's trace in place of the stand-in (``on_trace``: the claim's inputs come
        from it), the reason says what it was checked on; a calibration target, fitted to the
        stand-in, is not applicable to the trace and is not checkable."""
        driven = self.config.trace_claims is None or claim.id in self.config.trace_claims
        if not (getattr(self.config, "trace", "") and on_trace and driven):
            return claim
        words = self.config.input_description()
        claim = self._in_trace_words(claim)
        cannot = self.config.trace_not_checkable.get(claim.id)
        if claim.role == "calibration" or cannot:
            why = cannot or "a target fitted to the synthetic stand-in"
            return dataclasses.replace(
                claim,
                verdict="not checkable",
                reason=f"Not applicable: {why}, and this run read the user's {words} in its "
                f"place (on it: {claim.reproduced_value}).",
            )
        if claim.role in _ON_INPUT:
            note = f" Checked on the user's {words}, not on the paper's data."
            claim = dataclasses.replace(claim, reason=claim.reason + note)
        return claim

    def _in_trace_words(self, claim: Claim) -> Claim:
        """The claim's texts with the stand-in's words in the config's ``trace_words``
        replaced by what they mean on the user's trace."""
        if self._trace_words is None:
            self._trace_words = words_of(self.config)

        def say(text: str) -> str:
            for pattern, words in self._trace_words.items():
                text = re.sub(pattern, words, text)
            return text

        texts = {k: say(getattr(claim, k)) for k in ("reason", "reproduced_value", "tolerance")}
        if claim.uncertainty and "of" in claim.uncertainty:
            texts["uncertainty"] = {**claim.uncertainty, "of": say(claim.uncertainty["of"])}
        return dataclasses.replace(claim, **texts)

    def _record(
        self,
        claim: Claim,
        readings: Mapping[str, Claim],
        not_affected_by: Iterable[str],
    ) -> dict:
        readings = dict(readings)
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
                    f"test {where} is not judged under the readings {missing}: pass its inputs "
                    "under each, or name the reading in not_affected_by"
                )
        missing_prereq = [p for p in claim.requires if p not in self.claims]
        if missing_prereq:
            raise ValueError(f"{where} requires {missing_prereq}: record them first")
        entry = asdict(claim)
        undefined = (claim.uncertainty or {}).get("undefined")
        if undefined:
            entry["reason"] += (
                f" Not checkable: {claim.uncertainty['of']} is undefined on {undefined} of "
                f"{claim.uncertainty['n']} replicates."
            )
        entry["requires"] = list(claim.requires)
        entry["by_reading"] = {}
        for label, alt in readings.items():
            verdict, _ = self._conditioned(alt, label)
            entry["by_reading"][label] = {
                "verdict": verdict,
                "reproduced_value": alt.reproduced_value,
            }
        verdict, failed = self._conditioned(claim, None)
        if verdict != claim.verdict:
            pid, pverdict = failed
            entry["values"] = {**entry["values"], "verdict without its conditions": claim.verdict}
            entry["verdict"] = verdict
            entry["reason"] = (
                f"{verdict.capitalize()}: it requires {pid}, which is {pverdict} "
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
        """The claim's verdict under reading ``label`` (None: primary) after its conditions:
        void when a prerequisite is not reproduced, inconclusive (at best) when one is
        inconclusive."""
        for pid in claim.requires:
            prereq = self.claims[pid]
            pverdict = prereq["by_reading"].get(label, {}).get("verdict", prereq["verdict"])
            if pverdict == "inconclusive" and claim.verdict in ("reproduced", "partly"):
                return "inconclusive", (pid, pverdict)
            if pverdict not in ("reproduced", "inconclusive"):
                return "void", (pid, pverdict)
        return claim.verdict, None

    def consistency(self, reading: str, reported: Reported,
                    measured: Mapping[str, float | Sequence[float]]) -> dict:
        """Check every alternative of ``reading`` against a result the paper reports
        (:mod:`storrepro.suite.consistency`): ``measured`` maps each alternative value, the
        primary included, to the value this run measures under it (a number, or one per
        replicate). The record goes into the reading's register entry; a primary the record
        rules out raises :class:`storrepro.suite.consistency.ConsistencyError`."""
        return self._consistency.add(reading, reported, measured)

    def no_discriminating_result(self, reading: str, why: str) -> None:
        """Record that no result the paper reports tells ``reading``'s alternatives apart
        (``why``: what was looked at), so the headline gives the verdict under each."""
        self._consistency.add_none(reading, why)

    def headline(self, statement: str, core: Iterable[str], cause: str, summary: str = "") -> dict:
        """The paper's core claim(s) in one sentence, the verdict on them (from the recorded
        ``core`` claims: the paper's test claims; a notebook without a paper names its
        invariants) and the main cause, shown first wherever results are read. The verdict
        under each alternative reading that changes it is kept beside it. ``summary`` is the
        headline for every reader: one plain sentence of at most 40 words, verdict first, no
        claim ids."""
        core = list(core)
        unknown = [c for c in core if c not in self.claims]
        if not core or unknown:
            raise ValueError(f"headline core {unknown or core}: must name recorded claims")
        problems = plain_words_problems(summary, self.claims)
        if problems:
            raise ValueError(f"headline summary {summary!r}: {'; '.join(problems)}")
        verdict = headline_verdict(self.verdict(c) for c in core)
        by_reading = {}
        for label in self.config.reading_labels():
            under = headline_verdict(
                self.claims[c]["by_reading"].get(label, {}).get("verdict", self.verdict(c))
                for c in core
            )
            if under != verdict:
                by_reading[label] = under
        self._headline = {
            "statement": statement,
            "summary": summary,
            "core": core,
            "verdict": verdict,
            "by_reading": by_reading,
            "cause": cause,
            "robust": all(self.claims[c]["robust"] is not False for c in core),
            "hangs_on": sorted({r for c in core for r in self.claims[c]["decided_by"]}),
            "real_data": real_data_verdict(self.claims.values()),
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
        of the claims it bears on, whose verdicts the site prints under it; the record also
        counts the figure's marks of the paper's own numbers
        (:func:`storrepro.suite.plotting.paper_point` and its kin). The quick profile
        skips the SVG: it is a smoke run, and the vector copy of every figure cost about a
        tenth of its time.
        """
        from storrepro.suite.plotting import paper_marks, save_figure

        if not caption or not caption.strip():
            raise ValueError(f"figure {name!r}: give a caption saying what it shows")
        formats = ("png", "svg") if self.config.profile == "full" else ("png",)
        paths = save_figure(fig, self.notebook, name, out=self.out, metadata=self.provenance,
                            formats=formats, background=True)  # fmt: skip
        self.figures.extend(p for p in paths if p not in self.figures)
        marks = paper_marks(fig)
        for path in paths:
            key = path.relative_to(self.out).as_posix()
            self.captions[key] = caption
            self.figure_claims[key] = {"paper_figure": paper_figure, "claims": list(claims),
                                       "paper_marks": marks}
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

    def register(self) -> tuple[dict, dict]:
        """The paper's decision register with each entry's dates (:mod:`storrepro.suite.dating`):
        ``(readings, forced)`` as JSON-ready dicts."""
        from storrepro.suite.dating import date_bands, date_register, judged_under

        decides = judged_under(self.claims.values(), self.config.readings)
        dates = date_register(self.config, decides)
        readings = {
            name: {**asdict(r), **dates[name], "decides": decides[name],
                   "consistency": self._consistency.entry(name)}
            for name, r in self.config.readings.items()
        }
        forced = {
            name: {**asdict(f), "quote": f.quoted(), "decides": list(f.decides), **dates[name]}
            for name, f in self.config.forced.items()
        }
        band_dates = date_bands(self._bands, self.notebook)
        for name, entry in self._bands.items():
            if name in forced:
                raise ValueError(f"register entry {name!r} is both typed in the config and "
                                 "written from the claims table: keep the table's")
            forced[name] = {k: v for k, v in entry.items() if k != "row"} | band_dates[name]
        return readings, forced

    def result(self) -> dict[str, Any]:
        if self._headline is None:
            raise ValueError(f"{self.notebook}: set run.headline(...) before finishing")
        for path, meta in self.figure_claims.items():
            unknown = [c for c in meta["claims"] if c not in self.claims]
            if unknown:
                raise ValueError(f"figure {path} names claims never recorded: {unknown}")
        readings, forced = self.register()
        headline = {**self._headline, **_consistency_of(self._headline, readings)}
        return {
            "notebook": self.notebook,
            "paper": self.config.paper,
            "profile": self.config.profile,
            "seed": self.config.seed,
            "parameters": plain(self.config.as_dict()),
            "input": self.config.input_description(),
            **({"real_data": real} if (real := self.config.real_data()) else {}),
            "git_commit": self.commit,
            "started": self.started,
            "wall_seconds": round(time.perf_counter() - self._t0, 2),
            "headline": headline,
            "readings": readings,
            "forced": forced,
            "figures": [p.relative_to(self.out).as_posix() for p in self.figures],
            "captions": self.captions,
            "figure_claims": self.figure_claims,
            "claims": list(self.claims.values()),
        }

    def finish(self) -> None:
        """Write ``results/<notebook>.json``, the claims picture drawn from it
        (``figures/<notebook>/claims.png``, :mod:`storrepro.suite.claims_picture`) and refresh
        the scorecard, once every figure is written; a run outside the repository (a student's,
        a changed parameter) prints what moved against the committed results. Returns nothing,
        so that a notebook's last line shows no build path."""
        from storrepro.suite.compare import moved_report
        from storrepro.suite.plotting import wait_for_figures

        wait_for_figures()
        result = self.result()
        if claims_picture.rows(result):
            claims_picture.save(result, self.out)
        write_json_atomic(results_dir(self.out) / f"{self.notebook}.json", result)
        write_scorecard(self.out)
        if self.out.resolve() != repo_root().resolve():
            print(moved_report(result))


def _given(claim: Claim) -> Claim:
    """The rule :meth:`Run.judge_table` hands :meth:`Run.judge`: the claim its core judged."""
    return claim


def _consistency_of(headline: dict, readings: dict) -> dict:
    """What the register's consistency records say of the headline: the alternative readings
    the paper's reported results rule out (``ruled_out``: label -> quotes) and the readings the
    headline hangs on that no record checks (``unchecked``)."""
    ruled_out = {
        reading_label(name, value): quotes
        for name, r in readings.items() if r["consistency"]
        for value, quotes in r["consistency"]["ruled_out"].items()
    }
    unchecked = [name for name in headline["hangs_on"] if not readings[name]["consistency"]]
    return {"ruled_out": ruled_out, "unchecked": unchecked}


#: The ids of test claims judged on real data beside a stand-in's end so (``F5-real``); the
#: headline gives their verdict apart, never folded into the core's.
REAL_SUFFIX = "-real"


def real_data_verdict(claims: Iterable[dict]) -> dict | None:
    """The verdict of the real-data test claims (by the headline rule over those that could be
    checked; ``not checkable`` when none could) and each one's verdict and value; None when the
    notebook has none."""
    real = [c for c in claims if c["id"].endswith(REAL_SUFFIX) and c["role"] == "test"]
    if not real:
        return None
    checked = [c["verdict"] for c in real if c["verdict"] != "not checkable"]
    return {"verdict": headline_verdict(checked) if checked else "not checkable",
            "claims": {c["id"]: verdict_words(c) for c in real}}


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
