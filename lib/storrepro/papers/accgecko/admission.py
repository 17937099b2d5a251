"""Admission control (§3.4): admit a tenant iff its fixed rate fits on every node.

Fixed-rate queues isolate tenants, so admitting one never changes the others' predictions and no
re-check is needed: a tenant is admitted when, on every node that holds its data, the rates
already allocated there plus its own stay within the node's capacity ``C_n`` (IOPS). A tenant
whose SLO no rate can meet (rate ``inf``) is rejected.
"""

from __future__ import annotations

import numba
import numpy as np


def admit(rates, capacity) -> np.ndarray:
    """Admit tenants in the given order; returns a boolean mask.

    ``rates``: shape ``(tenants,)`` for one node or ``(tenants, nodes)`` (0 where a tenant has no
    data on a node); ``capacity``: a number or one per node.
    """
    rates = np.asarray(rates, dtype=float)
    if rates.ndim == 1 and np.ndim(capacity) == 0:  # one node: compiled, checked as it goes
        admitted, valid = _admit_one_node(np.ascontiguousarray(rates), float(capacity))
        if valid and capacity > 0:  # (the admission runs make many calls)
            return admitted
    if rates.ndim == 1:
        rates = rates[:, None]
    if rates.ndim != 2:
        raise ValueError(f"rates: expected shape (tenants,) or (tenants, nodes), got {rates.shape}")
    if not np.all(rates >= 0):  # NaN fails it too
        raise ValueError("rates: allocated rates must be >= 0 IOPS (inf for an impossible SLO)")
    capacity = np.broadcast_to(np.asarray(capacity, dtype=float), (rates.shape[1],))
    if np.any(~(capacity > 0)):
        raise ValueError(f"capacity = {capacity.tolist()!r}: expected > 0 IOPS per node")
    if rates.shape[1] == 1:
        return _admit_one_node(np.ascontiguousarray(rates[:, 0]), float(capacity[0]))[0]
    return admit_on_nodes(rates, capacity)


def admit_on_nodes(rates: np.ndarray, capacity: np.ndarray) -> np.ndarray:
    """:func:`admit` on checked ``rates`` ``(tenants, nodes)`` and ``capacity`` ``(nodes,)``:
    the plain loop, and the reference of the one-node kernel."""
    admitted = np.zeros(rates.shape[0], dtype=bool)
    used = np.zeros(rates.shape[1])
    for i, need in enumerate(rates):
        if np.all(used + need <= capacity):
            used += need
            admitted[i] = True
    return admitted


@numba.njit(cache=True)
def _admit_one_node(rates, limit):
    """:func:`admit_on_nodes` on one node, the same sums in the same order; and whether every
    rate is >= 0 (not NaN)."""
    admitted = np.zeros(rates.size, np.bool_)
    used, valid = 0.0, True
    for i in range(rates.size):
        valid &= rates[i] >= 0
        if used + rates[i] <= limit:
            used += rates[i]
            admitted[i] = True
    return admitted, valid
