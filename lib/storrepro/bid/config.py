"""Notebook 04 parameters, and the spec's [R] choices the experiment uses (bid.md §2.4)."""

from __future__ import annotations

from storrepro.bid.experiment import MODES
from storrepro.config import NotebookConfig, Param, ParameterError


class BIDConfig(NotebookConfig):
    notebook = "04_bid"
    paper = (
        "P. Mishra and A. K. Somani, Host managed contention avoidance storage solutions for "
        "Big Data, Journal of Big Data 4:18 (2017), doi:10.1186/s40537-017-0080-9"
    )
    params = {
        "events": Param(
            int, 2_000, 200_000, "trace events per run (synthetic trace; spec >= 200,000)", low=500
        ),
        "seeds": Param(int, 2, 5, "independent traces per workload", low=1, high=50),
        "sensitivity_events": Param(
            int, 800, 200_000, "trace events per run of the sensitivity sweep (one seed)", low=500
        ),
        "rq_limit": Param(
            int, 128, 128, "block-layer request slots (nr_requests window)", low=1, high=4096
        ),
        "mode": Param(
            str,
            "backlogged",
            "backlogged",
            "replay mode: 'backlogged' (trace clock, primary) or 'open' (trace times)",
            choices=MODES,
        ),
    }

    def validate(self) -> None:
        if self.events < self.rq_limit:
            raise ParameterError(
                f"parameter 'events' = {self.events}: must be at least rq_limit = {self.rq_limit}"
            )
