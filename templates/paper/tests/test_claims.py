"""PaperTemplate's claims table, each rule on an input where it holds and one where it fails."""

import pytest

from storrepro.papers.paper_template import claims
from storrepro.papers.paper_template.workload import requests
from storrepro.suite.replicates import Pool
from storrepro.suite.table import judge_row

T1, K1 = claims.TABLE


def pool(means, start=3):
    return Pool("means", lambda indices: [means[i] for i in indices], start=start,
                cap=len(means), cap_why="the test's list")


def judged_t1(means, start=3):
    return judge_row(T1, claims, None, {"replicates": pool(means, start)})


def test_t1_holds_near_twice_the_service_time_and_fails_far_from_it():
    assert judged_t1([2.0, 2.02, 1.98]).verdict == "reproduced"
    assert judged_t1([3.0, 3.1, 2.9]).verdict == "not reproduced"


def test_t1_draws_more_replicates_until_decided_or_says_how_many_would_decide():
    # ratios 0.85, 1.2, 1.0 straddle both edges of ×/÷ 1.15; tight replicates follow
    decided = judged_t1([1.7, 2.4, 2.0] + [2.0, 2.01, 1.99] * 10)
    assert decided.verdict == "reproduced" and decided.uncertainty["n"] > 3
    capped = judged_t1([1.7, 2.4, 2.0])
    assert capped.verdict == "inconclusive" and capped.uncertainty["n_needed"] > 3
    assert "would decide it" in capped.reason


def test_k1_fails_when_the_kernel_differs_from_the_model():
    assert judge_row(K1, claims, {"kernel_gap": 0.0}, {}).verdict == "reproduced"
    failed = judge_row(K1, claims, {"kernel_gap": 1e-3}, {})
    assert failed.verdict == "not reproduced" and "kernel is wrong" in failed.reason


def test_the_reported_result_at_90_percent_load_rules_out_equal_service_times():
    # Pollaczek-Khinchine at load 0.9: exponential 10, deterministic 1 + 0.9 / 0.2 = 5.5
    from storrepro.suite.consistency import RULED_OUT, check

    record = check(claims.AT_90, {"exponential": 1.0, "deterministic": 0.55})
    assert record["alternatives"]["deterministic"]["verdict"] == RULED_OUT


def test_an_unknown_service_time_reading_is_refused():
    import numpy as np

    with pytest.raises(ValueError, match="service = 'uniform'"):
        requests(np.random.default_rng(0), 10, 0.5, "uniform")
