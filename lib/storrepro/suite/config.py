"""Validated notebook parameters: one config class per notebook, shared checks and CLI parsing.

A notebook's ``parameters`` cell holds plain values: ``profile``, ``seed`` and the paper's knobs,
whose default ``None`` means "the profile's value". The notebook hands them to its config class,
which fills in the profile values and checks every value before any computation::

    cfg = ValidationConfig(profile=profile, seed=seed, customers=customers)

The runner builds the same config from ``-p NAME=VALUE`` strings before it starts a kernel, so a
bad value fails in a second with a message naming the parameter, the value and what is allowed.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import numbers
import os
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, ClassVar

PROFILES = ("quick", "full")
_TRUE, _FALSE = {"true", "yes", "1", "on"}, {"false", "no", "0", "off"}


class ParameterError(ValueError):
    """A notebook parameter has an unknown name, a wrong type or a value out of range."""


@dataclass(frozen=True)
class Param:
    """One notebook parameter: its type, its value in each profile, and what values are allowed."""

    type: type
    quick: Any
    full: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    #: "time" or "memory": the run's cost grows in proportion to this size ("memory" implies
    #: time too); see :meth:`NotebookConfig.cost_estimate`.
    grows: str = ""
    #: A path parameter: a non-empty value must name an existing file.
    is_file: bool = False

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        bounds = [
            f">= {self.low:g}" if self.low is not None else None,
            f"<= {self.high:g}" if self.high is not None else None,
        ]
        text = " and ".join(b for b in bounds if b)
        return f"{'an' if self.type is int else 'a'} {self.type.__name__}" + (
            f" {text}" if text else ""
        )

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` as this parameter's type, or raise :class:`ParameterError`."""
        if self.type is float and isinstance(value, numbers.Real) and not isinstance(value, bool):
            value = float(value)  # ints and numpy's numbers too
        if self.type is int and isinstance(value, numbers.Integral) and not isinstance(value, bool):
            value = int(value)  # numpy's integers too
        exact_float = isinstance(value, float) and value.is_integer() and abs(value) < 2**53
        if self.type is int and exact_float:
            value = int(value)
        if not isinstance(value, self.type) or (self.type is not bool and isinstance(value, bool)):
            raise ParameterError(
                f"parameter {name!r} = {value!r}: expected {self.allowed()}, "
                f"got a {type(value).__name__}"
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise ParameterError(
                f"parameter {name!r} = {value!r}: expected a finite number, {self.allowed()}"
            )
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"parameter {name!r} = {value!r}: expected {self.allowed()}")
        if self.is_file and value:
            value = _existing_file(name, value, self.help)
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise ParameterError(f"parameter {name!r} = {value!r}: expected {self.allowed()}")
        return value

    def parse(self, name: str, text: str) -> Any:
        """Turn a command-line string into a checked value (``none`` means the profile's value)."""
        if text.strip().lower() == "none":
            return None
        try:
            if self.type is bool:
                lowered = text.strip().lower()
                if lowered not in _TRUE | _FALSE:
                    raise ValueError
                value: Any = lowered in _TRUE
            elif self.type is int:
                value = _parse_int(text)
            else:
                value = self.type(text)
        except ValueError:
            raise ParameterError(
                f"parameter {name!r} = {text!r}: expected {self.allowed()}"
            ) from None
        return self.check(name, value)


def _existing_file(name: str, value: str, help: str) -> str:
    """``value`` as an absolute path, resolved against this process's working folder: the
    runner resolves it in the caller's folder, before the kernel starts in ``notebooks/``."""
    path = os.path.abspath(os.path.expanduser(value))
    if not os.path.exists(path):
        raise ParameterError(f"parameter {name!r} = {value!r}: no such file ({path}); {help}")
    if not os.path.isfile(path):
        raise ParameterError(
            f"parameter {name!r} = {value!r}: not a regular file ({path} is a directory, a "
            f"device or a pipe); {help}"
        )
    return path


def _parse_int(text: str) -> int:
    """``"12"``, or a decimal or scientific spelling of a whole number such as ``"1e6"`` or
    ``"4.0e5"``, read exactly (no float in between: ``"1e-400"`` and
    ``"4.0000000000000001e5"`` are not whole numbers); at most 100 digits."""
    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError from None
    if not number.is_finite() or number.adjusted() > 100 or number != number.to_integral_value():
        raise ValueError
    return int(number)


