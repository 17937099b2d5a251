"""Notebook 00's inputs: one contract for every queue type's draws, and the random reads."""

import numpy as np
import pytest

from storrepro.papers.validation.workload import (
    DISK_SECTORS,
    GAMMA_SHAPE,
    QUEUES,
    QueueTask,
    queue_inputs,
    random_reads,
    service_times,
)

#: Squared coefficient of variation of each queue type's service time.
SCV = {"M/M/1": 1.0, "M/D/1": 0.0, "M/G/1": 1.0 / GAMMA_SHAPE}


@pytest.mark.parametrize("queue", QUEUES)
def test_service_times_contract(queue):
    def draw(seed, n):
        return service_times(queue, np.random.default_rng(seed), n)

    assert np.array_equal(draw(1, 50), draw(1, 50)), "deterministic for a seed"
    assert draw(1, 0).shape == (0,) and draw(1, 1).shape == (1,)
    times = draw(2, 200_000)
    assert (times > 0).all()
    assert times.mean() == pytest.approx(1.0, abs=0.01)
    assert times.var() == pytest.approx(SCV[queue], abs=0.02)


@pytest.mark.parametrize("queue", QUEUES)
def test_queue_inputs_contract(queue):
    task = QueueTask(queue, 0.5, 100_000)
    arrivals, services = queue_inputs(task, np.random.default_rng(3))
    assert arrivals.shape == services.shape == (100_000,)
    assert (np.diff(arrivals) >= 0).all() and arrivals[0] > 0
    assert arrivals[-1] / arrivals.size == pytest.approx(1 / 0.5, rel=0.02)  # rate = load
    empty = queue_inputs(QueueTask(queue, 0.5, 0), np.random.default_rng(3))
    assert [a.size for a in empty] == [0, 0]


def test_arrivals_are_the_cumulative_exponential_gaps_drawn_first():
    rng = np.random.default_rng(5)
    gaps = rng.exponential(1 / 0.8, 4)
    services = rng.exponential(1.0, 4)
    arrivals, got = queue_inputs(QueueTask("M/M/1", 0.8, 4), np.random.default_rng(5))
    assert np.array_equal(arrivals, np.cumsum(gaps)) and np.array_equal(got, services)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("M/M/2", 0.5, 10), "queue = 'M/M/2'"),
        (("M/M/1", 1.0, 10), "load = 1.0"),
        (("M/M/1", 0.0, 10), "load = 0.0"),
        (("M/M/1", 0.5, -1), "customers = -1"),
    ],
)
def test_bad_tasks_are_refused_naming_the_field(args, message):
    with pytest.raises(ValueError, match=message):
        QueueTask(*args)


def test_unknown_queue_type_is_refused():
    with pytest.raises(ValueError, match="queue = 'M/M/c'.*M/M/1, M/D/1, M/G/1"):
        service_times("M/M/c", np.random.default_rng(0), 3)


def test_random_reads_cover_the_disk_at_the_planned_gap():
    lbas, gaps = random_reads(np.random.default_rng(0), 50_000)
    assert lbas.min() >= 0 and lbas.max() < DISK_SECTORS
    assert gaps.mean() == pytest.approx(25.0, rel=0.02)
    assert [a.size for a in random_reads(np.random.default_rng(0), 0)] == [0, 0]
    with pytest.raises(ValueError, match="count must be a whole number >= 0 and <= .*, got -1"):
        random_reads(np.random.default_rng(0), -1)
