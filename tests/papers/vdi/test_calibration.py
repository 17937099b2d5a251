"""The fixed baseline's calibration (:mod:`storrepro.papers.vdi.experiment.calibration`): its score,
and each ramp run once."""

from functools import partial

import pytest

from storrepro.papers.vdi.config import SystemParams
from storrepro.papers.vdi.experiment import calibration, runs
from storrepro.suite.parallel import sweep


def test_calibration_score_is_zero_at_the_paper_and_weighs_by_the_s4_bands():
    assert calibration.calibration_score(54.6, 21.7) == 0.0
    assert calibration.calibration_score(64.6, 21.7) == pytest.approx(1.0)
    assert calibration.calibration_score(54.6, 10.7) == pytest.approx(1.0)


def test_calibration_runs_each_ramp_once_and_keeps_the_row_order():
    serial = partial(sweep, seed=0, workers=1, progress=False)
    table = calibration.calibrate_fixed(0, 1, SystemParams(), serial)
    grid = set(calibration.RAMP_GRID)
    assert set(table.index) == grid and len(table) == len(grid)
    assert table.score.is_monotonic_increasing
    for ramp in [(8, 32), (24, 64)]:
        run = runs.run_policy(runs.RunTask(0, 0, "fixed", n_min=ramp[0], n_agg=ramp[1]), None)
        assert table.loc[ramp, "violation_pct"] == run["violation_pct"]
        assert table.loc[ramp, "queued_pct"] == run["queued_pct"]