COMMON = {
    "profile": Param(
        str,
        "quick",
        "full",
        "run scale: 'quick' (CI, about a minute) or 'full' (the paper's scale)",
        choices=PROFILES,
    ),
    "seed": Param(int, 0, 0, "base seed; every task derives its own stream from it", low=0),
}


def trace_params(replaces: str) -> dict[str, Param]:
    """A notebook's optional real-trace parameters: ``trace`` replaces the synthetic stand-in
    described by ``replaces``; ``trace_format`` names its format ('' detects it)."""
    from storrepro.suite.traces.formats import FORMATS

    return {
        "trace": Param(
            str,
            "",
            "",
            f"path of a block trace replacing {replaces} ('' keeps the stand-in; "
            "`python -m storrepro trace info PATH` says what a file holds)",
            is_file=True,
        ),
        "trace_format": Param(
            str, "", "", "the trace's format ('' detects it)", choices=("", *FORMATS)
        ),
        "trace_start": Param(
            float, 0.0, 0.0, "days from the trace's first record to the part used", low=0
        ),
        "trace_days": Param(
            float, 0.0, 0.0, "days of the trace used from trace_start (0: to its end)", low=0
        ),
        "volumes": Param(
            str, "", "", "the trace's volumes used, comma-separated ('' uses all)"
        ),
    }


def real_vm_params() -> dict[str, Param]:
    """A notebook's real-production-VM parameters (:mod:`storrepro.suite.data.real_vms`): the
    file, and how many of its VMs are studied."""
    return {
        "real_vms": Param(
            str,
            "",
            "",
            "real VMs' requests per 30-minute snapshot, a CSV with the columns vm, interval, "
            "requests, ts ('': the shared file when present)",
            is_file=True,
        ),
        "real_vm_limit": Param(
            int, 6, 0, "real VMs studied, the first of the file (0: all)", low=0, high=100_000
        ),
    }


#: What kind of open choice a register entry is: a spec resolution that picked one of several
#: readings of the text, a calibration target, a way the method and its baselines are modelled,
#: or a claim's band.
DECISION_KINDS = ("resolution", "calibration", "modelling", "band")


@dataclass(frozen=True)
class Reading:
    """An open choice of the paper that can move a verdict, and how this reproduction reads it.

    ``primary`` is chosen for fidelity to the paper's own words (quoted in ``paper_words``) and,
    where known, to the authors' code — never for the verdict it gives; ``argument`` says why,
    and says truthfully when the choice was made after a result it decides was seen (the run
    records, from git, the commit that set the primary and whether results existed before:
    :mod:`storrepro.suite.dating`). ``alternatives`` maps every value, the primary included, to what
    it means. A notebook judges its ``test`` claims under the primary and under each other
    value (one reading changed at a time), so the results show which verdicts hang on the
    choice.
    """

    question: str
    paper_words: str
    primary: str
    alternatives: dict[str, str]
    argument: str
    kind: str = "resolution"

    def __post_init__(self):
        if self.primary not in self.alternatives:
            raise ValueError(
                f"reading primary {self.primary!r} is not among its alternatives "
                f"{sorted(self.alternatives)}"
            )
        if len(self.alternatives) < 2:
            raise ValueError("a reading needs at least one alternative to its primary value")
        if self.kind not in DECISION_KINDS:
            raise ValueError(f"reading kind {self.kind!r}: expected one of {DECISION_KINDS}")

    def others(self) -> list[str]:
        """The non-primary values, in declaration order."""
        return [v for v in self.alternatives if v != self.primary]


