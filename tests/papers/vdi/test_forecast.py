"""VDI forecasters and error metrics against hand-worked numbers and series with known answers."""

import numpy as np
import pytest

from storrepro.papers.vdi import forecast as fc

P = 8  # a short season keeps the hand-worked cases readable


def seasonal(days, period=P):
    return np.tile(10 + 5 * np.sin(2 * np.pi * np.arange(period) / period), days)


def test_smape_mpe_and_cumulative_error_on_hand_worked_numbers():
    actual, forecast = np.array([100.0, 200.0]), np.array([110.0, 150.0])
    # |F−A| / ((|A|+|F|)/2): 10/105 and 50/175, mean (0.095238 + 0.285714)/2 = 0.190476
    assert fc.smape(actual, forecast) == pytest.approx(19.047619, rel=1e-6)
    # |F−A| / (|A|+|F|): half of that
    assert fc.smape(actual, forecast, 100) == pytest.approx(9.5238095, rel=1e-6)
    # (100-110)/100 = -0.1, (200-150)/200 = 0.25 -> mean 0.075
    assert fc.mpe(actual, forecast) == pytest.approx(7.5)
    # cumulative: -10/100, (−10+50)/300
    np.testing.assert_allclose(fc.cumulative_error(actual, forecast), [-0.1, 40 / 300])


def test_smape_edge_cases():
    assert fc.smape([0.0, 10.0], [0.0, 10.0]) == 0.0  # both zero counts as exact
    assert fc.smape([1.0, 2.0], [np.nan, 2.0]) == 200.0  # a divergent forecast is the worst
    with pytest.raises(ValueError, match="variant"):
        fc.smape([1.0], [1.0], variant=50)
    with pytest.raises(ValueError, match="equal length"):
        fc.smape([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="actual values > 0"):
        fc.mpe([0.0, 1.0], [1.0, 1.0])


def test_ewma_matches_the_papers_recursion():
    rows = np.array([[1.0], [3.0], [5.0]])
    # S1 = 1, S2 = 0.5*3 + 0.5*1 = 2, S3 = 0.5*5 + 0.5*2 = 3.5
    assert fc.ewma_rows(rows, 0.5)[0] == pytest.approx(3.5)


@pytest.mark.parametrize(
    "model",
    [fc.ProposedEWMA(period=P), fc.SeasonalNaive(period=P), fc.ArimaCSS(p=P, q=2)],
    ids=["proposed", "seasonal-naive", "arima"],
)
def test_a_pure_seasonal_series_is_forecast_exactly(model):
    history = seasonal(4)
    np.testing.assert_allclose(model.forecast(history, 2 * P), seasonal(2), atol=1e-6)


def test_holt_winters_recovers_a_pure_seasonal_series():
    history = seasonal(6)
    forecast = fc.HoltWinters(period=P).forecast(history, P)
    assert fc.smape(seasonal(1), forecast) < 1.0


def test_holt_winters_follows_a_linear_trend():
    t = np.arange(6 * P, dtype=float)
    history = 100 + 2 * t + np.tile([3.0, -3.0] * (P // 2), 6)
    forecast = fc.HoltWinters(period=P).forecast(history, P)
    future = 100 + 2 * np.arange(6 * P, 7 * P) + np.tile([3.0, -3.0] * (P // 2), 1)
    assert fc.smape(future, forecast) < 2.0  # damping bends the line only slightly


def test_proposed_on_a_linear_trend_lags_as_the_ewma_says():
    # days with levels 10, 20, 30 (flat within the day): EWMA(α=0.5) = 0.25·10 + 0.25·20 + 0.5·30
    history = np.repeat([10.0, 20.0, 30.0], P)
    np.testing.assert_allclose(fc.ProposedEWMA(0.5, P).forecast(history, P), 22.5)


def test_proposed_calendar_uses_weekly_trend_and_cluster_season():
    # weekday cluster 0 has shape +-1 around its level; the target weekday's level was 50 then 70
    shape = np.tile([1.0, -1.0], P // 2)
    levels = [50.0, 10.0, 70.0, 10.0]
    history = np.concatenate([lvl + shape for lvl in levels])
    labels = np.array([0, 1, 0, 1])
    weekdays = np.array([3, 5, 3, 5])
    day = fc.ProposedEWMA(0.5, P).forecast_calendar(history, labels, weekdays, 0, 3)
    np.testing.assert_allclose(day, 60.0 + shape)  # EWMA(50, 70) = 60, plus the shape


def test_arima_recovers_ar2_coefficients():
    rng = np.random.default_rng(1)
    y = np.zeros(4000)
    for t in range(2, y.size):
        y[t] = 0.5 * y[t - 1] - 0.3 * y[t - 2] + rng.normal()
    fit = fc.ArimaCSS(p=2, q=0).fit(y + 100)  # shift: the constant absorbs the mean
    np.testing.assert_allclose(fit.ar, [0.5, -0.3], atol=0.05)
    assert fit.stable


def test_arima_flags_an_explosive_fit():
    y = 1.05 ** np.arange(60.0)  # a root inside the unit circle
    fit = fc.ArimaCSS(p=1, q=0).fit(y)
    assert not fit.stable and fit.max_root_modulus == pytest.approx(1.05, rel=1e-6)


def test_ridge_arima_keeps_a_stable_fit_and_chooses_from_its_grid():
    rng = np.random.default_rng(2)
    history = seasonal(8) + rng.normal(0, 0.5, 8 * P)
    model = fc.RidgeArimaCSS(p=P, q=2)
    assert model.choose(history) in fc.RIDGE_GRID
    assert model.fit(history).stable


@pytest.mark.parametrize(
    "make, history, message",
    [
        (lambda: fc.ProposedEWMA(period=P), seasonal(1)[:5], "at least"),
        (lambda: fc.ProposedEWMA(period=P), np.arange(P * 2 + 1.0), "multiple"),
        (lambda: fc.HoltWinters(period=P), seasonal(1), "at least"),
        (lambda: fc.ArimaCSS(p=P), seasonal(2), "at least"),
        (lambda: fc.SeasonalNaive(period=P), -seasonal(2), "IOPS >= 0"),
    ],
)
def test_bad_history_is_rejected(make, history, message):
    with pytest.raises(ValueError, match=message):
        make().forecast(history, P)


def test_bad_parameters_are_rejected():
    with pytest.raises(ValueError, match="alpha"):
        fc.ProposedEWMA(alpha=1.0)
    with pytest.raises(ValueError, match="p >= 1"):
        fc.ArimaCSS(p=0)
    with pytest.raises(ValueError, match="steps"):
        fc.SeasonalNaive(period=P).forecast(seasonal(1), 0)


def test_scores_refuse_non_finite_actuals_naming_them():
    with pytest.raises(ValueError, match="actual must hold finite numbers; entry 1 is nan"):
        fc.smape([1.0, float("nan")], [1.0, 1.0])
    with pytest.raises(ValueError, match="actual must hold finite numbers"):
        fc.mpe([float("inf"), 1.0], [1.0, 1.0])
    assert fc.smape([1.0, 2.0], [float("nan"), 2.0]) == 200.0  # a divergent forecast: the worst


@pytest.mark.parametrize("period", [0, -1, 2.5, float("nan"), "24", True])
def test_a_proposed_ewma_period_that_is_no_count_is_named(period):
    with pytest.raises(ValueError, match=f"period must be a whole number >= 1.*got {period!r}"):
        fc.ProposedEWMA(period=period)
    assert fc.ProposedEWMA(period=np.int64(4)).forecast(np.arange(8.0), 4).shape == (4,)
