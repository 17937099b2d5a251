"""One contract for every tail-latency predictor of notebook 02, in the spirit of
scikit-learn's ``check_estimator``: AccTail, SNC-Meister (LAMBDA rates) and its fitted MMPP
(empirical rates), both PriorityMeisters, MMP, our burst-queue reference predictor and the
exact replay of the segment (with a dispatch overhead of c per request, its only c).

Each is fitted to a trace segment — per-ms counts or arrival times, as it reads them — and
answers ``predict(p, sr)``: the p-th percentile latency in µs at the fixed rate ``sr`` IOPS, c
included. The contract: ``fit`` returns the model; a prediction is a float no smaller than c
(inf when the rate cannot be stable); it does not grow with the rate; the same input and seed
give the same prediction; a bad percentile or rate, or an empty segment, is refused with an
error naming it; a one-request segment gets a finite prediction (exactly c from every model but
SNC's Poisson states, which see a rate, not one request); and each agrees with a hand-worked
case.
"""

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from storrepro.papers.accgecko.acctail import AccTail
from storrepro.papers.accgecko.baselines import PriorityMeister, SncMeister
from storrepro.papers.accgecko.burst_queue import BurstQueue
from storrepro.papers.accgecko.exact import ExactReplay
from storrepro.papers.accgecko.features import period_counts
from storrepro.papers.accgecko.mmp import MarkovCounts
from storrepro.papers.accgecko.priority_meister import PriorityMeisterOriginal

C_US = 25.0


@dataclass(frozen=True)
class Segment:
    arrivals: np.ndarray  # s
    counts: np.ndarray  # per 1 ms
    duration: float  # s


def segment(arrivals, duration) -> Segment:
    arrivals = np.asarray(arrivals, dtype=float)
    counts = period_counts(arrivals, duration) if arrivals.size else np.empty(0, np.int64)
    return Segment(arrivals, counts, duration)


@dataclass(frozen=True)
class Member:
    name: str
    fit: Any  # Segment -> fitted model


MEMBERS = [
    Member("AccTail", lambda s: AccTail(1.5, 1, C_US).fit(s.counts, mean_count=2.0)),
    Member("SNC-Meister", lambda s: SncMeister(C_US).fit(s.counts)),
    Member("MMPP", lambda s: SncMeister(C_US, rates="empirical").fit(s.counts)),
    Member("PM simplified", lambda s: PriorityMeister(C_US).fit(s.arrivals)),
    Member("PM original", lambda s: PriorityMeisterOriginal(C_US).fit(s.arrivals, s.duration)),
    Member("MMP", lambda s: MarkovCounts(C_US).fit(s.counts)),
    Member("BurstQueue", lambda s: BurstQueue(1.5, C_US).fit(s.counts, mean_count=2.0)),
    Member("Exact", lambda s: ExactReplay().fit(s.arrivals, np.full(s.arrivals.size, C_US))),
]
IDS = [m.name for m in MEMBERS]


@pytest.fixture(scope="module")
def bursty() -> Segment:
    rng = np.random.default_rng(5)
    gaps = rng.exponential(1 / 2000, 8000)
    gaps[rng.random(8000) < 0.04] /= 30  # clumps
    arrivals = np.cumsum(gaps)
    return segment(arrivals, math.ceil(arrivals[-1] * 1e3) / 1e3)


@pytest.mark.parametrize("member", MEMBERS, ids=IDS)
def test_predictions_are_floats_from_c_up_and_never_grow_with_the_rate(member, bursty):
    model = member.fit(bursty)
    for p in (99.0, 99.9):
        values = [model.predict(p, sr) for sr in (3000.0, 4000.0, 6000.0, 12_000.0)]
        assert all(isinstance(v, float) and v >= C_US for v in values)
        assert all(a >= b for a, b in zip(values, values[1:], strict=False))


@pytest.mark.parametrize("member", MEMBERS, ids=IDS)
def test_the_same_input_gives_the_same_prediction(member, bursty):
    first, second = member.fit(bursty), member.fit(bursty)
    for p, sr in ((99.0, 3500.0), (99.9, 5000.0)):
        assert first.predict(p, sr) == second.predict(p, sr)


