"""The fast kernel against the simpy model (:mod:`storrepro.papers.tofec.reference`): identical per
request; hand-worked traces."""

import numpy as np
import pytest

from storrepro.papers.tofec import analysis
from storrepro.papers.tofec.delay import SUR, ModelParams, TaskDelayModel
from storrepro.papers.tofec.kernel import COLUMNS, simulate
from storrepro.papers.tofec.policies import Greedy, Ideal, Static, Tofec
from storrepro.papers.tofec.reference import simulate_store
from storrepro.sim.cloud_inputs import poisson_arrival_times

SPEC = analysis.Setting(ModelParams(26.0, 48.9, 8.44, 10.7))
POLICIES = {
    "basic": lambda: Static(1, 1),
    "(12,6)": lambda: Static(12, 6),
    "TOFEC": lambda: Tofec.from_model(SPEC, alpha=0.9),
    "TOFEC a=0": lambda: Tofec.from_model(SPEC, alpha=0.0),
    "Greedy": Greedy,
    "[3]": lambda: Tofec.fixed_k(SPEC, 6),
    "Ideal": lambda: Ideal((10_000.0, 40_000.0), ((10, 5), (1, 1), (9, 5))),
    "Ideal at arrival": lambda: Ideal(
        (10_000.0, 40_000.0), ((10, 5), (1, 1), (9, 5)), decide_at="arrival"
    ),
}


@pytest.mark.parametrize("name", POLICIES)
@pytest.mark.parametrize("rate", [20.0, 70.0])
def test_kernel_identical_to_simpy_request_by_request(name, rate):
    arrivals = poisson_arrival_times(np.random.default_rng(int(rate)), rate, 60_000.0)
    log, busy_time = simulate_store(POLICIES[name](), arrivals, np.random.default_rng(11), 16)
    fast = simulate(
        POLICIES[name](), SUR, arrivals, SUR.draw(np.random.default_rng(11), len(arrivals))
    )
    assert len(log) == len(arrivals)
    for column in COLUMNS[:-1]:
        np.testing.assert_array_equal(log[column].to_numpy(), fast[column], err_msg=column)
    # A6: total thread busy time equals the sum of the request costs.
    assert busy_time == pytest.approx(log.cost.sum(), rel=1e-12)


def test_kernel_sees_the_queue_length_policies_see():
    arrivals = poisson_arrival_times(np.random.default_rng(1), 75.0, 20_000.0)
    seen = []

    def spy(state):
        seen.append(state.queue_length)
        return 1, 1

    simulate_store(spy, arrivals, np.random.default_rng(2), 16)
    fast = simulate(Static(1, 1), SUR, arrivals, SUR.draw(np.random.default_rng(2), len(arrivals)))
    np.testing.assert_array_equal(fast["queue_length"], seen)
    assert max(seen) > 0


# Deterministic tasks: Δ = 30 ms for any chunk, no exponential part.
CONSTANT = TaskDelayModel("const", shift=30.0, shift_per_mb=0.0, tail=0.0, tail_per_mb=0.0)


def test_hand_worked_replication_on_two_threads():
    # L = 2, code (2,1): request 0 at t=0 takes both threads, done at 30 (cost 30 + 30: the
    # twin is interrupted after 30 ms). Request 1 arrives at 1, waits, starts at 30, done at 60.
    arrivals = np.array([0.0, 1.0])
    out = simulate(
        Static(2, 1), CONSTANT, arrivals, CONSTANT.draw(np.random.default_rng(0), 2), n_threads=2
    )
    np.testing.assert_array_equal(out["t_admit"], [0.0, 30.0])
    np.testing.assert_array_equal(out["t_end"], [30.0, 60.0])
    np.testing.assert_array_equal(out["cost"], [60.0, 60.0])
    np.testing.assert_array_equal(out["queue_length"], [0, 0])


def test_hand_worked_cancellation_on_one_thread():
    # L = 1, code (2,1): task 0 runs 0-30, task 1 waits and is cancelled at 30 (cost 0), so the
    # request costs 30; request 1 (arrived at 5, saw Q = 0) is admitted at 30, done at 60.
    arrivals = np.array([0.0, 5.0, 6.0])
    out = simulate(
        Static(2, 1), CONSTANT, arrivals, CONSTANT.draw(np.random.default_rng(0), 3), n_threads=1
    )
    np.testing.assert_array_equal(out["t_end"], [30.0, 60.0, 90.0])
    np.testing.assert_array_equal(out["cost"], [30.0, 30.0, 30.0])
    np.testing.assert_array_equal(out["queue_length"], [0, 0, 1])


def test_bad_input():
    arrivals = np.array([0.0, 1.0])
    blocks = SUR.draw(np.random.default_rng(0), 2)
    with pytest.raises(ValueError, match="non-decreasing"):
        simulate(Static(1, 1), SUR, arrivals[::-1], blocks)
    with pytest.raises(ValueError, match="blocks must have shape"):
        simulate(Static(1, 1), SUR, arrivals, blocks[:1])
    with pytest.raises(ValueError, match="n_threads"):
        simulate(Static(1, 1), SUR, arrivals, blocks, n_threads=0)


def test_head_of_line_ideal_recodes_the_queued_requests():
    # L = 1, deterministic 30 ms tasks of any chunk size. Phase 1 (t < 10 ms) uses (1,1), then
    # (2,1). Requests arrive at 0, 1, 2: the first is admitted at 0 (phase 1, code (1,1)); the
    # other two arrived in phase 1 but leave the queue at 30 and 60 ms, in phase 2.
    arrivals = np.array([0.0, 1.0, 2.0])
    blocks = CONSTANT.draw(np.random.default_rng(0), 3)
    hol = simulate(Ideal((10.0,), ((1, 1), (2, 1))), CONSTANT, arrivals, blocks, n_threads=1)
    at_arrival = simulate(
        Ideal((10.0,), ((1, 1), (2, 1)), decide_at="arrival"), CONSTANT, arrivals, blocks, 1
    )
    np.testing.assert_array_equal(hol["n"], [1, 2, 2])
    np.testing.assert_array_equal(at_arrival["n"], [1, 1, 1])
    # On one thread the (2,1) twin waits in the task queue and is cancelled: same delays here.
    np.testing.assert_array_equal(hol["t_end"], [30.0, 60.0, 90.0])
    np.testing.assert_array_equal(hol["queue_length"], at_arrival["queue_length"])


def test_bad_decision_point():
    with pytest.raises(ValueError, match="decide_at"):
        Ideal((1.0,), ((1, 1), (2, 1)), decide_at="later")

