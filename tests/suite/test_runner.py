import errno
import json
import os
import re
import shutil
import socket
import tempfile
from pathlib import Path

import nbformat
import pytest

from storrepro.__main__ import main
from storrepro.suite import runner
from storrepro.suite.claims import Claim
from storrepro.suite.config import NotebookConfig, Param, ParameterError, trace_params
from storrepro.suite.paths import repo_root

#: The PYTHONPATH of a kernel or runner a test starts: this folder (the tiny configs) and this
#: checkout's lib, not the copy installed in the environment.
_TESTED_PATH = os.pathsep.join([str(Path(__file__).parent), str(Path(runner.__file__).parents[2])])


class Good(NotebookConfig):
    notebook = "good"
    paper = "Tiny"
    params = {"fail": Param(bool, False, False, "raise in the second cell")}


class Bad(Good):
    notebook = "bad"
    params = {"fail": Param(bool, True, True, "raise in the second cell")}


class Reads(NotebookConfig):
    notebook = "reads"
    paper = "Tiny"
    params = {"fail": Param(bool, False, False, "unused"), **trace_params("nothing")}


CONFIGS = {"good": Good, "bad": Bad, "reads": Reads}
MSR_HEADER = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"
TINY_CLAIM = Claim("T", "runs", 1, "1 run", "exact", "reproduced", "It ran.", role="invariant")


def _tiny_notebook(path, name):
    nb = nbformat.v4.new_notebook()
    traced = name == "reads"
    extra = ", trace=trace, trace_format=''" if traced else ""
    params = nbformat.v4.new_code_cell(
        'profile = "full"\nseed = 0\nfail = None' + ("\ntrace = ''" if traced else "")
    )
    params.metadata["tags"] = ["parameters"]
    nb.cells = [
        params,
        nbformat.v4.new_code_cell(
            "from storrepro.suite.run import Run\n"
            "from test_runner import CONFIGS, TINY_CLAIM\n"
            f"cfg = CONFIGS[{name!r}](profile=profile, seed=seed, fail=fail{extra})\n"
            "assert not getattr(cfg, 'trace', '') or open(cfg.trace).read().startswith('Time')\n"
            "if cfg.fail:\n"
            "    raise ZeroDivisionError('boom in tiny')\n"
            "run = Run(cfg)\n"
            "run.judge(lambda c: c, TINY_CLAIM)\n"
            "run.headline('Tiny runs.', core=['T'], cause='It is tiny.')\n"
            "run.finish()"
        ),
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, path)


def _tiny_suite(tmp_path, monkeypatch):
    folder = tmp_path / "nbs"
    folder.mkdir()
    for name in CONFIGS:
        _tiny_notebook(folder / f"{name}.ipynb", name)
    monkeypatch.setattr(runner, "NOTEBOOKS", dict.fromkeys(CONFIGS, ""))
    monkeypatch.setattr(runner, "config_class", CONFIGS.__getitem__)
    monkeypatch.setattr(runner, "notebook_path", lambda name: folder / f"{name}.ipynb")
    # kernels import TinyConfig, and this checkout's storrepro rather than an installed copy
    monkeypatch.setenv("PYTHONPATH", _TESTED_PATH)
    return tmp_path / "out"


@pytest.fixture
def tiny_suite(tmp_path, monkeypatch):
    """A registry of two tiny notebooks: 'bad' raises, 'good' records an empty result."""
    return _tiny_suite(tmp_path, monkeypatch)


def test_failing_notebook_is_reported_plainly_and_the_rest_still_runs(tiny_suite, capsys):
    code = runner.reproduce("quick", ["bad", "good"], tiny_suite)
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED" in out and "ZeroDivisionError: boom in tiny" in out
    assert "| if cfg.fail:" in out  # the failing cell's source
    # a failed run changes no output; all it made stays in the staging folder
    assert not (tiny_suite / "results").exists() and "are unchanged" in out
    executed = tiny_suite / "staging" / "results" / "executed"
    assert (executed / "bad.ipynb").exists() and (executed / "good.ipynb").exists()
    assert not list(executed.glob(".*running*"))
    result = json.loads((tiny_suite / "staging" / "results" / "good.json").read_text())
    assert result["notebook"] == "good" and result["profile"] == "quick"


def test_kernels_run_with_encrypted_transport_and_print_no_plain_tcp_warning(tiny_suite, capfd):
    assert runner.reproduce("quick", ["good"], tiny_suite) == 0
    err = capfd.readouterr().err  # the kernel's own stderr is ours: it would warn here
    assert "without encryption" not in err
    manager = runner._stoppable_kernel_manager()(kernel_name="python3")
    assert manager.transport_encryption == "auto"


