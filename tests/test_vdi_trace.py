"""VDI trace generator (shape, determinism, calibration targets of spec §4.2) and the loader."""

import numpy as np
import pandas as pd
import pytest

from storrepro.vdi import trace as tr
from storrepro.vdi.experiment import SystemParams, a7_pool, seed_trace, system_series


@pytest.fixture(scope="module")
def frame():
    return tr.generate_trace(tr.TraceConfig(), np.random.default_rng(0))


def test_shape_luns_and_window(frame):
    assert list(frame.columns) == tr.COLUMNS
    assert sorted(frame.lun.unique()) == [0, 1, 2]
    agg = tr.aggregate(frame)
    assert len(agg) == 35 * 144
    window = tr.window(agg)
    assert window.index[0] == pd.Timestamp("2016-02-24 07:00") and window.index[0].day_of_week == 2
    assert len(window) == 864
    assert (frame.write_iops <= frame.total_iops).all() and (frame.write_iops > 0).all()
    shares = tr.per_lun(frame).sum() / agg.total_iops.sum()
    np.testing.assert_allclose(shares, [0.5, 0.3, 0.2], atol=0.03)


def test_same_rng_same_trace_and_different_seeds_differ():
    a = tr.generate_trace(tr.TraceConfig(), np.random.default_rng(5))
    b = tr.generate_trace(tr.TraceConfig(), np.random.default_rng(5))
    c = tr.generate_trace(tr.TraceConfig(), np.random.default_rng(6))
    pd.testing.assert_frame_equal(a, b)
    assert not a.total_iops.equals(c.total_iops)


def test_day_shapes_follow_the_paper():
    hours = np.arange(0, 24, 0.25)
    weekday, monday, weekend = (tr.day_shape(hours, k) for k in ("weekday", "monday", "weekend"))
    assert weekday[(hours >= 10) & (hours < 12)].mean() > 5 * weekday[hours == 4.0].mean()
    lunch = weekday[hours == 12.5][0]
    assert lunch < weekday[hours == 11.0][0] and lunch < weekday[hours == 14.5][0]  # lunch dip
    assert weekday[hours == 2.0][0] > weekday[hours == 4.0][0] + 0.3  # nightly maintenance
    np.testing.assert_allclose(monday[hours == 10.0], 1.15 * weekday[hours == 10.0])
    assert weekend.max() < 0.5 * weekday.max()
    ratio = tr.read_ratio_shape(hours)
    assert ratio[hours == 7.75][0] > 0.85 and ratio[hours == 2.0][0] < 0.4


def test_a8_scaling_puts_the_mean_near_60_percent_of_capacity():
    _, st = seed_trace(0, 0)
    demand, writes, lumps = system_series(st, "offset", 600.0)
    assert 0.55 < demand.mean() / 3200 < 0.65
    assert np.quantile(demand, 0.99) == pytest.approx(3200.0)
    assert 0.5 <= 100 * np.mean(demand > 3200) <= 2.0
    # every written block of a complete hour becomes debt at the next hour boundary
    assert lumps.sum() == pytest.approx(writes[: 143 * 6].sum() * 600.0)
    assert a7_pool(demand, lumps, SystemParams(), 600.0) > lumps.max()


def test_to_system_and_its_errors():
    np.testing.assert_allclose(
        tr.to_system([0.0, 50.0], [0.0, 100.0], 1000.0, 100.0), [1000, 1050.5], rtol=1e-2
    )
    with pytest.raises(ValueError, match="base_iops"):
        tr.to_system([1.0], [1.0], -1.0, 100.0)


def test_loader_round_trip_and_bad_traces(tmp_path, frame):
    path = tmp_path / "trace.csv"
    frame.to_csv(path, index=False)
    loaded = tr.load_trace(path)
    np.testing.assert_allclose(
        tr.aggregate(loaded).total_iops.to_numpy(), tr.aggregate(frame).total_iops.to_numpy()
    )
    bad = frame.copy()
    bad.loc[5, "total_iops"] = -3.0
    with pytest.raises(ValueError, match="total_iops must be finite IOPS >= 0"):
        tr.check_trace(bad)
    short = frame[frame.time < frame.time.min() + pd.Timedelta(hours=12)]
    with pytest.raises(ValueError, match="at least one season"):
        tr.check_trace(short)
    with pytest.raises(ValueError, match="missing columns"):
        frame.drop(columns="write_iops").to_csv(path, index=False)
        tr.load_trace(path)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"days": 0}, "days"),
        ({"noise_sigma": -0.1}, "noise_sigma"),
        ({"noise_ar": 1.0}, "noise_ar"),
        ({"spike_low": 2.5}, "spike range"),
        ({"lun_shares": (0.5, 0.6)}, "lun_shares"),
        ({"iops_per_unit": 0.0}, "iops_per_unit"),
        ({"days": 20}, "evaluation window"),
    ],
)
def test_bad_generator_parameters(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tr.TraceConfig(**kwargs)
