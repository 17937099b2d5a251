"""Parameters of notebook 02 (AccGecko) and their profile values."""

from __future__ import annotations

from typing import ClassVar

from storrepro.config import NotebookConfig, Param, ParameterError, Reading, trace_params

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
}


class AccGeckoConfig(NotebookConfig):
    notebook = "02_accgecko"
    readings: ClassVar = READINGS
    paper = (
        "Leng, Jiang, Xiong: AccGecko, a tail-latency SLO guarantee framework for distributed "
        "storage systems. High Technology Letters 32(6), 2022 (doi:10.3772/j.issn.1002-0470."
        "2022.06.001)"
    )
    full_cost = (135.0, 1659.0, 1993.0)  # full s, quick and full peak MiB
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

    def validate(self) -> None:
        if self.accuracy_tenants > self.tenants:
            raise ParameterError(
                f"parameter 'accuracy_tenants' = {self.accuracy_tenants}: expected <= tenants "
                f"({self.tenants})"
            )

    @property
    def duration(self) -> float:
        return self.segment_seconds * self.segments
