"""The contract every claim rule and every committed claim keeps (the verdicts issue):

- a rule is named ``<id>_<slug>`` after a claim id its notebook records;
- every ``test`` claim names its band's vocabulary entry (never a band sized from our own
  stand-in), carries its seed interval or the reason it has none, and was recorded through
  ``Run.judge`` (its inputs' digest is stored);
- a headline's core claims are tests (notebook 00, which has no paper, names invariants).
"""

import inspect
import re
from importlib import import_module

import pytest

from storrepro.suite.bands import VOCABULARY, entry_of
from storrepro.suite.claims import ROLES, Claim
from storrepro.suite.notebooks import NOTEBOOKS
from storrepro.suite.paths import read_json, repo_root

RESULTS = {name: repo_root() / "results" / f"{name}.json" for name in NOTEBOOKS}


def _package(notebook: str) -> str:
    return NOTEBOOKS[notebook].partition(":")[0].rsplit(".", 1)[0]


def _rules():
    for notebook in NOTEBOOKS:
        module = import_module(f"{_package(notebook)}.claims")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            mine = fn.__module__ == module.__name__ and not name.startswith("_")
            if mine and inspect.signature(fn).return_annotation in (Claim, "Claim"):
                yield pytest.param(notebook, name, id=f"{notebook}:{name}")


def _claims(notebook: str) -> list[dict]:
    return read_json(RESULTS[notebook])["claims"]


@pytest.mark.parametrize(("notebook", "rule"), list(_rules()))
def test_a_rule_is_named_after_a_claim_its_notebook_records(notebook, rule):
    prefix = rule.split("_", 1)[0]
    assert re.fullmatch(r"[a-z]+\d*[a-z]?", prefix) and "_" in rule, (
        f"{rule}: name a claim rule <id>_<slug>, e.g. s5_smart"
    )
    ids = {c["id"].split("-", 1)[0].lower() for c in _claims(notebook)}
    assert prefix in ids, f"{rule}: no claim {prefix.upper()}… in {notebook}'s results"


@pytest.mark.parametrize("notebook", list(NOTEBOOKS))
def test_every_committed_claim_keeps_the_contract(notebook):
    result = read_json(RESULTS[notebook])
    for c in result["claims"]:
        where = f"{notebook} {c['id']}"
        assert c["role"] in ROLES, where
        assert "inputs" in c, f"{where}: recorded without Run.judge (no inputs digest)"
        if c["role"] != "test":
            continue
        assert entry_of(c["band"]) in VOCABULARY, f"{where}: band {c['band']!r}"
        assert "pilot" not in c["tolerance"].lower(), f"{where}: a band from our pilot"
        assert c["uncertainty"] or c["no_uncertainty"].strip(), f"{where}: no uncertainty"
    core_roles = {c["role"] for c in result["claims"] if c["id"] in result["headline"]["core"]}
    assert core_roles == ({"invariant"} if notebook == "00_simulator_validation" else {"test"})
