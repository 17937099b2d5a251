"""AccTail (Algorithm 1) against hand-worked cases, a brute-force E14, the step-by-step queue, and
the rate search."""

import math

import numpy as np
import pytest

from storrepro.papers.accgecko.acctail import (
    AccTail,
    RateBursts,
    percentile_from_top,
    smallest_rate,
    stages,
)
from storrepro.papers.accgecko.pacer import pacer_waits


def one_burst_counts(burst, total_ms=100, base=2):
    counts = np.full(total_ms, base)
    counts[10 : 10 + len(burst)] = burst
    return counts


def test_hand_worked_single_burst():
    # one continuous burst of 2 ms with 10 requests: τ = 200 µs; at sr = 2000 (500 µs) request j
    # waits 300 j µs. The segment has 10 + 98 * 2 = 206 requests; p = 99 -> top 3 (ceil 2.06).
    model = AccTail(m=2.0, k=1, c_us=25.0).fit(one_burst_counts([5, 5]), mean_count=2.0)
    assert model.sizes.tolist() == [10]
    assert model.stage_tau_us[0] == pytest.approx(200.0)
    lat = model.latencies_us(2000.0)
    assert lat == pytest.approx(25 + 300 * np.arange(10))
    assert model.predict(99, 2000.0) == 25 + 300 * 7  # third largest of j = 0..9
    assert model.overrun_probability(2000.0, 2000.0) == pytest.approx(3 / 206)  # j = 7, 8, 9


def test_no_queueing_when_the_rate_exceeds_the_burst_rate():
    model = AccTail(m=2.0, k=1, c_us=25.0).fit(one_burst_counts([5, 5]), mean_count=2.0)
    assert model.predict(99, 6000.0) == 25.0  # 1/sr = 167 µs < τ = 200 µs


def test_too_few_burst_requests_returns_c():
    # 10 burst requests < trn (1 - p/100) = 206 * 0.1: the percentile is elsewhere
    model = AccTail(m=2.0, k=1, c_us=17.0).fit(one_burst_counts([5, 5]), mean_count=2.0)
    assert model.predict(90, 2000.0) == 17.0


@pytest.mark.parametrize("seed", range(5))
def test_u3_equals_brute_force_e14(seed):
    rng = np.random.default_rng(seed)
    counts = rng.poisson(2, 3000)
    counts[rng.integers(0, 3000, 60)] += rng.integers(3, 15, 60)
    for k in (1, 3, 5):
        model = AccTail(m=1.5, k=k, c_us=25.0).fit(counts, mean_count=2.0)
        for sr in (3500.0, 5000.0):
            brute = []
            for size, stage in zip(model.sizes, model.stage_of, strict=True):
                tau = model.stage_tau_us[stage]
                brute += [max(0.0, j * (1e6 / sr - tau)) + 25.0 for j in range(size)]
            brute = np.sort(np.floor(brute))[::-1]
            need = math.ceil(counts.sum() * 0.01)
            expected = brute[need - 1] if len(brute) >= need else 25.0
            assert abs(model.predict(99, sr) - expected) <= 1


