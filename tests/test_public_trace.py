"""A real public block trace through the readers, the conversions and the notebooks: the 2-hour
CloudPhysics VM trace in libCacheSim's source distribution (fetched by pip on first use into the
git-ignored data/ cache, pinned by SHA-256); every test here skips, with the reason, without it."""

import json
import re
import subprocess

import pytest

from helpers import ON_PUBLIC_TRACE, REAL_DATA_KEY, RESULT_KEYS
from storrepro.papers.accgecko.config import AccGeckoConfig
from storrepro.papers.accgecko.workload import accgecko_tenants
from storrepro.papers.bid.workload import WORKLOADS, bid_trace
from storrepro.papers.periodicity.config import PrecisePeriodConfig
from storrepro.papers.periodicity.workload import SurrogateSpec, from_trace, precise_period_segments
from storrepro.papers.vdi.workload import vdi_foreground
from storrepro.suite.config import ParameterError
from storrepro.suite.data.cloudphysics import TraceUnavailable, cloudphysics_trace
from storrepro.suite.notebooks import config_class
from storrepro.suite.traces.needs import check
from storrepro.suite.traces.summary import trace_info

REQUESTS, READS = 113_872, 46_974


@pytest.fixture(scope="module")
def trace():
    try:
        return cloudphysics_trace()
    except TraceUnavailable as error:
        pytest.skip(f"the public CloudPhysics trace is not available: {error}")


def test_the_trace_reads_as_published(trace):
    info = trace_info(trace, progress=False)
    assert (info.format, info.requests, list(info.volumes)) == ("vscsi", REQUESTS, ["0"])
    assert info.read_share == pytest.approx(READS / REQUESTS)  # 41 %
    assert info.duration_s == pytest.approx(7200.09, abs=0.01) and info.time_sorted
    assert info.resolution is None and info.tie_share == 0 and info.warnings() == []
    assert "timestamps  finer than 1 ms; 0.0 % of consecutive requests tie" in info.describe()


def test_every_conversion_keeps_every_request(trace):
    vdi = vdi_foreground(trace, progress=False)
    assert len(vdi) == 13 and vdi.sum() * 600 == pytest.approx(REQUESTS)
    assert precise_period_segments(trace, progress=False).to_numpy().sum() == REQUESTS
    streams = bid_trace(trace, progress=False)
    assert len(streams) == REQUESTS and streams.ts.iloc[-1] == pytest.approx(7200.09e3, abs=10)
    tenants = accgecko_tenants(trace, progress=False, segment_s=10.0)
    (counts,) = tenants.values()  # 2 h at 15.8 IOPS is 57 s at 2000 IOPS: 5 whole segments
    rescaled = (streams.ts / 1e3) * (REQUESTS / trace_info(trace, progress=False).duration_s) / 2000
    assert counts.shape == (5, 10_000) and counts.sum() == (rescaled < 50).sum()


#: The notebooks that run on the trace in the quick profile (the rest say below why they cannot),
#: in the quick run the notebook tests share (conftest.quick_runs).
RUNS = ON_PUBLIC_TRACE


@pytest.fixture(scope="module")
def runs(trace, quick_runs):
    return lambda name: quick_runs(name)[1]


@pytest.mark.notebook
@pytest.mark.parametrize("name", RUNS)
def test_notebook_runs_on_the_public_trace(runs, trace, name):
    result = runs(name)
    assert set(result) - {REAL_DATA_KEY} == RESULT_KEYS
    assert result["input"].startswith(f"trace {trace.name}")
    assert result["claims"] and result["parameters"]["trace"] == str(trace)


#: Words of the stand-in a notebook's results must not use on a user's trace.
STAND_IN_WORDS = {
    "03_vdi_background": r"\b[Ss]eeds?\b",  # every replicate reads the same trace
    "04_bid": r"\b(" + "|".join(WORKLOADS) + r")\b",  # its windows are named by processes
    "05_tofec": r"^$",
}


@pytest.mark.notebook
@pytest.mark.parametrize("name", RUNS)
def test_results_on_the_public_trace_speak_of_the_trace(runs, name):
    result, driven = runs(name), config_class(name).trace_claims
    assert not re.search(r"\bnan\b", json.dumps(result["headline"]), re.IGNORECASE)
    for claim in result["claims"]:
        text = claim["reason"] + " " + claim["reproduced_value"]
        assert not re.search(r"\bnan\b", text, re.IGNORECASE), (claim["id"], text)
        if driven is not None and claim["id"] not in driven:
            assert "user's trace" not in text, claim["id"]  # its inputs stay the stand-in's
            continue
        assert not re.search(STAND_IN_WORDS[name], text), (claim["id"], text)
        if claim["role"] == "calibration":
            assert claim["verdict"] == "not checkable" and claim["reason"].startswith(
                "Not applicable: a target fitted to the synthetic stand-in"), claim["id"]


def test_precise_period_and_accgecko_refuse_it_before_any_work_and_say_why(trace):
    # 01's scheduling study puts one volume on each of sched_ssds SSDs and needs days of
    # history; 02's intervals are over tenants (volumes), at least two
    with pytest.raises(ParameterError, match=r"01_precise_period needs at least 1.25 days of "
                       r"trace .*; it spans 2 h"):
        check(PrecisePeriodConfig(profile="quick", trace=str(trace)))
    quick = PrecisePeriodConfig(profile="quick")
    spec = SurrogateSpec(ssds=quick.sched_ssds, history_days=quick.sched_history_days,
                         intervals=quick.sched_intervals)
    with pytest.raises(ValueError, match="1 volumes, expected at least sched_ssds = 4"):
        from_trace(trace, spec)  # the conversion's own check agrees
    with pytest.raises(ParameterError, match=r"02_accgecko needs at least 2 volume\(s\) of at "
                       r"least 120,000 requests each .*; it has 0 such of 1 \(0: 113,872\)"):
        check(AccGeckoConfig(profile="quick", trace=str(trace)))


def test_a_failed_fetch_or_a_changed_file_is_said_and_nothing_kept(tmp_path, monkeypatch):
    from storrepro.suite.data import cloudphysics

    def no_network(command, **kwargs):
        assert command[1:4] == ["-m", "pip", "download"] and cloudphysics.PACKAGE in command
        return subprocess.CompletedProcess(command, 1, "", "ERROR: No matching distribution\n")

    monkeypatch.setattr(cloudphysics.subprocess, "run", no_network)
    target = tmp_path / "trace.vscsi"
    with pytest.raises(TraceUnavailable, match="pip could not fetch .* No matching distribution"):
        cloudphysics_trace(target)
    assert not target.exists()
    target.write_bytes(b"\0" * 64)
    with pytest.raises(TraceUnavailable, match="trace.vscsi has SHA-256 .*delete it"):
        cloudphysics_trace(target)
