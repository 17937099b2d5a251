"""The tenant pool's run (:mod:`storrepro.papers.accgecko.experiment.sweeps`) on a tiny pool."""

import numpy as np
import pandas as pd
import pytest

from accgecko_samples import tiny_allocations
from storrepro.papers.accgecko import experiment
from storrepro.papers.accgecko.config import AccGeckoConfig
from storrepro.papers.accgecko.experiment import admission_runs, sweeps
from storrepro.papers.accgecko.kernel import dispatch_overhead_us
from storrepro.papers.accgecko.pacer import Replayer
from storrepro.papers.accgecko.workload import G1, generate


@pytest.fixture(scope="module")
def tenant():
    task = sweeps.TenantTask(0, G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 40.0, 20.0, True)
    return sweeps.evaluate_tenant(task, np.random.default_rng(0))


def test_tenant_tables(tenant):
    segs = pd.DataFrame(tenant["segments"])
    every = pd.DataFrame(tenant["allocations"])
    assert set(every.reading) == set(experiment.reading_choices())
    alloc = sweeps.under_reading(every, "primary")
    assert len(segs) == 2 and tenant["model_segment"] in (0, 1)
    assert (segs["p99.99"] >= segs["p99"]).all()
    assert len(alloc) == len(experiment.ACCURACY_METHODS) * 8
    ok = alloc[np.isfinite(alloc.rate)]
    assert (ok.predicted_us <= ok.slo_us + 1e-9).all()  # every allocation meets its prediction
    assert (ok.rate > 2000).all() and np.isfinite(ok.actual_us).all()
    # tighter SLO -> no smaller rate, per method and percentile
    for _, part in ok.groupby(["method", "p"]):
        assert part.sort_values("slo_us").rate.is_monotonic_decreasing
    # a reading that leaves PM's inputs alone gives PM's rows unchanged
    pm = every[every.method == "PM"]
    for label in ("normaliser=segment", "line9=mean_of_rates"):
        assert (pm[pm.reading == label].rate.to_numpy()
                == pm[pm.reading == "primary"].rate.to_numpy()).all()
    explain = pd.DataFrame(tenant["explain"])
    assert set(explain.p) <= {99.0, 99.9}
    assert (explain.top1_in_bursts <= explain.top1_requests).all()


def test_the_pool_hands_out_the_accuracy_tenants_first_and_returns_tenant_order(monkeypatch):
    cfg = AccGeckoConfig(profile="quick", tenants=6, accuracy_tenants=2)
    handed = []

    def fake_sweep(fn, tasks, seed, desc):
        handed.extend(tasks)
        return [{"segments": [{"tenant": t.tenant}], "allocations": [{"tenant": t.tenant}],
                 "explain": [], "pm_original": {"tenant": t.tenant}} for t in tasks]  # fmt: skip

    monkeypatch.setattr(sweeps, "sweep", fake_sweep)
    segments, allocations, _, pm_original = sweeps.run_pool(cfg)
    assert [t.accuracy for t in handed] == [True, True, False, False, False, False]
    assert segments.tenant.tolist() == allocations.tenant.tolist() == list(range(6))
    assert pm_original.index.tolist() == list(range(6))


def test_explain_replay_is_the_replayers_percentile(tenant):
    """The under-prediction experiment's replayed percentile is the modelled segment's own."""
    assert tenant["explain"]
    task = sweeps.TenantTask(0, G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 40.0, 20.0, True)
    rng = np.random.default_rng(0)
    arrivals = generate(task.params, task.duration, rng, task.segment)
    overhead = dispatch_overhead_us(rng, arrivals.size)
    for row in tenant["explain"]:
        seg = tenant["model_segment"]
        lo, hi = np.searchsorted(arrivals, [seg * 20.0, (seg + 1) * 20.0])
        replayer = Replayer(arrivals[lo:hi] - seg * 20.0, overhead[lo:hi])
        assert row["replay_us"] == replayer.percentile_us(row["p"], row["rate"])


def test_original_pm_rows_and_the_shared_queue_admission(tenant):
    """The reading pm=original changes PM's rows only; the tenant carries its envelope and the
    rate limiters' lower bounds, which the safety table counts for PM under that reading."""
    every = pd.DataFrame(tenant["allocations"])
    pm = every[every.method == "PM"]
    orig = pm[pm.reading == experiment.PM_ORIGINAL].rate.to_numpy()
    simple = pm[pm.reading == "primary"].rate.to_numpy()
    assert (orig >= simple).all()  # the original's bound is never tighter
    others = every[(every.method != "PM") & (every.reading == experiment.PM_ORIGINAL)]
    primary = every[(every.method != "PM") & (every.reading == "primary")]
    assert others.rate.tolist() == primary.rate.tolist()
    row = tenant["pm_original"]
    assert len(row["rates"]) == 8 and row["lower_p99"] >= row["limiter_p99"]
    pmo = pd.DataFrame([row, {**row, "tenant": 1}]).set_index("tenant")
    priority = admission_runs.priority_inputs(pmo)
    assert priority["rates"].shape == (2, 8)
    alloc = tiny_allocations()
    alloc = alloc[alloc.tenant < 2]
    runs = admission_runs.admission_runs(alloc, 1e9, 3, "grid", np.random.default_rng(0), priority)
    assert set(runs) == set(experiment.SLO_GRID)
    safe = admission_runs.safety_table(alloc, 1e9, 3, np.random.default_rng(0), priority).set_index(
        ["p", "method"]
    )
    for p in experiment.SLO_GRID:  # PM's tenants are judged by their rate limiters' lower bound
        lower = row[f"lower_p{p:g}"]
        worst = safe.loc[(p, "PM"), "worst actual/SLO"]
        assert lower / max(experiment.SLO_GRID[p]) <= worst <= lower / min(experiment.SLO_GRID[p])
        assert np.isnan(safe.loc[(p, "PM"), "mean rate / mean arrival rate"])


def test_tenant_streams_are_keyed_by_their_listed_fields():
    """A tenant's random stream is keyed by its STREAM fields, spelled as the repr that keyed it
    before STREAM (so no number moved); a field it does not list keys nothing."""
    from dataclasses import fields

    from storrepro.suite.parallel import stream_id

    g1 = G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0)
    task = sweeps.TenantTask(3, g1, 1800.0, 300.0, True)
    assert stream_id(task) == (f"TenantTask(tenant=3, params={g1!r}, duration=1800.0, "
                               "segment=300.0, accuracy=True, readings=True)")  # fmt: skip
    assert tuple(f.name for f in fields(sweeps.TenantTask)) == sweeps.TenantTask.STREAM
    other = sweeps.TenantTask(4, g1, 1800.0, 300.0, True)
    assert stream_id(other) != stream_id(task)
