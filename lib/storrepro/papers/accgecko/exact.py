"""The exact-replay reference predictor (this reproduction's, not the paper's).

Every method of the comparisons predicts from one modelled segment and allocates the smallest
fixed rate whose prediction meets the SLO there. :class:`ExactReplay` predicts the modelled
segment's percentile by replaying that segment itself on the node (its own arrivals and
dispatch overheads, the fast path of the simulator), so its allocation is the smallest rate at
which the segment really meets the SLO: no predictor that sees only that segment can allocate
less and stay safe on it. What is left of the full trace's violations at its rates comes from
the other segments being burstier than the modelled one, not from any prediction error — the
floor against which AccGecko's SLO safety (T4) is judged.
"""

from __future__ import annotations

import numpy as np

from storrepro.papers.accgecko.acctail import check_percentile, check_rate
from storrepro.papers.accgecko.pacer import Replayer


class ExactReplay:
    """``ExactReplay().fit(arrivals, overhead_us).predict(p, sr)``: the p-th percentile latency
    (µs) of the segment replayed at the fixed rate ``sr``."""

    def __repr__(self) -> str:
        return "ExactReplay()"

    def fit(self, arrivals: np.ndarray, overhead_us: np.ndarray) -> ExactReplay:
        """``arrivals``: the segment's arrival times (s, sorted); ``overhead_us``: each
        request's dispatch overhead."""
        self.replayer = Replayer(arrivals, overhead_us)
        return self

    def predict(self, p: float, sr: float) -> float:
        """The replayed p-th percentile at ``sr``; the replayer keeps what each call learns
        (a percentile found at a higher rate bounds it below), so a rate search replays less
        at every step."""
        return self.replayer.percentile_us(check_percentile(p), check_rate(sr), use="search")
