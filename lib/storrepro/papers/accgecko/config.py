"""Parameters of notebook 02 (AccGecko) and their profile values."""

from __future__ import annotations

from typing import ClassVar

from storrepro.suite.config import (
    Forced,
    NotebookConfig,
    Param,
    ParameterError,
    Reading,
    trace_params,
)

READINGS = {
    "normaliser": Reading(
        question="N, the mean requests per 1 ms period behind the burst threshold M·N and the "
        "DBSCAN neighbourhood ε = 1/(M·N): the tenant's mean or the modelled segment's own?",
        paper_words="§3.2: 设服务速率为租户负载平均发送速率的 M 倍，在此平均发送速率下单个周期的"
        "请求发送数量为 N (let the service rate be M times the tenant workload's mean sending "
        "rate; N is the requests per period at that mean rate); §2.1: the burst baseline is "
        "2× 租户负载请求平均发送速率 (the tenant workload's mean request rate).",
        primary="tenant",
        alternatives={
            "tenant": "the tenant's mean, 2 requests per ms (every trace is rescaled to 2000 "
            "IOPS as a whole)",
            "segment": "the mean count of the segment being modelled or measured",
        },
        argument="Both places the paper defines N it speaks of the tenant workload's mean "
        "sending rate (租户负载平均发送速率), and it rescales each whole trace to 2000 IOPS, so "
        "the tenant's mean is 2 per ms; nothing in the text points at a per-segment mean. Changes "
        "AccTail's and the reference queue model's bursts and the burst features, not which "
        "segment is modelled.",
    ),
    "segment": Reading(
        question="Which 5-min segment does the controller model ('the segment with the largest "
        "bursts')?",
        paper_words="§4: trace 被切割为 5 min 的分段，AccGecko Controller 使用其中突发流量最大的"
        "分段来预测服务端百分位延迟 (the trace is cut into 5-min segments and the controller "
        "predicts from the segment whose burst traffic is largest).",
        primary="burst_requests",
        alternatives={
            "burst_requests": "the segment with the most requests inside continuous bursts "
            "(M = 2), the same for every method",
            "longest": "the segment with the longest continuous burst (M_b = 2), the same for "
            "every method",
        },
        argument="突发流量最大 ('largest burst traffic') measures an amount of traffic: the "
        "requests that arrive in bursts. The longest continuous burst is the paper's density "
        "dimension, which it calls decisive for p99.9 but never uses to pick the segment.",
    ),
    "line9": Reading(
        question="Algorithm 1 line 9, lat[(1/sr − 1/bs_i.avg_interval)·j + c]: what stage "
        "interval τ_i is subtracted from the service interval 1/sr?",
        paper_words="Line 7: bs_i.avg_interval = total burst time of stage i / total burst "
        "request num of stage i; §3.3 text: 统计请求平均发送速率 bs_i.avg_interval (count the "
        "requests' average sending rate bs_i.avg_interval).",
        primary="stage_ratio",
        alternatives={
            "stage_ratio": "τ_i = Σ L_b / Σ n_b over the stage's bursts (line 7 as printed; "
            "line 9's 1/x a typo for x)",
            "mean_of_rates": "τ_i = 1 / mean(λ_b), the stage's 'average sending rate' as the "
            "mean of its bursts' line-2 rates λ_b = n_b / L_b",
        },
        argument="Line 7 gives the formula explicitly and names the variable an interval; the "
        "prose only names it. With line 7's τ_i, line 9 is 'j service times minus j "
        "inter-arrival times', the queueing meaning the text describes.",
    ),
    "pm": Reading(
        question="Which PriorityMeister is the baseline: one (r, b) pair at the tenant's own "
        "fixed rate, or the original's several (r, b) pairs with per-tenant priorities on a "
        "node's shared queue?",
        paper_words="§4.3: PriorityMeister 采用 rb 对负载建模方法和 NetworkCalculus "
        "最大延迟预测方法 "
        "(PriorityMeister models the load with the (r, b) pair and predicts the maximum latency "
        "by network calculus); §1: 当服务速率为 r 时, b 为排队请求数量的最大值 (at service rate r, "
        "b is the largest number of queued requests); §4.2: 通过为租户分配固定的服务速率 (by "
        "allocating each tenant a fixed service rate).",
        primary="simplified",
        alternatives={
            "simplified": "one (r, b) pair at the allocated fixed rate: the segment's largest "
            "wait at that rate, plus c; admitted by rate like every other method",
            "original": "eight (r, b) pairs from the mean to the peak rate; errors at a fixed "
            "rate from that envelope; admission on the node's shared queue by per-tenant "
            "priority with greedy priority assignment",
        },
        argument="The paper describes PriorityMeister only by its (r, b) model and its "
        "network-calculus maximum-latency prediction, speaks of the pair in the singular (b is "
        "the largest queue at the service rate r), evaluates every method by allocating a fixed "
        "service rate, and never mentions priorities in its evaluation. The original's several "
        "pairs and priority queue are read from the PriorityMeister paper, not from this one.",
    ),
    "trn": Reading(
        question="Algorithm 1 line 12, max_request_number = trn × (1 − p/100): which requests "
        "does trn count — every request of the modelled segment, or the requests of its "
        "continuous bursts?",
        paper_words="Line 12 uses trn without defining it. §3 overview: 逐帧地预测租户连续突发流量"
        "期间请求延迟超限的概率 (predict, frame by frame, the probability that a request's "
        "latency exceeds the limit during the tenant's continuous bursts); §3.3: AccTail 通过逐帧"
        "地预测连续突发流量产生的延迟，并统计占比，以获得尾延迟 (AccTail predicts the latency the "
        "continuous bursts produce, frame by frame, and counts the share to get the tail "
        "latency); §3.2 splits the workload into the continuous-burst part and the rest.",
        primary="burst",
        alternatives={
            "segment": "every request of the modelled segment: the requests outside "
            "continuous bursts count as faster than every burst request (the first "
            "implementation)",
            "burst": "the requests of the continuous bursts: the percentile is read among the "
            "requests whose latency Algorithm 1 predicts",
        },
        argument="The text allows both: Algorithm 1 never defines trn, while every place the "
        "paper says what AccTail predicts it names the requests of the continuous bursts, and "
        "Algorithm 1 builds its histogram from them alone. The first implementation took the "
        "segment (the code's since the notebook's first commit a05302f, before its first "
        "results 3831bc6). The primary was switched to the burst requests after the results "
        "had been seen, because the paper's own reported results rule the segment out (the "
        "consistency record of this reading, measured in the notebook): with trn = the segment, "
        "DB+25µs under-predicts on the Table 1 replicas and allocates below the exact-replay "
        "rate of the modelled segment almost always, where the paper reports 0 % negative "
        "error and a residual error that is positive. The segment stays a declared "
        "alternative, its verdicts shown.",
    ),
    "epsilon": Reading(
        question="ε = 1/(M·N) is derived from 'the preset service rate': is it fixed at M × the "
        "mean rate, or does it follow the service rate sr that the rate search evaluates?",
        paper_words="§3.2: ε参数的设定取决于预设请求的服务速率，设服务速率为租户负载平均发送速率"
        "的 M 倍 … 则将 ε 参数设定为 1/MN (ε depends on the preset request service rate; let "
        "the service rate be M times the tenant's mean sending rate … then ε = 1/MN); §4.2: 设"
        "下限为租户负载平均发送速率的 M 倍 (the burst lower bound is M times the mean rate).",
        primary="rate",
        alternatives={
            "fixed": "ε = 1/(M·N) for every rate evaluated: the continuous bursts are found once "
            "(the first implementation)",
            "rate": "ε = 1/(sr·Δ) for the rate sr being evaluated; M·N stays the burst-state "
            "(core) threshold: the continuous bursts are found again for each rate",
        },
        argument="The paper derives ε from a service rate and sets that rate to M × the mean, "
        "and §4.2 makes M also the burst lower bound; it never says whether the clustering is "
        "repeated per rate. The first implementation kept ε fixed (the code's since the "
        "notebook's first commit a05302f, before its first results). The reason the paper "
        "gives for ε — a queue served at the preset rate — holds only at the rate actually "
        "served, which is what the rate search varies. The primary was switched to ε following "
        "the rate after the results had been seen, because the paper's own reported results "
        "rule the fixed ε out (the consistency record of this reading): with ε fixed, past the "
        "bursts' average rate line 9's slope is 0 and the prediction drops to c, so DB+25µs "
        "under-predicts where the paper reports 0 % negative error. The fixed ε stays a "
        "declared alternative, its verdicts shown.",
    ),
}

