"""Smart background scheduling for VDI (Kachmar & Kaeli, MASCOTS 2020), spec ``vdi_background.md``.

``trace`` (seeded VDI workload and a loader for a real trace), ``forecast`` (the paper's EWMA
trend + season model, Holt-Winters, ARIMA(144,0,2) by two-stage least squares, seasonal-naive,
error metrics), ``scheduler`` (snapshot debt, fixed and dynamic watermarks, references; plain
objects, no simpy), ``fluid`` (numpy reference of the core pool), ``seeds`` (one seed's trace as
07:00-aligned days and their clusters), ``forecast_study`` (characterization, forecast accuracy
and the schedulers' forecast books, each fit made once), ``experiment`` (runs on
``storrepro.sim.core_pool``, the baseline calibration, the checks), ``plots`` (the Fig. 13/14
panels) and ``config`` (the notebook's parameters).
"""
