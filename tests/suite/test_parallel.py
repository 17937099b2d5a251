import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from storrepro.papers.validation.experiment import run_queue
from storrepro.papers.validation.workload import QueueTask
from storrepro.suite import parallel
from storrepro.suite.parallel import WORKERS_ENV, close_clients, resolve_mode, sweep, task_rng


@dataclass(frozen=True)
class Task:
    name: str
    size: int


def draw(task: Task, rng: np.random.Generator) -> np.ndarray:
    return rng.normal(size=task.size)


TASKS = [Task("a", 3), Task("b", 3), Task("c", 5)]


def test_task_streams_depend_on_seed_and_task_only():
    a = task_rng(1, TASKS[0]).random(4)
    assert np.array_equal(a, task_rng(1, Task("a", 3)).random(4))
    assert not np.array_equal(a, task_rng(2, TASKS[0]).random(4))
    assert not np.array_equal(a, task_rng(1, TASKS[1]).random(4))


def test_serial_and_local_cluster_give_identical_numbers(monkeypatch):
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    serial = sweep(draw, TASKS, seed=11, workers=1, progress=False)
    reordered = sweep(draw, TASKS[::-1], seed=11, workers=1, progress=False)[::-1]
    cluster = sweep(draw, TASKS, seed=11, workers=2, progress=False)
    for s, r, c in zip(serial, reordered, cluster, strict=True):
        assert np.array_equal(s, r) and np.array_equal(s, c)
    assert [len(x) for x in cluster] == [3, 3, 5]


def test_an_existing_scheduler_gives_the_same_numbers(monkeypatch):
    from dask.distributed import LocalCluster

    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    serial = sweep(draw, TASKS, seed=11, workers=1, progress=False)
    with LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster:
        remote = sweep(draw, TASKS, seed=11, scheduler=cluster.scheduler_address, progress=False)
        close_clients()
    for s, r in zip(serial, remote, strict=True):
        assert np.array_equal(s, r)


def test_duplicate_tasks_are_rejected():
    with pytest.raises(ValueError, match="distinct"):
        sweep(draw, [TASKS[0], TASKS[0]], seed=0, workers=1)


def test_mode_resolution(monkeypatch):
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    assert resolve_mode(1) == ("serial", 1)
    assert resolve_mode(3) == ("local", 3)
    assert resolve_mode(scheduler="tcp://h:8786") == ("address", "tcp://h:8786")
    monkeypatch.setenv(WORKERS_ENV, "1")
    assert resolve_mode() == ("serial", 1)
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://x:1")
    assert resolve_mode() == ("address", "tcp://x:1")


@pytest.mark.parametrize("text", ["0", "two", "-1"])
def test_bad_worker_settings_are_clear_errors(monkeypatch, text):
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    monkeypatch.setenv(WORKERS_ENV, text)
    with pytest.raises(ValueError, match=f"STORREPRO_WORKERS={text!r}: expected a whole number"):
        resolve_mode()
    with pytest.raises(ValueError, match="workers=0"):
        resolve_mode(0)


def test_a_separate_dask_scheduler_and_worker_give_the_same_numbers(monkeypatch, free_port):
    """`--scheduler ADDRESS`: a `dask scheduler` and a `dask worker` as their own processes."""
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    tasks = [QueueTask("M/M/1", 0.5, 2_000, r) for r in range(3)]
    serial = sweep(run_queue, tasks, seed=3, workers=1, progress=False)
    dask = Path(sys.executable).with_name("dask")
    address = f"tcp://127.0.0.1:{free_port()}"
    port = address.rsplit(":", 1)[1]
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [dask, "worker", address, "--nthreads", "1", "--no-dashboard"], stderr=subprocess.DEVNULL
    )
    try:
        remote = sweep(run_queue, tasks, seed=3, scheduler=address, progress=False)
        close_clients()
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(timeout=30)
    for s, r in zip(serial, remote, strict=True):
        assert np.array_equal(s, r)


