"""What each notebook needs from a user's trace, checked before any work, and the part of a
trace that trace_start, trace_days and volumes select (storrepro.suite.traces.needs)."""

import os
import re
import time

import numpy as np
import pytest

from storrepro.papers.accgecko.config import AccGeckoConfig
from storrepro.papers.accgecko.workload import accgecko_tenants
from storrepro.papers.bid.config import BIDConfig
from storrepro.papers.periodicity.config import PrecisePeriodConfig
from storrepro.papers.periodicity.workload import precise_period_segments
from storrepro.papers.tofec.config import TofecConfig
from storrepro.papers.vdi.config import VdiConfig
from storrepro.papers.vdi.workload import vdi_foreground
from storrepro.suite.config import ParameterError
from storrepro.suite.traces import needs
from storrepro.suite.traces.needs import check, needs_of, selected, span_text, words_of
from storrepro.suite.traces.reader import read_trace
from storrepro.suite.traces.samples import T0

DAY = 86_400


def _iops(path, rows):
    path.write_text("time_s,volume,iops\n" + "".join(f"{t},{v},{r}\n" for t, v, r in rows))
    return str(path)


def _alibaba(path, times, volumes=None):
    volumes = ["d0"] * len(times) if volumes is None else volumes
    path.write_text("".join(
        f"{v},R,{4096 * i},4096,{round(t * 1e6)}\n"
        for i, (t, v) in enumerate(zip(times, volumes, strict=True))
    ))  # fmt: skip
    return str(path)


def _unequal(path):
    """Volume a 33 days, b and c 7, all idle after day 7 (a's last rows a 0-rate tail)."""
    rows = []
    for volume, days in (("a", 33), ("b", 7), ("c", 7)):
        for k in range(days * 144 + 1):
            rate = 50 + 40 * np.sin(2 * np.pi * k / 144) if k < 7 * 144 else 0.0
            rows.append((T0 + 600 * k, volume, round(rate, 3)))
    return _iops(path, rows)


def test_vdi_refuses_an_idle_evaluation_window_and_takes_a_busy_part(tmp_path):
    trace = _unequal(tmp_path / "unequal.csv")
    with pytest.raises(ParameterError, match=r"parameter 'trace' = .*unequal.csv.*03_vdi_backgr"
                       r"ound needs traffic on every day of the 6-day evaluation window.*"
                       r"2016-02-24.*choose a busier part with trace_start"):
        check(VdiConfig(profile="quick", trace=trace))
    check(VdiConfig(profile="quick", trace=trace, trace_days=7.0))  # the first week: busy


def test_a_selection_keeps_every_record_in_its_window_and_volumes(tmp_path, monkeypatch):
    monkeypatch.setattr("storrepro.suite.traces.needs.repo_root", lambda: tmp_path)
    rows = [(T0 + 1800 * i, v, 1 + i % 5 + (v == "y")) for i in range(96) for v in ("x", "y")]
    trace = _iops(tmp_path / "halfhour.csv", rows)  # two days of per-30-minute rows
    cfg = VdiConfig(profile="quick", trace=trace, trace_start=0.5, trace_days=1.0, volumes="y")
    path, fmt = selected(cfg)
    assert fmt == "iops" and path.startswith(str(tmp_path / "build" / "traces"))
    kept = read_trace(path, fmt)
    inside = [r for r in rows if r[1] == "y" and T0 + DAY / 2 <= r[0] <= T0 + 1.5 * DAY]
    assert kept.time_s.tolist() == [float(r[0]) for r in inside]
    # every I/O of the part's rows reaches each conversion (the last row holds one bin)
    io = sum(r[2] for r in inside[:-1]) * 1800
    assert vdi_foreground(path, progress=False).sum() * 600 == io + inside[-1][2] * 600
    assert precise_period_segments(path, progress=False).to_numpy().sum() == (
        io + inside[-1][2] * 300)
    assert selected(cfg) == (path, fmt)  # written once, then reused


def test_a_request_selection_keeps_times_pids_and_volumes_exactly(tmp_path, monkeypatch):
    monkeypatch.setattr("storrepro.suite.traces.needs.repo_root", lambda: tmp_path)
    times = T0 + np.sort(np.random.default_rng(1).uniform(0, 3 * DAY, 500))
    volumes = ["v1" if i % 3 else "v2" for i in range(times.size)]
    trace = _alibaba(tmp_path / "ali.csv", times, volumes)
    cfg = BIDConfig(profile="quick", trace=trace, trace_start=1.0, volumes="v1")
    path, fmt = selected(cfg)
    whole = read_trace(trace)
    want = whole[(whole.time_s >= whole.time_s[0] + DAY) & (whole.volume == "v1")]
    got = read_trace(path, fmt)
    assert fmt == "requests" and len(got) == len(want) > 0
    assert (got.time_s.to_numpy() == want.time_s.to_numpy()).all()
    assert (got.offset.to_numpy() == want.offset.to_numpy()).all() and (got.pid == -1).all()


