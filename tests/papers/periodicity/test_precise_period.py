"""PrecisePeriod: check A1, each step on hand-built cases, the ablations and bad input."""

import numpy as np
import pytest

from storrepro.papers.periodicity.precise_period import (
    PrecisePeriod,
    acf_lagged_pearson,
    acf_peak,
    acf_unbiased,
    aggregate,
    decide,
    dwt_lowpass,
    forecast,
    level_set,
    pcc,
    precise_period,
    preprocess,
    single_verification,
    tukey_flags,
)


def sine(period, n=1000):
    return np.sin(2 * np.pi * np.arange(n) / period)


def test_a1_noiseless_sines_exact():
    periods = range(50, 201, 5)
    found = {t: precise_period(sine(t)) for t in periods}
    exact = sum(found[t] == t for t in periods)
    wrong = sum(v is not None and v != t for t, v in found.items())
    assert exact >= 0.95 * len(periods) and wrong <= 1


# ---- step 1
def test_tukey_flags_hand_worked():
    d = np.array([0.0, 1, 2, 3, 4, 5, 6, 7, 100, -100])
    # Q1 = 1.5... computed by numpy: fences far from 0..7, so only the two extremes are flagged
    assert tukey_flags(d).tolist() == [0, 0, 0, 0, 0, 0, 0, 0, 1, -1]


def flat_with_noise(n=60):
    return 10 + 0.1 * np.sin(np.arange(n))


def test_single_dip_is_replaced_by_the_neighbours_mean():
    x = flat_with_noise()
    x[30] = 0.0  # log loss: drop then rise
    y, found = preprocess(x)
    assert found.dips == ((30, 30),) and not found.bursts
    assert y[30] == pytest.approx(np.mean([x[28], x[29], x[31], x[32]]))
    assert np.array_equal(np.delete(y, 30), np.delete(x, 30))


def test_two_sample_dip_is_type_a():
    x = flat_with_noise()
    x[20:22] = 0.0
    y, found = preprocess(x)
    assert found.dips == ((20, 21),)
    assert y[20] == y[21] == pytest.approx(np.mean([x[18], x[19], x[22], x[23]]))


def test_single_spike_is_kept_as_an_instantaneous_peak():
    x = flat_with_noise()
    x[40] = 30.0
    y, found = preprocess(x)
    assert found.bursts == ((40, 40),) and not found.dips
    assert np.array_equal(y, x)


def test_jagged_burst_becomes_rise_then_fall_keeping_the_peak():
    x = flat_with_noise()
    x[30:36] += np.array([5.0, 12.0, 3.0, 20.0, 4.0, 9.0])
    y, found = preprocess(x)
    assert len(found.bursts) == 1 and not found.dips
    lo, hi = found.bursts[0]
    assert lo <= 33 <= hi
    assert y[33] == x[33]  # peak height kept
    up, down = np.diff(y[lo - 1 : 34]), np.diff(y[33 : hi + 2])
    assert np.allclose(up, up[0]) and up[0] > 0  # uniform rise
    assert np.allclose(down, down[0]) and down[0] < 0  # uniform fall
    assert y[lo - 1] == x[lo - 1] and y[hi + 1] == x[hi + 1]  # ends (net change) kept


def test_level_shift_is_kept():
    x = np.concatenate([np.full(30, 1.0), np.full(30, 9.0)]) + 0.01 * np.sin(np.arange(60))
    y, found = preprocess(x)
    assert np.array_equal(y, x) and not found.dips and not found.bursts


# ---- step 2
def test_dwt_level0_is_identity_and_lowpass_keeps_slow_sines():
    x = sine(64, 512) + 0.3 * np.sin(2 * np.pi * np.arange(512) / 4)
    assert np.array_equal(dwt_lowpass(x, 0), x)
    low = dwt_lowpass(x, 2)  # removes periods below about 8 samples
    assert low.size == x.size
    assert np.abs(low - sine(64, 512)).max() < 0.1


