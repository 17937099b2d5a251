"""Parameters of notebook 05 (TOFEC) and its decision register: the readings of the paper's open
choices (the delay model, memory factor α, Ideal's decision point, the phase-2 load), the
calibration targets and the resolutions the paper's words settle; the run dates each from git.
The bands are the claims tables' (:mod:`storrepro.papers.tofec.claims`), built from the paper's
words there; the run writes their register entries from the rows."""

from __future__ import annotations

import math
from typing import ClassVar

from storrepro.suite.config import (
    Forced,
    NotebookConfig,
    Param,
    ParameterError,
    Reading,
    trace_params,
)

#: L, the parallel threads to the store (stripped in the paper; the notebook's ``n_threads``).
L_THREADS = 16
#: The λ grid (req/s); the runs at 0.90/0.95/0.98·C_full are added once C_full is known.
FULL_RATES = (2, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75)
QUICK_RATES = (2, 5, 10, 20, 30, 40, 50, 60, 70, 75)
HIGH_LOAD = (0.90, 0.95, 0.98)  # fractions of C_full run with ``high_load_seeds``
#: A static code is simulated only below 0.98 of its capacity C(n,k) (it would not be stable).
STABLE_LOAD = 0.98
#: Unstable if its last-20 % mean delay > 2x its first-20 % mean (in most seeds).
TREND_FACTOR = 2.0
#: The changing-workload pattern the delay model's reading runs on PURE task delays: the
#: primary phase-2 load, 0.98 of PURE's C_full.
PURE_PATTERN = "PURE primary"
#: Recovered after the drop: a 2-s window's mean delay within 20 % of the phase-1 mean (the
#: plan's reading of "reduce their delay to optimal").
RECOVERY_FACTOR = 1.2

#: The paper's light-load delays (ms): mean and median of basic (1,1) and replication (2,1).
B1_PAPER = {"(1,1)": (205.0, 156.0), "(2,1)": (151.0, 138.0)}
#: TOFEC's light-load mean (ms), which the best static code is held to.
B1_BEST_PAPER = 84.0
#: The paper's capacity ratios SUR was calibrated to (B2-21, B2-66).
B2_TARGETS = {"B2-21": 0.70, "B2-66": 0.40}
#: The fraction of C_full at which B3-21 offers replication (2,1): above the paper's 70 %.
B3_21_FRACTION = 0.75

#: The paper's numbers the surrogate was calibrated to: constant name -> (claims, question).
CALIBRATION_REGISTER = {
    "B1_PAPER": (("B1-(1,1)", "B1-(2,1)"), "Which light-load delays of (1,1) and (2,1) is SUR "
                 "calibrated to?"),
    "B1_BEST_PAPER": (("B1-best", "B4-abs"), "Which light-load mean of the best code / TOFEC is "
                      "SUR calibrated to?"),
    "B2_TARGETS": (("B2-21", "B2-66"), "Which capacity ratios is SUR calibrated to?"),
}
#: The paper's light-load ratios (B4, calibration echoes): claim id -> ratio.
B4_PAPER = {"B4-mean-11": 0.41, "B4-mean-21": 0.56, "B4-median-11": 0.47, "B4-greedy-mean": 0.43,
            "B4-greedy-median": 0.51}


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

EQ1_WORDS = (
    "“For the analysis present in the next section, we model the task delays as independently "
    "distributed random variables whose mean and standard deviation grow linearly as chunk size "
    "increases … (1) where [Δ] captures the lower bound of task delays … and [X] represents a "
    "exponential random variable that models the tail of the CCDF.” … “We conducted "
    "trace-driven simulations … In order to compute the thresholds for TOFEC … we first filter "
    "out the worst 10% task delays in the traces”"
)

