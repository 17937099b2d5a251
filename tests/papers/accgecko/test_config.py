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


def test_the_register_quotes_the_claims_bands_words():
    """A band entry of config.FORCED types no quote: the register quotes its constant's words."""
    from storrepro.papers.accgecko import claims as c
    from storrepro.papers.accgecko.config import FORCED

    assert FORCED["band_m1"].quoted() == c.M1_BAND.words
    assert FORCED["band_t2"].quoted() == "; ".join(b.words for b in c.T2_BANDS.values())
    assert all(f.quoted() for f in FORCED.values())
