"""The M/M/c (Erlang C) response time behind the latency SLO, by hand and against the per-tick
recursion."""

import math

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.vdi import metrics


def test_erlang_c_response_time_by_hand():
    # M/M/1 (c = 1): response 1/(μ − λ) = 1/(50 − 25) = 0.04 s
    assert metrics.erlang_c_response([25.0], [1], 50.0)[0] == pytest.approx(0.04)
    # M/M/2, λ = 50, μ = 50: a = 1, ρ = 0.5, Erlang C = 1/3, W = C/(cμ − λ) + 1/μ = 1/150 + 1/50
    assert metrics.erlang_c_response([50.0], [2], 50.0)[0] == pytest.approx(1 / 150 + 1 / 50)
    assert math.isinf(metrics.erlang_c_response([100.0], [2], 50.0)[0])  # overloaded


def test_erlang_c_for_all_ticks_at_once_equals_the_per_tick_recursion():
    rng = np.random.default_rng(5)
    demand = np.concatenate([[0.0, 3200.0, 3300.0], rng.uniform(0, 3300, 300)])
    cores = np.concatenate([[0, 64, 64], rng.integers(0, 65, 300)])

    def one(rate, servers, per_core=50.0):
        if rate <= 0:
            return 1 / per_core
        if servers < 1 or rate >= servers * per_core:
            return math.inf
        a, blocking = rate / per_core, 1.0
        for k in range(1, servers + 1):
            blocking = a * blocking / (k + a * blocking)
        wait_prob = blocking / (1 - (a / servers) * (1 - blocking))
        return wait_prob / (servers * per_core - rate) + 1 / per_core

    expected = [one(r, int(c)) for r, c in zip(demand, cores, strict=True)]
    np.testing.assert_array_equal(metrics.erlang_c_response(demand, cores, 50.0), expected)


def test_violation_causes_split_the_violation_bins():
    log = pd.DataFrame({
        "violation": [True, True, True, True, False],
        "demand_iops": [4000.0, 1000.0, 1000.0, 1000.0, 1000.0],
        "c_fg": [64, 10, 0, 15, 20],
    })
    causes = metrics.violation_causes({"log": log, "cff": [0, 10, 0, 0, 0]}, 64, 50.0)
    assert causes == {"capacity": 20.0, "planner": 20.0, "emergency": 20.0, "other": 20.0}