def test_selection_parameters_are_checked_against_the_trace(tmp_path):
    trace = _alibaba(tmp_path / "ali.csv", T0 + np.arange(0, 2 * DAY + 1, 60.0))
    with pytest.raises(ParameterError, match=r"parameter 'trace_start' = 3.0: the trace spans "
                       r"2 days .*; expected days from its first record below 2"):
        check(BIDConfig(profile="quick", trace=trace, trace_start=3.0))
    with pytest.raises(ParameterError, match=r"parameter 'volumes' = 'd0, nope': the trace has "
                       r"no volume 'nope'; expected names from d0 \(comma-separated"):
        check(BIDConfig(profile="quick", trace=trace, volumes="d0, nope"))
    with pytest.raises(ParameterError, match="parameter 'trace_days' = -1"):
        BIDConfig(profile="quick", trace=trace, trace_days=-1.0)


def test_each_notebook_says_what_it_needs(tmp_path):
    jittered = np.sort(np.random.default_rng(2).uniform(0, 3600, 14_400))
    short = _alibaba(tmp_path / "short.csv", T0 + jittered)  # 1 h, one volume, µs times
    with pytest.raises(ParameterError, match=r"01_precise_period needs at least 1.25 days of "
                       r"trace \(sched_history_days = 1 days of history and sched_intervals = 1"):
        check(PrecisePeriodConfig(profile="quick", trace=short))
    long_one = _iops(tmp_path / "long.csv", [(T0 + 3600 * h, "v", 5) for h in range(40)])
    with pytest.raises(ParameterError, match=r"needs at least 4 volume\(s\) \(sched_ssds = 4: "
                       r"each volume is one segment.*it has 1 such of 1 \(v: 40\)"):
        check(PrecisePeriodConfig(profile="quick", trace=long_one))
    with pytest.raises(ParameterError, match=r"04_bid needs individual requests, not an iops"):
        check(BIDConfig(profile="quick", trace=long_one))
    # 14,400 requests: a 7.2 s tenant at 2000 IOPS, short of a 10 s segment
    with pytest.raises(ParameterError, match=r"02_accgecko needs at least 2 volume\(s\) of at "
                       r"least 20,000 requests each \(each volume is a tenant, .* segment_secon"
                       r"ds = 10.*; it has 0 such of 1 \(d0: 14,400\)"):
        check(AccGeckoConfig(profile="quick", trace=short, segment_seconds=10))
    seconds = _alibaba(tmp_path / "whole.csv", T0 + np.repeat(np.arange(100.0), 5))  # 400/499 tie
    with pytest.raises(ParameterError, match=r"05_tofec needs timestamps to 1 ms or finer \(the "
                       r"gaps .*\); this trace's are in whole seconds, and 80.2 % of consecutive"):
        check(TofecConfig(profile="quick", trace=seconds))
    check(TofecConfig(profile="quick", trace=short))  # µs times: taken
    check(TofecConfig(profile="quick"))  # no trace: nothing to check


def test_accgeckos_need_is_its_conversions_own_boundary(tmp_path):
    # a segment's worth at 2000 IOPS gives a tenant its first whole segment; a few fewer, none
    need = needs_of(AccGeckoConfig(profile="quick", segment_seconds=10)).volume_requests
    def two(name, n):  # two tenants of n requests each over 100 s
        times = T0 + np.repeat(np.linspace(0, 100, n), 2)
        return _alibaba(tmp_path / name, times, ["a", "b"] * n)

    enough = two("enough.csv", need)
    tenants = accgecko_tenants(enough, segment_s=10, progress=False)
    assert [t.shape[0] for t in tenants.values()] == [1, 1]
    check(AccGeckoConfig(profile="quick", trace=enough, segment_seconds=10))
    short = two("short.csv", need - 3)
    with pytest.raises(ValueError, match="no tenant spans a whole 10 s segment"):
        accgecko_tenants(short, segment_s=10, progress=False)
    with pytest.raises(ParameterError, match="02_accgecko needs"):
        check(AccGeckoConfig(profile="quick", trace=short, segment_seconds=10))
    one = _alibaba(tmp_path / "one.csv", T0 + np.linspace(0, 100, 2 * need))  # one tenant
    with pytest.raises(ParameterError, match=r"needs at least 2 volume\(s\).*it has 1 such of 1"):
        check(AccGeckoConfig(profile="quick", trace=one, segment_seconds=10))


def test_span_text():
    assert [span_text(s) for s in (5, 90, 7200, 33 * DAY)] == ["5 s", "1.5 min", "2 h", "33 days"]


