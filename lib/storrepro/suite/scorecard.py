"""The scorecard: every notebook's headline, counts and claims, written from ``results/*.json``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from storrepro.suite.claims import HEADLINE_RULE, VERDICT_COLOURS, VERDICTS
from storrepro.suite.config import reading_label
from storrepro.suite.consistency import CONSISTENCY_RULE
from storrepro.suite.paths import read_json, results_dir, write_text_atomic
from storrepro.suite.readable import human

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
#: What "robust" means, in the words the scorecard and the site use.
ROBUST_RULE = (
    "*Robust* means: the same verdict under every alternative of every reading of the paper's "
    "open choices, changed one at a time."
)


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
        row = {"claim": c["statement"], "primary": f"{c['verdict']} ({c['reproduced_value']})"}
        for label in labels:
            alt = c["by_reading"].get(label)
            row[label] = f"{alt['verdict']} ({alt['reproduced_value']})" if alt else "—"
        row["robust"] = "yes" if c["robust"] else "hangs on " + ", ".join(c["decided_by"])
        rows[c["id"]] = row
    return pd.DataFrame.from_dict(
        rows, orient="index", columns=["claim", "primary", *labels, "robust"]
    )


def load_results(out: Path | None = None) -> list[dict]:
    """Every notebook's ``results/<notebook>.json`` under ``out``, sorted by notebook name
    (other JSON there, such as ``make bench``'s ``bench.json``, names no notebook and has no
    claims: skipped), each checked by :func:`check_result`."""
    results = []
    for path in sorted(results_dir(out).glob("*.json")):
        data = read_json(path)
        if isinstance(data, dict) and ("claims" in data or "notebook" in data):
            results.append(check_result(data, path))
    return results


#: The fields every reader of a result (scorecard, site, README, compare) takes, and their types.
RESULT_FIELDS = {"notebook": str, "paper": str, "profile": str, "headline": dict,
                 "readings": dict, "forced": dict, "figures": list, "claims": list}  # fmt: skip
HEADLINE_FIELDS = {"statement": str, "verdict": str, "core": list, "by_reading": dict}
CLAIM_FIELDS = {"id": str, "statement": str, "verdict": str, "role": str, "reason": str,
                "tolerance": str, "kind": str, "by_reading": dict, "decided_by": list}  # fmt: skip
READING_FIELDS = {"primary": str, "alternatives": dict, "question": str, "paper_words": str,
                  "argument": str}  # fmt: skip


def check_result(data, path: Path | str):
    """``data`` if it has the shape of a result the suite wrote, else a ``ValueError`` naming
    ``path``, the field and what it should be."""

    def fields(value, spec: dict, where: str) -> None:
        if not isinstance(value, dict):
            bad(where, "an object", value)
        for name, kind in spec.items():
            if name not in value:
                raise ValueError(f"{path}: {where}{name} is missing; not a result this suite "
                                 "wrote, or a damaged one: run its notebook again")  # fmt: skip
            if not isinstance(value[name], kind):
                bad(f"{where}{name}", f"a {kind.__name__}", value[name])

    def bad(where: str, expected: str, value) -> None:
        raise ValueError(f"{path}: {where or 'the file'} should be {expected}, not "
                         f"{type(value).__name__} {str(value)[:40]!r}; not a result this suite "
                         "wrote, or a damaged one: run its notebook again")  # fmt: skip

    fields(data, RESULT_FIELDS, "")
    fields(data["headline"], HEADLINE_FIELDS, "headline.")
    for name, reading in data["readings"].items():
        fields(reading, READING_FIELDS, f"readings.{name}.")
    for i, claim in enumerate(data["claims"]):
        fields(claim, CLAIM_FIELDS, f"claims[{i}].")
        if claim["verdict"] not in VERDICTS:
            bad(f"claims[{i}].verdict", f"one of {', '.join(VERDICTS)}", claim["verdict"])
    for i, figure in enumerate(data["figures"]):
        if not isinstance(figure, str):
            bad(f"figures[{i}]", "a path", figure)
    return data


def verdict_counts(result: dict, role: str = "test") -> dict[str, int]:
    """How many of a result's claims of ``role`` have each verdict."""
    counts = dict.fromkeys(VERDICTS, 0)
    for claim in result["claims"]:
        if claim["role"] == role:
            counts[claim["verdict"]] += 1
    return counts


def role_summary(result: dict, role: str) -> str:
    """``"5/6"``-style summary (met or held / total) of a result's claims of ``role``."""
    counts = verdict_counts(result, role)
    total = sum(counts.values())
    return f"{counts['reproduced']}/{total}" if total else "—"


def robust_summary(result: dict) -> str:
    """``"12/20"``: test claims whose verdict is the same under every reading."""
    tests = [c for c in result["claims"] if c["role"] == "test"]
    return f"{sum(bool(c['robust']) for c in tests)}/{len(tests)}" if tests else "—"


def core_reproduced(result: dict) -> int:
    """How many of a result's headline core claims are reproduced."""
    core = result["headline"]["core"]
    return sum(c["verdict"] == "reproduced" for c in result["claims"] if c["id"] in core)


#: The columns every summary of a result shares (scorecard and README): its test claims by
#: verdict, how many are robust, and the other roles.
SUMMARY_HEADER = ["test claims", *VERDICTS, "robust", "calibration met", "invariants held",
                  "stand-in met", "analyses"]


def summary_cells(result: dict) -> list:
    """A result's cells under :data:`SUMMARY_HEADER`."""
    counts = verdict_counts(result)
    return [
        sum(counts.values()),
        *counts.values(),
        robust_summary(result),
        role_summary(result, "calibration"),
        role_summary(result, "invariant"),
        role_summary(result, "stand-in"),
        sum(verdict_counts(result, "analysis").values()) or "—",
    ]


