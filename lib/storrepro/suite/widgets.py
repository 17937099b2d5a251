"""Live controls for a notebook's most instructive knobs.

``live(show, rate=FloatSlider(...))`` runs ``show`` once with every control's starting value as
ordinary cell output, so papermill, the rendered notebook and the site all show it. In JupyterLab
the controls appear under it, and moving one re-runs ``show`` into the area below them.

Run by the runner (``$STORREPRO_BATCH`` set: no frontend will ever move a control), ``live`` also
draws the figure at a few positions of the controls and shows them as one self-contained HTML
output: a native range input per control and a few lines of script that swap the pictures, so
the static site keeps a working slider without a kernel. One control gets up to
:data:`ONE_CONTROL` positions; several get a full grid of at most :data:`GRID` figures, so every
combination a reader can set was drawn (varying one control at a time would snap the others back
to their start, hiding how they interact).
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import json
import math
import os
from collections.abc import Callable
from unittest import mock

import ipywidgets as widgets
import matplotlib.pyplot as plt
from IPython.display import HTML, display
from IPython.utils.capture import capture_output

from storrepro.suite.paths import BATCH_ENV, LIVE_CLASS

ONE_CONTROL = 5  # positions of a lone control, its start among them
GRID = 6  # figures for several controls (each costs one more run of ``show``)
DPI = 80  # modest: the site's column is about 700 px wide, and every picture is inline
SLIDERS = (widgets.IntSlider, widgets.FloatSlider)
CHOICES = (widgets.Dropdown, widgets.RadioButtons, widgets.Select, widgets.SelectionSlider,
           widgets.ToggleButtons)  # fmt: skip


def live(show: Callable[..., None], **controls: widgets.ValueWidget) -> None:
    """Call ``show(**values)`` now, then on every change of any control, and display them."""
    if not controls:
        raise ValueError("live() needs at least one control, e.g. rate=FloatSlider(...)")
    for name, control in controls.items():
        _check(name, control)
    show(**_values(controls))
    if os.environ.get(BATCH_ENV):
        display(HTML(precomputed(show, controls)))
    out = widgets.Output()

    def rerun(_change) -> None:
        with out:
            out.clear_output(wait=True)
            show(**_values(controls))

    for control in controls.values():
        if hasattr(control, "continuous_update"):
            control.continuous_update = False  # one re-run per release, not per pixel dragged
        control.observe(rerun, names="value")
    hint = widgets.HTML("<i>Move a control to re-run this cell's simulation below.</i>")
    display(widgets.VBox([hint, widgets.HBox(list(controls.values())), out]))


def precomputed(show: Callable[..., None], controls: dict[str, widgets.ValueWidget]) -> str:
    """The HTML of a slider per control that swaps figures drawn at a few of their positions."""
    stops = {name: _stops(control) for name, control in controls.items()}
    starts = {name: _start(control, stops[name]) for name, control in controls.items()}
    counts = _counts([len(s) for s in stops.values()],
                     [isinstance(c, CHOICES) for c in controls.values()])  # fmt: skip
    picked = {name: _pick(len(stops[name]), n, starts[name])
              for name, n in zip(controls, counts, strict=True)}  # fmt: skip
    panels = []
    for key in itertools.product(*(range(len(p)) for p in picked.values())):
        values = {name: stops[name][p[i]][0]
                  for (name, p), i in zip(picked.items(), key, strict=True)}  # fmt: skip
        images = "".join(
            f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}" alt="figure at '
            f'{html.escape(_describe(values))}" style="max-width:100%">'
            for png in _pictures(show, values)
        )
        start = all(picked[n][i] == starts[n] for n, i in zip(controls, key, strict=True))
        panels.append(f'<div data-key="{",".join(map(str, key))}"{"" if start else " hidden"}>'
                      f"{images}</div>")  # fmt: skip
    inputs = "".join(_input(name, controls[name], stops[name], p, starts[name])
                     for name, p in picked.items())  # fmt: skip
    uid = "live-" + hashlib.sha256("".join(panels).encode()).hexdigest()[:12]
    return (f'<div class="{LIVE_CLASS}" id="{uid}"><p><i>Drawn at {len(panels)} setting(s) '
            "when this notebook ran; for any other value, run <code>make lab</code> and move its "
            f"live control there.</i></p>{inputs}{''.join(panels)}<script>{_SCRIPT % uid}</script>"
            "</div>")  # fmt: skip


_SCRIPT = """(function () {
  const root = document.getElementById("%s");
  const inputs = [...root.querySelectorAll("input[type=range]")];
  function swap() {
    const key = inputs.map((i) => i.value).join(",");
    inputs.forEach((i) => {
      i.nextElementSibling.textContent = JSON.parse(i.dataset.labels)[i.value];
    });
    root.querySelectorAll("div[data-key]").forEach((d) => { d.hidden = d.dataset.key !== key; });
  }
  inputs.forEach((i) => i.addEventListener("input", swap));
})();"""


def _check(name: str, control) -> None:
    if isinstance(control, widgets.FloatLogSlider) or not isinstance(control, SLIDERS + CHOICES):
        allowed = ", ".join(c.__name__ for c in SLIDERS + CHOICES)
        raise TypeError(f"live(): control {name}={type(control).__name__}: expected one of "
                        f"{allowed}")  # fmt: skip
    if isinstance(control, SLIDERS) and not control.step > 0:
        raise ValueError(f"live(): control {name} has step={control.step}: expected a step > 0")


def _stops(control) -> list[tuple[object, str]]:
    """Every value the control can take, with its label, in order."""
    if isinstance(control, CHOICES):
        return list(zip(control._options_values, control._options_labels, strict=True))
    count = math.floor((control.max - control.min) / control.step + 1e-9) + 1
    values = [control.min + i * control.step for i in range(count)]
    if isinstance(control, widgets.FloatSlider):
        values = [round(v, 12) for v in values]  # 0.3 + 8 * 0.05 is 0.7000000000000001
    if control.value not in values:  # a start off the step grid is still drawn exactly
        values = sorted([*values, control.value])
    return [(v, format(v, control.readout_format)) for v in values]


def _start(control, stops: list[tuple[object, str]]) -> int:
    """The index of the control's starting value among its ``stops``."""
    if isinstance(control, CHOICES):
        return control.index
    return [value for value, _ in stops].index(control.value)


