"""The contract every TOFEC coding policy keeps (in the spirit of scikit-learn's
``check_estimator``): the same interface ``policy(state) -> (n, k)``, deterministic, a valid
code for every state the store can be in (empty and full queues, no or all threads idle), a
clear error naming the parameter for bad construction, and one hand-worked decision each."""

import itertools
import math

import pytest

from storrepro.papers.tofec.analysis import Setting
from storrepro.papers.tofec.codes import K_MAX
from storrepro.papers.tofec.delay import N_MAX, ModelParams
from storrepro.papers.tofec.policies import Greedy, Ideal, KernelSpec, Static, Tofec
from storrepro.sim.cloud_inputs import StoreState

PILOT = Setting(ModelParams(26.0, 48.9, 8.44, 10.7))
PHASES = ((200_000.0, 400_000.0), ((10, 5), (1, 1), (10, 5)))

#: name -> (a fresh policy, a state and the code worked out by hand for it).
POLICIES = {
    "basic (1,1)": (lambda: Static(1, 1), {"queue": 40}, (1, 1)),
    "replication (2,1)": (lambda: Static(2, 1), {}, (2, 1)),
    "static (12,6)": (lambda: Static(12, 6), {"idle": 16}, (12, 6)),
    # α = 0: Q̄ = Q = 1; T^2 = 1.23 > 1 >= T^3 = 0.62 gives n = 3, T̃^2 = 0.757 <= 1 gives k = 2.
    "TOFEC": (lambda: Tofec.from_model(PILOT, alpha=0.0), {"queue": 1}, (3, 2)),
    # α = 0.9 from Q̄ = 0: Q̄ = 0.1·2 = 0.2 is below five n-thresholds (3.16 ... 0.219: n = 6)
    # and three k-thresholds (2.54, 0.756, 0.282: k = 4); n = 6 <= 2·4.
    "TOFEC α=0.9": (lambda: Tofec.from_model(PILOT, alpha=0.9), {"queue": 2}, (6, 4)),
    "TOFEC geometric": (
        lambda: Tofec.from_model(PILOT, alpha=0.0, rule="geometric"),
        {"queue": 100},
        (1, 1),
    ),
    # [3]: k fixed at 6, n from 6 (heavy load) to 12 (empty queue).
    "[3] fixed k": (lambda: Tofec.fixed_k(PILOT, 6, alpha=0.0), {"queue": 0}, (12, 6)),
    # Greedy with 8 idle threads: k = min(8, 6) = 6, n = min(max(8, 6), 2·6) = 8.
    "Greedy": (Greedy, {"idle": 8, "queue": 3}, (8, 6)),
    "Ideal (head of line)": (lambda: Ideal(*PHASES), {"now": 250_000.0}, (1, 1)),
    "Ideal (arrival)": (lambda: Ideal(*PHASES, decide_at="arrival"), {"now": 400_000.0}, (10, 5)),
}
NAMES = list(POLICIES)


def state(queue=0, idle=0, now=0.0, n_threads=16):
    return StoreState(
        now=now,
        queue_length=queue,
        idle_threads=idle,
        task_queue_length=0,
        in_service=0,
        n_threads=n_threads,
    )


#: Every corner the store can present: empty and huge request queues, no idle thread and all
#: of them, the start of a run and far past its phases.
EDGE_STATES = [
    state(queue, idle, now)
    for queue, idle, now in itertools.product(
        (0, 1, 2, 5, 50, 10**6), (0, 1, 6, 12, 16), (0.0, 199_999.9, 200_000.0, 1e9)
    )
]


@pytest.mark.parametrize("name", NAMES)
def test_same_interface(name):
    make, _, _ = POLICIES[name]
    policy = make()
    assert callable(policy) and isinstance(policy.name, str) and policy.name
    code = policy(state())
    assert isinstance(code, tuple) and len(code) == 2
    assert all(isinstance(v, int) and not isinstance(v, bool) for v in code)
    assert isinstance(policy.kernel_spec(), KernelSpec)  # the fast kernel's description
    assert getattr(policy, "decide_at", "arrival") in ("arrival", "admission")


@pytest.mark.parametrize("name", NAMES)
def test_deterministic(name):
    make, _, _ = POLICIES[name]
    first, second = make(), make()
    sequence = EDGE_STATES + EDGE_STATES[::-1]
    assert [first(s) for s in sequence] == [second(s) for s in sequence]


@pytest.mark.parametrize("name", NAMES)
def test_valid_code_for_every_state(name):
    make, _, _ = POLICIES[name]
    policy = make()
    for s in EDGE_STATES:
        n, k = policy(s)
        assert 1 <= k <= n <= N_MAX and k <= K_MAX, (s, (n, k))
        if isinstance(policy, Tofec | Greedy):  # adaptive: redundancy at most r_max
            assert n <= math.floor(policy.r_max * k), (s, (n, k))


@pytest.mark.parametrize("name", NAMES)
def test_hand_worked_case(name):
    make, where, expected = POLICIES[name]
    policy = make()
    assert policy(state(**where)) == expected


BAD = [
    (lambda: Static(2, 3), "1 <= k <= n"),
    (lambda: Static(13, 6), "n must be <= 12"),
    (lambda: Static(1.5, 1), "integer"),
    (lambda: Tofec.from_model(PILOT, alpha=1.0), "alpha must be in"),
    (lambda: Tofec.from_model(PILOT, k_max=0), "k_max must be a whole number >= 1, got 0"),
    (lambda: Tofec.from_model(PILOT, r_max=0.5), "r_max must be a finite number >= 1"),
    (lambda: Tofec((1.0, 2.0), ()), "n_thresholds must be non-increasing"),
    (lambda: Tofec((1.0,), (-1.0,)), "k_thresholds must be non-increasing finite numbers >= 0"),
    (lambda: Tofec.fixed_k(PILOT, 7), "n must be <= 12"),
    (lambda: Greedy(k_max=True), "k_max must be a whole number >= 1, got True"),
    (lambda: Greedy(r_max=20), "r_max must be a finite number >= 1 and <= 12, got 20"),
    (lambda: Ideal((1.0,), ((1, 1),)), "one code per phase"),
    (lambda: Ideal((2.0, 1.0), ((1, 1),) * 3), "phase_ends_ms must increase"),
    (lambda: Ideal((1.0,), ((1, 1), (1, 2))), "1 <= k <= n"),
    (lambda: Ideal((1.0,), ((1, 1),) * 2, decide_at="later"), "decide_at must be one of"),
]


@pytest.mark.parametrize(("make", "message"), BAD)
def test_bad_construction_names_the_parameter(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_every_policy_class_is_covered():
    covered = {type(make()) for make, _, _ in POLICIES.values()}
    assert covered == {Static, Tofec, Greedy, Ideal}
