"""Notebook 04 parameters, and the readings of the paper's open choices that move a verdict.

Each reading maps its values to the BID scheduler options that implement them
(:data:`READING_OPTIONS`); only BID-HDD and BID-Hybrid take them, so the Noop and CFQ runs are
shared by every reading.
"""

from __future__ import annotations

from typing import ClassVar

from storrepro.bid.results import MODES
from storrepro.config import (
    NotebookConfig,
    Param,
    ParameterError,
    Reading,
    reading_label,
    trace_params,
)

#: The driver queue depth of the primary dispatch-queue reading: a SATA drive's native command
#: queue holds 32 commands (the testbed disk is a 250 GB SATA HDD).
DQ_DEPTH = 32

#: The sensitivity row with a modern disk model: not one of this reproduction's own parameter
#: choices, so E does not count it (the notebook reports it beside E).
MODERN_CONFIG = "modern disk"

#: reading -> value -> the BID scheduler options that implement it.
READING_OPTIONS: dict[str, dict[str, dict]] = {
    "wait_history": {
        "every_gap": {"wait_history": "every_gap"},
        "open_queue": {"wait_history": "open_queue"},
        "reset": {"wait_history": "reset"},
    },
    "dispatch_queue": {
        f"clook{DQ_DEPTH}": {"dq_depth": DQ_DEPTH},
        "fifo1": {"dq_depth": 1},
    },
}

READINGS = {
    "wait_history": Reading(
        question="Which inter-batch gaps of a process enter the history whose weighted mean is "
        "its wait timer, and does the history outlive a staging queue?",
        paper_words="BID remembers k most recent time difference values and uses their weighted "
        "mean as the wait timer value ... Whenever SQ_p is created, i.e. when the historic k "
        "time difference values are not available, the value of wait timers is set to a "
        "default value.",
        primary="every_gap",
        alternatives={
            "every_gap": "every batch's gap (its first arrival minus the process's previous "
            "arrival) enters the history, also the first batch after a flush; the history is "
            "kept per process for the whole run",
            "open_queue": "a gap is recorded only while the process's staging queue is still "
            "open: a gap longer than the wait fires the timer first and is never recorded, so "
            "the wait can only fall",
            "reset": "as open_queue, and the history is deleted with its staging queue, so every "
            "new queue starts from the 1000 ms default",
        },
        argument="The paper's timer profiles the 'inter-arrival time of batches of requests "
        "from a process'; every batch has such a gap, whether or not its previous queue has "
        "been flushed. The authors' released simulator records the gap of every staged process "
        "that submits in the next window, whatever its length, before it decides whether to "
        "absorb that window, and keeps the history per process for the whole run; recording "
        "only gaps shorter than the current wait is neither in the text nor in the code. The "
        "paper's sentence about creation is read as the first queue of a process (no history "
        "yet); 'reset' takes it literally.",
    ),
    "dispatch_queue": Reading(
        question="How deep is the dispatch queue the flushed staging queues enter, and in which "
        "order does the disk take requests from it?",
        paper_words="dispatch queue DQ ... sorted according to LBAs ... the size of the "
        "dispatch queue is determined by the block device / driver",
        primary=f"clook{DQ_DEPTH}",
        alternatives={
            f"clook{DQ_DEPTH}": f"a {DQ_DEPTH}-deep dispatch queue kept in LBA order and served "
            "C-LOOK (the lowest LBA at or after the head, else the lowest)",
            "fifo1": "a dispatch queue of depth 1: flushed queues reach the disk whole, in "
            "marking order, each in ascending LBA",
        },
        argument="A queue 'sorted according to LBAs' only means something if it can hold more "
        "than one request, and its size is the driver's: the testbed's SATA disk queues 32 "
        "commands (native command queueing), the depth a SATA driver exposes. Depth 1 is the "
        "earlier choice here; the CFQ model already sorts each of its rounds by LBA.",
    ),
}


def reading_options(label: str | None = None) -> dict:
    """The BID scheduler options of the primary readings, with one reading changed by
    ``label`` (``"name=value"``; ``None``: all primary)."""
    options = {}
    for name, reading in READINGS.items():
        options.update(READING_OPTIONS[name][reading.primary])
    if label is not None:
        name, value = label.split("=")
        options.update(READING_OPTIONS[name][value])
    return options


#: The variants the BID schedulers run under: the primary and each alternative reading.
VARIANTS = ("primary", *(reading_label(n, v) for n, r in READINGS.items() for v in r.others()))


class BIDConfig(NotebookConfig):
    notebook = "04_bid"
    paper = (
        "P. Mishra and A. K. Somani, Host managed contention avoidance storage solutions for "
        "Big Data, Journal of Big Data 4:18 (2017), doi:10.1186/s40537-017-0080-9"
    )
    full_cost = (139.0, 1144.0, 2004.0)  # full s, quick and full peak MiB
    params = {
        "events": Param(
            int,
            2_000,
            200_000,
            "trace events per run (synthetic trace; 200,000: the paper's scale)",
            low=500,
            grows="memory",
        ),
        "seeds": Param(int, 2, 5, "independent traces per workload", low=1, high=50, grows="time"),
        "sensitivity_events": Param(
            int,
            800,
            200_000,
            "trace events per run of the sensitivity sweep (one seed)",
            low=500,
            grows="memory",
        ),
        "rq_limit": Param(
            int, 128, 128, "block-layer request slots (nr_requests window)", low=1, high=4096
        ),
        "mode": Param(
            str,
            "backlogged",
            "backlogged",
            "replay mode: 'backlogged' (trace clock, primary) or 'open' (trace times)",
            choices=MODES,
        ),
        **trace_params("the synthetic Hadoop request streams"),
    }
    readings: ClassVar[dict[str, Reading]] = READINGS

    def validate(self) -> None:
        if self.events < self.rq_limit:
            raise ParameterError(
                f"parameter 'events' = {self.events}: must be at least rq_limit = {self.rq_limit}"
            )