def test_dwt_handles_odd_lengths_and_level_set():
    x = sine(30, 301)
    assert dwt_lowpass(x, 3).size == 301
    assert level_set(1000) == [0, 1, 2, 3, 4, 5]
    assert level_set(1000, level0=False, jmax=3) == [1, 2, 3]
    assert level_set(20) == [0, 1]  # pywt's maximum useful level for db4 at n = 20


# ---- step 3
def test_acf_estimators_hand_worked():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    # Eq. (5), lag 1: mean 2.5, var 1.25; sum (-1.5*-0.5 + -0.5*0.5 + 0.5*1.5) / (3 * 1.25)
    assert acf_unbiased(x, 1)[1] == pytest.approx(1.25 / 3.75)
    assert acf_lagged_pearson(x, 1)[1] == pytest.approx(1.0)  # a line is perfectly correlated
    r = np.random.default_rng(0).normal(size=80)
    assert acf_lagged_pearson(r, 5)[5] == pytest.approx(np.corrcoef(r[:-5], r[5:])[0, 1])


def test_acf_peak_finds_the_period_and_none_for_noise_free_constant():
    assert acf_peak(sine(25, 300), 150) == 25
    assert acf_peak(np.ones(50), 25) is None


def test_aggregation_rules():
    assert aggregate([12, 12, 24, 12, 6]) == [12]  # repeated -> mode
    assert aggregate([12, 12, 24, 24, 7]) == [12, 24]  # several modes
    assert aggregate([10, 11, 30, 33]) == [10, 32]  # polarized: one median per group (31.5 -> 32)
    assert aggregate([50, 52, 55, 57]) == [54]  # mean of the rest (53.5 -> 54, half to even)
    assert aggregate([10, 11, 30, 33], how="all") == [10, 11, 30, 33]
    assert aggregate([]) == []


# ---- step 4
def test_forecast_is_the_mean_of_three_periods():
    history = np.array([1.0, 2, 3, 4, 5, 6, 7, 8, 9])  # period 3: cycles (1,2,3) (4,5,6) (7,8,9)
    assert forecast(history, 3, 4).tolist() == [4.0, 5.0, 6.0, 4.0]
    # within one period (the sliced path), also behind older history
    assert forecast(history, 3, 3).tolist() == [4.0, 5.0, 6.0]
    assert forecast(np.concatenate([[100.0], history]), 3, 2).tolist() == [4.0, 5.0]
    noisy = np.random.default_rng(1).random(40)
    for period in (1, 5, 13):  # both paths, the same bits on their common horizon
        assert forecast(noisy, period, period).tobytes() == forecast(noisy, period,
                                                                     3 * period)[:period].tobytes()
    with pytest.raises(ValueError, match="history"):
        forecast(history, 4, 2)


def test_pcc_hand_worked_and_zero_variance():
    assert pcc(np.array([1.0, 2, 3]), np.array([2.0, 4, 6])) == pytest.approx(1.0)
    assert pcc(np.array([1.0, 2, 3]), np.array([3.0, 2, 1])) == pytest.approx(-1.0)
    assert np.isnan(pcc(np.ones(3), np.array([1.0, 2, 3])))


def test_noise_is_not_given_a_period():
    rng = np.random.default_rng(1)
    found = [precise_period(rng.normal(size=500)) for _ in range(10)]
    assert sum(f is not None for f in found) <= 1


def test_trace_and_decide_agree_with_detect_for_every_theta():
    rng = np.random.default_rng(2)
    x = sine(60) + rng.normal(0, 0.5, 1000)
    trace = list(PrecisePeriod().windows(x, stop_at_first=False))
    for theta in (0.5, 0.7, 0.9):
        assert decide(trace, theta) == precise_period(x, theta=theta)


def test_preprocessing_rescues_a_series_with_dips():
    x = 5 + sine(40, 600)
    x[np.arange(17, 600, 23)] = -20.0  # frequent capture losses
    assert precise_period(x) == 40


