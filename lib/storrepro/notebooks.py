"""The notebooks of the suite and the config class that validates each one's parameters."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from storrepro.config import NotebookConfig
from storrepro.paths import repo_root

#: notebook name -> "module:ConfigClass"; the order is the run order.
NOTEBOOKS = {
    "00_simulator_validation": "storrepro.validation.config:ValidationConfig",
    "01_precise_period": "storrepro.periodicity.config:PrecisePeriodConfig",
    "02_accgecko": "storrepro.accgecko.config:AccGeckoConfig",
    "03_vdi_background": "storrepro.vdi.config:VdiConfig",
    "04_bid": "storrepro.bid.config:BIDConfig",
    "05_tofec": "storrepro.tofec.config:TofecConfig",
}


#: Where a reader finds each paper (its DOI, or its arXiv page where it has no DOI).
PAPER_LINKS = {
    "01_precise_period": "https://doi.org/10.1007/s42514-022-00099-8",
    "02_accgecko": "https://doi.org/10.3772/j.issn.1002-0470.2022.06.001",
    "03_vdi_background": "https://doi.org/10.1109/MASCOTS50786.2020.9285967",
    "04_bid": "https://doi.org/10.1186/s40537-017-0080-9",
    "05_tofec": "https://arxiv.org/abs/1403.5007",
}

#: Notebooks that read the CRAN benchmark (checked before any kernel starts).
NEEDS_CRAN = frozenset({"01_precise_period"})


def notebook_path(name: str) -> Path:
    return repo_root() / "notebooks" / f"{name}.ipynb"


def config_class(name: str) -> type[NotebookConfig]:
    if name not in NOTEBOOKS:
        raise KeyError(f"unknown notebook {name!r}; available: {', '.join(NOTEBOOKS)}")
    module, _, cls = NOTEBOOKS[name].partition(":")
    return getattr(import_module(module), cls)
