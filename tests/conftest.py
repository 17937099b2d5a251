import fcntl
import json
import os
import socket

import pytest

from helpers import ON_PUBLIC_TRACE
from storrepro.__main__ import main
from storrepro.suite.data.cloudphysics import TraceUnavailable, cloudphysics_trace
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


@pytest.fixture(scope="session")
def shared_tmp(tmp_path_factory):
    """This session's temporary folder, the same in every xdist worker (a worker's own is in
    it): for work done once in the session, by the worker that asks first, under a lock."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def once(shared_tmp):
    """``once(name, make)``: the text of ``make()``'s result, made once in the test session, by
    the xdist worker that asks first, while a worker asking for the same ``name`` waits on its
    lock, then reads it."""
    def get(name: str, make) -> str:
        done = shared_tmp / f"{name}.done"
        with open(shared_tmp / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one worker makes it; the others wait, then read
            if not done.exists():
                done.write_text(str(make()))
        return done.read_text()

    return get


@pytest.fixture(scope="session")
def quick_runs(tmp_path_factory, public_trace, shared_tmp, once):
    """Each notebook executed once in the quick profile, shared by the tests of
    test_notebooks.py and test_public_trace.py: a notebook runs when a test first asks for it,
    in the xdist worker that asks first, while a worker asking for the same notebook waits on
    its lock and then reads its outputs. Each notebook is a run of its own, sweeping in its
    kernel's process (``--workers 1``, as each of the two notebooks `make reproduce
    PROFILE=quick` runs side by side does), so that the workers run different notebooks at once
    and a worker whose notebook is done goes on with other tests. A notebook that takes a trace
    runs on one: the public trace for :data:`helpers.ON_PUBLIC_TRACE` when it is available, else
    its package's small sample trace in a public format (the synthetic stand-ins run in every
    `make reproduce`). A notebook that fails leaves its run's outputs in its staging folder,
    where its tests still find them."""
    def get(name):
        out = shared_tmp / "quick_runs" / name
        code = once(f"quick_runs.{name}",
                    lambda: _quick_run(name, out, tmp_path_factory, public_trace))
        folder = out if code == "0" else out / "staging"
        path = folder / "results" / f"{name}.json"
        assert path.exists(), f"{name} wrote no result in its quick run (exit {code})"
        return folder, json.loads(path.read_text())

    return get


def _quick_run(name, out, tmp_path_factory, public_trace) -> int:
    if name in ON_PUBLIC_TRACE and not isinstance(public_trace, Exception):
        trace = ["-p", f"{name}:trace={public_trace}"]
    else:
        trace = trace_arguments(tmp_path_factory.mktemp("traces"), [name])
    return main(["reproduce", "--profile", "quick", "--only", name, "--workers", "1", "--out",
                 str(out), *trace])


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's: none without it (-p no:xdist)
def pytest_xdist_make_scheduler(config, log):
    """Under `-n` (its default `--dist load`), each paper's own tests (tests/papers/<paper>/)
    go to one xdist worker as one unit, and every other test alone, as `load` sends them: a
    paper's numba kernels then compile once, in that worker, not in both at the same moment as
    when a file's tests were dealt out in turn (a clean clone has no kernel cache, and compiling
    a paper's kernels takes up to a minute). xdist's own `--dist loadgroup` would do this with
    marks, but pytest 9 no longer reads the node id it rewrites."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class PaperScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            parts = nodeid.split("/", 3)
            return "/".join(parts[:3]) if parts[:2] == ["tests", "papers"] and len(parts) > 3 \
                else nodeid

    return PaperScheduling(config, log)