def test_a_successful_run_swaps_its_outputs_in_whole(tiny_suite, capsys):
    stale = tiny_suite / "figures" / "good" / "old_seed.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"from another run")
    assert runner.reproduce("quick", ["good"], tiny_suite) == 0
    assert not stale.exists()  # the notebook's figure folder is replaced, not merged
    assert (tiny_suite / "results" / "good.json").exists()
    assert (tiny_suite / "results" / "SCORECARD.md").exists()
    assert (tiny_suite / "results" / "executed" / "good.ipynb").exists()
    assert not (tiny_suite / "staging").exists()
    assert f"outputs of this run: {tiny_suite}" in capsys.readouterr().out


def test_a_relative_trace_path_is_the_callers_and_recorded_absolute(tiny_suite, monkeypatch):
    # the kernel runs in the notebooks' folder: the runner resolves the path before it starts
    caller = tiny_suite.parent / "caller"
    caller.mkdir()
    (caller / "t.csv").write_text(MSR_HEADER + "\n128166372003061629,web,0,Read,0,512,1\n")
    monkeypatch.chdir(caller)
    assert runner.reproduce("quick", ["reads"], tiny_suite, ["trace=t.csv"]) == 0
    result = json.loads((tiny_suite / "results" / "reads.json").read_text())
    assert result["parameters"]["trace"] == str(caller / "t.csv")
    (caller / "d").mkdir()
    with pytest.raises(ParameterError, match=r"'trace' = 'd': not a regular file \(/"):
        runner.plan("quick", ["reads"], ["trace=d"])
    with pytest.raises(ParameterError, match=r"'trace' = 'nope': no such file \(/.*/caller/nope"):
        runner.plan("quick", ["reads"], ["trace=nope"])
    (caller / "empty.csv").write_text(MSR_HEADER + "\n")
    with pytest.raises(ParameterError, match=r"'trace' = '/.*/empty.csv': .* no request after"):
        runner.plan("quick", ["reads"], ["trace=empty.csv"])  # before any kernel starts


def test_a_real_vm_file_is_read_through_its_checks_before_any_kernel(tmp_path):
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text("vm,interval,requests,ts\nw1,0,4,100\nw1,1,5,200\n")
    bad.write_text("vm,interval,requests,ts\nw1,0,4,100\nw1,1,many,200\n")
    (job,) = runner.plan("quick", ["03_vdi_background"], [f"real_vms={good}"])
    assert job.parameters["real_vms"] == str(good)
    with pytest.raises(ParameterError, match=r"^parameter 'real_vms' = '/.*bad.csv': /.*bad.csv, "
                       r"line 3: requests must be numbers >= 0, got 'many'$"):
        runner.plan("quick", ["03_vdi_background"], [f"real_vms={bad}"])


def test_an_interrupted_run_keeps_the_previous_outputs(tiny_suite, capsys, monkeypatch):
    assert runner.reproduce("quick", ["good"], tiny_suite) == 0
    before = (tiny_suite / "results" / "good.json").read_text()

    def interrupt(job, folder):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "execute", interrupt)
    assert runner.reproduce("quick", ["good"], tiny_suite) == 130
    assert "interrupted: the outputs in" in capsys.readouterr().out
    assert (tiny_suite / "results" / "good.json").read_text() == before


HOLDER = """import sys, time
from pathlib import Path
from storrepro.suite import runner
out = Path(sys.argv[1])
with runner.output_lock(out):
    (out / "staging").mkdir()
    (out / "staging" / "first.ipynb").write_text("the first run's")
    print("held", flush=True)
    time.sleep(60)"""