def _refault_pages(task, rng):
    """Page faults of filling a freed 1 MiB array again eight times, and the thread setting."""
    import os
    import resource

    np.ones(2**17).sum()  # 1 MiB (256 pages of 4 KiB), touched and freed
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(8):
        np.ones(2**17).sum()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before, os.environ.get(
        "OMP_NUM_THREADS"
    )


@pytest.mark.parametrize("workers", [1, 2])
def test_tasks_reuse_freed_memory_and_local_workers_use_one_thread(monkeypatch, workers):
    # a fresh mapping faults on each of its pages: 8 x 256 faults under dask's 64 KiB trim;
    # reused memory only faults where the rest of the worker grows the heap
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    results = sweep(_refault_pages, [1, 2], seed=0, workers=workers, progress=False)
    assert all(faults < 1024 for faults, _ in results), results
    if workers == 2:
        assert [threads for _, threads in results] == ["1", "1"]


def test_a_scheduler_without_workers_ends_the_sweep_with_a_clear_error(monkeypatch, free_port):
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    monkeypatch.setattr(parallel, "WORKER_TIMEOUT_S", 1.0)
    dask = Path(sys.executable).with_name("dask")
    address = f"tcp://127.0.0.1:{free_port()}"
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
         "--no-dashboard"],
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(3)  # the scheduler's start-up
        with pytest.raises(TimeoutError, match=f"the dask scheduler at {address} has no workers"):
            sweep(draw, TASKS, seed=1, scheduler=address, progress=False)
    finally:
        close_clients()
        scheduler.terminate()
        scheduler.wait(timeout=30)


def test_the_local_dashboard_listens_on_this_machine_only():
    cluster = parallel.local_cluster(1)
    try:
        assert "127.0.0.1" in cluster.dashboard_link
    finally:
        cluster.close()


@pytest.fixture
def bare_scheduler():
    """A dask scheduler on TCP with no worker, and its dashboard."""
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=0, processes=False, protocol="tcp://",
                           dashboard_address="127.0.0.1:0")  # fmt: skip
    yield cluster
    cluster.close()


def test_a_port_that_does_not_speak_dask_fails_in_seconds_naming_it(bare_scheduler, monkeypatch):
    from storrepro.suite.config import ParameterError
    from storrepro.suite.runner import check_scheduler

    dashboard = "tcp://127.0.0.1:" + bare_scheduler.dashboard_link.split(":")[2].split("/")[0]
    started = time.monotonic()
    with pytest.raises(ParameterError, match=f"'{dashboard}': no dask scheduler answers at "
                       f"127.0.0.1:.* within 2 s .no dask handshake"):  # fmt: skip
        check_scheduler(dashboard, timeout_s=2)
    assert time.monotonic() - started < 4
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT_S", 1.0)
    with pytest.raises(OSError, match=f"no dask scheduler answers at {dashboard}"):
        parallel._client("address", dashboard)  # a notebook run by hand does not hang either


def test_the_runner_waits_for_workers_once_for_the_whole_run(bare_scheduler, monkeypatch,
                                                             capsys):  # fmt: skip
    from storrepro.suite.config import ParameterError
    from storrepro.suite.runner import check_scheduler

    monkeypatch.setattr(parallel, "WORKER_TIMEOUT_S", 1.0)
    address = bare_scheduler.scheduler_address
    with pytest.raises(ParameterError, match=f"dask's .* '{address}': the dask scheduler has "
                       "no workers after 1 s"):  # fmt: skip
        check_scheduler(address, source="dask's scheduler-address")
    assert capsys.readouterr().out.count("waiting up to 1 s for a worker") == 1
    # a kernel of that run does not wait again: the runner has waited for all of them
    monkeypatch.setattr(parallel, "WORKER_TIMEOUT_S", 60.0)
    monkeypatch.setenv(parallel.WORKERS_CHECKED_ENV, "1")
    started = time.monotonic()
    try:
        with pytest.raises(TimeoutError, match=f"at {address} has no workers: start some"):
            sweep(draw, TASKS, seed=1, scheduler=address, progress=False)
    finally:
        close_clients()
    assert time.monotonic() - started < 10
    bare_scheduler.scale(1)
    bare_scheduler.wait_for_workers(1)
    check_scheduler(address)  # a worker: accepted at once
    worker = next(iter(bare_scheduler.scheduler.workers))
    with pytest.raises(ParameterError, match="a dask Worker answers at .*, not a scheduler"):
        check_scheduler(worker)


