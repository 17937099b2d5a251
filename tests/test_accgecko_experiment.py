"""The notebook's wiring on a tiny pool, and its config."""

import math

import numpy as np
import pandas as pd
import pytest

from storrepro.accgecko import experiment as ex
from storrepro.accgecko.config import AccGeckoConfig
from storrepro.accgecko.pacer import Replayer
from storrepro.accgecko.workload import G1
from storrepro.config import ParameterError
from storrepro.parallel import task_rng


@pytest.fixture(scope="module")
def tenant():
    task = ex.TenantTask(0, G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 40.0, 20.0, True)
    return ex.evaluate_tenant(task, np.random.default_rng(0))


def test_tenant_tables(tenant):
    segs = pd.DataFrame(tenant["segments"])
    every = pd.DataFrame(tenant["allocations"])
    assert set(every.reading) == set(ex.reading_choices())
    alloc = ex.under_reading(every, "primary")
    assert len(segs) == 2 and tenant["model_segment"] in (0, 1)
    assert (segs["p99.99"] >= segs["p99"]).all()
    assert len(alloc) == len(ex.ACCURACY_METHODS) * 8
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
    runs = {99.0: np.array([[5, 10, 21, 30, 40], [5, 10, 21, 30, 40], [5, 10, 21, 30, 40]])}
    s = ex.admission_summary(runs)
    assert ex.gain(s, 99.0, "AccTail", "SNCM") == pytest.approx(1.1)
    assert ex.separated(s, 99.0)


def test_config_profiles_and_checks():
    assert AccGeckoConfig(profile="quick").tenants == 10
    assert AccGeckoConfig(profile="full").duration == 1800.0
    with pytest.raises(ParameterError, match="accuracy_tenants"):
        AccGeckoConfig(profile="quick", tenants=5, accuracy_tenants=6)
    with pytest.raises(ParameterError, match="intensity_tenants"):
        AccGeckoConfig(profile="quick", tenants=5, accuracy_tenants=2, intensity_tenants=6)
    with pytest.raises(ParameterError, match="capacity"):
        AccGeckoConfig(profile="quick", capacity=-1.0)


def test_pm_searches_as_plain_replays_do():
    """PM predicts through one reused replayer (snapshots); the rate search gives the rate a
    fresh replay at every step gives."""
    from storrepro.accgecko.acctail import smallest_rate
    from storrepro.accgecko.baselines import PriorityMeister
    from storrepro.accgecko.pacer import Replayer

    rng = np.random.default_rng(4)
    gaps = rng.exponential(1 / 2000, 30_000)
    gaps[rng.random(gaps.size) < 0.03] /= 30
    arrivals = np.cumsum(gaps)
    pm = PriorityMeister(25.0).fit(arrivals)
    for p in (99.0, 99.9):
        for slo in (200.0, 1000.0):
            reused = smallest_rate(lambda r, p=p: pm.predict(p, r), slo, 2000, 40_000)
            fresh = smallest_rate(lambda r: Replayer(arrivals).max_wait_us(r) + 25.0, slo, 2000,
                                  40_000)  # fmt: skip
            assert reused == fresh


