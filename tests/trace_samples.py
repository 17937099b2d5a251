"""The small trace every notebook that takes a ``trace`` runs on in the tests: its package's
``TRACE_SAMPLE`` (:class:`storrepro.suite.traces.samples.TraceSample`), written here, seeded."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

import numpy as np

from storrepro.suite.notebooks import config_class
from storrepro.suite.traces.samples import TraceSample


def trace_sample(name: str) -> TraceSample | None:
    """The ``TRACE_SAMPLE`` of notebook ``name``'s ``trace_module``, or None (no trace)."""
    module = config_class(name).trace_module
    return getattr(import_module(module), "TRACE_SAMPLE", None) if module else None


def trace_arguments(folder: Path, notebooks, seed: int = 0) -> list[str]:
    """``-p NOTEBOOK:trace=PATH`` (and its other parameters) for every notebook in
    ``notebooks`` that declares a trace sample, each trace written into ``folder``."""
    args = []
    for name in notebooks:
        sample = trace_sample(name)
        if sample:
            path = sample.write(folder / f"{name}.trace", np.random.default_rng(seed))
            for pair in [f"trace={path}", *sample.params]:
                args += ["-p", f"{name}:{pair}"]
    return args
