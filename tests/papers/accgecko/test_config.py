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


def test_the_register_quotes_the_numbers_of_the_claims_bands():
    """The band quotes of config.FORCED type the paper's numbers a second time (config may not
    import claims): they must be claims' constants, as the paper prints them."""
    from storrepro.papers.accgecko import claims as c
    from storrepro.papers.accgecko.config import FORCED

    def per_p(by_p, unit):
        return " / ".join(f"{by_p[p]:g}{unit}" for p in c.P)

    neg, a8 = c.FIG8_NEGATIVE, c.A8_PAPER
    quoted = {
        "band_m5": [f"{c.M5_PAPER['spread %']:g} %", f"{c.M5_PAPER['ratio']:g}×"],
        "band_a0": [f"({c.A0_PAPER:g} %)"],
        "band_a1": [per_p(neg["MMP"], " %"), per_p(neg["DB"], " %")],
        "band_a2": [f"{neg['DB+25µs'][99.0]:g} %"],
        "band_a3": [f"{neg['DB+17µs'][99.0]:g} % (p99), {neg['DB+17µs'][99.9]:g} % (p99.9)"],
        "band_a4": [per_p(c.A4_PAPER["avg"], " %"), per_p(c.A4_PAPER["max"], " %")],
        "band_a5": [", ".join(f"{c.A5_PAPER['DB+25µs'][p]:g} → {c.A5_PAPER['M=1.5'][p]:g} %"
                              for p in c.P)],
        "band_a6": [f"k = {c.A6_PAPER[p][0]}" for p in c.P]
        + [f"({c.A6_PAPER[p][1]:g} %)" for p in c.P],
        "band_a7": [f"{a8['PM'][99.0]:g}× (PM) and {a8['SNCM'][99.0]:g}× (SNCM)"],
        "band_a8": [f"{a8['PM'][99.0]:g}× (p99) / {a8['PM'][99.9]:g}× (p99.9)",
                    per_p(a8["SNCM"], "×")],
        "band_t2": [f"+{c.T2_PAPER[99.0]:g} % (p99), +{c.T2_PAPER[99.9]:g} % (p99.9)",
                    f"{c.T2_PAPER['mean']:g} % on average"],
        "band_t3": [f"+{c.T3_PAPER[99.0]:g} % (p99), +{c.T3_PAPER[99.9]:g} % (p99.9)"],
    }
    for name, numbers in quoted.items():
        for number in numbers:
            assert number in FORCED[name].quote, (name, number)
