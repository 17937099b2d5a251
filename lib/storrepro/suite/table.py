"""Claims as a table, judged by one core.

A paper package declares its claims as data — a ``TABLE`` of :class:`Row`, one per claim: the
id, the statement, the paper's words (once), the band built from those words through the
bands vocabulary, the role, whether it is core, what it requires, the figure that shows it, the
replicate pool it draws from and how its replicates aggregate — and, per claim, one small
function in the same module:

- ``measure_<id>(inputs) -> Measured``: the measured values (one per replicate, or one
  number), the short human value and the structured numbers behind it; for a claim with a
  ``pool`` the argument is the list of replicates (and, when the function names a parameter
  ``inputs``, the reading's inputs too: what to read from the shared replicates; so for
  ``explain_<id>``); a claim id's characters other than letters and digits become ``_``
  (``measure_b3_0_95_tofec`` for ``B3-0.95-TOFEC``);
- optionally ``explain_<id>(inputs, verdict, measured) -> str``: the cause, when there is one
  to give (the core writes the measured interval itself); a cause that is one fixed sentence
  for any verdict but reproduced is the row's ``miss`` instead.

A band the paper's register already names (a module constant of its ``config``, registered and
dated there) is given as the :class:`~storrepro.suite.bands.Band` itself: the row writes no
register entry of its own, so the band keeps its register date. A row's ``tolerance_text``
states its tolerance as the paper's claim reads it (the band's edges in the row's format, what
it is judged on), in place of the bands' own text; a measure whose interval description depends
on the run (the blocks a profile cuts its data into) gives it in ``Measured.of``.

A claim whose band must hold on several groups at once — "on >= 4 of the 6 workloads", each
workload by its own interval, a rank among them — is judged by its measure: it builds the row's
bands (:meth:`Row.bands`), judges each group's interval with them and returns the verdict, the
reason and the interval that decided (``Measured.uncertainty``); the core keeps the rest.

A measure whose intervals are its own — a bootstrap over resampled units that keeps paired
quantities paired, the value alone of a maximum (a resample's maximum never exceeds the
observed one, so no percentile interval bounds it) — returns them labelled, each with the band
that judges it (``Measured.intervals``), and the core judges them (:func:`judge_intervals`); a
row whose bands are named constants of its module (registered elsewhere) leaves ``band`` empty,
and the claim shows the bands its measure judged.

:meth:`storrepro.suite.run.Run.judge_table` does the rest for every paper alike: draws
replicates until the interval decides (:mod:`storrepro.suite.replicates`), judges the band,
combines parts, applies prerequisites and readings, writes the register's band entries from
the rows and the JSON. A newcomer finds any claim's rule and band in the one file.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from storrepro.suite.bands import Band
from storrepro.suite.claims import KINDS, ROLES, Claim, band_range, ci_text, judged
from storrepro.suite.replicates import STATISTICS, Pool, decide, estimate

_ORDER = ("reproduced", "partly", "inconclusive", "not reproduced", "not checkable")
#: How a claim of several parts is judged (``Row.combine``): ``worst``, the worst part's
#: verdict counts; ``partly``, an inconclusive part makes the claim inconclusive, and parts
#: reproduced beside parts not give ``partly`` (the claim holds in some of what it says);
#: ``sizes``, the parts are the sizes of an effect whose direction the measure checks itself
#: (its ceiling): a part that misses makes the claim ``partly``, whatever the others say.
COMBINE = ("worst", "partly", "sizes")


@dataclass(frozen=True)
class Part:
    """One measured part of a claim: its ``name``, the band built from the row's words (a
    ``functools.partial`` of a :mod:`storrepro.suite.bands` constructor missing only
    ``words``; or a registered :class:`Band`, as is) and what one value is (``of``)."""

    name: str
    band: Callable[..., Band] | Band
    of: str
    statistic: str = ""  # '' : the row's


@dataclass(frozen=True)
class Row:
    """One claim of a paper, as data (see the module docstring).

    ``band`` is a ``functools.partial`` of a bands constructor missing only ``words``
    (``partial(bands.paper_range, 50, 90, unit="%")``): the band is built from ``words``, so the
    paper's words are typed once; a band the register already names is the :class:`Band`
    itself (then no register entry of the row's own, and its words are the row's unless
    ``words`` is given). A claim of several parts lists them in
    ``parts`` instead (each with its own band and, where it differs from the row's,
    statistic), combined as ``combine`` says (:data:`COMBINE`). ``pool`` names the replicate
    pool its measure reads ('' : the paper's inputs); ``statistic`` aggregates the replicates (mean,
    median or share; a claim about typical runs registers its choice). ``of`` says what one
    measured value is; ``fmt`` and ``unit`` print it. A claim without a band (an invariant, a
    calibration judged by its own rule, stated in ``rule``) returns its verdict in
    :class:`Measured`; a claim with
    a band may too, as a ceiling its bands cannot lift (a condition the bands do not cover, or
    ``not checkable`` when there is nothing to measure) — or, for a row whose own rule adds to
    its band (``tolerance``: a trend that fails it whatever its interval, a shape the band's
    words stand for), as the verdict itself. ``miss`` is a cause that is one fixed sentence,
    added to the reason whenever the claim is not reproduced.
    """

    id: str
    statement: str
    paper_value: Any
    words: str = ""  # '' : a registered band's own words
    band: Callable[..., Band] | Band | None = None
    parts: tuple[Part, ...] = ()
    of: str = ""
    role: str = "test"
    core: bool = False
    kind: str = "must"
    requires: tuple[str, ...] = ()
    figure: str = ""
    pool: str = ""
    statistic: str = "mean"
    combine: str = "worst"
    tolerance: str = ""
    tolerance_text: str = ""  # the claim's tolerance as written, in place of the bands' text
    miss: str = ""
    fmt: str = "{:.3g}"
    unit: str = ""
    not_affected_by: tuple[str, ...] = ()
    no_uncertainty: str = ""
    note: str = ""  # said once in the register's band entry: e.g. an earlier band's verdict
    rule: str = ""  # a claim without a band: its rule in words (a calibration's target)

    def __post_init__(self):
        where = f"claim row {self.id!r}"
        if not self.words and isinstance(self.band, Band):
            object.__setattr__(self, "words", self.band.words)
        if not self.words.strip():
            raise ValueError(f"{where}: quote the paper's words (words=...)")
        if self.role not in ROLES:
            raise ValueError(f"{where}: role {self.role!r}, expected one of {ROLES}")
        if self.kind not in KINDS:
            raise ValueError(f"{where}: kind {self.kind!r}, expected one of {KINDS}")
        if self.statistic not in STATISTICS:
            raise ValueError(f"{where}: statistic {self.statistic!r}, expected one of "
                             f"{STATISTICS}")
        if self.combine not in COMBINE:
            raise ValueError(f"{where}: combine {self.combine!r}, expected one of {COMBINE}")
        bad = [p.statistic for p in self.parts if p.statistic and p.statistic not in STATISTICS]
        if bad:
            raise ValueError(f"{where}: part statistic {bad[0]!r}, expected one of {STATISTICS}")
        if self.band is not None and self.parts:
            raise ValueError(f"{where}: give a band or parts, not both")
        if self.core and self.role != "test":
            raise ValueError(f"{where}: a core claim is a test (role {self.role!r})")
        if self.band is not None and not self.of.strip():
            raise ValueError(f"{where}: say what one measured value is (of=...)")
        object.__setattr__(self, "requires", tuple(self.requires))
        object.__setattr__(self, "parts", tuple(self.parts))
        object.__setattr__(self, "not_affected_by", tuple(self.not_affected_by))

    def bands(self) -> dict[str, Band]:
        """The row's band(s) built from its words: ``{"": band}`` or one per part."""
        if self.band is not None:
            return {"": _built(self.band, self.words)}
        return {p.name: _built(p.band, self.words) for p in self.parts}

    def registered(self) -> bool:
        """Whether every band of the row is one the register already names (given as is)."""
        given = [self.band] if self.band is not None else [p.band for p in self.parts]
        return bool(given) and all(isinstance(b, Band) for b in given)

    def of_part(self, name: str) -> str:
        return self.of if name == "" else next(p.of for p in self.parts if p.name == name)

    def statistic_of(self, name: str) -> str:
        part = next((p for p in self.parts if p.name == name), None)
        return part.statistic if part is not None and part.statistic else self.statistic


