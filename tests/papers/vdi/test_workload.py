"""VDI trace generator (shape, determinism, its calibration targets) and the real-trace path."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.vdi import forecast as fc
from storrepro.papers.vdi import workload as wl
from storrepro.papers.vdi.config import SystemParams, VdiConfig
from storrepro.papers.vdi.experiment.runs import a7_pool, system_series
from storrepro.papers.vdi.seeds import seed_trace


@pytest.fixture(scope="module")
def frame():
    return wl.generate_trace(wl.TraceConfig(), np.random.default_rng(0))


def test_shape_luns_and_window(frame):
    assert list(frame.columns) == wl.COLUMNS
    assert sorted(frame.lun.unique()) == [0, 1, 2]
    agg = wl.aggregate(frame)
    assert len(agg) == 35 * 144
    window = wl.window(agg)
    assert window.index[0] == pd.Timestamp("2016-02-24 07:00") and window.index[0].day_of_week == 2
    assert len(window) == 864
    assert (frame.write_iops <= frame.total_iops).all() and (frame.write_iops > 0).all()
    shares = wl.per_lun(frame).sum() / agg.total_iops.sum()
    np.testing.assert_allclose(shares, [0.5, 0.3, 0.2], atol=0.03)


def test_same_rng_same_trace_and_different_seeds_differ():
    a = wl.generate_trace(wl.TraceConfig(), np.random.default_rng(5))
    b = wl.generate_trace(wl.TraceConfig(), np.random.default_rng(5))
    c = wl.generate_trace(wl.TraceConfig(), np.random.default_rng(6))
    pd.testing.assert_frame_equal(a, b)
    assert not a.total_iops.equals(c.total_iops)


def test_day_shapes_follow_the_paper():
    hours = np.arange(0, 24, 0.25)
    weekday, monday, weekend = (wl.day_shape(hours, k) for k in ("weekday", "monday", "weekend"))
    assert weekday[(hours >= 10) & (hours < 12)].mean() > 5 * weekday[hours == 4.0].mean()
    lunch = weekday[hours == 12.5][0]
    assert lunch < weekday[hours == 11.0][0] and lunch < weekday[hours == 14.5][0]  # lunch dip
    assert weekday[hours == 2.0][0] > weekday[hours == 4.0][0] + 0.3  # nightly maintenance
    np.testing.assert_allclose(monday[hours == 10.0], 1.15 * weekday[hours == 10.0])
    assert weekend.max() < 0.5 * weekday.max()
    ratio = wl.read_ratio_shape(hours)
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
        wl.to_system([0.0, 50.0], [0.0, 100.0], 1000.0, 100.0), [1000, 1050.5], rtol=1e-2
    )
    with pytest.raises(ValueError, match="base_iops"):
        wl.to_system([1.0], [1.0], -1.0, 100.0)


def _alibaba_trace(path, counts=(120, 60, 300)):
    """Requests over 10-minute intervals of two volumes, in the Alibaba format
    (``device_id,opcode,offset,length,timestamp`` in µs), unsorted, with a trailing blank line:
    by default 120, 60 and 300 requests, 120 of them writes."""
    rows = []
    for interval, count in enumerate(counts):
        for k in range(count):
            time_us = 1_000_000 * (interval * 600 + k * 600 // count)
            op = "W" if k % 4 == 0 else "R"
            rows.append(f"{k % 2},{op},{4096 * k},4096,{time_us}")
    rows[0], rows[5] = rows[5], rows[0]  # out of time order
    path.write_text("\n".join(rows) + "\n\n")
    return path


def test_a_real_trace_replaces_the_stand_in(tmp_path):
    source = wl.trace_input(str(_alibaba_trace(tmp_path / "small.csv", (120, 60, 300, 1))))
    frame = wl.trace_frame(source, wl.TraceConfig())
    # 120, 60 and 300 requests per 600 s: 0.2, 0.1 and 0.5 IOPS, repeated over the 35 days; the
    # fourth interval, one request at its start, is the partial bin: dropped
    np.testing.assert_allclose(frame.total_iops[:6], [0.2, 0.1, 0.5, 0.2, 0.1, 0.5])
    assert frame.attrs["trace_bins"] == 3
    assert len(frame) == 35 * 144 and set(frame.lun) == {0}
    assert frame.time.iloc[0] == pd.Timestamp("2016-01-27 00:00")
    assert (frame.time.diff().dropna() == pd.Timedelta(minutes=10)).all()
    # 121 of the 481 requests are writes
    np.testing.assert_allclose(frame.write_iops, 121 / 481 * frame.total_iops)
    with pytest.warns(UserWarning, match="repeated 1680.0 times to fill the 35-day calendar"):
        _, st = seed_trace(0, 3, source)
    assert st.trace_bins == 3 and st.repeated
    # the window starts at bin 42 + 28·144 = 4074 of the calendar, a multiple of 3
    np.testing.assert_allclose(st.window()[:4], [0.2, 0.1, 0.5, 0.2])
    assert set(st.labels) == {0}  # every day has the same mean: one cluster
    assert wl.trace_input("") is None


def test_the_partial_last_bin_of_a_request_trace_is_dropped(tmp_path):
    # the third interval's requests end short of 1800 s: two whole bins, the third dropped
    source = wl.trace_input(str(_alibaba_trace(tmp_path / "partial.csv")))
    frame = wl.trace_frame(source, wl.TraceConfig())
    assert frame.attrs["trace_bins"] == 2
    np.testing.assert_allclose(frame.total_iops[:4], [0.2, 0.1, 0.2, 0.1])
    short = tmp_path / "short.csv"
    short.write_text("0,R,0,4096,0\n0,R,4096,4096,1000000\n")
    with pytest.raises(ValueError, match="not one whole 600 s bin"):
        wl.trace_frame(wl.trace_input(str(short), "alibaba"), wl.TraceConfig())


def test_an_idle_interval_of_a_real_trace_has_no_writes_and_no_mpe(tmp_path):
    source = wl.trace_input(str(_alibaba_trace(tmp_path / "idle.csv", (120, 0, 300, 1))))
    _, st = seed_trace(0, 0, source)
    demand, writes, _ = system_series(st, "offset", 600.0)
    idle = st.window() == 0
    assert idle.sum() == 288 and np.isfinite(writes).all() and (writes[idle] == 0).all()
    assert np.isnan(fc.scores([0.0, 1.0], [1.0, 1.0])["mpe"])


def test_an_iops_series_takes_the_stand_in_write_share(tmp_path):
    path = tmp_path / "rates.csv"
    path.write_text("time_s,iops\n0,10\n600,30\n1200,20\n")
    frame = wl.trace_frame(wl.trace_input(str(path), "iops"), wl.TraceConfig())
    np.testing.assert_allclose(frame.total_iops[:4], [10.0, 30.0, 20.0, 10.0])
    np.testing.assert_allclose(frame.write_iops[:3], [3.0, 9.0, 6.0])


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
        wl.TraceConfig(**kwargs)


def test_a_fixed_trace_runs_once_unless_replicates_are_asked_for(tmp_path):
    trace = tmp_path / "iops.csv"
    trace.write_text("time_s,iops\n0,5\n600,7\n")
    assert VdiConfig(profile="full").seeds == 5
    assert VdiConfig(profile="full", trace=str(trace)).seeds == 1
    assert VdiConfig(profile="full", trace=str(trace), seeds=3).seeds == 3


# The numbers do not depend on the machine's time zone or locale: the VDI trace generator (the
# one model built on calendar time) and a trace's conversion come out bit for bit the same under
# UTC and a C locale as under time zones hours away, one with a C locale stripped of UTF-8.
TZ_SCRIPT = """import hashlib, sys, time
import numpy as np
from storrepro.papers.vdi.workload import TraceConfig, generate_trace, vdi_foreground
trace = generate_trace(TraceConfig(), np.random.default_rng(3))
digest = hashlib.sha256(trace.to_csv().encode())
digest.update(repr(vdi_foreground(sys.argv[1], progress=False)).encode())
print(digest.hexdigest(), time.strftime("%z", time.localtime(0)))  # the zone took effect
"""


def test_time_zone_and_locale_change_no_number(tmp_path):
    import os
    import subprocess
    import sys

    from storrepro.suite.paths import repo_root

    trace = tmp_path / "msr.csv"
    trace.write_text("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n" + "".join(
        f"{128166372003061629 + i * 37_000_000},web,0,Read,0,512,1\n" for i in range(500)))
    digests, zones = set(), set()
    for tz, lc, utf8 in [("UTC", "C.UTF-8", "1"), ("Pacific/Chatham", "C", "0"),
                         ("America/St_Johns", "POSIX", "1")]:  # fmt: skip
        env = {**os.environ, "TZ": tz, "LC_ALL": lc, "PYTHONUTF8": utf8,
               "PYTHONCOERCECLOCALE": utf8, "PYTHONPATH": str(repo_root() / "lib")}  # fmt: skip
        done = subprocess.run([sys.executable, "-c", TZ_SCRIPT, str(trace)], capture_output=True,
                              text=True, env=env, timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr
        digest, zone = done.stdout.split()
        digests.add(digest)
        zones.add(zone)
    assert len(digests) == 1 and len(zones) == 3
