"""findFrequency port vs R's documented outputs and hand-worked cases, and R's own function as
the oracle where R and forecast are installed."""

import os
import shutil

import numpy as np
import pytest

from storrepro.papers.periodicity.examples import LH, USACCDEATHS
from storrepro.papers.periodicity.findfrequency import (
    ArFit,
    RUnavailable,
    ar_yw,
    detrend_ols,
    findfrequency,
    findfrequency_r,
    levinson_durbin,
    r_findfrequency,
    spec_ar,
)


def test_ar_lh_matches_r_documented_fit():
    # R: ar(lh) -> order 3, coefficients 0.6534 -0.0636 -0.2269, sigma^2 0.1959
    fit = ar_yw(LH)
    assert fit.order == 3
    assert np.round(fit.ar, 4).tolist() == [0.6534, -0.0636, -0.2269]
    assert round(fit.var_pred, 4) == 0.1959


def test_findfrequency_usaccdeaths_is_12():
    assert findfrequency(USACCDEATHS) == 12


def test_levinson_durbin_ar1_closed_form():
    # autocovariances of an AR(1) with phi = 0.5, sigma^2 = 1: gamma_k = 0.5^k / 0.75
    r = 0.5 ** np.arange(4) / 0.75
    coefs, variances = levinson_durbin(r, 3)
    assert coefs[0, 0] == pytest.approx(0.5)
    assert np.allclose(coefs[2, :3], [0.5, 0, 0], atol=1e-12)
    assert np.allclose(variances, 1.0)


def test_order_max_and_aic_as_r():
    x = np.random.default_rng(0).normal(size=200)
    fit = ar_yw(x)
    assert fit.aic.size == 1 + min(199, int(np.floor(10 * np.log10(200))))  # 0..23
    assert fit.aic.min() == 0 and fit.order == int(np.argmin(fit.aic))


def test_spec_ar_flat_for_order_zero_and_ar1_formula():
    freq, spec = spec_ar(ArFit(0, np.zeros(0), 2.0, np.zeros(1), np.zeros(0)))
    assert freq.size == 500 and freq[0] == 0 and freq[-1] == 0.5 and np.all(spec == 2.0)
    freq, spec = spec_ar(ArFit(1, np.array([0.5]), 1.0, np.zeros(2), np.zeros(1)))
    # at f = 0: 1/(1 - 0.5)^2 = 4; at f = 0.5: 1/(1 + 0.5)^2 = 4/9
    assert spec[0] == pytest.approx(4.0) and spec[-1] == pytest.approx(4 / 9)


def test_detrend_removes_a_line_exactly():
    t = np.arange(50.0)
    assert np.allclose(detrend_ols(3 + 0.2 * t), 0, atol=1e-10)


def test_threshold_is_absolute_so_scale_matters():
    t = np.arange(240)
    y = np.sin(2 * np.pi * t / 12)
    assert findfrequency(100 * y) == 12
    assert findfrequency(0.01 * y) is None  # spectrum max below 10: R returns 1


@pytest.mark.parametrize("x", [[1.0, 2.0], [5.0] * 40])  # empty: the contract test
def test_short_or_constant_series_give_none(x):
    assert findfrequency(x) is None


@pytest.mark.parametrize("x", [[1.0, np.nan, 3.0, 4.0], np.ones((4, 4))])
def test_bad_input_raises(x):
    with pytest.raises(ValueError, match="x"):
        findfrequency(x)


HAS_R = shutil.which("Rscript") is not None


@pytest.mark.skipif(not HAS_R, reason="needs R and forecast (Debian: r-base-core, r-cran-forecast)")
def test_r_oracle_runs_every_series_in_one_process_with_exact_values():
    rng = np.random.default_rng(3)
    t = np.arange(240)
    series = [USACCDEATHS, LH, 50 * np.sin(2 * np.pi * t / 7) + rng.normal(0, 1, t.size),
              rng.normal(0, 1, 100), 1e-9 * np.sin(2 * np.pi * t / 12) + 0.1]
    periods, versions = r_findfrequency(series)
    assert versions.startswith("R ") and " forecast " in versions
    assert periods[0] == 12 and periods[3] == 1  # USAccDeaths; white noise: no period
    assert periods == [findfrequency_r(x) for x in series]


def test_without_r_or_forecast_the_oracle_says_how_to_install_them(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(RUnavailable, match="no Rscript on PATH.*install r-base-core r-cran"):
        r_findfrequency([USACCDEATHS])
    monkeypatch.undo()
    fake = tmp_path / "Rscript"  # an R without the forecast package
    fake.write_text("#!/bin/sh\necho \"Error in library(forecast) : there is no package called "
                    "'forecast'\" >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(RUnavailable, match="no package called 'forecast'.*r-cran-forecast"):
        r_findfrequency([USACCDEATHS])
