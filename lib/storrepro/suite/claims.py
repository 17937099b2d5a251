"""Claims as data: what each claim of a paper is evidence of, its verdict, its uncertainty, and why.

A paper package's ``claims.py`` holds one rule per claim id, named ``<id>_<slug>`` (``s5_smart``
judges S5): a function that takes the experiment's outputs and returns a :class:`Claim` —
verdict, the band it was judged against (named from the papers' vocabulary,
:mod:`storrepro.suite.bands`), the seed interval of the measured quantity, a short human
``reproduced_value`` with units, the structured ``values`` and a ``reason``. A notebook records
them through :meth:`storrepro.suite.run.Run.judge`.

A claim's ``role`` says what it is evidence of:

- ``test``: a statement of the paper that could have come out false here;
- ``calibration``: a stand-in was fitted to it, so it shows the stand-in is calibrated, not that
  the paper holds;
- ``invariant``: a property of this implementation (a simulator against a closed form, a
  conservation law);
- ``stand-in``: a property of the paper's data checked on our stand-in: it tells how faithful
  the stand-in is, not whether the paper holds;
- ``analysis``: our own experiment or diagnostic, reported beside the paper's claims.

Only ``test`` claims count in a scorecard's verdict columns. Each is judged on replicates: its
``uncertainty`` holds the 95 % interval of the measured quantity over them, and a verdict whose
interval straddles the band's edge is ``inconclusive``. A claim that ``requires`` others is
``void`` when one of them is not reproduced (``inconclusive`` when one is inconclusive): its
verdict without the condition stays in its ``values`` and its reason names the prerequisite.
"""

from __future__ import annotations

import hashlib
import math
import pickle
import re
import struct
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any

import numpy as np
import pandas as pd

from storrepro.suite.bands import VOCABULARY, Band, entry_of

#: What a rule may return; ``void`` is given only by the run, from ``requires``.
RULE_VERDICTS = ("reproduced", "partly", "inconclusive", "not reproduced", "not checkable")
VERDICTS = ("reproduced", "partly", "inconclusive", "not reproduced", "void", "not checkable")
KINDS = ("must", "should", "report")
ROLES = ("test", "calibration", "invariant", "stand-in", "analysis")
VERDICT_COLOURS = {
    "reproduced": "#c8e6c9",
    "partly": "#fff3c4",
    "inconclusive": "#d6e4f0",
    "not reproduced": "#ffcdd2",
    "void": "#d7ccc8",
    "not checkable": "#e0e0e0",
}
#: How a paper's headline verdict follows from its core claims, said wherever headlines are.
HEADLINE_RULE = (
    "A paper's headline verdict is read off its core claims (the paper's central statements, "
    "all of role test; notebook 00, which checks our simulators, names its invariants): "
    "reproduced when every core claim is reproduced; partly when at least "
    "one is reproduced (or partly) and another is not; inconclusive when none is reproduced "
    "and at least one is inconclusive (its seed interval straddles the band); not reproduced "
    "when none is reproduced or inconclusive (void and not checkable count as not reproduced). "
    "Where an alternative reading of the paper's open choices changes a core claim, the "
    "headline gives the verdict under that reading too."
)

#: The abbreviations a plain-language headline may use; the glossary spells each out.
ABBREVIATIONS = {
    "CRAN": "the R language's package archive, whose 82 time series are a benchmark",
    "HDD": "hard disk drive",
    "I/O": "input/output: reads and writes to storage",
    "IOPS": "I/O operations per second",
    "SLO": "service-level objective: the latency limit a tenant is promised",
    "SSD": "solid-state drive",
    "VDI": "virtual desktop infrastructure: desktops run as virtual machines on shared storage",
}
#: The papers' own names for their methods, which a headline may use as names.
_NAMES = {"BID", "TOFEC"}


