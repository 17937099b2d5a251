"""HDD model: the authors' reference values (D1), a hand-worked simpy run, FIFO and errors."""

import numpy as np
import pytest
import simpy

from sim_helpers import run_device
from storrepro.sim.block_device import DiskRequest
from storrepro.sim.disk_checks import HDD_REFERENCE
from storrepro.sim.disk_model import (
    HDDGeometry,
    cylinder_of,
    hdd_service_time,
    hdd_service_times,
    seek_metrics,
)
from storrepro.sim.hdd import HDD

# One d = 2 seek on the default disk: 12.8 ms fixed + 9 ms · (d - 1) / (C - 1).
SEEK_2 = 12.8 + 9.0 / 484_513


@pytest.mark.parametrize(("case", "lba", "size", "head", "expected", "d"), HDD_REFERENCE)
def test_reference_values_d1(case, lba, size, head, expected, d):
    time, distance = hdd_service_time(lba, size, head)
    assert abs(time - expected) < 1e-6
    assert distance == d


def test_cylinder_ceil_quirk():
    assert cylinder_of(0) == 0
    assert cylinder_of(1008) == 1  # exact boundary belongs to the lower cylinder
    assert cylinder_of(1009) == 2


def test_geometry_changes_the_seek_curve():
    # Full stroke on a 101-cylinder disk, 8 sectors inside cylinder 100 (LBA 99,800 = 99·1008
    # + 8, no track crossing): 12.8 + 9·(100 - 1)/(101 - 1) = 21.71 ms.
    geometry = HDDGeometry(cylinders=101)
    time, distance = hdd_service_time(99 * 1008 + 8, 8, 0, geometry)
    assert distance == 100
    assert time == pytest.approx(12.8 + 9 * 99 / 100, abs=1e-12)


def test_hand_worked_simpy_run():
    # r1 seeks from cylinder 0 to 2 (d = 2); r2 continues sequentially on cylinder 2 and crosses
    # one track (6.4 ms), queued behind r1; r3 arrives to an idle disk, seeks 2 -> 0 and spans
    # cylinders 0..1 (two cylinder switches + seek = 15.8 ms + curve).
    hdd = run_device(
        HDD,
        [
            (0.0, DiskRequest(2000, 8, "R", pid=1)),
            (1.0, DiskRequest(2008, 8, "W", pid=2)),
            (30.0, DiskRequest(0, 8, "R", pid=3)),
        ],
    )
    log = hdd.log.to_frame()
    np.testing.assert_allclose(log["t_start"], [0.0, SEEK_2, 30.0], atol=1e-9)
    np.testing.assert_allclose(log["t_end"], [SEEK_2, SEEK_2 + 6.4, 30.0 + 3.0 + SEEK_2], atol=1e-9)
    assert list(log["d"]) == [2, 0, 2]
    assert list(log["cylinder"]) == [2, 2, 0]
    assert list(log["pid"]) == [1, 2, 3]
    np.testing.assert_allclose(
        hdd.monitor.latencies, [SEEK_2, SEEK_2 + 5.4, 3.0 + SEEK_2], atol=1e-9
    )
    assert hdd.head == 8


def test_fifo_order_and_back_to_back_service():
    lbas = [50_000, 10, 900_000, 3_000]
    hdd = run_device(HDD, [(0.0, DiskRequest(lba, 8, pid=i)) for i, lba in enumerate(lbas)])
    log = hdd.log.to_frame()
    assert list(log["lba"]) == lbas
    np.testing.assert_array_equal(log["t_start"].to_numpy()[1:], log["t_end"].to_numpy()[:-1])


def test_submit_event_reports_latency():
    env = simpy.Environment()
    hdd = HDD(env, head=2000)
    done = hdd.submit(DiskRequest(2000, 8))
    env.run()
    assert done.value == pytest.approx(6.2, abs=1e-12)


class HoldUntil:
    """A timer scheduler: releases requests (LBA-sorted) only from time ``release`` on."""

    def __init__(self, release):
        self.release = release
        self.pending = []

    def add(self, request, now):
        self.pending.append(request)

    def next(self, now):
        if now < self.release or not self.pending:
            return None
        self.pending.sort(key=lambda r: r.lba)
        return self.pending.pop(0)

    def next_wakeup(self, now):
        return self.release if now < self.release and self.pending else None