def _band(question: str, symbol: str, decides: tuple[str, ...]) -> Forced:
    """A claim's band, in the constant ``symbol`` of ``claims``: the register quotes its words
    (the paper's, and this reproduction's acceptance range where the paper gives a number
    without a tolerance)."""
    return Forced(question, "", "the band in the constant: " + symbol, kind="band",
                  symbol=f"storrepro.papers.accgecko.claims:{symbol}", decides=decides)


#: The rest of the decision register: each band, calibration target, resolution of the text and way
#: AccGecko and its baselines are modelled differently that the paper's words settle, with the
#: quote (the quotes are in English; the Chinese is in the notebook).
FORCED = {
    "band_m1": _band("M1's band", "M1_BAND", ("M1",)),
    "band_m5": _band("M5's bands", "M5_SPREAD", ("M5",)),
    "band_a0": _band("A0's bound on negative error", "A0_BAND", ("A0", "A0a", "A0b", "A0c")),
    "band_a1": _band("A1's bands", "A1_RATIO", ("A1",)),
    "band_a2": _band("A2's band", "A2_BAND", ("A2",)),
    "band_a3": _band("A3's band", "A3_BAND", ("A3",)),
    "band_a4": _band("A4's ranges", "A4_AVG", ("A4",)),
    "band_a5": _band("A5's direction", "A5_BAND", ("A5",)),
    "band_a6": _band("A6 / A6s / A6n bands", "A6S_AVG", ("A6", "A6s", "A6n")),
    "band_a7": _band("A7 / A7b direction", "A7_BAND", ("A7", "A7b")),
    "band_a8": _band("A8's bounds", "A8_SNCM", ("A8",)),
    "band_t1": _band("T1 / T1b / T5 / T5b direction", "T1_BAND", ("T1", "T1b", "T5", "T5b")),
    "band_t2": _band("T2's ranges", "T2_BANDS", ("T2", "T2m")),
    "band_t3": _band("T3's bounds", "T3_BANDS", ("T3",)),
    "band_t4": _band("T4's bound on violating tenants", "T4_SHARE", ("T4", "X3", "X4")),
    "t4_reference": Forced(
        "What T4's 'guarantee' is measured against, when even a predictor that knows the "
        "modelled segment exactly leaves tenants violating on the full trace",
        "§4: trace 被切割为 5 min 的分段，AccGecko Controller 使用其中突发流量最大的分段来预测 "
        "(the controller predicts from the segment whose burst traffic is largest), and the "
        "whole trace is replayed to validate; Fig. 10's text blames the remaining error on "
        "modelling on that segment and validating on the whole trace",
        "the exact-replay reference: the smallest rate at which the modelled segment's own "
        "replay meets the SLO; T4 allows AccGecko 2 points more violating tenants than it on the "
        "same orders (and 10 % beyond its worst), rather than giving G2 tenants "
        "segment-to-segment variation so that the burstiest segment bounds the trace",
        kind="modelling", symbol="storrepro.papers.accgecko.claims:T4_SHARE",
        decides=("T4", "X3", "X4")),
    "calibration_pool": Forced(
        "The synthetic pool's target ranges per segment", "Table 1: total burst time 2697–2884 "
        "ms of a 5-min segment, intensity 2.6–2.8×, longest continuous burst 11–27 ms; §1: "
        "bursts reach 2–6× the mean and last up to tens of ms",
        "total burst time 0.3–5 % of the segment, intensity 2–6×, longest burst 3–40 ms",
        kind="calibration", symbol="storrepro.papers.accgecko.claims:POOL_TARGETS",
        decides=("G1", "G2")),
    "calibration_table1": Forced(
        "The Table 1 replicas' targets", "Table 1: T1–T3 total burst time 2812 / 2884 / 2697 "
        "ms, intensity 2.7 / 2.8 / 2.6, longest continuous burst 15 / 11 / 27 ms",
        "the paper's Table 1", kind="calibration",
        symbol="storrepro.papers.accgecko.workload:TABLE1",
        decides=("M4", "M5", "M6")),
    "mean_rate": Forced(
        "Each tenant's mean rate", "§2.1: 成比例调整每个 trace 负载的请求发送时间间隔，使所有负载"
        "的平均发送速率相同 (2000 IOPS) (every trace rescaled to the same mean rate, 2000 IOPS)",
        "2000 IOPS", symbol="storrepro.papers.accgecko.workload:MEAN_RATE"),
    "motivation_rate": Forced(
        "The motivation study's service rate", "§2.1: 固定的服务速率，为请求平均发送的1.5倍(3000 "
        "IOPS)，并固定相邻请求的服务间隔 (333 µs)", "3000 IOPS, a fixed 333 µs interval",
        symbol="storrepro.papers.accgecko.experiment:MOTIVATION_RATE", decides=("M1", "M5", "M6")),
    "delta": Forced("The state length Δ", "§3.2: 对 trace 按照固定周期(如 1 ms)进行切分 (cut the "
                    "trace into fixed periods, e.g. 1 ms)", "1 ms",
                    symbol="storrepro.papers.accgecko.features:DELTA"),
    "min_pts": Forced("DBSCAN's MinPts", "§3.2: 将 MinPts 设定为2 (MinPts is set to 2)", "2",
                      symbol="storrepro.papers.accgecko.bursts:MIN_PTS"),
    "stages": Forced("How the k stages divide the bursts' rates", "§4.2: 按照连续突发流量平均强度"
                     "由低到高等分为 k 个 stage (divided equally, low to high, into k stages)",
                     "k equal-width bins of λ_b over [min, max]", decides=("A6", "A6s")),
    "acctail_config": Forced(
        "AccTail's configuration in the comparisons (Fig. 11–12)", "§4.2: M 2 → 1.5 gives the "
        "least error; k = 3 best at p99, k = 5 at p99.9; c = 25 µs removes negative error",
        "M = 1.5, k = 3 (p99) / 5 (p99.9), c = 25 µs",
        kind="modelling", symbol="storrepro.papers.accgecko.experiment:BEST_K",
        decides=("A7", "A8", "T1", "T2", "T2m", "T3", "T4", "T5", "X4")),
    "intensities": Forced(
        "The burst intensities of the sensitivity row", "§2.1: 通常情况下,租户负载的强度为2~10 "
        "(a tenant workload's intensity is usually 2–10); §4.1: 负载突发流量的发送速率为均值的 "
        "2~10 倍 (the traces' bursts send at 2–10× the mean)",
        "2, 4, 6, 8 and 10× the mean, every burst of a tenant at the same intensity",
        kind="modelling", symbol="storrepro.papers.accgecko.experiment:INTENSITIES",
        decides=("X4",)),
    "slo_grid": Forced(
        "The SLOs each tenant's allocation is made for (the accuracy tables, the admission "
        "runs' drawn SLOs)",
        "§4.2: 本文主要对 99 百分位和 99.9 百分位 2 种类型的尾延迟 SLO 进行评测 (the paper "
        "evaluates p99 and p99.9 SLOs; it gives no SLO values)",
        "p99: 0.15, 0.3, 0.5, 1 ms; p99.9: 0.3, 0.5, 1, 2 ms — this reproduction's choice, "
        "unchanged since the notebook's first commit (a05302f), before its first results; "
        "registered after a review found that it decides A0 and A2 under the reading now "
        "primary (A0's negative error came only from k = 1 at the 0.3 and 0.5 ms p99.9 SLOs)",
        kind="modelling", symbol="storrepro.papers.accgecko.experiment:SLO_GRID",
        decides=("A0", "A0a", "A0b", "A0c", "A1", "A2", "A3", "A4", "A5", "A6", "A6s", "A6n",
                 "A7", "A7b", "A8", "T1", "T1b", "T2", "T2m", "T3", "T4", "T5", "T5b")),
    "segment_length": Forced("The modelled segment's length", "§4.1: trace 被切割为 5 min 的分段 "
                             "(the trace is cut into 5-min segments)", "300 s (full profile)"),
    "same_rate_control": Forced(
        "How every method's prediction becomes an admission", "§4.2: 通过为租户分配固定的服务速率 "
        "(by allocating each tenant a fixed service rate); §4.3 compares the tenants admitted",
        "every method allocates the smallest fixed rate whose prediction meets the SLO on the "
        "same modelled segment and is admitted while the rates fit C",
        kind="modelling", decides=("T1", "T1b", "T2", "T3", "T4", "T5", "T5b")),
    "search_floor": Forced(
        "Where each method's rate search starts", "§3.2: 设服务速率为租户负载平均发送速率的 M 倍 "
        "(AccTail's bursts assume service at M × the mean rate)",
        "AccTail from M × the mean rate (its bursts are defined there), PM, SNCM and MMP from "
        "the mean rate (the long-run stability bound)", kind="modelling",
        decides=("A7", "T1", "T2", "T3", "T4")),
    "c_for_baselines": Forced(
        "Whether the baselines add c", "§3.3: c 为常量 … 请求抵达队列后的等待服务时间与 IO 线程"
        "的额外处理时间 (c is the wait after a request reaches the queue plus the IO thread's "
        "extra processing): a property of the node, not of AccTail",
        "c = 25 µs for PM, SNCM and AccTail; MMP c = 0, the first rung of Fig. 8",
        kind="modelling", decides=("A1", "A7", "A7b", "A8")),
    "snc_bound": Forced(
        "SNC-Meister's bound", "§1: SNC 方法 … 基于马尔科夫不等式，通过平均延迟预测尾延迟的上界 "
        "(SNC bounds the tail through a Markov-type inequality)",
        "the Chernoff/MGF bound of the SNC-Meister code, minimised over θ",
        kind="modelling", decides=("A7", "A7b", "A8", "T1", "T1b", "T2")),
    "errors": Forced(
        "What a prediction error is", "§4.2: 阳性误差 / 阴性误差 (positive / negative error): "
        "over- and under-prediction", "fold changes P/A − 1 and A/P − 1; an average counts "
        "zeros; Fig. 11 adds both, since AccTail under-predicts here",
        kind="modelling", decides=("A0", "A1", "A2", "A4", "A7", "A8")),
}


