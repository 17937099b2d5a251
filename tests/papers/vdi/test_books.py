"""The forecast protocol's history days and what a forecast needs of a user's trace."""

import dataclasses

import pandas as pd

from storrepro.papers.vdi import books
from storrepro.papers.vdi import claims as vc
from storrepro.papers.vdi.seeds import DAY, PSYN_DAY, seed_trace


def test_a_stand_in_needs_nothing_and_a_trace_needs_each_forecasts_history_plus_its_day():
    _, st = seed_trace(0, 0)
    assert books.trace_cover(st, ("proposed",), (PSYN_DAY,)) is None
    trace = dataclasses.replace(st, trace_bins=7 * DAY, repeated=True)
    days = books.history_days("proposed", st, PSYN_DAY, PSYN_DAY)
    assert len(days) == 3 and max(days) < PSYN_DAY
    cover = books.trace_cover(trace, ("proposed",), (PSYN_DAY,))
    assert cover == {"need_days": PSYN_DAY - min(days) + 1, "have_days": 7.0, "repeated": True}
    # ARIMA's 9 cluster days reach past a week: more than a 7-day trace has
    assert books.trace_cover(trace, ("proposed", "arima-ridge"), (PSYN_DAY,))["need_days"] > 7
    # the weekly variant reads every day before the cutoff
    weekly = books.trace_cover(trace, ("proposed",), (PSYN_DAY,), "proposed_history=weekly")
    assert weekly["need_days"] == PSYN_DAY + 1
    assert books.history_days("oracle", st, PSYN_DAY, PSYN_DAY) == ()


PSYN = pd.DataFrame({"model": ["proposed", "holt-winters", "arima-ridge"], "seed": 0,
                     "smape": 15.0, "divergent": False})
PROTOCOL = (None, PSYN, (None, None))  # (accuracy, P-syn rows, cumulative errors)


def test_a_claims_cover_reads_its_own_forecasts():
    _, st = seed_trace(0, 0)
    trace = dataclasses.replace(st, trace_bins=10 * DAY, repeated=True)
    assert set(vc.forecast_inputs(PROTOCOL, st)["cover"].values()) == {None}
    cover = vc.forecast_inputs(PROTOCOL, trace)["cover"]
    assert cover["F5"]["need_days"] > cover["F7"]["need_days"]  # ARIMA's 9 cluster days vs 3
    weekly = vc.forecast_inputs(PROTOCOL, trace, "proposed_history=weekly")["cover"]
    assert weekly["F7"]["need_days"] > 10
