"""Admission, SLO safety and sensitivity
(:mod:`storrepro.papers.accgecko.experiment.admission_runs`): the greedy rule re-done by hand on
random allocations, each table on its own orders."""

import numpy as np
import pandas as pd
import pytest

from accgecko_samples import tiny_allocations
from storrepro.papers.accgecko import experiment
from storrepro.papers.accgecko.experiment import admission_runs
from storrepro.suite.parallel import task_rng


def test_admission_summary_and_gain():
    runs = {99.0: np.array([[5, 10, 21, 30, 40], [5, 10, 21, 30, 40], [5, 10, 21, 30, 40]])}
    s = admission_runs.admission_summary(runs)
    assert admission_runs.gain(s, 99.0, "AccTail", "SNCM") == pytest.approx(1.1)
    assert admission_runs.separated(s, 99.0)


def test_admission_runs_follow_the_greedy_rule_per_seed():
    alloc = tiny_allocations()
    runs = admission_runs.admission_runs(alloc, 60_000.0, 5, "grid", np.random.default_rng(1))
    rng = np.random.default_rng(1)  # the same draws, by hand: SLOs, then an order, per seed
    for p, grid in experiment.SLO_GRID.items():
        table = alloc[alloc.p == p].set_index(["tenant", "method", "slo_us"]).rate
        for s in range(5):
            slos = rng.choice(grid, 12)
            order = rng.permutation(12)
            for j, m in enumerate(experiment.ADMISSION_METHODS):
                used, admitted = 0.0, 0
                for i in order:
                    if used + table[i, m.name, slos[i]] <= 60_000.0:
                        used += table[i, m.name, slos[i]]
                        admitted += 1
                assert runs[p][s, j] == admitted
    with pytest.raises(ValueError, match="mode"):
        admission_runs.admission_runs(alloc, 60_000.0, 5, "median", np.random.default_rng(1))


def test_sensitivity_cases_each_run_on_their_own_orders(monkeypatch):
    """Every (reading, capacity, assignment) case of T5 is the admission summary of its own
    stream of orders (the same for every reading), in case order, serial or not."""
    monkeypatch.setenv("STORREPRO_WORKERS", "1")
    alloc = pd.concat([tiny_allocations(3).assign(reading=label) for label in ("primary", "x=y")])
    sens = admission_runs.sensitivity_by_reading(alloc, None, ["primary", "x=y"],
                                                 (40_000.0, 90_000.0), 3, 5)  # fmt: skip
    for label in ("primary", "x=y"):
        table = sens[label]
        assert table[["C", "SLOs"]].values.tolist() == [
            [40_000.0, "grid"], [40_000.0, "headline"], [90_000.0, "grid"], [90_000.0, "headline"]
        ]  # fmt: skip
        for _, row in table.iterrows():
            runs = admission_runs.admission_runs(alloc[alloc.reading == label], row.C, 3, row.SLOs,
                                     task_rng(5, ("sensitivity", row.C, row.SLOs)))  # fmt: skip
            s = admission_runs.admission_summary(runs)
            assert row["PM p99"] == s[(s.p == 99.0) & (s.method == "PM")].admitted.item()
            gain = admission_runs.gain(s, 99.0, "AccTail", "SNCM")
            assert row["gain p99 %"] == pytest.approx(100 * gain)


def test_admission_and_safety_per_reading_run_on_their_tables_orders(monkeypatch):
    """Both tables under every reading, each on its table's own stream of orders."""
    monkeypatch.setenv("STORREPRO_WORKERS", "1")
    alloc = pd.concat([tiny_allocations(4).assign(reading=label) for label in ("primary", "x=y")])
    adm, safe, orders, violating = admission_runs.admission_and_safety(
        alloc, None, ["primary", "x=y"], 70_000.0, 3, 8)  # fmt: skip
    for label in ("primary", "x=y"):
        part = alloc[alloc.reading == label]
        runs = admission_runs.admission_runs(part, 70_000.0, 3, "grid", task_rng(8, "admission"))
        assert adm[label].equals(admission_runs.admission_summary(runs))
        table = admission_runs.safety_table(part, 70_000.0, 3, task_rng(8, "safety"))
        assert safe[label].equals(table)
        # one row per order; the orders' mean is the summary's mean admission
        assert orders[label].shape == (3, len(experiment.ADMISSION_METHODS) * 2)
        assert orders[label][("SNCM", 99.0)].mean() == pytest.approx(
            adm[label].set_index(["p", "method"]).loc[(99.0, "SNCM"), "admitted"])
        assert violating[label].shape == (3, len(experiment.ADMISSION_METHODS) * 2)


def test_violating_share_by_order_by_hand():
    """Two tenants, each admitted alone in turn (capacity fits one): tenant 0 violates its SLO
    at every SLO of the grid, tenant 1 none; each order's share is 100 % or 0 %."""
    rows = []
    for tenant, actual in ((0, 1e9), (1, 1.0)):
        for m in experiment.ADMISSION_METHODS:
            for p, grid in experiment.SLO_GRID.items():
                rows += [{"tenant": tenant, "method": m.name, "p": p, "slo_us": slo,
                          "rate": 3000.0, "actual_us": actual} for slo in grid]  # fmt: skip
    rng = np.random.default_rng(1)
    table, by_order = admission_runs._safety(pd.DataFrame(rows), 4000.0, 20, rng)
    shares = by_order[("AccTail", 99.0)]
    assert set(shares) == {0.0, 100.0}
    pooled = table.set_index(["p", "method"]).loc[(99.0, "AccTail"), "violating_%"]
    assert shares.mean() == pytest.approx(pooled)  # one tenant per order: the same mean


def test_safety_table_counts_violations_of_the_admitted():
    alloc = tiny_allocations(2)
    safe = admission_runs.safety_table(alloc, 80_000.0, 4, np.random.default_rng(3))
    safe = safe.set_index(["p", "method"])
    rng = np.random.default_rng(3)
    for p, grid in experiment.SLO_GRID.items():
        table = alloc[alloc.p == p].set_index(["tenant", "method", "slo_us"])
        ratios = {m.name: [] for m in experiment.ADMISSION_METHODS}
        for _ in range(4):
            slos = rng.choice(grid, 12)
            order = rng.permutation(12)
            for m in experiment.ADMISSION_METHODS:
                used = 0.0
                for i in order:
                    row = table.loc[(i, m.name, slos[i])]
                    if used + row.rate <= 80_000.0:
                        used += row.rate
                        ratios[m.name].append(row.actual_us / slos[i])
        for m in experiment.ADMISSION_METHODS:
            got, ratio = safe.loc[(p, m.name)], np.array(ratios[m.name])
            assert got["admitted (all seeds)"] == ratio.size
            assert got["violating_%"] == 100 * np.mean(ratio > 1)
            assert got["worst actual/SLO"] == ratio.max()


def test_sensitivity_row_reads_the_order_and_the_gains():
    runs = {99.0: np.array([[5, 10, 21, 30, 40]] * 3),
            99.9: np.array([[5, 10, 12, 30, 40]] * 3)}
    row = admission_runs.sensitivity_row(admission_runs.admission_summary(runs))
    assert row["T1 holds"] and row["gain p99 %"] == pytest.approx(110.0)
    assert row["gain p99.9 %"] == pytest.approx(20.0)