def test_a_second_run_into_the_same_folder_is_refused_naming_the_first(tiny_suite, monkeypatch,
                                                                       capsys):  # fmt: skip
    import subprocess
    import sys

    first = subprocess.Popen([sys.executable, "-c", HOLDER, str(tiny_suite)], text=True,
                             stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": _TESTED_PATH})
    try:
        assert first.stdout.readline() == "held\n"
        monkeypatch.setattr(runner, "execute", lambda job, folder: pytest.fail("a kernel ran"))
        monkeypatch.setattr(runner, "check_free_space", lambda out, names: pytest.fail("late"))
        lock = tiny_suite / ".storrepro.lock"
        named = rf"pid {first.pid} on .*, started 20\d\d-.*; its lock: {lock}\. Wait for it"
        with pytest.raises(ParameterError, match=named), runner.output_lock(tiny_suite):
            pass  # refused; the holder's record is kept for the next one
        args = ["reproduce", "--profile", "quick", "--only", "good", "--out", str(tiny_suite)]
        assert main(args) == 2
        assert re.search(f"error: another run is writing into {tiny_suite}: {named}",
                         capsys.readouterr().err)  # fmt: skip
        assert (tiny_suite / "staging" / "first.ipynb").read_text() == "the first run's"
    finally:
        first.kill()
        first.wait()
    with runner.output_lock(tiny_suite):  # released when the first run ends
        pass


def test_a_lock_without_its_record_is_still_refused_and_says_so(tmp_path):
    import fcntl

    with open(tmp_path / ".storrepro.lock", "w") as older:  # a run from before the record
        fcntl.flock(older, fcntl.LOCK_EX)
        refused = pytest.raises(ParameterError, match="a run that recorded no pid or start; its")
        with refused, runner.output_lock(tmp_path):
            pass


def test_only_the_canonical_run_writes_into_the_repository(monkeypatch):
    # tested in test_data_cran
    monkeypatch.setattr("storrepro.suite.data.cran.ensure_cran", lambda: None)
    monkeypatch.setattr("storrepro.suite.data.cran.check_cran", lambda folder: None)
    full = runner.plan("full", None, [])
    assert runner.default_out("full", full) == repo_root()
    quick = runner.default_out("quick", runner.plan("quick", None, []))
    only_00 = ["00_simulator_validation"]
    seeded = runner.default_out("full", runner.plan("full", only_00, ["seed=1"]))
    assert quick.parent == seeded.parent == repo_root() / "build" / "runs"
    assert quick.name.startswith("quick-all-") and seeded.name.startswith("full-00-")
    other = runner.default_out("full", runner.plan("full", only_00, ["seed=2"]))
    assert other != seeded


def test_an_unwritable_out_or_unreachable_scheduler_fails_before_any_work(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    args = ["reproduce", "--profile", "quick", "--only", "00_simulator_validation"]
    assert main([*args, "--out", str(blocker / "sub")]) == 2
    assert f"--out {blocker / 'sub'}: cannot write there (Not a directory)" in (
        capsys.readouterr().err
    )
    assert main([*args, "--out", str(tmp_path / "o"), "--scheduler", "nonsense"]) == 2
    assert "expected tcp://HOST:PORT" in capsys.readouterr().err
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    unreachable = f"tcp://127.0.0.1:{port}"
    assert main([*args, "--out", str(tmp_path / "o"), "--scheduler", unreachable]) == 2
    assert "no dask scheduler answers at 127.0.0.1" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_bad_parameters_fail_before_any_notebook_runs(tmp_path, capsys):
    out = tmp_path / "out"
    args = [
        "reproduce",
        "--profile",
        "quick",
        "--out",
        str(out),
        "--only",
        "00_simulator_validation",
    ]
    assert main([*args, "-p", "customers=lots"]) == 2
    err = capsys.readouterr().err
    assert "parameter 'customers' = 'lots': expected an int >= 1000" in err
    assert main([*args, "-p", "load=1.5"]) == 2
    assert "parameter 'load' = 1.5: expected a float >= 0.05 and <= 0.95" in capsys.readouterr().err
    assert main([*args, "-p", "speed=3"]) == 2
    assert "unknown parameter 'speed' for 00_simulator_validation" in capsys.readouterr().err
    assert main([*args, "--workers", "0"]) == 2
    assert "--workers 0: expected a whole number from 1 to" in capsys.readouterr().err
    assert main([*args, "--workers", "10000"]) == 2
    assert "--workers 10000: expected a whole number from 1 to" in capsys.readouterr().err
    assert not out.exists()


def test_unknown_notebook_is_a_clear_error(capsys):
    assert main(["reproduce", "--only", "07_nothing"]) == 2
    assert "--only '07_nothing' is not a notebook; available: 00_simulator_validation" in (
        capsys.readouterr().err
    )


def test_plan_checks_cross_parameter_rules():
    with pytest.raises(ParameterError, match="fewer than 1000 customers"):
        runner.plan("quick", ["00_simulator_validation"], ["customers=2000", "replications=4"])


def test_list_shows_parameters(capsys):
    assert main(["list", "00_simulator_validation"]) == 0
    out = capsys.readouterr().out
    assert "customers" in out and "quick=100000" in out and "full=1000000" in out


def test_data_download_without_a_mirror_asks_the_default_one(tmp_path, capsys, monkeypatch,
                                                             free_port):
    from storrepro.suite.data import cran

    offline = f"http://127.0.0.1:{free_port()}"  # CRAN's cloud mirror, with no network
    monkeypatch.setattr(cran, "DEFAULT_MIRROR", offline)
    monkeypatch.delenv("STORREPRO_CRAN_MIRROR", raising=False)
    assert main(["data", "cran", "--download", str(tmp_path / "cran")]) == 2
    assert f"could not download: {offline}/src/contrib/AER_" in capsys.readouterr().err


def test_sizes_beyond_memory_or_a_day_are_refused_with_the_estimate():
    only = ["00_simulator_validation"]
    with pytest.raises(ParameterError, match=r"'customers' = 1000000000000: .* GiB of memory"):
        runner.plan("full", only, ["customers=1e12"])
    with pytest.raises(ParameterError, match=r"about .* days on this machine .* pass --force"):
        runner.plan("full", only, ["curve_customers=1e9"])
    assert runner.plan("full", only, ["curve_customers=1e9"], force=True)  # forced: allowed
    with pytest.raises(ParameterError, match="GiB of memory"):  # memory: never forced
        runner.plan("full", only, ["customers=1e12"], force=True)
    events = ["04_bid"]
    with pytest.raises(ParameterError, match=r"'events' = 10000000000"):
        runner.plan("full", events, ["events=1e10"])


def test_a_parameter_can_be_set_for_one_notebook_of_the_run():
    names = ["04_bid", "03_vdi_background"]
    pairs = ["seed=3", "04_bid:rq_limit=64", "03_vdi_background:seeds=2"]
    assert runner.overrides_for("04_bid", pairs, names) == ["seed=3", "rq_limit=64"]
    assert runner.overrides_for("03_vdi_background", pairs, names) == ["seed=3", "seeds=2"]
    jobs = runner.plan("quick", names, pairs)
    assert jobs[0].parameters["rq_limit"] == 64 and "rq_limit" not in jobs[1].parameters
    with pytest.raises(ParameterError, match="'05_tofec' is not among the notebooks of this run"):
        runner.plan("quick", names, ["05_tofec:seeds=2"])


@pytest.mark.parametrize("machine, pinned", [("x86_64", True), ("aarch64", False)])
def test_kernels_take_the_same_numeric_code_paths_on_any_x86_cpu(monkeypatch, tmp_path, machine,
                                                                  pinned):  # fmt: skip
    monkeypatch.setattr(runner.platform, "machine", lambda: machine)
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Zen")  # the user's own setting comes back after
    monkeypatch.delenv("NPY_DISABLE_CPU_FEATURES", raising=False)
    with runner.kernel_environment(tmp_path, None, None):
        seen = {k: runner.os.environ.get(k) for k in runner.X86_NUMERICS}
    assert seen == (runner.X86_NUMERICS if pinned else
                    {"OPENBLAS_CORETYPE": "Zen", "NPY_DISABLE_CPU_FEATURES": None})  # fmt: skip
    assert runner.os.environ["OPENBLAS_CORETYPE"] == "Zen"
    assert "NPY_DISABLE_CPU_FEATURES" not in runner.os.environ


@pytest.mark.skipif(not runner.numeric_pins(), reason="pins only x86-64")
def test_the_numeric_pins_reach_numpy_and_openblas():
    import subprocess
    import sys

    probe = ("import threadpoolctl; from numpy._core._multiarray_umath import __cpu_features__ "
             "as f; print(f.get('X86_V4', f.get('AVX512_SKX')), {i['architecture'] for i in "
             "threadpoolctl.threadpool_info() if i['internal_api'] == 'openblas'})")  # fmt: skip
    env = {**runner.os.environ, **runner.numeric_pins()}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                         check=True).stdout.split(maxsplit=1)  # fmt: skip
    assert out == ["False", "{'Haswell'}\n"]


def _tree(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _make_two_runs(folder):
    with pytest.MonkeyPatch.context() as monkeypatch:
        out = _tiny_suite(folder, monkeypatch)
        assert runner.reproduce("quick", ["good"], out) == 0
        newer = out.parent / "newer"
        assert runner.reproduce("quick", ["good"], newer, ["seed=1"]) == 0
    for folder, text in ((out, b"old"), (newer, b"new")):
        (folder / "figures" / "good").mkdir(parents=True, exist_ok=True)
        (folder / "figures" / "good" / "fig.png").write_bytes(text)
    return out


@pytest.fixture(scope="module")
def _two_runs_made(shared_tmp, once):
    """The two runs :func:`two_runs` copies, made once in the session for the tests that
    publish them: by the xdist worker that asks first, while a worker asking at the same time
    waits on its lock."""
    out = Path(once("two_runs", lambda: _make_two_runs(Path(tempfile.mkdtemp(dir=shared_tmp)))))
    return out, out.parent / "newer"


@pytest.fixture
def two_runs(_two_runs_made, tmp_path):
    """``(out, staging)``: ``out`` holds a finished run (seed 0), ``staging`` the outputs of
    another (seed 1) laid out as a run stages them, each with a figure of its own (fresh copies
    for each test, which may change them)."""
    copies = tuple(tmp_path / name for name in ("out", "newer"))
    for made, copy in zip(_two_runs_made, copies, strict=True):
        shutil.copytree(made, copy)
    return copies


def test_publishing_swaps_all_or_nothing_whatever_step_fails(two_runs, monkeypatch):
    out, newer = two_runs
    before, staged = _tree(out), _tree(newer)
    real_replace = os.replace
    calls = 0

    def count(src, dst):
        nonlocal calls
        calls += 1
        real_replace(src, dst)

    staging = out.parent / "staging"
    shutil.copytree(newer, staging)
    monkeypatch.setattr(runner.os, "replace", count)
    runner.publish(staging, out, ["good"])
    monkeypatch.setattr(runner.os, "replace", real_replace)
    published, total = _tree(out), calls
    assert published[Path("figures/good/fig.png")] == b"new"
    assert published[Path("results/good.json")] == staged[Path("results/good.json")]
    for fail_at in range(1, total + 1):  # a full disk at every rename, preparation included
        shutil.rmtree(out)
        _restore(out, before)
        shutil.rmtree(staging)
        shutil.copytree(newer, staging)
        calls = 0

        def full_disk(src, dst, fail_at=fail_at):
            nonlocal calls
            calls += 1
            if calls == fail_at:
                raise OSError(errno.ENOSPC, "No space left on device")
            real_replace(src, dst)

        monkeypatch.setattr(runner.os, "replace", full_disk)
        with pytest.raises(runner.PublishError, match="No space left on device.*as they were|"
                           "No space left on device.*unchanged"):  # fmt: skip
            runner.publish(staging, out, ["good"])
        monkeypatch.setattr(runner.os, "replace", real_replace)
        assert _tree(out) == before, f"replace {fail_at} of {total} failed"
        kept = {p.name: p.read_bytes() for p in staging.rglob("good.json")}
        assert staged[Path("results/good.json")] in kept.values()  # nor is the new run lost


def _restore(folder, tree):
    for path, data in tree.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)


def test_publishing_checks_the_free_space_first(two_runs, monkeypatch):
    out, newer = two_runs
    before = _tree(out)
    monkeypatch.setattr(runner.shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(1, 1, 1))
    with pytest.raises(runner.PublishError, match="not enough free space.*unchanged"):
        runner.publish(newer, out, ["good"])
    assert _tree(out) == before


def test_an_interrupt_during_the_swap_puts_the_previous_outputs_back(two_runs, monkeypatch):
    out, newer = two_runs
    before = _tree(out)
    real_replace, calls = os.replace, []

    def interrupted(src, dst):
        calls.append(dst)
        if len(calls) == 8:  # preparation takes four renames; the figures are swapped in
            assert (out / "figures" / "good" / "fig.png").read_bytes() == b"new"
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(runner.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner.publish(newer, out, ["good"])
    assert _tree(out) == before


def test_an_input_inside_the_outputs_a_run_replaces_is_refused(tiny_suite):
    trace = tiny_suite / "results" / "t.csv"
    trace.parent.mkdir(parents=True)
    trace.write_text(MSR_HEADER + "\n128166372003061629,web,0,Read,0,512,1\n")
    with pytest.raises(ParameterError, match="an input inside .*results, which this run replaces"):
        runner.reproduce("quick", ["reads"], tiny_suite, [f"trace={trace}"])


SLOW_CELL = """import os, pathlib, subprocess, time
child = subprocess.Popen(["sleep", "60"])  # stands for a dask worker of the kernel
pathlib.Path({folder!r}, "{name}.pids").write_text(f"{{os.getpid()}} {{child.pid}}")
time.sleep(60)"""

DRIVER = """import sys
from pathlib import Path
from storrepro.suite import runner
from test_runner import Good
folder, names = Path(sys.argv[1]), ["slow1", "slow2"]
runner.NOTEBOOKS = dict.fromkeys(names, "")
runner.config_class = lambda name: Good
runner.notebook_path = lambda name: folder / f"{name}.ipynb"
sys.exit(runner.reproduce("quick", names, folder / "out", at_once=int(sys.argv[2])))"""


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")  # a zombie has stopped; its reaper may be slow in a container


@pytest.mark.parametrize(
    ("jobs", "inherited", "sent"),
    [(1, "SIG_IGN", "SIGINT"), (2, "SIG_IGN", "SIGINT"), (2, "SIG_DFL", "SIGTERM")],
)
def test_ctrl_c_stops_every_running_notebook_within_seconds(tmp_path, jobs, inherited, sent):
    """Whatever the runner inherited: a background shell (`nohup pytest &`) starts it with
    SIGINT ignored, so the test sets the disposition itself."""
    import signal
    import subprocess
    import sys
    import time

    def inherit():
        signal.signal(signal.SIGINT, getattr(signal, inherited))
        signal.signal(signal.SIGTERM, getattr(signal, inherited))

    for name in ("slow1", "slow2"):
        nb = nbformat.v4.new_notebook()
        params = nbformat.v4.new_code_cell('profile = "full"\nseed = 0')
        params.metadata["tags"] = ["parameters"]
        slow = SLOW_CELL.format(name=name, folder=str(tmp_path))
        nb.cells = [params, nbformat.v4.new_code_cell(slow)]
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}  # fmt: skip
        nbformat.write(nb, tmp_path / f"{name}.ipynb")
    (tmp_path / "driver.py").write_text(DRIVER)
    env = {**os.environ, "PYTHONPATH": _TESTED_PATH}
    command = [sys.executable, str(tmp_path / "driver.py"), str(tmp_path), str(jobs)]
    run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, preexec_fn=inherit)  # fmt: skip
    pid_files = [tmp_path / f"slow{i}.pids" for i in range(1, jobs + 1)]
    # kernels start in seconds, but make test's other workers can slow that a lot: what is
    # timed is the stop after the signal, not the start
    deadline = time.monotonic() + 180
    while not all(p.exists() and p.read_text() for p in pid_files):
        assert run.poll() is None and time.monotonic() < deadline, run.communicate()
        time.sleep(0.1)
    pids = [int(pid) for p in pid_files for pid in p.read_text().split()]
    run.send_signal(getattr(signal, sent))  # SIGINT: what Ctrl-C sends the runner
    sent_at = time.monotonic()
    out, err = run.communicate(timeout=30)
    assert run.returncode == 128 + getattr(signal, sent) and time.monotonic() - sent_at < 8
    assert [line for line in out.splitlines() if line and not line.startswith("[")] == [
        f"interrupted: the outputs in {tmp_path / 'out'} are unchanged; this run's partial "
        f"outputs are in {tmp_path / 'out' / 'staging'}"
    ]
    assert "Traceback" not in err and "Kernel died" not in err
    time.sleep(0.5)
    assert not [pid for pid in pids if _running(pid)]  # the kernels and their children
    assert not (tmp_path / "slow2.pids").exists() or jobs == 2  # none started after Ctrl-C


