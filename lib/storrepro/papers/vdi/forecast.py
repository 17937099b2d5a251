"""Forecasters of VDI IO intensity and their error metrics (paper §V-A, §VI-A).

Every forecaster is a small object with ``forecast(history, steps) -> array``: ``history`` is a
1-D series whose length is a whole number of seasons (for the cluster protocols of
:mod:`storrepro.papers.vdi.books`, the most recent days of one day cluster, concatenated, oldest
first).

- :class:`ProposedEWMA` — the paper's model: additive trend (day level) + season (intra-day
  deviation), an EWMA of the trend across weeks (same weekday; across same-cluster days when
  fewer than two weeks are available) and an EWMA of the season across same-cluster days.
- :class:`HoltWinters` — statsmodels triple exponential smoothing, additive, damped trend.
- :class:`ArimaCSS` — ARIMA(p, 0, q) fitted by two-stage least squares (Hannan–Rissanen): the
  statsmodels state-space MLE takes about 12 s per likelihood evaluation at p = 144, which makes
  it unusable. An unstable AR part is reported in ``stable``; such a fit is divergent (F9).
- :class:`SeasonalNaive` — yesterday's same slot.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from statsmodels.tsa.seasonal import seasonal_decompose

from storrepro.suite.checks import MAX_COUNT, finite, finite_array, whole

PERIOD = 144


def _check_series(name: str, values, min_length: int = 1) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    if array.size < min_length:
        raise ValueError(f"{name} has {array.size} points; at least {min_length} are needed")
    bad = np.flatnonzero(~np.isfinite(array) | (array < 0))
    if bad.size:
        raise ValueError(f"{name} must be finite IOPS >= 0, got {array[bad[0]]!r} at {bad[0]}")
    return array


def _check_period(period) -> None:
    """A forecaster's season length: a whole number of samples, at least one."""
    whole("period", period, minimum=1, maximum=MAX_COUNT)


def _check_steps(steps: int) -> int:
    return whole("steps", steps, minimum=1, maximum=MAX_COUNT)


# ---------------------------------------------------------------- error metrics


def _pair(actual, forecast) -> tuple[np.ndarray, np.ndarray]:
    """The series as float arrays; ``actual`` must be finite (a NaN there would silently score
    as a perfect forecast), a non-finite forecast is a divergent fit and scored as such."""
    a = finite_array("actual", actual, minimum=None)
    f = np.asarray(forecast, dtype=float)
    if a.shape != f.shape or a.ndim != 1 or a.size == 0:
        raise ValueError(
            f"actual and forecast must be 1-D of equal length, got {a.shape}, {f.shape}"
        )
    return a, f


def smape(actual, forecast, variant: int = 200) -> float:
    """Symmetric MAPE in %: ``variant=200`` uses ``|F−A| / ((|A|+|F|)/2)`` (0–200 %),
    ``variant=100`` uses ``|F−A| / (|A|+|F|)`` (0–100 %). Bins where both are 0 count as 0."""
    if variant not in (100, 200):
        raise ValueError(f"variant must be 100 or 200, got {variant!r}")
    a, f = _pair(actual, forecast)
    if not np.all(np.isfinite(f)):
        return float(variant)  # a divergent forecast is the worst possible
    denom = np.abs(a) + np.abs(f)
    ratio = np.divide(np.abs(f - a), denom, out=np.zeros_like(a), where=denom > 0)
    return float(variant * ratio.mean())


def mpe(actual, forecast) -> float:
    """Mean percentage error ``100/n · Σ (A−F)/A`` in %; positive means under-prediction."""
    a, f = _pair(actual, forecast)
    if np.any(a == 0):
        raise ValueError("mpe needs actual values > 0")
    return float(100 * np.mean((a - f) / a))


def cumulative_error(actual, forecast) -> np.ndarray:
    """``Σ_{τ≤t} (A−F) / Σ_{τ≤t} A`` for every t (the paper's 'ε small' over a period)."""
    a, f = _pair(actual, forecast)
    with np.errstate(divide="ignore", invalid="ignore"):  # leading idle bins of a real trace
        return np.cumsum(a - f) / np.cumsum(a)


