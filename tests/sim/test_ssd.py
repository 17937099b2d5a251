"""SSD model: D2 reference values, hand-worked queueing, channels and errors."""

import numpy as np
import pytest
import simpy

from sim_helpers import run_device
from storrepro.sim.block_device import DiskRequest
from storrepro.sim.disk_model import SSDParams, ssd_pages, ssd_service_time
from storrepro.sim.ssd import SSD

FLOOR = SSDParams(rounding="floor")


@pytest.mark.parametrize(
    ("op", "size", "params", "expected"),
    [
        ("W", 8, SSDParams(), 0.5),  # D2: one page
        ("W", 4, SSDParams(), 0.5),  # D2: half a page rounds up ...
        ("W", 4, FLOOR, 0.0),  # ... and to nothing in the authors' code
        ("R", 1024, SSDParams(), 3.2),  # D2: 128 pages · 0.025 ms
        ("W", 1024, SSDParams(), 64.0),  # D2: 128 pages · 0.5 ms
        ("R", 9, SSDParams(), 0.05),  # 4608 B -> 2 pages
        ("R", 9, FLOOR, 0.025),
    ],
)
def test_d2_service_times(op, size, params, expected):
    assert ssd_service_time(op, size, params) == pytest.approx(expected, abs=1e-12)


def test_pages():
    assert ssd_pages(8) == 1
    assert ssd_pages(9) == 2
    assert ssd_pages(0) == 0
    assert ssd_pages(15, FLOOR) == 1


def test_second_request_waits_for_the_first():
    # 1024-sector write (64 ms) at t=0, 8-sector read (0.025 ms) at t=1: the read starts at 64.
    ssd = run_device(
        SSD, [(0.0, DiskRequest(0, 1024, "W", pid=1)), (1.0, DiskRequest(5000, 8, "R", pid=2))]
    )
    log = ssd.log.to_frame()
    np.testing.assert_allclose(log["t_start"], [0.0, 64.0])
    np.testing.assert_allclose(log["t_end"], [64.0, 64.025])
    np.testing.assert_allclose(ssd.monitor.latencies, [64.0, 63.025])
    assert list(log["pages"]) == [128, 1]


def test_two_channels_serve_in_parallel():
    # Three 8-sector writes at t=0 on two channels: two finish at 0.5, the third at 1.0.
    ssd = run_device(SSD, [(0.0, DiskRequest(8 * i, 8, "W")) for i in range(3)], channels=2)
    np.testing.assert_allclose(sorted(ssd.log.to_frame()["t_end"]), [0.5, 0.5, 1.0])


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: SSDParams(rounding="round"), ["rounding", "'round'", "('ceil', 'floor')"]),
        (lambda: SSDParams(write_ms_per_page=-0.5), ["write_ms_per_page", "-0.5", ">= 0"]),
        (lambda: SSDParams(page_bytes=0), ["page_bytes", "0", ">= 1"]),
        (lambda: ssd_pages(-8), ["size", "-8", ">= 0"]),
        (lambda: ssd_service_time("D", 8), ["op", "'D'", "('R', 'W')"]),
        (lambda: SSD(simpy.Environment(), channels=0), ["channels", "0", ">= 1"]),
    ],
)
def test_invalid_parameters(call, words):
    with pytest.raises(ValueError) as err:
        call()
    for word in words:
        assert word in str(err.value)