def tiny_allocations(seed=0, tenants=12):
    """Random allocations of the admission methods for every SLO of both grids."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(tenants):
        for m in ex.ADMISSION_METHODS:
            for p, grid in ex.SLO_GRID.items():
                for slo in grid:
                    rate = math.inf if rng.random() < 0.05 else float(rng.integers(3000, 40_000))
                    actual = slo * rng.uniform(0.2, 1.5)
                    rows.append(
                        {
                            "tenant": t,
                            "method": m.name,
                            "p": p,
                            "slo_us": slo,
                            "rate": rate,
                            "actual_us": actual,
                        }  # fmt: skip
                    )
    return pd.DataFrame(rows)


def test_admission_runs_follow_the_greedy_rule_per_seed():
    alloc = tiny_allocations()
    runs = ex.admission_runs(alloc, 60_000.0, 5, "grid", np.random.default_rng(1))
    rng = np.random.default_rng(1)  # the same draws, by hand: SLOs, then an order, per seed
    for p, grid in ex.SLO_GRID.items():
        table = alloc[alloc.p == p].set_index(["tenant", "method", "slo_us"]).rate
        for s in range(5):
            slos = rng.choice(grid, 12)
            order = rng.permutation(12)
            for j, m in enumerate(ex.ADMISSION_METHODS):
                used, admitted = 0.0, 0
                for i in order:
                    if used + table[i, m.name, slos[i]] <= 60_000.0:
                        used += table[i, m.name, slos[i]]
                        admitted += 1
                assert runs[p][s, j] == admitted
    with pytest.raises(ValueError, match="mode"):
        ex.admission_runs(alloc, 60_000.0, 5, "median", np.random.default_rng(1))


def test_sensitivity_cases_each_run_on_their_own_orders(monkeypatch):
    """Every (reading, capacity, assignment) case of T5 is the admission summary of its own
    stream of orders (the same for every reading), in case order, serial or not."""
    monkeypatch.setenv("STORREPRO_WORKERS", "1")
    alloc = pd.concat([tiny_allocations(3).assign(reading=label) for label in ("primary", "x=y")])
    sens = ex.sensitivity_by_reading(alloc, None, ["primary", "x=y"], (40_000.0, 90_000.0), 3, 5)
    for label in ("primary", "x=y"):
        table = sens[label]
        assert table[["C", "SLOs"]].values.tolist() == [
            [40_000.0, "grid"], [40_000.0, "headline"], [90_000.0, "grid"], [90_000.0, "headline"]
        ]  # fmt: skip
        for _, row in table.iterrows():
            runs = ex.admission_runs(alloc[alloc.reading == label], row.C, 3, row.SLOs,
                                     task_rng(5, ("sensitivity", row.C, row.SLOs)))  # fmt: skip
            s = ex.admission_summary(runs)
            assert row["PM p99"] == s[(s.p == 99.0) & (s.method == "PM")].admitted.item()
            assert row["gain p99 %"] == pytest.approx(100 * ex.gain(s, 99.0, "AccTail", "SNCM"))


def test_admission_and_safety_per_reading_run_on_their_tables_orders(monkeypatch):
    """Both tables under every reading, each on its table's own stream of orders."""
    monkeypatch.setenv("STORREPRO_WORKERS", "1")
    alloc = pd.concat([tiny_allocations(4).assign(reading=label) for label in ("primary", "x=y")])
    adm, safe, orders, violating = ex.admission_and_safety(alloc, None, ["primary", "x=y"],
                                                            70_000.0, 3, 8)  # fmt: skip
    for label in ("primary", "x=y"):
        part = alloc[alloc.reading == label]
        runs = ex.admission_runs(part, 70_000.0, 3, "grid", task_rng(8, "admission"))
        assert adm[label].equals(ex.admission_summary(runs))
        assert safe[label].equals(ex.safety_table(part, 70_000.0, 3, task_rng(8, "safety")))
        # one row per order; the orders' mean is the summary's mean admission
        assert orders[label].shape == (3, len(ex.ADMISSION_METHODS) * 2)
        assert orders[label][("SNCM", 99.0)].mean() == pytest.approx(
            adm[label].set_index(["p", "method"]).loc[(99.0, "SNCM"), "admitted"])
        assert violating[label].shape == (3, len(ex.ADMISSION_METHODS) * 2)


def test_violating_share_by_order_by_hand():
    """Two tenants, each admitted alone in turn (capacity fits one): tenant 0 violates its SLO
    at every SLO of the grid, tenant 1 none; each order's share is 100 % or 0 %."""
    rows = []
    for tenant, actual in ((0, 1e9), (1, 1.0)):
        for m in ex.ADMISSION_METHODS:
            for p, grid in ex.SLO_GRID.items():
                rows += [{"tenant": tenant, "method": m.name, "p": p, "slo_us": slo,
                          "rate": 3000.0, "actual_us": actual} for slo in grid]  # fmt: skip
    table, by_order = ex._safety(pd.DataFrame(rows), 4000.0, 20, np.random.default_rng(1))
    shares = by_order[("AccTail", 99.0)]
    assert set(shares) == {0.0, 100.0}
    pooled = table.set_index(["p", "method"]).loc[(99.0, "AccTail"), "violating_%"]
    assert shares.mean() == pytest.approx(pooled)  # one tenant per order: the same mean


