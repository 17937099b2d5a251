"""Notebook 00's parameters and the tolerances of its checks (dated from git by the run)."""

from __future__ import annotations

from storrepro.suite.config import Forced, NotebookConfig, Param, ParameterError

#: Relative-error tolerances, chosen from the expected standard errors:
#: at rho = 0.5 the mean wait of 1e6 customers has a relative standard error near 0.6 %, the
#: 99th percentile near 1 %; the quick profile has a tenth of the customers (about 3x the error).
#: Parallel requests: the worst code, (1,1), has delay sd/mean = 2/3, so its mean over N requests
#: has a relative standard error of 0.67/sqrt(N): 0.5 % at 20,000 (full), 1.5 % at 2,000 (quick);
#: the tolerance is four standard errors.
TOLERANCES = {
    "quick": {"mean": 0.06, "p99": 0.10, "kth": 0.06, "kernel": 1e-6},
    "full": {"mean": 0.02, "p99": 0.03, "kth": 0.02, "kernel": 1e-6},
}


class ValidationConfig(NotebookConfig):
    notebook = "00_simulator_validation"
    reproduces = (
        "the shared simpy models against closed forms: M/M/1, M/D/1, M/G/1 waits, the k-th "
        "fastest of n parallel tasks, the BID disk model's reference values, simulation speed"
    )
    paper = (
        "storrepro simulator validation: simpy device models vs closed-form queueing "
        "results and the reference values of the BID authors' disk model"
    )
    forced = {
        "tolerances": Forced(
            question="How far may a simulated statistic sit from its closed form or reference?",
            quote="no paper: about four standard errors of the estimate at the profile's sample "
            "size (the comment on TOLERANCES derives each), 1e-6 ms for deterministic formulas",
            value="full: ±2 % means, ±3 % 99th percentiles, ±2 % order statistic, 1e-6 kernel",
            kind="band",
            symbol="storrepro.papers.validation.config:TOLERANCES",
            decides=("V1", "V2", "V3", "V4", "V5", "V6", "V7"),
        ),
    }
    full_cost = (41.0, 860.0, 1024.0)  # full s, quick and full peak MiB
    budget_s = (60.0, 90.0)  # quick, full: what make bench holds the notebook to
    params = {
        "customers": Param(
            int,
            100_000,
            1_000_000,
            "customers per queue check (M/M/1, M/D/1, M/G/1)",
            low=1_000,
            grows="memory",
        ),
        "replications": Param(
            int,
            4,
            4,
            "independent runs the customers are split into "
            "(they run in parallel and give the confidence intervals)",
            low=2,
            high=64,
        ),
        "load": Param(float, 0.5, 0.5, "utilisation rho of the queue checks", low=0.05, high=0.95),
        "curve_customers": Param(
            int,
            10_000,
            50_000,
            "customers per point of the wait-vs-load curves",
            low=1_000,
            grows="time",
        ),
        "parallel_requests": Param(
            int,
            2_000,
            20_000,
            "requests per (n, k) code in the order-statistics check",
            low=100,
            grows="time",
        ),
    }

    def validate(self) -> None:
        if self.customers // self.replications < 1_000:
            raise ParameterError(
                f"parameter 'customers' = {self.customers}: with replications = "
                f"{self.replications} each run would get fewer than 1000 customers"
            )

    @property
    def tolerances(self) -> dict[str, float]:
        return TOLERANCES[self.profile]
