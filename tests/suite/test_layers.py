"""The layers picture: areas and their imports read from a small hand-made tree."""

import pytest

from storrepro.suite import layers


def _tree(root, files):
    for name, source in files.items():
        path = root / "storrepro" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return root / "storrepro"


@pytest.fixture
def house(tmp_path):
    return _tree(tmp_path, {
        "__init__.py": "",
        "__main__.py": "from storrepro.suite import runner\n",
        "suite/__init__.py": "",
        "suite/runner.py": "import json\n",
        "suite/traces/__init__.py": "",
        "suite/traces/read.py": "from storrepro.suite import runner\n",
        "sim/__init__.py": "",
        "sim/fifo.py": "from storrepro.suite.runner import x\n",
        "papers/__init__.py": "",
        "papers/a/__init__.py": "",
        "papers/a/claims.py": "from storrepro.sim import fifo\nfrom . import claims\n",
        "papers/b/__init__.py": "",
        "papers/b/kernel.py": "def f():\n    from storrepro.suite.traces import read\n",
    })


def test_areas_and_their_imports_are_read_from_the_code(house):
    assert layers.area_imports(house) == {
        "__main__": {"suite"}, "suite": set(), "sim": {"suite"},
        "papers/a": {"sim"}, "papers/b": {"suite"},  # a call-time import is an arrow too
    }
    assert layers.area_of("storrepro.papers.bid.claims") == "papers/bid"
    assert layers.area_of("storrepro.suite.traces.needs") == "suite"
    assert layers.area_of("storrepro") is None


def test_an_area_sits_one_above_the_highest_it_imports():
    graph = {"suite": set(), "sim": {"suite"}, "papers/a": {"sim", "suite"}, "__main__": {"suite"}}
    assert layers.layers(graph) == [["suite"], ["__main__", "sim"], ["papers/a"]]


def test_areas_that_import_each_other_have_no_layers():
    with pytest.raises(ValueError, match="areas import each other: papers/a -> papers/b -> "
                                         "papers/a"):
        layers.layers({"papers/a": {"papers/b"}, "papers/b": {"papers/a"}})


def test_the_picture_names_each_layer_its_areas_and_what_they_hold(house):
    text = layers.picture(house)
    assert text.startswith("```\nlayer 2  papers/a/  ->  imports sim/\n")
    assert "layer 1  __main__, papers/b/, sim/  ->  imports suite/\n" in text
    assert "layer 0  suite/  ->  imports no other area\n" in text
    assert "sim/            simpy device models the papers share: fifo\n" in text
    assert "suite/          the machinery every notebook shares: runner, traces/\n" in text
    assert all(len(line) <= 96 for line in text.splitlines())

