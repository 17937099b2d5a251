"""The disk models against the BID authors' reference values (notebook 00's V8/V9, notebook 04's
D1/D2): the tables, each claim on an input where it holds and where it fails, and the figure."""

import matplotlib.pyplot as plt
import pytest

from storrepro.sim import disk_checks


def test_reference_tables_match_the_models():
    hdd = disk_checks.hdd_reference_checks()
    assert len(hdd) == 9 and hdd.abs_error_ms.max() < 1e-6
    assert (hdd.reference_d == hdd.model_d).all()
    ssd = disk_checks.ssd_reference_checks()
    assert len(ssd) == 4 and ssd.abs_error_ms.max() < 1e-6


def test_hdd_claim_holds_and_fails_on_a_time_or_a_seek_distance():
    hdd = disk_checks.hdd_reference_checks()
    claim = disk_checks.hdd_reference_claim(hdd, "V8")
    assert (claim.id, claim.verdict, claim.role) == ("V8", "reproduced", "invariant")
    slow = hdd.copy()
    slow.loc[slow.index[0], "abs_error_ms"] = 0.1
    failed = disk_checks.hdd_reference_claim(slow, "D1")
    assert (failed.id, failed.verdict) == ("D1", "not reproduced")
    assert "0.1 ms" in failed.reason and "differs from the reference" in failed.reason
    moved = hdd.copy()
    moved.loc[moved.index[4], "model_d"] = 2  # reference d = 1
    failed = disk_checks.hdd_reference_claim(moved, "V8")
    assert failed.verdict == "not reproduced" and failed.values["same_seek_distances"] is False


def test_ssd_claim_holds_and_fails():
    ssd = disk_checks.ssd_reference_checks()
    assert disk_checks.ssd_reference_claim(ssd, "V9").verdict == "reproduced"
    ssd.loc[ssd.index[-1], "abs_error_ms"] = 2e-6
    failed = disk_checks.ssd_reference_claim(ssd, "D2")
    assert (failed.id, failed.verdict) == ("D2", "not reproduced")
    assert failed.values["max_abs_error_ms"] == pytest.approx(2e-6)


def test_seek_curve_runs_from_the_fixed_cost_to_the_full_stroke():
    # no seek: the 6.2 ms fixed cost; a full stroke: 6.2 + 15.6 = 21.8 ms (HDD_REFERENCE)
    curve = disk_checks.hdd_seek_curve(points=20)
    assert curve.distance.iloc[0] == 0 and curve.time_ms.iloc[0] == pytest.approx(6.2)
    assert curve.time_ms.iloc[-1] == pytest.approx(21.8, abs=1e-4)
    assert curve.time_ms.is_monotonic_increasing
    fig = disk_checks.seek_curve_figure(curve)
    line, fixed = fig.axes[0].lines
    assert list(line.get_ydata()) == list(curve.time_ms) and set(fixed.get_ydata()) == {6.2}
    plt.close(fig)
