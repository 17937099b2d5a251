"""This reproduction's under-prediction experiment (section 7b) and the one-segment replay
behind the notebook's live AccTail control."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from storrepro.papers.accgecko.acctail import AccTail, smallest_rate
from storrepro.papers.accgecko.burst_queue import BurstQueue
from storrepro.papers.accgecko.bursts import burst_peaks, burst_sizes, continuous_bursts, in_bursts
from storrepro.papers.accgecko.experiment import ACCTAIL, EXPLAIN_SLO, LITERAL, SLO_GRID
from storrepro.papers.accgecko.features import DELTA, period_counts
from storrepro.papers.accgecko.kernel import dispatch_overhead_us
from storrepro.papers.accgecko.pacer import Replayer, rank_from_top
from storrepro.papers.accgecko.workload import MEAN_RATE, generate


def explain_tenant(task, rows, cut, arrivals, overhead, fitted, tenant_mean) -> list[dict]:
    """The under-prediction experiment (the literal reading, :data:`LITERAL`): at the rate
    AccTail allocates for the headline SLO of each percentile, the modelled segment's replayed
    percentile against AccTail's and the reference queue model's predictions of it, the share
    of the segment's top-1 % latencies that arrive inside continuous bursts (M = 1.5), and how
    far the bursts' average rate lies above the threshold M × mean."""
    out = []
    for row in rows:
        if not (row["reading"] == LITERAL and row["method"] == ACCTAIL.name
                and row["slo_us"] == EXPLAIN_SLO[row["p"]] and row["rate"] < math.inf):
            continue  # fmt: skip
        index = row["segment"]
        seg = cut[index]
        rate, p = row["rate"], row["p"]
        replayer = Replayer(seg.arrivals, seg.overhead, checked=True)
        latency = replayer.latencies_us(rate)
        queue = BurstQueue(ACCTAIL.m, ACCTAIL.c_us).fit(seg.counts, tenant_mean)
        spans = queue.spans
        inside = in_bursts(seg.counts.size, spans)
        rank = rank_from_top(latency.size, p)  # the replayed p-th percentile, as Replayer's
        top = latency >= np.quantile(latency, 0.99, method="inverted_cdf")
        period = np.minimum((seg.arrivals / DELTA).astype(np.int64), seg.counts.size - 1)
        sizes = burst_sizes(seg.counts, spans)
        lengths = spans[:, 1] - spans[:, 0] + 1
        peaks = burst_peaks(seg.counts, spans)
        out.append(
            {
                "tenant": task.tenant,
                "p": p,
                "rate": rate,
                "replay_us": float(-np.partition(-latency, rank - 1)[rank - 1]),
                "acctail_us": row["predicted_us"],
                "queue_us": queue.predict(p, rate),
                "top1_requests": int(top.sum()),
                "top1_in_bursts": int(np.count_nonzero(inside[period[top]])),
                "bursts": int(spans.shape[0]),
                "burst_rate_over_threshold": float(
                    np.sum(sizes) / np.sum(lengths) / (ACCTAIL.m * tenant_mean)
                ) if sizes.size else math.nan,
                "median_peak_ms_count": float(np.median(peaks)) if peaks.size else math.nan,
            }
        )
    return out


@dataclass
class LiveTrace:
    """One segment of one tenant, for the notebook's live AccTail control: its per-ms counts and
    a replayer of its arrivals (with overheads) for the true latency at any rate."""

    counts: np.ndarray
    replayer: Replayer

    @classmethod
    def generate(cls, params, segment_s: float, rng: np.random.Generator) -> LiveTrace:
        arrivals = generate(params, segment_s, rng, segment_s)
        overhead = dispatch_overhead_us(rng, arrivals.size)
        return cls(period_counts(arrivals, segment_s), Replayer(arrivals, overhead, checked=True))

    def true_us(self, p: float, rates) -> np.ndarray:
        """The p-th percentile latency (µs) of the replay at each rate."""
        values = self.replayer.percentiles_at(rates, [p])
        return np.array([values[float(r), p] for r in rates])

    def acctail_curve(self, m: float, k: int, rates, truth) -> dict:
        """AccTail's predicted p99 (M = ``m``, ``k`` stages) at the ``rates`` it can model
        (``>= m`` × the mean), with the replay's ``truth`` at every rate, for the live figure."""
        model = AccTail(m, k, 25.0).fit(self.counts, MEAN_RATE * DELTA)
        rates = np.asarray(rates, dtype=float)
        usable = rates[rates >= m * MEAN_RATE]
        predicted = [model.predict(99.0, float(r)) for r in usable]
        return {"rates": rates, "truth": truth, "model_rates": usable, "predicted": predicted}

    def acctail(self, m: float, k: int, p: float = 99.0) -> pd.DataFrame:
        """AccTail (M = ``m``, ``k`` stages, c = 25 µs) on this segment: for every SLO of the grid
        the rate it allocates, its predicted and the true p-th percentile there."""
        model = AccTail(m, k, 25.0).fit(self.counts, MEAN_RATE * DELTA)
        floor = m * MEAN_RATE
        high = max(2.0 * self.counts.max() / DELTA, floor + 1)
        rows = []
        for slo in SLO_GRID[p]:
            rate = smallest_rate(lambda r: model.predict(p, r), slo, floor, high)
            ok = rate < math.inf
            predicted = model.predict(p, rate) if ok else math.inf
            true = float(self.true_us(p, [rate])[0]) if ok else math.inf
            rows.append(
                {
                    "SLO (µs)": slo,
                    "rate (IOPS)": rate,
                    "predicted (µs)": predicted,
                    "true (µs)": true,
                    "true / SLO": true / slo,
                }
            )
        return pd.DataFrame(rows).set_index("SLO (µs)")


def explain_summary(explain: pd.DataFrame) -> pd.DataFrame:
    """Section 7b's medians per percentile: AccTail's and the queue model's predictions against
    the segment's replay, the share of the top 1 % inside bursts, the bursts' rates."""
    ratios = explain.assign(
        **{
            "replay / AccTail": explain.replay_us / explain.acctail_us,
            "queue model / replay": explain.queue_us / explain.replay_us,
            "top-1 % in bursts": explain.top1_in_bursts / explain.top1_requests,
        }
    )
    columns = ["rate", "replay_us", "acctail_us", "queue_us", "replay / AccTail",
               "queue model / replay", "top-1 % in bursts", "burst_rate_over_threshold",
               "median_peak_ms_count"]  # fmt: skip
    return ratios.groupby("p")[columns].median()


def hand_example(live: LiveTrace, rates, m: float = 1.5) -> dict:
    """Section 7b by hand on one segment: its longest continuous burst (M = ``m``) per ms, and
    its replayed p99 at each rate against AccTail's (k = 1) and the queue model's predictions."""
    n_mean = MEAN_RATE * DELTA
    spans = continuous_bursts(live.counts, m, mean_count=n_mean)
    a, e = spans[np.argmax(spans[:, 1] - spans[:, 0])]
    acctail = AccTail(m, 1, 25.0).fit(live.counts, n_mean)
    queue = BurstQueue(m, 25.0).fit(live.counts, n_mean)
    return {
        "burst": live.counts[a : e + 1],
        "threshold": m * n_mean,
        "rates": np.asarray(rates, dtype=float),
        "truth": live.true_us(99.0, rates),
        "queue": np.array([queue.predict(99.0, r) for r in rates]),
        "acctail": np.array([acctail.predict(99.0, r) for r in rates]),
    }
