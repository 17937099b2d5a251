"""Monitors: exact tail summaries, and the bounded-memory streaming sketch."""

import math

import numpy as np
import pytest

from storrepro.sim.monitor import LatencyMonitor, StreamingQuantiles, tail_summary


def test_tail_summary_by_hand():
    summary = tail_summary(np.arange(1.0, 101.0), qs=(50.0, 99.0))
    assert summary == {"count": 100, "mean": 50.5, "p50": 50.5, "p99": pytest.approx(99.01)}
    assert math.isnan(tail_summary([])["mean"])


def test_sketch_on_hand_values():
    sketch = StreamingQuantiles(rel_error=0.01)
    sketch.add([0.0, 0.0, 10.0, 100.0])
    # Rank q/100·3, rounded down (numpy's "lower"): ranks 0-1 are the zeros, 2 is 10, 3 is 100,
    # each reported within 1 %.
    assert sketch.percentile(0) == 0.0 and sketch.percentile(50) == 0.0
    assert sketch.percentile(67) == pytest.approx(10.0, rel=0.01)
    assert sketch.percentile(100) == pytest.approx(100.0, rel=0.01)
    assert sketch.count == 4 and sketch.total == 110.0


@pytest.mark.parametrize("seed", [0, 1])
def test_sketch_percentiles_within_the_relative_error(seed):
    values = np.random.default_rng(seed).lognormal(0.0, 2.0, 200_000)
    sketch = StreamingQuantiles(rel_error=0.005)
    sketch.add(values)
    for q in (1, 50, 90, 99, 99.9, 99.99):
        exact = np.percentile(values, q, method="lower")
        assert abs(sketch.percentile(q) / exact - 1) <= 0.005 + 1e-12, q


def test_sketch_state_does_not_depend_on_chunking_and_is_bounded():
    values = np.random.default_rng(4).exponential(3.0, 50_000)
    one, many = StreamingQuantiles(), StreamingQuantiles()
    one.add(values)
    for part in np.array_split(values, 37):
        many.add(part)
    assert [one.percentile(q) for q in (50, 99)] == [many.percentile(q) for q in (50, 99)]
    before = one.nbytes
    one.add(np.random.default_rng(5).exponential(3.0, 500_000))
    assert one.nbytes == before < 100_000


@pytest.mark.parametrize("bad", [-1.0, math.nan, 1e13])
def test_sketch_rejects_values_outside_its_range(bad):
    with pytest.raises(ValueError, match="values must be in"):
        StreamingQuantiles().add([1.0, bad])


def test_sketch_rejects_bad_settings_and_percentiles():
    with pytest.raises(ValueError, match="rel_error"):
        StreamingQuantiles(rel_error=0.0)
    with pytest.raises(ValueError, match="percentile q must be in"):
        StreamingQuantiles().percentile(101)


def test_streaming_monitor_matches_the_exact_one_within_its_error():
    values = np.random.default_rng(6).exponential(1.0, 20_000)
    exact, streaming = LatencyMonitor(), LatencyMonitor(streaming=True)
    for v in values:
        exact.record(v)
        streaming.record(v)
    assert len(streaming) == len(exact) == 20_000
    assert streaming.summary()["mean"] == pytest.approx(exact.summary()["mean"], rel=1e-12)
    for label, value in streaming.percentiles().items():
        assert value == pytest.approx(np.percentile(values, float(label[1:])), rel=0.006)
    with pytest.raises(ValueError, match="streaming"):
        _ = streaming.latencies


@pytest.mark.parametrize("bad", [-1.0, np.nan, np.inf])
def test_a_monitor_refuses_negative_and_non_finite_latencies(bad):
    monitor = LatencyMonitor("read")
    with pytest.raises(ValueError, match="read: a latency must be a finite number >= 0"):
        monitor.record(bad)
    with pytest.raises(ValueError, match="read latencies must hold finite numbers >= 0"):
        monitor.record_many([1.0, bad])