def test_single_verification_on_a_sine_and_its_gate():
    # every multiple of 50 predicts a pure sine perfectly in-sample; the whole-series ACF
    # (lags up to N/2) may pick any of them: the "prefers long periods" the paper describes
    found = single_verification(sine(50))
    assert found is not None and found % 50 == 0
    rng = np.random.default_rng(3)
    assert single_verification(rng.normal(size=400)) is None


@pytest.mark.parametrize("x", [[1.0] * 5, [2.0] * 200])  # empty: the contract test
def test_short_or_constant_series_give_none(x):
    assert precise_period(x) is None and single_verification(x) is None


@pytest.mark.parametrize("x", [[1.0, np.nan] * 20, np.ones((3, 3))])
def test_bad_series_raise(x):
    with pytest.raises(ValueError, match="x"):
        precise_period(x)


@pytest.mark.parametrize(
    "field, value",
    [
        ("theta", 0.0),
        ("theta", 1.5),
        ("wavelet", "nope"),
        ("jmax", 0),
        ("kmax_fraction", 0.8),
        ("aggregation", "vote"),
        ("acf", "biased"),
        ("on_fail", "guess"),
        ("fail_patience", 0),
    ],
)
def test_bad_configuration_names_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        PrecisePeriod(**{field: value})


# ---------------------------------------------------------------- issue 16: horizon, readings
import importlib  # noqa: E402

# the module (the package re-exports a function of the same name)
ppm = importlib.import_module("storrepro.papers.periodicity.precise_period")


def test_min_verification_horizon_is_where_a_chance_pcc_of_theta_gets_rare():
    assert ppm.min_verification_horizon(0.7, 0.01) == ppm.MIN_HORIZON == 11
    assert ppm.min_verification_horizon(0.7, 0.05) < 11 < ppm.min_verification_horizon(0.5)


def _pcc_lengths(monkeypatch, x, **config):
    seen = []
    real = ppm.pcc

    def spy(a, b):
        seen.append(min(a.size, b.size))
        return real(a, b)

    monkeypatch.setattr(ppm, "pcc", spy)
    list(ppm.PrecisePeriod(**config).windows(x, stop_at_first=False))
    monkeypatch.setattr(ppm, "pcc", real)
    return seen


def test_no_verification_pcc_rests_on_fewer_samples_than_the_minimum_horizon(monkeypatch):
    # a short period-2 alternation: its short candidates used to be verified on T samples
    rng = np.random.default_rng(1)
    x = np.tile([1.0, -1.0], 40) + 0.3 * rng.normal(size=80)
    assert min(_pcc_lengths(monkeypatch, x, min_horizon=1)) < ppm.MIN_HORIZON  # the old defect
    for reading in ppm.VERIFICATIONS:
        assert min(_pcc_lengths(monkeypatch, x, verification=reading)) >= ppm.MIN_HORIZON
    found = ppm.precise_period(x)  # a short real period is still found, on 11+ samples
    assert found is not None and found % 2 == 0


def test_the_stability_check_looks_three_accuracy_horizons_ahead(monkeypatch):
    # period 4 < 11: the accuracy check on 11 samples, the stability check on 33 (not 12 or
    # the same 11); with no minimum, the paper's T and 3T
    x = np.tile([0.0, 1.0, 0.0, -1.0], 100)

    def first_window(**config):  # the PCC lengths of the first window, which verifies T = 4
        seen, real = [], ppm.pcc
        monkeypatch.setattr(ppm, "pcc", lambda a, b: seen.append(a.size) or real(a, b))
        window = next(ppm.PrecisePeriod(**config).windows(x))
        monkeypatch.setattr(ppm, "pcc", real)
        assert window.best == 4 and window.stability == pytest.approx(1.0)
        return seen

    assert first_window()[-1] == 33 and 11 in first_window()
    assert first_window(min_horizon=1)[-1] == 12 and 4 in first_window(min_horizon=1)


