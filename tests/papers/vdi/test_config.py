"""Notebook 03's config: its profiles and the checks of its parameters."""

import pytest

from storrepro.papers.vdi.config import VdiConfig
from storrepro.suite.config import ParameterError


def test_config_profiles_and_bad_values():
    assert VdiConfig(profile="full").seeds >= 5
    assert VdiConfig(profile="quick").system.n_cores == 64
    for kwargs, message in [
        ({"cap": 0.0}, "cap"),
        ({"cap": 1.2}, "cap"),
        ({"n_cores": 0}, "n_cores"),
        ({"alpha": 1.0}, "alpha"),
        ({"window_h": 20.0, "horizon_h": 12.0}, "window_h"),
        ({"fg_iops_per_core": -50.0}, "fg_iops_per_core"),
    ]:
        with pytest.raises(ParameterError, match=message):
            VdiConfig(profile="quick", **kwargs)
