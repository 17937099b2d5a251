"""Notebook 00: the shared simulators checked against closed-form results before any paper
uses them (``config``: parameters and tolerances; ``experiment``: the checks; ``claims``: the
claim rules V1–V9)."""