def test_dask_scheduler_address_is_honoured_or_refused_by_name(tiny_suite, monkeypatch, capsys):
    from distributed import LocalCluster

    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", f"tcp://127.0.0.1:{port}")
    assert main(["reproduce", "--only", "good", "--out", str(tiny_suite)]) == 2
    assert "dask's scheduler-address (DASK_SCHEDULER_ADDRESS) 'tcp://127.0.0.1:" in (
        capsys.readouterr().err
    )
    seen = {}

    def kernels_see(jobs, folder, at_once):
        seen.update({k: os.environ.get(k) for k in ("DASK_SCHEDULER_ADDRESS", "STORREPRO_WORKERS")})
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "_run_jobs", kernels_see)
    with LocalCluster(n_workers=1, processes=False, protocol="tcp://",
                      dashboard_address="127.0.0.1:0") as cluster:  # fmt: skip
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", cluster.scheduler_address)
        assert runner.reproduce("quick", ["good", "bad"], tiny_suite, at_once=2) == 130
    # the sweeps go to that scheduler, not to one process per notebook
    assert seen == {"DASK_SCHEDULER_ADDRESS": cluster.scheduler_address, "STORREPRO_WORKERS": None}


def test_the_full_profile_runs_notebooks_side_by_side_on_one_cluster_of_its_own(
    tiny_suite, monkeypatch
):
    from storrepro.suite import parallel

    seen = {}

    def kernels_see(jobs, folder, at_once):
        address = os.environ.get("DASK_SCHEDULER_ADDRESS")
        workers = parallel.dask_identity(address)["workers"] if address else {}
        seen.update(at_once=at_once, address=address, workers=len(workers),
                    local=os.environ.get("STORREPRO_WORKERS"))  # fmt: skip
        raise KeyboardInterrupt

    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    monkeypatch.setattr(runner, "_run_jobs", kernels_see)
    assert runner.reproduce("full", ["good", "bad"], tiny_suite) == 130
    cores = os.cpu_count() or 1
    assert seen["at_once"] == min(2, cores) and seen["local"] is None
    assert seen["workers"] == cores  # one single-threaded worker per core, for both notebooks
    assert "no longer answers" in runner.workers_lost(seen["address"])  # closed with the run
    # --workers, or the quick profile side by side: no cluster of the run's own
    for profile, workers, local in [("full", 1, "1"), ("full", 2, "2"), ("quick", None, "1")]:
        assert runner.reproduce(profile, ["good", "bad"], tiny_suite, workers=workers,
                                at_once=2) == 130  # fmt: skip
        assert (seen["address"], seen["local"]) == (None, local)


