"""One contract per role, run for every member, in the spirit of scikit-learn's
``check_estimator``: every forecaster and every background scheduler (allocator) has the same
interface, is deterministic, rejects bad input with an error naming the parameter, handles the
edge cases and agrees with a hand-worked case."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.vdi import forecast as fc
from storrepro.papers.vdi.kernel import fluid_replay
from storrepro.papers.vdi.reference import simulate
from storrepro.papers.vdi.scheduler import FixedWatermark, ForecastView, Inline, SmartScheduler
from storrepro.sim.core_pool import CorePoolConfig, PoolState, demand_cores

# ---------------------------------------------------------------- forecasters

#: Every forecaster, at a 4-point season so that the ARIMA fits stay small.
FORECASTERS = {
    "proposed": lambda: fc.ProposedEWMA(period=4),
    "holt-winters": lambda: fc.HoltWinters(period=4),
    "arima": lambda: fc.ArimaCSS(p=4, q=1),
    "arima-ridge": lambda: fc.RidgeArimaCSS(p=4, q=1),
    "seasonal-naive": lambda: fc.SeasonalNaive(period=4),
}
DAY = np.array([1.0, 5.0, 3.0, 2.0])


def test_the_contract_covers_every_forecaster():
    assert set(FORECASTERS) == set(fc.FORECASTERS)


@pytest.fixture(params=sorted(FORECASTERS))
def forecaster(request):
    return FORECASTERS[request.param]()


def test_forecast_interface_and_determinism(forecaster):
    rng = np.random.default_rng(1)
    history = np.tile(DAY, 6) * rng.uniform(0.8, 1.2, 24)
    first = forecaster.forecast(history, 6)
    assert isinstance(first, np.ndarray) and first.shape == (6,) and np.isfinite(first).all()
    np.testing.assert_array_equal(first, forecaster.forecast(history.copy(), 6))
    assert forecaster.forecast(history, 1).shape == (1,)


@pytest.mark.parametrize(
    "history, message",
    [
        ([], "history has 0 points"),
        ([3.0], "history has 1 points"),
        (np.full((2, 12), 1.0), "history must be 1-D"),
        (np.r_[np.tile(DAY, 5), -1.0, 1.0, 1.0, 1.0], "history must be finite IOPS >= 0"),
        (np.r_[np.tile(DAY, 5), np.nan, 1.0, 1.0, 1.0], "history must be finite IOPS >= 0"),
    ],
)
def test_forecast_rejects_a_bad_history(forecaster, history, message):
    with pytest.raises(ValueError, match=message):
        forecaster.forecast(history, 2)


@pytest.mark.parametrize("steps", [0, -1, 1.5, True])
def test_forecast_rejects_bad_steps(forecaster, steps):
    with pytest.raises(ValueError, match="steps must be a whole number >= 1"):
        forecaster.forecast(np.tile(DAY, 6), steps)


@pytest.mark.parametrize("history", [np.tile(DAY, 6), np.full(24, 7.0)], ids=["day", "flat"])
def test_forecast_continues_a_series_that_repeats_exactly(forecaster, history):
    """By hand: six copies of one day (or a flat series) leave nothing to learn but that day."""
    expected = np.resize(history[:4], 6)
    np.testing.assert_allclose(forecaster.forecast(history, 6), expected, atol=0.01)


# ---------------------------------------------------------------- schedulers (allocators)

CONFIG = CorePoolConfig(n_cores=4, fg_iops_per_core=50.0, bg_blocks_per_core_s=1.0, tick_s=10.0)
POOL = 100.0


def _view(demand=0.0, lumps=0.0, ticks=8):
    return ForecastView(np.full((2, 2 * ticks), demand), np.full((2, 2 * ticks), lumps), ticks)


#: Every background scheduler of the notebook's policies, on a 4-core pool of 100 blocks.
ALLOCATORS = {
    "fixed": lambda: FixedWatermark(POOL, 1, 3),
    "fixed-wc": lambda: FixedWatermark(POOL, 1, 3, harvest=True),
    "smart": lambda: SmartScheduler(POOL, _view(), 1.0, horizon=4, window=2, replan=2,
                                    spread="bg-floor"),
    "smart-even-cores": lambda: SmartScheduler(POOL, _view(), 1.0, horizon=4, window=2,
                                               replan=2, spread="even-cores"),
    "inline": lambda: Inline(1.0),
    "idle-only": lambda: demand_cores,
}


def state(demand, debt, tick=0):
    return PoolState(tick, tick * CONFIG.tick_s, demand, debt, 4, CONFIG.tick_s, 50.0)


@pytest.fixture(params=sorted(ALLOCATORS))
def allocator(request):
    return request.param, ALLOCATORS[request.param]


def test_allocator_interface_and_determinism(allocator):
    _, make = allocator
    rng = np.random.default_rng(2)
    states = [state(float(d), float(b), t) for t, (d, b) in
              enumerate(zip(rng.uniform(0, 250, 8), rng.uniform(0, 99, 8), strict=True))]
    first, second = make(), make()
    got = [first(s) for s in states]
    assert got == [second(s) for s in states]
    assert all(isinstance(c, int) and 0 <= c <= 4 for c in got)


#: By hand, at 120 IOPS (FG needs ⌈120/50⌉ = 3 of the 4 cores) and 45 blocks of debt (45 % of
#: the pool): the fixed ramp reserves ⌈1 + 2·(45 − 40)/10⌉ = 2 BG cores, so FG gets 2; inline
#: needs ⌈45/(1·10)⌉ = 5 ≥ 4 BG cores, so FG gets none; the smart scheduler's zero forecast
#: never breaches 95 %, so FG gets its 3; idle-only gives FG its 3.
HAND = {"fixed": 2, "fixed-wc": 2, "smart": 3, "smart-even-cores": 3, "inline": 0, "idle-only": 3}


def test_allocator_agrees_with_a_hand_worked_tick(allocator):
    name, make = allocator
    assert make()(state(120.0, 45.0)) == HAND[name]


def test_allocator_on_an_idle_empty_pool(allocator):
    """No demand and no debt: FG needs no core, and only the non-harvesting fixed bucket and
    inline (nothing to clear) keep every core for FG."""
    name, make = allocator
    expected = 4 if name in ("fixed", "inline") else 0
    assert make()(state(0.0, 0.0)) == expected


@pytest.mark.parametrize("ticks", [1, 2, 13])
def test_kernel_equals_reference_for_every_allocator(allocator, ticks):
    """The fast path gives the simpy model's tick log bit for bit, from one tick up."""
    _, make = allocator
    rng = np.random.default_rng(ticks)
    demand = rng.uniform(0, 220, ticks)
    lumps = np.where(rng.random(ticks) < 0.3, rng.uniform(0, 40, ticks), 0.0)
    simpy_log = simulate(demand, lumps, make(), CONFIG).log.to_frame()
    pd.testing.assert_frame_equal(fluid_replay(demand, lumps, make(), CONFIG), simpy_log,
                                  check_exact=True)


@pytest.mark.parametrize(
    "make, parameter",
    [
        (lambda: FixedWatermark(-1.0), "pool_blocks"),
        (lambda: FixedWatermark(POOL, low=0.6, high=0.5), "low < high"),
        (lambda: FixedWatermark(POOL, n_min=5, n_agg=3), "n_min <= n_agg"),
        (lambda: SmartScheduler(0.0, _view()), "pool_blocks"),
        (lambda: SmartScheduler(POOL, _view(), cap=1.5), "cap"),
        (lambda: SmartScheduler(POOL, _view(), horizon=0), "horizon"),
        (lambda: SmartScheduler(POOL, _view(), spread="sideways"), "spread"),
        (lambda: Inline(0.0), "bg_blocks_per_core_s"),
        (lambda: _view(demand=-1.0), "forecasts must be >= 0"),
    ],
)
def test_allocators_reject_bad_parameters_naming_them(make, parameter):
    with pytest.raises(ValueError, match=parameter):
        make()
