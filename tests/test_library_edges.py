"""Every public entry point the notebooks' readers call directly, fed NaN, ±inf, complex, huge,
zero, negative, fractional values, text and numpy's NaN and negatives: each is refused with an
error naming the argument, or works; numpy's scalars work as Python's numbers do, and a series
entry point refuses an empty array naming it."""

import math

import numpy as np
import pytest

from storrepro.papers.accgecko.acctail import AccTail
from storrepro.papers.bid.bid_hdd import BIDHDD
from storrepro.papers.bid.request import BlockRequest
from storrepro.papers.bid.schedulers import make_scheduler
from storrepro.papers.periodicity.findfrequency import findfrequency
from storrepro.papers.periodicity.precise_period import (
    PrecisePeriod,
    precise_period,
    preprocess,
    track_period,
)
from storrepro.papers.tofec.codes import round_trip
from storrepro.papers.tofec.policies import Ideal, Tofec
from storrepro.papers.validation.workload import service_times
from storrepro.papers.vdi import forecast
from storrepro.papers.vdi.forecast import smape
from storrepro.papers.vdi.scheduler import fg_cores
from storrepro.sim import theory
from storrepro.sim.fifo import poisson_arrivals
from storrepro.suite.checks import finite, whole
from storrepro.suite.data import synthetic
from storrepro.suite.parallel import sweep, task_rng

T = np.arange(480)
SERIES = np.sin(2 * np.pi * T / 24) + 0.3 * np.random.default_rng(0).normal(size=T.size) + 5
COUNTS = np.random.default_rng(1).poisson(2.0, 3000)
DAYS = 50 + 10 * np.sin(2 * np.pi * np.arange(24 * 6 * 7) / 144)

BAD = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "complex": 1 + 2j, "huge": 1e300,
       "zero": 0, "negative": -1, "fraction": 1.5, "text": "2", "numpy nan": np.float32("nan"),
       "numpy negative": np.int64(-1)}  # fmt: skip
#: every entry refuses these where it refuses the other, whatever else it accepts
ALWAYS = {"-inf": "inf", "text": "complex", "numpy nan": "nan", "numpy negative": "negative"}
HUGE_INT = 2**70

