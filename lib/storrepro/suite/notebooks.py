"""The notebooks of the suite (the one registry a paper is added to) and what each paper's
package declares, found through it: the config class that validates the notebook's parameters
(with the paper's link and whether it reads the CRAN benchmark, ``paper_link`` and
``needs_cran``), and its ``trace convert`` (``TRACE_CONVERSION`` in the config's
``trace_module``)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from storrepro.suite.config import NotebookConfig
from storrepro.suite.paths import repo_root

if TYPE_CHECKING:  # the conversions' module reads traces with pandas: not needed for `--help`
    from storrepro.suite.traces.convert import Conversion

#: notebook name -> "module:ConfigClass"; the order is the run order.
NOTEBOOKS = {
    "00_simulator_validation": "storrepro.papers.validation.config:ValidationConfig",
    "01_precise_period": "storrepro.papers.periodicity.config:PrecisePeriodConfig",
    "02_accgecko": "storrepro.papers.accgecko.config:AccGeckoConfig",
    "03_vdi_background": "storrepro.papers.vdi.config:VdiConfig",
    "04_bid": "storrepro.papers.bid.config:BIDConfig",
    "05_tofec": "storrepro.papers.tofec.config:TofecConfig",
}


def notebook_path(name: str) -> Path:
    return repo_root() / "notebooks" / f"{name}.ipynb"


def config_class(name: str) -> type[NotebookConfig]:
    if name not in NOTEBOOKS:
        raise KeyError(f"unknown notebook {name!r}; available: {', '.join(NOTEBOOKS)}")
    module, _, cls = NOTEBOOKS[name].partition(":")
    return getattr(import_module(module), cls)


@cache
def trace_conversions() -> dict[str, Conversion]:
    """``trace convert --to`` name -> :class:`~storrepro.suite.traces.convert.Conversion`: the
    ``TRACE_CONVERSION`` of every notebook's ``trace_module`` that declares one, in notebook
    order (importing the packages takes a second, so the command line asks only when needed)."""
    found = {}
    for name in NOTEBOOKS:
        module = config_class(name).trace_module
        conversion = getattr(import_module(module), "TRACE_CONVERSION", None) if module else None
        if conversion is None:
            continue
        if conversion.name in found:
            raise ValueError(
                f"{module}: TRACE_CONVERSION name {conversion.name!r} is taken by another "
                "notebook's package; give each paper its own --to name"
            )
        found[conversion.name] = conversion
    return found
