"""MMP computed exactly on its joint (state, backlog) law: hand-worked waits, agreement with a
long simulation of the same model, the ceiling and the unstable rates."""

import math

import numpy as np
import pytest

from storrepro.papers.accgecko.mmp import MarkovCounts
from storrepro.papers.accgecko.pacer import Replayer


def simulated_percentiles(model: MarkovCounts, periods: int, sr: float, ps, seed: int):
    """The same model by simulation: walk the chain, spread each period's requests evenly
    through it, replay them through the pacer."""
    rng = np.random.default_rng(seed)
    cumulative = np.cumsum(model.chain, axis=1)
    state = np.empty(periods, np.int64)
    s = rng.choice(model.values.size, p=model.start)
    for t, u in enumerate(rng.random(periods)):
        state[t] = s
        s = min(int(np.searchsorted(cumulative[s], u, side="right")), model.values.size - 1)
    n = model.values[state]
    index = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)  # i within its period
    arrivals = (np.repeat(np.arange(periods), n) + (index + 0.5) / np.repeat(n, n)) * 1e-3
    return Replayer(arrivals).percentiles_us(ps, sr)


def test_hand_worked_alternation():
    """6 and 1 requests per ms in turn, at 4000 IOPS (250 µs a request, 4 per ms). The six,
    167 µs apart, wait i/3 of a request each (0 … 5/3) and leave 7/3; the single request, at
    the middle of the next ms, waits 7/3 − 2 = 1/3; that ms drains the rest. Of the 7 waits
    (0, 1/3, 1/3, 2/3, 1, 4/3, 5/3 requests), p99 is the largest, p85 the 2nd, p50 the 4th."""
    model = MarkovCounts(c_us=25.0).fit([6, 1] * 50)
    assert model.chain.tolist() == [[0.0, 1.0], [1.0, 0.0]]  # states 1 and 6, alternating
    for p, requests in ((99.0, 5 / 3), (85.0, 4 / 3), (50.0, 2 / 3)):
        assert model.predict(p, 4000.0) == pytest.approx(25.0 + 250.0 * requests, rel=1e-9)


def test_the_segment_is_read_as_a_cycle():
    """The last period's state leads to the first's, so no state is absorbing and the state
    shares are the segment's own."""
    model = MarkovCounts(0.0).fit([0, 0, 5, 3])
    assert model.chain.tolist() == [[0.5, 0.0, 0.5], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert model.start.tolist() == [0.5, 0.25, 0.25]


@pytest.mark.parametrize("sr", [3300.0, 4500.0])
def test_agrees_with_a_long_simulation_of_the_same_model(sr):
    """Within 0.1 request of work (two grid steps of the backlog) of a 300 000-period
    simulation, at the median and p90, where the simulation's own error is far smaller."""
    rng = np.random.default_rng(11)
    counts = rng.poisson(2.0, 4000)
    burst = rng.random(4000) < 0.03
    counts[burst] += rng.integers(3, 9, burst.sum())
    model = MarkovCounts(0.0).fit(counts)
    simulated = simulated_percentiles(model, 300_000, sr, [50.0, 90.0], seed=3)
    exact = [model.predict(p, sr) for p in (50.0, 90.0)]
    assert exact == pytest.approx(simulated, abs=0.1 * 1e6 / sr)


def test_a_rate_at_or_below_the_mean_has_no_stationary_queue():
    model = MarkovCounts(0.0).fit([7, 2] * 20)  # 4.5 requests per ms
    assert model.predict(99.0, 4500.0) == math.inf
    assert math.isfinite(model.predict(99.0, 4600.0))


def test_predictions_above_the_ceiling_are_inf():
    counts = np.random.default_rng(2).poisson(2.0, 3000)
    free = MarkovCounts(0.0).fit(counts)
    value = free.predict(99.9, 2300.0)
    assert 1000.0 < value < math.inf
    assert MarkovCounts(0.0, ceiling_us=value / 2).fit(counts).predict(99.9, 2300.0) == math.inf
    assert MarkovCounts(0.0, ceiling_us=value * 2).fit(counts).predict(99.9, 2300.0) == value


@pytest.mark.parametrize(
    "kwargs, match",
    [({"c_us": -1.0}, "c_us = -1.0"), ({"ceiling_us": 0.0}, "ceiling_us = 0.0"),
     ({"ceiling_us": math.nan}, "ceiling_us = nan")],
)  # fmt: skip
def test_bad_constants_are_refused_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        MarkovCounts(**kwargs)
