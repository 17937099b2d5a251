"""The one check of a notebook's ``results/<notebook>.json`` before anything reads it.

The scorecard, the site, the README, ``compare``, ``check-results`` and ``dates`` take the fields
below from every result; each reads results through :func:`read_result` (or checks what it
parsed itself with :func:`check_result`), so a damaged or hand-edited file is refused in one line
naming the file, the field and what it should be, never a ``KeyError`` or ``TypeError`` from
deep inside a page.
"""

from __future__ import annotations

from pathlib import Path

from storrepro.suite.claims import ROLES, VERDICTS
from storrepro.suite.paths import read_json

NUMBER = (int, float)
#: The fields every reader takes, and their types.
RESULT_FIELDS = {"notebook": str, "paper": str, "profile": str, "seed": int, "input": str,
                 "git_commit": str, "wall_seconds": NUMBER, "headline": dict, "readings": dict,
                 "forced": dict, "figures": list, "claims": list}  # fmt: skip
HEADLINE_FIELDS = {"statement": str, "summary": str, "verdict": str, "core": list,
                   "by_reading": dict, "robust": bool, "hangs_on": list}  # fmt: skip
CLAIM_FIELDS = {"id": str, "statement": str, "verdict": str, "role": str, "reason": str,
                "tolerance": str, "kind": str, "reproduced_value": str, "values": dict,
                "by_reading": dict, "robust": (bool, type(None)), "decided_by": list}  # fmt: skip
BY_READING_FIELDS = {"verdict": str, "reproduced_value": str}
READING_FIELDS = {"question": str, "paper_words": str, "kind": str, "primary": str,
                  "alternatives": dict, "argument": str}  # fmt: skip
FORCED_FIELDS = {"question": str, "quote": str, "kind": str, "value": str}
#: What to do about a result that fails the check.
REMEDY = "not a result this suite wrote, or a damaged one: run its notebook again"


def read_result(path: Path | str) -> dict:
    """``path``'s result (:func:`~storrepro.suite.paths.read_json`), checked by
    :func:`check_result`."""
    return check_result(read_json(path), path)


def is_result(data) -> bool:
    """Whether ``data`` means to be a notebook's result (other JSON in ``results/``, such as
    ``make bench``'s ``bench.json``, names no notebook and holds no claims)."""
    return isinstance(data, dict) and ("claims" in data or "notebook" in data)


def check_result(data, path: Path | str) -> dict:
    """``data`` if it has the shape of a result the suite writes, else a ``ValueError`` naming
    ``path``, the field and what it should be."""

    def fields(value, spec: dict, where: str) -> None:
        if not isinstance(value, dict):
            bad(where.rstrip(".") or "the file", "an object", value)
        for name, kind in spec.items():
            if name not in value:
                raise ValueError(f"{path}: {where}{name} is missing; {REMEDY}")
            if not isinstance(value[name], kind) or (kind is NUMBER and isinstance(
                    value[name], bool)):  # fmt: skip
                bad(f"{where}{name}", _kind_name(kind), value[name])

    def one_of(value, allowed, where: str) -> None:
        if value not in allowed:
            bad(where, f"one of {', '.join(allowed)}", value)

    def bad(where: str, expected: str, value) -> None:
        raise ValueError(f"{path}: {where} should be {expected}, not {type(value).__name__} "
                         f"{str(value)[:40]!r}; {REMEDY}")  # fmt: skip

    fields(data, RESULT_FIELDS, "")
    fields(data["headline"], HEADLINE_FIELDS, "headline.")
    for name, reading in data["readings"].items():
        fields(reading, READING_FIELDS, f"readings.{name}.")
    for name, forced in data["forced"].items():
        fields(forced, FORCED_FIELDS, f"forced.{name}.")
    for i, claim in enumerate(data["claims"]):
        fields(claim, CLAIM_FIELDS, f"claims[{i}].")
        one_of(claim["verdict"], VERDICTS, f"claims[{i}].verdict")
        one_of(claim["role"], ROLES, f"claims[{i}].role")
        for label, judged in claim["by_reading"].items():
            fields(judged, BY_READING_FIELDS, f"claims[{i}].by_reading.{label}.")
    for i, figure in enumerate(data["figures"]):
        if not isinstance(figure, str):
            bad(f"figures[{i}]", "a path", figure)
    return data


def _kind_name(kind) -> str:
    if kind is NUMBER:
        return "a number"
    if isinstance(kind, tuple):
        return " or ".join(_kind_name(k) for k in kind)
    return {str: "text", int: "a whole number", bool: "true or false", dict: "an object",
            list: "a list", type(None): "null"}[kind]  # fmt: skip
