import json
from pathlib import Path

import nbformat
import pytest

from storrepro import runner
from storrepro.__main__ import main
from storrepro.config import NotebookConfig, Param, ParameterError


class Good(NotebookConfig):
    notebook = "good"
    paper = "Tiny"
    params = {"fail": Param(bool, False, False, "raise in the second cell")}


class Bad(Good):
    notebook = "bad"
    params = {"fail": Param(bool, True, True, "raise in the second cell")}


CONFIGS = {"good": Good, "bad": Bad}


def _tiny_notebook(path, name):
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('profile = "full"\nseed = 0\nfail = None')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [
        params,
        nbformat.v4.new_code_cell(
            "from storrepro.claims import Run\n"
            "from test_runner import CONFIGS\n"
            f"cfg = CONFIGS[{name!r}](profile=profile, seed=seed, fail=fail)\n"
            "if cfg.fail:\n"
            "    raise ZeroDivisionError('boom in tiny')\n"
            "Run(cfg).finish()"
        ),
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, path)


@pytest.fixture
def tiny_suite(tmp_path, monkeypatch):
    """A registry of two tiny notebooks: 'bad' raises, 'good' records an empty result."""
    folder = tmp_path / "nbs"
    folder.mkdir()
    for name in ("bad", "good"):
        _tiny_notebook(folder / f"{name}.ipynb", name)
    monkeypatch.setattr(runner, "NOTEBOOKS", dict.fromkeys(CONFIGS, ""))
    monkeypatch.setattr(runner, "config_class", CONFIGS.__getitem__)
    monkeypatch.setattr(runner, "notebook_path", lambda name: folder / f"{name}.ipynb")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))  # kernels import TinyConfig
    return tmp_path / "out"


def test_failing_notebook_is_reported_plainly_and_the_rest_still_runs(tiny_suite, capsys):
    code = runner.reproduce("quick", ["bad", "good"], tiny_suite)
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED" in out and "ZeroDivisionError: boom in tiny" in out
    assert "| if cfg.fail:" in out  # the failing cell's source
    executed = tiny_suite / "executed"
    assert (executed / "bad.ipynb").exists() and (executed / "good.ipynb").exists()
    assert not list(executed.glob(".*running*"))
    result = json.loads((tiny_suite / "results" / "good.json").read_text())
    assert result["notebook"] == "good" and result["profile"] == "quick"
    assert (tiny_suite / "results" / "SCORECARD.md").exists()


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
    assert "--workers 0: expected a whole number >= 1" in capsys.readouterr().err
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


def test_data_download_needs_a_mirror(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("STORREPRO_CRAN_MIRROR", raising=False)
    assert main(["data", "cran", "--download", str(tmp_path / "cran")]) == 2
    assert "give the base address of a CRAN mirror" in capsys.readouterr().err