def test_the_pool_hands_out_the_accuracy_tenants_first_and_returns_tenant_order(monkeypatch):
    cfg = AccGeckoConfig(profile="quick", tenants=6, accuracy_tenants=2)
    handed = []

    def fake_sweep(fn, tasks, seed, desc):
        handed.extend(tasks)
        return [{"segments": [{"tenant": t.tenant}], "allocations": [{"tenant": t.tenant}],
                 "explain": [], "pm_original": {"tenant": t.tenant}} for t in tasks]  # fmt: skip

    monkeypatch.setattr(ex, "sweep", fake_sweep)
    segments, allocations, _, pm_original = ex.run_pool(cfg)
    assert [t.accuracy for t in handed] == [True, True, False, False, False, False]
    assert segments.tenant.tolist() == allocations.tenant.tolist() == list(range(6))
    assert pm_original.index.tolist() == list(range(6))


def test_safety_table_counts_violations_of_the_admitted():
    alloc = tiny_allocations(2)
    safe = ex.safety_table(alloc, 80_000.0, 4, np.random.default_rng(3)).set_index(["p", "method"])
    rng = np.random.default_rng(3)
    for p, grid in ex.SLO_GRID.items():
        table = alloc[alloc.p == p].set_index(["tenant", "method", "slo_us"])
        ratios = {m.name: [] for m in ex.ADMISSION_METHODS}
        for _ in range(4):
            slos = rng.choice(grid, 12)
            order = rng.permutation(12)
            for m in ex.ADMISSION_METHODS:
                used = 0.0
                for i in order:
                    row = table.loc[(i, m.name, slos[i])]
                    if used + row.rate <= 80_000.0:
                        used += row.rate
                        ratios[m.name].append(row.actual_us / slos[i])
        for m in ex.ADMISSION_METHODS:
            got, ratio = safe.loc[(p, m.name)], np.array(ratios[m.name])
            assert got["admitted (all seeds)"] == ratio.size
            assert got["violating_%"] == 100 * np.mean(ratio > 1)
            assert got["worst actual/SLO"] == ratio.max()


def test_live_trace_allocates_where_acctail_predicts_and_replays_the_truth():
    live = ex.LiveTrace.generate(
        G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 20.0, np.random.default_rng(6)
    )
    table = live.acctail(1.5, 3)
    assert table.index.tolist() == list(ex.SLO_GRID[99.0])
    ok = table[np.isfinite(table["rate (IOPS)"])]
    assert (ok["predicted (µs)"] <= ok.index).all() and (ok["rate (IOPS)"] >= 3000).all()
    arrivals, overhead = live.replayer.arrivals, live.replayer.overhead_us
    fresh = [Replayer(arrivals, overhead).percentile_us(99.0, r) for r in ok["rate (IOPS)"]]
    assert ok["true (µs)"].tolist() == fresh


def test_explain_replay_is_the_replayers_percentile(tenant):
    """The under-prediction experiment's replayed percentile is the modelled segment's own."""
    assert tenant["explain"]
    task = ex.TenantTask(0, G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 40.0, 20.0, True)
    rng = np.random.default_rng(0)
    arrivals = ex.generate(task.params, task.duration, rng, task.segment)
    overhead = ex.dispatch_overhead_us(rng, arrivals.size)
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
    orig = pm[pm.reading == ex.PM_ORIGINAL].rate.to_numpy()
    simple = pm[pm.reading == "primary"].rate.to_numpy()
    assert (orig >= simple).all()  # the original's bound is never tighter
    others = every[(every.method != "PM") & (every.reading == ex.PM_ORIGINAL)]
    primary = every[(every.method != "PM") & (every.reading == "primary")]
    assert others.rate.tolist() == primary.rate.tolist()
    row = tenant["pm_original"]
    assert len(row["rates"]) == 8 and row["lower_p99"] >= row["limiter_p99"]
    pmo = pd.DataFrame([row, {**row, "tenant": 1}]).set_index("tenant")
    priority = ex.priority_inputs(pmo)
    assert priority["rates"].shape == (2, 8)
    alloc = tiny_allocations()
    alloc = alloc[alloc.tenant < 2]
    runs = ex.admission_runs(alloc, 1e9, 3, "grid", np.random.default_rng(0), priority)
    assert set(runs) == set(ex.SLO_GRID)
    safe = ex.safety_table(alloc, 1e9, 3, np.random.default_rng(0), priority).set_index(
        ["p", "method"]
    )
    for p in ex.SLO_GRID:  # PM's tenants are judged by their rate limiters' lower bound
        lower = row[f"lower_p{p:g}"]
        worst = safe.loc[(p, "PM"), "worst actual/SLO"]
        assert lower / max(ex.SLO_GRID[p]) <= worst <= lower / min(ex.SLO_GRID[p])
        assert np.isnan(safe.loc[(p, "PM"), "mean rate / mean arrival rate"])
