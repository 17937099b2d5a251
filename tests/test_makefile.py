"""The Makefile's venv install, run with a stand-in for Python (nothing is installed)."""

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

MAKEFILE = Path(__file__).resolve().parents[1] / "Makefile"
#: Logs each call, and takes a moment, as pip does.
FAKE_PYTHON = '#!/bin/sh\necho "$*" >> "$(dirname "$0")/calls.log"\nsleep 0.5\n'


@pytest.fixture
def checkout(tmp_path):
    """A folder with a pyproject.toml and an empty venv (``.venv/`` as ``python -m venv``
    leaves it, nothing installed), and a stand-in python in ``bin/``."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / ".venv").mkdir()
    fake = tmp_path / "bin" / "python"
    fake.parent.mkdir()
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    return tmp_path


def _make(checkout: Path, env=None, **popen):
    fake = checkout / "bin" / "python"
    command = [shutil.which("make"), "--no-print-directory", "-C", str(checkout),
               "-f", str(MAKEFILE), ".venv/.installed", f"PY={fake}", f"PYTHON={fake}"]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, **popen)  # fmt: skip


def _installs(checkout: Path) -> int:
    calls = (checkout / "bin" / "calls.log").read_text().splitlines()
    return sum(call.endswith("-e .[dev]") for call in calls)


@pytest.mark.skipif(shutil.which("flock") is None, reason="flock (util-linux) is not installed")
def test_two_makes_at_once_install_the_venv_once(checkout):
    first = _make(checkout)
    deadline = time.monotonic() + 30
    while not (checkout / "bin" / "calls.log").exists():  # installing, so holding the lock
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.05)
    second = _make(checkout)
    said, _ = second.communicate(timeout=30)
    first.communicate(timeout=30)
    assert _installs(checkout) == 1 and (checkout / ".venv" / ".installed").exists()
    assert first.returncode == second.returncode == 0
    assert "waiting for another make installing .venv (lock .venv/.install.lock)" in said
    assert ".venv: installed by the other make" in said


def test_without_flock_the_install_says_it_is_unlocked(checkout):
    tools = checkout / "tools"  # the recipe's commands, flock left out
    tools.mkdir()
    for tool in ("mkdir", "touch", "dirname", "sleep"):
        (tools / tool).symlink_to(shutil.which(tool))
    run = _make(checkout, env={**os.environ, "PATH": str(tools)})
    said, _ = run.communicate(timeout=30)
    assert run.returncode == 0, said
    assert "flock not found: installing .venv unlocked; run one make at a time" in said
    assert _installs(checkout) == 1
