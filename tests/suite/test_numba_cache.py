import os
import subprocess
import sys

import pytest

from storrepro.suite.paths import repo_root

KERNEL = """import numba
{imports}

@numba.njit(cache=True)
def twice(x):
    return 2 * x

print(twice(21))
"""


def _run(folder, imports: str) -> subprocess.CompletedProcess:
    (folder / "kernel.py").write_text(KERNEL.format(imports=imports))
    env = {**os.environ, "PYTHONPATH": str(repo_root() / "lib")}
    env.pop("NUMBA_CACHE_DIR", None)
    return subprocess.run([sys.executable, "kernel.py"], cwd=folder, capture_output=True,
                          text=True, env=env, timeout=300)  # fmt: skip


@pytest.mark.parametrize("damaged", ["nbi", "nbc"])
def test_a_damaged_kernel_cache_is_compiled_again(tmp_path, damaged):
    imports = "import storrepro.papers"
    assert _run(tmp_path, imports).stdout == "42\n"  # compiles and writes its cache
    files = list((tmp_path / "__pycache__").glob(f"kernel.twice-*.{damaged}"))
    assert files
    for path in files:
        path.write_bytes(path.read_bytes()[:20] if damaged == "nbi" else b"garbage")
    done = _run(tmp_path, imports)
    assert (done.returncode, done.stdout) == (0, "42\n"), done.stderr
    if damaged == "nbi":  # numba's own loader fails on it: the test can fail
        for path in files:
            path.write_bytes(b"\x80")
        assert "UnpicklingError" in _run(tmp_path, "").stderr
