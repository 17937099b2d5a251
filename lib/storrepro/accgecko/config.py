"""Parameters of notebook 02 (AccGecko) and their profile values."""

from __future__ import annotations

from storrepro.config import NotebookConfig, Param, ParameterError


class AccGeckoConfig(NotebookConfig):
    notebook = "02_accgecko"
    paper = (
        "Leng, Jiang, Xiong: AccGecko, a tail-latency SLO guarantee framework for distributed "
        "storage systems. High Technology Letters 32(6), 2022 (doi:10.3772/j.issn.1002-0470."
        "2022.06.001)"
    )
    params = {
        "tenants": Param(int, 10, 100, "synthetic tenant traces in the pool", low=4, high=1000),
        "accuracy_tenants": Param(
            int,
            4,
            20,
            "tenants that also run every ablation predictor (Fig. 8–11)",
            low=2,
            high=1000,
        ),
        "segment_seconds": Param(
            float, 60.0, 300.0, "segment length in seconds (the paper: 5 min)", low=10, high=3600
        ),
        "segments": Param(int, 6, 6, "segments per tenant trace", low=2, high=48),
        "g2_share": Param(
            float, 0.2, 0.2, "share of the pool from the MMPP control generator G2", low=0, high=1
        ),
        "capacity": Param(
            float, 100_000.0, 100_000.0, "node capacity C in IOPS (sum of fixed rates)", low=1e3
        ),
        "admission_seeds": Param(
            int, 20, 50, "random arrival orders R of the admission runs", low=3, high=1000
        ),
        "bootstrap": Param(
            int, 200, 1000, "bootstrap resamples for the Spearman CIs", low=50, high=100_000
        ),
        "validation_requests": Param(
            int, 10_000, 60_000, "requests per tenant in the simpy-vs-fast-path check", low=1_000
        ),
    }

    def validate(self) -> None:
        if self.accuracy_tenants > self.tenants:
            raise ParameterError(
                f"parameter 'accuracy_tenants' = {self.accuracy_tenants}: expected <= tenants "
                f"({self.tenants})"
            )

    @property
    def duration(self) -> float:
        return self.segment_seconds * self.segments
