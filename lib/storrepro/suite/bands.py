"""The papers' words as acceptance bands: one vocabulary for every paper.

A claim's band comes from what the paper says, never from a run of our own stand-in. Each band
names its vocabulary entry (:data:`VOCABULARY`) and the paper's words, and judges an estimate
with its seed interval (:mod:`storrepro.suite.claims`): ``reproduced`` when the whole 95 % interval
lies inside the band, ``not reproduced`` when it lies wholly outside, ``inconclusive`` when it
straddles an edge.

- **number**: the paper gives a number; the claim states the tolerance around it and why (the
  scatter the paper's own figure shows, or its printed precision: a value printed as "6.2 %"
  carries ±0.05);
- **range**: the paper gives a range ("50–90 %"): inside it;
- **bound**: "up to", "at most", "at least", "no more than": one-sided;
- **approx**: "≈", "on a par", "matches (very) well", "close to", "comparable", "tracks": the
  ratio within ×/÷ :data:`APPROX_FACTOR` (or the difference within ± :data:`APPROX_PP` points
  for quantities already in percent);
- **significant**: "significantly", "much", "far", "greatly", "substantially" better: better by
  more than the approx band, i.e. not "on a par" (ratio beyond :data:`APPROX_FACTOR`);
- **order**: "an order of magnitude" / "orders of magnitude": a ratio of at least 10 / 100;
- **direction**: a bare comparison ("better", "lower", "beats", "faster"): the difference has the
  stated sign.

:data:`APPROX_FACTOR` is one number for every paper, set from the words alone: two curves read off
the papers' linear plots as "on a par" differ by about a grid step of their axes, 10–20 %; 15 %
is the middle. It was not sized from any run of this project's stand-ins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The vocabulary: entry -> the papers' words it covers and the rule it applies.
VOCABULARY: dict[str, tuple[str, str]] = {
    "number": ("a number the paper gives", "that number ± a tolerance the claim states and "
               "justifies (the scatter the paper shows, or its printed precision)"),
    "range": ("a range the paper gives (\"50–90 %\")", "inside the range"),
    "bound": ("\"up to\", \"at most\", \"at least\", \"no more than\"", "one-sided"),
    "approx": ("\"≈\", \"on a par\", \"matches (very) well\", \"close to\", \"comparable\", "
               "\"tracks\"", "ratio within ×/÷ 1.15, or ± 1.5 points for percentages"),
    "significant": ("\"significantly\", \"much\", \"far\", \"greatly\", \"substantially\"",
                    "better by more than the approx band (ratio beyond 1.15)"),
    "order": ("\"an order of magnitude\", \"orders of magnitude\"",
              "ratio ≥ 10 (one order) or ≥ 100 (orders)"),
    "direction": ("a bare comparison: \"better\", \"lower\", \"beats\", \"faster\"",
                  "the difference has the stated sign"),
}
#: "≈ / on a par / matches well": one band for every paper (see the module docstring).
APPROX_FACTOR = 1.15
#: The same band for a quantity that is already a percentage (a violation share, an error):
#: ± 1.5 points (15 % of a 10 % level, the scale of the papers' percentage claims).
APPROX_PP = 1.5


@dataclass(frozen=True)
class Band:
    """An acceptance interval ``[low, high]`` of a measured quantity (either end may be
    infinite), the vocabulary ``entry`` it comes from and the paper's ``words``."""

    entry: str
    words: str
    low: float = -math.inf
    high: float = math.inf
    unit: str = ""

    def __post_init__(self):
        if self.entry not in VOCABULARY:
            raise ValueError(f"band entry {self.entry!r}: expected one of {sorted(VOCABULARY)}")
        if not self.words.strip():
            raise ValueError(f"band {self.entry!r}: quote the paper's words it comes from")
        if not self.low <= self.high or math.isnan(self.low) or math.isnan(self.high):
            raise ValueError(f"band {self.entry!r}: low {self.low} must be <= high {self.high}")

    def contains(self, x: float) -> bool:
        return math.isfinite(x) and self.low <= x <= self.high

    def judge(self, estimate: float, ci95: tuple[float, float] | None = None) -> str:
        """``reproduced`` / ``not reproduced`` / ``inconclusive`` (see the module docstring);
        without an interval, the estimate alone decides."""
        if ci95 is None:
            return "reproduced" if self.contains(estimate) else "not reproduced"
        lo, hi = ci95
        if not (math.isfinite(lo) and math.isfinite(hi)):
            return "inconclusive" if self.contains(estimate) else "not reproduced"
        if self.low <= lo and hi <= self.high:
            return "reproduced"
        if hi < self.low or lo > self.high:
            return "not reproduced"
        return "inconclusive"

    @property
    def source(self) -> str:
        """``"<entry>: <the paper's words>"``, what a claim's ``band`` field records."""
        return f"{self.entry}: {self.words}"

    def text(self, fmt: str = "{:g}") -> str:
        """The band as a tolerance text, e.g. ``"in [0.87, 1.15] (approx)"``."""
        unit = f" {self.unit}" if self.unit else ""
        if self.entry == "direction":  # its edge is the smallest float beside 0: say the sign
            return f"{'< 0' if self.high < 0 else '> 0'} ({self.entry}: {self.words})"
        if self.low == -math.inf and self.high == math.inf:
            body = "any value"
        elif self.low == -math.inf:
            body = f"≤ {fmt.format(self.high)}{unit}"
        elif self.high == math.inf:
            body = f"≥ {fmt.format(self.low)}{unit}"
        else:
            body = f"in [{fmt.format(self.low)}, {fmt.format(self.high)}]{unit}"
        return f"{body} ({self.entry}: {self.words})"


