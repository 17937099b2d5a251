"""The forecasting study's sweep (:mod:`storrepro.papers.vdi.experiment.forecast_study`): each
history fitted once, the write forecasts only where the figures show them."""

import numpy as np

from storrepro.papers.vdi import books
from storrepro.papers.vdi.experiment import forecast_study
from storrepro.papers.vdi.forecast import smape
from storrepro.papers.vdi.seeds import PSYN_DAY, WINDOW_RANGE, seed_trace, single_threaded
from storrepro.suite.parallel import task_rng


def test_each_history_is_fitted_once_and_the_seed_task_uses_the_shared_fits():
    _, st = seed_trace(0, 1)
    # Sat, Sun and Mon of the window all see the same last 9 weekday-cluster days
    keys = {books.forecast_key("arima", st, "total", 33, cutoff) for cutoff in (31, 32, 33)}
    assert len(keys) == 1
    tasks = forecast_study.fit_tasks(0, [1], figure_seed=1)
    assert len(tasks) == len(set(tasks)) and tasks[0].model == "holt-winters"
    # a swept fit is the fit the seed task would have made in place
    for model in ("holt-winters", "arima-ridge"):
        task = next(t for t in tasks if t.model == model and t.column == "write")
        swept = forecast_study.fit_forecast(task, None)
        with single_threaded():  # the fit depends on the BLAS thread count, as every sweep task
            made, stable = books.model_forecast(model, st, "write", PSYN_DAY, PSYN_DAY)
        assert task.days == books.cluster_days(
            st, PSYN_DAY, PSYN_DAY, 9 if "arima" in model else 3
        )
        np.testing.assert_array_equal(swept["forecast"], made)
        assert swept["stable"] == stable
    # the seed task scores the forecasts it is given (here: a flat 1000 IOPS for every fit)
    flat = {(t.model, t.column, t.days): (np.full(144, 1000.0), True, 0.0) for t in tasks}
    task = forecast_study.SeedTask(0, 1, 0.5, fits=flat)
    result = forecast_study.seed_forecasts(task, task_rng(0, task))
    hw = result["accuracy"].query("model == 'holt-winters'")
    expected = [smape(st.total[d], np.full(144, 1000.0)) for d in WINDOW_RANGE]
    expected = [200.0 if e > 150 else e for e in expected]  # F9: a divergent day counts 200 %
    assert hw.smape.tolist() == expected
    assert np.all(result["books"]["arima-ridge"].total == 1000.0)


def test_write_forecasts_only_for_the_seed_the_figures_show():
    plotted = {(t.model, t.column) for t in forecast_study.fit_tasks(0, [1], figure_seed=1)}
    other = {(t.model, t.column) for t in forecast_study.fit_tasks(0, [1], figure_seed=0)}
    assert ("holt-winters", "write") in plotted and ("holt-winters", "write") not in other
    assert ("arima-ridge", "write") in other  # the scheduler's ARIMA book still needs writes
