"""Cloud store: Eq. (2)/(3) at light load, a hand-worked trace, the A6 invariants and M/M/1."""

import math

import numpy as np
import pytest
import simpy

from storrepro.sim.cloud_inputs import StoreState, poisson_arrival_times
from storrepro.sim.cloud_store import CloudStore, ShiftedExponential, fixed_code

# Δ(B) = 10 + 5B ms and E(B) = 20 + 8B ms, file size J = 3 (chunk B = 3/k).
SAMPLER = ShiftedExponential(shift=10.0, mean=20.0, shift_per_size=5.0, mean_per_size=8.0)


def run_store(arrival_times, seed=0, **kwargs):
    env = simpy.Environment()
    store = CloudStore(env, np.random.default_rng(seed), **kwargs)
    store.replay(arrival_times)
    env.run()
    return store


@pytest.mark.parametrize(("n", "k"), [(1, 1), (2, 1), (6, 3), (12, 6)])
def test_light_load_matches_eq2_and_eq3(n, k):
    # Requests 10 s apart never meet (P(task > 10 s) ~ e^-350): each one starts all n tasks at
    # once on L = 12 >= n threads. The service delay is Δ + the k-th order statistic of n
    # Exp(E): mean Δ + E·Σ_{i=n-k+1..n} 1/i, variance E²·Σ 1/i². The cost is nΔ + Gamma(k, E)
    # (each inter-completion gap costs Exp(E) by memorylessness): mean nΔ + kE, variance kE².
    count = 2000
    store = run_store(
        np.arange(count) * 10_000.0, sampler=SAMPLER, policy=fixed_code(n, k), n_threads=12
    )
    log = store.log.to_frame()
    assert len(log) == count
    np.testing.assert_array_equal(log["t_first_start"], log["t_arrive"])  # no queueing

    chunk = 3.0 / k
    shift, mean = 10 + 5 * chunk, 20 + 8 * chunk
    harmonic = sum(1 / i for i in range(n - k + 1, n + 1))
    harmonic2 = sum(1 / i**2 for i in range(n - k + 1, n + 1))
    delay_se = mean * math.sqrt(harmonic2 / count)
    assert abs(store.monitor.latencies.mean() - (shift + mean * harmonic)) < 4 * delay_se
    cost_se = mean * math.sqrt(k / count)
    assert abs(log["cost"].mean() - (n * shift + k * mean)) < 4 * cost_se


class Scripted:
    """Hands out prescribed codes (policy) and task delays (sampler), recording what it saw."""

    def __init__(self, codes, delays):
        self.codes = list(codes)
        self.delays = list(delays)
        self.states = []
        self.chunks = []

    def policy(self, state: StoreState):
        self.states.append(state)
        return self.codes.pop(0)

    def sampler(self, rng, chunk_size, n):
        self.chunks.append(chunk_size)
        return np.array(self.delays.pop(0))


def test_hand_worked_trace():
    # L = 2. A (3,2) at 0 with delays 10/30/5; B (2,1) at 1 with 4/8; C (3,1) at 40 with 6/50/7.
    #  0: A admitted, A0 and A1 start, A2 queued.      1: B waits (no idle thread).
    # 10: A0 done; the freed thread takes A2 (B may not leave: the task queue is not empty).
    # 15: A2 done = 2nd completion -> A done (delay 15); A1 interrupted after 15 -> cost 10+5+15.
    #     B admitted, B0 and B1 start.              19: B0 done -> B done (delay 18), cost 4+4.
    # 40: C admitted, C0 and C1 start, C2 queued.
    # 46: C0 done -> C done (delay 6); C1 interrupted (6), C2 cancelled (0) -> cost 12.
    script = Scripted([(3, 2), (2, 1), (3, 1)], [[10, 30, 5], [4, 8], [6, 50, 7]])
    store = run_store(
        [0.0, 1.0, 40.0],
        sampler=script.sampler,
        policy=script.policy,
        n_threads=2,
        log_tasks=True,
        check_invariants=True,
    )
    log = store.log.to_frame().set_index("rid")
    np.testing.assert_allclose(log["t_admit"], [0, 15, 40])
    np.testing.assert_allclose(log["t_end"], [15, 19, 46])
    np.testing.assert_allclose(store.monitor.latencies, [15, 18, 6])
    np.testing.assert_allclose(log["cost"], [30, 8, 12])
    assert store.busy_time == pytest.approx(50.0)
    assert script.chunks == [1.5, 3.0, 3.0]  # J/k

    # B was coded on arrival, seeing no idle thread and A2 in the task queue.
    assert (script.states[1].idle_threads, script.states[1].task_queue_length) == (0, 1)
    assert script.states[1].in_service == 1
    assert script.states[2].idle_threads == 2

    tasks = store.task_log.to_frame()
    assert list(tasks["outcome"]) == [
        "completed",  # A0 at 10
        "completed",  # A2 at 15
        "interrupted",  # A1 at 15
        "completed",  # B0 at 19
        "interrupted",  # B1 at 19
        "completed",  # C0 at 46
        "cancelled",  # C2 at 46, never started
        "interrupted",  # C1 at 46
    ]
    np.testing.assert_allclose(tasks["t_start"], [0, 10, 0, 15, 15, 40, np.nan, 40])