def test_a_disk_too_full_for_the_outputs_is_refused_before_any_kernel(tiny_suite, monkeypatch,
                                                                      capsys):  # fmt: skip
    started = []

    def run_jobs(*args):
        started.append(args)
        raise KeyboardInterrupt  # as far as this test needs the run to go

    monkeypatch.setattr(runner, "_run_jobs", run_jobs)
    needed = 2 * 2 * runner.MIN_NOTEBOOK_BYTES + runner.SPARE_BYTES  # two notebooks, none committed
    args = ["reproduce", "--profile", "quick", "--only", "good", "bad", "--out", str(tiny_suite)]
    for free, code in [(needed - 1, 2), (needed, 130)]:
        usage = shutil._ntuple_diskusage(free * 4, free * 3, free)
        monkeypatch.setattr(runner.shutil, "disk_usage", lambda path, usage=usage: usage)
        assert main(args) == code
        if code == 2:
            assert capsys.readouterr().err == (
                f"error: --out {tiny_suite}: {free / 2**20:,.0f} MiB free on its file system, "
                f"this run needs about {needed / 2**20:,.0f} MiB (twice its notebooks' outputs); "
                "free some space or give this run another --out\n"
            )
            assert not started  # refused before any kernel
    assert len(started) == 1  # with room enough, the run starts
    monkeypatch.setattr(runner, "MIN_NOTEBOOK_BYTES", 0)
    assert runner.outputs_size("04_bid") > 2**20  # measured on the committed outputs


