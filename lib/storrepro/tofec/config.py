"""Parameters of notebook 05 (TOFEC), its readings of the paper's open choices, and the
acceptance tolerances fixed in advance (sized from this reproduction's pilot run)."""

from __future__ import annotations

import math
from typing import ClassVar

from storrepro.config import NotebookConfig, Param, ParameterError, Reading, trace_params

#: The λ grid (req/s); the runs at 0.90/0.95/0.98·C_full are added once C_full is known.
FULL_RATES = (2, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75)
QUICK_RATES = (2, 5, 10, 20, 30, 40, 50, 60, 70, 75)
HIGH_LOAD = (0.90, 0.95, 0.98)  # fractions of C_full run with ``high_load_seeds``

#: Acceptance tolerances (sized from the pilot run, before any result of this code was seen).
TOLERANCES = {
    "a1_cost": 0.01,  # MC mean cost vs nΔ + kE (PURE)
    "a1_capacity": 0.03,  # simulated saturated C(n,k) vs L / MC mean cost (SUR)
    "a2_service": 0.01,  # MC mean service delay vs Δ + E·Σ1/i (PURE)
    "a2_gap": (0.0, 0.43),  # integral gap range for 1 <= k < n <= 12
    "a3_residual": 1e-4,
    "a5_codes": 1e-6,
    "b1": {"(1,1)": (205.0, 0.05, 156.0, 0.06), "(2,1)": (151.0, 0.05, 138.0, 0.05)},
    "b1_best_mean": (70.0, 90.0),
    "b2": {"(2,1)": (0.70, 0.05), "(6,6)": (0.40, 0.05)},
    "b2_12_6": 1 / 3,
    "b2_fixed_k": 0.45,
    "b3_throughput": 0.01,
    "b3_saturated": 0.03,
    "b3_replication": 0.75,  # (2,1) must be unstable when offered this fraction of C_full
    "b4": {
        "mean_11": 0.50,
        "mean_21": 0.65,
        "median_11": 0.55,
        "greedy_mean_11": 0.55,
        "greedy_median_11": 0.55,
        "abs_mean": (75.0, 95.0),
    },
    "b5": {"mean": 1.15, "median": 1.25, "greedy_mean": 1.40, "high_mean": 1.30},
    "b6": {"p90": 1.30, "p99": 2.0, "vs_greedy_p90": 0.95, "vs_greedy_p99": 0.70},
    "b7": {"vs_greedy": 0.70, "vs_envelope": 2.0},
    # top-2: the paper's "over 80 %"; the pilot's band for α = 0.9 (0.60) counts as partly
    "b8": {"top2": 0.80, "top2_partly": 0.60, "greedy_1_6": 0.60},
    "b9": {
        "switch_s": 2.0,
        "surge_k": 1.2,
        "phase13": 0.12,
        "phase2": 0.15,
        "k_std": 0.7,
        "phase2_k1": 0.90,
        # "faster than Ideal": recovery time / Ideal's below this (the multiplier X was stripped)
        "recovery_vs_ideal": 1.0,
    },
}

IDEAL_WORDS = (
    "“For the purpose of comparison, we also implement an ‘Ideal’ rate-driven strategy that has "
    "perfect knowledge of the arrival rate of each phase and picks the optimal code accordingly "
    "as the baseline.” … “So, if k is set to 5 right after arrival rate drops, it will produce a "
    "throughput so low that it takes a much longer time to reduce the queue length to the "
    "desired level, and requests arrive during this period will suffer from long queueing delay "
    "even though they are being served with the optimal code.” … “TOFEC and Greedy both reduce "
    "their delay to optimal almost [X×] faster than Ideal does after workload decreases.”"
)
ALPHA_WORDS = (
    "“instead of comparing Q directly with the thresholds, we compare an exponential moving "
    "average Q̄, with a memory factor α, against the thresholds … The moving average is used to "
    "mitigate the transient variation in queue length so that n and k will not change too "
    "frequently.” … “We use memory factor [α = stripped] in TOFEC.”"
)