def test_raw_reading_scores_the_forecast_against_the_raw_future():
    x = np.sin(2 * np.pi * np.arange(600) / 50)
    x[[470, 471, 520, 521, 575]] -= 8.0  # log-loss dips, which preprocessing fills
    raw = ppm.PrecisePeriod(verification="raw")
    full = raw.clean(x)
    assert np.array_equal(raw.target_of(full, 400, 50, x), x[400:])
    assert np.array_equal(raw.forecast_source(full[:400], 50), full[:400])
    # single verification scores its in-sample forecast against the raw series too
    assert ppm.single_verification_best(x, verification="raw")[1] < \
        ppm.single_verification_best(x)[1]


def test_reading_fields_of_every_reading_key():
    assert ppm.HORIZONS == {"none": 1, "7": 7, "11": ppm.MIN_HORIZON}
    assert ppm.HORIZONS["7"] == ppm.min_verification_horizon(0.7, 0.05)
    assert ppm.reading_fields("min_horizon=7") == {"min_horizon": 7}
    assert ppm.reading_fields("min_horizon=none") == {"min_horizon": 1}
    assert ppm.reading_fields("raw") == {"verification": "raw"}
    for bad in ("min_horizon=5", "smoothed", "theta=0.7"):
        with pytest.raises(ValueError, match="reading"):
            ppm.reading_fields(bad)


def test_verification_level_keeps_four_harmonics():
    assert [ppm.verification_level(t, 5) for t in (2, 8, 15, 16, 50, 200, 1000)] == [
        0, 0, 0, 1, 2, 4, 5]
    assert ppm.verification_level(200, 3) == 3


def test_every_verification_reading_finds_a_clean_sine():
    x = np.sin(2 * np.pi * np.arange(1000) / 73)
    for reading in ppm.VERIFICATIONS:
        assert ppm.precise_period(x, verification=reading) == 73
    with pytest.raises(ValueError, match="verification"):
        ppm.PrecisePeriod(verification="smoothed")


def test_denoised_reading_scores_against_a_low_passed_target():
    det = ppm.PrecisePeriod(verification="denoised")
    full = np.sin(2 * np.pi * np.arange(400) / 64) + np.where(np.arange(400) % 7 == 0, 3.0, 0.0)
    raw = full + 1.0  # stands for the series before preprocessing
    target = det.target_of(full, 300, 64, raw)
    assert target.size == 100 and np.abs(target).max() < 2.5  # the spikes are smoothed away
    assert np.array_equal(ppm.PrecisePeriod().target_of(full, 300, 64, raw), full[300:])
    fd = ppm.PrecisePeriod(verification="forecast_denoised")
    assert np.array_equal(fd.target_of(full, 300, 64, raw), full[300:])
    assert not np.array_equal(fd.forecast_source(full[:300], 64), full[:300])


def test_spike_removal_is_only_a_variant():
    x = np.sin(2 * np.pi * np.arange(200) / 25)
    x[100] += 6.0  # an isolated instantaneous peak
    kept = ppm.PrecisePeriod().clean(x)
    removed = ppm.PrecisePeriod(spikes="remove").clean(x)
    assert kept[100] > 5  # the paper keeps instantaneous peaks
    assert abs(removed[100] - (x[99] + x[101]) / 2) < 1e-12
    assert np.array_equal(np.delete(removed, 100), np.delete(kept, 100))


@pytest.mark.parametrize("growth", [1.5, 0, -2, float("nan"), float("inf"), "2", True])
def test_a_growth_that_is_no_whole_factor_is_named(growth):
    x = np.tile(np.sin(np.linspace(0, 2 * np.pi, 24, endpoint=False)), 20)
    with pytest.raises(ValueError, match=f"growth must be a whole number >= 1, got {growth!r}"):
        precise_period(x, growth=growth)
    assert precise_period(x, growth=np.int64(2)) == precise_period(x)