def test_decision_at_admission_sees_the_state_then():
    script = Scripted([(1, 1), (2, 1)], [[10], [3, 4]])
    store = run_store(
        [0.0, 1.0],
        sampler=script.sampler,
        policy=script.policy,
        n_threads=2,
        decide_at="admission",
    )
    # Both admitted on arrival (a thread is idle): the second one sees 1 idle thread at t = 1.
    assert [s.now for s in script.states] == [0.0, 1.0]
    assert script.states[1].idle_threads == 1
    np.testing.assert_allclose(store.log.to_frame().sort_values("rid")["t_end"], [10, 4])


def test_simultaneous_completions_and_zero_delays():
    # (2,1) with equal delays: one completes, the other is interrupted with its full delay.
    # (2,1) with a zero delay on L = 1: done at once, the second task never starts.
    script = Scripted([(2, 1), (2, 1)], [[5, 5], [0, 3]])
    store = run_store(
        [0.0, 100.0], sampler=script.sampler, policy=script.policy, n_threads=2, log_tasks=True
    )
    np.testing.assert_allclose(store.log.to_frame()["cost"], [10, 0])
    np.testing.assert_allclose(store.monitor.latencies, [5, 0])
    assert list(store.task_log.to_frame()["outcome"]).count("completed") == 2


def cycling_policy(state: StoreState):
    """Varied codes, more redundancy when threads are idle (exercises cancellation)."""
    codes = [(1, 1), (2, 1), (6, 3), (4, 2), (12, 6), (3, 3)]
    return codes[(int(state.now) + state.queue_length + state.idle_threads) % len(codes)]


def test_a6_invariants_under_load():
    rng = np.random.default_rng(7)
    times = poisson_arrival_times(rng, rate_per_s=40.0, duration_ms=60_000)
    store = run_store(
        times,
        seed=8,
        sampler=SAMPLER,
        policy=cycling_policy,
        n_threads=6,
        log_tasks=True,
        check_invariants=True,  # raises on the first event that breaks A6
    )
    requests = store.log.to_frame().set_index("rid").sort_index()
    tasks = store.task_log.to_frame()
    assert len(requests) == len(times)
    assert requests["t_admit"].gt(requests["t_arrive"]).any()  # there was queueing

    # Cancelled tasks never start; each request ends at its k-th completion, with k completions.
    assert tasks.loc[tasks["outcome"] == "cancelled", "t_start"].isna().all()
    completed = tasks[tasks["outcome"] == "completed"].groupby("rid")["t_end"]
    np.testing.assert_array_equal(completed.count(), requests["k"])
    np.testing.assert_allclose(completed.max(), requests["t_end"])

    # HoL rule: admissions in arrival order, each one only after every task of the previous
    # request has started or been cancelled, and with its first task starting at once.
    assert requests["t_admit"].is_monotonic_increasing
    np.testing.assert_array_equal(requests["t_first_start"], requests["t_admit"])
    left_queue = tasks["t_start"].fillna(tasks["t_end"]).groupby(tasks["rid"]).max()
    assert (requests["t_admit"].to_numpy()[1:] >= left_queue.to_numpy()[:-1]).all()

    # Work conservation between events: whenever a request or task waits, all threads are busy.
    started = tasks.dropna(subset=["t_start"])
    events = np.unique(np.concatenate([tasks["t_end"], started["t_start"], times]))
    mid = (events[:-1] + events[1:]) / 2
    busy = np.searchsorted(np.sort(started["t_start"]), mid, side="right") - np.searchsorted(
        np.sort(started["t_end"]), mid, side="right"
    )
    waiting_requests = np.searchsorted(
        np.sort(requests["t_arrive"]), mid, side="right"
    ) - np.searchsorted(np.sort(requests["t_admit"]), mid, side="right")
    admitted = requests["t_admit"].reindex(tasks["rid"]).to_numpy()
    left = tasks["t_start"].fillna(tasks["t_end"]).to_numpy()
    waiting_tasks = np.searchsorted(np.sort(admitted), mid, side="right") - np.searchsorted(
        np.sort(left), mid, side="right"
    )
    assert busy.max() <= 6
    assert np.all(busy[(waiting_requests + waiting_tasks) > 0] == 6)

    # Total thread busy time equals the sum of request costs.
    assert store.busy_time == pytest.approx(requests["cost"].sum(), rel=1e-9)


