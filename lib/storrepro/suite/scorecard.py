"""The scorecard: every notebook's headline, counts, claims picture and core claims in
``results/SCORECARD.md``, and each notebook's every claim, reading and register entry in
``results/claims/<notebook>.md``, written from ``results/*.json``."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from storrepro.suite import claims_picture
from storrepro.suite.claims import HEADLINE_RULE, VERDICT_COLOURS, VERDICTS
from storrepro.suite.config import reading_label
from storrepro.suite.consistency import CONSISTENCY_RULE
from storrepro.suite.paths import read_json, results_dir, write_text_atomic
from storrepro.suite.readable import human
from storrepro.suite.result_shape import check_result, is_result

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


def load_results(out: Path | None = None, but: Collection[str] = ()) -> list[dict]:
    """Every notebook's ``results/<notebook>.json`` under ``out``, sorted by notebook name
    (other JSON there, such as ``make bench``'s ``bench.json``, is skipped), each checked by
    :func:`~storrepro.suite.result_shape.check_result`; the files of the notebooks in ``but``
    (those a run replaces) are not read."""
    files = [p for p in sorted(results_dir(out).glob("*.json")) if p.stem not in but]
    loaded = {p: read_json(p) for p in files}
    return [check_result(data, p) for p, data in loaded.items() if is_result(data)]


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


def real_data_text(headline: dict) -> str:
    """The real-data verdict beside the stand-in's, in its own sentence ('' without one)."""
    real = headline.get("real_data")
    if not real:
        return ""
    return (f" On real data, judged apart from the stand-in: **{real['verdict']}** ("
            + "; ".join(f"{k} {v}" for k, v in real["claims"].items()) + ").")


def inputs_text(result: dict, digits: int = 64) -> str:
    """The run's input, and the real-data file beside it with the first ``digits`` of its
    SHA-256 when it read one."""
    words = result.get("input", "synthetic stand-in")
    real = result.get("real_data")
    if not real:
        return words
    digest = real["sha256"] if digits >= len(real["sha256"]) else real["sha256"][:digits] + "…"
    return f"{words}; real data: {real['file']} (sha256 {digest})"


def judged_on(claim: dict, result: dict) -> str:
    """The input a claim was judged on: the real-data file its values name (``input``; none:
    not checkable without it), else the notebook's input (stand-in or a user's trace)."""
    if "input" in claim.get("values", {}):
        return claim["values"]["input"] or "no real-data file"
    return result.get("input", "synthetic stand-in")


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


def first_sentence(text: str, words: int = 30) -> str:
    """The first sentence of ``text``, at most ``words`` words (cut with …)."""
    sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z])", " ".join(str(text).split()), maxsplit=1)[0]
    cut = sentence.split()
    return " ".join(cut[:words]) + ("…" if len(cut) > words else "")


def core_claim_parts(claim: dict) -> tuple[str, str, str]:
    """What a core claim's line says: the paper's value, ours and why (the reason's first
    sentence), each written for people."""
    return (human(claim["paper_value"]), human(claim["reproduced_value"]),
            human(first_sentence(claim["reason"])))


def claims_file(notebook: str) -> str:
    """Where a notebook's every claim, reading and register entry is written, relative to
    ``results/``."""
    return f"claims/{notebook}.md"


