import ipywidgets as widgets
import pytest

from storrepro.suite.widgets import live


def test_shows_the_default_at_once_and_reruns_on_every_change(monkeypatch):
    shown = []
    monkeypatch.setattr("storrepro.suite.widgets.display", shown.append)
    calls = []
    rate = widgets.FloatSlider(value=1.5, min=0.5, max=3.0)
    name = widgets.Dropdown(options=["noop", "cfq"], value="noop")
    live(lambda rate, name: calls.append((rate, name)), rate=rate, name=name)
    assert calls == [(1.5, "noop")]
    assert rate.continuous_update is False
    rate.value = 2.0
    name.value = "cfq"
    assert calls == [(1.5, "noop"), (2.0, "noop"), (2.0, "cfq")]
    (box,) = shown
    assert rate in box.children[1].children and name in box.children[1].children


def test_needs_a_control():
    with pytest.raises(ValueError, match="at least one control"):
        live(lambda: None)