@pytest.mark.parametrize("seed", range(3))
def test_prediction_is_the_read_out_of_every_burst_request(seed):
    """The merged read-out (no request listed) is exactly ``percentile_from_top`` of every
    burst request's latency, for any k, trn, percentile and rate."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(2, 5000)
    counts[rng.integers(0, 5000, 120)] += rng.integers(2, 12, 120)
    for k in (1, 4, 7):
        for trn in ("segment", "burst"):
            model = AccTail(m=1.5, k=k, c_us=17.0, trn=trn).fit(counts, mean_count=2.0)
            for p in (90.0, 99.0, 99.9):
                for sr in (2500.0, 3600.0, 5200.0, 9000.0):
                    listed = percentile_from_top(model.latencies_us(sr), model.total_requests, p,
                                                 17.0)  # fmt: skip
                    assert model.predict(p, sr) == listed


def test_models_sharing_their_bursts_predict_as_alone():
    """Models of one segment that share a :class:`RateBursts` predict what each fitted alone
    predicts; bursts found at another core level are refused by name."""
    rng = np.random.default_rng(7)
    counts = rng.poisson(2, 4000)
    counts[rng.integers(0, 4000, 100)] += rng.integers(2, 12, 100)
    shared = RateBursts(counts, 1.5 * 2.0)
    for k, epsilon in ((1, "rate"), (3, "rate"), (3, "fixed")):
        alone = AccTail(1.5, k, 25.0, trn="burst", epsilon=epsilon).fit(counts, 2.0)
        sharing = AccTail(1.5, k, 25.0, trn="burst", epsilon=epsilon).fit(counts, 2.0, shared)
        assert sharing.sizes.tolist() == alone.sizes.tolist()
        for sr in (3100.0, 4000.0, 6500.0):
            assert sharing.predict(99.0, sr) == alone.predict(99.0, sr)
    with pytest.raises(ValueError, match="bursts"):
        AccTail(2.0, 1, 25.0, epsilon="rate").fit(counts, 2.0, shared)


def test_delay_formula_equals_the_step_by_step_queue():
    # a burst of evenly spaced requests at 10 per ms (τ = 100 µs) into an empty pacer at 4000 IOPS
    arrivals = 0.010 + np.arange(20) * 1e-4
    waits = pacer_waits(arrivals, 4000.0) * 1e6
    counts = np.zeros(40, dtype=int)
    counts[10:12] = 10
    model = AccTail(m=2.0, k=1, c_us=0.0).fit(counts, mean_count=0.5)
    assert model.latencies_us(4000.0) == pytest.approx(waits, abs=1e-6)


def test_stages_equal_width_and_mean_interval():
    sizes = np.array([2, 4, 10, 6])
    durations = np.array([1000.0, 1000.0, 1000.0, 2000.0])  # rates 2, 4, 10, 3 per ms
    stage, tau = stages(sizes, durations, 2)  # bins [2, 6) and [6, 10]
    assert stage.tolist() == [0, 0, 1, 0]
    assert tau[0] == pytest.approx(4000 / 12) and tau[1] == pytest.approx(100.0)


def test_percentile_from_top_reads_the_bucket():
    lat = np.array([10.2, 50.9, 30.0, 70.5])
    assert percentile_from_top(lat, 100, 98, 5.0) == 50.0  # 2 from the top
    assert percentile_from_top(lat, 1000, 99, 5.0) == 5.0  # needs 10 > 4 requests


def test_rate_search_finds_the_smallest_rate_and_is_monotone():
    rng = np.random.default_rng(3)
    counts = rng.poisson(2, 5000)
    counts[rng.integers(0, 5000, 80)] += rng.integers(3, 15, 80)
    model = AccTail(m=1.5, k=3).fit(counts, mean_count=2.0)
    predict = lambda sr: model.predict(99.9, sr)  # noqa: E731
    values = [predict(sr) for sr in np.arange(3000, 30000, 500.0)]
    assert all(b <= a for a, b in zip(values, values[1:], strict=False))
    previous = math.inf
    for slo in (2000.0, 1000.0, 500.0, 200.0):
        rate = smallest_rate(predict, slo, 3000, 60000)
        assert predict(rate) <= slo < predict(rate - 1)
        assert rate >= previous or previous == math.inf
        previous = rate


def test_rate_search_returns_inf_when_even_the_top_misses():
    assert smallest_rate(lambda sr: 100.0, 50.0, 10, 20) == math.inf


@pytest.mark.parametrize("p", [0, 100, -1, 101, float("nan")])
def test_percentile_outside_0_100_is_rejected(p):
    model = AccTail().fit(one_burst_counts([5, 5]), mean_count=2.0)
    with pytest.raises(ValueError, match="percentile p"):
        model.predict(p, 3000.0)


@pytest.mark.parametrize("slo", [0, -5.0])
def test_slo_not_positive_is_rejected(slo):
    with pytest.raises(ValueError, match="slo_us must be a finite number > 0"):
        smallest_rate(lambda sr: 1.0, slo, 1, 10)


@pytest.mark.parametrize("kwargs", [{"m": 0}, {"k": 0}, {"k": 1.5}, {"c_us": -1}])
def test_bad_model_parameters(kwargs):
    with pytest.raises(ValueError):
        AccTail(**kwargs)


def test_bad_rate():
    model = AccTail().fit(one_burst_counts([5, 5]), mean_count=2.0)
    with pytest.raises(ValueError, match="service rate"):
        model.predict(99, 0)


def plain_bisection(predict, slo, low, high):
    lo, hi = math.floor(low), math.ceil(high)
    if predict(hi) > slo:
        return math.inf
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if predict(mid) <= slo else (mid, hi)
    return float(hi)


@pytest.mark.parametrize("seed", range(30))
def test_guided_search_ends_where_bisection_does(seed):
    """Smooth, stepped, flat and infinite stretches: any non-increasing prediction."""
    rng = np.random.default_rng(seed)
    low, high = 2000, int(rng.integers(3000, 80_000))
    knee = rng.uniform(low, high)
    shape = seed % 3
    steps = np.sort(rng.uniform(low, high, 20))

    def predict(sr):
        if sr <= knee / 2:
            return math.inf
        if shape == 0:
            return 25.0 + 1e6 / (sr - knee / 2)
        if shape == 1:
            return 25.0 + 50.0 * np.count_nonzero(steps > sr)
        return max(25.0, 5000.0 * math.exp(-sr / knee))

    for slo in (30.0, 150.0, 300.0, 1000.0, 1e5):
        assert smallest_rate(predict, slo, low, high) == plain_bisection(predict, slo, low, high)


@pytest.mark.parametrize("seed", range(12))
def test_acctail_finds_the_rate_the_search_finds(seed):
    """AccTail's own rate (from the rates at which each burst request reaches the SLO's bucket)
    is the rate the search over its predictions finds, and needs no correcting step: stages, c,
    SLOs below c, ranges whose top misses, and segments with too few burst requests."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(2, 3000)
    hits = rng.integers(0, 3000, int(rng.integers(0, 60)))
    counts[hits] += rng.integers(3, 15, hits.size)
    m, k = float(rng.choice([1.3, 1.5, 2.0])), int(rng.integers(1, 6))
    c_us = [0.0, 17.0, 25.0][seed % 3]
    model = AccTail(m, k, c_us).fit(counts, mean_count=2.0)
    for p in (99.0, 99.9):
        for slo in (20.0, 150.0, 300.5, 1000.0, 2000.0):
            for low, high in ((3000, 40_000), (2000, 5000)):
                expected = smallest_rate(lambda sr, p=p: model.predict(p, sr), slo, low, high)
                calls = []
                with pytest.MonkeyPatch.context() as patch:
                    patch.setattr(model, "predict", lambda p, sr, calls=calls: calls.append(sr)
                                  or AccTail.predict(model, p, sr))  # fmt: skip
                    assert model.smallest_rate(p, slo, low, high) == expected
                assert len(calls) <= 3  # the top, the rate found, the rate below it