def test_dask_own_scheduler_configuration_is_honoured(monkeypatch):
    import dask

    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    with dask.config.set({"scheduler-address": "tcp://h:1"}):
        assert resolve_mode() == ("address", "tcp://h:1")
        assert resolve_mode(workers=1) == ("serial", 1)  # an explicit choice wins


def test_a_task_keys_its_stream_by_the_fields_it_lists():
    from dataclasses import dataclass, field

    @dataclass(frozen=True)
    class Before:
        STREAM = ("size", "name")
        size: int
        name: str

    @dataclass(frozen=True)
    class After:  # a field added later, not listed: the stream stays the same
        STREAM = ("size", "name")
        size: int
        name: str
        note: str = field(default="new")

    old, new = Before(3, "a"), After(3, "a")
    assert parallel.stream_id(old) == repr(old)
    assert parallel.stream_id(new).split("(", 1)[1] == parallel.stream_id(old).split("(", 1)[1]
    assert repr(new) != repr(old).replace("Before", "After")  # the repr did change
    assert parallel.stream_id(("plain", 1)) == repr(("plain", 1))

    @dataclass(frozen=True)
    class Outer:  # a task holding a task: the inner one keyed by its own STREAM
        STREAM = ("inner",)
        inner: After

    assert parallel.stream_id(Outer(new)).endswith(f"Outer(inner={parallel.stream_id(new)})")
    with pytest.raises(ValueError, match="distinct"):
        sweep(lambda t, rng: 0, [Before(1, "x"), Before(1, "x")], seed=0, workers=1,
              progress=False)


def test_queue_tasks_keep_the_streams_their_repr_gave():
    task = QueueTask("M/M/1", 0.5, 1000, 2)
    assert parallel.stream_id(task) == repr(task)


UNGUARDED_SCRIPT = """import numpy as np
from storrepro.suite import parallel

def draw(task, rng):
    return float(rng.random())

print(parallel.sweep(draw, [1, 2], seed=0, workers=2, progress=False))
"""


def test_a_script_without_the_main_guard_is_told_what_to_do(tmp_path):
    script = tmp_path / "first_script.py"
    script.write_text(UNGUARDED_SCRIPT)
    lib = str(Path(parallel.__file__).parents[2])
    env = {**os.environ, "PYTHONPATH": lib}
    env.pop(parallel.WORKERS_ENV, None)
    env.pop(parallel.SCHEDULER_ENV, None)
    run = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: the local dask workers did not start")
    assert 'if __name__ == "__main__":' in last and f"{parallel.WORKERS_ENV}=1" in last
    assert "bootstrapping phase" not in run.stderr  # each worker said it in one line instead
    assert f"error: {parallel.UNGUARDED}" in run.stderr


@pytest.mark.parametrize("seed", [-1, 1.5, float("nan"), "0", None, True])
def test_a_sweep_seed_that_is_no_whole_number_is_named(seed):
    with pytest.raises(ValueError, match=f"seed must be a whole number >= 0, got {seed!r}"):
        sweep(lambda task, rng: task, [1, 2], seed=seed, workers=1, progress=False)
    one = sweep(lambda task, rng: rng.random(), [1], seed=np.int64(3), workers=1, progress=False)
    assert one == sweep(lambda task, rng: rng.random(), [1], seed=3, workers=1, progress=False)
