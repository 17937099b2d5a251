"""A damaged results file is named with the field that is wrong, by every command that reads it;
no command shows a traceback on one."""

import copy
import json

import pytest

from storrepro.__main__ import main
from storrepro.suite import compare, result_shape, scorecard, site
from storrepro.suite.paths import repo_root, results_dir

COMMITTED = results_dir(repo_root()) / "04_bid.json"
#: a claim judged under other readings too
JUDGED = next(i for i, c in enumerate(json.loads(COMMITTED.read_text())["claims"])
              if c["by_reading"])  # fmt: skip
SPECS = {"": result_shape.RESULT_FIELDS, "headline": result_shape.HEADLINE_FIELDS,
         "claims.0": result_shape.CLAIM_FIELDS,
         f"claims.{JUDGED}.by_reading.*": result_shape.BY_READING_FIELDS,
         "readings.*": result_shape.READING_FIELDS,
         "forced.*": result_shape.FORCED_FIELDS}  # fmt: skip


def _cases():
    for where, spec in SPECS.items():
        for field in spec:
            yield where, field, "missing"
            yield where, field, [3] if spec[field] is str else "3"
    yield "", "claims", [3]
    yield "claims.0", "verdict", "maybe"
    yield "claims.0", "role", "hero"
    yield "", "figures", [None]
    yield "", "wall_seconds", True


def _at(data, where: str):
    for key in filter(None, where.split(".")):
        data = data[int(key) if key.isdigit() else next(iter(data)) if key == "*" else key]
    return data


@pytest.fixture(scope="module")
def committed():
    return json.loads(COMMITTED.read_text())


@pytest.mark.parametrize(("where", "field", "value"), list(_cases()))
def test_a_damaged_result_is_named_with_its_field(tmp_path, committed, where, field, value):
    data = copy.deepcopy(committed)
    if value == "missing":
        del _at(data, where)[field]
    else:
        _at(data, where)[field] = value
    path = results_dir(tmp_path) / COMMITTED.name
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=f"^{path}: .*{field}.*not a result this suite wrote"):
        scorecard.load_results(tmp_path)


def test_every_committed_result_has_the_shape(committed):
    assert len(scorecard.load_results(repo_root())) >= 6
    assert result_shape.check_result(committed, COMMITTED) is committed


@pytest.fixture
def damaged(tmp_path, committed):
    """A results folder whose one result lacks its headline's verdict."""
    data = copy.deepcopy(committed)
    del data["headline"]["verdict"]
    path = results_dir(tmp_path) / COMMITTED.name
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data))
    return path


def test_every_command_names_the_damaged_result_in_one_line(tmp_path, damaged, monkeypatch,
                                                            capsys):  # fmt: skip
    says = f"error: {damaged}: headline.verdict is missing; not a result this suite wrote"
    for command in (["compare", "--out", str(tmp_path)], ["site", "--out", str(tmp_path)],
                    ["compare", "--out", str(repo_root()), "--against", str(tmp_path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.startswith(says) and len(err.splitlines()) == 1, err
    assert not (tmp_path / "site").exists()  # refused before any page is built
    # check-results reads the checkout's results/ and its last run's record
    monkeypatch.setattr(compare, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(compare, "committed_results", lambda ref, root=None: {
        COMMITTED.name: json.loads(COMMITTED.read_text())})  # fmt: skip
    record = tmp_path / compare.LAST_RUN
    record.parent.mkdir()
    record.write_text('["abc"]')
    assert main(["check-results"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {record}: not the record of a run")
    record.write_text('{"commit": "ab')  # truncated: the record, not a notebook, is redone
    assert main(["check-results"]) == 2
    assert capsys.readouterr().err == (f"error: {record}, line 1: not valid JSON (Unterminated "
                                       "string starting at); delete it and run make reproduce "
                                       "again\n")  # fmt: skip
    record.unlink()  # check-results compares any JSON: the field is a difference it names
    assert main(["check-results"]) == 1
    assert "04_bid.json headline.verdict: missing from the fresh run" in capsys.readouterr().out


def test_a_damaged_executed_notebook_is_named(tmp_path):
    executed = tmp_path / "04_bid.ipynb"
    executed.write_text('{"cells": [')
    with pytest.raises(ValueError, match=f"^{executed}: not a readable executed notebook"):
        site._site_notebook(executed)
    executed.write_text('{"cells": [{"cell_type": "code"}], "nbformat": 4, "nbformat_minor": 5,'
                        ' "metadata": {}}')  # fmt: skip
    with pytest.raises(ValueError, match=f"^{executed}: not a readable executed notebook"):
        site._site_notebook(executed)


def test_an_unforeseen_error_is_one_line_unless_asked(monkeypatch, capsys):
    def broken(out):
        raise TypeError("unforeseen")

    monkeypatch.setattr(site, "build_site", broken)
    assert main(["site"]) == 2
    assert capsys.readouterr().err == ("error: site: unexpected TypeError: unforeseen (a damaged "
                                       "file among those it read? STORREPRO_TRACEBACK=1 shows "
                                       "where)\n")  # fmt: skip
    monkeypatch.setenv("STORREPRO_TRACEBACK", "1")
    with pytest.raises(TypeError):
        main(["site"])
