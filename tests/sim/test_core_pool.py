"""Core pool: a hand-worked 3-tick case, S1 invariants, conservation and errors."""

import numpy as np
import pytest
import simpy

from storrepro.sim.core_pool import CorePool, CorePoolConfig, PoolState, demand_cores


def debt_lumps(env, pool, lumps):
    """Add (time, blocks) lumps of debt at the given times."""
    for t, blocks in lumps:
        yield env.timeout(t - env.now)
        pool.add_debt(blocks)


def run_pool(demand, lumps=(), lumps_first=False, **kwargs):
    env = simpy.Environment()
    if lumps_first:  # the lump process is scheduled before the pool's first tick
        holder = {}
        env.process(debt_lumps(env, _Deferred(holder), lumps))
        pool = holder["pool"] = CorePool(env, demand, **kwargs)
    else:
        pool = CorePool(env, demand, **kwargs)
        env.process(debt_lumps(env, pool, lumps))
    env.run(until=pool.process)
    return pool


class _Deferred:
    """Forwards add_debt to a pool created after the lump process."""

    def __init__(self, holder):
        self.holder = holder

    def add_debt(self, blocks):
        self.holder["pool"].add_debt(blocks)


SMALL = CorePoolConfig(n_cores=4, tick_s=10.0)


@pytest.mark.parametrize("lumps_first", [False, True])
def test_hand_worked_three_ticks(lumps_first):
    # N = 4, Δ = 10 s, demand 120/250/40 IOPS, C_FG = ⌈A/50⌉ capped at 4. Debt 1000 blocks at
    # t = 0 (a tick boundary: counts for tick 0 whatever the process order) and 500 at t = 15
    # (mid-tick: counts for tick 2).
    #   tick 0: C_FG 3 (150 IOPS) serves 120;     C_BG 1 burns 1·20·10 = 200 -> debt 800
    #   tick 1: C_FG 4 (200 IOPS) serves 200, 50 queued, violation;  C_BG 0 -> debt 800
    #   tick 2: debt 1300; C_FG 1 serves 40;      C_BG 3 burns 600 -> debt 700
    pool = run_pool([120.0, 250.0, 40.0], [(0.0, 1000.0), (15.0, 500.0)], lumps_first, config=SMALL)
    log = pool.log.to_frame()
    np.testing.assert_allclose(log["t"], [0, 10, 20])
    assert list(log["c_fg"]) == [3, 4, 1]
    assert list(log["c_bg"]) == [1, 0, 3]
    np.testing.assert_allclose(log["fg_served_iops"], [120, 200, 40])
    np.testing.assert_allclose(log["queued_iops"], [0, 50, 0])
    assert list(log["violation"]) == [False, True, False]
    np.testing.assert_allclose(log["debt_added"], [1000, 0, 500])
    np.testing.assert_allclose(log["bg_served"], [200, 0, 600])
    np.testing.assert_allclose(log["debt"], [800, 800, 700])
    assert pool.summary() == pytest.approx(
        {
            "ticks": 3,
            "violation_pct": 100 / 3,
            "queued_pct": 100 * 50 / 410,
            "debt_added": 1500.0,
            "bg_served": 800.0,
            "final_debt": 700.0,
            "max_debt": 1300.0,
        }
    )


@pytest.mark.parametrize("lumps_first", [False, True])
def test_debt_added_at_a_later_tick_boundary_counts_for_that_tick(lumps_first):
    # One event per tick: a lump at t = 10 s (tick 1's start) is seen by tick 1 whichever
    # process was scheduled first, and the run lasts the full last tick.
    pool = run_pool([0.0, 0.0, 0.0], [(10.0, 30.0), (29.0, 5.0)], lumps_first, config=SMALL)
    log = pool.log.to_frame()
    np.testing.assert_allclose(log["debt_added"], [0, 30, 0])
    np.testing.assert_allclose(log["t"], [0, 10, 20])
    assert pool.env.now == 30.0 and pool.debt_added == 35.0  # the t = 29 lump is after tick 2
    assert pool.debt == 5.0  # tick 1 (4 BG cores, 800 blocks) cleared the 30 blocks


