"""Scheduler names used by the experiment and the notebook, and a factory for them that applies
the readings in force (:mod:`storrepro.papers.bid.config`)."""

from __future__ import annotations

from storrepro.papers.bid.bid_hdd import BIDHDD
from storrepro.papers.bid.cfq import CFQ
from storrepro.papers.bid.config import reading_options
from storrepro.papers.bid.deadline import Deadline
from storrepro.papers.bid.hybrid import BIDHybrid
from storrepro.papers.bid.noop import Noop

#: name -> (class, fixed options); the five schemes of the Fig. 12 analogue come first.
MAIN = ("cfq-q8", "cfq-q2", "noop", "bid-hdd", "bid-hybrid")
#: The Linux schedulers BID is measured against (the reading device_queue may put a queue in
#: front of them).
BASELINES = ("cfq-q8", "cfq-q2", "noop")
SCHEDULERS = {
    "cfq-q8": (CFQ, {"quantum": 8}),
    "cfq-q2": (CFQ, {"quantum": 2}),
    "noop": (Noop, {}),
    "bid-hdd": (BIDHDD, {}),
    "bid-hybrid": (BIDHybrid, {}),
    # the paper's literal words: the wait history is deleted with its staging queue
    "bid-hdd-reset": (BIDHDD, {"wait_history": "reset"}),
    "deadline": (Deadline, {}),
}


def is_bid(scheduler: str) -> bool:
    return scheduler.startswith("bid")


def variant_options(name: str, variant: str = "primary") -> dict:
    """The options the readings of ``variant`` (``"primary"`` or ``"name=value"``) give
    scheduler ``name``: BID's, or the queue in front of Noop and CFQ; none for another."""
    label = None if variant == "primary" else variant
    if is_bid(name):
        return reading_options(label)
    return reading_options(label, bid=False) if name in BASELINES else {}


def make_scheduler(name: str, variant: str = "primary", **options):
    """A fresh scheduler by name under the readings of ``variant``; its fixed options, then
    ``options``, override them."""
    if name not in SCHEDULERS:
        raise ValueError(f"unknown scheduler {name!r}; expected one of {', '.join(SCHEDULERS)}")
    cls, fixed = SCHEDULERS[name]
    return cls(**{**variant_options(name, variant), **fixed, **options})
