import numpy as np
import pytest
import simpy

from storrepro.sim.fifo import FifoServer, fifo_departures, poisson_arrivals, replay, simulate_fifo


def test_hand_worked_queue():
    # 0: served 0-2; 1: arrives 1, waits 1, served 2-3; 2: arrives 1.5, waits 1.5, served 3-4;
    # 3: arrives 5 to an idle server.
    arrivals, services = [0.0, 1.0, 1.5, 5.0], [2.0, 1.0, 1.0, 0.5]
    waits, sojourns = simulate_fifo(arrivals, services)
    assert waits.tolist() == [0.0, 1.0, 1.5, 0.0]
    assert sojourns.tolist() == [2.0, 2.0, 2.5, 0.5]
    assert fifo_departures(arrivals, services).tolist() == [2.0, 3.0, 4.0, 5.5]


def test_vectorized_kernel_matches_simpy_request_by_request():
    rng = np.random.default_rng(5)
    arrivals = poisson_arrivals(rng, 0.9, 20_000)
    services = rng.exponential(1.0, arrivals.size)
    _, sojourns = simulate_fifo(arrivals, services)
    fast = fifo_departures(arrivals, services) - arrivals
    assert np.max(np.abs(sojourns - fast)) < 1e-9


def _replay_numpy_scalars(env, server, arrivals, service_times):
    """The replay as it was before it walked Python floats: numpy scalars all along."""
    for i, t in enumerate(arrivals):
        yield env.timeout(t - env.now)
        server.submit(float(service_times[i]))


@pytest.mark.parametrize("size", [0, 1, 5_000])
def test_replay_of_python_floats_records_the_numpy_scalar_replays_bits(size):
    rng = np.random.default_rng(11)
    arrivals = np.round(poisson_arrivals(rng, 0.7, size), 1)  # rounded: ties and idle gaps
    services = rng.gamma(4.0, 0.25, size)
    recorded = []
    for process in (replay, _replay_numpy_scalars):
        env = simpy.Environment()
        server = FifoServer(env, 1.0)
        env.process(process(env, server, arrivals, services))
        env.run()
        recorded.append((server.waits.latencies, server.latencies.latencies))
    for fast, slow in zip(*recorded, strict=True):
        assert fast.size == size
        assert np.array_equal(fast.view(np.uint64), slow.view(np.uint64))


def test_fixed_rate_server_and_sampler():
    env = simpy.Environment()
    server = FifoServer.fixed_rate(env, rate=4.0)  # 0.25 per request
    env.process(replay(env, server, [0.0, 0.0, 0.0]))
    env.run()
    assert server.latencies.latencies.tolist() == [0.25, 0.5, 0.75]

    env = simpy.Environment()
    sampled = FifoServer(env, lambda rng: rng.uniform(1.0, 1.0), rng=np.random.default_rng(0))
    env.process(replay(env, sampled, [0.0, 0.5]))
    env.run()
    assert sampled.waits.latencies.tolist() == [0.0, 0.5]
    assert sampled.latencies.percentiles()["p50"] == pytest.approx(1.25)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda env: FifoServer(env, 0.0), "service_time must be > 0"),
        (lambda env: FifoServer(env, lambda rng: 1.0), "needs rng"),
        (lambda env: FifoServer.fixed_rate(env, -2), "rate must be > 0"),
        (lambda env: simulate_fifo([0, 1], [1]), "one length"),
        (lambda env: simulate_fifo([1, 0], [1, 1]), "sorted"),
        (lambda env: fifo_departures([0, 1], [1, -1]), "finite numbers >= 0; entry 1 is -1.0"),
        (lambda env: poisson_arrivals(np.random.default_rng(0), 0, 3), "rate must be a finite"),
    ],
)
def test_clear_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call(simpy.Environment())


def test_departures_carry_the_backlog_of_earlier_work():
    # Server busy until t = 5: requests at 1 and 6 with 2 units each start at 5 and 7.
    np.testing.assert_allclose(fifo_departures([1.0, 6.0], [2.0, 2.0], free_at=5.0), [7.0, 9.0])
    # An idle server (free_at in the past) changes nothing.
    np.testing.assert_allclose(fifo_departures([1.0, 6.0], [2.0, 2.0], free_at=0.0), [3.0, 8.0])


def test_stream_in_chunks_equals_one_call_and_keeps_bounded_state():
    from storrepro.sim.fifo import fifo_stream
    from storrepro.sim.monitor import LatencyMonitor

    rng = np.random.default_rng(3)
    arrivals = np.cumsum(rng.exponential(1.0, 300_000))
    service = rng.exponential(0.8, 300_000)
    whole = fifo_departures(arrivals, service) - arrivals
    exact = LatencyMonitor("exact")
    fifo_stream(
        ((arrivals[i : i + 7000], service[i : i + 7000]) for i in range(0, 300_000, 7000)), exact
    )
    np.testing.assert_allclose(exact.latencies, whole, rtol=0, atol=1e-9)
    streamed = fifo_stream([(arrivals, service)], LatencyMonitor("s", streaming=True))
    assert streamed.sketch.nbytes < 100_000
    for label, value in streamed.percentiles().items():
        reference = np.percentile(whole, float(label[1:]))
        assert abs(value / reference - 1) <= 0.006, label


def test_stream_rejects_chunks_out_of_order():
    from storrepro.sim.fifo import fifo_stream
    from storrepro.sim.monitor import LatencyMonitor

    with pytest.raises(ValueError, match="follow each other in time"):
        fifo_stream([([5.0, 6.0], [1.0, 1.0]), ([2.0], [1.0])], LatencyMonitor())


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_inputs_are_refused_with_their_name(bad):
    with pytest.raises(ValueError, match="arrivals must hold finite numbers; entry 1 is"):
        fifo_departures([0.0, bad], [1.0, 1.0])
    with pytest.raises(ValueError, match="service_times must hold finite numbers >= 0; entry 0"):
        simulate_fifo([0.0, 1.0], [bad, 1.0])
