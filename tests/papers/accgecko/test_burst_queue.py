"""The reference queue model (ours, not the paper's), line 9's two readings and the readings'
wiring."""

import numpy as np
import pytest

from storrepro.papers.accgecko import experiment
from storrepro.papers.accgecko.acctail import AccTail, stages
from storrepro.papers.accgecko.burst_queue import BurstQueue, burst_arrivals
from storrepro.papers.accgecko.pacer import Replayer


def test_burst_arrivals_spread_each_period_evenly():
    counts = np.array([0, 4, 2, 0, 1])
    out = burst_arrivals(counts, np.array([[1, 2]]))
    assert out * 1e3 == pytest.approx([1.125, 1.375, 1.625, 1.875, 2.25, 2.75])


def test_front_loaded_burst_queues_where_acctail_sees_none():
    """One continuous burst of 52 requests in 7 ms, 30 of them in its first ms: its average rate
    is 7.4 per ms, so at 8 per ms line 9 predicts no queueing; the per-ms queue model and the
    replay of the same per-ms arrivals agree that its requests wait ~2.6 ms."""
    counts = np.array([2] * 20 + [30, 2, 2, 2, 2, 2, 12] + [2] * 20)
    arrivals = burst_arrivals(counts, np.array([[0, counts.size - 1]]))
    acc = AccTail(1.5, 1, 0.0).fit(counts, 2.0)
    queue = BurstQueue(1.5, 0.0).fit(counts, 2.0)
    assert queue.spans.tolist() == [[20, 26]]
    truth = Replayer(arrivals).percentile_us(99.0, 8000.0)
    assert acc.predict(99.0, 8000.0) < 50.0
    assert queue.predict(99.0, 8000.0) == pytest.approx(truth, rel=0.05)
    assert truth > 2000.0


def test_line9_readings():
    sizes = np.array([10, 40])
    durations = np.array([2000.0, 4000.0])  # µs: rates 5 and 10 per ms
    _, ratio = stages(sizes, durations, 1, "stage_ratio")
    _, mean = stages(sizes, durations, 1, "mean_of_rates")
    assert ratio[0] == pytest.approx(6000 / 50)  # Σ L / Σ n
    assert mean[0] == pytest.approx(1 / ((10 / 2000 + 40 / 4000) / 2))  # 1 / mean(λ_b)
    with pytest.raises(ValueError, match="interval"):
        AccTail(interval="rate")


def test_reading_choices_change_one_reading_at_a_time_and_the_joint_ones_together():
    choices = experiment.reading_choices()
    primary = choices.pop("primary")
    assert primary == experiment.Choice()
    assert (primary.trn, primary.epsilon) == ("burst", "rate")
    joint = choices.pop("trn=segment&epsilon=fixed")
    assert joint == experiment.Choice(trn="segment", epsilon="fixed")
    assert set(choices) == {
        "normaliser=segment",
        "segment=longest",
        "line9=mean_of_rates",
        "pm=original",
        "trn=segment",
        "epsilon=fixed",
    }
    fields = ("normaliser", "segment", "line9", "pm", "trn", "epsilon")
    for label, choice in choices.items():
        name, value = label.split("=")
        assert getattr(choice, name) == value
        assert sum(getattr(choice, f) != getattr(primary, f) for f in fields) == 1


def test_predict_reads_out_as_percentile_from_top():
    from storrepro.papers.accgecko.acctail import percentile_from_top

    rng = np.random.default_rng(3)
    counts = rng.poisson(2.0, 5000)
    counts[3000:3004] = [20, 2, 2, 9]
    counts[1000:1010] = [25, 3, 3, 8, 2, 9, 12, 1, 1, 0]
    queue = BurstQueue(1.5, 25.0).fit(counts, 2.0)
    for p in (99.0, 99.9, 99.99):
        for sr in (3100.0, 4000.0, 9000.0):
            plain = percentile_from_top(queue.latencies_us(sr), queue.total_requests, p, 25.0)
            assert queue.predict(p, sr) == plain
