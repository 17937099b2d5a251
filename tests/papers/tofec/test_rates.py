"""TOFEC's claims on delay against the arrival rate (B1, B4–B8): each rule on an input where it
holds and one where it fails, the cause a miss names, and the tables judged under every reading
on a hand-built grid."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.tofec.claims import PURE, by_reading, pick, rates
from storrepro.papers.tofec.config import TofecConfig
from storrepro.papers.tofec.metrics import GridResults, tofec_name
from storrepro.suite.consistency import ConsistencyError
from storrepro.suite.run import Run
from storrepro.suite.table import judge_row
from tofec_samples import hand_grid, hand_runs


def near(x, spread=0.005, n=5):
    return x + spread * np.linspace(-1, 1, n)


class Grid:
    """What the rate claims read of ``metrics.GridResults``, given directly: per-seed values
    (``values[(code, metric)]``), ratios to a baseline (``ratios[metric]``: per rate), to the
    envelope (``envelope``: per rate), k mixes (``mix``: rows k1..k6 per rate) and seed shares."""

    def __init__(self, **data):
        self.mid = self.high = self.rates = []
        self.c_full = 78.0
        self.__dict__.update(data)

    def seed_values(self, code, metric, rate):
        return np.asarray(self.values[(code, metric)])

    def seed_ratios(self, policy, base, metric, rates):
        return {r: np.asarray(self.ratios[metric][r]) for r in rates if r in self.ratios[metric]}

    def seed_envelope_ratios(self, policy, metric, rates):
        return {r: np.asarray(self.envelope[r]) for r in rates}

    def seed_k_shares(self, policy, statistic):
        return self.shares

    def k_shares(self, policy):
        return pd.DataFrame({r: {f"k{k}": float(k == m) for k in range(1, 7)}
                             for r, m in self.modal.items()}).T


def judged(cid, grid, alpha=0.9):
    return judge_row(pick(rates.TABLE, cid)[0], rates, {"grid": grid, "alpha": alpha,
                                                        "n_threads": 16}, {})


def test_light_load_calibrations_fail_when_the_calibration_drifts():
    def b1(mean, median):
        return judged("B1-(1,1)", Grid(values={("(1,1)", "mean"): near(mean),
                                               ("(1,1)", "median"): near(median)}))

    assert b1(205.0, 156.0).verdict == "reproduced"
    half = b1(250.0, 156.0)  # the paper says both: one part holds
    assert half.verdict == "partly" and half.values["verdict_per_part"]["mean"] == "not reproduced"
    assert b1(250.0, 200.0).verdict == "not reproduced" and half.role == "calibration"
    env = {"mean": pd.DataFrame({"code": ["(12,6)"]}, index=[2.0])}
    best = Grid(env=env, values={("(12,6)", "mean"): near(80.0)})
    assert judged("B1-best", best).verdict == "reproduced"
    best.values[("(12,6)", "mean")] = near(120.0)
    assert judged("B1-best", best).verdict == "not reproduced"
    assert judged("B4-mean-11", Grid(ratios={"mean": {5.0: near(0.42)}})).verdict == "reproduced"
    gain = judged("B4-mean-11", Grid(ratios={"mean": {5.0: near(0.55)}}))
    assert gain.verdict == "not reproduced" and gain.requires == ("B1-(1,1)",)
    tofec = ("TOFEC a=0.9", "mean")
    assert judged("B4-abs", Grid(values={tofec: near(85.0)})).verdict == "reproduced"
    assert judged("B4-abs", Grid(values={tofec: near(110.0)})).verdict == "not reproduced"


def _ctx(rate, best="(1,1)", best_mean="(1,1)", k_off=0.2, k_above=0.2, mq=2.2, q=7.2):
    return {rate: {"best_code": best, "best_mean_code": best_mean, "k_off": k_off,
                   "k_above": k_above, "measured_q": mq, "model_q": q}}


def test_the_envelope_is_judged_at_every_rate_and_a_miss_names_the_backlog_model(monkeypatch):
    def envelope(cid, per_rate):
        return judged(cid, Grid(envelope=per_rate, mid=list(per_rate)))

    good = envelope("B5-mean", {10.0: near(1.05), 70.0: near(1.10)})
    assert good.verdict == "reproduced" and good.uncertainty["n"] == 5
    monkeypatch.setattr(Grid, "envelope_context", lambda *args: _ctx(70.0), raising=False)
    miss = envelope("B5-mean", {10.0: near(1.05), 70.0: near(1.30)})
    assert miss.verdict == "not reproduced" and miss.values["deciding_rate"] == 70.0
    assert "M/M/1 backlog model" in miss.reason and "7.20" in miss.reason
    assert envelope("B5-median", {65.0: [1.05, 1.30, 1.10, 1.25, 1.20]}).verdict == (
        "inconclusive")
    better = envelope("B5-greedy", {70.0: near(0.8)})
    assert better.verdict == "not reproduced" and "beats the best static code" in better.reason
    monkeypatch.setattr(Grid, "envelope_context", lambda *args: _ctx(
        10.0, best="(6,3)", best_mean="(10,5)", k_off=0.9, k_above=0.9, mq=0.0, q=0.02))
    std = envelope("B7-envelope", {10.0: near(1.987)})
    assert std.verdict == "not reproduced"
    assert "aim at the mean delay" in std.reason and "M/M/1" not in std.reason


def test_tofec_against_greedy_fails_when_not_significantly_better():
    def tails(p99):
        return judged("B6-vs-greedy", Grid(rates=[5.0, 30.0], ratios={
            "p90": {5.0: near(0.8), 30.0: near(0.85)}, "p99": {5.0: p99}}))

    assert tails(near(0.5)).verdict == "reproduced"
    worse = tails(near(1.1))
    assert worse.verdict == "not reproduced" and worse.values["p99_ratio"] == pytest.approx(1.1)
    assert tails([0.80, 0.95, 0.85, 0.90, 0.85]).verdict == "inconclusive"
    assert tails(near(0.95)).verdict == "not reproduced"  # better, but not by much

    def std(per_rate):
        return judged("B7-vs-greedy", Grid(rates=list(per_rate), ratios={"std": per_rate}))

    assert std({5.0: near(0.5), 40.0: near(0.6)}).verdict == "reproduced"
    assert std({5.0: near(0.95)}).verdict == "not reproduced"


def test_the_codes_tofec_picks():
    def modal(by_rate):
        return judged("B8-modal", Grid(modal=by_rate))

    good = modal({2.0: 6, 10.0: 5, 40.0: 2, 70.0: 1, 75.0: 1})
    assert good.verdict == "reproduced" and good.band.startswith("direction")
    bad = modal({2.0: 6, 10.0: 5, 40.0: 2, 50.0: 3, 70.0: 1})
    assert bad.verdict == "not reproduced" and "rises between λ = 40→50" in bad.reason
    low = modal({2.0: 4, 70.0: 1})
    assert low.verdict == "not reproduced" and "it is 4 at λ = 2" in low.reason
    assert modal({2.0: 6, 75.0: 2}).verdict == "not reproduced"
    assert judged("B8-top2", Grid(shares={2.0: near(1.0, 0.0), 20.0: near(0.85)}),
                  alpha=0.99).verdict == "reproduced"
    mid = judged("B8-top2", Grid(shares={2.0: near(1.0, 0.0), 20.0: near(0.65)}))
    assert mid.verdict == "not reproduced" and mid.values["at_rate"] == 20.0
    assert "partly" not in mid.reason  # the pilot's partly band is retired
    assert judged("B8-greedy", Grid(shares={2.0: near(0.7)})).verdict == "reproduced"
    assert judged("B8-greedy", Grid(shares={2.0: near(0.4)})).verdict == "not reproduced"


def test_the_strict_level_is_reported():
    grid = hand_grid()
    strict = judged("B5-strict", grid)
    assert strict.verdict == "not checkable" and strict.role == "analysis"
    assert strict.values["max_ratio"] == pytest.approx(0.8 / 0.9)


def test_the_tables_judge_every_alpha_and_the_delay_model(tmp_path):
    cfg = TofecConfig(profile="quick")
    run = Run(cfg, out=tmp_path)
    grid, on_grid = hand_grid(), {"grid": hand_grid(), "alpha": 0.9, "n_threads": 16}
    run.judge_table(rates.LIGHT_LOAD, rates, on_grid, by_reading=by_reading(cfg, on_grid))
    rows = pick(rates.TABLE, "B5-mean", "B5-greedy", "B5-strict", "B6-vs-greedy", "B7-vs-greedy",
                "B8-modal", "B8-top2", "B8-greedy")  # the hand grid has no rate above 0.90·C
    run.judge_table(rows, rates, on_grid, by_reading=by_reading(cfg, on_grid, grid=grid))
    assert set(run.claims["B4-mean-11"]["by_reading"]) == {"alpha=0.5", "alpha=0.95",
                                                            "alpha=0.99"}
    assert run.claims["B4-greedy-mean"]["by_reading"] == {}
    b5 = run.claims["B5-mean"]
    assert b5["uncertainty"]["n"] == 2 and b5["verdict"] == "reproduced"  # 80 / 90 = 0.889
    assert set(b5["by_reading"]) == {"alpha=0.5", "alpha=0.95", "alpha=0.99", PURE}
    assert run.claims["B5-greedy"]["not_affected_by"] == [
        "ideal_decision_point", "alpha", "phase2_load"]
    assert run.claims["B7-vs-greedy"]["verdict"] == "not reproduced"  # 80/88: not a multiple
    assert run.claims["B8-greedy"]["verdict"] == "reproduced"  # Greedy: all k = 1 or 6
    assert run.claims["B8-top2"]["not_affected_by"] == ["ideal_decision_point", "phase2_load"]
    bands = run.register()[1]
    assert bands["B5-mean band"]["quote"] == rates.B5_WORDS


def test_a_ratio_over_an_uncalibrated_baseline_is_void(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    grid = Grid(values={("(1,1)", "mean"): near(250.0), ("(1,1)", "median"): near(200.0)},
                ratios={"mean": {5.0: near(0.41)}})
    inputs = {"grid": grid, "alpha": 0.9, "n_threads": 16}
    run.judge_table(pick(rates.TABLE, "B1-(1,1)", "B4-greedy-mean"), rates, inputs)
    gain = run.claims["B4-greedy-mean"]
    assert gain["verdict"] == "void" and "B1-(1,1)" in gain["reason"]


def test_a_test_claim_must_be_judged_under_every_reading(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    with pytest.raises(ValueError, match="not judged under the readings"):
        run.judge_table(pick(rates.TABLE, "B8-greedy"), rates, {"grid": hand_grid()})


def light_load_grid(median11, median21):
    """:func:`hand_grid` with these light-load medians of (1,1) and (2,1) at λ = 2."""
    runs = hand_runs()
    for code, median in (("(1,1)", median11), ("(2,1)", median21)):
        runs.loc[(runs.rate == 2.0) & (runs.policy == code), "median"] = median
    summary = runs.groupby(["rate", "policy"], sort=False).mean(numeric_only=True).reset_index()
    summary["trend_frac"] = 0.0
    return GridResults(summary.drop(columns=["rep", "trend"]), 5.0, 200.0, runs)


def test_the_delay_model_is_checked_against_the_papers_light_load_delays(tmp_path):
    def check(run, sur, pure):
        for code in ("(1,1)", "(2,1)"):
            for reported, per_seed in rates.light_load_checks(code):
                run.consistency("delay_model", reported, {"SUR": per_seed(sur, code),
                                                          "PURE": per_seed(pure, code)})

    paper, off = light_load_grid(156.0, 138.0), light_load_grid(250.0, 138.0)
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    check(run, paper, off)  # PURE's (1,1) median 1.6× the paper's
    consistency = run.register()[0]["delay_model"]["consistency"]
    assert len(consistency["records"]) == 4
    assert consistency["ruled_out"] == {"PURE": ["(1,1)'s light-load median: “from 156ms and "
                                                 "138ms to 74ms”"]}
    with pytest.raises(ConsistencyError, match="primary 'SUR' is ruled out"):
        check(Run(TofecConfig(profile="quick"), out=tmp_path), off, paper)


def test_every_memory_factor_is_checked_against_tofecs_light_load_delays(tmp_path):
    cfg = TofecConfig(profile="quick")
    run = Run(cfg, out=tmp_path)
    for reported, per_seed in rates.light_load_checks("TOFEC"):  # hand grid: TOFEC 80 / 72 ms
        run.consistency("alpha", reported, {a: per_seed(hand_grid(), tofec_name(float(a)))
                                            for a in cfg.readings["alpha"].alternatives})
    record = run.register()[0]["alpha"]["consistency"]
    assert [r["paper_value"] for r in record["records"]] == ["84 ms", "74 ms"]
    assert record["ruled_out"] == {} and "λ = 5 req/s" in record["records"][0]["of"]