def test_a_scheduler_that_lost_its_workers_fails_the_next_notebooks_at_once(free_port):
    from distributed import LocalCluster

    assert runner.workers_lost(None) == ""
    with LocalCluster(n_workers=0, processes=False, protocol="tcp://",
                      dashboard_address="127.0.0.1:0") as cluster:  # fmt: skip
        address = cluster.scheduler_address
        assert runner.workers_lost(address) == (
            f"not started: the dask scheduler at {address} has no worker left (it had workers "
            "when the run began); restart them and run the notebooks that failed again")
        cluster.scale(1)
        cluster.wait_for_workers(1, timeout=30)
        assert runner.workers_lost(address) == ""
    gone = f"tcp://127.0.0.1:{free_port()}"
    assert "no longer answers" in runner.workers_lost(gone)


def test_only_the_notebooks_after_the_first_ask_the_scheduler(tiny_suite, monkeypatch):
    asked, ran = [], []
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:1")
    monkeypatch.setattr(runner, "workers_lost", lambda a: asked.append(a) or "not started: gone")
    monkeypatch.setattr(runner, "execute", lambda job, folder: ran.append(job.name) or
                        runner.Outcome(job.name, True, 0.0, "ok"))  # fmt: skip
    outcomes = runner._run_jobs([runner.Job(n, {}) for n in ("good", "bad", "reads")], tiny_suite)
    assert ran == ["good"] and asked == ["tcp://127.0.0.1:1"] * 2
    assert [(o.ok, o.message) for o in outcomes[1:]] == [(False, "not started: gone")] * 2


