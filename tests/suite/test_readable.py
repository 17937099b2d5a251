"""Values for people in the rendered notebooks' tables."""

import numpy as np
import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell

from storrepro.suite.readable import readable_tables


@pytest.fixture
def shell():
    shell = InteractiveShell.instance()
    with pd.option_context("styler.format.formatter", None):
        yield shell
    InteractiveShell.clear_instance()


def _cells(html: str) -> list[str]:
    return [line.strip().split(">", 1)[1].rsplit("<", 1)[0]
            for line in html.splitlines() if "<td" in line]


def test_notebook_tables_show_unbounded_and_a_dash_not_inf_and_nan(shell):
    frame = pd.DataFrame({"x": [1.5, np.nan, np.inf], "why": ["ok", "DB inf %", None]})
    before = shell.display_formatter.format(frame)[0]["text/html"]
    assert "NaN" in before and "inf" in before  # what a reader saw
    readable_tables()
    html = shell.display_formatter.format(frame)[0]["text/html"]
    assert _cells(html) == ["1.5", "ok", "—", "DB unbounded %", "unbounded", "—"]
    styled = frame.style.to_html()
    assert _cells(styled) == ["1.5", "ok", "—", "DB unbounded %", "unbounded", "—"]
