"""One contract for every period detector (in the spirit of scikit-learn's ``check_estimator``):
the same call shape ``detector(x) -> int | None``, deterministic, the input left as it was,
clear errors naming ``x`` for bad input, ``None`` for a series with no period, and the right
period of a hand-worked sine."""

from functools import partial

import numpy as np
import pytest

from storrepro.papers.periodicity import findfrequency, precise_period, sazed, seasonlength

DETECTORS = {
    "PrecisePeriod": precise_period,
    "findFrequency": findfrequency,
    "seasonLength": seasonlength,
    "SAZED_opt": partial(sazed, variant="opt"),
    "SAZED_maj": partial(sazed, variant="maj"),
}
each = pytest.mark.parametrize("detect", DETECTORS.values(), ids=DETECTORS.keys())

#: x_t = sin(2π t / 20), t = 0..399: x_{t+20} = x_t exactly, and no shorter shift repeats the
#: series (sin(2π k / 20) = 0 only at k = 0, 10, and at k = 10 the sign flips), so the period is
#: 20 samples; the 20 whole cycles leave every method enough of them.
SINE_PERIOD = 20
SINE = np.sin(2 * np.pi * np.arange(400) / SINE_PERIOD)


@each
def test_finds_the_period_of_a_pure_sine(detect):
    assert detect(SINE) == SINE_PERIOD


@each
def test_same_answer_every_time_from_a_list_or_an_array_and_input_kept(detect):
    rng = np.random.default_rng(1)
    x = np.sin(2 * np.pi * np.arange(300) / 30) + rng.normal(0, 0.3, 300)
    before = x.copy()
    first = detect(x)
    assert detect(x) == first and detect(x.tolist()) == first
    assert first is None or (isinstance(first, int) and first >= 2)
    assert np.array_equal(x, before)


@each
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_values_are_rejected_naming_x(detect, bad):
    x = SINE.copy()
    x[17] = bad
    with pytest.raises(ValueError, match=r"^x has 1 NaN or infinite values"):
        detect(x)


@each
@pytest.mark.parametrize("short", [[], [3.0]])
def test_too_short_is_rejected_naming_x(detect, short):
    with pytest.raises(ValueError, match=rf"^x has {len(short)} values; a series needs at least 2"):
        detect(short)


@each
@pytest.mark.parametrize("wrong", ["a series", {"a": 1.0}, ["1.0", "two"], object()])
def test_wrong_type_is_rejected_naming_x(detect, wrong):
    with pytest.raises(TypeError, match=r"^x must be a 1-D series of numbers, got "):
        detect(wrong)


@each
@pytest.mark.parametrize("shape", [(), (20, 20)])
def test_not_one_dimensional_is_rejected_naming_x(detect, shape):
    with pytest.raises(ValueError, match=r"^x must be a 1-D series, got an array of shape"):
        detect(np.ones(shape))


@each
@pytest.mark.parametrize("x", [[1.0, 2.0], np.full(200, 4.2)], ids=["two values", "constant"])
def test_no_period_in_a_two_value_or_constant_series(detect, x):
    assert detect(x) is None