@dataclass(frozen=True)
class Forced:
    """A choice between the paper's text and a number that the paper's own words settle: the
    ``value`` taken and the ``quote`` that forces it. ``symbol`` (``"module:NAME"``, a
    module-level constant) locates the value in the code, so the run can date it from git;
    ``decides`` names the claims it bears on. A band whose constant another module holds may
    leave ``quote`` empty: the register quotes its words (:meth:`quoted`), typed once there."""

    question: str
    quote: str
    value: str
    kind: str = "resolution"
    symbol: str = ""
    decides: tuple[str, ...] = ()

    def __post_init__(self):
        if not self.quote.strip() and not (self.kind == "band" and self.symbol):
            raise ValueError(f"forced choice {self.question!r}: quote the words that force it")
        if self.kind not in DECISION_KINDS:
            raise ValueError(f"forced choice kind {self.kind!r}: expected one of {DECISION_KINDS}")
        if self.symbol and ":" not in self.symbol:
            raise ValueError(f"forced choice symbol {self.symbol!r}: expected 'module:NAME'")
        object.__setattr__(self, "decides", tuple(self.decides))

    def quoted(self) -> str:
        """The quote, or the words of the band (or dict of bands) that ``symbol`` names."""
        if self.quote.strip():
            return self.quote
        module, name = self.symbol.split(":", 1)
        value = getattr(importlib.import_module(module), name)
        return "; ".join(dict.fromkeys(b.words for b in (
            value.values() if isinstance(value, dict) else [value])))


def reading_label(name: str, value: str) -> str:
    """``"wait_history", "open_queue"`` -> ``"wait_history=open_queue"``."""
    return f"{name}={value}"


