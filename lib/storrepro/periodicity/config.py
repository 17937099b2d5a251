"""Parameters of notebook 01 (PrecisePeriod): profiles and allowed values."""

from __future__ import annotations

from storrepro.config import NotebookConfig, Param, ParameterError
from storrepro.data.cran import N_SERIES


class PrecisePeriodConfig(NotebookConfig):
    notebook = "01_precise_period"
    paper = (
        "Han Yuxiao et al., A tail-tolerant cloud storage scheduling based on precise "
        "periodicity detection, CCF Trans. High Perform. Comput. 4(3):321–338, 2022"
    )
    params = {
        "cran_series": Param(
            int,
            20,
            N_SERIES,
            "how many of the 82 CRAN series to use (in benchmark order)",
            low=5,
            high=N_SERIES,
        ),
        "synthetic_series": Param(
            int,
            40,
            1000,
            "synthetic series (length 1000, seeded by `seed`)",
            low=10,
            high=100_000,
        ),
        "sensitivity": Param(
            bool, False, True, "run the robustness variants of PrecisePeriod on CRAN"
        ),
        "sched_replicates": Param(
            int, 1, 3, "independent surrogate workloads for the scheduling part", low=1, high=20
        ),
        "sched_ssds": Param(int, 4, 16, "SSDs of the scheduling surrogate", low=2, high=96),
        "sched_segments": Param(
            int, 200, 4000, "segments of the scheduling surrogate", low=20, high=40_000
        ),
        "sched_history_days": Param(
            int, 1, 3, "days of traffic history before the first interval", low=1, high=14
        ),
        "sched_intervals": Param(int, 1, 4, "6-hour evaluation intervals", low=1, high=28),
        "cran_dir": Param(
            str,
            "",
            "",
            "directory of the CRAN data ('': $STORREPRO_CRAN_DIR, then ../shared/data/cran)",
        ),
    }

    def validate(self) -> None:
        if self.sched_segments < self.sched_ssds:
            raise ParameterError(
                f"parameter 'sched_segments' = {self.sched_segments}: expected at least "
                f"sched_ssds = {self.sched_ssds} segments"
            )
