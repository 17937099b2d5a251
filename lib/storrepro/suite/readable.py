"""Values as a reader should see them, on the site and in the rendered notebooks: no Python
dicts or lists, ``unbounded`` for an infinity, ``—`` for a value not computed."""

from __future__ import annotations

import math
import re

import pandas as pd


def human(value) -> str:
    """A value as a reader should see it: no Python dicts or lists, ``unbounded`` for an
    infinity, ``—`` for a value not computed."""
    if value is None:
        return "—"
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        if math.isinf(value):
            return "unbounded" if value > 0 else "−unbounded"
        return f"{value:.5g}"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {human(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(human(v) for v in value)
    text = str(value)
    # Rules print numbers with format(); an infinite or missing one reads "inf" / "nan".
    text = re.sub(r"(?<![\w.])inf(?![\w])", "unbounded", text)
    return re.sub(r"(?<![\w.])nan(?![\w])", "—", text)


def _frame_html(frame: pd.DataFrame) -> str:
    """A data frame as the notebook shows it (its display options), with its values for people."""
    words = {c: human for c, kind in frame.dtypes.items()
             if not pd.api.types.is_numeric_dtype(kind)}
    return frame.to_html(
        na_rep="—",
        float_format=human,
        formatters=words,
        max_rows=pd.get_option("display.max_rows"),
        max_cols=pd.get_option("display.max_columns"),
        show_dimensions=pd.get_option("display.show_dimensions"),
        notebook=True,
    )


def readable_tables() -> None:
    """Make the notebook's tables show values for people: plain frames and styled ones (a
    styled table's own formats still win)."""
    from IPython import get_ipython

    pd.set_option("styler.format.formatter", human)
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type(pd.DataFrame, _frame_html)