def test_allocator_sees_debt_and_demand():
    seen = []

    def allocator(state: PoolState):
        seen.append((state.tick, state.time, state.demand_iops, state.debt))
        return 0

    run_pool([10.0, 20.0], [(0.0, 50.0)], allocator=allocator, config=SMALL)
    # Tick 0 sees the lump; 4 BG cores burn 800 blocks per tick, so tick 1 sees no debt.
    assert seen == [(0, 0.0, 10.0, 50.0), (1, 10.0, 20.0, 0.0)]


def test_sixty_second_tick():
    # All 64 cores on BG for one 60 s tick: 64·20·60 = 76,800 blocks.
    pool = run_pool(
        [0.0], allocator=lambda s: 0, config=CorePoolConfig(tick_s=60.0), initial_debt=1e5
    )
    assert pool.log.to_frame()["bg_served"].iloc[0] == 76_800
    assert pool.debt == 100_000 - 76_800


def test_s1_invariants_and_conservation():
    rng = np.random.default_rng(11)
    ticks = 864
    demand = rng.uniform(0, 4000, ticks)  # sometimes above the 3,200 IOPS of 64 cores
    lumps = [(3600.0 * h, float(rng.uniform(0, 3e6))) for h in range(1, ticks // 6)]

    def random_split(state):
        return int(rng.integers(0, 65))

    pool = run_pool(demand, lumps, allocator=random_split)
    log = pool.log.to_frame()
    assert len(log) == ticks
    assert (log["c_fg"] + log["c_bg"] == 64).all()
    assert log["c_fg"].between(0, 64).all()
    assert (log["debt"] >= 0).all()
    assert (log["fg_served_iops"] <= np.minimum(log["demand_iops"], 50 * log["c_fg"])).all()
    assert (log["violation"] == (50 * log["c_fg"] < log["demand_iops"])).all()
    assert (log["bg_served"] <= 20 * 600 * log["c_bg"]).all()
    # S2 conservation, overall and tick by tick.
    summary = pool.summary()
    total = summary["bg_served"] + summary["final_debt"]
    assert total == pytest.approx(summary["debt_added"], rel=1e-9)
    assert summary["debt_added"] == pytest.approx(sum(b for _, b in lumps), rel=1e-12)
    previous = np.concatenate([[0.0], log["debt"].to_numpy()[:-1]])
    np.testing.assert_allclose(log["debt"], previous + log["debt_added"] - log["bg_served"])


def test_idle_only_allocator_violates_only_above_full_capacity():
    demand = np.array([0.0, 49.0, 50.0, 51.0, 3200.0, 3201.0])
    pool = run_pool(demand)
    log = pool.log.to_frame()
    assert list(log["c_fg"]) == [0, 1, 1, 2, 64, 64]
    assert list(log["violation"]) == [False] * 5 + [True]
    assert demand_cores(PoolState(0, 0.0, 3201.0, 0.0, 64, 600.0, 50.0)) == 64


@pytest.mark.parametrize("bad", [5, -1, float("nan"), True, "2"])
def test_allocator_out_of_range(bad):
    with pytest.raises(ValueError) as err:
        run_pool([100.0], allocator=lambda state: bad, config=SMALL)
    for word in ["allocator", f"C_FG = {bad!r}", "tick 0", "[0, 4]"]:
        assert word in str(err.value)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: CorePoolConfig(n_cores=0), ["n_cores", "0", ">= 1"]),
        (lambda: CorePoolConfig(tick_s=0.0), ["tick_s", "0.0", "> 0"]),
        (lambda: CorePoolConfig(bg_blocks_per_core_s=-20.0), ["bg_blocks_per_core_s", "-20"]),
        (lambda: CorePool(simpy.Environment(), [1.0, -1.0]), ["demand_iops", "-1.0", "tick 1"]),
        (lambda: CorePool(simpy.Environment(), [[1.0]]), ["demand_iops", "1-D"]),
        (lambda: CorePool(simpy.Environment(), [1.0], allocator=3), ["allocator", "callable"]),
        (lambda: CorePool(simpy.Environment(), [1.0], initial_debt=-5), ["initial_debt", "-5"]),
        (lambda: CorePool(simpy.Environment(), [1.0]).add_debt(float("inf")), ["blocks", "inf"]),
    ],
)
def test_invalid_parameters(call, words):
    with pytest.raises(ValueError) as err:
        call()
    for word in words:
        assert word in str(err.value)
