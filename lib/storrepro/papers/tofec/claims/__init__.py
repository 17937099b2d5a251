"""Claim rules of notebook 05 (TOFEC): one function per claim id, each returning a
:class:`storrepro.suite.claims.Claim` judged against a band from the paper's words
(:mod:`storrepro.suite.bands`; every band is a constant of :mod:`storrepro.papers.tofec.config`,
where the decision register dates it). :mod:`~storrepro.papers.tofec.claims.judging` judges them on
the experiment's outputs under every reading.

Roles. The task-delay surrogate SUR was calibrated to the paper's light-load delays of (1,1),
(2,1) and TOFEC (84 / 74 ms) and to its capacity ratios, so B1-*, B2-21, B2-66, B2-126 and the
light-load ratios B4-* are ``calibration``; so are B3-21 and B2-fixedk, which follow from the
calibrated capacity ratios, and the copula's correlation C1-copula (which calibrates nothing a
claim uses). A1, A2, A2-gap, A5 (it solves Theorem 1's own equations), B3-sat, A6, KERNEL and
MDS are properties of this implementation (``invariant``). C1, B5-strict, C2 and C3 are our
own reports (``analysis``). Every other claim is a statement of the paper that could have come
out false here (``test``), judged on its replicates: the seeds of the λ grid (5 per rate, 10 at
0.90–0.98·C_full) or of the changing workload (10 per pattern; B9d draws more, up to 40,
until its interval decides).

The bands used before, sized from the pilot of our stand-in (the plan's acceptance checks were
"sized from the pilot so that a correct implementation passes"), are retired; the register says
once what they gave (:data:`~storrepro.papers.tofec.config.PILOT_BANDS_RETIRED`).

Rules take plain numbers, per-seed samples or small pandas objects, so a unit test can build an
input on which each fails and one on which it passes (``tests/test_tofec_claims.py``).

The rules, by the paper's sections: ``delay_model`` (1), ``formulas`` (3), ``capacity`` (4, 6),
``delay_vs_rate`` and ``code_choice`` (5), ``changing_workload`` (7), ``ablations`` (8–9) and
``simulator_checks`` (2, 10); what several share in ``shared``.
"""
