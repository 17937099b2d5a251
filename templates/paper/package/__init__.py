"""PaperTemplate: a one-queue "paper" that shows the shape every paper package shares.

Replace it with your paper: its title and link in ``config.py``, its stand-in workload in
``workload.py``, its system in ``reference.py`` (simpy) and ``kernel.py`` (the fast path, tested
identical), its sweeps in ``experiment.py``, one rule per claim in ``claims.py``, its figures in
``plots.py`` and its bench cases in ``bench.py``.
"""