READINGS = {
    "delay_model": Reading(
        question="From which task-delay distribution do the simulations draw, in place of the "
        "paper's unpublished S3 traces: the stand-in SUR, calibrated to the paper's light-load "
        "delays, or the paper's own model, Eq. (1)'s shifted exponential (PURE)?",
        paper_words=EQ1_WORDS,
        primary="SUR",
        alternatives={
            "SUR": "Eq. (1) plus a slow component (p = 0.1, mean 132B ms): calibrated to the "
            "paper's light-load 205 / 156 ms ((1,1)) and 151 / 138 ms ((2,1)) and its "
            "capacity ratios",
            "PURE": "Eq. (1) alone, Δ = 16.8B + 48.6 ms, Exp(29.6B + 11.2 ms): the least-squares "
            "fit to the same four light-load numbers (199 / 168 and 149 / 134 ms)",
        },
        argument="The paper's simulations are trace-driven; Eq. (1) is its model 'for the "
        "analysis', and the traces are not public. Both values stand in for the traces. SUR "
        "is primary because it meets all four of the paper's light-load delays of (1,1) and "
        "(2,1), which a pure shifted exponential cannot (its mean-minus-median gap fixes E: 160 "
        "ms from (1,1)'s 205 / 156, 85 ms from (2,1)'s 151 / 138), and because the paper drops "
        "'the worst 10% task delays' before fitting Eq. (1), a step that only a tail heavier "
        "than the exponential needs. PURE misses those numbers by up to 8 % (168 against 156 "
        "ms), inside the '≈' band, so the consistency record finds both possible and the "
        "headline gives each verdict. In both, TOFEC fits Eq. (1) to the model's samples by the "
        "paper's procedure (worst 10 % dropped; the plan gave PURE's TOFEC the true parameters "
        "instead). SUR has been primary since notebook 05's first commit (6a1a929, "
        "2026-11-22); PURE, in delay.py since then, was first run as this reading, after the "
        "review found B5-mean at 1.19–1.28× the best static code's under it.",
    ),
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
        "code accordingly' names no decision point, so the argument decides it. Dates, from git: "
        "the first committed results (3831bc6, 2026-11-22) had only the on-arrival Ideal, and B9d "
        "(TOFEC 10.7 s, Greedy 6.8 s, Ideal 9.4 s at 80 req/s) was reproduced there under the "
        "then tolerance 'TOFEC <= 1.2× Ideal's time and Greedy <= Ideal's'. The head-of-line "
        "Ideal was added as the primary in 99b7351 (2026-11-23 14:10) and the tolerance "
        "tightened to 'each below 1.0× Ideal's' in 56bda95 (2026-11-23 14:13), both after that "
        "result was known. B9d's band is now the paper's bare 'faster' (direction, on the "
        "per-seed difference), and B9d is judged under both decision points.",
    ),
    "alpha": Reading(
        question="Which memory factor α does TOFEC's moving average of the backlog use "
        "(Q̄ ← αQ̄ + (1−α)Q)?",
        paper_words=ALPHA_WORDS,
        primary="0.9",
        alternatives={
            "0.9": "the plan's default: a moving average that damps the backlog over about ten "
            "arrivals",
            "0.5": "a short memory (about two arrivals)",
            "0.95": "a longer memory (about twenty arrivals)",
            "0.99": "a long memory (about a hundred arrivals): concentrates the code choice, "
            "slows the recovery after a load drop",
        },
        argument="The value was lost from the text; the prose only says the average damps "
        "transient variation so that n and k do not change too often (so α > 0), while TOFEC "
        "stays 'especially responsive' to a surge and 'gradually transitions' after a drop. No "
        "value is favoured by these words. The primary 0.9 was picked in the plan's pilot of our "
        "own stand-in as the compromise between how B8-top2 (the top-2 share: 0.61 at α = 0.9, "
        ">= 0.91 at 0.99) and B9d (the recovery at 80 req/s: 10.2 s at 0.9 against Ideal's "
        "10.5 s, 50–75 s at 0.99) came out there — a choice made with those two claims' pilot "
        "outcomes in view. No result the paper reports tells the values apart (the consistency "
        "record): B8-top2's 'over 80 %' would rule out 0.9, but a claim under test is not used as "
        "the check of the reading it is judged under. Every TOFEC claim is judged at 0.5, 0.95 "
        "and 0.99 too; at the commit "
        "of this text α moves the verdicts of B5-mean, B5-high, B6-vs-greedy, B8-top2, B9b and "
        "B9d (the reading table is the record), and no α reproduces B8-top2 together with B9b "
        "and B9d.",
    ),
    "phase2_load": Reading(
        question="What load does phase 2 of the changing workload (Fig. 11) put on the system: "
        "just below capacity, or the paper's 80 req/s, which with L = 16 threads overloads the "
        "paper's own system as it overloads our stand-in?",
        paper_words="“the arrival rate is 10 requests/sec in phases 1 and 3, and 80 requests/sec "
        "(slightly [stripped]) in phase 2. The corresponding optimal choices of codes are "
        "[stripped] for phases 1 and 3, and [stripped] for phase 2” … “the suddenly increased "
        "arrival rate immediately builds up a large backlog” … “the request queue has been "
        "built up during the preceding period of heavy workload” … “Greedy keeps oscillating "
        "between k=1 and k=6 when the optimal is 1!”",
        primary="0.98",
        alternatives={
            "0.98": "phase 2 at 0.98·C_full (≈ 76 req/s on SUR): just below capacity",
            "1.03": "the literal 80 req/s, ≈ 1.03·C_full on SUR and on the paper's own system "
            "with L = 16 threads: an overload that builds a backlog over the whole phase",
            "0.95": "phase 2 at 0.95·C_full (≈ 74 req/s)",
        },
        argument="The capacity of basic (1,1) is L divided by the mean time a thread spends on "
        "a 3 MB read, and the paper reports that time: its light-load (1,1) mean delay, 205 ms "
        "(at light load a request's delay is its one task). SUR is pinned to it (205.6 ms, B1), "
        "so with L = 16 threads (the register's 'threads'; the paper's L is stripped) C(1,1) = "
        "16 / 0.2056 s ≈ 77.8 req/s on SUR and 16 / 0.205 s ≈ 78 req/s on the paper's own "
        "system, whatever its delay distribution: the literal 80 req/s, ≈ 1.03·C_full, "
        "overloads the paper's system as it overloads SUR. (This register said before that SUR "
        "matched the paper's capacity 'only through calibrated ratios'; that was wrong, and "
        "80 req/s is not a load relative to an unknown capacity.) Whether the paper's phase 2 "
        "was an overload therefore hangs on L: with L = 17 threads, 80 req/s would be 0.96 of "
        "C(1,1). The words point both ways. For an overload: the number itself, the stripped "
        "'(slightly …)' read as 'slightly above capacity', the surge that 'immediately builds "
        "up a large backlog' and 'the request queue has been built up during the preceding "
        "period of heavy workload'. For a load just below capacity: the paper names an "
        "'optimal' code for phase 2, (1,1), and a static code is optimal only at a load it can "
        "sustain, and Greedy's oscillation to k = 6 needs idle threads. No result the paper "
        "reports tells the loads apart: Fig. 11's delays and recovery times are stripped, and "
        "Greedy's oscillation appears at no load on SUR (B9c-greedy: under 1 % of phase-2 "
        "requests with k >= 4 at every load). So the literal 80 req/s is co-primary: the "
        "headline gives B9d's verdict under it beside the primary's. The primary 0.98·C_full is "
        "the plan's resolution 9, run since notebook 05's first commit (6a1a929, 2026-11-22); "
        "until this register B9a–c were judged at 0.98·C_full and B9d at the literal 80 "
        "req/s; now all four are judged alike under each load.",
    ),
}

