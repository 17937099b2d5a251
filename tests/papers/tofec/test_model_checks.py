"""The model checks' tables (:mod:`storrepro.papers.tofec.model_checks`): thresholds, separability,
the backlog model and the fit, on the pilot fit and hand-built grids."""

import numpy as np
import pytest

from storrepro.papers.tofec import model_checks as mc
from storrepro.papers.tofec.analysis import Setting, thresholds
from storrepro.papers.tofec.delay import SUR, ModelParams
from storrepro.papers.tofec.metrics import GridResults
from tofec_samples import hand_summary

PILOT = Setting(ModelParams(26.0, 48.9, 8.44, 10.7))


def test_threshold_table_holds_the_midpoints():
    table = mc.threshold_table(PILOT)
    assert list(table.index) == list(range(1, 13)) and table.index.name == "n or k"
    q = table["Q(n)"].to_numpy()
    assert table["T^n"].iloc[0] == pytest.approx((q[0] + q[1]) / 2)
    np.testing.assert_allclose(table["T^n"].iloc[:-1], thresholds(q))
    assert table["T^n"].iloc[-1] == 0.0 and table["T̃^k"].notna().sum() == 6


def test_separability_holds_for_the_pilot_fit():
    gap, table = mc.separability(PILOT)
    assert gap < 1e-6
    assert table.shape == (4, 2)
    assert table.loc["k class 1"].iloc[0] == pytest.approx(table.loc["k class 1"].iloc[1])


def test_backlog_check_keeps_the_high_rates():
    grid = GridResults(hand_summary(), c_full=5.0, u11=200.0)
    assert mc.backlog_check(grid, 16).empty  # no rate >= 40 req/s
    table = mc.backlog_check(grid, 16, from_rate=5.0)
    assert table.loc[5.0, "Eq. (11)"] == pytest.approx(1 / 240)


def test_fit_table_sets_the_pilot_beside_the_fit():
    table = mc.fit_table(ModelParams(1.0, 2.0, 3.0, 4.0))
    assert table.fitted.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert table.pilot.tolist() == [26.0, 48.9, 8.44, 10.7]


@pytest.mark.parametrize("codes", [None, [(1, 1)], [(2, 1), (3, 2), (1, 1), (4, 2), (6, 3)]])
def test_capacities_from_shared_delay_tables_equal_each_code_alone(codes):
    # the codes of one k read one delay table as wide as the widest of them; k interleaved and
    # a lone code included, every figure bit-equal to the code's own order statistics
    blocks = SUR.draw(np.random.default_rng(3), 2000)
    table = mc.mc_capacities(SUR, np.random.default_rng(3), 2000, codes=codes)
    for (n, k), row in table.iterrows():
        service, cost = mc.order_statistics(SUR, blocks, n, k)
        assert (row.service_mean, row.cost_mean) == (service.mean(), cost.mean())
        assert row.service_median == float(np.median(service))