def _built(band: Callable[..., Band] | Band, words: str) -> Band:
    return band if isinstance(band, Band) else band(words=words)


@dataclass(frozen=True)
class Measured:
    """What ``measure_<id>`` returns: ``values`` (per replicate, or one number; a dict of them
    per part for a claim of parts), the short human ``text`` with units, the structured numbers
    behind it (``extra``), and — for a claim without a band, or one whose measure judged its
    bands on several groups — its ``verdict`` and ``reason`` (and then the ``uncertainty``: the
    interval record that decided). ``of``, when given, describes the interval of the row's own
    band in place of the row's ``of`` (a description that depends on the run: how many blocks
    the values come from). ``no_uncertainty`` says why the measure's interval is missing or
    partial when only this run can tell (a part judged on its one value, every part out of
    reach); unlike the row's, it does not drop the record the measure returns.

    ``intervals`` (with no ``values``, on a row without a band of its own): the interval records
    the measure computed itself, by label, each with the band that judges it; the core judges
    them (:func:`judge_intervals`, combined as the row says; a ``verdict`` beside them is a
    ceiling) and shows their bands as the claim's band and tolerance. ``bands``: the bands a
    measure judged on values alone, shown the same way (a stand-in's point check, or the bands
    of a claim with nothing left to judge)."""

    values: Any
    text: str
    extra: dict = field(default_factory=dict)
    verdict: str = ""
    reason: str = ""
    uncertainty: dict | None = None
    of: str = ""
    no_uncertainty: str = ""
    intervals: Mapping[str, tuple[Band, dict]] | None = None
    bands: tuple[Band, ...] = ()


