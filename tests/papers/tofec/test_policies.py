"""Each policy's decision on hand-built states, and bad input."""

import pytest

from storrepro.papers.tofec import analysis
from storrepro.papers.tofec.delay import ModelParams
from storrepro.papers.tofec.policies import Greedy, Ideal, Static, Tofec
from storrepro.sim.cloud_inputs import StoreState


def state(queue=0, idle=0, now=0.0):
    return StoreState(
        now=now,
        queue_length=queue,
        idle_threads=idle,
        task_queue_length=0,
        in_service=0,
        n_threads=16,
    )


SPEC = analysis.Setting(ModelParams(26.0, 48.9, 8.44, 10.7))


def test_static():
    assert Static(4, 2)(state(queue=9)) == (4, 2)
    assert Static(4, 2).name == "(4,2)"


def test_tofec_thresholds_without_memory():
    # n-thresholds 3.0 > 1.0 > 0.5 (n = 1..4), k-thresholds 2.0 > 0.6 (k = 1..3), r_max = 2.
    policy = Tofec((3.0, 1.0, 0.5), (2.0, 0.6), alpha=0.0)
    assert policy(state(queue=0)) == (4, 3)  # Q < every threshold: largest n and k
    assert policy(state(queue=1)) == (2, 2)  # 1 >= T^2 = 1.0, 0.6 <= 1 < 2.0
    assert policy(state(queue=2)) == (2, 1)  # Q >= T̃^1 = 2.0: k = 1; n = 2 <= 2·1
    assert policy(state(queue=3)) == (1, 1)  # Q >= T^1 = 3.0 and >= T̃^1 = 2.0


def test_tofec_caps_n_by_r_max_and_keeps_n_at_least_k():
    # n from its thresholds would be 4 with k = 1: capped at floor(2·1) = 2.
    assert Tofec((3.0, 2.0, 1.5), (), alpha=0.0)(state(queue=0)) == (2, 1)
    # n-thresholds give n = 1 while k = 3: n is raised to k.
    assert Tofec((), (5.0, 4.0), alpha=0.0)(state(queue=0)) == (3, 3)


def test_tofec_ewma():
    policy = Tofec((3.0, 1.0, 0.5), (2.0, 0.6), alpha=0.5)
    assert policy(state(queue=4)) == (2, 1) and policy.q_bar == 2.0  # 0.5·0 + 0.5·4
    assert policy(state(queue=4)) == (1, 1) and policy.q_bar == 3.0
    assert policy(state(queue=0)) == (2, 2) and policy.q_bar == 1.5


def test_tofec_from_model_light_and_heavy_load():
    policy = Tofec.from_model(SPEC, alpha=0.0)
    assert len(policy.n_thresholds) == 11 and len(policy.k_thresholds) == 5
    assert policy(state(queue=0)) == (12, 6)
    assert policy(state(queue=10)) == (1, 1)
    # Q = 1: T^2 = 1.23 > 1 >= T^3 = 0.62 gives n = 3; T̃^2 = 0.757 <= 1 < T̃^1 gives k = 2.
    assert policy(state(queue=1)) == (3, 2)


def test_fixed_k_strategy_of_ref3():
    policy = Tofec.fixed_k(SPEC, 6, alpha=0.0)
    assert policy(state(queue=0)) == (12, 6)
    assert policy(state(queue=50)) == (6, 6)


@pytest.mark.parametrize(
    ("idle", "code"),
    [(0, (1, 1)), (1, (1, 1)), (3, (3, 3)), (6, (6, 6)), (8, (8, 6)), (16, (12, 6))],
)
def test_greedy(idle, code):
    assert Greedy()(state(idle=idle, queue=5)) == code


def test_greedy_with_redundancy_only_when_threads_exceed_k_max():
    assert Greedy(k_max=2)(state(idle=3)) == (3, 2)
    assert Greedy(k_max=2)(state(idle=7)) == (4, 2)


def test_ideal_by_phase():
    policy = Ideal((200_000.0, 400_000.0), ((10, 5), (1, 1), (10, 5)))
    assert policy(state(now=0.0)) == (10, 5)
    assert policy(state(now=200_000.0)) == (1, 1)
    assert policy(state(now=450_000.0)) == (10, 5)


def test_bad_input():
    with pytest.raises(ValueError, match="1 <= k <= n"):
        Static(2, 3)
    with pytest.raises(ValueError, match="n must be <= 12"):
        Static(13, 7)
    for alpha in (1.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="alpha must be in"):
            Tofec((1.0,), (), alpha=alpha)
    with pytest.raises(ValueError, match="non-increasing"):
        Tofec((1.0, 2.0), ())
    with pytest.raises(ValueError, match="n must be <= 12"):
        Tofec.from_model(SPEC, k_max=7)
    with pytest.raises(ValueError, match="r_max"):
        Greedy(r_max=0.5)
    with pytest.raises(ValueError, match="one code per phase"):
        Ideal((1.0,), ((1, 1),))
