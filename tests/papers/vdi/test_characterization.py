"""Each seed's characterization (:mod:`storrepro.papers.vdi.experiment.characterization`): F3's
trend grouped by calendar date, not by the window's 07:00-aligned days."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.vdi import forecast as fc
from storrepro.papers.vdi.experiment.characterization import calendar_day_means, characterize
from storrepro.papers.vdi.seeds import WINDOW_DAY, seed_trace
from storrepro.suite.parallel import task_rng

WINDOW = pd.date_range("2016-02-24 07:00", periods=864, freq="600s")


def test_trend_is_grouped_by_calendar_date_not_by_the_windows_07_00_days():
    # 1 on calendar Friday (00:00-24:00), 0 elsewhere: by calendar date Friday's mean is 1;
    # the 07:00-aligned "Friday" (Fri 07:00 - Sat 07:00) would see 17/24 of it
    values = np.where(WINDOW.normalize() == pd.Timestamp("2016-02-26"), 1.0, 0.0)
    means = calendar_day_means(values, WINDOW)
    np.testing.assert_allclose(means, [0, 0, 1, 0, 0, 0])
    by_0700 = values.reshape(6, 144).mean(axis=1)
    assert by_0700[2] == pytest.approx(17 / 24)
    # Wednesday is the partial day 07:00-24:00; Tuesday's 7 hours are left out
    ramp = np.arange(864, dtype=float)
    assert calendar_day_means(ramp, WINDOW)[0] == pytest.approx(ramp[:102].mean())
    with pytest.raises(ValueError, match="one entry per time"):
        calendar_day_means(values[:-1], WINDOW)


def test_characterize_uses_calendar_dates():
    _, st = seed_trace(0, 0)
    char = characterize(st, task_rng(0, ("t", 0)))
    trend, _ = fc.decompose(st.window())
    np.testing.assert_allclose(char["trend_means"], calendar_day_means(trend, st.times))
    assert st.times[0] == pd.Timestamp("2016-02-24 07:00") and WINDOW_DAY == 28