def test_readings_sharing_a_cache_give_the_windows_of_fresh_detectors(monkeypatch):
    # noisy short and long periods, so that the minimum horizons ask for different PCCs
    rng = np.random.default_rng(4)
    readings = [*ppm.VERIFICATIONS, "min_horizon=none", "min_horizon=7"]
    detectors = [PrecisePeriod(**ppm.reading_fields(r)) for r in readings]
    calls, real = {"fresh": [], "shared": []}, ppm.pcc
    for p, n in ((4, 120), (30, 120), (9, 400), (30, 400)):  # windows ending alike at 120
        x = sine(p, n) + 0.8 * rng.normal(size=n)
        monkeypatch.setattr(ppm, "pcc", lambda a, b: calls["fresh"].append(1) or real(a, b))
        fresh = [repr(list(d.windows(x, stop_at_first=False))) for d in detectors]
        monkeypatch.setattr(ppm, "pcc", lambda a, b: calls["shared"].append(1) or real(a, b))
        cache = {}
        shared = [repr(list(d.windows(x, stop_at_first=False, cache=cache))) for d in detectors]
        assert shared == fresh  # every field, nan-aware
    assert len(calls["shared"]) < len(calls["fresh"])  # the minimum horizons share PCCs


def test_window_lengths_hand_worked():
    # n = 100: L0 = 25, step 5, doubled after every 3 failures; the last fits n - 2 = 98
    assert list(PrecisePeriod().window_lengths(100)) == [25, 30, 35, 40, 50, 60, 70, 90]
    assert list(PrecisePeriod().window_lengths(17)) == []  # L0_min 16 > 17 - 2


@pytest.mark.parametrize("config", [
    {}, {"spikes": "remove"}, {"preprocess": False}, {"acf": "eq5"}, {"on_fail": "best"},
    {"aggregation": "all", "theta": 0.9},
])
def test_detect_many_is_detect_of_each_series(config):
    # series of many lengths (several at each), some periodic, some noise, one constant, one
    # too short: the batched loop gives each series the period detect() gives it alone
    rng = np.random.default_rng(7)
    xs = [sine(p, n) + rng.normal(0, s, n) for n, p, s in
          zip(rng.choice([60, 200, 431], 40), rng.integers(3, 40, 40), rng.uniform(0.05, 2, 40),
              strict=True)]
    xs += [np.ones(50), np.arange(10.0)]
    detector = PrecisePeriod(**config)
    expected = [detector.detect(x) for x in xs]
    assert detector.detect_many(xs) == expected
    assert any(p is not None for p in expected) and any(p is None for p in expected)


def test_detect_many_fills_each_cache_as_detect_does():
    rng = np.random.default_rng(8)
    xs = [sine(p, 300) + rng.normal(0, 0.7, 300) for p in (12, 24, 40)]
    alone, batched = [{} for _ in xs], [{} for _ in xs]
    for reading in ("preprocessed", "denoised"):
        detector = PrecisePeriod(**ppm.reading_fields(reading))
        [detector.detect(x, cache=c) for x, c in zip(xs, alone, strict=True)]
        detector.detect_many(xs, batched)
    for a, b in zip(alone, batched, strict=True):
        assert a.keys() == b.keys()
        for key in a:  # the windows' cleaned series and candidates, the targets and PCCs
            assert repr(a[key]) == repr(b[key]) and (
                not isinstance(key, int) or np.array_equal(a[key][0], b[key][0])) and (
                not isinstance(a[key], np.ndarray) or np.array_equal(a[key], b[key]))