def test_the_quick_profile_starts_the_longest_first_and_reports_in_order(tiny_suite,
                                                                          monkeypatch):
    ran = []
    monkeypatch.setattr(runner, "execute", lambda job, folder: ran.append(job.name) or
                        runner.Outcome(job.name, True, 0.0, "ok"))  # fmt: skip
    jobs = [runner.Job(n, {}, s) for n, s in (("a", 1.0), ("b", 5.0), ("c", 3.0), ("d", 3.0))]
    outcomes = runner._run_jobs(jobs, tiny_suite)
    assert ran == ["b", "c", "d", "a"] and [o.name for o in outcomes] == ["a", "b", "c", "d"]
    assert [j.seconds for j in runner.plan("quick", ["good"], [])] == [Good.full_cost[0]]
    assert [j.seconds for j in runner.plan("full", ["good"], [])] == [0.0]


def test_a_read_only_checkout_is_told_to_give_another_out(tmp_path, monkeypatch):
    def refused(dir):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(runner.tempfile, "TemporaryFile", refused)
    monkeypatch.setattr(runner, "repo_root", lambda: tmp_path / "checkout")
    inside = tmp_path / "checkout" / "build" / "runs" / "quick-00-x"
    with pytest.raises(ParameterError, match=r"^--out .*quick-00-x: cannot write there \("
                       r"Permission denied\); a read-only checkout\? give this run an --out "
                       r"folder you can write$"):  # fmt: skip
        runner.check_writable(inside)
    with pytest.raises(ParameterError, match=r"^--out .*elsewhere: cannot write there \("
                       r"Permission denied\)$"):  # fmt: skip
        runner.check_writable(tmp_path / "elsewhere")


