"""The notebook's wiring on a tiny pool, and its config."""

import math

import numpy as np
import pandas as pd
import pytest

from storrepro.accgecko import experiment as ex
from storrepro.accgecko.config import AccGeckoConfig
from storrepro.accgecko.workload import G1
from storrepro.config import ParameterError


@pytest.fixture(scope="module")
def tenant():
    task = ex.TenantTask(0, G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 40.0, 20.0, True)
    return ex.evaluate_tenant(task, np.random.default_rng(0))


def test_tenant_tables(tenant):
    segs = pd.DataFrame(tenant["segments"])
    alloc = pd.DataFrame(tenant["allocations"])
    assert len(segs) == 2 and tenant["model_segment"] in (0, 1)
    assert (segs["p99.99"] >= segs["p99"]).all()
    assert len(alloc) == len(ex.ACCURACY_METHODS) * 8
    ok = alloc[np.isfinite(alloc.rate)]
    assert (ok.predicted_us <= ok.slo_us + 1e-9).all()  # every allocation meets its prediction
    assert (ok.rate > 2000).all() and np.isfinite(ok.actual_us).all()
    # tighter SLO -> no smaller rate, per method and percentile
    for _, part in ok.groupby(["method", "p"]):
        assert part.sort_values("slo_us").rate.is_monotonic_decreasing


def test_fold_errors_follow_a7():
    rows = pd.DataFrame(
        {
            "rate": [1.0, 1.0, math.inf],
            "predicted_us": [300.0, 100.0, 1.0],
            "actual_us": [100.0, 274.0, 1.0],
        }
    )
    e = ex.fold_errors(rows)
    assert e.positive.tolist() == [2.0, 0.0] and e.negative.tolist() == pytest.approx([0.0, 1.74])


def test_admission_summary_and_gain():
    runs = {99.0: np.array([[5, 10, 21], [5, 10, 21], [5, 10, 21]])}
    s = ex.admission_summary(runs)
    assert ex.gain(s, 99.0, "AccTail", "SNCM") == pytest.approx(1.1)
    assert ex.separated(s, 99.0)


def test_config_profiles_and_checks():
    assert AccGeckoConfig(profile="quick").tenants == 10
    assert AccGeckoConfig(profile="full").duration == 1800.0
    with pytest.raises(ParameterError, match="accuracy_tenants"):
        AccGeckoConfig(profile="quick", tenants=5, accuracy_tenants=6)
    with pytest.raises(ParameterError, match="capacity"):
        AccGeckoConfig(profile="quick", capacity=-1.0)


def test_replay_rate_with_compression_equals_a_plain_search():
    from storrepro.accgecko.acctail import smallest_rate
    from storrepro.accgecko.replay import Replayer

    rng = np.random.default_rng(4)
    gaps = rng.exponential(1 / 2000, 30_000)
    gaps[rng.random(gaps.size) < 0.03] /= 30
    rep = Replayer(np.cumsum(gaps))
    for kind, p in (("pm", 99.0), ("mmp", 99.0), ("mmp", 99.9)):
        stat = ex.replay_statistic(kind, p)
        for budget in (200.0, 1000.0):
            plain = smallest_rate(
                lambda r, stat=stat: stat(Replayer(rep.arrivals), r), budget, 2000, 40_000
            )
            assert ex.replay_rate(rep, stat, budget, 2000, 40_000) == plain
