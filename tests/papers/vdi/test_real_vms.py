"""The forecasting study on real VMs, on small made series of the real file's format."""

from functools import partial

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.vdi import claims as vc
from storrepro.papers.vdi.config import VdiConfig
from storrepro.papers.vdi.experiment import real_vms as rs
from storrepro.suite.data.real_vms import PER_DAY, load_real_vms
from storrepro.suite.parallel import sweep
from storrepro.suite.table import judge_row

SERIAL = partial(sweep, seed=0, workers=1, progress=False)


def daily(days: int, seed: int = 0, extra: int = 0) -> np.ndarray:
    """``days`` of a daily cycle with noise, after ``extra`` leading snapshots."""
    rng = np.random.default_rng(seed)
    t = np.arange(days * PER_DAY + extra)
    return np.round(1000 + 800 * np.sin(2 * np.pi * t / PER_DAY) + rng.normal(0, 50, t.size))


def test_a_vm_enters_with_the_look_back_plus_a_day_and_when_not_mostly_idle():
    assert rs.exclusion(daily(4)) == ""
    assert rs.exclusion(daily(3, extra=47)).startswith("too short: 3 whole days")
    idle = daily(5)
    idle[: 3 * PER_DAY] = 0
    assert rs.exclusion(idle).startswith("mostly idle: 60%")
    days = rs.days_of(daily(4, extra=5))  # the leading part day is dropped
    assert days.shape == (4, PER_DAY)
    np.testing.assert_array_equal(days[-1], daily(4, extra=5)[-PER_DAY:])


def test_the_study_scores_each_model_where_the_vm_has_its_look_back():
    series = {"long": daily(10, 1), "week": daily(5, 2), "short": daily(2, 3)}
    scores, excluded = rs.forecast_study(series, 0.5, SERIAL)
    assert excluded.to_dict("records") == [{"vm": "short", "why": "too short: 2 whole days, "
                                            "fewer than 4"}]
    models = scores.groupby("vm").model.apply(set)
    assert {"holt-winters-9d", "arima-ridge"} <= models["long"]
    assert not {"holt-winters-9d", "arima-ridge"} & models["week"]
    assert set(scores[scores.model == "proposed"].alpha) == {0.5, 0.1, 0.3, 0.7, 0.9}
    table = rs.real_table(scores, 0.5)
    assert list(table.index) == ["long", "week"] and np.isnan(table.loc["week", "arima"])
    assert table.loc["week", "proposed"] < 20  # a clean daily cycle forecasts well
    # each forecasting reading reads its variant
    three = rs.real_table(scores, 0.5, "train_window=all-3")
    assert np.isfinite(three.loc["week", "arima"])
    nine = rs.real_table(scores, 0.5, "train_window=hw-9")
    assert np.isnan(nine.loc["week", "holt-winters"])
    hot = rs.real_table(scores, 0.5, "forecast_alpha=0.7").proposed
    at = scores[(scores.model == "proposed") & (scores.alpha == 0.7)].set_index("vm").smape
    pd.testing.assert_series_equal(hot, at.reindex(hot.index), check_names=False)
    with pytest.raises(ValueError, match="unknown forecasting reading"):
        rs.real_table(scores, 0.5, "pool=prototype")


def test_without_a_file_the_claims_are_not_checkable_naming_source_and_parameter():
    assert rs.load("", 0) is None
    inputs = rs.claim_inputs(None, None, 0.5)
    claim = judge_row(vc.rows("F5-real")[0], vc, inputs, {})
    assert claim.verdict == "not checkable" and claim.role == "test"
    assert "BlockTraceFeatures" in claim.reason and "`real_vms`" in claim.reason
    assert judge_row(vc.rows("F10-real")[0], vc, inputs, {}).role == "analysis"


def test_a_made_file_runs_through_the_parameter(tmp_path):
    path = tmp_path / "vms.csv"
    rows = ["vm,interval,requests,ts"] + [f"w1,{k},{int(c)},{(k + 1) * 1800000000}"
                                          for k, c in enumerate(daily(4))]
    path.write_text("\n".join(rows) + "\n")
    cfg = VdiConfig(profile="quick", real_vms=str(path))
    assert cfg.real_vms == str(path)
    vms = rs.load(cfg.real_vms, cfg.real_vm_limit)
    scores, _ = rs.forecast_study(vms.series, cfg.alpha, SERIAL)
    claim = judge_row(vc.rows("F5-real")[0], vc, rs.claim_inputs(vms, scores, cfg.alpha), {})
    assert claim.values["n_vms"] == 1 and vms.sha256[:16] in claim.reason
    assert load_real_vms(path).sha256 == vms.sha256