#: name -> (how to call it with value v, the argument's name, the values it must refuse)
ENTRIES = {
    "precise_period": (lambda v: precise_period(SERIES * v), "x", "nan inf complex huge"),
    "findfrequency": (lambda v: findfrequency(SERIES * v), "x", "nan inf complex huge"),
    "preprocess": (lambda v: preprocess(SERIES * v), "x", "nan inf complex huge"),
    "preprocess k": (lambda v: preprocess(SERIES, k=v), "k", "nan inf complex zero negative"),
    "preprocess dip_max": (lambda v: preprocess(SERIES, dip_max=v), "dip_max",
                           "nan inf complex zero negative fraction"),  # fmt: skip
    "AccTail m": (lambda v: AccTail(m=v), "m", "nan inf complex zero negative"),
    "AccTail k": (lambda v: AccTail(k=v), "k", "nan inf complex zero negative"),
    "AccTail c_us": (lambda v: AccTail(c_us=v), "c_us", "nan inf complex negative"),
    "AccTail slo_us": (lambda v: AccTail().fit(COUNTS).smallest_rate(0.99, v, 1, 5000),
                       "slo_us", "nan inf complex zero negative"),  # fmt: skip
    "AccTail overrun": (lambda v: AccTail().fit(COUNTS).overrun_probability(v, 3000.0),
                        "slo_us", "nan inf complex zero negative"),  # fmt: skip
    "Tofec thresholds": (lambda v: Tofec(n_thresholds=(v,), k_thresholds=()), "n_thresholds",
                         "nan inf complex negative"),  # fmt: skip
    "Ideal phase ends": (lambda v: Ideal(phase_ends_ms=(v,), codes=((1, 1), (2, 1))),
                         "phase_ends_ms", "nan inf complex"),  # fmt: skip
    "BIDHDD.add now": (lambda v: BIDHDD().add(BlockRequest(0, 8), now=v), "now",
                       "nan inf complex"),  # fmt: skip
    "BlockRequest lba": (lambda v: BlockRequest(lba=v, size=8), "lba",
                         "nan inf complex huge negative"),  # fmt: skip
    "forecast steps": (lambda v: forecast.SeasonalNaive().forecast(DAYS, steps=v), "steps",
                       "nan inf complex huge zero negative"),  # fmt: skip
    "decompose period": (lambda v: forecast.decompose(DAYS, period=v), "period",
                         "nan inf complex huge zero negative"),  # fmt: skip
    "fg_cores": (lambda v: fg_cores(100.0, 64, v), "fg_iops_per_core",
                 "nan inf complex zero negative"),  # fmt: skip
    "fg_cores demand": (lambda v: fg_cores(v, 64, 50.0), "demand_iops",
                        "nan inf complex negative"),  # fmt: skip
    "fg_cores n_cores": (lambda v: fg_cores(100.0, v, 50.0), "n_cores",
                         "nan inf complex zero negative fraction"),  # fmt: skip
    "Tofec n_min": (lambda v: Tofec(n_thresholds=(), k_thresholds=(), n_min=v), "n_min",
                    "nan inf complex zero negative fraction"),  # fmt: skip
    "PrecisePeriod L0_min": (lambda v: PrecisePeriod(L0_min=v), "L0_min",
                             "nan inf complex zero negative fraction"),  # fmt: skip
    "PrecisePeriod dL_min": (lambda v: PrecisePeriod(dL_min=v), "dL_min",
                             "nan inf complex zero negative fraction"),  # fmt: skip
    "PrecisePeriod dip_max": (lambda v: PrecisePeriod(dip_max=v).detect(SERIES), "dip_max",
                              "nan inf complex zero negative fraction"),  # fmt: skip
    "synthetic seed": (lambda v: synthetic.generate(count=1, seed=v), "seed",
                       "nan inf complex negative"),  # fmt: skip
    "synthetic count": (lambda v: synthetic.generate(count=v), "count",
                        "nan inf complex huge zero negative"),  # fmt: skip
    "poisson count": (lambda v: poisson_arrivals(np.random.default_rng(0), 1.0, v), "count",
                      "nan inf complex huge negative"),  # fmt: skip
    "poisson rate": (lambda v: poisson_arrivals(np.random.default_rng(0), v, 3), "rate",
                     "nan inf complex zero negative"),  # fmt: skip
    "service_times count": (lambda v: service_times("M/M/1", np.random.default_rng(0), v),
                            "count", "nan inf complex huge negative"),  # fmt: skip
    "precise_period growth": (lambda v: precise_period(SERIES, growth=v), "growth",
                              "nan inf complex zero negative fraction"),  # fmt: skip
    "track_period start": (lambda v: track_period(SERIES, start=v), "start",
                           "nan inf complex huge zero negative fraction"),  # fmt: skip
    "track_period patience": (lambda v: track_period(SERIES, 200, patience=v), "patience",
                              "nan inf complex zero negative fraction"),  # fmt: skip
    "track_period recent": (lambda v: track_period(SERIES, 200, patience=1, recent=v), "recent",
                            "nan inf complex zero negative fraction"),  # fmt: skip
    "round_trip size_bytes": (lambda v: round_trip(np.random.default_rng(0), 4, 2, v, 2),
                              "size_bytes", "nan inf complex zero negative fraction"),  # fmt: skip
    "round_trip trials": (lambda v: round_trip(np.random.default_rng(0), 4, 2, 64, v), "trials",
                          "nan inf complex zero negative fraction"),  # fmt: skip
    "precise_period theta": (lambda v: precise_period(SERIES, theta=v), "theta",
                             "nan inf complex huge zero negative"),  # fmt: skip
    "ProposedEWMA period": (lambda v: forecast.ProposedEWMA(period=v), "period",
                            "nan inf complex huge zero negative fraction"),  # fmt: skip
    "ProposedEWMA alpha": (lambda v: forecast.ProposedEWMA(alpha=v), "alpha",
                           "nan inf complex huge zero negative"),  # fmt: skip
    "SeasonalNaive period": (lambda v: forecast.SeasonalNaive(period=v), "period",
                             "nan inf complex huge zero negative fraction"),  # fmt: skip
    "HoltWinters period": (lambda v: forecast.HoltWinters(period=v), "period",
                           "nan inf complex huge zero negative fraction"),  # fmt: skip
    "mm1 quantile q": (lambda v: theory.mm1_wait_quantile(v, 0.5, 1.0), "q",
                       "nan inf complex huge negative fraction"),  # fmt: skip
    "mm1 quantile mu": (lambda v: theory.mm1_wait_quantile(0.9, 0.5, v), "mu",
                        "nan inf complex zero negative"),  # fmt: skip
    "mm1 mean lam": (lambda v: theory.mm1_mean_wait(v, 1e301), "lam",
                     "nan inf complex zero negative"),  # fmt: skip
    "md1 quantile q": (lambda v: theory.md1_wait_quantile(v, 0.5, 1.0), "q",
                       "nan inf complex huge negative fraction"),  # fmt: skip
    "md1 quantile service": (lambda v: theory.md1_wait_quantile(0.9, 1e-301, v), "service",
                             "nan inf complex zero negative"),  # fmt: skip
    "md1 cdf t": (lambda v: theory.md1_wait_cdf(v, 0.5, 1.0), "t", "nan inf complex huge"),
    "pk mean service": (lambda v: theory.pk_mean_wait(1e-301, v, 1.0), "mean_service",
                        "nan inf complex zero negative"),  # fmt: skip
    "kth_of_n k": (lambda v: theory.kth_of_n_mean(3, v, 0.0, 1.0), "k",
                   "nan inf complex huge zero negative fraction"),  # fmt: skip
    "kth_of_n mean_exp": (lambda v: theory.kth_of_n_mean(3, 1, 0.0, v), "mean_exp",
                          "nan inf complex zero negative"),  # fmt: skip
    "task_rng seed": (lambda v: task_rng(v, "task"), "seed",
                      "nan inf complex negative fraction"),  # fmt: skip
    "make_scheduler quantum": (lambda v: make_scheduler("cfq-q8", quantum=v), "quantum",
                               "nan inf complex zero negative fraction"),  # fmt: skip
    "PrecisePeriod theta": (lambda v: PrecisePeriod(theta=v), "theta",
                            "nan inf complex huge zero negative fraction"),  # fmt: skip
    "smape actual": (lambda v: smape(np.full(3, v), np.ones(3)), "actual",
                     "nan inf complex"),  # fmt: skip
    "sweep seed": (lambda v: sweep(lambda t, rng: t, [1], seed=v, workers=1, progress=False),
                   "seed", "nan inf complex negative fraction"),  # fmt: skip
}
WHOLE = {"precise_period growth", "ProposedEWMA period", "SeasonalNaive period",
         "HoltWinters period", "kth_of_n k", "track_period start", "track_period patience",
         "track_period recent", "sweep seed", "AccTail k", "BlockRequest lba",
         "forecast steps", "decompose period", "synthetic seed", "synthetic count",
         "poisson count", "service_times count", "task_rng seed",
         "make_scheduler quantum", "preprocess dip_max", "fg_cores n_cores",
         "Tofec n_min", "PrecisePeriod L0_min", "PrecisePeriod dL_min",
         "PrecisePeriod dip_max"}  # fmt: skip