def test_acctail_rate_refuses_bad_input_by_name():
    model = AccTail().fit(one_burst_counts([5, 5]), mean_count=2.0)
    with pytest.raises(ValueError, match="slo_us must be a finite number > 0"):
        model.smallest_rate(99.0, 0.0, 10, 20)
    with pytest.raises(ValueError, match="rate range"):
        model.smallest_rate(99.0, 100.0, 20, 20)
    with pytest.raises(ValueError, match="percentile"):
        model.smallest_rate(100.0, 100.0, 10, 20)


def test_trn_burst_reads_the_percentile_among_the_burst_requests():
    """The single-burst case (10 burst requests of 206): p = 90 needs the top 21 of the segment,
    more than the burst holds (c); among the 10 burst requests it needs the top 1, j = 9. At
    p = 50 the top 5 of 10 burst requests: j = 5 waits 1500 µs."""
    counts = one_burst_counts([5, 5])
    burst = AccTail(m=2.0, k=1, c_us=17.0, trn="burst").fit(counts, mean_count=2.0)
    assert burst.total_requests == 10
    assert burst.predict(90, 2000.0) == 17 + 300 * 9
    assert burst.predict(50, 2000.0) == 17 + 300 * 5
    assert burst.overrun_probability(2000.0, 2000.0) == pytest.approx(3 / 10)
    assert AccTail(m=2.0, k=1, c_us=17.0).fit(counts, mean_count=2.0).predict(50, 2000.0) == 17