def _worst(verdicts: Sequence[str]) -> str:
    return max(verdicts, key=_ORDER.index)


def judge_intervals(intervals: Mapping[str, tuple[Band, dict]],
                    combine: str = "worst") -> tuple[str, dict]:
    """The verdict of labelled interval records, each judged by its band (combined as
    ``combine`` says), and the record that decided: one labelled ``''`` is the claim's own;
    of several, the first with the worst verdict, its ``of`` prefixed by its label and every
    label's verdict, estimate and interval beside it (``parts``)."""
    verdict, record, _ = _judge_intervals(intervals, combine)
    return verdict, record


def _judge_intervals(intervals: Mapping[str, tuple[Band, dict]],
                     combine: str) -> tuple[str, dict, str]:
    """:func:`judge_intervals`, and the label of the record that decided."""
    if not intervals:
        raise ValueError("judge_intervals: no intervals to judge")
    verdicts = {label: judged(band, u) for label, (band, u) in intervals.items()}
    deciding = _decider(verdicts)
    record = intervals[deciding][1]
    verdict = combined(list(verdicts.values()), combine)
    if list(intervals) == [""]:
        return verdict, record, deciding
    parts = {label: {"verdict": verdicts[label], "mean": u["mean"], "ci95": u["ci95"]}
             for label, (_, u) in intervals.items()}
    return verdict, {**record, "of": f"{deciding}: {record['of']}", "parts": parts}, deciding


def _decider(verdicts: Mapping[str, str]) -> str:
    """The part that decides a claim of parts: the first with the worst verdict."""
    return max(verdicts, key=lambda name: _ORDER.index(verdicts[name]))


