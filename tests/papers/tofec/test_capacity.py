"""TOFEC's capacity claims: each rule on an input where it holds and one where it fails."""

import numpy as np
import pandas as pd

from storrepro.papers.tofec.claims import capacity, pick
from storrepro.suite.table import judge_row


def near(x, spread=0.005, n=5):
    return x + spread * np.linspace(-1, 1, n)


def judged(cid, **inputs):
    return judge_row(pick(capacity.TABLE, cid)[0], capacity, inputs, {})


def test_a1_sat_is_judged_on_the_deciding_code_with_the_approx_band():
    fine = judged("A1-sat", cap_seeds={(1, 1): near(1.01), (12, 6): near(1.037)}, n_threads=16)
    assert fine.verdict == "reproduced" and fine.values["worst_code"] == [12, 6]
    assert "does not divide L = 16" in fine.reason and "pilot" not in fine.reason
    off = judged("A1-sat", cap_seeds={(1, 1): near(1.0), (8, 4): near(1.25)}, n_threads=16)
    assert off.verdict == "not reproduced" and "does not divide" not in off.reason
    straddle = judged("A1-sat", cap_seeds={(1, 1): near(1.0), (8, 4): near(1.15, 0.1)},
                      n_threads=16)
    assert straddle.verdict == "inconclusive" and straddle.uncertainty["n"] == 5


def test_capacity_ratios_are_calibrations_that_fail_when_the_calibration_drifts():
    ratios = pd.Series({(2, 1): 0.69, (6, 6): 0.40, (12, 6): 0.25})
    drifted = pd.Series({(2, 1): 0.55, (6, 6): 0.55, (12, 6): 0.40})
    for cid in ("B2-21", "B2-66", "B2-126"):
        assert judged(cid, ratios=ratios).verdict == "reproduced", cid
        miss = judged(cid, ratios=drifted)
        assert miss.verdict == "not reproduced" and "drifted" in miss.reason, cid
        assert miss.role == "calibration" and miss.uncertainty is None


class Demo:
    """What ``experiment.capacity_demo`` gives the claims."""

    def __init__(self, tofec=78.0, throughput=0.91, trend=1.0, fixed_k=0.25):
        self.demo = {"saturated": pd.DataFrame({"throughput": [tofec, 78.0]},
                                               index=["TOFEC", "Greedy"]).throughput.to_frame(),
                     "replication": pd.Series({"throughput": throughput, "arrival_rate": 1.0,
                                               "trend": trend}),
                     "fixed_k": {0.9: fixed_k}}


def test_saturation_is_an_invariant_and_fails_without_the_fallback_to_basic():
    inputs = {"demo": Demo().demo, "c_full": 78.2}
    assert judged("B3-sat-TOFEC", **inputs).verdict == "reproduced"
    lost = judged("B3-sat-TOFEC", demo=Demo(tofec=60.0).demo, c_full=78.2)
    assert lost.verdict == "not reproduced" and lost.role == "invariant"


class Grid:
    """The runs at 0.95·C_full of one policy (a stand-in for ``metrics.GridResults``)."""

    def __init__(self, ratios, trends):
        self.rates, self.c_full = [74.0], 78.0
        self.rows = pd.DataFrame({"throughput": ratios, "arrival_rate": 1.0, "trend": trends})

    def seed_rows(self, policy, rate):
        return self.rows


def test_stable_at_095_fails_on_lost_throughput_or_any_trend():
    def stable(ratios, trends):
        return judged("B3-0.95-TOFEC", grid=Grid(ratios, trends), alpha=0.9)

    assert stable(near(1.0, 0.002), [0] * 5).verdict == "reproduced"
    assert stable(near(0.95), [0] * 5).verdict == "not reproduced"
    trend = stable(near(1.0, 0.002), [0, 0, 1, 0, 0])
    assert trend.verdict == "not reproduced" and "queue grows" in trend.reason


def test_replication_fails_beyond_70_percent_and_fixed_k_below_30():
    assert judged("B3-21", demo=Demo().demo, c_full=78.0).verdict == "reproduced"
    keeps_up = judged("B3-21", demo=Demo(throughput=0.999, trend=0.0).demo, c_full=78.0)
    assert keeps_up.verdict == "not reproduced" and "keeps up" in keeps_up.reason
    assert judged("B3-21", demo=Demo(throughput=0.999).demo, c_full=78.0).verdict == (
        "reproduced")  # a trend in most seeds is unstable too
    assert judged("B2-fixedk", demo=Demo().demo, alpha=0.9).verdict == "reproduced"
    fixedk = judged("B2-fixedk", demo=Demo(fixed_k=0.40).demo, alpha=0.9)
    assert fixedk.verdict == "not reproduced" and "would be partly" not in fixedk.reason
    assert fixedk.requires == ("B2-66",) and fixedk.role == "calibration"
