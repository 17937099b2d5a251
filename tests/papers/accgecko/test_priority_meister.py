"""The original PriorityMeister on hand-worked cases: envelopes, the fixed-rate bound, the
priority check on a shared queue, greedy assignment, admission and the client's rate limiters."""

import math

import numpy as np
import pytest

from storrepro.papers.accgecko.baselines import PriorityMeister
from storrepro.papers.accgecko.priority_meister import (
    Envelope,
    PriorityMeisterOriginal,
    admit_by_priority,
    assign_priorities,
    fit_envelope,
    shaper_waits,
    stack_envelopes,
)


def one(rate, burst):
    return Envelope(np.array([rate]), np.array([burst]))


def test_fixed_rate_bound_by_hand():
    # alpha = 2 + 1000 t at 2000 IOPS: the second request of the burst waits 0.5 ms
    assert one(1000.0, 2.0).fixed_rate_delay_us(2000.0) == pytest.approx(500.0)
    # alpha = min(1 + 4000 t, 4 + 1000 t): corner at 1 ms (5 requests), (5 - 1 - 2) / 2000 s
    two = Envelope(np.array([4000.0, 1000.0]), np.array([1.0, 4.0]))
    assert two.fixed_rate_delay_us(2000.0) == pytest.approx(1000.0)
    assert two.fixed_rate_delay_us(900.0) == math.inf  # long-run rate above the service
    with pytest.raises(ValueError, match="bursts"):
        Envelope(np.array([1.0]), np.array([0.5]))


def test_envelope_depth_is_the_exact_token_bucket():
    # three requests at 0, 0, 0.5 ms; at 1000 IOPS the third waits 1.5 ms: b = 1 + 1.5 = 2.5
    env = fit_envelope(np.array([0.0, 0.0, 0.0005]), 0.003, pairs=2)
    assert env.rates.tolist() == pytest.approx([3000.0, 1000.0])  # peak 3 per ms .. mean
    assert env.bursts[1] == pytest.approx(2.5)
    assert env.bursts[0] == pytest.approx(2.0)  # at 3000 IOPS the second waits 1/3 ms


def test_original_is_never_tighter_than_the_simplified():
    rng = np.random.default_rng(2)
    arrivals = np.sort(rng.uniform(0, 2.0, 5000))
    original = PriorityMeisterOriginal().fit(arrivals, 2.0)
    simplified = PriorityMeister().fit(arrivals)
    for sr in (3000.0, 4000.0, 8000.0):
        assert original.predict(99.0, sr) >= simplified.predict(99.0, sr) - 1e-6
    at = float(original.envelope.rates[3])  # at one of the pairs' own rates: the same bound
    assert original.predict(99.9, at) == pytest.approx(simplified.predict(99.9, at), rel=1e-9)


def test_priorities_on_a_shared_queue_by_hand():
    # C = 10 000 IOPS; A = 2 + 1000 t, B = 3 + 1000 t. B below A starts within D iff
    # (3 - 1) + 2 + 1 + 1000 D <= 10 000 D, i.e. D >= 5/9000 s = 555.6 µs (t = 0 is the worst:
    # the slope 2000 - 10 000 is negative); A alone needs 2 - 1 + 1 <= 10 000 D, D >= 200 µs.
    a, b = one(1000.0, 2.0), one(1000.0, 3.0)
    assert assign_priorities([a, b], [25 + 350, 25 + 560], 10_000.0) == [1, 0]
    assert assign_priorities([a, b], [25 + 350, 25 + 550], 10_000.0) is None
    assert assign_priorities([a], [25 + 190], 10_000.0) is None
    rates, bursts = stack_envelopes([a, b])
    assert admit_by_priority(rates, bursts, [0, 1], [375.0, 585.0], 10_000.0).tolist() == [
        True,
        True,
    ]
    assert admit_by_priority(rates, bursts, [0, 1], [375.0, 575.0], 10_000.0).tolist() == [
        True,
        False,
    ]
    # the long-run rates alone exceed a small node
    assert admit_by_priority(rates, bursts, [1, 0], [1e6, 1e6], 1500.0).tolist() == [True, False]