class NotebookConfig:
    """Base of every notebook's config. Subclasses set ``notebook``, ``paper`` and ``params``,
    and the paper's decision register: ``readings`` for the choices the paper leaves open that
    can move a verdict, ``forced`` for those the paper's words settle.

    Attributes are the resolved values: ``cfg.profile``, ``cfg.seed`` and one per parameter.
    """

    notebook: ClassVar[str]
    paper: ClassVar[str]
    #: The README's notebooks table (written from these): the paper's short name ('—': a notebook
    #: of no paper) and what the notebook reproduces.
    title: ClassVar[str] = "—"
    reproduces: ClassVar[str] = ""
    #: The README's trace table: what a user's ``trace`` replaces ('': the notebook takes none).
    trace_replaces: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]]
    readings: ClassVar[dict[str, Reading]] = {}
    #: The rest of the paper's decision register: choices its words settle, with the quote.
    forced: ClassVar[dict[str, Forced]] = {}
    #: Measured on the 2-core reference machine (``make reproduce`` and ``make bench``): the full
    #: profile's wall seconds, and the peak memory (MiB, whole process tree) of the quick and the
    #: full profile; the base of :meth:`cost_estimate`.
    full_cost: ClassVar[tuple[float, float, float]] = (60.0, 900.0, 1024.0)
    #: What the notebook may take here, quick and full profile, in seconds (``make bench``
    #: reports each against it).
    budget_s: ClassVar[tuple[float, float]] = (60.0, 120.0)
    #: The ids of the claims whose inputs a user's ``trace`` drives (None: every claim); the
    #: others keep the stand-in's inputs, and their reasons say nothing of the trace.
    trace_claims: ClassVar[tuple[str, ...] | None] = None
    #: Claims a user's trace cannot answer, with the reason (e.g. dates the trace does not give):
    #: on a trace they are not checkable.
    trace_not_checkable: ClassVar[dict[str, str]] = {}
    #: The stand-in's words in the claims' texts and what they mean on a user's trace (regular
    #: expression -> replacement), e.g. the replicates of one fixed trace are not "seeds".
    trace_words: ClassVar[dict[str, str]] = {}
    #: The package module saying what the notebook needs from a trace, ``trace_needs(cfg)``
    #: (:class:`storrepro.suite.traces.needs.TraceNeeds`), and optionally ``trace_words(cfg)``:
    # words
    #: that depend on the trace, added to ``trace_words``.
    trace_module: ClassVar[str] = ""
    #: Where a reader finds the paper: its DOI address, or its arXiv page where it has none ('':
    #: a notebook of no paper); the site links it.
    paper_link: ClassVar[str] = ""
    #: Whether the notebook reads the CRAN benchmark, which the runner checks before any kernel.
    needs_cran: ClassVar[bool] = False

    @classmethod
    def reading_labels(cls) -> list[str]:
        """Every non-primary reading as ``"name=value"``: the alternatives a test claim is
        judged under besides the primary."""
        return [reading_label(n, v) for n, r in cls.readings.items() for v in r.others()]

    def __init__(self, profile: str = "full", seed: int | None = 0, **values: Any):
        spec = self.all_params()
        unknown = sorted(set(values) - set(spec))
        if unknown:
            raise ParameterError(
                f"unknown parameter {unknown[0]!r} for {self.notebook}; "
                f"allowed: {', '.join(sorted(spec))}"
            )
        self.profile = COMMON["profile"].check("profile", profile)
        seed = getattr(COMMON["seed"], self.profile) if seed is None else seed
        self.seed = COMMON["seed"].check("seed", seed)
        for name, param in self.params.items():
            value = values.get(name)
            resolved = getattr(param, self.profile) if value is None else value
            setattr(self, name, param.check(name, resolved))
        if "real_vms" in self.params and not self.real_vms:
            # the shared file when present, so that the run records its path and digest
            from storrepro.suite.data import real_vms

            found = real_vms.default_path()
            self.real_vms = real_vms.portable(found) if found else ""
        self.validate()

    @classmethod
    def from_parameters(cls, namespace: dict[str, Any]):
        """The config of a notebook's parameters cell: ``Config.from_parameters(globals())``.

        Every parameter the config declares is read from ``namespace`` by name, so none can be
        left out of the call; a declared parameter missing from the cell is an error.
        """
        missing = [name for name in cls.all_params() if name not in namespace]
        if missing:
            raise ParameterError(
                f"{cls.notebook}: the parameters cell does not set {', '.join(missing)}"
            )
        return cls(**{name: namespace[name] for name in cls.all_params()})

    def input_description(self) -> str:
        """What the paper's workload was stood in by: the user's trace or our synthetic one."""
        trace = getattr(self, "trace", "")
        if not trace:
            return "synthetic stand-in"
        return f"trace {Path(trace).name} ({getattr(self, 'trace_format', '') or 'detected'})"

    def real_data(self) -> dict | None:
        """The real-VM file the run reads beside its input (as recorded, and its SHA-256), or
        None without one."""
        if not getattr(self, "real_vms", ""):
            return None
        from storrepro.suite.data import real_vms

        path = real_vms.resolve(self.real_vms)
        return {"file": self.real_vms, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}

    def validate(self) -> None:
        """Checks that involve several parameters; subclasses override."""

    def cost_estimate(self) -> tuple[float, float, str]:
        """``(seconds, MiB, the size that drives memory)``, a rough linear estimate, good for
        refusing what cannot run here, not for planning to the minute: time grows with the
        size parameter that grew most against its full-profile value; memory is the line
        through the quick and full profiles' peaks, driven by the memory size that grew most."""
        seconds, quick_mib, full_mib = self.full_cost
        time_factor = memory_factor = 1.0
        driver = ""
        for name, param in self.params.items():
            if param.grows:
                factor = getattr(self, name) / param.full
                time_factor = max(time_factor, factor)
                if param.grows == "memory" and factor > memory_factor:
                    memory_factor, driver = factor, name
        mib = full_mib + (full_mib - quick_mib) * (memory_factor - 1)
        return seconds * time_factor, mib, driver

    @classmethod
    def all_params(cls) -> dict[str, Param]:
        return {**COMMON, **cls.params}

    @classmethod
    def parse_overrides(cls, pairs: list[str]) -> dict[str, Any]:
        """``["customers=1e6", "seed=3"]`` -> checked values, for the runner's ``-p``."""
        spec = cls.all_params()
        values: dict[str, Any] = {}
        for pair in pairs:
            name, sep, text = pair.partition("=")
            name = name.strip()
            if not sep or not name:
                raise ParameterError(f"-p {pair!r}: expected NAME=VALUE")
            if name == "profile":
                raise ParameterError("set the profile with --profile, not -p profile=...")
            if name not in spec:
                raise ParameterError(
                    f"unknown parameter {name!r} for {cls.notebook}; "
                    f"allowed: {', '.join(sorted(set(spec) - {'profile'}))}"
                )
            if name in values:
                raise ParameterError(f"-p {name} is given twice; give each parameter once")
            values[name] = spec[name].parse(name, text)
        return values

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.all_params()}

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items())
        return f"{type(self).__name__}({body})"