def combined(verdicts: Sequence[str], combine: str = "worst") -> str:
    """The verdict of a claim whose parts have ``verdicts`` (see :data:`COMBINE`)."""
    if combine == "sizes" and "not reproduced" in verdicts and "not checkable" not in verdicts:
        return "partly"
    if combine == "partly" and "inconclusive" in verdicts:
        return "inconclusive"
    if combine == "partly" and set(verdicts) == {"reproduced", "not reproduced"}:
        return "partly"
    return _worst(verdicts)


def _as_list(values: Any) -> list[float]:
    return [float(values)] if isinstance(values, int | float) else [float(v) for v in values]


def grow(cases: Iterable[tuple[Row, Any, Mapping[str, Pool]]], module: Any) -> None:
    """Grow the replicate pools of ``cases`` (a pool row with the inputs and pools of one
    reading) until every row's interval decides under every reading, or its pool's cap, before
    any row is judged: every claim of a pool is then judged on every replicate drawn, never on
    fewer than a claim judged after it. A row decided on fewer replicates is looked at again
    when another grew the pool."""
    cases = [(row, inputs, pools) for row, inputs, pools in cases if row.pool]
    while True:
        before = [pools[row.pool].drawn for row, _, pools in cases]
        for row, inputs, pools in cases:
            _decided(row, _with_inputs(row, _function(module, "measure", row.id), inputs),
                     _pool(row, pools))
        if [pools[row.pool].drawn for row, _, pools in cases] == before:
            return


def _decided(row: Row, measure: Callable, pool: Pool) -> dict[str, dict]:
    """Each band's record of ``row`` on ``pool``, grown until it decides
    (:func:`~storrepro.suite.replicates.decide`)."""
    return {name: decide(pool, lambda reps, n=name: _values(measure(reps), n), band,
                         row.of_part(name), row.statistic_of(name))
            for name, band in row.bands().items()}


def _pool(row: Row, pools: Mapping[str, Pool]) -> Pool:
    if row.pool not in pools:
        raise ValueError(f"claim {row.id!r}: no replicate pool {row.pool!r}; given "
                         f"{sorted(pools)}")
    return pools[row.pool]


