"""Characterization of each seed's window (F1–F4): its autocorrelations, its trend's mean per
calendar day and the k-means clusters of its days."""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.tsa.stattools import acf, pacf

from storrepro.papers.vdi import forecast as fc
from storrepro.papers.vdi.seeds import DAY, TREND_DAYS, WINDOW_DAYS, SeedTrace, day_clusters


def calendar_day_means(values: np.ndarray, times: pd.DatetimeIndex) -> np.ndarray:
    """Mean of ``values`` per calendar date (midnight to midnight) for the window's Wednesday
    to Monday, in that order: the window runs from Wednesday 07:00 to Tuesday 07:00, so
    grouping by its 07:00-aligned days would put Saturday's small hours into "Friday" and
    Tuesday's morning into "Monday"."""
    values = np.asarray(values, dtype=float)
    if values.shape != (len(times),):
        raise ValueError(f"values must have one entry per time, got {values.shape}")
    frame = pd.Series(values, index=times)
    by_date = frame.groupby(times.normalize()).mean()
    names = by_date.index.day_name().str[:3]
    out = [by_date[names == day] for day in TREND_DAYS]
    if any(len(x) != 1 for x in out):
        raise ValueError(f"times must cover each of {TREND_DAYS} once, got {list(names)}")
    return np.array([float(x.iloc[0]) for x in out])


def characterize(st: SeedTrace, rng: np.random.Generator) -> dict:
    y = st.window()
    r = acf(y, nlags=300, fft=True)
    trend, _ = fc.decompose(y)
    means = calendar_day_means(trend, st.times)  # Wed Thu Fri Sat Sun Mon, calendar dates
    mid = means[:3].mean()
    window_labels = day_clusters(y.reshape(WINDOW_DAYS, DAY).mean(axis=1), rng)
    return {
        "acf": r,
        "pacf": pacf(y, nlags=300, method="ldadjusted"),  # Levinson–Durbin: fast at 300 lags
        "acf_argmax": int(36 + np.argmax(r[36:301])),
        "acf144": float(r[144]),
        "acf72": float(r[72]),
        "lag144_r": float(np.corrcoef(y[:-144], y[144:])[0, 1]),
        "trend_means": means,
        "wtf_spread": float(np.max(np.abs(means[:3] / mid - 1))),
        "weekend_ratio": float(max(means[3], means[4]) / mid),
        "monday_ratio": float(means[5] / mid),
        "window_labels": window_labels,
        "kmeans_ok": bool(
            (window_labels[3] == window_labels[4])
            and np.all(window_labels[[0, 1, 2, 5]] != window_labels[3])
        ),
    }
