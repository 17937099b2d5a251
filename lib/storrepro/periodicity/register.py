"""Notebook 01's decision register beside its readings: each band, calibration target and spec
resolution, with the paper's words and the constant that holds it (the run dates each from
git, :mod:`storrepro.dating`). Most are settled by the quoted words; three are not and say so
in their quote (the minimum verification horizon, C4's outlier split, F2's "few" moves): they
are this reproduction's numbers, listed so that the run dates them. The open choices that are
run both ways are the ``readings`` of :class:`~storrepro.periodicity.config.PrecisePeriodConfig`.
"""

from __future__ import annotations

from storrepro.config import Forced
from storrepro.periodicity import claims

_CLAIMS = "storrepro.periodicity.claims"

#: Each claim band: constant -> the claims it decides (the quote is the band's own words).
BANDS = {
    "B1_BAND": ("B1", "B1b"), "B2_BAND": ("B2", "B2b"), "B3_ABOVE": ("B3",),
    "B4_BAND": ("B4",), "B5_BAND": ("B5",), "B6_BAND": ("B6",), "B7_BAND": ("B7",),
    "C_BAND": ("C1", "C2"), "C3_BAND": ("C3",), "C4_BAND": ("C4",), "D1_BAND": ("D1",),
    "E1_SHARE": ("E1",), "E1_ACCURATE": ("E1",), "E2_BAND": ("E2",), "E3_BAND": ("E3",),
    "F1_BAND": ("F1",), "F2_GROWS": ("F2",), "F2_SMALL": ("F2",), "F3_BAND": ("F3",),
    "F4_BAND": ("F4",), "F5_BAND": ("F5",), "F6_WORSE": ("F6",), "F6_SIMILAR": ("F6",),
    "F7_BAND": ("F7",), "F0_BAND": ("F0",),
}


def forced_register() -> dict[str, Forced]:
    forced = {
        f"band {name}": Forced(
            question=f"The band of {', '.join(ids)}",
            quote=getattr(claims, name).words,
            value=getattr(claims, name).text(),
            kind="band",
            symbol=f"{_CLAIMS}:{name}",
            decides=ids,
        )
        for name, ids in BANDS.items()
    }
    forced.update({
        "F0 target": Forced(
            question="Which 99.99 % latency is hash placement's worst SSD calibrated to under "
            "load_regime=worst_ssd_10ms?",
            quote='"for a single SSD, the 99.99% read-write tail latency may be up to ten '
            'milliseconds" (§5.2.1)',
            value=f"{claims.F0_TARGET_MS:g} ms (the notebook's sched_target_tail_ms)",
            kind="calibration",
            symbol=f"{_CLAIMS}:F0_TARGET_MS",
            decides=("F0", "F3", "F4", "F5", "F6", "F7"),
        ),
        "SSD knee": Forced(
            question="Where is the surrogate SSD's latency knee?",
            quote='"when A is less than 12000, the change of D is not apparent. When A is '
            'greater than 12000, the waiting queue length … increases significantly" (§2, Fig. 2)',
            value="service rate 12 000 / 0.9 ops/s: the knee at 12 000 ops/s",
            kind="calibration",
            symbol="storrepro.periodicity.ssd_latency:S_OPS",
            decides=("F3", "F4", "F5", "F6", "F7"),
        ),
        "SSD mean latency": Forced(
            question="What mean latency does the surrogate SSD have at the paper's mean load?",
            quote='"the average read-write latency of SSDs is 127us" (§5.2.1)',
            value="127 µs at 2.5 GB/s over 96 SSDs (a fixed base time added to the queue's)",
            kind="calibration",
            symbol="storrepro.periodicity.ssd_latency:BASE_S",
            decides=("F4",),
        ),
        "per-SSD traffic": Forced(
            question="What mean traffic does one surrogate SSD carry before any scaling?",
            quote='"The dataset contains more than 40000 different segments and is stored in 96 '
            'separate SSDs. Overall, the average value of the total read-write traffic is '
            '2.5GB/s" (§5.2.1)',
            value="2.5 GB/s / 96 = 26 MB/s",
            kind="calibration",
            symbol="storrepro.periodicity.workload:SSD_MEAN_BYTES_PER_S",
            decides=("F0", "F1", "F2", "F3", "F4", "F5", "F6", "F7"),
        ),
        "segment size": Forced(
            question="How many bytes does one segment move cost (decimal or binary GB)?",
            quote='"we move 32GB of data for each schedule … generating an additional 1% '
            'scheduling overhead means scheduling 17 segments every 6 hours" (§5.2.2): 17 '
            "holds in decimal units only (A5)",
            value="32e9 bytes",
            kind="resolution",
            symbol="storrepro.periodicity.scheduling:SEGMENT_BYTES",
            decides=("A5", "F1", "F2", "F3", "F4", "F5", "F6", "F7"),
        ),
        "minimum verification horizon": Forced(
            question="On how few samples may a verification PCC rest?",
            quote='"If the result of PCC is higher than the predefined threshold, it indicates '
            'that the prediction result has a strong correlation with the actual time series" '
            "(§3.5): not settled by the words. 11 = the fewest samples on which two independent "
            "series reach PCC 0.7 with probability below α = 1 %, α being this reproduction's "
            "choice (α = 5 % gives 7); not yet run as a reading (issue 31)",
            value="11 samples",
            kind="resolution",
            symbol="storrepro.periodicity.precise_period:MIN_HORIZON",
            decides=("B1", "B1b", "B2", "B2b", "B3", "B3b", "C1", "C2", "D1"),
        ),
        "outlier split of C4": Forced(
            question="Where does C4 split series with few from series with many outliers?",
            quote='"Time series usually contain outliers … and significantly impair the results '
            'of periodicity detection" (§1) gives no split; r ~ U(0, 0.05) in our generator, so '
            "its middle, 0.025, halves the set",
            value=f"r > {claims.C4_SPLIT:g}",
            kind="resolution",
            symbol=f"{_CLAIMS}:C4_SPLIT",
            decides=("C4",),
        ),
        "F2 early moves": Forced(
            question='What is "a few scheduling times" in F2?',
            quote='"PreciseScheduling algorithm performed well in the situation of a few '
            'scheduling times for 99.9% tail flow" (§5.2.2): no number; the first quarter of '
            "the move range (1–4 of 1–16 moves)",
            value=f"the first {claims.F2_EARLY:.0%} of the move range",
            kind="resolution",
            symbol=f"{_CLAIMS}:F2_EARLY",
            decides=("F2",),
        ),
    })
    return forced