def test_rate_limiters_hold_back_what_exceeds_the_envelope():
    waits = shaper_waits(np.zeros(4), one(1000.0, 2.0))  # two tokens, then one per ms
    assert waits == pytest.approx([0.0, 0.0, 1e-3, 2e-3])
    rng = np.random.default_rng(3)
    arrivals = np.sort(rng.uniform(0, 1.0, 3000))
    assert np.all(shaper_waits(arrivals, fit_envelope(arrivals, 1.0)) <= 1e-12)  # it fits itself


def test_envelope_depths_are_the_pacers_largest_waits():
    from storrepro.papers.accgecko.pacer import Replayer

    rng = np.random.default_rng(4)
    arrivals = np.sort(rng.uniform(0, 1.0, 4000))
    env = fit_envelope(arrivals, 1.0)
    replayer = Replayer(arrivals)
    for rate, burst in zip(env.rates, env.bursts, strict=True):
        expected = 1 + rate * replayer.max_wait_us(float(rate)) * 1e-6
        assert burst == pytest.approx(expected, rel=1e-12)


def worst_f(rates, bursts, k, higher, delay, capacity):
    """The slow path of the priority check: f of ``_meets`` at t = 0 and at every corner (its
    maximum over t >= 0, f being concave and piecewise linear), or inf if it still rises past
    the last corner."""

    def alpha(j, t):
        return np.min(bursts[j] + rates[j] * t)

    def f(t):
        return alpha(k, t) + sum(alpha(j, t + delay) for j in higher) - capacity * (t + delay)

    corners = [0.0]
    for j, shift in [(k, 0.0)] + [(j, delay) for j in higher]:
        for i in range(rates.shape[1]):
            for m in range(i + 1, rates.shape[1]):
                if rates[j, i] != rates[j, m]:
                    corners.append((bursts[j, m] - bursts[j, i]) / (rates[j, i] - rates[j, m])
                                   - shift)  # fmt: skip
    corners = [t for t in corners if t >= 0]
    last = max(corners)
    if f(last + 1.0) > f(last):
        return math.inf
    return max(f(t) for t in corners)


def test_the_priority_check_is_the_largest_f_over_the_corners():
    """The shared-queue check (which reads the corners only when f rises at t = 0) against f at
    every corner, on random envelopes of 1-8 tenants above one another, at capacities just
    either side of the one where the check turns (f falls as the capacity grows), and at ones
    far off: checks that settle at t = 0 and checks whose long-run rates exceed the capacity."""
    from storrepro.papers.accgecko.priority_meister import _meets

    rng = np.random.default_rng(2)
    outcomes = set()
    for case in range(30):
        count = int(rng.integers(1, 9))
        envelopes = [fit_envelope(np.sort(rng.uniform(0, 1, int(rng.integers(200, 2000)))), 1.0,
                                  pairs=4) for _ in range(count)]  # fmt: skip
        rates, bursts = stack_envelopes(envelopes)
        delay = float(rng.uniform(1e-4, 5e-3))
        higher = np.arange(1, count)
        lo, hi = 1.0, 1e8  # fails at lo, passes at hi
        for _ in range(45):  # to a relative 1e-6
            mid = math.sqrt(lo * hi)
            fails = worst_f(rates, bursts, 0, higher, delay, mid) > 1e-9
            lo, hi = (mid, hi) if fails else (lo, mid)
        for capacity in (lo * (1 - 1e-6), hi * (1 + 1e-6), 500.0, 1e7):
            expected = worst_f(rates, bursts, 0, higher, delay, capacity) <= 1e-9
            assert _meets(rates, bursts, 0, higher, delay, capacity) == expected, case
            outcomes.add(expected)
    assert outcomes == {True, False}
