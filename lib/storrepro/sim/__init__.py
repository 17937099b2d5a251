"""simpy device models shared by the papers, with the monitors they record into.

- :mod:`~storrepro.sim.fifo`: a FIFO server with a fixed or sampled service time, and its
  vectorized twin (AccGecko's fixed-rate queues, PrecisePeriod's SSD queues);
- :mod:`~storrepro.sim.hdd` and :mod:`~storrepro.sim.ssd`: the BID disk models, pulling from a
  pluggable block-layer scheduler (:mod:`~storrepro.sim.block_device`); their service times and
  parameters, without simpy, in :mod:`~storrepro.sim.disk_model`;
- :mod:`~storrepro.sim.cloud_store`: L threads serving (n, k)-coded requests (TOFEC);
- :mod:`~storrepro.sim.core_pool`: cores split between foreground and background work (VDI), with
  :mod:`~storrepro.sim.core_state`, what its allocators see, without simpy;
- :mod:`~storrepro.sim.theory`: the closed forms notebook 00 checks them against.

Import from the modules themselves: this package imports none of them, so a module that needs
only a simpy-free one (``core_state``, ``disk_model``, ``theory``) does not load simpy.
"""