@pytest.mark.parametrize("member", MEMBERS, ids=IDS)
@pytest.mark.parametrize(
    "p, sr, match",
    [(100.0, 3000.0, "percentile"), (0.0, 3000.0, "percentile"), (99.0, -1.0, "service rate"),
     (99.0, math.nan, "service rate"), (99.0, 0.0, "service rate")],
)  # fmt: skip
def test_bad_percentile_or_rate_is_refused_by_name(member, bursty, p, sr, match):
    model = member.fit(bursty)
    with pytest.raises(ValueError, match=match):
        model.predict(p, sr)


@pytest.mark.parametrize("member", MEMBERS, ids=IDS)
def test_an_empty_segment_is_refused_by_name(member):
    with pytest.raises(ValueError, match="counts|arrivals"):
        member.fit(segment([], 0.01))


@pytest.mark.parametrize("member", MEMBERS, ids=IDS)
def test_a_single_request_gets_a_finite_prediction(member):
    value = member.fit(segment([0.0005], 0.001)).predict(99.0, 4000.0)
    if member.name in ("SNC-Meister", "MMPP"):
        assert C_US < value < math.inf
    else:
        assert value == pytest.approx(C_US)


# --- hand-worked cases ----------------------------------------------------------------------------

#: 16 requests 125 µs apart from 2.0625 ms: 8 in each of the periods 2 and 3 of a 10 ms segment.
#: At 4000 IOPS (250 µs apart) request j waits 125 j µs: the largest wait is 1875 µs, and the
#: 8th largest of 16 (p = 50) is 1000 µs. AccTail (N = 2, M = 1.5: one continuous burst of 2 ms,
#: τ = 125 µs), the burst queue (each ms spread evenly) and the exact replay all see exactly this
#: queue.
HAND = segment(2.0625e-3 + 125e-6 * np.arange(16), 0.010)


THETAS = np.logspace(-4, 2, 20_000)


def chernoff(p_step, eps, serve) -> float:
    """SNC's bound for a one-state chain (steps of 10 µs), by brute force over θ."""
    best = math.inf
    for th in THETAS:
        rho = math.log(p_step * math.exp(th) + 1 - p_step) / th
        if rho < serve:
            best = min(best, -math.log(eps * (1 - math.exp(th * (rho - serve)))) / th / serve)
    return best * 10.0  # µs


HAND_CASES = {
    "AccTail": (HAND, 50.0, 4000.0, 1000.0 + C_US),
    "BurstQueue": (HAND, 50.0, 4000.0, 1000.0 + C_US),
    "PM simplified": (HAND, 99.0, 4000.0, 1875.0 + C_US),
    "Exact": (HAND, 99.0, 4000.0, 1875.0 + C_US),  # the largest wait, plus its overhead c
    # eight pairs from 8000 IOPS (the peak ms) down to 1600 (the mean); the pair at 8000 has
    # b = 1 and the one at 1600 b = 13, and these two alone already give 1875 µs at 4000 IOPS
    "PM original": (HAND, 99.0, 4000.0, 1875.0 + C_US),
    # one state of 2 requests per ms: LAMBDA's rate (sqrt(3) - 1)^2, the MMPP's own mean 2
    "SNC-Meister": (segment(np.arange(2000) * 5e-4 + 2.5e-4, 1.0), 99.0, 3000.0,
                    chernoff((math.sqrt(3) - 1) ** 2 / 100, 0.01, 0.03) + C_US),
    "MMPP": (segment(np.arange(2000) * 5e-4 + 2.5e-4, 1.0), 99.0, 3000.0,
             chernoff(2 / 100, 0.01, 0.03) + C_US),
    # one request per ms, at its middle, at 4000 IOPS: served in 250 µs, it is gone long before
    # the next arrives, so nothing ever queues (at 1e9 IOPS MMP's backlog grid alone, sized by
    # the rate, would be 12.8 GB of zeros to write: 50 s for the same answer)
    "MMP": (segment(np.arange(1000) * 1e-3 + 5e-4, 1.0), 99.0, 4000.0, C_US),
}  # fmt: skip


@pytest.mark.parametrize("member", MEMBERS, ids=IDS)
def test_agrees_with_the_hand_worked_case(member):
    seg, p, sr, expected = HAND_CASES[member.name]
    assert member.fit(seg).predict(p, sr) == pytest.approx(expected, rel=1e-3, abs=1e-3)