@pytest.mark.parametrize("kind", BAD)
@pytest.mark.parametrize("entry", ENTRIES)
def test_every_entry_point_refuses_bad_values_naming_the_argument(entry, kind):
    call, name, refused = ENTRIES[entry]
    value = HUGE_INT if kind == "huge" and entry in WHOLE else BAD[kind]
    if kind == "text" and entry in ("precise_period", "findfrequency", "preprocess"):
        return  # a series times text is numpy's error before the function is called
    if kind == "huge" and entry.startswith("round_trip"):
        return  # 2**70 bytes or trials is a run too long, not a wrong value
    refused = refused.split()
    try:
        call(value)
    except (ValueError, TypeError) as err:
        assert name in str(err), f"{entry}({kind}): {err}"
        return
    assert kind not in refused and ALWAYS.get(kind) not in refused, (
        f"{entry} accepted {kind} = {value!r}")


def test_numpy_numbers_are_numbers():
    assert AccTail(m=np.float64(1.5), k=np.int64(2), c_us=np.float32(25)).k == 2
    assert type(AccTail(k=np.int64(2)).k) is int
    assert BlockRequest(np.int64(8), np.int32(8)).lba == 8
    assert whole("n", np.uint8(3)) == 3 and whole("n", 4.0) == 4
    assert finite("x", np.float32(0.5)) == 0.5