EPS_COUNTS = np.array([8, 8, 2, 2, 8, 8])  # per ms; N = 2, M = 1.5: cores above 3


def test_epsilon_following_the_rate_finds_the_bursts_of_that_rate():
    """ε fixed (level 3): one continuous burst of all 6 ms, 36 requests, τ = 166.7 µs, so at
    7000 IOPS (142.9 µs) nothing queues. ε at 7000 IOPS (level 7 per ms): the mean falls to 6 at
    the third ms, so two bursts of 2 ms (16 requests, τ = 125 µs); request j waits 17.86 j µs.
    p = 50 of 36 needs the top 18 of two bursts' j = 0..15: j = 7, 125 µs."""
    fixed = AccTail(m=1.5, k=1, c_us=25.0).fit(EPS_COUNTS, mean_count=2.0)
    assert fixed.sizes.tolist() == [36]
    assert fixed.predict(50, 7000.0) == 25.0
    moving = AccTail(m=1.5, k=1, c_us=25.0, epsilon="rate").fit(EPS_COUNTS, mean_count=2.0)
    assert moving.predict(50, 7000.0) == pytest.approx(25.0 + 7 * (1e6 / 7000 - 125), abs=1)
    assert moving._at_rate(7000.0).sizes.tolist() == [16, 16]
    # at a rate below M x the mean the neighbourhood is M·N's: the bursts are the fixed ones
    assert moving._at_rate(2000.0).sizes.tolist() == [36]


def test_epsilon_rate_builds_one_model_per_set_of_bursts():
    """7000 and 7500 IOPS (levels 7 and 7.5 per ms) find the same two bursts: one model, whose
    predictions at each rate are those of a model fitted fresh."""
    model = AccTail(m=1.5, k=1, c_us=25.0, epsilon="rate").fit(EPS_COUNTS, mean_count=2.0)
    assert model._at_rate(7000.0) is model._at_rate(7500.0)
    assert model._at_rate(2000.0) is not model._at_rate(7000.0)
    fresh = AccTail(m=1.5, k=1, c_us=25.0, epsilon="rate").fit(EPS_COUNTS, mean_count=2.0)
    assert model.predict(50, 7500.0) == fresh.predict(50, 7500.0)


def test_epsilon_rate_search_finds_the_smallest_rate_on_its_predictions():
    model = AccTail(m=1.5, k=1, c_us=25.0, epsilon="rate").fit(EPS_COUNTS, mean_count=2.0)
    rate = model.smallest_rate(50, 100.0, 3000.0, 20_000.0)
    assert model.predict(50, rate) <= 100.0 < model.predict(50, rate - 1)


@pytest.mark.parametrize("kwargs", [{"trn": "all"}, {"epsilon": "moving"}])
def test_bad_trn_or_epsilon_is_refused_by_name(kwargs):
    name = next(iter(kwargs))
    with pytest.raises(ValueError, match=name):
        AccTail(**kwargs)
