"""A damaged numba cache file is compiled again, not a crash.

numba keeps each ``cache=True`` kernel's compiled code in ``__pycache__`` (an index and data
files); it handles a missing or stale file, but a truncated or garbled one (a disk that filled
up, a copy cut short, two checkouts sharing a cache) raises from ``pickle`` in every notebook
that imports the kernel. Here such a file counts as absent: the kernel is compiled again and its
cache written anew. Imported by :mod:`storrepro.papers`, the package of every numba kernel.
"""

from __future__ import annotations

import functools

from numba.core import caching

_CACHE = caching.IndexDataCacheFile


def _load_index_or_nothing(load_index):
    @functools.wraps(load_index)
    def tolerant(self):
        try:
            return load_index(self)
        except Exception:  # noqa: BLE001 - a damaged index is an empty one
            return {}

    return tolerant


def _load_or_nothing(load):
    @functools.wraps(load)
    def tolerant(self, key):
        try:
            return load(self, key)
        except Exception:  # noqa: BLE001 - a damaged data file is a missing one
            return None

    return tolerant


if not getattr(_CACHE, "_storrepro_tolerant", False):
    _CACHE._load_index = _load_index_or_nothing(_CACHE._load_index)
    _CACHE.load = _load_or_nothing(_CACHE.load)
    _CACHE._storrepro_tolerant = True