def test_the_shared_checker_says_what_is_allowed():
    with pytest.raises(ValueError, match=r"^k must be a whole number >= 1 and <= 9, got 2.5$"):
        whole("k", 2.5, minimum=1, maximum=9)
    with pytest.raises(ValueError, match=r"^n must be a whole number >= 0, got True$"):
        whole("n", True)
    with pytest.raises(ValueError, match=r"^x must be a finite number > 0 and <= 1, got 1j$"):
        finite("x", 1j, minimum=0, strict=True, maximum=1)


def test_a_series_at_any_reasonable_scale_has_the_same_period():
    assert {precise_period(SERIES * 10.0**k) for k in (-40, -10, 0, 10, 40)} == {24}
    # R's findfrequency compares its spectrum with an absolute 10: small scales lose the period
    assert {findfrequency(SERIES * 10.0**k) for k in (0, 10, 40)} == {24}


def test_numpy_scalars_give_the_numbers_python_numbers_give():
    assert precise_period(SERIES, growth=np.int64(3)) == precise_period(SERIES, growth=3)
    assert track_period(SERIES, np.int64(200), np.int8(1), np.uint16(5)) == track_period(
        SERIES, 200, 1, 5)
    assert theory.mm1_wait_quantile(np.float64(0.9), np.float32(0.5), np.int32(1)) == (
        theory.mm1_wait_quantile(0.9, 0.5, 1))
    assert theory.kth_of_n_mean(np.int64(3), np.uint8(2), 0.0, np.float64(1.0)) == (
        theory.kth_of_n_mean(3, 2, 0.0, 1.0))
    assert forecast.SeasonalNaive(period=np.int64(144)).forecast(DAYS, np.int8(3)).tolist() == (
        forecast.SeasonalNaive().forecast(DAYS, 3).tolist())
    assert sweep(lambda t, rng: rng.random(), [1], seed=np.int64(5), workers=1,
                 progress=False) == sweep(lambda t, rng: rng.random(), [1], seed=5, workers=1,
                                          progress=False)  # fmt: skip


EMPTY = {
    "precise_period": (lambda v: precise_period(v), "x"),
    "findfrequency": (lambda v: findfrequency(v), "x"),
    "preprocess": (lambda v: preprocess(v), "x"),
    "AccTail.fit": (lambda v: AccTail().fit(v), "counts"),
    "ProposedEWMA history": (lambda v: forecast.ProposedEWMA().forecast(v, 3), "history"),
    "SeasonalNaive history": (lambda v: forecast.SeasonalNaive().forecast(v, 3), "history"),
    "HoltWinters history": (lambda v: forecast.HoltWinters().forecast(v, 3), "history"),
}


@pytest.mark.parametrize("entry", EMPTY)
@pytest.mark.parametrize("empty", [[], np.array([]), np.zeros((0, 3))], ids=["list", "1-D", "2-D"])
def test_every_series_entry_point_refuses_an_empty_array_naming_it(entry, empty):
    call, name = EMPTY[entry]
    with pytest.raises(ValueError, match=f"^{name}"):
        call(empty)


def test_the_issues_cases_are_named():
    with pytest.raises(ValueError, match=r"^growth must be a whole number >= 1, got 1\.5$"):
        precise_period(SERIES, growth=1.5)
    with pytest.raises(ValueError, match=r"^period must be a whole number >= 1 .*got 0$"):
        forecast.ProposedEWMA(period=0)
    with pytest.raises(ValueError, match=r"^q must be a finite number >= 0 and <= 1, got nan$"):
        theory.md1_wait_quantile(math.nan, 0.5, 1.0)
    with pytest.raises(ValueError, match=r"^seed must be a whole number >= 0, got -1$"):
        sweep(lambda task, rng: task, [1], seed=-1, workers=1)
    with pytest.raises(ValueError, match=r"^load rho = lam \* service = 2 \* 1 = 2: a stable"):
        theory.md1_wait_quantile(0.9, 2, 1)