def judge_row(row: Row, module: Any, inputs: Any, pools: Mapping[str, Pool]) -> Claim:
    """The :class:`Claim` of ``row`` on ``inputs`` (with its pool from ``pools``)."""
    measure = _with_inputs(row, _function(module, "measure", row.id), inputs)
    explain = _with_inputs(row, getattr(module, f"explain_{_slug(row.id)}", None), inputs)
    bands = row.bands()
    if row.pool:
        pool = _pool(row, pools)
        records = _decided(row, measure, pool)
        source = pool.take(pool.drawn)
        measured = measure(source)
        if any(r["n"] != pool.drawn for r in records.values()):  # a later part grew the pool
            records = {name: {**r, **estimate(_values(measured, name), row.of_part(name),
                                              row.statistic_of(name))}
                       for name, r in records.items()}
    else:
        source = inputs
        measured = measure(inputs)
        if (measured.intervals or measured.bands) and (measured.values is not None or bands):
            raise ValueError(f"claim {row.id!r}: measure_{_slug(row.id)} returns the bands it "
                             "judged, so neither values nor a band in the row")
        # a verdict with no values (or not checkable) is the measure's own: the bands are not
        # judged; a verdict beside values is a ceiling the bands cannot lift (below)
        final = (measured.verdict or measured.intervals) and (
            measured.values is None or measured.verdict == "not checkable")
        records = {} if final else {
            name: _record(row, name, _values(measured, name), measured.of) for name in bands}
    deciding = None  # the band of the part that decided, when the row has several
    if not records and measured.intervals:
        verdict, uncertainty, label = _judge_intervals(measured.intervals, row.combine)
        deciding = measured.intervals[label][0]
        if measured.verdict:
            verdict = _worst([verdict, measured.verdict])
        reason = measured.reason
        if not reason.strip():
            raise ValueError(f"claim {row.id!r}: measure_{_slug(row.id)} must return its reason")
    elif not records:
        if measured.verdict not in _ORDER or not measured.reason.strip():
            raise ValueError(f"claim {row.id!r}: measure_{_slug(row.id)} must return its "
                             f"verdict (one of {_ORDER}) and reason")
        verdict, reason, uncertainty = measured.verdict, measured.reason, measured.uncertainty
        if (bands and row.role == "test" and uncertainty is None and not row.no_uncertainty
                and verdict != "not checkable"):
            raise ValueError(f"claim {row.id!r}: measure_{_slug(row.id)} judged the bands, so "
                             "it must return the interval that decided (uncertainty=...)")
    else:
        verdicts = {n: _verdict(bands[n], r) for n, r in records.items()}
        verdict = combined(list(verdicts.values()), row.combine)
        if measured.verdict:  # the row's own rule decides; else a ceiling the bands cannot lift
            verdict = measured.verdict if row.tolerance else _worst([verdict, measured.verdict])
        decisive = _decider(verdicts)
        uncertainty, deciding = records[decisive], bands[decisive]
        reason = " ".join(_interval_text(row, n, records[n], verdicts[n], len(bands) > 1)
                          for n in records)
        if measured.reason:
            reason += " " + measured.reason
        if len(bands) > 1:
            measured.extra.setdefault("verdict_per_part", verdicts)
    if row.miss and verdict != "reproduced":
        reason += " " + row.miss
    if explain is not None:
        cause = explain(source, verdict, measured)
        if cause:
            reason += " " + cause
    band = bands.get("") if len(bands) == 1 and "" in bands else None
    recorded = _recorded(row, uncertainty, measured)
    judged_bands = [*measured.bands, *(b for b, _ in (measured.intervals or {}).values())]
    if band is None and deciding is None:  # judged by the measure: its bands, if they agree
        known = judged_bands or list(bands.values())
        if known and len({(b.low, b.high, b.unit) for b in known}) == 1:
            deciding = known[0]
    return Claim(
        id=row.id,
        statement=row.statement,
        paper_value=row.paper_value,
        reproduced_value=measured.text,
        tolerance=_tolerance(row, bands, judged_bands),
        verdict=verdict,
        reason=reason,
        role=row.role,
        kind=row.kind,
        requires=row.requires,
        values=measured.extra,
        band=band if band is not None else (next(iter(bands.values())).source if bands else
                                            _joined(b.source for b in judged_bands)),
        uncertainty=uncertainty if recorded else None,
        # the edges the claims picture shades: the claim's band, or the deciding part's
        band_range=band_range(band if band is not None else deciding),
        # why there is no interval: the row's said only when there is none
        no_uncertainty=("" if recorded else row.no_uncertainty) or measured.no_uncertainty or (
            reason if uncertainty is None and verdict == "not checkable" else ""),
    )


def _tolerance(row: Row, bands: Mapping[str, Band], judged: Sequence[Band] = ()) -> str:
    """The bands as a tolerance text; a row's own ``tolerance`` (its rule) with the band's
    source; without a band in the row, the bands its measure judged, each once; or the row's
    ``tolerance_text`` as written. Band edges print in the row's ``fmt`` where it is exact."""
    if row.tolerance_text:
        return row.tolerance_text
    if row.tolerance:
        return row.tolerance + (f" ({next(iter(bands.values())).source})" if bands else "")
    own = "; ".join((f"{n}: " if n else "") + b.text(_exact(row.fmt, b)) for n, b in bands.items())
    return own or _joined((b.text() for b in judged), "; ") or row.rule or \
        "its own rule (see the reason)"


def _exact(fmt: str, band: Band) -> str:
    """``fmt`` where it prints the band's finite edges exactly, else ``"{:g}"``: a row's format
    may round a value, never the edge that judges it (1/1.15 stays 0.869565, not 0.870)."""
    try:
        exact = all(float(fmt.format(e)) == e for e in (band.low, band.high) if math.isfinite(e))
    except ValueError:  # a format float() cannot read back (a percent sign)
        exact = False
    return fmt if exact else "{:g}"


