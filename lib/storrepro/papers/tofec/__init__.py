"""TOFEC (Liang & Kozat): load-adaptive MDS coding and chunking for storage clouds.

Modules, lowest layer first: ``config`` (notebook 05's parameters and decision register:
readings, calibration targets, resolutions); ``workload``
(Poisson arrivals, the changing workload, a real trace's arrivals); the algorithms ``delay``
(Eq. (1) task-delay model, SUR/PURE surrogates, the Fig. 6 fit), ``codes`` (static codes, zfec
MDS round trip), ``analysis`` (Eqs. (2)-(21), Theorem 1, thresholds), ``policies`` (static,
TOFEC, fixed-k [3], Greedy, Ideal), ``metrics`` (what a run measured), ``phase_pool`` (the
changing workload's seeds, drawn on demand) and ``model_checks``
(the model and analysis checked by Monte Carlo); ``reference`` (the simpy cloud store run with
these policies) and ``kernel`` (its numba twin, identical request by request); ``experiment``
(the sweeps and the notebook's steps); ``claims`` (the claims as tables, per section, with
their bands from the paper's words; the core judges them under every reading) and ``plots``;
``bench``.
"""