#: Alternatives judged jointly (the core judges one reading changed at a time): the literal
#: reading, the first implementation's trn = the segment with ε fixed, whose headline verdict is
#: still shown beside the primary's.
JOINT = {"trn=segment&epsilon=fixed": {"trn": "segment", "epsilon": "fixed"}}


class AccGeckoConfig(NotebookConfig):
    notebook = "02_accgecko"
    title = "AccGecko"
    reproduces = (
        "burst features vs tail latency (Spearman), one-directional DBSCAN, AccTail vs SNC-"
        "Meister and PriorityMeister prediction errors, SLO admission"
    )
    trace_replaces = (
        "the tenant pool: each volume one tenant, rescaled to 2000 IOPS, per-ms counts in "
        "segments of `segment_seconds`"
    )
    readings: ClassVar = READINGS
    forced: ClassVar = FORCED
    paper = (
        "Leng, Jiang, Xiong: AccGecko, a tail-latency SLO guarantee framework for distributed "
        "storage systems. High Technology Letters 32(6), 2022 (doi:10.3772/j.issn.1002-0470."
        "2022.06.001)"
    )
    full_cost = (174.0, 1659.0, 1993.0)  # full s, quick and full peak MiB

    @classmethod
    def reading_labels(cls) -> list[str]:
        """The core's one-at-a-time alternatives, then the joint ones of :data:`JOINT` (a
        label ``"a=x&b=y"``; the core reads its first name)."""
        return [*super().reading_labels(), *JOINT]
    params = {
        "tenants": Param(
            int, 10, 100, "synthetic tenant traces in the pool", low=4, high=1000, grows="memory"
        ),
        "accuracy_tenants": Param(
            int,
            4,
            20,
            "tenants that also run every ablation predictor (Fig. 8–11)",
            low=2,
            high=1000,
        ),
        "segment_seconds": Param(
            float,
            60.0,
            300.0,
            "segment length in seconds (the paper: 5 min)",
            low=10,
            high=3600,
            grows="memory",
        ),
        "segments": Param(int, 6, 6, "segments per tenant trace", low=2, high=48, grows="memory"),
        "g2_share": Param(
            float, 0.2, 0.2, "share of the pool from the MMPP control generator G2", low=0, high=1
        ),
        "capacity": Param(
            float, 100_000.0, 100_000.0, "node capacity C in IOPS (sum of fixed rates)", low=1e3
        ),
        "admission_seeds": Param(
            int,
            20,
            50,
            "random arrival orders R of the admission runs",
            low=3,
            high=1000,
            grows="time",
        ),
        "bootstrap": Param(
            int,
            200,
            1000,
            "bootstrap resamples for the Spearman CIs",
            low=50,
            high=100_000,
            grows="time",
        ),
        "intensity_tenants": Param(
            int, 4, 10, "tenants of the pool in the burst-intensity sensitivity row",
            low=2, high=1000, grows="time",
        ),
        "validation_requests": Param(
            int,
            10_000,
            60_000,
            "requests per tenant in the simpy-vs-fast-path check",
            low=1_000,
            grows="memory",
        ),
        **trace_params("the synthetic tenant pool"),
    }

    #: A trace replaces the tenant pool: every claim on the pool's segments, allocations and
    #: admissions; not M4-M6, on the Table 1 replicas, nor the invariants.
    trace_claims = ("G1", "G2", "M1", "M2", "M3", "M7", "X1", "X2", "X3", "A0", "A0a", "A0b",
                    "A0c", "A1", "A2", "A3",
                    "A4", "A5", "A6", "A6n", "A6s", "A7", "A7b", "A8", "T1", "T1b", "T2", "T2m",
                    "T3", "T4", "T5", "T5b")  # fmt: skip
    trace_words = {r"\b([Tt]h(?:is|e)) synthetic pool\b": r"\1 trace's pool"}
    # trace_needs(cfg): what it needs of a trace
    trace_module = "storrepro.papers.accgecko.workload"
    paper_link = "https://doi.org/10.3772/j.issn.1002-0470.2022.06.001"

    def validate(self) -> None:
        for name in ("accuracy_tenants", "intensity_tenants"):
            if getattr(self, name) > self.tenants:
                raise ParameterError(
                    f"parameter '{name}' = {getattr(self, name)}: expected <= tenants "
                    f"({self.tenants})"
                )

    @property
    def duration(self) -> float:
        return self.segment_seconds * self.segments
