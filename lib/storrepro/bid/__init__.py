"""BID-HDD and BID-Hybrid (Mishra & Somani, J. Big Data 4:18, 2017) and their baselines.

Schedulers are plain objects over :class:`~storrepro.bid.request.BlockRequest` with the block
device protocol ``add(request, now)`` / ``next(now)`` / ``next_wakeup(now)`` (time in ms):
:class:`Noop`, :class:`Deadline`, :class:`CFQ`, :class:`BIDHDD` and :class:`BIDHybrid` (whose
``ssd`` attribute is the SSD's block layer). :mod:`~storrepro.bid.workload` makes the synthetic
MapReduce traces; :mod:`~storrepro.bid.experiment` wires trace → scheduler → HDD/SSD (the simpy
reference model on the shared ``sim`` devices, and :mod:`~storrepro.bid.kernel`, its numba twin);
:mod:`~storrepro.bid.mode_a` is the authors' window simulator; :mod:`~storrepro.bid.metrics` turns
a run into the paper's quantities and :mod:`~storrepro.bid.verdicts` judges the claims with the
spec's pre-declared bands.
"""

from storrepro.bid.bid_hdd import BIDHDD, weighted_wait
from storrepro.bid.cfq import CFQ
from storrepro.bid.deadline import Deadline
from storrepro.bid.hybrid import BIDHybrid, VfsSsdTable, packing_fraction
from storrepro.bid.noop import Noop
from storrepro.bid.request import BlockRequest
from storrepro.bid.schedulers import SCHEDULERS, make_scheduler

__all__ = [
    "BIDHDD",
    "CFQ",
    "SCHEDULERS",
    "BIDHybrid",
    "BlockRequest",
    "Deadline",
    "Noop",
    "VfsSsdTable",
    "make_scheduler",
    "packing_fraction",
    "weighted_wait",
]
