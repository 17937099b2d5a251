"""The paper picks the primary reading: each reading's alternatives checked against what the
paper itself reports.

A reading of an open choice (:class:`storrepro.suite.config.Reading`) decides verdicts, so the
primary must be one under which the paper could have reported what it did. A
:class:`Reported` result — the paper's words, its number, and the band of values compatible
with it (built from those words through :mod:`storrepro.suite.bands`) — is measured under every
alternative of the reading; each alternative is then ``possible`` or ``ruled out`` (the value,
or its whole 95 % interval over replicates, lies outside the band). The run records these in
the reading's register entry (``consistency``), and a primary that a reported result rules out
is an error: the reading the paper supports must be primary, the other kept as a declared
alternative whose verdicts are still shown. Where no reported result tells the alternatives
apart, the record says so (:func:`no_discriminating_result`), and the headline gives each
verdict as before.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from storrepro.suite.bands import Band
from storrepro.suite.claims import band_range, interval

POSSIBLE, RULED_OUT = "possible", "ruled out"

#: The rule, in the words the scorecard, CONTRIBUTING and the site use.
CONSISTENCY_RULE = (
    "The paper picks the primary reading: every reading that decides a core claim is checked "
    "against the paper's own reported results (its words, its number, and the band of values "
    "compatible with them). A reading under which the paper could not have reported what it "
    "did (the measured value, or its whole 95 % interval, outside that band) is ruled out and "
    "cannot be primary; it stays a declared alternative whose verdicts are still shown. Where "
    "no reported result tells the alternatives apart, the record says so and the headline "
    "gives the verdict under each."
)


class ConsistencyError(ValueError):
    """A reading's primary is ruled out by a result the paper reports."""


@dataclass(frozen=True)
class Reported:
    """A result the paper reports: its ``quote`` (the words, with where they stand),
    ``paper_value`` as the paper gives it, the ``band`` of measured values compatible with it,
    and what is measured (``of``)."""

    quote: str
    paper_value: str
    band: Band
    of: str

    def __post_init__(self):
        for name in ("quote", "paper_value", "of"):
            if not str(getattr(self, name)).strip():
                raise ValueError(f"reported result: {name} must say something")
        if not isinstance(self.band, Band):
            raise ValueError(f"reported result {self.quote!r}: band must be a bands.Band, "
                             f"got {type(self.band).__name__}")


def check(reported: Reported, measured: Mapping[str, float | Sequence[float]]) -> dict:
    """Each alternative's measured value (a number, or one per replicate) against the
    reported result: ``{"quote", "paper_value", "band", "of", "alternatives": {value:
    {"value", "ci95", "n", "verdict"}}}``, the verdict ``possible`` or ``ruled out``."""
    alternatives = {}
    for value, x in measured.items():
        samples = [x] if isinstance(x, int | float) else list(x)
        u = interval(samples, of=reported.of)
        if u.get("undefined"):
            verdict = POSSIBLE  # undefined here: nothing rules the alternative out
        else:
            ci = tuple(u["ci95"]) if u["ci95"] is not None else None
            outside = reported.band.judge(u["mean"], ci) == "not reproduced"
            verdict = RULED_OUT if outside else POSSIBLE
        alternatives[value] = {"value": u["mean"], "ci95": u["ci95"], "n": u["n"],
                               "verdict": verdict}
    return {
        "quote": reported.quote,
        "paper_value": reported.paper_value,
        "band": reported.band.text(),
        "band_range": band_range(reported.band),
        "of": reported.of,
        "alternatives": alternatives,
    }


class Register:
    """The consistency records of one run, per reading (what :class:`storrepro.suite.run.Run`
    keeps and writes into the register)."""

    def __init__(self, readings: Mapping):
        self.readings = readings
        self.records: dict[str, list[dict]] = {}
        self.none: dict[str, str] = {}

    def add(self, name: str, reported: Reported, measured: Mapping) -> dict:
        reading = self._reading(name)
        missing = [v for v in reading.alternatives if v not in measured]
        unknown = [v for v in measured if v not in reading.alternatives]
        if missing or unknown:
            raise ValueError(
                f"consistency of reading {name!r}: measure every alternative "
                f"{list(reading.alternatives)} (missing {missing}, unknown {unknown})"
            )
        record = check(reported, measured)
        self.records.setdefault(name, []).append(record)
        primary = record["alternatives"][reading.primary]
        if primary["verdict"] == RULED_OUT:
            possible = [v for v, a in record["alternatives"].items() if a["verdict"] == POSSIBLE]
            raise ConsistencyError(
                f"reading {name!r}: its primary {reading.primary!r} is ruled out by the paper's "
                f"reported result {reported.quote} ({reported.paper_value}; band "
                f"{reported.band.text()}): measured {_value(primary)} of {reported.of}. "
                f"Make one of the possible alternatives {possible} primary."
            )
        return record

    def add_none(self, name: str, why: str) -> None:
        self._reading(name)
        if not why.strip():
            raise ValueError(f"reading {name!r}: say why no reported result discriminates")
        self.none[name] = why

    def _reading(self, name: str):
        if name not in self.readings:
            raise ValueError(f"consistency: unknown reading {name!r}; declared: "
                             f"{sorted(self.readings)}")
        return self.readings[name]

    def entry(self, name: str) -> dict | None:
        """The register's ``consistency`` of reading ``name``: its records, the alternatives
        each record rules out (``ruled_out``: value -> the quotes), and ``none`` (why no
        reported result discriminates); None when the reading has no record at all."""
        records = self.records.get(name, [])
        if not records and name not in self.none:
            return None
        ruled_out: dict[str, list[str]] = {}
        for record in records:
            for value, a in record["alternatives"].items():
                if a["verdict"] == RULED_OUT:
                    ruled_out.setdefault(value, []).append(record["quote"])
        return {"records": records, "ruled_out": ruled_out, "none": self.none.get(name, "")}


def _value(a: dict) -> str:
    if a["ci95"] is None or not all(math.isfinite(x) for x in a["ci95"]):
        return f"{a['value']:.4g}"
    lo, hi = a["ci95"]
    return f"{a['value']:.4g} (95 % CI {lo:.4g} to {hi:.4g}, n = {a['n']})"
