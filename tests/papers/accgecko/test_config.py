"""AccGecko's config: its profiles and the checks of its parameters."""

import pytest

from storrepro.papers.accgecko.config import AccGeckoConfig
from storrepro.suite.config import ParameterError


def test_config_profiles_and_checks():
    assert AccGeckoConfig(profile="quick").tenants == 10
    assert AccGeckoConfig(profile="full").duration == 1800.0
    with pytest.raises(ParameterError, match="accuracy_tenants"):
        AccGeckoConfig(profile="quick", tenants=5, accuracy_tenants=6)
    with pytest.raises(ParameterError, match="intensity_tenants"):
        AccGeckoConfig(profile="quick", tenants=5, accuracy_tenants=2, intensity_tenants=6)
    with pytest.raises(ParameterError, match="capacity"):
        AccGeckoConfig(profile="quick", capacity=-1.0)