#: Why no result the paper reports tells the phase-2 loads apart (the register's consistency).
PHASE2_UNDISCRIMINATED = (
    "Looked at: the phase-2 rate itself (80 req/s is an overload or not depending on the "
    "stripped L: 1.03 of C(1,1) with L = 16, 0.96 with L = 17); the optimal phase-2 code the "
    "paper names ((1,1) at every load read here); Greedy's oscillation between k = 1 and "
    "k = 6 (under 1 % of phase-2 requests with k >= 4 at every load on SUR, so it rules out "
    "none over another); TOFEC's switch to k = 1 at the surge (at every load). Fig. 11's delays, "
    "code mix and recovery times, which would, are stripped. The per-phase comparisons with "
    "Ideal (B9b, B9d) are the claims under test, not evidence for the load."
)

#: Why no result the paper reports tells the memory factors apart (the register's consistency).
ALPHA_UNDISCRIMINATED = (
    "Looked at: TOFEC's light-load delays, the paper's only numbers for TOFEC that are not a "
    "claim under test (84 / 74 ms, the records above: at light load the queue is nearly empty "
    "whatever the memory, and every α is possible). Fig. 10's 'over 80% of requests served by 2 "
    "neighbouring k' and Fig. 11's recovery 'almost X× faster than Ideal' would tell the values "
    "apart, but they are B8-top2 and B9d, claims judged under this reading, and a claim is not "
    "evidence for the reading it is judged under: checked against B8-top2, α = 0.9 would be "
    "ruled out only by choosing the α under which B8-top2 passes (a circular check). The "
    "numbers of Figs. 10 and 11 are stripped."
)
#: Why no result the paper reports tells Ideal's decision points apart.
IDEAL_UNDISCRIMINATED = (
    "Looked at: the paper's reason for Ideal's slow recovery ('if k is set to 5 right after "
    "arrival rate drops, it will produce a throughput so low …'), an argument about the "
    "mechanism that decides the primary (the argument above), not a measured result; the "
    "recovery itself ('almost [X×] faster than Ideal') is B9d, the claim under test, which is "
    "not evidence for the reading it is judged under (a circular check); Fig. 11's delays and "
    "recovery times, which would tell the decision points apart, are stripped."
)

