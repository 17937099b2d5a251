"""Smart background scheduling for VDI (Kachmar & Kaeli, MASCOTS 2020).

``config`` (the notebook's parameters, its readings and the simulated system), ``workload`` (the
seeded VDI stand-in, or a user's trace in its place), ``seeds`` (one seed's trace as 07:00-aligned
days and their clusters), ``forecast`` (the paper's EWMA trend + season model, Holt-Winters,
ARIMA(144,0,2) by two-stage least squares, seasonal-naive, error metrics), ``books`` (the forecast
protocol and the day-ahead books the scheduler replays), ``scheduler`` (snapshot debt, fixed and
dynamic watermarks, references; plain objects, no simpy), ``reference`` (the replay on the simpy
core pool), ``kernel`` (its fast path), ``experiment`` (the sweeps the notebook runs),
``metrics`` (measures of a run: invariants, latency SLO, S9 dynamics), ``tables`` (the notebook's
tables from the sweeps' results), ``claims`` (the claim rules), ``plots`` (the figures) and
``bench`` (the bench cases).
"""