READINGS = {
    "ideal_decision_point": Reading(
        question="When does the rate-driven Ideal of Fig. 11 fix a request's code: when the "
        "request reaches the head of the request queue, or when it arrives?",
        paper_words=IDEAL_WORDS,
        primary="head_of_line",
        alternatives={
            "head_of_line": "a request takes the code of the phase in which it leaves the request "
            "queue, so the requests queued at a rate change are served with the new phase's code",
            "arrival": "a request keeps the code of the phase it arrived in (TOFEC's and "
            "Greedy's decision point in this reproduction)",
        },
        argument="The paper explains why Ideal recovers slowly after the drop: with k set to 5 "
        "right after the rate falls, throughput is so low that the queue built in phase 2 takes "
        "long to drain. That happens only if the requests already queued are served with the new "
        "code; if each kept the code of the phase it arrived in, the phase-2 backlog would drain "
        "with (1,1) at full capacity and the paper's argument would not apply. 'Picks the optimal "
        "code accordingly' names no decision point, so the argument decides it.",
    ),
    "alpha": Reading(
        question="Which memory factor α does TOFEC's moving average of the backlog use "
        "(Q̄ ← αQ̄ + (1−α)Q)?",
        paper_words=ALPHA_WORDS,
        primary="0.9",
        alternatives={
            "0.9": "the value this reproduction fixed before any run: a moving average that "
            "damps the backlog over about ten arrivals",
            "0.5": "a short memory (about two arrivals)",
            "0.95": "a longer memory (about twenty arrivals)",
            "0.99": "a long memory (about a hundred arrivals): concentrates the code choice, "
            "slows the recovery after a load drop",
        },
        argument="The value was lost from the text; the prose only says the average damps "
        "transient variation so that n and k do not change too often (so α > 0), while TOFEC "
        "stays 'especially responsive' to a surge and 'gradually transitions' after a drop. No "
        "value is favoured by these words, so the primary stays the one this reproduction's plan "
        "fixed before its runs (0.9, taken from a pilot as a compromise between a concentrated "
        "code choice and a fast recovery), and every TOFEC claim is also judged at 0.5, 0.95 "
        "and 0.99.",
    ),
}


class TofecConfig(NotebookConfig):
    notebook = "05_tofec"
    readings: ClassVar[dict[str, Reading]] = READINGS
    paper = (
        "G. Liang and U. C. Kozat, On Throughput-Delay Optimal Access to Storage Clouds via "
        "Load Adaptive Coding and Chunking, arXiv:1403.5007 (2014)"
    )
    full_cost = (96.0, 1172.0, 1472.0)  # full s, quick and full peak MiB
    budget_s = (90.0, 300.0)  # quick, full: what make bench holds the notebook to
    params = {
        "requests": Param(
            int,
            4_000,
            50_000,
            "requests per (policy, arrival rate, seed) run (at least)",
            low=1_000,
            grows="memory",
        ),
        "duration_s": Param(
            float,
            60.0,
            600.0,
            "simulated seconds per run (at least); the larger of the two wins",
            low=10.0,
            grows="memory",
        ),
        "seeds": Param(
            int, 2, 5, "independent seeds per arrival rate", low=1, high=50, grows="time"
        ),
        "high_load_seeds": Param(
            int, 2, 10, "seeds at 0.90/0.95/0.98 of the full capacity", low=1, high=50, grows="time"
        ),
        "phase_seeds": Param(
            int, 2, 10, "seeds per changing-workload pattern", low=1, high=50, grows="time"
        ),
        "alpha": Param(
            float, 0.9, 0.9, "TOFEC's memory factor (EWMA weight of the past), in [0, 1)", low=0.0
        ),
        "n_threads": Param(int, 16, 16, "parallel threads L", low=12, high=64),
        "mc_samples": Param(
            int,
            20_000,
            400_000,
            "Monte-Carlo samples per chunk size / per code",
            low=5_000,
            grows="memory",
        ),
        **trace_params("the synthetic request arrivals of the changing-workload experiment"),
    }

    def validate(self) -> None:
        if not self.alpha < 1:  # Param bounds are inclusive; 1 would freeze the backlog estimate
            raise ParameterError(f"parameter 'alpha' = {self.alpha!r}: expected a float in [0, 1)")

    @property
    def rates(self) -> tuple[int, ...]:
        return FULL_RATES if self.profile == "full" else QUICK_RATES

    def requests_at(self, rate: float) -> int:
        """Requests per run at ``rate`` req/s: >= ``requests`` and >= ``duration_s`` seconds."""
        return max(self.requests, math.ceil(self.duration_s * rate))

    @property
    def tolerances(self) -> dict:
        return TOLERANCES
