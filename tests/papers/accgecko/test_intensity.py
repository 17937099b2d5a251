"""The burst-intensity sensitivity row: tenants set to an intensity, and its admission summary
on hand-made allocations."""

import pandas as pd
import pytest

from storrepro.papers.accgecko import experiment
from storrepro.papers.accgecko.experiment import SLO_GRID, intensity
from storrepro.papers.accgecko.workload import G1, G2, TraceTenant

G1_TENANT = G1(2.0, 1.0, 1.5, 3, 2.5, 4.0, 2.0)
G2_TENANT = G2(3.0, 0.01, 1.5)


def test_at_intensity_sets_every_burst_and_keeps_the_rest():
    g1 = intensity.at_intensity(G1_TENANT, 8.0)
    assert (g1.intensity_lo, g1.intensity_hi) == (8.0, 8.0)
    assert (g1.kappa, g1.clusters_per_s, g1.max_len_ms) == (2.0, 1.0, 3)
    g2 = intensity.at_intensity(G2_TENANT, 10.0)
    assert g2.intensity == 10.0 and g2.burst_share == 0.01


def test_at_intensity_bad_input():
    with pytest.raises(ValueError, match="burst intensity"):
        intensity.at_intensity(G1_TENANT, 0.5)
    with pytest.raises(ValueError, match="G1 or G2"):
        intensity.at_intensity(TraceTenant("v", None), 4.0)


def test_run_checks_the_tenant_count():
    with pytest.raises(ValueError, match="tenants = 3"):
        intensity.intensity_run([G1_TENANT, G2_TENANT], 3, 60.0, 30.0, 0)


def allocations(acctail_rate=4000.0) -> pd.DataFrame:
    """Two tenants: SNC-Meister allocates 8000, AccGecko ``acctail_rate`` and the exact
    reference 5000; AccGecko's allocations miss every SLO by 2×, the others meet it at half."""
    rows = []
    for x in (2.0, 6.0):
        for label in experiment.INTENSITY_LABELS:
            for tenant in (0, 1):
                for method, rate in (("SNCM", 8000.0), ("AccTail", acctail_rate),
                                     ("Exact", 5000.0)):  # fmt: skip
                    for p, grid in SLO_GRID.items():
                        for slo in grid:
                            miss = method == "AccTail"
                            rows.append({"intensity": x, "reading": label, "tenant": tenant,
                                         "method": method, "p": p, "slo_us": slo, "rate": rate,
                                         "actual_us": slo * (2.0 if miss else 0.5)})  # fmt: skip
    return pd.DataFrame(rows)


def test_summary_and_the_row_shown():
    # two candidates on a 10 000 IOPS node: one fits at SNC-Meister's rate, both at the others'
    table = intensity.intensity_summary(allocations(), 10_000.0, 2, 5, 0)
    acc = table[(table.method == "AccTail")]
    assert (acc.admitted == 2).all() and (acc["gain vs SNCM %"] == 100).all()
    assert (acc["violating %"] == 100).all()
    exact = table[table.method == "Exact"]
    assert (exact["violating %"] == 0).all() and (exact["gain vs SNCM %"] == 100).all()
    shown = intensity.intensity_shown(table)
    assert list(shown.index.unique("intensity")) == [2.0, 6.0]
    assert shown.loc[(6.0, 99.9), "AccGecko (literal) violating %"] == 100
    assert shown.loc[(2.0, 99.0), "Exact gain %"] == 100


def test_summary_counts_no_admission_as_undefined():
    table = intensity.intensity_summary(allocations(acctail_rate=20_000.0), 10_000.0, 2, 5, 0)
    acc = table[table.method == "AccTail"]
    assert (acc.admitted == 0).all() and acc["violating %"].isna().all()
    assert (acc["gain vs SNCM %"] == -100).all()
    with pytest.raises(ValueError, match="candidates = 0"):
        intensity.intensity_summary(allocations(), 10_000.0, 0, 5, 0)


def test_evaluate_allocates_every_method_under_both_readings():
    import numpy as np

    task = intensity.IntensityTask(0, G1_TENANT, 6.0, 40.0, 20.0)
    rows = pd.DataFrame(intensity.evaluate_intensity(task, np.random.default_rng(1)))
    slos = sum(len(g) for g in SLO_GRID.values())
    assert len(rows) == len(experiment.INTENSITY_LABELS) * len(experiment.INTENSITY_METHODS) * slos
    exact = rows[rows.method == "Exact"].set_index(["reading", "p", "slo_us"]).rate
    assert (exact.xs("primary").to_numpy() == exact.xs(experiment.LITERAL).to_numpy()).all()
    met = rows[np.isfinite(rows.rate)]
    assert (met.predicted_us <= met.slo_us).all() and (rows.intensity == 6.0).all()


def test_intensity_streams_are_keyed_by_their_listed_fields():
    """Keyed as the repr that keyed them before STREAM, so no number moved."""
    from storrepro.suite.parallel import stream_id

    g1 = G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0)
    task = intensity.IntensityTask(3, g1, 4.0, 1800.0, 300.0)
    assert stream_id(task) == (f"IntensityTask(tenant=3, params={g1!r}, intensity=4.0, "
                               "duration=1800.0, segment=300.0)")  # fmt: skip
