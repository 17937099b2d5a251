"""Notebook 03's experiment: the forecasting study (characterization, forecast accuracy, the
schedulers' forecast books) and the scheduler runs (trace -> forecasts -> scheduler -> simpy core
pool), with the baseline's calibration, the simpy-vs-fast-path check (S10), the sensitivity
variants and the runs each reading is judged on; one module per role:

- ``characterization``: the window's autocorrelation and weekly shape (F1–F4);
- ``forecast_study``: the forecasts' accuracy and books, the costly fits swept first;
- ``runs``: one replay of the window under one policy, its system series and pool size;
- ``calibration``: the fixed baseline's ramp, searched against the paper's numbers;
- ``sweeps``: the sets of runs the claims are judged on (references, sensitivity, pool
  scales, every reading);
- ``model_checks``: the simpy pool against its fluid fast path (S10) and the rebuilt run (S11);
- ``descriptions``: the workload each seed puts on the array and why the pool size is what it
  is."""