def test_pluggable_scheduler_with_wakeup():
    hdd = run_device(
        HDD, [(0.0, DiskRequest(9000, 8)), (5.0, DiskRequest(100, 8))], scheduler=HoldUntil(50.0)
    )
    log = hdd.log.to_frame()
    assert list(log["lba"]) == [100, 9000]
    assert log["t_start"].iloc[0] == 50.0


def test_seek_metrics_toy_cfq_d3():
    # D3 track sequence of the toy CFQ example (71 -> 72 inside B2 counted as a move).
    tracks = [3, 3, 16, 71, 72, 3, 4, 16, 72, 72, 4, 4]
    distances = np.abs(np.diff(tracks))
    n1 = seek_metrics(distances, n_tracks=100, min_distance=1)
    assert n1 == {
        "movements": 8,
        "cylinders_traversed": 275.0,
        "mean_seek_distance": 34.375,
        "sweeps": 2.75,
    }
    assert seek_metrics(distances, n_tracks=100)["movements"] == 6


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"lba": -1, "size": 8}, ["lba", "-1", ">= 0"]),
        ({"lba": 0, "size": 0}, ["size", "0", ">= 1"]),
        ({"lba": 0, "size": -8}, ["size", "-8"]),
        ({"lba": 0, "size": 8, "op": "X"}, ["op", "'X'", "('R', 'W')"]),
        ({"lba": 1.5, "size": 8}, ["lba", "1.5", "integer"]),
    ],
)
def test_invalid_request(kwargs, words):
    with pytest.raises(ValueError) as err:
        DiskRequest(**kwargs)
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: hdd_service_time(0, 8, -3), ["head", "-3"]),
        (lambda: hdd_service_time(-2, 8, 0), ["lba", "-2"]),
        (lambda: HDDGeometry(cylinders=1), ["cylinders", "1", ">= 2"]),
        (lambda: HDDGeometry(t_rot=-5.6), ["t_rot", "-5.6", ">= 0 ms"]),
        (lambda: HDD(simpy.Environment(), head=-1), ["head", "-1"]),
        (lambda: seek_metrics([1, -2]), ["distances", ">= 0"]),
        (lambda: seek_metrics([1, 2], min_distance=0), ["min_distance", "0", ">= 1"]),
    ],
)
def test_invalid_parameters(call, words):
    with pytest.raises(ValueError) as err:
        call()
    for word in words:
        assert word in str(err.value)


def test_double_submit_is_rejected():
    env = simpy.Environment()
    hdd = HDD(env)
    request = DiskRequest(0, 8)
    hdd.submit(request)
    with pytest.raises(ValueError, match="already queued"):
        hdd.submit(request)


def test_vectorised_service_times_are_the_scalar_model():
    rng = np.random.default_rng(1)
    lba, size, head = (
        rng.integers(0, 488_000_000, 500),
        rng.integers(1, 2048, 500),
        rng.integers(0, 488_000_000, 500),
    )
    times, distances = hdd_service_times(lba, size, head)
    for i in range(500):
        t, d = hdd_service_time(int(lba[i]), int(size[i]), int(head[i]))
        assert (times[i], distances[i]) == (t, d)
    with pytest.raises(ValueError, match="size"):
        hdd_service_times([0], [0], [0])


class Relabel:
    """A scheduler that serves a copy of what it was given (as a merging block layer does)."""

    def __init__(self):
        self.queue = []

    def add(self, request, now):
        self.queue.append(request)

    def next(self, now):
        if not self.queue:
            return None
        r = self.queue.pop(0)
        served = DiskRequest(r.lba, r.size + 8, r.op, r.pid)
        object.__setattr__(served, "arrival", now)  # an untracked device reads .arrival
        return served


def test_untracked_device_serves_what_the_scheduler_returns_and_can_be_woken():
    env = simpy.Environment()
    scheduler = Relabel()
    hdd = HDD(env, scheduler, tracked=False)
    assert hdd.submit(DiskRequest(2000, 8)) is None

    def later():
        yield env.timeout(50.0)
        scheduler.add(DiskRequest(2016, 8), env.now)  # not submitted: the device must be woken
        hdd.wake()

    env.process(later())
    env.run()
    log = hdd.log.to_frame()
    assert list(log["size"]) == [16, 16] and log["t_start"].iloc[1] == 50.0
    assert log["service"].tolist() == pytest.approx((log.t_end - log.t_start).tolist())
