"""TOFEC (Liang & Kozat): load-adaptive MDS coding and chunking for storage clouds.

Modules: ``delay`` (Eq. (1) task-delay model, SUR/PURE surrogates, the Fig. 6 fit), ``codes``
(static codes, zfec MDS round trip), ``analysis`` (Eqs. (2)-(21), Theorem 1, thresholds),
``policies`` (static, TOFEC, fixed-k [3], Greedy, Ideal), ``kernel`` (numba event loop identical
to ``sim.cloud_store``), ``experiment`` (sweeps and metrics), ``config`` (notebook 05).
"""
