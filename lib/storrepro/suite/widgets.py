"""Live controls for a notebook's most instructive knobs.

``live(show, rate=FloatSlider(...))`` runs ``show`` once with every control's starting value as
ordinary cell output, so papermill, the rendered notebook and the site all show it. In JupyterLab
the controls appear under it, and moving one re-runs ``show`` into the area below them.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets
from IPython.display import display


def live(show: Callable[..., None], **controls: widgets.ValueWidget) -> None:
    """Call ``show(**values)`` now, then on every change of any control, and display them."""
    if not controls:
        raise ValueError("live() needs at least one control, e.g. rate=FloatSlider(...)")
    show(**_values(controls))
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


def _values(controls: dict[str, widgets.ValueWidget]) -> dict:
    return {name: control.value for name, control in controls.items()}
