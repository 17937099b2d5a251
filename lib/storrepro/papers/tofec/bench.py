"""Bench cases of notebook 05: the cloud store in simpy and in the fast kernel; the λ grid."""

from __future__ import annotations

from storrepro.suite.bench_cases import Simulator, Sweep, digest


def _setup(n, rng, rate=60.0):
    from storrepro.papers.tofec.delay import PURE
    from storrepro.papers.tofec.experiment import make_policy
    from storrepro.papers.tofec.workload import draw_workload

    policy = make_policy("TOFEC", PURE.true_params())
    arrivals, blocks = draw_workload(PURE, rng, rate, n)
    return policy, PURE, arrivals, blocks


def _cloud_simpy(n, rng):
    import simpy

    from storrepro.sim.cloud_store import CloudStore

    policy, model, arrivals, _ = _setup(n, rng)
    env = simpy.Environment()
    store = CloudStore(env, rng, model, policy, n_threads=16, file_size=3.0)
    store.replay(arrivals)
    env.run()


def _cloud_fast(n, rng):
    from storrepro.papers.tofec.kernel import simulate

    policy, model, arrivals, blocks = _setup(n, rng)
    simulate(policy, model, arrivals, blocks, 16)


SIMULATORS = [
    Simulator("cloud store (TOFEC, 60 req/s, L = 16)", "simpy", _cloud_simpy, 1_000, False),
    Simulator("cloud store (TOFEC, 60 req/s, L = 16)", "fast", _cloud_fast, 20_000, False),
]


def largest_sweep() -> Sweep:
    from storrepro.papers.tofec import experiment
    from storrepro.papers.tofec.config import TofecConfig

    cfg = TofecConfig(profile="full")
    params, _ = experiment.fitted_params(cfg)
    caps = experiment.capacities(cfg)
    tasks = experiment.grid_tasks(cfg, params, caps, float(caps.capacity.iloc[0]))
    return Sweep(
        "λ grid: every policy × rate × seed", experiment.run_grid_task, tasks, cfg.seed, digest
    )
