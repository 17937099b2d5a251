"""VDI schedulers on hand-built cases: snapshot debt, the Lindley replay, the fixed ramp, inline,
the smart planner, and S1–S3 on the simpy core pool against its fast path."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.vdi.config import SystemParams
from storrepro.papers.vdi.kernel import fluid_replay, summarize
from storrepro.papers.vdi.metrics import invariants
from storrepro.papers.vdi.reference import simulate
from storrepro.papers.vdi.scheduler import (
    FixedWatermark,
    ForecastView,
    Inline,
    SmartScheduler,
    lindley,
    snapshot_debt,
)
from storrepro.sim.core_pool import CorePoolConfig, PoolState, demand_cores

SMALL = CorePoolConfig(n_cores=4, fg_iops_per_core=50.0, bg_blocks_per_core_s=1.0, tick_s=10.0)


def state(demand, debt, tick=0, n=4, tick_s=10.0):
    return PoolState(tick, tick * tick_s, demand, debt, n, tick_s, 50.0)


def test_snapshot_debt_lumps_each_hours_writes_at_the_next_boundary():
    writes = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])  # 2 ticks per hour, 10 s ticks
    lumps = snapshot_debt(writes, tick_s=10.0, ticks_per_hour=2)
    # hour 0 = ticks 0-1 (30 blocks) expires at tick 2, hour 1 (70) at 4, hour 2 (110) at 6
    np.testing.assert_allclose(lumps, [0, 0, 30, 0, 70, 0, 110])


def test_lindley_closed_form_matches_the_recursion():
    rng = np.random.default_rng(0)
    arrivals, capacity = rng.uniform(0, 10, 200), rng.uniform(0, 10, 200)
    x, expected = 7.0, []
    for a, c in zip(arrivals, capacity, strict=True):
        x = max(0.0, x + a - c)
        expected.append(x)
    np.testing.assert_allclose(lindley(7.0, arrivals, capacity), expected)


def test_fixed_watermark_ramp_by_hand():
    fixed = FixedWatermark(pool_blocks=100.0, n_min=1, n_agg=3)
    assert fixed(state(120.0, 39.0)) == 4  # below 40 %: BG idle, FG domain keeps every core
    assert fixed.reserved(40.0) == 1  # n_min at 40 %
    assert fixed.reserved(45.0) == 2  # halfway: 1 + 2·0.5
    assert fixed.reserved(60.0) == 3  # capped at n_agg above 50 %
    assert fixed(state(120.0, 45.0)) == 2  # FG needs 3 cores, 4 − 2 reserved remain
    assert fixed(state(40.0, 45.0)) == 1  # FG needs 1; BG harvests the rest
    harvesting = FixedWatermark(pool_blocks=100.0, n_min=1, n_agg=3, harvest=True)
    assert harvesting(state(120.0, 10.0)) == 3  # work-conserving: idle core goes to BG


def test_inline_gives_bg_the_cores_to_clear_all_debt():
    inline = Inline(bg_blocks_per_core_s=1.0)
    assert inline(state(200.0, 25.0)) == 1  # 25 blocks at 10 per core-tick -> 3 BG cores
    assert inline(state(200.0, 0.0)) == 4


def flat_view(demand, lumps, ticks_per_day):
    return ForecastView(np.tile(demand, (2, 1)), np.tile(lumps, (2, 1)), ticks_per_day)


def test_smart_planner_steals_cores_only_before_a_forecast_breach():
    # 4 cores, 10 blocks per BG core-tick; FG needs 3 cores every tick, so 1 BG core frees 10.
    # A 60-block lump arrives at tick 3; with debt 30 after service the pool (P = 100, cap 0.5)
    # breaches 50 blocks at tick 3 unless BG gets more cores in the window before it.
    demand = np.full(8, 150.0)
    lumps = np.zeros(8)
    lumps[3] = 60.0
    smart = SmartScheduler(
        100.0, flat_view(demand, lumps, 8), 1.0, cap=0.5, horizon=8, window=2, replan=8
    )
    cff, w_dyn, iterations = smart.plan(state(150.0, 20.0))
    # no stealing: debt 10, 0, 0, 50 (breach at 3 is not > 50) -> no breach, no CFF
    assert iterations == 0 and not cff.any()
    cff, w_dyn, iterations = smart.plan(state(150.0, 45.0))
    # debt 35, 25, 15, 65 > 50: steal one core in ticks 1-3, then debt 35, 15, 0, 40
    assert iterations == 1
    np.testing.assert_array_equal(cff, [0, 1, 1, 1, 0, 0, 0, 0])
    # W_dyn: with this plan S = cumsum(lumps − capacity) peaks at −10, so any starting debt up
    # to 60 stays <= 50 after service; the watermark is reported clipped to the cap, 50
    s = np.cumsum(np.where(np.arange(8) == 3, 60.0, 0.0) - [10, 20, 20, 20, 10, 10, 10, 10])
    assert s.max() == -10.0 and w_dyn == 50.0
    lumps[3] = 45.0  # no breach, but the lump leaves less room: 45 − 3·10 = 15 blocks net
    smart = SmartScheduler(
        100.0, flat_view(demand, lumps, 8), 1.0, cap=0.5, horizon=8, window=2, replan=8
    )
    cff, w_dyn, iterations = smart.plan(state(150.0, 0.0))
    # S = cumsum(lumps − 10) = −10, −20, −30, +5, ... so a starting debt above 45 would breach
    assert iterations == 0 and w_dyn == pytest.approx(45.0)


def test_smart_emergency_burn_and_forecast_floor():
    demand = np.full(4, 100.0)
    smart = SmartScheduler(
        100.0, flat_view(demand, np.zeros(4), 4), 1.0, cap=0.9, horizon=2, window=1, replan=1
    )
    assert smart(state(20.0, 10.0)) == 2  # need = ⌈max(20, forecast 100)/50⌉
    assert smart(state(20.0, 95.0, tick=1)) == 0  # debt >= 90 % of the pool: all cores to BG


@pytest.mark.parametrize("kind", ["fixed", "smart", "idle", "inline"])
def test_invariants_conservation_and_fluid_agreement(kind):
    rng = np.random.default_rng(3)
    demand = rng.uniform(0, 220, 48)
    lumps = snapshot_debt(rng.uniform(0, 3, 48), 10.0, 6)
    pool = 400.0
    make = {
        "fixed": lambda: FixedWatermark(pool, 1, 3, harvest=False),
        "smart": lambda: SmartScheduler(
            pool,
            ForecastView(np.tile(demand, (2, 2))[:, :56], np.tile(lumps, (2, 2))[:, :56], 48),
            1.0,
            cap=0.6,
            horizon=8,
            window=4,
            replan=6,
        ),
        "idle": lambda: demand_cores,
        "inline": lambda: Inline(1.0),
    }[kind]
    result = simulate(demand, lumps, make(), SMALL)
    log = result.log.to_frame()
    summary = result.summary()
    summary["log"] = log
    system = SystemParams(n_cores=4, fg_iops_per_core=50.0, bg_blocks_per_core_s=1.0)
    assert invariants(summary, system, tick_s=10.0) == {"S1": True, "S2": True}
    fluid = fluid_replay(demand, lumps, make(), SMALL)
    pd.testing.assert_frame_equal(fluid, log, check_exact=True)  # tick by tick, bit for bit
    assert summarize(fluid) == summarize(log)
    if kind == "fixed":  # S3: never above 50 % plus one lump
        assert ((log.debt + log.bg_served) / pool).max() <= 0.5 + lumps.max() / pool
    if kind == "smart":
        assert ((log.debt + log.bg_served) / pool).max() <= 0.6 + lumps.max() / pool


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: FixedWatermark(pool_blocks=0.0), "pool_blocks"),
        (lambda: FixedWatermark(pool_blocks=10.0, low=0.0), "low"),
        (lambda: FixedWatermark(pool_blocks=10.0, high=1.5), "high"),
        (lambda: FixedWatermark(pool_blocks=10.0, low=0.6, high=0.5), "low < high"),
        (lambda: FixedWatermark(pool_blocks=10.0, n_min=5, n_agg=4), "n_min"),
        (lambda: SmartScheduler(10.0, flat_view(np.ones(2), np.ones(2), 2), cap=1.2), "cap"),
        (lambda: SmartScheduler(10.0, flat_view(np.ones(2), np.ones(2), 2), horizon=0), "horizon"),
        (lambda: ForecastView(-np.ones((1, 2)), np.ones((1, 2)), 2), ">= 0"),
        (lambda: snapshot_debt([-1.0, 2.0]), "IOPS >= 0"),
        (lambda: CorePoolConfig(n_cores=0), "n_cores"),
    ],
)
def test_bad_scheduler_input_is_rejected(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_spreading_rule_bg_floor_takes_fg_cores_only_where_idle_ones_fall_short():
    # 4 cores, 10 blocks per BG core-tick. FG needs 1 core in ticks 0-1 (3 idle) and 3 in ticks
    # 2-5 (1 idle). From debt 80 a 120-block lump at tick 4 breaches the cap, 50 % of P = 200
    # blocks: debt after service 50, 20, 10, 0, 110 > 100.
    demand = np.array([50.0, 50.0, 150.0, 150.0, 150.0, 150.0])
    lumps = np.zeros(6)
    lumps[4] = 120.0

    def planner(spread):
        return SmartScheduler(
            200.0, flat_view(demand, lumps, 6), 1.0, cap=0.5, horizon=6, window=4, replan=6,
            spread=spread,
        )

    # even cores: one stolen core in every tick of the window (0-4) clears the breach
    cff, _, iterations = planner("even-cores").plan(state(50.0, 80.0))
    assert iterations == 1
    np.testing.assert_array_equal(cff, [1, 1, 1, 1, 1, 0])
    # BG floor: a floor of 1 adds nothing (every tick has an idle core); a floor of 2 takes one
    # FG core in ticks 2-4 only: BG 3, 3, 2, 2, 2 cores -> debt 50, 20, 0, 0, 100, no breach
    floor, _, iterations = planner("bg-floor").plan(state(50.0, 80.0))
    assert iterations == 2
    np.testing.assert_array_equal(floor, [2, 2, 2, 2, 2, 0])
    # per tick: FG keeps its one core in tick 0 under the floor, loses it under even cores
    assert planner("bg-floor")(state(50.0, 80.0)) == 1
    assert planner("even-cores")(state(50.0, 80.0)) == 0
    with pytest.raises(ValueError, match="spread"):
        planner("uneven")