def test_minimum_horizons_sharing_a_cache_give_the_periods_of_fresh_detectors(monkeypatch):
    # long periods (every candidate verified at least 11: the other horizons reuse the first
    # detector's period) and short ones (candidates under 11: each horizon verifies its own)
    rng = np.random.default_rng(9)
    xs = [sine(p, n) + s * rng.normal(size=n) for n in (40, 120, 432)
          for p in (3, 4, 5, 24, 72) for s in (0.1, 0.5, 1.0, 3.0)]
    detectors = [PrecisePeriod(**ppm.reading_fields(f"min_horizon={h}"))
                 for h in ("11", "none", "7")]
    fresh = [[d.detect(x) for x in xs] for d in detectors]
    verified, real = [], PrecisePeriod._verify
    monkeypatch.setattr(PrecisePeriod, "_verify",
                        lambda self, rows: verified.extend(rows) or real(self, rows))
    assert fresh[0] != fresh[1]  # the horizons differ on some series
    caches = [{} for _ in xs]
    assert detectors[0].detect_many(xs, caches) == fresh[0]
    first = len(verified)
    assert [d.detect_many(xs, caches) for d in detectors[1:]] == fresh[1:]
    assert 0 < len(verified) - first < 2 * first  # the later two skip the long periods
    alone = [{} for _ in xs]
    assert [[d.detect(x, cache=c) for x, c in zip(xs, alone, strict=True)]
            for d in detectors] == fresh
    for a, b in zip(alone, caches, strict=True):  # alone as batched
        assert a.keys() == b.keys() and all(repr(a[key]) == repr(b[key]) for key in a)


def test_detect_many_checks_its_series_as_detect_does():
    # rows of one length are checked at once; a bad one is still named as as_series names it
    rng = np.random.default_rng(3)
    rows = [sine(24, 300) + rng.normal(0, 0.2, 300) for _ in range(3)] + [np.full(300, 2.0)]
    detector = PrecisePeriod()
    assert detector.detect_many(rows) == [detector.detect(x) for x in rows]
    assert detector.detect_many(rows)[-1] is None  # constant
    assert detector.detect_many([r.astype(np.float32) for r in rows]) == detector.detect_many(rows)
    for bad, match in ((np.nan, "NaN or infinite"), (np.inf, "NaN or infinite"),
                       (1e60, "in magnitude")):
        broken = [r.copy() for r in rows]
        broken[1][7] = bad
        with pytest.raises(ValueError, match=match):
            detector.detect_many(broken)
        with pytest.raises(ValueError, match=match):
            detector.detect(broken[1])


def test_forecast_pccs_are_pcc_of_each_forecast():
    # horizons within and beyond one period, repeated horizons (one batch row each), a
    # constant target (no variance: nan), a history with exactly 3T samples and a target
    # longer than the horizon; every score bit for bit as pcc(forecast(...)) gives it
    rng = np.random.default_rng(11)
    requests = []
    for t, n, h in ((4, 12, 11), (4, 40, 33), (7, 21, 7), (13, 60, 39), (13, 90, 39),
                    (2, 30, 1), (30, 200, 90)):
        requests.append((rng.normal(size=n), t, rng.normal(size=h + 5), h))
    requests.append((rng.normal(size=50), 5, np.full(20, 2.0), 11))
    want = [ppm.pcc(ppm.forecast(x, t, h), y[:h]) for x, t, y, h in requests]
    got = ppm.forecast_pccs(requests)
    assert np.array_equal(got, want, equal_nan=True) and np.isnan(got[-1])
    assert all(type(v) is float for v in got) and ppm.forecast_pccs([]) == []
    with pytest.raises(ValueError, match="period 5, horizon 11"):
        ppm.forecast_pccs([(np.ones(14), 5, np.ones(20), 11)])


def test_dwt_lowpass_many_are_dwt_lowpass_of_each_series():
    # series of several lengths and levels, in mixed order (grouped by the batch), to the bit
    rng = np.random.default_rng(12)
    series = [rng.normal(size=int(n)) for n in rng.choice([40, 107, 300, 431], 30)]
    levels = [int(j) for j in rng.integers(0, 6, 30)]
    for wavelet in ("db4", "sym4"):
        got = ppm.dwt_lowpass_many(series, levels, wavelet)
        assert all(np.array_equal(g, dwt_lowpass(x, j, wavelet))
                   for g, x, j in zip(got, series, levels, strict=True))
    assert ppm.dwt_lowpass_many([], [], "db4") == []