def _joined(texts: Iterable[str], sep: str = " | ") -> str:
    return sep.join(dict.fromkeys(texts))


def _recorded(row: Row, u: dict | None, measured: Measured) -> bool:
    """Whether ``u`` is the claim's uncertainty: any record (an empty one only when the measure
    judged and returned it), but for a row that says why it has no interval
    (``no_uncertainty``) none when it has none (one value, defined)."""
    if not u or (u.get("n", 0) < 1 and not measured.verdict):
        return False
    return not (row.no_uncertainty and u.get("ci95") is None and not u.get("undefined"))


def _record(row: Row, part: str, values: Any, of: str = "") -> dict | None:
    samples = _as_list(values)
    of = of if of and part == "" else row.of_part(part)
    if len(samples) == 1 and row.no_uncertainty:
        return {"n": 1, "mean": samples[0], "ci95": None, "of": of}
    return estimate(samples, of, row.statistic_of(part))


def _values(measured: Measured, part: str) -> Any:
    if part == "":
        return measured.values
    if not isinstance(measured.values, Mapping) or part not in measured.values:
        raise ValueError(f"measure must return values per part, missing {part!r}")
    return measured.values[part]


def _verdict(band: Band, record: dict) -> str:
    return judged(band, record)


def _interval_text(row: Row, part: str, u: dict, verdict: str, named: bool) -> str:
    head = f"{part}: " if named else ""
    text = f"{head}{u['of']}: {ci_text(u, row.fmt, unit=row.unit)}"
    if u.get("n_needed") is not None and verdict == "inconclusive":
        text += (f"; undecided at the cap of {u['cap']} replicates ({u['cap_why']}); about "
                 f"{u['n_needed']} would decide it")
    elif u.get("n_needed") is None and "cap" in u and verdict == "inconclusive" and not \
            math.isnan(u["mean"]):
        text += f"; the estimate sits on the band's edge at the cap of {u['cap']} replicates"
    return text + "."


def _slug(claim_id: str) -> str:
    """The name part a claim id gives its functions: ``B3-0.95-TOFEC`` -> ``b3_0_95_tofec``."""
    return re.sub(r"\W+", "_", claim_id.lower()).strip("_")


def _with_inputs(row: Row, fn: Callable | None, inputs: Any) -> Callable | None:
    """A pool row's function that names ``inputs``, given the reading's inputs."""
    if fn is not None and row.pool and "inputs" in inspect.signature(fn).parameters:
        return partial(fn, inputs=inputs)
    return fn


def _function(module: Any, kind: str, claim_id: str) -> Callable:
    name = f"{kind}_{_slug(claim_id)}"
    fn = getattr(module, name, None)
    if fn is None:
        raise ValueError(f"claim {claim_id!r}: {module.__name__} has no {name}()")
    return fn


def band_entries(rows: Sequence[Row], module: str) -> dict[str, dict]:
    """The register's band entries, written from the rows (never typed twice): per row with a
    band, the paper's words and the band they give (with the row's own rule, when it has one);
    per calibration without one, the words and the target its ``rule`` states; none for a row
    whose bands the register already names."""
    entries = {}
    for row in rows:
        bands = row.bands()
        if row.registered():
            continue
        if not bands and row.role == "calibration" and row.rule:
            entries[f"{row.id} target"] = {
                "question": f"What is the stand-in calibrated to ({row.id})?", "quote": row.words,
                "value": row.rule, "kind": "calibration", "symbol": f"{module}:TABLE",
                "row": row.id, "decides": [row.id]}
        if not bands:
            continue
        entries[f"{row.id} band"] = {
            "question": f"Which values of {row.of or row.id} reproduce {row.id}?",
            "quote": row.words,
            "value": _tolerance(row, bands),
            "kind": "band",
            "symbol": f"{module}:TABLE",
            "row": row.id,
            "decides": [row.id],
            **({"note": row.note} if row.note else {}),
        }
    return entries