def headline_text(result: dict) -> str:
    """A headline's verdict with its core count and the verdicts other readings give, e.g.
    ``"partly (2 of 5 core claims reproduced; under pool=scheduler: reproduced)"``."""
    h = result["headline"]
    core = h["core"]
    text = (f"**{h['verdict']}** ({core_reproduced(result)} of {len(core)} core claims "
            f"reproduced: {', '.join(core)}")
    others = h.get("by_reading", {})
    ruled_out = h.get("ruled_out", {})
    if others:
        text += "; under " + "; under ".join(
            f"{k}: **{v}**" + (f" (ruled out by: {'; '.join(ruled_out[k])})"
                               if k in ruled_out else "")
            for k, v in others.items())
    return text + ")"


def uncertainty_text(claim: dict) -> str:
    """``"n = 5, 95 % CI [1.2, 1.9]"`` or the reason there is none."""
    u = claim.get("uncertainty")
    if not u:
        return claim.get("no_uncertainty") or "—"
    if u.get("ci95") is None:
        return f"n = {u['n']} ({u['of']})"
    lo, hi = u["ci95"]
    return f"n = {u['n']}, 95 % CI [{lo:.4g}, {hi:.4g}] of {u['of']}"


def dated_text(entry: dict) -> str:
    """When a register entry was set, from git, and whether results were in view."""
    commit = entry.get("set_in")
    if not commit:
        return "—"
    after = entry.get("set_after_results")
    text = commit + (" (after results)" if after else " (before results)" if after is False
                     else "")
    if entry.get("since_file_created"):
        text += "; the commit created its file, so the choice may be older"
    return text


def consistency_text(entry: dict | None) -> str:
    """A reading's consistency record in a line: each reported result and what it rules out,
    or why none discriminates; "no record" when the reading has none."""
    if not entry:
        return "no record"
    parts = []
    for r in entry["records"]:
        out = [v for v, a in r["alternatives"].items() if a["verdict"] == "ruled out"]
        measured = ", ".join(f"{v}: {a['value']:.4g}" for v, a in r["alternatives"].items())
        verdict = f"rules out {', '.join(out)}" if out else "rules out none"
        parts.append(f"{r['quote']} ({r['paper_value']}; measured {measured}): {verdict}")
    if entry["none"]:
        parts.append(f"no reported result discriminates: {entry['none']}")
    return "; ".join(parts)


def _cell(value: Any) -> str:
    return human(value).replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: Iterable[Iterable[Any]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(_cell(v) for v in row) + " |" for row in rows),
    ]


def build_scorecard(results: list[dict]) -> str:
    """A Markdown scorecard: each paper's headline, a summary row per notebook counting only
    ``test`` claims in its verdict columns, then each notebook's register and claims."""
    lines = [
        "# Scorecard",
        "",
        "Written by the runner from `results/*.json`. The verdict columns count only `test` "
        "claims — statements of the paper that could have come out false here, each judged on "
        "its replicates: *inconclusive* when the 95 % interval straddles the band's edge. "
        "Calibration claims (targets a stand-in was fitted to) and invariants (properties of "
        "this implementation) are counted beside them, as met/total; *stand-in* claims "
        "(properties of the paper's data checked on our stand-in) and *analyses* (our own "
        "experiments) are listed, never counted as tests. " + ROBUST_RULE,
        "",
        "## Headlines",
        "",
        HEADLINE_RULE,
        "",
        CONSISTENCY_RULE,
        "",
    ]
    for r in results:
        h = r["headline"]
        hangs = f" Hangs on: {', '.join(h['hangs_on'])}." if h["hangs_on"] else ""
        plain = f"{h['summary']} In detail: " if h.get("summary") else ""
        lines.append(human(
            f"- **{r['notebook']}** — {plain}{h['statement']} {headline_text(r)}. "
            f"{h['cause']}{hangs}"
        ))
    lines.append("")
    lines += _table(
        ["notebook", "profile", "seed", "commit", "wall (s)", *SUMMARY_HEADER],
        (
            [r["notebook"], r["profile"], r["seed"], r["git_commit"],
             f"{r['wall_seconds']:.1f}", *summary_cells(r)]
            for r in results
        ),
    )
    for r in results:
        lines += ["", f"## {r['notebook']}", "", r["paper"], ""]
        lines += [f"Input: {r.get('input', 'synthetic stand-in')}.", ""]
        if r["readings"]:
            lines += ["### Readings of the paper's open choices", ""]
            lines += _table(
                ["reading", "kind", "question", "primary", "alternatives", "why the primary",
                 "the paper's reported results", "set in"],
                (
                    [
                        name,
                        x.get("kind", "resolution"),
                        x["question"],
                        x["primary"],
                        "; ".join(f"{k}: {v}" for k, v in x["alternatives"].items()),
                        x["argument"],
                        consistency_text(x.get("consistency")),
                        dated_text(x),
                    ]
                    for name, x in r["readings"].items()
                ),
            )
            lines.append("")
        if r.get("forced"):
            lines += ["### The rest of the decision register: choices taken as stated", ""]
            lines += _table(
                ["choice", "kind", "question", "value", "the words behind it", "set in"],
                ([name, x["kind"], x["question"], x["value"], x["quote"], dated_text(x)]
                 for name, x in r["forced"].items()),
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
                "uncertainty",
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
                    uncertainty_text(c) if c["role"] == "test" else "—",
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