def scores(actual, forecast) -> dict[str, float]:
    """SMAPE (both variants), MPE and the final cumulative error; the MPE is NaN where it is
    undefined: a divergent forecast, or an idle bin (actual 0) of a real trace."""
    defined = np.all(np.isfinite(forecast)) and np.all(np.asarray(actual) > 0)
    return {
        "smape": smape(actual, forecast),
        "smape100": smape(actual, forecast, 100),
        "mpe": mpe(actual, forecast) if defined else float("nan"),
        "cum_err": float(cumulative_error(actual, forecast)[-1]),
    }


# ---------------------------------------------------------------- the paper's model


def ewma_rows(rows: np.ndarray, alpha: float) -> np.ndarray:
    """``S_1 = Y_1; S_t = α·Y_t + (1−α)·S_{t−1}`` down the first axis; returns the last S."""
    rows = np.asarray(rows, dtype=float)
    smooth = rows[0].copy()
    for row in rows[1:]:
        smooth = alpha * row + (1 - alpha) * smooth
    return smooth


def decompose(y: np.ndarray, period: int = PERIOD) -> tuple[np.ndarray, np.ndarray]:
    """Additive decomposition: (trend, season + residual), trend extrapolated at the ends."""
    period = whole("period", period, minimum=2, maximum=max(2, np.size(y) // 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        result = seasonal_decompose(y, period=period, model="additive", extrapolate_trend="freq")
    trend = np.asarray(result.trend)
    return trend, y - trend


@dataclass(frozen=True)
class ProposedEWMA:
    """EWMA trend + EWMA season (the paper's equation for S_t; trend and season as we read
    them in :meth:`forecast_calendar`)."""

    alpha: float = 0.5
    period: int = PERIOD
    name: str = "proposed"

    def __post_init__(self):
        if not 0 < finite("alpha", self.alpha, maximum=1.0) < 1:
            raise ValueError(f"alpha must be in (0, 1), got {self.alpha!r}")
        _check_period(self.period)

    def forecast(self, history, steps: int) -> np.ndarray:
        """History = same-cluster days only, so the trend EWMA runs across those days (our
        reading when there are no two weeks of the same weekday)."""
        y = _check_series("history", history, self.period)
        if y.size % self.period:
            raise ValueError(f"history length {y.size} must be a multiple of {self.period}")
        labels = np.zeros(y.size // self.period, dtype=int)
        day = self.forecast_calendar(y, labels, None, 0, None)
        return np.resize(day, _check_steps(steps))

    def forecast_calendar(
        self,
        history,
        labels: np.ndarray,
        weekdays: np.ndarray | None,
        target_label: int,
        target_weekday: int | None,
    ) -> np.ndarray:
        """One day ahead from a history of whole days with their cluster labels and weekdays.

        Trend = each day's level (its mean); season = the day's deviation from its level. The
        trend index is an EWMA of the level over the same weekday of previous weeks when two or
        more exist (the paper's weekly cycle), else over same-cluster days; the season index is
        an EWMA of the deviation over same-cluster days (the daily cycle). The level is the
        day's mean rather than the centred moving average of ``seasonal_decompose``, which
        leaks the next day's level into a day's edges (a Friday evening sees Saturday) and then
        drove calendar forecasts negative at night. Within one cluster both choices reduce to
        an EWMA of whole days, slot by slot.
        """
        y = _check_series("history", history, self.period)
        if y.size % self.period:
            raise ValueError(f"history length {y.size} must be a multiple of {self.period}")
        days = y.size // self.period
        labels = np.asarray(labels)
        if labels.shape != (days,):
            raise ValueError(f"labels must give one cluster per day ({days}), got {labels.shape}")
        rows = y.reshape(days, self.period)
        level = rows.mean(axis=1, keepdims=True)
        cluster = labels == target_label
        if not cluster.any():
            raise ValueError(f"no history day has the target cluster {target_label!r}")
        season = ewma_rows(rows[cluster] - level[cluster], self.alpha)
        same_day = (
            np.asarray(weekdays) == target_weekday
            if weekdays is not None and target_weekday is not None
            else np.zeros(days, dtype=bool)
        )
        trend_rows = level[same_day] if same_day.sum() >= 2 else level[cluster]
        return np.maximum(ewma_rows(trend_rows, self.alpha) + season, 0.0)


# ---------------------------------------------------------------- baselines


@dataclass(frozen=True)
class SeasonalNaive:
    period: int = PERIOD
    name: str = "seasonal-naive"

    def __post_init__(self):
        _check_period(self.period)

    def forecast(self, history, steps: int) -> np.ndarray:
        y = _check_series("history", history, self.period)
        return np.resize(y[-self.period :], _check_steps(steps))


@dataclass(frozen=True)
class HoltWinters:
    """Triple exponential smoothing: additive trend (damped) and season, estimated start
    (the 144 initial season states are fitted with the smoothing weights, by least squares)."""

    period: int = PERIOD
    name: str = "holt-winters"

    def __post_init__(self):
        _check_period(self.period)

    def forecast(self, history, steps: int) -> np.ndarray:
        from statsmodels.tsa.holtwinters import ExponentialSmoothing

        y = _check_series("history", history, 2 * self.period)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # convergence chatter from the optimizer
            model = ExponentialSmoothing(
                y,
                trend="add",
                damped_trend=True,
                seasonal="add",
                seasonal_periods=self.period,
                initialization_method="estimated",
            ).fit(method="least_squares")  # same model, 2-3x faster than L-BFGS, lower SSE
            return np.maximum(np.asarray(model.forecast(_check_steps(steps))), 0.0)


@dataclass(frozen=True)
class ArimaFit:
    """A fitted ARIMA(p,0,q): ``y_t = c + Σ φ_i y_{t−i} + Σ θ_j e_{t−j} + e_t``."""

    const: float
    ar: np.ndarray
    ma: np.ndarray
    last_values: np.ndarray  # the last p observations, oldest first
    last_errors: np.ndarray  # the last q residuals, oldest first

    @cached_property
    def max_root_modulus(self) -> float:
        """Largest |eigenvalue| of the AR companion matrix (1 / smallest |root|)."""
        p = self.ar.size
        companion = np.zeros((p, p))
        companion[0] = self.ar
        companion[1:, :-1] = np.eye(p - 1)
        return float(np.max(np.abs(np.linalg.eigvals(companion))))

    @property
    def stable(self) -> bool:
        """All AR roots outside the unit circle. Σ|φ| < 1 is sufficient (every eigenvalue z of
        the companion has |z| ≤ Σ|φ_i| when |z| ≥ 1) and spares the eigenvalues."""
        return bool(np.abs(self.ar).sum() < 1.0 or self.max_root_modulus < 1.0)

    def forecast(self, steps: int) -> np.ndarray:
        p, q = self.ar.size, self.ma.size
        values = list(self.last_values)
        errors = list(self.last_errors) + [0.0] * _check_steps(steps)
        out = np.empty(steps)
        with np.errstate(over="ignore", invalid="ignore"):  # an explosive fit may overflow
            for k in range(steps):
                lags = np.asarray(values[-1 : -p - 1 : -1])
                ma = np.asarray(errors[k : k + q][::-1]) if q else np.zeros(0)
                out[k] = self.const + self.ar @ lags + self.ma @ ma
                values.append(out[k])
        return out


def _least_squares(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """OLS of y on [1, x]; with ``ridge > 0`` the slopes are shrunk by ``ridge · n · mean
    regressor variance`` (the constant is not penalized). Returns [const, slopes...]."""
    if ridge == 0:
        beta, *_ = np.linalg.lstsq(np.column_stack([np.ones(len(y)), x]), y, rcond=None)
        return beta
    xm, ym = x.mean(axis=0), y.mean()
    xc = x - xm
    gram = xc.T @ xc
    penalty = ridge * np.trace(gram) / x.shape[1]
    if penalty == 0:  # no regressor varies (a constant history): the shrunk slopes are 0
        return np.concatenate([[ym], np.zeros(x.shape[1])])
    slopes = np.linalg.solve(gram + penalty * np.eye(x.shape[1]), xc.T @ (y - ym))
    return np.concatenate([[ym - xm @ slopes], slopes])


@dataclass(frozen=True)
class ArimaCSS:
    """ARIMA(p, 0, q) by Hannan–Rissanen two-stage least squares (the state-space fit is far
    too slow at p = 144).

    Stage 1: OLS AR(p) with a constant, giving residuals e. Stage 2: OLS of y_t on p lags, q
    lagged residuals and a constant. Forecast recursively with future shocks at zero. Needs
    at least 3p points so that stage 2 has more rows than regressors. ``ridge`` > 0 shrinks the
    slopes in both stages: our labelled fix for explosive fits, reported beside the plain one.
    """

    p: int = PERIOD
    q: int = 2
    ridge: float = 0.0
    name: str = "arima"

    def __post_init__(self):
        if self.p < 1 or self.q < 0:
            raise ValueError(f"need p >= 1 and q >= 0, got p={self.p!r}, q={self.q!r}")
        if not self.ridge >= 0:
            raise ValueError(f"ridge must be >= 0, got {self.ridge!r}")

    def fit(self, history) -> ArimaFit:
        p, q = self.p, self.q
        y = _check_series("history", history, 3 * p)
        n = y.size
        lagged = np.column_stack([y[p - i : n - i] for i in range(1, p + 1)])  # rows t = p..n-1
        beta1 = _least_squares(lagged, y[p:], self.ridge)
        e = np.zeros(n)
        e[p:] = y[p:] - beta1[0] - lagged @ beta1[1:]
        ma_cols = [e[p + q - j : n - j] for j in range(1, q + 1)]  # rows t = p+q..n-1
        x2 = np.column_stack([lagged[q:], *ma_cols])
        beta2 = _least_squares(x2, y[p + q :], self.ridge)
        const, ar, ma = beta2[0], beta2[1 : p + 1], beta2[p + 1 :]
        resid = y[p + q :] - const - x2 @ beta2[1:]
        return ArimaFit(float(const), ar, ma, y[-p:].copy(), resid[resid.size - q :].copy())

    def forecast(self, history, steps: int) -> np.ndarray:
        return self.fit(history).forecast(steps)


#: Ridge strengths tried by :class:`RidgeArimaCSS`; 0 lets a stable plain fit win.
RIDGE_GRID = (0.0, 1e-3, 1e-2, 1e-1, 1.0)


@dataclass(frozen=True)
class RidgeArimaCSS:
    """:class:`ArimaCSS` with the ridge strength chosen on the training days: fit on all but
    the last season for every value of ``grid``, keep the stable fit with the lowest SMAPE on
    that held-out season, refit on everything (moving up the grid while the refit is
    explosive). Needs 3p + one season of history."""

    p: int = PERIOD
    q: int = 2
    grid: tuple[float, ...] = RIDGE_GRID
    name: str = "arima-ridge"

    def choose(self, history) -> float:
        y = _check_series("history", history, 3 * self.p + self.p)
        train, held = y[: -self.p], y[-self.p :]
        fits = [ArimaCSS(self.p, self.q, ridge).fit(train) for ridge in self.grid]
        scores = [smape(held, fit.forecast(self.p)) for fit in fits]
        for i in np.argsort(scores, kind="stable"):  # check stability only as far as needed
            if fits[i].stable:
                return self.grid[i]
        return self.grid[-1]

    def fit(self, history) -> ArimaFit:
        chosen = self.choose(history)
        for ridge in [r for r in self.grid if r >= chosen]:
            fit = ArimaCSS(self.p, self.q, ridge).fit(history)
            if fit.stable:
                break
        return fit

    def forecast(self, history, steps: int) -> np.ndarray:
        return self.fit(history).forecast(steps)


FORECASTERS = {
    "proposed": ProposedEWMA,
    "holt-winters": HoltWinters,
    "arima": ArimaCSS,
    "arima-ridge": RidgeArimaCSS,
    "seasonal-naive": SeasonalNaive,
}