#: The pilot bands, retired: stated once here (the claims' reasons said this until then).
PILOT_BANDS_RETIRED = (
    "retired, replaced by the bands from the paper's words; on the last run that computed them "
    "(95c0cc5, full profile) they gave: A1-sat every code within ±3 % — not reproduced; B1 "
    "mean ±5 %, median ±6 % ((1,1)) / ±5 % ((2,1)) of the paper's — reproduced; B1-best in "
    "[70, 90] ms — reproduced; B2 the paper's ratio ± 0.05 — reproduced; B4 ≤ 0.50, 0.65, "
    "0.55, 0.55, 0.55× (-mean-11, -mean-21, -median-11, -greedy-mean, -greedy-median) and "
    "TOFEC's mean in [75, 95] ms — reproduced; B5-mean ≤ 1.15× at every λ — reproduced; "
    "B5-median ≤ 1.25× — not reproduced; B5-greedy ≤ 1.40× — reproduced; B5-high ≤ 1.30× "
    "at 0.90–0.95·C_full — reproduced; B6-p90 ≤ 1.30× — reproduced; B6-p99 ≤ 2.0× — "
    "reproduced; B7-envelope ≤ 2.0× — reproduced; B6-vs-greedy p90 ≤ 0.95×, p99 ≤ 0.70× "
    "Greedy's — reproduced; B7-vs-greedy ≤ 0.70× Greedy's — reproduced; B8-top2 ≥ 0.80 at "
    "every λ, partly ≥ 0.60 — not reproduced; B8-greedy ≥ 0.60 — reproduced; B9a switch ≤ 2 "
    "s and mean k ≤ 1.2 — reproduced; B9b within 12 % (phases 1, 3) and 15 % (phase 2) — "
    "reproduced; B9c k-std < 0.7× Greedy's and ≥ 90 % k = 1 in phase 2 — reproduced; B9d "
    "TOFEC ≤ 1.2× Ideal's recovery time and Greedy ≤ Ideal's — not reproduced. The plan's "
    "resolution for B2-fixedk (≤ 0.45·C_full accepted as partly) was recomputed on every run "
    "until the claims became a table; on the last (results of f279df3) it gave partly, at "
    "0.402·C_full"
)
STRIPPED_WORDS = (
    "“We assume that the system supports up to [L stripped] simultaneously active threads. We "
    "set the maximum code dimension and redundancy ratio to be [k_max stripped] and [r_max "
    "stripped], because we observe negligible gain in service delay beyond this chunking and "
    "redundancy level from our measurements.”"
)
LIGHT_LOAD_WORDS = (
    "“from 205ms and 151ms to 84ms” (mean), “from 156ms and 138ms to 74ms” (median); Greedy "
    "89 / 79 ms; replication “fails to support arrival rates beyond 70% of the capacity of "
    "basic”; “almost 60% loss” of capacity for k = 6"
)

