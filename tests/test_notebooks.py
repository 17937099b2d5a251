"""Committed notebooks: stripped, parameters in step with their configs, and runnable (quick)."""

import ast
import json
import re
import sys

import nbformat
import numpy as np
import pandas as pd
import pytest

from helpers import (
    REAL_DATA_KEY,
    RESULT_KEYS,  # the keys other tools read
)
from helpers import needs_cran as cran_mark  # skipped, with the reason, without it
from storrepro.__main__ import main
from storrepro.suite.notebooks import (
    NOTEBOOKS,
    config_class,
    notebook_path,
    trace_conversions,
)
from storrepro.suite.paths import repo_root
from storrepro.suite.traces.samples import write_msr
from trace_samples import trace_sample


def _parameters_cell(name):
    nb = nbformat.read(notebook_path(name), as_version=4)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, f"{name} needs exactly one cell tagged 'parameters'"
    return cells[0]


def test_registry_and_notebook_files_agree():
    on_disk = sorted(p.stem for p in (repo_root() / "notebooks").glob("*.ipynb"))
    assert on_disk == sorted(NOTEBOOKS)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_committed_notebook_has_no_outputs(name):
    nb = nbformat.read(notebook_path(name), as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, f"{name}: strip outputs"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_parameters_cell_matches_the_config(name):
    tree = ast.parse(_parameters_cell(name).source)
    values = {
        t.id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
    }
    assert set(values) == set(config_class(name).all_params())
    assert values.pop("profile") == "full" and values.pop("seed") == 0
    for name in ("trace", "trace_format", "volumes", "real_vms"):  # '': the stand-in (the shared
        # real VMs for real_vms), detected, all
        assert values.pop(name, "") == ""
    for name in ("trace_start", "trace_days"):  # the whole trace
        assert values.pop(name, 0.0) == 0.0
    assert all(v is None for v in values.values()), "paper parameters default to None"


#: A seventh paper's package, as small as the registry's discovery needs: its config (with its
#: link) and, in its ``trace_module``, its conversion.
TOY_PAPER = """
from storrepro.suite.config import NotebookConfig
from storrepro.suite.traces.convert import Conversion, save_records
from storrepro.suite.traces.reader import read_trace


class ToyConfig(NotebookConfig):
    notebook = "07_toy"
    paper = "A toy paper"
    params = {{}}
    trace_module = "toy_paper"
    paper_link = "https://example.org/toy"


def volumes(path, format=None):
    return read_trace(path, format)[["volume"]]


TRACE_CONVERSION = Conversion(
    name={name!r}, writes="each request's volume (.csv)", convert=volumes, save=save_records
)
"""


@pytest.fixture
def toy_paper(tmp_path, monkeypatch):
    """Adds the toy paper under the --to name given: its package and ONE registry line."""

    def add(name):
        (tmp_path / "toy_paper.py").write_text(TOY_PAPER.format(name=name))
        monkeypatch.syspath_prepend(tmp_path)
        monkeypatch.setitem(NOTEBOOKS, "07_toy", "toy_paper:ToyConfig")
        trace_conversions.cache_clear()

    yield add
    sys.modules.pop("toy_paper", None)
    trace_conversions.cache_clear()


def test_a_papers_declarations_are_found_through_the_registry(toy_paper, tmp_path, capsys):
    toy_paper("toy")
    rng = np.random.default_rng(0)
    trace = write_msr(tmp_path / "msr.csv", np.arange(4.0), np.array([0, 1, 1, 0]), rng)
    out = tmp_path / "toy.csv"
    assert main(["trace", "convert", str(trace), "--to", "toy", "--out", str(out)]) == 0
    assert pd.read_csv(out).volume.tolist() == ["src_0", "src_1", "src_1", "src_0"]
    assert f"written: {out} (each request's volume (.csv))" in capsys.readouterr().out
    toy = config_class("07_toy")
    assert toy.paper_link == "https://example.org/toy" and not toy.needs_cran
    assert {"accgecko", "bid", "precise-period", "vdi"} < set(trace_conversions())


def test_a_conversion_name_taken_twice_is_refused(toy_paper):
    toy_paper("vdi")
    with pytest.raises(ValueError, match="toy_paper: TRACE_CONVERSION name 'vdi' is taken"):
        trace_conversions()


def test_an_unknown_conversion_names_the_declared_ones(capsys):
    with pytest.raises(SystemExit):
        main(["trace", "convert", "t.csv", "--to", "nope", "--out", "o.csv"])
    assert ("invalid choice: 'nope' (choose from 'accgecko', 'bid', 'precise-period', 'vdi')"
            in capsys.readouterr().err)  # fmt: skip


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_notebook_that_takes_a_trace_declares_the_sample_it_is_tested_on(name):
    assert (trace_sample(name) is not None) == ("trace" in config_class(name).all_params())


def test_every_paper_gives_its_link():
    for name in NOTEBOOKS:
        link = config_class(name).paper_link
        assert link.startswith("https://") or name == "00_simulator_validation"


#: A verdict, tolerance rule or verdict function written in a notebook instead of its paper's
#: claims.py (where every rule is tested on an input where it fails).
VERDICT_LITERAL = re.compile(
    r"verdict\s*=\s*([\"'](reproduced|partly|not reproduced|not checkable|void)[\"']|lambda)"
    r"|def verdict\b|\.claim\(|claim_relative\("
)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebooks_write_no_verdicts(name):
    nb = nbformat.read(notebook_path(name), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not VERDICT_LITERAL.search(cell.source), f"{name}: {cell.source[:200]}"


def test_the_verdict_scan_finds_a_literal():
    assert VERDICT_LITERAL.search('run.record(x, verdict="reproduced" if ok else "partly")')
    assert VERDICT_LITERAL.search("verdict = lambda e: e < 1")
    assert not VERDICT_LITERAL.search("run.record(claims.c1(t))")


def _run(out, name, *extra):
    code = main(["reproduce", "--profile", "quick", "--only", name, "--out", str(out), *extra])
    assert code == 0
    return json.loads((out / "results" / f"{name}.json").read_text())


@pytest.mark.notebook
@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=cran_mark) if config_class(n).needs_cran else n for n in NOTEBOOKS],
)
def test_notebook_runs_in_the_quick_profile(quick_runs, name):
    out, result = quick_runs(name)
    assert set(result) - {REAL_DATA_KEY} == RESULT_KEYS and result["profile"] == "quick"
    real = result.get(REAL_DATA_KEY)  # the file read, as its parameter records it
    assert real is None or real["file"] == result["parameters"]["real_vms"]
    on_trace = trace_sample(name) is not None
    assert result["input"].startswith("trace ") == on_trace, result["input"]
    assert on_trace == ("trace" in config_class(name).all_params()), "every trace is run here"
    assert result["claims"], "a notebook records its claims"
    for figure in result["figures"]:
        assert (out / figure).stat().st_size > 0
    assert (out / "results" / "executed" / f"{name}.ipynb").exists()
    assert (out / "results" / "SCORECARD.md").exists()


@pytest.mark.notebook
def test_simulator_validation_reproduces_every_claim_in_quick(quick_runs):
    _, result = quick_runs("00_simulator_validation")
    failing = [
        (c["id"], c["reproduced_value"]) for c in result["claims"] if c["verdict"] != "reproduced"
    ]
    assert not failing


@pytest.mark.notebook
def test_same_seed_gives_identical_numbers_serial_and_on_dask(tmp_path, quick_runs):
    # the shared quick run sweeps in the kernel's process (--workers 1); this one on a local
    # dask cluster
    name = "00_simulator_validation"
    _, serial = quick_runs(name)
    cluster = _run(tmp_path, name, "--workers", "2")
    numbers = lambda r: [(c["id"], c["values"], c["uncertainty"]) for c in r["claims"]]  # noqa: E731
    assert serial["parameters"] == cluster["parameters"]
    assert numbers(serial) == numbers(cluster)  # every value to the last bit