def _counts(sizes: list[int], choices: list[bool]) -> list[int]:
    """Positions per control: a lone control up to ONE_CONTROL; several, a grid of at most GRID
    in which a choice takes all its options when they fit (they are not a scale to sample) and
    the rest grow in turn."""
    if len(sizes) == 1:
        return [min(sizes[0], ONE_CONTROL)]
    counts = [1] * len(sizes)
    for i, size in enumerate(sizes):
        if choices[i] and math.prod(counts) * size <= GRID:
            counts[i] = size
    grew = True
    while grew:
        grew = False
        for i, size in enumerate(sizes):
            if counts[i] < size and math.prod(counts) // counts[i] * (counts[i] + 1) <= GRID:
                counts[i] += 1
                grew = True
    return counts


def _pick(size: int, count: int, start: int) -> list[int]:
    """``count`` evenly spaced indices of ``range(size)``, the one nearest ``start`` moved onto
    it, so the starting value is always among them."""
    if count >= size:
        return list(range(size))
    spaced = {round(i * (size - 1) / (count - 1)) for i in range(count)} if count > 1 else {start}
    spaced.remove(min(spaced, key=lambda i: abs(i - start)))
    return sorted(spaced | {start})


def _pictures(show: Callable[..., None], values: dict) -> list[bytes]:
    """The PNG of every figure ``show(**values)`` draws, its other output dropped."""
    before = set(plt.get_fignums())
    pictures = []

    def keep(*_args, **_kwargs) -> None:  # stands in for plt.show
        for number in sorted(set(plt.get_fignums()) - before):
            figure = plt.figure(number)
            buffer = io.BytesIO()
            # no metadata: no version or date in the bytes, so a re-run writes the same output
            figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
            pictures.append(buffer.getvalue())
            plt.close(figure)

    with capture_output(), mock.patch.object(plt, "show", keep):
        show(**values)
        keep()
    if not pictures:
        raise ValueError(f"live(): show({_describe(values)}) drew no matplotlib figure, so there "
                         "is nothing to precompute; draw one with plt.subplots()")  # fmt: skip
    return pictures


def _input(name: str, control, stops: list, picked: list[int], start: int) -> str:
    labels = [stops[i][1] for i in picked]
    at = picked.index(start)
    return (f'<label style="display:block">{html.escape(control.description or name)} '
            f'<input type="range" name="{html.escape(name)}" min="0" max="{len(picked) - 1}" '
            f'step="1" value="{at}" data-labels="{html.escape(json.dumps(labels))}"'
            f'{" disabled" if len(picked) == 1 else ""}>'
            f"<output>{html.escape(labels[at])}</output></label>")  # fmt: skip


def _describe(values: dict) -> str:
    return ", ".join(f"{name}={value!r}" for name, value in values.items())


def _values(controls: dict[str, widgets.ValueWidget]) -> dict:
    return {name: control.value for name, control in controls.items()}
