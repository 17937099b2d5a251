"""The oracle bound: maximal merging, no seeks; never above what a scheduler needs."""

import numpy as np
import pandas as pd
import pytest

from storrepro.bid import make_scheduler, workload
from storrepro.bid.experiment import simulate
from storrepro.bid.oracle import merged_requests, oracle_bound
from storrepro.sim.disk_model import hdd_service_time


def events(rows):
    return pd.DataFrame(rows, columns=["ts", "pid", "op", "lba", "size"])


def test_merging_is_maximal_across_processes_and_time_and_keeps_directions_apart():
    trace = events(
        [
            (0.0, 1, "R", 0, 256),
            (1.0, 2, "R", 5000, 8),
            (2.0, 3, "R", 256, 256),  # contiguous with the first, another process, later
            (3.0, 1, "W", 512, 8),  # contiguous but a write
            (4.0, 1, "R", 512, 768),  # would pass 1024 sectors: a new request
            (5.0, 4, "R", 0, 256),  # a second reader of the same sectors: its own chain
            (6.0, 4, "R", 256, 256),
        ]
    )
    m = merged_requests(trace).sort_values(["op", "lba", "size"]).reset_index(drop=True)
    assert m.values.tolist() == [
        ["R", 0, 512],
        ["R", 0, 512],
        ["R", 512, 768],
        ["R", 5000, 8],
        ["W", 512, 8],
    ]


def test_the_floor_charges_every_request_without_a_seek():
    trace = events([(0.0, 1, "R", 100_000, 8), (1.0, 2, "R", 9_000_000, 8)])
    bound = oracle_bound(trace)
    no_seek = (
        hdd_service_time(100_000, 8, 100_000)[0] + hdd_service_time(9_000_000, 8, 9_000_000)[0]
    )
    assert bound["oracle_floor_s"] == pytest.approx(no_seek / 1000)
    assert bound["oracle_sweep_s"] > bound["oracle_floor_s"]  # the sweep pays two seeks


@pytest.mark.parametrize("name", ["WordCount", "TeraSort"])
def test_no_scheduler_beats_the_oracle(name):
    trace = workload.generate(name, 3000, np.random.default_rng(4))
    bound = oracle_bound(trace)
    assert bound["oracle_tiered_s"] <= bound["oracle_floor_s"] <= bound["oracle_sweep_s"]
    for s in ("noop", "cfq-q8", "bid-hdd"):
        assert (
            simulate(trace, make_scheduler(s)).requests.service.sum() / 1000
            >= (bound["oracle_floor_s"])
        )
    hybrid = simulate(trace, make_scheduler("bid-hybrid")).requests.service.sum() / 1000
    assert hybrid >= bound["oracle_tiered_s"]


def test_the_modern_disk_charges_rotation_only_off_the_head_and_a_transfer_term():
    from storrepro.bid.kernel_core import _geometry_arrays, hdd_time
    from storrepro.sim.disk_model import DEFAULT_GEOMETRY

    gi, gf = _geometry_arrays(DEFAULT_GEOMETRY)
    gi, modern = _geometry_arrays(DEFAULT_GEOMETRY, modern=True)
    authors = hdd_time(2000, 8, 2000, gi, gf)[0]  # 6.2 ms: rotation charged although sequential
    sequential = hdd_time(2000, 8, 2000, gi, modern)[0]
    nearby = hdd_time(2000, 8, 1992 - 400, gi, modern)[0]  # same cylinder, not at the head
    per_sector = 512 / 150e6 * 1e3
    assert authors == pytest.approx(6.2)
    assert sequential == pytest.approx(6.2 - 5.6 + 8 * per_sector)
    assert nearby == pytest.approx(6.2 + 8 * per_sector)
    # the oracle never seeks: under the modern disk it pays no rotation either
    trace = events([(0.0, 1, "R", 100_000, 1024)])
    assert (
        oracle_bound(trace, modern_disk=True)["oracle_floor_s"]
        < oracle_bound(trace)["oracle_floor_s"]
    )
