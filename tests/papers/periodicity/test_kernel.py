"""The fast paths of notebook 01 give, bit for bit, what the plain numpy/pywt/scipy code gives.

The plain twins are :mod:`storrepro.papers.periodicity.plain` (and, for cached designs and shared
intermediate results, the plain calls written out below); the comparisons are exact
(``array_equal`` on floats, ``==`` on periods), on random input of many shapes and on real
benchmark series.
"""

from importlib import import_module

import numpy as np
import pytest
from scipy import signal

from storrepro.papers.periodicity import _fast_steps as fast
from storrepro.papers.periodicity import kernel, workload
from storrepro.papers.periodicity import plain as ref
from storrepro.papers.periodicity import ssd_latency as lat
from storrepro.papers.periodicity.experiment import SeriesTask, run_series, series_row
from storrepro.papers.periodicity.precise_period import PrecisePeriod

# the package exports functions of the same names as these modules
pp = import_module("storrepro.papers.periodicity.precise_period")
sazed = import_module("storrepro.papers.periodicity.sazed")
seasonlength = import_module("storrepro.papers.periodicity.seasonlength")


def random_series(rng, n):
    """A random walk with noise, some spikes, dips and runs of equal values."""
    x = rng.normal(size=n).cumsum() * 10 ** rng.uniform(-3, 4) + rng.normal(size=n)
    spikes = rng.choice(n, size=max(1, n // 25), replace=False)
    x[spikes] += rng.choice([-8.0, 8.0], spikes.size) * x.std()
    if rng.random() < 0.3:
        x = np.round(x)
    return x


# ---- step kernels


def test_pairwise_sum_and_percentile_are_numpys():
    rng = np.random.default_rng(0)
    for n in [*range(1, 300), 1000, 8191, 8193, 21600, 100_003]:
        a = rng.normal(size=n) * 10 ** rng.uniform(-3, 3, size=n)
        lo = n // 3
        assert fast.pairwise_sum(a, 0, n) == np.sum(a)
        assert fast.pairwise_sum(a, lo, n) == np.sum(a[lo:])
        s = np.sort(a)
        for q in (0.0, 0.25, 0.5, 0.75, 1.0):
            assert fast.percentile_linear(s, q) == np.percentile(a, 100 * q)


@pytest.mark.parametrize("dip_max, dip_neighbours", [(3, 2), (1, 1), (2, 5)])
def test_preprocess_kernel_equals_the_numpy_loops(dip_max, dip_neighbours):
    rng = np.random.default_rng(dip_max * 10 + dip_neighbours)
    for _ in range(400):
        x = random_series(rng, int(rng.integers(4, 400)))
        want = ref.preprocess(x, 1.5, dip_max, dip_neighbours)
        got = pp.preprocess(x, 1.5, dip_max, dip_neighbours)
        assert np.array_equal(got[0], want[0]) and got[1] == want[1]


def test_tukey_flags_kernel_equals_numpy():
    rng = np.random.default_rng(5)
    for _ in range(300):
        d = np.diff(random_series(rng, int(rng.integers(2, 300))))
        assert np.array_equal(pp.tukey_flags(d), ref.tukey_flags(d))


@pytest.mark.parametrize("wavelet", ["db4", "db2", "sym4", "db3", "db1"])
def test_lowpass_kernel_equals_pywt(wavelet):
    rng = np.random.default_rng(1)
    for n in [*range(16, 90), 107, 300, 432, 999, 1000, 3024]:
        x = random_series(rng, n)
        levels = pp.level_set(n, 6, True, wavelet)
        got = pp.dwt_lowpass_levels(x, levels, wavelet)
        for row, level in zip(got, levels, strict=True):
            assert np.array_equal(row, ref.lowpass(x, level, wavelet))


def test_lagged_pearson_and_peaks_equal_numpy():
    rng = np.random.default_rng(2)
    for trial in range(600):
        n = int(rng.integers(4, 1200))
        x = random_series(rng, n)
        if trial % 5 == 0:
            x[: n // 2] = 3.0  # lags where one side has no variance
        max_lag = int(rng.integers(1, n))
        assert np.array_equal(pp.acf_lagged_pearson(x, max_lag), ref.lagged_pearson(x, max_lag))
        kmax = max(3, n // 2 - 1)
        for acf in ("pearson", "eq5"):
            if n >= 8:
                assert pp.acf_peak(x, kmax, acf) == ref.acf_peak(x, kmax, acf)
    rows = np.array([random_series(rng, 500) for _ in range(6)])
    assert np.array_equal(
        pp.acf_lagged_pearson(rows, 200), [ref.lagged_pearson(r, 200) for r in rows]
    )
    # more rows than one chunk of spectra (pp.FFT_CHUNK_BYTES): the chunks' rows alike
    rows = np.array([random_series(rng, 300) for _ in range(150)])
    assert rows.shape[0] > pp.FFT_CHUNK_BYTES // (16 * 513)
    assert np.array_equal(
        pp.acf_lagged_pearson(rows, 151), [ref.lagged_pearson(r, 151) for r in rows]
    )


def test_aggregate_and_forecast_equal_numpy():
    rng = np.random.default_rng(3)
    for _ in range(5000):
        periods = rng.integers(2, int(rng.choice([5, 20, 200, 3000])), size=rng.integers(1, 8))
        for how in ("rules", "all"):
            assert pp.aggregate(periods.tolist(), how) == ref.aggregate(periods.tolist(), how)
    for _ in range(2000):
        history = rng.normal(size=int(rng.integers(10, 300)))
        period = int(rng.integers(1, history.size // 3 + 1))
        horizon = int(rng.integers(1, 3 * period + 1))
        phase = np.arange(horizon) % period
        n = history.size
        want = np.mean([history[n + phase - k * period] for k in (1, 2, 3)], axis=0)
        got = pp.forecast(history, period, horizon)
        assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))


# ---- whole detectors: the shared paths


def test_single_verification_shared_run_equals_the_two_plain_calls():
    rng = np.random.default_rng(4)
    for _ in range(20):
        x = np.sin(2 * np.pi * np.arange(600) / rng.integers(20, 150)) + rng.normal(0, 1, 600)
        row = series_row(x, 0.0, {})
        assert row["Single Verification"] == pp.single_verification(x, theta=0.7)
        assert row["Single (no θ gate)"] == pp.single_verification(x, theta=None)
        trace = list(PrecisePeriod().windows(x, stop_at_first=False))
        for theta in (0.5, 0.6, 0.7, 0.8, 0.9):  # the theta sweep reads one shared trace
            assert row[f"theta={theta:g}"] == pp.decide(trace, theta)
            assert pp.decide(trace, theta) == pp.precise_period(x, theta=theta)


def test_sazed_with_shared_acf_equals_the_plain_components():
    def plain_maj(y, depth=0):  # sazedR's sazed.maj: each component preprocesses y anew
        if y.size < 2 or y.var() == 0 or depth > 60:
            return 1.0
        a = lambda v: sazed.rep_acf(sazed.preprocess(v))  # noqa: E731
        results = np.array(
            [sazed.S(y), sazed.S(a(y), False), sazed.ze(y), sazed.ze(a(y), False)]
            + [sazed.zed(y), sazed.zed(a(y), False)]
        )
        results = results[np.isfinite(results)]
        if results.size == 0:
            return 1.0
        if results.size == 1 or np.all(results == results[0]):
            return float(results[0])
        unique = [u for u in dict.fromkeys(results.tolist()) if u != 2]
        counts = np.array([np.sum(results == u) for u in unique])
        if counts.size == 0 or counts.max() == 1:
            return 2 * plain_maj(sazed.downsample(y, 2), depth + 1)
        if np.sum(counts == counts.max()) > 1:
            return float(max(u for u, c in zip(unique, counts, strict=True) if c == counts.max()))
        return float(unique[int(np.argmax(counts))])

    def plain_opt(y):  # sazedR's sazed: S, ze and zed each preprocess their input anew
        p = sazed.zscore(sazed.detrend(y))
        a = sazed.rep_acf(p, 10)
        m = [sazed.S(p), sazed.S(a), sazed.ze(p), sazed.ze(a), sazed.zed(p), sazed.zed(a)]
        m = [v for v in dict.fromkeys(m) if v > 2]
        if not m:
            return 1.0
        certainty = []
        for d in m:
            k = int(np.floor(p.size / d)) if np.isfinite(d) else 0
            if k <= 3:
                certainty.append(-1.0)
                continue
            corr = np.corrcoef(p[: k * int(d)].reshape(k, int(d)))
            certainty.append(float(np.min(corr)) if np.all(np.isfinite(corr)) else np.nan)
        cert = np.array(certainty)
        return float(m[int(np.flatnonzero(cert == np.nanmax(cert))[0])])

    rng = np.random.default_rng(6)
    for _ in range(25):
        n = int(rng.integers(30, 800))
        y = np.sin(2 * np.pi * np.arange(n) / rng.integers(4, 60)) + rng.normal(0, 0.8, n)
        assert sazed.sazed_maj(y) == plain_maj(y)
        assert sazed.sazed_opt(y) == plain_opt(y)
        fresh = np.fft.ifft(np.abs(np.fft.fft(np.ones(n), 1 << (n - 1).bit_length())) ** 2)
        assert np.array_equal(sazed._lag_counts(n, 1 << (n - 1).bit_length()), fresh)


def test_seasonlength_cached_design_equals_polyfit():
    rng = np.random.default_rng(7)
    for n in (5, 40, 1000, 99_901):
        t = np.linspace(-1.0, 1.0, n)
        for degree in (1, 2):
            for _ in range(3):
                y = rng.normal(size=n).cumsum() * 10 ** rng.uniform(-2, 3)
                want = y - np.polyval(np.polyfit(t, y, degree), t)
                assert np.array_equal(seasonlength._poly_detrend(y, degree), want)


def test_benchmark_rows_are_the_same_in_batches_and_one_by_one():
    batch = run_series(SeriesTask("synthetic", 3, 6, "0", 8))
    single = [run_series(SeriesTask("synthetic", i, i + 1, "0", 8))[0] for i in range(3, 6)]
    assert batch == single and [r["key"] for r in batch] == [f"synthetic::{i}" for i in (3, 4, 5)]


# ---- scheduling surrogate


def test_surrogate_filters_equal_scipy_lfilter():
    rng = np.random.default_rng(8)
    noise = rng.normal(0, 0.3, size=(20, 3000))
    want = signal.lfilter([1.0], [1.0, -0.9], noise, axis=1)
    assert np.array_equal(workload.ar1(noise, 0.9), want)
    z = rng.standard_normal((20, 3000))
    want = 0.25 * signal.lfilter([1.0], [1.0, -0.9], 0.3 * z + 0.0, axis=1)
    assert np.array_equal(workload.ar1(z.copy(), 0.9, 0.3, 0.25), want)


def test_surrogate_fused_passes_equal_the_numpy_expressions():
    # bursts: hits on the first minutes and at a row's end, one excluded row; dropouts: a
    # uniform exactly at the probability (kept) and one just below (dropped)
    rng = np.random.default_rng(9)
    x, u = rng.lognormal(size=(6, 400)), rng.random((6, 400))
    u[0, :3], u[1, -1] = 0.0, 0.0
    excluded, volume = np.array([False, False, True, False, False, False]), rng.lognormal(size=6)
    hits = (u < 1 / 50) & ~excluded[:, None]
    bursts = signal.lfilter(np.ones(10), [1.0], hits, axis=1) * volume[:, None] * 5
    got = x.copy()
    workload.add_bursts(got, u, 1 / 50, excluded, 10, volume, 5.0)
    assert np.array_equal(got, x + bursts)
    sine, scale = np.sin(rng.uniform(0, 7, x.shape)), rng.lognormal(size=6)
    got = x.copy()
    workload.scale_drift(got, scale, sine)
    assert np.array_equal(got, x * scale[:, None] * (0.3 * sine + 1))
    u[2, 5], u[2, 6] = 0.002, np.nextafter(0.002, 0)
    want = x.copy()
    want[u < 0.002] = 0.0
    got = workload.dropouts(x, u, 0.002)
    assert got.dtype == np.float32 and np.array_equal(got, want.astype(np.float32))
    assert got[2, 5] != 0 and got[2, 6] == 0


def test_mixture_counts_equal_the_numpy_sub_bin_arrivals():
    rng = np.random.default_rng(15)
    x = rng.lognormal(0, 0.5, size=(5, 40)) * 26e6 * 60 * rng.uniform(0.2, 3, size=(5, 1))
    x[1, 3:9] = 0.0  # idle minutes
    x[2, 10:20] = rng.uniform(0, 3 * lat.REQUEST_BYTES, 10)  # a few requests: counts at 0
    for seconds in (60, 25, 7, 1):
        normals = lat.Normals(3, 5, 40, seconds).z
        for draw in (normals, np.random.default_rng(4)):
            want = lat.sub_bin_arrivals(x, draw if draw is normals else np.random.default_rng(4),
                                        seconds)[0]
            got = kernel.mixture(x, draw, seconds)[0]
            assert got.tobytes() == want.tobytes()
    with pytest.raises(ValueError, match="normals of shape"):
        kernel.mixture(x, np.zeros((5, 3)), 60)


def test_latency_mixture_cdf_equals_the_numpy_expression():
    rng = np.random.default_rng(9)
    x = rng.lognormal(0, 0.5, size=(8, 120)) * 26e6 * 60 * rng.uniform(0.3, 3, size=(8, 1))
    x[2, 40:60] *= 8  # an overloaded SSD: a backlog, so waits vary inside minutes
    counts, rate = lat.sub_bin_arrivals(x, np.random.default_rng(1))
    q = lat.backlog(counts)
    wait = np.concatenate([np.zeros((8, 1)), q[:, :-1]], axis=1) / lat.S_OPS
    mu = np.maximum(lat.S_OPS - rate, 0.05 * lat.S_OPS)
    for at in np.linspace(1e-6, 2e-2, 40):
        point = at * rng.uniform(0.5, 1.5, 8)
        want = (counts * (1 - np.exp(-mu * np.maximum(point[:, None] - wait, 0)))).sum(axis=1)
        assert np.array_equal(kernel.mixture_cdf(counts, mu, wait, point), want)
        runs = kernel._Runs(counts, mu, wait)  # the exponents per run: the same sums
        rows = np.flatnonzero(rng.random(8) < 0.7)
        assert np.array_equal(kernel.mixture_cdf(counts, mu, wait, point, rows, runs=runs),
                              want[rows])


def test_latency_stats_equal_the_plain_bisection():
    rng = np.random.default_rng(10)
    for trial in range(6):
        x = rng.lognormal(0, 0.5, size=(6, 90)) * 26e6 * 60 * rng.uniform(0.2, 3, size=(6, 1))
        x[trial % 6, 30:45] *= 4 + trial  # overload: a backlog on one SSD
        x[(trial + 1) % 6, :] = 0.0  # an idle SSD
        got = kernel.latency_stats(x, np.random.default_rng(trial))
        want = ref.latency_stats(x, np.random.default_rng(trial))
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_latency_stats_and_tail_below_with_bursts_equal_the_plain_bisection():
    rng = np.random.default_rng(12)
    for trial, seconds in enumerate((20, 7, 1)):
        x = rng.lognormal(0, 0.5, size=(5, 60)) * 26e6 * 60 * rng.uniform(0.2, 2, size=(5, 1))
        x[trial, 20:30] *= 3 + trial  # a backlog that the quiet sub-bins drain
        got = kernel.latency_stats(x, np.random.default_rng(trial), arrival_seconds=seconds)
        want = ref.latency_stats(x, np.random.default_rng(trial), arrival_seconds=seconds)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        worst = 1e3 * got[1].max()
        for limit in (worst, np.nextafter(worst, np.inf), worst / 2):
            assert kernel.tail_below(x, np.random.default_rng(trial), limit,
                                     arrival_seconds=seconds) == (worst < limit)
        lengths = lat.sub_bin_lengths(60, seconds)
        counts, _ = lat.sub_bin_arrivals(x, np.random.default_rng(trial), seconds)
        q = lat.backlog(counts, lat.S_OPS, lengths)
        wait = np.concatenate([np.zeros((5, 1)), q[:, :-1]], axis=1) / lat.S_OPS
        assert np.array_equal(kernel.backlog_wait(counts, lat.S_OPS, lengths), wait)


def test_shared_normals_and_per_ssd_memo_equal_fresh_draws():
    rng = np.random.default_rng(14)
    for seconds in (60, 13):
        x = rng.lognormal(0, 0.5, size=(7, 50)) * 26e6 * 60 * rng.uniform(0.2, 3, size=(7, 1))
        x[2, 10:20] *= 6  # a backlog
        latencies = kernel.SsdLatencies(lat.Normals(5, 7, 50, seconds))
        moved = x.copy()
        moved[[1, 4]] *= [[1.3], [0.6]]  # a move changes two SSDs' loads
        for load in (x, moved, x):
            got = latencies(load)
            want = kernel.latency_stats(load, np.random.default_rng(5), arrival_seconds=seconds)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
            worst = 1e3 * want[1].max()
            for limit in (worst, np.nextafter(worst, np.inf)):
                assert latencies.below(load, limit) == kernel.tail_below(
                    load, np.random.default_rng(5), limit, arrival_seconds=seconds)
        assert len(latencies.done) == 7 + 2  # the unchanged SSDs were computed once
    with pytest.raises(ValueError, match="normals of shape"):
        lat.sub_bin_arrivals(x, np.zeros((7, 3)))


def _loads_and_steps(rng, ssds, bins, spread, seconds, seed):
    """Per-minute loads of ``ssds`` SSDs (SSD 1 with a backlog, SSD 3 idle), the normals of
    :class:`Normals` ``seed`` and the separate steps' arrivals, waits and moments on them: the
    reference the one-pass kernels are compared with."""
    x = rng.lognormal(0, 0.5, size=(ssds, bins)) * 26e6 * 60 * rng.uniform(0.2, spread,
                                                                           size=(ssds, 1))
    x[1, 5:12] *= 8  # a backlog
    x[3] = 0.0  # an idle SSD
    z = lat.Normals(seed, ssds, bins, seconds).z
    counts, rate = lat.sub_bin_arrivals(x, z, seconds)
    wait = kernel.backlog_wait(counts, lat.S_OPS, lat.sub_bin_lengths(bins, seconds))
    return x, z, counts, wait, kernel.moments(counts, rate, wait)


def test_one_pass_mixture_equals_its_steps():
    rng = np.random.default_rng(18)
    for seconds in (60, 25, 1):
        x, z, counts, wait, (mu, *want) = _loads_and_steps(rng, 6, 30, 3, seconds, 4)
        weight, total, weighted, wait_max, mu_min, runs = kernel.mixture(x, z, seconds)
        assert np.array_equal(weight, counts)
        for got, expected in zip((total, weighted, wait_max, mu_min), want, strict=True):
            assert np.array_equal(got, expected)
        plain = kernel._Runs(counts, mu, wait, want[0])
        for name in ("weight", "mu", "wait", "start", "first", "error_bound"):
            assert np.array_equal(getattr(runs, name), getattr(plain, name))
        drawn = kernel.mixture(x, np.random.default_rng(4), seconds)  # the same normals
        assert all(np.array_equal(a, b) for a, b in zip(drawn[:5], (weight, *want), strict=True))


def test_quiet_bound_is_the_first_bracket_of_an_ssd_without_backlog():
    rng = np.random.default_rng(16)
    for seconds in (60, 25, 4):
        x, z, counts, _, moments = _loads_and_steps(rng, 8, 40, 4, seconds, 3)
        wait_max, mu_min = moments[3:]
        bound = kernel.quiet_bound(x, z, seconds)
        quiet = np.isfinite(bound)
        assert quiet[3] and quiet.sum() > 1 and not quiet[1]
        assert np.array_equal(bound[quiet], (wait_max + 50 / mu_min)[quiet])
        assert (wait_max[quiet] == 0).all() and (counts[~quiet] > lat.S_OPS).any(axis=1).all()
        tail = kernel.latency_stats(x, z, arrival_seconds=seconds)[1]
        assert (tail[quiet] <= lat.base_latency(seconds) + bound[quiet]).all()


def test_worst_ssd_from_the_ssds_that_can_hold_it_equals_the_max():
    rng = np.random.default_rng(17)
    for seconds in (60, 20):
        x = rng.lognormal(0, 0.5, size=(32, 50)) * 26e6 * 60 * rng.uniform(0.2, 2, size=(32, 1))
        for backlog in ([], [7], [7, 30]):
            load = x.copy()
            load[backlog, 10:20] *= 6
            latencies = kernel.SsdLatencies(lat.Normals(9, 32, 50, seconds))
            worst = latencies.worst(load)
            assert len(latencies.done) < 32 or not backlog  # an SSD over its knee: not all
            assert worst == kernel.latency_stats(load, latencies.normals.z,
                                                 arrival_seconds=seconds)[1].max()


def test_backlog_wait_and_moments_equal_the_numpy_expressions():
    rng = np.random.default_rng(13)
    for trial, ssds in enumerate((1, 3, 7)):
        x = rng.lognormal(0, 0.5, size=(ssds, 150)) * 26e6 * 60 * rng.uniform(0.2, 3, (ssds, 1))
        x[trial % ssds, 40:70] *= 60 + trial  # overload: a backlog that builds and drains
        x[:, 100:110] = 0.0  # idle minutes
        counts, rate = lat.sub_bin_arrivals(x, np.random.default_rng(trial))
        q = lat.backlog(counts)
        wait = np.concatenate([np.zeros((ssds, 1)), q[:, :-1]], axis=1) / lat.S_OPS
        got_wait = kernel.backlog_wait(counts)
        assert np.array_equal(got_wait, wait) and (wait > 0).any()
        mu = np.maximum(lat.S_OPS - rate, 0.05 * lat.S_OPS)
        want = (mu, counts.sum(axis=1), (counts * (wait + 1 / mu)).sum(axis=1),
                wait.max(axis=1), mu.min(axis=1))
        for got, plain in zip(kernel.moments(counts, rate, wait), want, strict=True):
            assert np.array_equal(got, plain)


def test_collapsed_cdf_is_within_its_error_bound():
    rng = np.random.default_rng(11)
    x = rng.lognormal(0, 0.5, size=(6, 90)) * 26e6 * 60 * rng.uniform(0.2, 3, size=(6, 1))
    x[1, 20:40] *= 9
    counts, rate = lat.sub_bin_arrivals(x, np.random.default_rng(3))
    q = lat.backlog(counts)
    wait = np.concatenate([np.zeros((6, 1)), q[:, :-1]], axis=1) / lat.S_OPS
    mu = np.maximum(lat.S_OPS - rate, 0.05 * lat.S_OPS)
    runs = kernel._Runs(counts, mu, wait)
    assert np.diff(runs.start).max() < counts.shape[1]  # runs really collapse sub-bins
    total = kernel.moments(counts, rate, np.ascontiguousarray(wait))[1]  # as the kernel has it
    assert np.array_equal(kernel._Runs(counts, mu, wait, total).error_bound, runs.error_bound)
    for at in np.geomspace(1e-6, 1e-1, 60):
        point = np.full(6, at)
        gap = np.abs(runs.cdf(point) - kernel.mixture_cdf(counts, mu, wait, point))
        assert np.all(gap <= runs.error_bound / 4)  # a worst-case bound: far from reached


def test_epanechnikov_density_equals_numpy():
    rng = np.random.default_rng(12)
    for n in (2, 3, 7, 8, 9, 100, 129, 700):
        data = rng.gamma(3.0, 5.0, size=n)
        bw = sazed._bw_nrd0(data)
        grid = np.linspace(data.min() - 3 * bw, data.max() + 3 * bw, 512)
        a = bw * np.sqrt(5.0)
        u = (grid[:, None] - data[None, :]) / a
        want = np.where(np.abs(u) < 1, 0.75 * (1 - u**2), 0.0).sum(axis=1)
        assert np.array_equal(sazed.epanechnikov_density(grid, data, a), want)


def test_in_place_surrogate_generator_equals_the_plain_expressions():
    spec = workload.SurrogateSpec(ssds=4, segments=300, history_days=1, intervals=1)
    got = workload.generate(np.random.default_rng(5), spec)
    read, write = ref.generate_surrogate(np.random.default_rng(5), spec)
    assert np.array_equal(got.read, read) and np.array_equal(got.write, write)
