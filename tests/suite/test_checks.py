import math

import numpy as np
import pytest

from storrepro.suite.checks import finite, finite_array


def test_accepts_and_converts():
    assert finite("x", 3) == 3.0 and isinstance(finite("x", 3), float)
    assert finite("x", np.float32(0.5)) == 0.5
    assert finite("x", 0) == 0.0
    assert finite("x", -2.5, minimum=None) == -2.5


@pytest.mark.parametrize("value", [math.nan, math.inf, -1, "3", None, True])
def test_rejects_with_name_value_and_rule(value):
    with pytest.raises(ValueError) as err:
        finite("service_ms", value, unit="ms")
    assert "service_ms must be a finite number >= 0 ms" in str(err.value)
    assert repr(value) in str(err.value)


def test_strict_minimum_excludes_the_bound():
    with pytest.raises(ValueError, match="rate must be a finite number > 0 req/s, got 0"):
        finite("rate", 0, strict=True, unit="req/s")
    assert finite("rate", 1e-9, strict=True) == 1e-9


@pytest.mark.parametrize("values", [[1 + 2j, 1.0], ["2", "3"], [True, False]])
def test_an_array_of_what_is_not_a_real_number_is_refused_by_name(values):
    with pytest.raises(ValueError, match="^counts must hold real numbers, got an array of"):
        finite_array("counts", values)
