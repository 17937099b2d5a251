"""simpy device models shared by the papers, with the monitors they record into.

- :mod:`~storrepro.sim.fifo`: a FIFO server with a fixed or sampled service time, and its
  vectorized twin (AccGecko's fixed-rate queues, PrecisePeriod's SSD queues);
- :mod:`~storrepro.sim.hdd` and :mod:`~storrepro.sim.ssd`: the BID disk models, pulling from a
  pluggable block-layer scheduler (:mod:`~storrepro.sim.block_device`);
- :mod:`~storrepro.sim.cloud_store`: L threads serving (n, k)-coded requests (TOFEC);
- :mod:`~storrepro.sim.core_pool`: cores split between foreground and background work (VDI);
- :mod:`~storrepro.sim.theory`: the closed forms notebook 00 checks them against.
"""

from storrepro.sim.block_device import DiskRequest, FIFOScheduler, IOScheduler, PullDevice
from storrepro.sim.cloud_store import (
    CloudStore,
    ShiftedExponential,
    StoreState,
    fixed_code,
    poisson_arrival_times,
)
from storrepro.sim.core_pool import CorePool, CorePoolConfig, PoolState, demand_cores
from storrepro.sim.fifo import FifoServer, fifo_departures, poisson_arrivals, simulate_fifo
from storrepro.sim.hdd import HDD, HDDGeometry, hdd_service_time, seek_metrics
from storrepro.sim.monitor import PERCENTILES, EventLog, LatencyMonitor, tail_summary
from storrepro.sim.ssd import SSD, SSDParams, ssd_service_time

__all__ = [
    "HDD",
    "PERCENTILES",
    "SSD",
    "CloudStore",
    "CorePool",
    "CorePoolConfig",
    "DiskRequest",
    "EventLog",
    "FIFOScheduler",
    "FifoServer",
    "HDDGeometry",
    "IOScheduler",
    "LatencyMonitor",
    "PoolState",
    "PullDevice",
    "SSDParams",
    "ShiftedExponential",
    "StoreState",
    "demand_cores",
    "fifo_departures",
    "fixed_code",
    "hdd_service_time",
    "poisson_arrival_times",
    "poisson_arrivals",
    "seek_metrics",
    "simulate_fifo",
    "ssd_service_time",
    "tail_summary",
]
