"""Bench cases: the disk in simpy and in the fast kernel."""

from __future__ import annotations

from storrepro.papers.paper_template.workload import requests
from storrepro.suite.bench_cases import Simulator


def _simpy(n, rng):
    from storrepro.papers.paper_template import reference

    reference.response_times(*requests(rng, n, 0.5))


def _fast(n, rng):
    from storrepro.papers.paper_template import kernel

    kernel.response_times(*requests(rng, n, 0.5))


SIMULATORS = [
    Simulator("one disk (load 0.5)", "simpy", _simpy, 20_000, False),
    Simulator("one disk (load 0.5)", "fast", _fast, 2_000_000, False),
]
