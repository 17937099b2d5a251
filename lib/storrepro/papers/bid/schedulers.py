"""Scheduler names used by the experiment and the notebook, and a factory for them."""

from __future__ import annotations

from storrepro.papers.bid.bid_hdd import BIDHDD
from storrepro.papers.bid.cfq import CFQ
from storrepro.papers.bid.deadline import Deadline
from storrepro.papers.bid.hybrid import BIDHybrid
from storrepro.papers.bid.noop import Noop

#: name -> (class, fixed options); the five schemes of the Fig. 12 analogue come first.
MAIN = ("cfq-q8", "cfq-q2", "noop", "bid-hdd", "bid-hybrid")
#: The Linux schedulers BID is measured against (they take the disk's command queue depth).
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


def make_scheduler(name: str, **options):
    """A fresh scheduler by name; ``options`` override or extend its fixed options."""
    if name not in SCHEDULERS:
        raise ValueError(f"unknown scheduler {name!r}; expected one of {', '.join(SCHEDULERS)}")
    cls, fixed = SCHEDULERS[name]
    return cls(**{**fixed, **options})
