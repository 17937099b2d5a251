"""A real trace in place of the synthetic pool: its volumes become the tenants, each rescaled to
2000 IOPS, counted per 1 ms and cut into whole segments, on a small MSR file written here."""

import numpy as np
import pytest

from storrepro.papers.accgecko.config import AccGeckoConfig
from storrepro.papers.accgecko.experiment import sweeps
from storrepro.papers.accgecko.workload import TraceTenant, generate, trace_tenants
from storrepro.suite.traces.formats import FILETIME_UNIX_EPOCH

T0 = 1_600_000_000  # Unix seconds of the first request


def msr_trace(path, disks=2, requests=600, rate=1000.0):
    """``requests`` per disk at ``rate`` IOPS, evenly spaced; disk d starts d/4 ms later."""
    lines = []
    for i in range(requests):
        for d in range(disks):
            ticks = FILETIME_UNIX_EPOCH + round((T0 + i / rate + d * 2.5e-4) * 1e7)
            lines.append(f"{ticks},web,{d},Read,{4096 * i},4096,100")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_trace_tenants_rescale_count_per_ms_and_cut_segments(tmp_path):
    # 600 requests at 1000 IOPS (0.6 s) per disk; at 2000 IOPS they span 0.3 s: three whole
    # 0.1 s segments of 100 ms, each ms holding the requests of 2 ms of the original: 2
    path = msr_trace(tmp_path / "msr.csv")
    tenants = trace_tenants(str(path), "", 0.1, limit=10, segments=6)
    assert [t.name for t in tenants] == ["web_0", "web_1"]
    for tenant in tenants:
        assert tenant.counts.size == 300 and tenant.duration == pytest.approx(0.3)
        assert np.all(tenant.counts[:-1] == 2)  # disk 1, 0.25 ms late, spills one past the end
    assert tenants[0].counts[-1] == 2
    assert len(trace_tenants(str(path), "msr", 0.1, limit=1, segments=2)) == 1
    assert trace_tenants(str(path), "msr", 0.1, limit=1, segments=2)[0].counts.size == 200


def test_a_trace_tenant_is_replayed_with_its_own_counts(tmp_path):
    tenant = TraceTenant("v", np.array([2, 0, 3, 1]))
    arrivals = generate(tenant, 0.004, np.random.default_rng(0))
    assert np.bincount((arrivals * 1e3).astype(int), minlength=4).tolist() == [2, 0, 3, 1]
    assert np.all(np.diff(arrivals) >= 0)
    with pytest.raises(ValueError, match="spans only"):
        generate(tenant, 0.005, np.random.default_rng(0))


def test_config_and_tasks_take_the_trace(tmp_path):
    path = msr_trace(tmp_path / "msr.csv", disks=3, requests=40_000, rate=2000.0)
    cfg = AccGeckoConfig(profile="quick", trace=str(path), segment_seconds=10.0, segments=2,
                         accuracy_tenants=2)  # fmt: skip
    assert cfg.input_description().startswith("trace msr.csv")
    tasks = sweeps.tenant_tasks(cfg)
    assert len(tasks) == 3 and sum(t.accuracy for t in tasks) == 2
    assert all(t.duration == 20.0 and isinstance(t.params, TraceTenant) for t in tasks)
    row = sweeps.segment_table(
        generate(tasks[0].params, 20.0, np.random.default_rng(1)),
        np.full(40_000, 20.0),
        tasks[0].params.counts,
        tasks[0],
        2.0,
    )[0]
    assert row["generator"] == "trace"
    # evenly spaced requests at the mean rate, 2 per ms: no burst state, no continuous burst
    assert row["continuous_bursts"] == 0 and row["intensity"] == 0.0
    assert row["total_burst_ms"] == 0.0 and row["p99"] >= 20.0