def plain_words_problems(summary: str, claim_ids: Iterable[str]) -> list[str]:
    """What keeps ``summary`` from being a plain-language headline: more than 40 words, a claim
    id, or an abbreviation the glossary does not spell out."""
    problems = []
    if len(summary.split()) > 40:
        problems.append(f"{len(summary.split())} words (at most 40)")
    ids = [c for c in claim_ids if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", summary)]
    if ids:
        problems.append(f"claim ids {ids}")
    # a capital run joined to a word by a hyphen is part of a name (SNC-Meister), not a short
    shorts = set(re.findall(r"(?<![\w-])[A-Z][A-Z0-9]+(?:/[A-Z0-9]+)?(?![\w-])", summary))
    shorts -= set(ids)
    unknown = sorted(shorts - set(ABBREVIATIONS) - _NAMES)
    if unknown:
        problems.append(f"abbreviations not in the glossary {unknown}")
    return problems


def band_range(band: Band | None) -> dict | None:
    """A band's edges as JSON-ready numbers (``±Infinity`` for an open end) and its unit."""
    return None if band is None else {"low": band.low, "high": band.high, "unit": band.unit}


@dataclass(frozen=True)
class Claim:
    """One claim of a paper, judged: what a claim rule returns.

    ``reproduced_value`` is a short human string with units ("0.825 accuracy", "−6.0 %");
    ``values`` holds the structured numbers behind it. ``reason`` says in one or two sentences
    what was measured and, for a claim that is not reproduced or only partly, its measured cause
    and the notebook experiment that shows it. ``band`` names the vocabulary entry and the
    paper's words the tolerance comes from (:attr:`storrepro.suite.bands.Band.source`); given
    the :class:`storrepro.suite.bands.Band` itself, the claim also keeps its edges
    (``band_range``: ``low``, ``high``, ``unit``), which the claims picture draws.
    ``uncertainty`` is :func:`interval`'s record over the replicates, or None with
    ``no_uncertainty`` saying why (a deterministic quantity on fixed data).
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
    band: str | Band = ""
    uncertainty: dict | None = None
    no_uncertainty: str = ""
    band_range: dict | None = None

    def __post_init__(self):
        where = f"claim {self.id!r}"
        if isinstance(self.band, Band):
            object.__setattr__(self, "band_range", band_range(self.band))
            object.__setattr__(self, "band", self.band.source)
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
        if self.band and entry_of(self.band) not in VOCABULARY:
            raise ValueError(
                f"{where}: band {self.band!r} names no vocabulary entry; expected "
                f"'<entry>: <the paper's words>' with entry one of {sorted(VOCABULARY)}"
            )
        if self.uncertainty is not None:
            missing = {"n", "ci95", "of"} - set(self.uncertainty)
            if missing:
                raise ValueError(f"{where}: uncertainty lacks {sorted(missing)}")
        object.__setattr__(self, "requires", tuple(self.requires))
        object.__setattr__(self, "values", plain(self.values))
        object.__setattr__(self, "paper_value", plain(self.paper_value))
        object.__setattr__(self, "uncertainty", plain(self.uncertainty))

    def test_gaps(self) -> list[str]:
        """What this claim lacks to be a ``test``: a band from the vocabulary, and an
        uncertainty or the reason it has none."""
        gaps = []
        if not self.band:
            gaps.append("a band naming its vocabulary entry (band=...)")
        if self.uncertainty is None and not self.no_uncertainty.strip():
            gaps.append("an uncertainty (interval(...)) or no_uncertainty saying why not")
        return gaps


# ---------------------------------------------------------------- uncertainty

def _t975(df: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``df`` degrees of freedom."""
    from scipy.stats import t

    return float(t.ppf(0.975, df))


def interval(samples: Iterable[float], of: str) -> dict:
    """The 95 % interval of the mean of ``samples`` (one per replicate: seed, trace, series),
    by Student's t: ``{"n", "mean", "ci95": [lo, hi], "of", "samples"}`` (the samples kept
    up to :data:`KEEP_SAMPLES`, for the per-replicate pictures). With one sample the interval is
    unknown (``ci95`` None) and a verdict on it is the estimate's alone. A quantity that is
    undefined on some replicate (NaN or infinite there: a ratio over zero on a user's trace)
    has no interval: the record counts the replicates in ``undefined`` and :func:`judged`
    calls the claim not checkable."""
    x = _samples(samples, of)
    if not np.all(np.isfinite(x)):
        return _undefined(x, of)
    mean = float(x.mean())
    if x.size < 2:
        return {"n": 1, "mean": mean, "ci95": None, "of": of}
    half = _t975(x.size - 1) * float(x.std(ddof=1)) / math.sqrt(x.size)
    return {"n": int(x.size), "mean": mean, "ci95": [mean - half, mean + half], "of": of,
            **_kept(x)}


def bootstrap_interval(samples: Iterable[float], of: str, statistic=np.median,
                       resamples: int = 2000, seed: int = 0) -> dict:
    """A percentile bootstrap 95 % interval of ``statistic`` over ``samples`` (for a median or
    a share, where the t interval of a mean does not fit); deterministic for a ``seed``."""
    x = _samples(samples, of)
    if not np.all(np.isfinite(x)):
        return _undefined(x, of)
    est = float(statistic(x))
    if x.size < 2:
        return {"n": 1, "mean": est, "ci95": None, "of": of}
    rng = np.random.default_rng(seed)
    draws = statistic(x[rng.integers(0, x.size, size=(resamples, x.size))], axis=1)
    lo, hi = np.percentile(draws, [2.5, 97.5])
    return {"n": int(x.size), "mean": est, "ci95": [float(lo), float(hi)], "of": of,
            **_kept(x)}


#: Up to how many per-replicate samples an interval record keeps (the pictures draw them; a
#: claim over thousands of series keeps only its interval).
KEEP_SAMPLES = 200


def _kept(x: np.ndarray) -> dict:
    return {"samples": x.tolist()} if x.size <= KEEP_SAMPLES else {}


def ci_text(u: dict, fmt: str = "{:.3g}", scale: float = 1.0, unit: str = "") -> str:
    """An interval for a reason: ``"1.12 (95 % CI 1.08 to 1.16, n = 5)"``, ``"1.12 (n = 1)"``
    for one replicate; each number is ``scale·x`` in ``fmt`` followed by ``unit``."""
    def f(x: float) -> str:
        return fmt.format(scale * x) + unit

    if u.get("undefined"):
        return f"undefined on {u['undefined']} of {u['n']} replicates"
    if u.get("ci95") is None:
        return f"{f(u['mean'])} (n = {u['n']})"
    lo, hi = u["ci95"]
    return f"{f(u['mean'])} (95 % CI {f(lo)} to {f(hi)}, n = {u['n']})"


def _samples(samples: Iterable[float], of: str) -> np.ndarray:
    x = np.asarray([float(s) for s in samples], dtype=float)
    if x.size == 0:
        raise ValueError(f"interval of {of!r}: needs at least one sample")
    return x


def _undefined(x: np.ndarray, of: str) -> dict:
    return {"n": int(x.size), "mean": float("nan"), "ci95": None, "of": of,
            "undefined": int(np.sum(~np.isfinite(x)))}


def judged(band, uncertainty: dict) -> str:
    """``band``'s verdict on an :func:`interval` record (its mean, and its interval when
    known); ``not checkable`` when the quantity is undefined on some replicate."""
    if uncertainty.get("undefined"):
        return "not checkable"
    ci = uncertainty["ci95"]
    return band.judge(uncertainty["mean"], tuple(ci) if ci is not None else None)


# ---------------------------------------------------------------- verdict helpers


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
    """The verdict on a paper's core claims, by :data:`HEADLINE_RULE`."""
    verdicts = list(verdicts)
    if all(v == "reproduced" for v in verdicts):
        return "reproduced"
    if any(v in ("reproduced", "partly") for v in verdicts):
        return "partly"
    if any(v == "inconclusive" for v in verdicts):
        return "inconclusive"
    return "not reproduced"


# ---------------------------------------------------------------- inputs


def input_digest(*values: Any) -> str:
    """A SHA-256 of a rule's inputs (arrays, frames, dicts, numbers…) that is the same for the
    same numbers in any process: what a result stores so a changed input is visible even when
    the verdict did not move."""
    h = _Stream()
    for v in values:
        _feed(h, v)
    return h.h.hexdigest()[:16]


class _Stream:
    """The SHA-256 an input digest is fed through; its state may be replaced by the one kept
    after a ``DIGEST_ONCE`` object (see :func:`_feed_once`)."""

    def __init__(self):
        self.h = hashlib.sha256()

    def update(self, data: bytes) -> None:
        self.h.update(data)


#: (state before, id) -> (object, state after) for objects marked ``DIGEST_ONCE``: a large input
#: that never changes after it is made (a replicate table judged under many claims and
#: readings) is pickled and hashed once per prefix and process; the digest is the same.
_ONCE: dict[tuple[bytes, int], tuple[Any, Any]] = {}
_ONCE_KEPT = 32


def _feed_once(h: _Stream, v: Any) -> None:
    key = (h.h.copy().digest(), id(v))
    held = _ONCE.get(key)
    if held is not None and held[0] is v:
        h.h = held[1].copy()
        return
    h.update(pickle.dumps(v, protocol=4))
    if len(_ONCE) >= _ONCE_KEPT:
        _ONCE.pop(next(iter(_ONCE)))
    _ONCE[key] = (v, h.h.copy())


def _feed(h, v: Any) -> None:
    if v is None or isinstance(v, bool | str):
        h.update(f"{type(v).__name__}:{v!r};".encode())
    elif isinstance(v, int | np.integer):
        h.update(f"int:{int(v)};".encode())
    elif isinstance(v, float | np.floating):
        h.update(b"f:" + struct.pack("<d", float(v)))
    elif isinstance(v, np.ndarray):
        if v.dtype == object:
            h.update(f"objarray{v.shape}".encode())
            for item in v.ravel():
                _feed(h, item)
        else:
            h.update(f"array:{v.dtype.str}{v.shape}".encode())
            h.update(np.ascontiguousarray(v).tobytes())
    elif isinstance(v, pd.DataFrame):
        h.update(b"frame")
        _feed(h, [str(c) for c in v.columns])
        _feed(h, v.index)
        for c in v.columns:
            _feed(h, v[c].to_numpy())
    elif isinstance(v, pd.Series):
        h.update(b"series")
        _feed(h, str(v.name))
        _feed(h, v.index)
        _feed(h, v.to_numpy())
    elif isinstance(v, pd.MultiIndex):
        _feed(h, [list(level) for level in v.levels])
        _feed(h, [np.asarray(code) for code in v.codes])
    elif isinstance(v, pd.Index):
        _feed(h, np.asarray(v.astype(str)) if v.dtype == object else v.to_numpy())
    elif isinstance(v, dict):
        h.update(f"dict{len(v)}".encode())
        for k, item in v.items():
            _feed(h, str(k))
            _feed(h, item)
    elif isinstance(v, list | tuple | range):
        h.update(f"seq{len(v)}".encode())
        for item in v:
            _feed(h, item)
    elif is_dataclass(v) and not isinstance(v, type):
        _feed(h, asdict(v))
    elif isinstance(v, pd.Timestamp | np.datetime64):
        h.update(str(v).encode())
    elif getattr(type(v), "DIGEST_ONCE", False) and isinstance(h, _Stream):
        _feed_once(h, v)
    else:
        h.update(pickle.dumps(v, protocol=4))


def verdict_words(claim: dict) -> str:
    """``verdict (value)``, or for a claim that could not be checked, why (it has no value)."""
    if claim["verdict"] == "not checkable":
        return f"not checkable: {claim['reason'].removeprefix('Not checkable: ').rstrip('.')}"
    return f"{claim['verdict']} ({claim['reproduced_value']})"