FORCED = {
    name.lower(): Forced(question=question, quote=LIGHT_LOAD_WORDS,
                         value=repr(globals()[name]), kind="calibration",
                         symbol=f"storrepro.papers.tofec.config:{name}", decides=decides)
    for name, (decides, question) in CALIBRATION_REGISTER.items()
} | {
    "b4_targets": Forced(
        question="Which light-load ratios of TOFEC and Greedy over (1,1) and (2,1) are the "
        "paper's (B4, calibration echoes)?",
        quote=LIGHT_LOAD_WORDS,
        value="84/205 = 0.41, 84/151 = 0.56, 74/156 = 0.47, 89/205 = 0.43, 79/156 = 0.51",
        kind="calibration",
        symbol="storrepro.papers.tofec.config:B4_PAPER",
        decides=("B4-mean-11", "B4-mean-21", "B4-median-11", "B4-greedy-mean",
                 "B4-greedy-median"),
    ),
    "sur_surrogate": Forced(
        question="What are the parameters of SUR, the stand-in for the unpublished S3 traces "
        "(the delay model's primary)?",
        quote=LIGHT_LOAD_WORDS + "; a cross-task correlation of 0.11–0.17 (not used: tasks "
        "are independent, like the paper's analytical model)",
        value="SUR: Δ = 25.2B + 46.4 ms, Exp(9.6B + 15.2 ms), a slow component with p = 0.1 and "
        "mean 132B ms (the plan's calibration)",
        kind="calibration",
        symbol="storrepro.papers.tofec.delay:SUR",
        decides=("B1-(1,1)", "B1-(2,1)", "B1-best", "B2-21", "B2-66", "B2-126", "B5-mean",
                 "B5-median", "B5-greedy", "B5-high", "B6-p90", "B6-p99", "B7-envelope",
                 "B6-vs-greedy", "B7-vs-greedy", "B8-modal", "B8-top2", "B8-greedy",
                 "B3-0.95-TOFEC", "B3-0.95-Greedy", "B9a", "B9b", "B9c", "B9c-greedy", "B9d"),
    ),
    "b3_21_fraction": Forced(
        question="At which load is replication (2,1) judged to fail (B3-21)?",
        quote="simple replication “fails to support arrival rates beyond 70% of the capacity of "
        "basic”",
        value=f"{B3_21_FRACTION:g}·C_full (the plan's check: just beyond 70 %)",
        kind="calibration",
        symbol="storrepro.papers.tofec.config:B3_21_FRACTION",
        decides=("B3-21",),
    ),
    "queue_length": Forced(
        question="What is the queue length Q TOFEC compares with its thresholds?",
        quote="“choose … where [Q] is the queue length upon the arrival of the request”; “a "
        "large backlog in the request queue (large [Q])”; Algorithm 1: “queue length upon "
        "arrival of request”",
        value="the requests waiting in the request queue when a request arrives (not those in "
        "service)",
        kind="resolution",
    ),
    "decision_at_arrival": Forced(
        question="When do TOFEC and Greedy fix a request's code?",
        quote="Algorithm 1: “When request arrives … Find [n] … Find [k] … Serve request with an "
        "[(n,k)] code when it becomes HoL”",
        value="on arrival (served with that code at the head of the line)",
        kind="modelling",
    ),
    "recovery_definition": Forced(
        question="When has a policy 'reduced its delay to optimal' after the drop (B9d)?",
        quote="“TOFEC and Greedy both reduce their delay to optimal almost [X×] faster than "
        "Ideal does after workload decreases”",
        value=f"the first 2-s window of arrivals after 400 s whose mean delay is within "
        f"{RECOVERY_FACTOR:g}× the policy's own phase-1 mean (the plan's definition; the same "
        "1.2 since notebook 05's first commit, 6a1a929)",
        kind="resolution",
        symbol="storrepro.papers.tofec.config:RECOVERY_FACTOR",
        decides=("B9b", "B9d"),
    ),
    "threshold_rule": Forced(
        question="Where between consecutive Q(n) does TOFEC put its thresholds?",
        quote="“In our current implementation of TOFEC, we use [formula stripped] for …” — the "
        "words do not settle it; the geometric mean is run as an ablation (C2), not as a reading",
        value="the midpoint of consecutive Q(n) (and Q̃(k)), the plan's reconstruction",
        kind="modelling",
    ),
    "static_stability": Forced(
        question="Which static codes make up the best static envelope at a rate?",
        quote="“the best static strategy” at each arrival rate (Figs. 8–9)",
        value=f"codes simulated below {STABLE_LOAD:g}·C(n,k) whose last-20 % mean delay is not "
        f"above {TREND_FACTOR:g}× their first-20 % mean in most seeds (the plan's rule)",
        kind="modelling",
        symbol="storrepro.papers.tofec.config:TREND_FACTOR",
        decides=("B5-mean", "B5-median", "B5-greedy", "B5-high", "B6-p90", "B6-p99",
                 "B7-envelope"),
    ),
    "pilot_bands": Forced(
        question="Which bands were used before the register, and what did they give?",
        quote="the plan's acceptance checks, “sized from the pilot so that a correct "
        "implementation passes”: bands from the pilot of our own stand-in, not from the "
        "paper's words",
        value=PILOT_BANDS_RETIRED,
        kind="band",
        decides=("A1-sat", "B1-(1,1)", "B1-(2,1)", "B1-best", "B2-21", "B2-66", "B4-mean-11",
                 "B4-mean-21", "B4-median-11", "B4-greedy-mean", "B4-greedy-median", "B4-abs",
                 "B5-mean", "B5-median", "B5-greedy", "B5-high", "B6-p90", "B6-p99",
                 "B7-envelope", "B6-vs-greedy", "B7-vs-greedy", "B8-top2", "B8-greedy", "B9a",
                 "B9b", "B9c", "B9d"),
    ),
    "threads": Forced(
        question="How many parallel threads L does the proxy keep to the storage cloud?",
        quote=STRIPPED_WORDS,
        value=f"L = {L_THREADS} (stripped; the plan's value, the notebook's n_threads). With the "
        "paper's light-load (1,1) mean of 205 ms it fixes the paper's own capacity, C(1,1) = "
        "L / 0.205 s ≈ 78 req/s, so it decides whether the literal 80 req/s of phase 2 is an "
        "overload (it is, by 3 %, for L = 16; L = 17 would make it 0.96 of capacity): the "
        "phase-2 load is a reading (phase2_load)",
        kind="modelling",
        symbol="storrepro.papers.tofec.config:L_THREADS",
        decides=("B3-0.95-TOFEC", "B3-0.95-Greedy", "B5-high", "B9a", "B9b", "B9c", "B9c-greedy",
                 "B9d"),
    ),
    "k_max": Forced(
        question="What is the largest code dimension k_max?",
        quote=STRIPPED_WORDS,
        value="k_max = 6 (stripped; inferred from the paper's own words: Fig. 10's bars show "
        "'the fraction of requests served with code dimension 1 through 6', and Greedy "
        "'keeps oscillating between k=1 and k=6')",
        kind="modelling",
        symbol="storrepro.papers.tofec.codes:K_MAX",
        decides=("B5-mean", "B5-median", "B8-modal", "B8-top2", "B8-greedy", "B2-fixedk"),
    ),
    "r_max": Forced(
        question="What is the largest redundancy ratio r_max = n / k?",
        quote=STRIPPED_WORDS,
        value="r_max = 2 (stripped; inferred from Fig. 3's example, where 'a 3MB file is "
        "divided into 6 strips of 0.5MB and encoded into 12 coded strips of total size 6MB': "
        "with k_max = 6 the 27 static codes up to (12,6))",
        kind="modelling",
        symbol="storrepro.papers.tofec.codes:R_MAX",
        decides=("B5-mean", "B5-median", "B6-p90", "B6-p99", "B2-126"),
    ),
    "ideal_light_code": Forced(
        question="Which code does Ideal use in phases 1 and 3?",
        quote="“Optimal codes: a k = 5 code in phases 1 and 3” ([n] stripped) … Ideal “picks the "
        "optimal code accordingly”",
        value="the best static code by mean at 10 req/s in the λ-grid sweep",
        kind="resolution",
        decides=("B9b", "B9d"),
    ),
}


