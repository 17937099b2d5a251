import math

import numpy as np
import pytest

from storrepro.suite import bands
from storrepro.suite.replicates import Pool, decide, n_needed, share_interval, straddled

BAND = bands.paper_range(50.0, 90.0, "'by 50–90 %'", "%")


def normal_pool(mean, sd, cap=64, start=3, draws=None):
    """Replicate i is a fixed normal draw of seed i: the same whether drawn at once or in steps."""
    def draw(indices):
        if draws is not None:
            draws.append(list(indices))
        return [mean + sd * np.random.default_rng(i).standard_normal() for i in indices]
    return Pool("toy", draw, start=start, cap=cap, cap_why="a toy's cap")


def test_a_pool_draws_each_replicate_once_and_the_same_in_steps():
    calls = []
    pool = normal_pool(0.0, 1.0, draws=calls)
    first = pool.take(3)
    assert pool.take(2) == first[:2] and calls == [[0, 1, 2]]
    assert pool.take(5)[:3] == first and calls == [[0, 1, 2], [3, 4]]
    assert normal_pool(0.0, 1.0).take(5) == pool.take(5)


def test_pool_arguments_are_checked():
    with pytest.raises(ValueError, match="start = 1"):
        Pool("p", lambda i: [], start=1, cap=4, cap_why="x")
    with pytest.raises(ValueError, match="cap = 2"):
        Pool("p", lambda i: [], start=3, cap=2, cap_why="x")
    with pytest.raises(ValueError, match="say why"):
        Pool("p", lambda i: [], start=3, cap=4, cap_why=" ")
    with pytest.raises(ValueError, match="take\\(9\\)"):
        normal_pool(0, 1, cap=8).take(9)
    with pytest.raises(ValueError, match="draw gave 1"):
        Pool("p", lambda i: [0.0], start=3, cap=4, cap_why="x").take(3)


def test_a_clear_case_is_decided_at_the_start():
    pool = normal_pool(70.0, 1.0)
    u = decide(pool, lambda reps: reps, BAND, "cut (%)")
    assert u["n"] == 3 and pool.drawn == 3 and "n_needed" not in u
    assert u["cap"] == 64 and u["statistic"] == "mean" and len(u["samples"]) == 3


def listed_pool(values, cap):
    return Pool("listed", lambda indices: [values[i] for i in indices], start=3, cap=cap,
                cap_why="a toy's cap")


def test_a_straddling_case_draws_until_the_interval_clears_the_edge():
    # three replicates 48, 62, 55 straddle 50 (mean 55, half-width 17.4); the next ones are
    # tight around 55, so the interval clears the edge once they are in
    values = [48.0, 62.0, 55.0] + [55.0 + d for d in (1, -1, 2, -2, 1, -1, 0, 0)] * 4
    pool = listed_pool(values, cap=len(values))
    u = decide(pool, lambda reps: reps, BAND, "cut (%)")
    assert 3 < u["n"] < len(values)
    assert not straddled(u, [BAND]) and u["ci95"][0] > 50.0
    assert pool.drawn == u["n"]
    # each step at most doubles n: 3 -> at most 6 -> at most 12
    assert u["n"] <= 12


def test_at_the_cap_the_record_says_how_many_would_decide():
    pool = listed_pool([40.0, 62.0, 51.0, 45.0, 58.0, 50.0], cap=6)
    u = decide(pool, lambda reps: reps, BAND, "cut (%)")
    assert u["n"] == 6 and straddled(u, [BAND]) == [50.0]
    half = u["mean"] - u["ci95"][0]
    assert u["n_needed"] == math.ceil(6 * (half / (u["mean"] - 50.0)) ** 2)
    assert u["n_needed"] > 6


def test_a_later_claim_starts_from_every_replicate_the_pool_holds():
    pool = normal_pool(55.0, 8.0)
    pool.take(10)  # drawn for an earlier claim
    u = decide(pool, lambda reps: reps, bands.at_least(0.0, "'positive'"), "x")
    assert u["n"] == 10


def test_n_needed_on_a_hand_worked_interval():
    # mean 10, interval 6 to 14 at n = 4; an edge at 12 needs 4 * (4 / 2)^2 = 16
    assert n_needed({"mean": 10.0, "ci95": [6.0, 14.0], "n": 4}, [12.0]) == 16
    assert n_needed({"mean": 10.0, "ci95": [6.0, 14.0], "n": 4}, [10.0]) is None
    assert n_needed({"mean": 10.0, "ci95": [6.0, 14.0], "n": 4}, []) is None


def test_share_and_median_statistics():
    u = share_interval([1, 1, 1, 0], "in band")
    assert u["mean"] == 0.75 and 0.2 < u["ci95"][0] < 0.75 < u["ci95"][1] <= 1.0
    with pytest.raises(ValueError, match="each 0 or 1"):
        share_interval([0.5], "in band")
    pool = normal_pool(70.0, 1.0)
    u = decide(pool, lambda reps: reps, BAND, "cut (%)", statistic="median")
    assert u["statistic"] == "median" and u["mean"] == float(np.median(pool.take(3)))
    with pytest.raises(ValueError, match="statistic 'mode'"):
        decide(pool, lambda reps: reps, BAND, "x", statistic="mode")


def test_a_measure_must_give_one_value_per_replicate():
    with pytest.raises(ValueError, match="gave 1 values for 3"):
        decide(normal_pool(70.0, 1.0), lambda reps: reps[:1], BAND, "x")
