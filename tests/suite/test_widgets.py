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


def _draw(**values):
    import matplotlib.pyplot as plt

    _fig, ax = plt.subplots()
    ax.plot([0, 1], [0, len(repr(values))])
    ax.set_title(repr(values))
    plt.show()


def _slider_html(monkeypatch, show, **controls):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.setenv("STORREPRO_BATCH", "1")
    shown = []
    monkeypatch.setattr("storrepro.suite.widgets.display", shown.append)
    live(show, **controls)
    return shown[0].data


def test_a_run_without_a_frontend_precomputes_a_slider_through_the_start(monkeypatch):
    import re

    theta = widgets.FloatSlider(value=0.7, min=0.3, max=0.95, step=0.05, description="θ")
    page = _slider_html(monkeypatch, _draw, theta=theta)
    assert page.count("<img") == 5 and page.count('data-key="') == 5
    labels = re.search(r'data-labels="([^"]*)"', page).group(1)
    assert labels == "[&quot;0.30&quot;, &quot;0.45&quot;, &quot;0.70&quot;, &quot;0.80&quot;, " \
        "&quot;0.95&quot;]"
    assert 'value="2"' in page and "<output>0.70</output>" in page
    assert page.count(" hidden>") == 4  # only the start is visible before the slider moves
    again = _slider_html(monkeypatch, _draw, theta=theta)
    assert again == page  # same bytes on a re-run


def test_several_controls_get_a_small_grid_and_a_choice_all_its_options(monkeypatch):
    scheduler = widgets.Dropdown(options=["noop", "cfq", "bid"], value="cfq")
    quantum = widgets.IntSlider(value=8, min=1, max=16)
    page = _slider_html(monkeypatch, _draw, scheduler=scheduler, quantum=quantum)
    assert page.count("<img") == 6  # 3 options x 2 quanta, the grid's cap
    assert "&quot;noop&quot;, &quot;cfq&quot;, &quot;bid&quot;" in page
    assert "&quot;8&quot;, &quot;16&quot;" in page


def test_a_frontend_gets_no_precomputed_slider(monkeypatch):
    monkeypatch.delenv("STORREPRO_BATCH", raising=False)
    shown, calls = [], []
    monkeypatch.setattr("storrepro.suite.widgets.display", shown.append)
    live(lambda rate: calls.append(rate), rate=widgets.FloatSlider(value=1.0))
    assert calls == [1.0] and len(shown) == 1 and isinstance(shown[0], widgets.VBox)


def test_a_control_it_cannot_step_is_refused_before_any_work():
    calls = []
    with pytest.raises(TypeError, match="control on=Checkbox: expected one of IntSlider"):
        live(calls.append, on=widgets.Checkbox(value=True))
    assert calls == []


def test_a_show_that_draws_nothing_is_a_clear_error(monkeypatch):
    with pytest.raises(ValueError, match="drew no matplotlib figure"):
        _slider_html(monkeypatch, lambda rate: None, rate=widgets.IntSlider(value=1))