def build_scorecard(results: list[dict]) -> str:
    """The short Markdown scorecard: the rules, a summary row per notebook counting only
    ``test`` claims in its verdict columns, and for each paper its headline, its claims
    picture and one line per core claim; every claim is in :func:`build_claims` 's file."""
    lines = [
        "# Scorecard",
        "",
        "Written by the runner from `results/*.json`: each paper's headline, the picture of its "
        "claims and a line per core claim. Every claim of a paper — its numbers, reason and "
        "verdict under each reading — and the paper's decision register are in "
        "`results/claims/`, one file per notebook, linked below. The verdict columns count only "
        "`test` claims, each judged on its replicates (*inconclusive* when the 95 % interval "
        "straddles the band's edge); calibration targets, invariants and stand-in properties are "
        "counted as met/total. " + ROBUST_RULE,
        "",
        HEADLINE_RULE,
        "",
        CONSISTENCY_RULE,
        "",
    ]
    lines += _table(
        ["notebook", "headline", "profile", "seed", "commit", "wall (s)", *SUMMARY_HEADER],
        (
            [r["notebook"], r["headline"]["verdict"], r["profile"], r["seed"], r["git_commit"],
             f"{r['wall_seconds']:.1f}", *summary_cells(r)]
            for r in results
        ),
    )
    for r in results:
        h, name = r["headline"], r["notebook"]
        by_id = {c["id"]: c for c in r["claims"]}
        lines += ["", f"## {name}", ""]
        plain = f"{h['summary']} " if h.get("summary") else ""
        lines += [human(f"{plain}{headline_text(r)}. The measured cause: "
                        f"{first_sentence(h['cause'], 40)}{real_data_text(h)}"), ""]
        if claims_picture.rows(r):
            lines += [f"![{name}: every test claim, the paper's band and our estimate]"
                      f"(../{claims_picture.relative_path(name)})", ""]
        for cid in h["core"]:
            paper, we, why = core_claim_parts(by_id[cid])
            lines.append(f"- **{cid}** ({by_id[cid]['verdict']}) — the paper: {paper} · we: "
                         f"{we} · why: {why}")
        lines += ["", f"Every claim, reading and register entry: "
                      f"[{claims_file(name)}]({claims_file(name)})."]
    return "\n".join(lines) + "\n"


def build_claims(r: dict) -> str:
    """A notebook's every claim, with the readings of the paper's open choices and the rest of
    its decision register, as Markdown (``results/claims/<notebook>.md``)."""
    h = r["headline"]
    hangs = f" Hangs on: {', '.join(h['hangs_on'])}." if h["hangs_on"] else ""
    plain = f"{h['summary']} In detail: " if h.get("summary") else ""
    lines = [f"# {r['notebook']}: every claim", "", "[The scorecard](../SCORECARD.md)", "",
             r["paper"], "", f"Input: {inputs_text(r)}.", "",
             human(f"{plain}{h['statement']} {headline_text(r)}. {h['cause']}{hangs}"), ""]
    if claims_picture.rows(r):
        lines += [claims_picture.CAPTION, "",
                  f"![the claims picture](../../{claims_picture.relative_path(r['notebook'])})",
                  ""]
    if r["readings"]:
        lines += ["## Readings of the paper's open choices", ""]
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
        lines += ["## The rest of the decision register: choices taken as stated", ""]
        lines += _table(
            ["choice", "kind", "question", "value", "the words behind it", "set in"],
            ([name, x["kind"], x["question"], x["value"], x["quote"], dated_text(x)]
             for name, x in r["forced"].items()),
        )
        lines.append("")
    core = h["core"]
    ordered = [c for i in core for c in r["claims"] if c["id"] == i]
    ordered += [c for c in r["claims"] if c["id"] not in core]
    lines += ["## Claims", "", "Core claims first (★).", ""]
    lines += _table(
        ["id", "role", "kind", "statement", "paper", "reproduced", "tolerance", "uncertainty",
         "verdict", "readings", "judged on", "reason"],
        (
            [
                ("★ " if c["id"] in core else "") + c["id"],
                c["role"],
                c["kind"],
                c["statement"],
                c["paper_value"],
                c["reproduced_value"],
                c["tolerance"],
                uncertainty_text(c) if c["role"] == "test" else "—",
                c["verdict"],
                _robustness(c),
                judged_on(c, r),
                c["reason"],
            ]
            for c in ordered
        ),
    )
    return "\n".join(lines) + "\n"


def scorecard_files(results: list[dict]) -> dict[str, str]:
    """What the scorecard writes under ``results/``: ``SCORECARD.md`` and each notebook's
    claims file, path -> text."""
    return {"SCORECARD.md": build_scorecard(results),
            **{claims_file(r["notebook"]): build_claims(r) for r in results}}


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
    """Write the scorecard and every notebook's claims file under ``out/results``."""
    folder = results_dir(out)
    for name, text in scorecard_files(load_results(out)).items():
        write_text_atomic(folder / name, text)
    return folder / "SCORECARD.md"