def test_an_unreadable_trace_names_the_parameter(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("time_s,iops\n")
    with pytest.raises(ParameterError, match=r"parameter 'trace' = .*empty.csv.*header and no"):
        check(VdiConfig(profile="quick", trace=str(empty)))


def test_bid_names_its_windows_by_the_traces_processes(tmp_path):
    times = T0 + np.arange(0, 600, 0.05)  # 12,000 requests of two volumes, alternating
    trace = _alibaba(tmp_path / "two.csv", times, ["a" if i % 2 else "b" for i in range(12_000)])
    words = words_of(BIDConfig(profile="quick", trace=trace))  # 2,000-request windows
    assert words[r"\bGrep\b"] == "window 1 (pids 0, 1)"
    assert words[r"\bWordStdev\b"] == "window 6 (pids 0, 1)" and words[r"\bseeds\b"] == "windows"
    assert words_of(BIDConfig(profile="quick")) == {}  # no trace: no words to change


@pytest.mark.parametrize(("config", "stand_in", "on_trace"), [
    (PrecisePeriodConfig, "the forecasts miss the surrogate's bursts",
     "the forecasts miss the trace's bursts"),
    (AccGeckoConfig, "In this synthetic pool another; the synthetic pool ties",
     "In this trace's pool another; the trace's pool ties"),
    (VdiConfig, "Seed 0's log; on 0 of 2 seeds; a seed", "Replicate 0's log; on 0 of 2 "
     "replicates of the trace; a replicate"),
])
def test_the_stand_ins_words_said_of_a_trace(config, stand_in, on_trace):
    for pattern, words in config.trace_words.items():
        stand_in = re.sub(pattern, words, stand_in)
    assert stand_in == on_trace


def test_a_check_the_runner_passed_is_not_read_again_by_the_kernel(tmp_path, monkeypatch):
    monkeypatch.setattr("storrepro.suite.traces.needs.repo_root", lambda: tmp_path)
    monkeypatch.setattr(needs, "PASSED", set())
    trace = _unequal(tmp_path / "unequal.csv")
    cfg = VdiConfig(profile="quick", trace=trace, trace_days=7.0)
    check(cfg)  # passes: the runner's check
    assert {needs.checked_digest(cfg)} == needs.PASSED
    reads = []
    real = needs.trace_info
    monkeypatch.setattr(needs, "trace_info", lambda *a, **k: reads.append(a) or real(*a, **k))
    monkeypatch.setenv(needs.CHECKED_ENV, ",".join(needs.PASSED))
    check(cfg)  # in the kernel: vouched for, not read
    assert reads == []
    # other parameters, or the file changed since, are checked again (and refused here)
    with pytest.raises(ParameterError, match="needs traffic on every day"):
        check(VdiConfig(profile="quick", trace=trace))
    assert reads
    os.utime(trace, ns=(1, 1))
    reads.clear()
    check(cfg)
    assert reads
    os.remove(trace)
    assert needs.checked_digest(cfg) == ""  # a file that cannot be read vouches for nothing


def test_the_runner_hands_its_passed_checks_to_the_kernels(tmp_path, monkeypatch):
    from storrepro.suite import runner

    monkeypatch.setattr(needs, "PASSED", {"b", "a"})
    with runner.kernel_environment(tmp_path, None, None):
        assert os.environ[needs.CHECKED_ENV] == "a,b"
    monkeypatch.setattr(needs, "PASSED", set())
    with runner.kernel_environment(tmp_path, None, None):
        assert needs.CHECKED_ENV not in os.environ


def test_runs_sharing_build_traces_write_a_selection_once(tmp_path, monkeypatch, capsys):
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr("storrepro.suite.traces.needs.repo_root", lambda: tmp_path)
    trace = _iops(tmp_path / "t.csv", [(T0 + 600 * i, "x", 1 + i % 3) for i in range(300)])
    cfg = VdiConfig(profile="quick", trace=trace, trace_start=0.5)
    written, write = [], needs._write_selection

    def slow_write(*args):
        written.append(args[-1])
        time.sleep(1.0)  # the other run arrives while this one writes
        write(*args)

    monkeypatch.setattr(needs, "_write_selection", slow_write)
    with ThreadPoolExecutor(2) as pool:  # each opens the lock file anew, as a process would
        first, second = pool.map(lambda _: selected(cfg), range(2))
    assert first == second and len(written) == 1 and os.path.exists(first[0])
    assert "waiting for another run making" in capsys.readouterr().out


def test_a_read_only_checkout_keeps_its_selections_in_the_users_cache(tmp_path, monkeypatch):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "build").write_text("")  # as unwritable as a read-only checkout, even for root
    monkeypatch.setattr("storrepro.suite.traces.needs.repo_root", lambda: checkout)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    trace = _iops(tmp_path / "t.csv", [(T0 + 600 * i, "x", 1 + i % 3) for i in range(300)])
    path, fmt = selected(VdiConfig(profile="quick", trace=trace, trace_start=0.5))
    assert path.startswith(str(tmp_path / "cache" / "storrepro" / "traces"))
    assert len(read_trace(path, fmt)) == 300 - 72  # the part after the first half day