def test_folders_with_spaces_and_accents_run_and_publish(tiny_suite, monkeypatch, capsys):
    odd = tiny_suite.parent / "my nbs ü"  # a checkout's notebooks and an --out named so
    shutil.copytree(tiny_suite.parent / "nbs", odd)
    monkeypatch.setattr(runner, "notebook_path", lambda name: odd / f"{name}.ipynb")
    out = tiny_suite.parent / "out été x"
    assert runner.reproduce("quick", ["good"], out) == 0
    assert json.loads((out / "results" / "good.json").read_text(encoding="utf-8"))["claims"]
    assert f"outputs of this run: {out}" in capsys.readouterr().out


def test_a_path_the_notebooks_cannot_record_as_text_is_refused_before_any_kernel(
        tiny_suite, monkeypatch):  # fmt: skip
    # a folder name that is not UTF-8 (a Latin-1 name, or a non-ASCII checkout under a C locale
    # without UTF-8) reaches Python as surrogates, which papermill cannot write into the notebook
    monkeypatch.setattr(runner, "execute", lambda job, folder: pytest.fail("a kernel ran"))
    out = tiny_suite.parent / "r\udce9sults"
    named = r"^--out /.*/r\\xe9sults: its name is not UTF-8 .*locale \(LC_ALL=C\.UTF-8"
    with pytest.raises(ParameterError, match=named):
        runner.reproduce("quick", ["good"], out)
    assert not out.exists()
    checkout = tiny_suite.parent / "d\udce9p\u00f4t"
    monkeypatch.setattr(runner, "notebook_path", lambda name: checkout / f"{name}.ipynb")
    with pytest.raises(ParameterError, match=r"^good's notebook folder /.*/d\\xe9p\u00f4t: its"):
        runner.reproduce("quick", ["good"], tiny_suite)


def test_a_damaged_result_in_out_is_found_before_any_kernel_or_replaced(tiny_suite, monkeypatch):
    """Publishing reads the results it keeps for the scorecard: a damaged one of another notebook
    is refused before the first kernel, not after the whole run; a damaged one of a notebook
    this run makes again is replaced, not read."""
    assert runner.reproduce("quick", ["good"], tiny_suite) == 0
    results = tiny_suite / "results"
    (results / "good.json").write_text('{"notebook": "go')  # truncated, say by a full disk
    assert runner.reproduce("quick", ["good"], tiny_suite) == 0
    assert json.loads((results / "good.json").read_text())["notebook"] == "good"
    (results / "reads.json").write_text('{"notebook": "re')
    monkeypatch.setattr(runner, "execute", lambda job, folder: pytest.fail("a kernel ran"))
    with pytest.raises(ValueError, match=rf"^{results / 'reads.json'}, line 1: not a valid"):
        runner.reproduce("quick", ["good"], tiny_suite)


def test_the_runner_starts_without_building_jsonschemas_iri_parser():
    """storrepro marks rfc3987-syntax absent (its parser costs ~3 s in every process importing
    nbformat); notebooks are still validated."""
    import subprocess
    import sys

    probe = ("import sys, storrepro.suite.runner, nbformat\n"
             "print(sys.modules.get('rfc3987_syntax'))\n"
             "nb = nbformat.v4.new_notebook(); nb.cells = [{'cell_type': 'code'}]\n"
             "try:\n    nbformat.validate(nb)\nexcept nbformat.ValidationError:\n"
             "    print('invalid')")
    env = {**os.environ, "PYTHONPATH": _TESTED_PATH}
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", probe], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["None", "invalid"]


def test_kernels_know_no_frontend_will_move_a_live_control(monkeypatch, tmp_path):
    monkeypatch.delenv(runner.BATCH_ENV, raising=False)
    with runner.kernel_environment(tmp_path, None, None):
        assert runner.os.environ[runner.BATCH_ENV] == "1"
    assert runner.BATCH_ENV not in runner.os.environ
