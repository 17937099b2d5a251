import fcntl
import json
import os
import socket

import pytest

from helpers import CRAN_MISSING, ON_PUBLIC_TRACE
from storrepro.__main__ import main
from storrepro.suite.data.cloudphysics import TraceUnavailable, cloudphysics_trace
from storrepro.suite.notebooks import NOTEBOOKS, config_class
from trace_samples import trace_arguments


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def free_port():
    """Call it for a port on 127.0.0.1 that was free a moment ago (for servers a test starts)."""
    return _free_port


@pytest.fixture(scope="session")
def public_trace():
    """The public CloudPhysics trace (fetched on first use), or why it is not available."""
    try:
        return cloudphysics_trace()
    except TraceUnavailable as error:
        return error


def pytest_collection_modifyitems(items):
    """The tests that execute notebooks first: the quick run they share is the longest single
    piece of work, so it starts while the other tests fill the other core."""
    items.sort(key=lambda item: item.get_closest_marker("notebook") is None)


@pytest.fixture(scope="session")
def quick_runs(tmp_path_factory, public_trace):
    """Every notebook executed once in the quick profile, in one run as `make reproduce
    PROFILE=quick` does it (two notebooks side by side), shared by the tests of
    test_notebooks.py and test_public_trace.py: made once per test session, by whichever xdist
    worker asks first, while the others wait on its lock and read its outputs. A notebook that
    takes a trace runs on one: the public trace for :data:`helpers.ON_PUBLIC_TRACE` when it is
    available, else its package's small sample trace in a public format (the synthetic stand-ins
    run in every `make reproduce`). A notebook that fails leaves the run's outputs in its
    staging folder, where each test still finds its own notebook's."""
    shared = tmp_path_factory.getbasetemp()  # this session's; a worker's is in the session's
    shared = shared.parent if os.environ.get("PYTEST_XDIST_WORKER") else shared
    out, done = shared / "quick_runs", shared / "quick_runs.exit"
    with open(shared / "quick_runs.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker runs; the others wait, then read
        if not done.exists():
            done.write_text(str(_quick_run(out, tmp_path_factory, public_trace)))
    folder = out if done.read_text() == "0" else out / "staging"

    def get(name):
        path = folder / "results" / f"{name}.json"
        assert path.exists(), f"{name} wrote no result in the quick run (exit {done.read_text()})"
        return folder, json.loads(path.read_text())

    return get


def _quick_run(out, tmp_path_factory, public_trace) -> int:
    names = [n for n in NOTEBOOKS if not (config_class(n).needs_cran and CRAN_MISSING)]
    public = [n for n in ON_PUBLIC_TRACE if n in names and not isinstance(public_trace,
                                                                          Exception)]
    traces = trace_arguments(tmp_path_factory.mktemp("traces"),
                             [n for n in names if n not in public])
    traces += [a for n in public for a in ("-p", f"{n}:trace={public_trace}")]
    return main(["reproduce", "--profile", "quick", "--only", *names, "--out", str(out), *traces])
