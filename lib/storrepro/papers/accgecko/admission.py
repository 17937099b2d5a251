"""Admission control (§3.4): admit a tenant iff its fixed rate fits on every node.

Fixed-rate queues isolate tenants, so admitting one never changes the others' predictions and no
re-check is needed: a tenant is admitted when, on every node that holds its data, the rates
already allocated there plus its own stay within the node's capacity ``C_n`` (IOPS). A tenant
whose SLO no rate can meet (rate ``inf``) is rejected.
"""

from __future__ import annotations

import numpy as np


def admit(rates, capacity) -> np.ndarray:
    """Admit tenants in the given order; returns a boolean mask.

    ``rates``: shape ``(tenants,)`` for one node or ``(tenants, nodes)`` (0 where a tenant has no
    data on a node); ``capacity``: a number or one per node.
    """
    rates = np.asarray(rates, dtype=float)
    if rates.ndim == 1:
        rates = rates[:, None]
    if rates.ndim != 2:
        raise ValueError(f"rates: expected shape (tenants,) or (tenants, nodes), got {rates.shape}")
    if np.any(np.isnan(rates)) or np.any(rates < 0):
        raise ValueError("rates: allocated rates must be >= 0 IOPS (inf for an impossible SLO)")
    capacity = np.broadcast_to(np.asarray(capacity, dtype=float), (rates.shape[1],))
    if np.any(~(capacity > 0)):
        raise ValueError(f"capacity = {capacity.tolist()!r}: expected > 0 IOPS per node")
    admitted = np.zeros(rates.shape[0], dtype=bool)
    if rates.shape[1] == 1:  # one node: plain floats (the admission runs make many calls)
        used, limit = 0.0, float(capacity[0])
        for i, need in enumerate(rates[:, 0].tolist()):
            if used + need <= limit:
                used += need
                admitted[i] = True
        return admitted
    used = np.zeros(rates.shape[1])
    for i, need in enumerate(rates):
        if np.all(used + need <= capacity):
            used += need
            admitted[i] = True
    return admitted