def number(value: float, tolerance: float, words: str, relative: bool = False,
           unit: str = "") -> Band:
    """The paper's ``value`` ± ``tolerance`` (a fraction of ``|value|`` when ``relative``)."""
    if not tolerance >= 0:
        raise ValueError(f"tolerance {tolerance!r}: expected a number >= 0")
    half = tolerance * abs(value) if relative else tolerance
    return Band("number", words, value - half, value + half, unit)


def paper_range(low: float, high: float, words: str, unit: str = "") -> Band:
    """Inside the paper's range ``[low, high]``."""
    return Band("range", words, low, high, unit)


def at_least(value: float, words: str, unit: str = "") -> Band:
    return Band("bound", words, low=value, unit=unit)


def at_most(value: float, words: str, unit: str = "") -> Band:
    return Band("bound", words, high=value, unit=unit)


def approx_ratio(words: str) -> Band:
    """A ratio measured/reference "on a par": within ×/÷ :data:`APPROX_FACTOR` of 1."""
    return Band("approx", words, 1 / APPROX_FACTOR, APPROX_FACTOR, "×")


def approx_points(reference: float, words: str) -> Band:
    """A percentage "close to" ``reference``: within ± :data:`APPROX_PP` points."""
    return Band("approx", words, reference - APPROX_PP, reference + APPROX_PP, "%")


def significant_ratio(words: str) -> Band:
    """A ratio worse/better "significantly" above 1: beyond the approx band."""
    return Band("significant", words, low=APPROX_FACTOR, unit="×")


def orders(words: str, count: int = 1) -> Band:
    """A ratio of at least ``10**count``."""
    return Band("order", words, low=10.0**count, unit="×")


def direction(words: str, sign: int = 1) -> Band:
    """A difference with the stated sign (``+1``: positive, ``-1``: negative); zero fails."""
    if sign not in (1, -1):
        raise ValueError(f"sign {sign!r}: expected +1 or -1")
    tiny = math.ulp(0.0)
    return Band("direction", words, low=tiny) if sign > 0 else Band("direction", words,
                                                                     high=-tiny)


def entry_of(source: str) -> str:
    """The vocabulary entry a claim's ``band`` field names (the text before ``:``)."""
    return source.split(":", 1)[0].strip()