def test_basic_code_on_one_thread_is_mm1():
    # (1,1), L = 1, Exp(100 ms) tasks, λ = 5 req/s: M/M/1 with μ = 10/s, mean sojourn
    # 1/(μ - λ) = 200 ms. Sojourn times are autocorrelated, so the tolerance comes from 20
    # independent replications (each started empty, first 100 requests dropped): 4 standard
    # errors of their mean. The start-up bias is O(relaxation time ~ 12 services) / 1500
    # requests, well under one standard error.
    means = []
    for arrivals_rng, service_rng in zip(
        *[np.random.default_rng(s).spawn(20) for s in (1, 2)], strict=True
    ):
        times = poisson_arrival_times(arrivals_rng, rate_per_s=5.0, duration_ms=320_000)
        env = simpy.Environment()
        store = CloudStore(env, service_rng, ShiftedExponential(mean=100.0), n_threads=1)
        store.replay(times)
        env.run()
        means.append(store.monitor.latencies[100:].mean())
    means = np.array(means)
    standard_error = means.std(ddof=1) / math.sqrt(len(means))
    assert abs(means.mean() - 200.0) < 4 * standard_error
    assert standard_error < 10.0  # the check is informative (5% of the target)


def test_poisson_arrival_times_rate():
    # 10^5 expected arrivals: count within 4 sd (316) of the mean, times sorted and in range.
    times = poisson_arrival_times(np.random.default_rng(3), rate_per_s=50.0, duration_ms=2e6)
    assert abs(len(times) - 100_000) < 4 * math.sqrt(100_000)
    assert np.all(np.diff(times) >= 0) and times[0] >= 0 and times[-1] < 2e6


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: fixed_code(1, 2), ["(n, k)", "(1, 2)", "1 <= k <= n"]),
        (lambda: fixed_code(0, 0), ["(0, 0)"]),
        (lambda: ShiftedExponential(mean=-1.0), ["mean", "-1.0", ">= 0"]),
        (lambda: poisson_arrival_times(np.random.default_rng(), 0.0, 10.0), ["rate_per_s"]),
        (lambda: make_store(n_threads=0), ["n_threads", "0", ">= 1"]),
        (lambda: make_store(file_size=-3.0), ["file_size", "-3.0", "> 0"]),
        (lambda: make_store(decide_at="later"), ["decide_at", "'later'", "('arrival'"]),
        (lambda: make_store(rng=np.random.RandomState(0)), ["rng", "Generator"]),
        (lambda: make_store().replay([5.0, 1.0]), ["arrival_times", "non-decreasing", "1.0"]),
        (lambda: make_store().replay([-2.0]), ["arrival_times", ">= now", "-2.0"]),
    ],
)
def test_invalid_parameters(call, words):
    with pytest.raises(ValueError) as err:
        call()
    for word in words:
        assert word in str(err.value)


def make_store(rng=None, **kwargs):
    rng = np.random.default_rng(0) if rng is None else rng
    return CloudStore(simpy.Environment(), rng, SAMPLER, **kwargs)


def test_bad_policy_output_and_bad_sampler_output():
    with pytest.raises(ValueError, match=r"policy .* 1 <= k <= n, got \(n, k\) = \(2, 3\)"):
        run_store([0.0], sampler=SAMPLER, policy=lambda state: (2, 3))
    with pytest.raises(ValueError, match="must return 2 finite delays"):
        run_store([0.0], sampler=lambda rng, b, n: np.ones(3), policy=fixed_code(2, 1))
