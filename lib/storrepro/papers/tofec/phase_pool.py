"""The changing workload's per-seed results (Fig. 11) as the claims read them: a replicate pool
of phase seeds per pattern, drawn on demand (B9d draws more seeds until its interval decides),
and the table of recovery times against Ideal."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from storrepro.papers.tofec.config import PURE_PATTERN, READINGS
from storrepro.papers.tofec.metrics import ideal_name, tofec_name
from storrepro.suite.claims import interval
from storrepro.suite.replicates import Pool

#: The phase-2 load reading -> the changing workload's pattern and its name in reasons.
PHASE2 = {
    "0.98": ("primary", "0.98·C_full"),
    "1.03": ("literal 10/80/10", "1.03·C_full (the literal 80 req/s)"),
    "0.95": ("0.95·C_full", "0.95·C_full"),
}
#: Every pattern a B9 claim reads: the phase-2 loads, and the primary load under PURE task
#: delays (the delay model's reading) -> (the pattern's name, its words in reasons).
PATTERNS = {**PHASE2, "PURE": (PURE_PATTERN, "0.98·C_full, on PURE task delays")}
#: B9d's phase seeds: a pool per pattern, drawn from the ``phase_seeds`` every B9 claim uses
#: until both of B9d's intervals lie on one side of 0 or this many seeds of the pattern are drawn.
PHASE_CAP = 40
PHASE_CAP_WHY = (
    "one phase seed runs the 8 policies of one pattern in about 0.3 s of one core, so drawing "
    "40 seeds of each of the three patterns adds at most about 27 s to the notebook's 10 per "
    "pattern, the most its budget allows beside the delay model's reading"
)
class Phases:
    """Per-seed values of the changing workload (``experiment.changing_workload``'s
    ``phases``; the primary TOFEC is named "TOFEC"), and a replicate pool per phase-2 load:
    with ``draw(pattern, reps)`` a claim can take more seeds of a pattern than were drawn (up to
    :data:`PHASE_CAP`), each drawn once and kept for every claim."""

    def __init__(self, phases: pd.DataFrame, alpha: float, draw=None):
        self.frame = phases.set_index(["pattern", "policy", "rep"]).sort_index()
        self.alpha = alpha
        self.draw = draw
        self.start = int(phases.groupby("pattern").rep.nunique().min())
        cap = max(PHASE_CAP, self.start) if draw is not None else self.start
        drawn = set(phases.pattern)
        self.pools = {
            load: Pool(f"phase seeds, phase 2 at {name}", partial(self._seeds_of, pattern),
                       self.start, cap, PHASE_CAP_WHY if draw is not None else
                       "no further seeds can be drawn")
            for load, (pattern, name) in PATTERNS.items() if pattern in drawn
        }
        for pool in self.pools.values():
            pool.take(self.start)

    def _seeds_of(self, pattern: str, reps: range) -> list[int]:
        """Seeds ``reps`` of ``pattern`` (their indices), drawing those not yet in the frame."""
        have = self.frame.loc[pattern].index.get_level_values("rep")
        missing = [r for r in reps if r not in have]
        if missing:
            more = self.draw(pattern, range(missing[0], missing[-1] + 1))
            more = more.set_index(["pattern", "policy", "rep"])
            self.frame = pd.concat([self.frame, more]).sort_index()
        return list(reps)

    def tofec(self, a: float) -> str:
        return "TOFEC" if a == self.alpha else tofec_name(a)

    def drawn(self, load: str) -> int:
        """How many seeds of ``load``'s pattern are drawn."""
        return self.pools[load].drawn

    def seeds(self, load: str, policy: str, metric: str, n: int | None = None) -> pd.Series:
        """``metric`` of ``policy`` on the first ``n`` seeds (``phase_seeds`` by default) with
        phase 2 at ``load`` (a reading value), drawing the missing ones."""
        reps = self.pools[load].take(self.start if n is None else n)
        return self.frame.loc[(PATTERNS[load][0], policy), metric].loc[reps]


def recovery_table(ph: Phases) -> pd.DataFrame:
    """TOFEC and Greedy minus Ideal's recovery time (s) per pattern (phase-2 load, and PURE's)
    and decision point, on every seed drawn of the pattern: mean, 95 % interval and the share
    of seeds on which the policy is faster."""
    rows = {}
    for load in (x for x in PATTERNS if x in ph.pools):
        n = ph.drawn(load)
        for point in READINGS["ideal_decision_point"].alternatives:
            ideal = ph.seeds(load, ideal_name(point), "recovery_s", n)
            for who in ("TOFEC", "Greedy"):
                diff = (ph.seeds(load, who, "recovery_s", n) - ideal).to_numpy()
                u = interval(diff, of="s")
                lo, hi = u["ci95"] if u["ci95"] is not None else (np.nan, np.nan)
                rows[(PATTERNS[load][1], ideal_name(point), who)] = {
                    "minus Ideal (s)": u["mean"], "CI low": lo, "CI high": hi,
                    "faster on": f"{int((diff < 0).sum())}/{diff.size}",
                }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.names = ["phase-2 load", "Ideal", "policy"]
    return table
