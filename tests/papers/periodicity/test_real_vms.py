"""Period detection on real VMs (experiment/real_vms) and its claim rules B3-real and A6-real,
on small made series of the real file's format (the rules live at the end of claims.py)."""

from functools import partial

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.periodicity import claims as rules
from storrepro.papers.periodicity import config
from storrepro.papers.periodicity.experiment import METHODS
from storrepro.papers.periodicity.experiment import real_vms as rs
from storrepro.suite.parallel import sweep

SERIAL = partial(sweep, seed=0, workers=1, progress=False)


def test_an_answer_is_the_daily_cycle_a_harmonic_another_period_or_none():
    daily, harmonic, other, none = rs.RELATIONS
    assert rs.relation(48) == daily and rs.relation(48.0) == daily
    assert [rs.relation(p) for p in (24, 16, 2, 96, 336)] == [harmonic] * 5
    assert [rs.relation(p) for p in (1, 5, 47, 49, 100)] == [other] * 5
    assert rs.relation(None) == none and rs.relation(float("nan")) == none


def test_every_detector_runs_on_every_vm_and_finds_a_clean_daily_cycle(tmp_path):
    t = np.arange(7 * rs.DAY)
    rng = np.random.default_rng(0)
    made = tmp_path / "vms.csv"
    rows = ["vm,interval,requests,ts"]
    for vm, series in {"clean": 1000 + 800 * np.sin(2 * np.pi * t / rs.DAY),
                       "noise": rng.poisson(500, t.size)}.items():
        rows += [f"{vm},{k},{int(c)},{(k + 1) * 1800000000}" for k, c in enumerate(series)]
    made.write_text("\n".join(rows) + "\n")
    vms = rs.load(str(made), 0)
    table, why, on = rs.claim_inputs(vms, rs.detection_study(vms, SERIAL), "preprocessed")
    assert list(table.index) == ["clean", "noise"] and list(table.columns) == list(METHODS)
    assert table.loc["clean", "PrecisePeriod"] == 48 and not why and vms.sha256[:16] in on
    counts = rs.relation_counts(table)
    assert list(counts.columns) == list(rs.RELATIONS) and (counts.sum(axis=1) == 2).all()


def answers(pp, baseline):
    return pd.DataFrame({**{m: baseline for m in rules.BASELINES}, rules.PP: pp},
                        index=pd.Index([f"w{k}" for k in range(len(pp))], name="vm"))


def test_b3_real_needs_many_right_answers_above_the_baselines():
    many = [48.0] * 30 + [24.0] * 10
    claim = rules.b3_real_precision(answers(many, [48.0] * 20 + [7.0] * 20), on="x (sha256 0)")
    assert claim.verdict == "reproduced" and claim.values["answered"] == 40
    assert "x (sha256 0)" in claim.reason and claim.requires == ("A1", "A2")
    few = [48.0] * 5 + [np.nan] * 35
    claim = rules.b3_real_precision(answers(few, [7.0] * 40))
    assert claim.verdict == "inconclusive" and "too few" in claim.reason  # Wilson from 0.57
    wrong = [7.0] * 20 + [48.0] * 20
    assert rules.b3_real_precision(answers(wrong, [48.0] * 40)).verdict == "not reproduced"
    silent = rules.b3_real_precision(answers([np.nan] * 3, [48.0] * 3))
    assert silent.verdict == "not checkable" and "answers on none" in silent.reason
    missing = rules.b3_real_precision(None, why="no real-VM file: see the `real_vms` parameter")
    assert missing.verdict == "not checkable" and "`real_vms`" in missing.reason
    points = rules.b3_real_precision(answers(many, [7.0] * 40), config.B3_NEARLY_ONE_POINTS)
    assert points.band == config.B3_NEARLY_ONE_POINTS.source


@pytest.mark.parametrize("pp, verdict", [([48.0] * 4, "reproduced"),
                                         ([np.nan] * 4, "not reproduced")])
def test_a6_real_compares_daily_answers_with_the_best_baseline(pp, verdict):
    claim = rules.a6_real_answers(answers(pp, [48.0, 24.0, 7.0, np.nan]))
    assert claim.verdict == verdict and claim.role == "analysis"
    assert rules.a6_real_answers(None, why="no file").verdict == "not checkable"