class TofecConfig(NotebookConfig):
    notebook = "05_tofec"
    title = "TOFEC"
    reproduces = (
        "delay model, Theorem 1, static (n,k) codes, TOFEC and Greedy: delay vs arrival rate, k"
        " composition, adaptation to load changes"
    )
    trace_replaces = (
        "the changing-workload experiment's arrivals: the trace's request gaps, scaled to each "
        "phase's rate"
    )
    readings: ClassVar[dict[str, Reading]] = READINGS
    forced: ClassVar[dict[str, Forced]] = FORCED
    paper = (
        "G. Liang and U. C. Kozat, On Throughput-Delay Optimal Access to Storage Clouds via "
        "Load Adaptive Coding and Chunking, arXiv:1403.5007 (2014)"
    )
    full_cost = (88.0, 1172.0, 1472.0)  # full s, quick and full peak MiB
    budget_s = (90.0, 300.0)  # quick, full: what make bench holds the notebook to
    params = {
        "requests": Param(int, 4_000, 50_000, "requests per (policy, arrival rate, seed) run (at "
                          "least)", low=1_000, grows="memory"),
        "duration_s": Param(float, 60.0, 600.0, "simulated seconds per run (at least); the larger "
                            "of the two wins", low=10.0, grows="memory"),
        "seeds": Param(int, 2, 5, "independent seeds per arrival rate", low=1, high=50,
                       grows="time"),
        "high_load_seeds": Param(int, 2, 10, "seeds at 0.90/0.95/0.98 of the full capacity",
                                 low=1, high=50, grows="time"),
        "phase_seeds": Param(int, 2, 10, "seeds per changing-workload pattern (two at least: an "
                             "interval)", low=2, high=50, grows="time"),
        "alpha": Param(float, 0.9, 0.9, "TOFEC's memory factor (EWMA weight of the past), in "
                       "[0, 1)", low=0.0),
        "n_threads": Param(int, L_THREADS, L_THREADS, "parallel threads L", low=12, high=64),
        "mc_samples": Param(int, 20_000, 400_000, "Monte-Carlo samples per chunk size / per code",
                            low=5_000, grows="memory"),
        **trace_params("the synthetic request arrivals of the changing-workload experiment"),
    }

    #: The trace drives only the changing workload (Fig. 11); the grid's claims keep Poisson.
    trace_claims = ("B9a", "B9b", "B9c", "B9c-greedy", "B9d")

    trace_module = "storrepro.papers.tofec.workload"  # trace_needs(cfg): what it needs of a trace
    paper_link = "https://arxiv.org/abs/1403.5007"  # no DOI: its arXiv page

    def validate(self) -> None:
        if not self.alpha < 1:  # Param bounds are inclusive; 1 would freeze the backlog estimate
            raise ParameterError(f"parameter 'alpha' = {self.alpha!r}: expected a float in [0, 1)")

    @property
    def rates(self) -> tuple[int, ...]:
        return FULL_RATES if self.profile == "full" else QUICK_RATES

    def requests_at(self, rate: float) -> int:
        """Requests per run at ``rate`` req/s: >= ``requests`` and >= ``duration_s`` seconds."""
        return max(self.requests, math.ceil(self.duration_s * rate))

