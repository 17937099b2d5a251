"""BID-HDD and BID-Hybrid (Mishra & Somani, J. Big Data 4:18, 2017) and their baselines.

Schedulers are plain objects over :class:`~storrepro.bid.request.BlockRequest` with the block
device protocol ``add(request, now)`` / ``next(now)`` / ``next_wakeup(now)`` (time in ms):
:class:`Noop`, :class:`Deadline`, :class:`CFQ`, :class:`BIDHDD` and :class:`BIDHybrid` (whose
``ssd`` attribute is the SSD's block layer), each with its numba twin beside it
(``*_kernel.py``). :mod:`~storrepro.bid.config` holds the parameters and readings;
:mod:`~storrepro.bid.workload` makes the synthetic MapReduce traces (or reads a blkparse trace);
:mod:`~storrepro.bid.reference` wires trace → scheduler → HDD/SSD in simpy and
:mod:`~storrepro.bid.kernel` is its fast twin; :mod:`~storrepro.bid.mode_a` is the authors' window
simulator, :mod:`~storrepro.bid.oracle` the bound of any dispatch order and
:mod:`~storrepro.bid.metrics` turns a run into the paper's quantities;
:mod:`~storrepro.bid.experiment` runs the sweeps, :mod:`~storrepro.bid.claims` judges the claims
on the seeds against bands from the paper's words and the reproduction's acceptance checks, and
:mod:`~storrepro.bid.plots` draws the figures.
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
