"""Bench cases of notebook 03: its largest sweep, the Holt-Winters and ARIMA fits."""

from __future__ import annotations

from storrepro.suite.bench_cases import Sweep, digest


def _forecasts(outs):  # the fit times differ run to run; the forecasts must not
    return digest([(o["forecast"], o["stable"]) for o in outs])


def largest_sweep() -> Sweep:
    from storrepro.papers.vdi.config import VdiConfig
    from storrepro.papers.vdi.experiment import forecast_study

    cfg = VdiConfig(profile="full")
    tasks = forecast_study.fit_tasks(cfg.seed, range(cfg.seeds), figure_seed=0)
    return Sweep("Holt-Winters and ARIMA fits", forecast_study.fit_forecast, tasks, cfg.seed,
                 _forecasts)
