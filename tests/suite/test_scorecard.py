"""A damaged results file is named with the field that is wrong, by every command that reads it;
no command shows a traceback on one."""

import copy
import json
import shutil

import pytest

from storrepro.__main__ import main
from storrepro.suite import compare, scorecard, site
from storrepro.suite.paths import repo_root, results_dir

COMMITTED = results_dir(repo_root()) / "04_bid.json"
SPECS = {"": scorecard.RESULT_FIELDS, "headline": scorecard.HEADLINE_FIELDS,
         "claims.0": scorecard.CLAIM_FIELDS}  # fmt: skip


def _cases():
    for where, spec in SPECS.items():
        for field in spec:
            yield where, field, "missing"
            yield where, field, 3
    yield "", "claims", [3]
    yield "claims.0", "verdict", "maybe"
    yield "", "figures", [None]


def _at(data, where: str):
    for key in filter(None, where.split(".")):
        data = data[int(key) if key.isdigit() else key]
    return data


@pytest.fixture(scope="module")
def committed():
    return json.loads(COMMITTED.read_text())


@pytest.mark.parametrize(("where", "field", "value"), list(_cases()))
def test_a_damaged_result_is_named_with_its_field(tmp_path, committed, where, field, value,
                                                  capsys):  # fmt: skip
    data = copy.deepcopy(committed)
    if value == "missing":
        del _at(data, where)[field]
    else:
        _at(data, where)[field] = value
    path = results_dir(tmp_path) / COMMITTED.name
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=f"^{path}: .*not a result this suite wrote") as err:
        scorecard.load_results(tmp_path)
    assert field in str(err.value) or where in str(err.value)
    for command in (["compare", "--out", str(tmp_path)], ["site", "--out", str(tmp_path)]):
        assert main(command) == 2
        assert capsys.readouterr().err.startswith(f"error: {path}: ")


def test_every_committed_result_has_the_shape():
    assert len(scorecard.load_results(repo_root())) >= 6


def test_truncated_results_and_notebooks_are_named(tmp_path, monkeypatch, capsys):
    results = results_dir(tmp_path)
    results.mkdir(parents=True)
    truncated = results / COMMITTED.name
    truncated.write_text(COMMITTED.read_text()[:500])
    assert main(["compare", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {truncated}: not a valid results file")
    # check-results reads the checkout's results/ and its last run's record
    monkeypatch.setattr(compare, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(compare, "committed_results", lambda ref, root=None: {
        COMMITTED.name: json.loads(COMMITTED.read_text())})  # fmt: skip
    record = tmp_path / compare.LAST_RUN
    record.parent.mkdir()
    record.write_text('{"commit": "abc", "notebooks": ["04_bid"]')
    assert main(["check-results"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {record}: not a valid results file")
    record.write_text('["abc"]')
    assert main(["check-results"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {record}: not the record of a run")
    record.unlink()
    assert main(["check-results"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {truncated}: not a valid results file")
    # an executed notebook cut short
    shutil.copy(COMMITTED, truncated)
    executed = results / "executed" / "04_bid.ipynb"
    executed.parent.mkdir()
    executed.write_text('{"cells": [')
    with pytest.raises(ValueError, match=f"^{executed}: not a readable executed notebook"):
        site._site_notebook(executed)


def test_an_unforeseen_error_is_one_line_unless_asked(monkeypatch, capsys):
    def broken(out):
        raise TypeError("unforeseen")

    monkeypatch.setattr(site, "build_site", broken)
    assert main(["site"]) == 2
    assert capsys.readouterr().err == ("error: site: unexpected TypeError: unforeseen (a damaged "
                                       "file among the outputs it read? STORREPRO_TRACEBACK=1 "
                                       "shows where)\n")  # fmt: skip
    monkeypatch.setenv("STORREPRO_TRACEBACK", "1")
    with pytest.raises(TypeError):
        main(["site"])
