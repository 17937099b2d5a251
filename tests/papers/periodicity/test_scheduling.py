"""Scheduling part: budget arithmetic (A5), the greedy mover on hand-built loads, the latency
model (Eq. (1), M/M/1 closed form, and the exact Lindley DES of the shared FIFO) and the
surrogate workload."""

import copy

import numpy as np
import pytest

from storrepro.papers.periodicity import ssd_latency as lat
from storrepro.papers.periodicity.kernel import SsdLatencies, latency_stats
from storrepro.papers.periodicity.scheduling import move_budget, schedule, ssd_load
from storrepro.papers.periodicity.ssd_latency import Normals
from storrepro.papers.periodicity.workload import (
    SurrogateSpec,
    bin_sum,
    generate,
    hash_placement,
    on_ssds,
)
from storrepro.sim.fifo import fifo_departures


def test_a5_one_percent_is_17_moves_in_decimal_units():
    assert move_budget(0.01, 2.5e9) == 17  # round(16.875), the paper's "17" (decimal GB)
    assert round(0.01 * 2.5e9 * 21600 / (32 * 2**30)) == 16  # binary GiB would give 16
    with pytest.raises(ValueError, match="overhead"):
        move_budget(1.5, 2.5e9)


def test_greedy_moves_the_peak_segment_to_the_emptiest_ssd():
    # SSD 0 holds two segments peaking in bin 1; SSD 1 is busy in bin 1; SSD 2 is idle
    pred = np.array([[1.0, 9.0, 1.0], [1.0, 5.0, 1.0], [1.0, 6.0, 1.0]])
    ids = np.array([0, 1, 2])
    placement = np.array([0, 0, 1])
    place, moves = schedule(pred, ids, placement, ssds=3, budget=1)
    assert moves == [(0, 0, 2)]  # segment 0 (biggest in the peak bin) -> idle SSD 2
    assert place.tolist() == [2, 0, 1]


def test_a_move_that_would_not_lower_the_peak_freezes_the_segment():
    pred = np.array([[10.0], [10.0]])
    place, moves = schedule(pred, np.array([0, 1]), np.array([0, 1]), ssds=2, budget=5)
    assert moves == [] and place.tolist() == [0, 1]


def test_random_target_uses_the_rng_and_budget_is_respected():
    rng = np.random.default_rng(0)
    pred = np.eye(6)[:, :3] * 10 + 1
    place, moves = schedule(pred, np.arange(6), np.zeros(6, dtype=int), ssds=4, budget=2, rng=rng)
    assert len(moves) == 2 and all(m[1] == 0 and m[2] != 0 for m in moves)
    with pytest.raises(ValueError, match="budget"):
        schedule(pred, np.arange(6), np.zeros(6, dtype=int), 4, -1)


def test_ssd_load_and_hash_placement():
    traffic = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    assert hash_placement(3, 2).tolist() == [0, 1, 0]
    assert ssd_load(traffic, np.array([0, 1, 0]), 2).tolist() == [[6.0, 8.0], [3.0, 4.0]]
    assert bin_sum(np.arange(7.0)[None, :], 3).tolist() == [[3.0, 12.0]]


def test_on_ssds_keeps_the_segments_and_the_traffic_per_ssd():
    w = generate(np.random.default_rng(2), SurrogateSpec(ssds=6, segments=24, history_days=1,
                                                          intervals=1))
    read = w.read.copy()
    fewer = on_ssds(w, 3)
    assert np.array_equal(w.read, read) and w.spec.ssds == 6  # the original is unchanged
    assert fewer.spec.ssds == 3 and fewer.placement.tolist() == hash_placement(24, 3).tolist()
    assert fewer.read.dtype == np.float32 and np.array_equal(fewer.read, read * np.float32(0.5))
    assert np.array_equal(fewer.period_min, w.period_min)
    per_ssd = [(x.read.sum(dtype=float) + x.write.sum(dtype=float)) / x.spec.ssds
               for x in (w, fewer)]
    assert per_ssd[1] == pytest.approx(per_ssd[0], rel=1e-6)


def test_ssd_load_from_a_reference_placement_is_the_fresh_sum():
    # moves onto an empty SSD, off an SSD entirely, a swap, and no move at all: bit for bit
    rng = np.random.default_rng(6)
    traffic = rng.lognormal(size=(40, 30)) * 1e7
    before = np.arange(40) % 5
    before[before == 4] = 3  # SSD 4 starts empty
    load = ssd_load(traffic, before, 6)
    for moves in ([], [(0, 4)], [(2, 1), (7, 1), (12, 4)], [(1, 2), (2, 1)],
                  [(i, 5) for i in range(0, 40, 5)]):
        after = before.copy()
        for segment, ssd in moves:
            after[segment] = ssd
        got = ssd_load(traffic, after, 6, (before, load))
        assert got.tobytes() == ssd_load(traffic, after, 6).tobytes()
    assert ssd_load(traffic, before, 6, (before, load)) is not load


def test_eq1_delay():
    assert lat.eq1_delay(12_000, 13_000) == pytest.approx(1e-3)
    assert np.isinf(lat.eq1_delay(13_000, 13_000))


def test_calibration_constants():
    # knee: the M/M/1 99.99 % latency at 12 000 ops/s is ten times its no-load value
    assert np.log(1e4) / (lat.S_OPS - 12_000) == pytest.approx(10 * np.log(1e4) / lat.S_OPS)
    assert pytest.approx(127e-6) == lat.BASE_S + 1 / (lat.S_OPS - lat.MEAN_OPS)


def test_backlog_is_the_lindley_recursion():
    counts = np.array([5.0, 0.0, 12.0, 1.0, 0.0])
    q, expected = 0.0, []
    for c in counts:
        q = max(0.0, q + c - 4.0)
        expected.append(q)
    assert lat.backlog(counts, 4.0).tolist() == expected


def test_constant_load_matches_the_mm1_quantile():
    rate = 6000.0  # ops/s, stable: no backlog, so the mixture is one exponential
    mean, tail = latency_stats(
        np.full((1, 30), rate * 60 * lat.REQUEST_BYTES), np.random.default_rng(0), base=0.0
    )
    mu = lat.S_OPS - rate
    assert mean[0] == pytest.approx(1 / mu, rel=1e-9)
    assert tail[0] == pytest.approx(np.log(1e4) / mu, rel=1e-6)


def test_fluid_model_matches_the_exact_fifo_des_within_10_percent():
    """One SSD with a load burst above capacity, model vs Lindley DES (shared FIFO)."""
    rng = np.random.default_rng(1)
    ops = np.concatenate([np.full(4, 3000.0), np.full(2, 14_000.0), np.full(4, 3000.0)])
    per_min = ops * 60 * lat.REQUEST_BYTES
    _, tail = latency_stats(per_min[None, :], np.random.default_rng(2), base=0.0)
    # exact DES: piecewise-Poisson arrivals, exponential service at S_OPS
    arrivals = []
    for minute, r in enumerate(ops):
        n = rng.poisson(r * 60)
        arrivals.append(np.sort(rng.uniform(minute * 60, (minute + 1) * 60, n)))
    a = np.concatenate(arrivals)
    d = fifo_departures(a, rng.exponential(1 / lat.S_OPS, a.size))
    des = np.quantile(d - a, 0.9999)
    assert tail[0] == pytest.approx(des, rel=0.10)


def test_requests_arrive_in_the_first_seconds_of_each_minute():
    r = 100.0  # requests per second over minute 0, twice that over minute 1
    x = np.array([[r, 2 * r]]) * 60 * lat.REQUEST_BYTES
    counts, rate = lat.sub_bin_arrivals(x, np.random.default_rng(0), 20)
    lengths = lat.sub_bin_lengths(2, 20)
    assert lengths.tolist() == ([1.0] * 20 + [40.0]) * 2  # 20 one-second bins, then the rest
    assert rate.shape == counts.shape == (1, 42)
    assert rate[0, :20].tolist() == [3 * r] * 20 and rate[0, 20] == 0  # the burst: 60/20 × r
    assert rate[0, 21:41].tolist() == [6 * r] * 20 and rate[0, 41] == 0
    assert counts[0, 20] == counts[0, 41] == 0 and counts[0, :20].sum() > 0
    assert (rate * lengths).sum() == pytest.approx(60 * 3 * r)  # every request of each minute
    # all 60 seconds: one-second bins at the minute's rate, as the smooth stream always was
    smooth = lat.sub_bin_arrivals(x, np.random.default_rng(0), 60)[1]
    assert smooth.tolist() == [[r] * 60 + [2 * r] * 60]
    assert lat.sub_bin_lengths(2, 60).tolist() == [1.0] * 120
    assert lat.sub_bins_per_minute(20) == 21 and lat.sub_bins_per_minute(60) == 60


def test_counts_are_poisson_by_the_normal_approximation_with_shared_normals():
    rate_bytes = np.array([[1000.0, 4.0], [2000.0, 0.0]]) * 60 * lat.REQUEST_BYTES
    counts, rate = lat.sub_bin_arrivals(rate_bytes, np.random.default_rng(3))
    z = np.random.default_rng(3).standard_normal(rate.shape)  # one normal per sub-bin, in order
    assert np.array_equal(counts, np.maximum(np.rint(rate + np.sqrt(rate) * z), 0))
    assert (counts[1, 60:] == 0).all() and (counts >= 0).all()  # no rate, no request
    # the same normals at every rate: another SSD's load leaves a row's counts as they were,
    # and more load never means fewer requests
    more = rate_bytes.copy()
    more[1] *= 1.5
    again = lat.sub_bin_arrivals(more, np.random.default_rng(3))[0]
    assert np.array_equal(again[0], counts[0]) and (again[1] >= counts[1]).all()
    # Poisson's first two moments at an SSD's rates
    big = lat.sub_bin_arrivals(np.full((1, 200), 800.0 * 60 * lat.REQUEST_BYTES),
                               np.random.default_rng(4))[0]
    assert big.mean() == pytest.approx(800, rel=0.005) and big.var() == pytest.approx(800,
                                                                                       rel=0.05)


def test_base_latency_gives_127us_at_the_mean_load_as_it_arrives():
    for seconds in (60, 30, 7):
        burst = lat.MEAN_OPS * 60 / seconds
        assert lat.base_latency(seconds) + 1 / (lat.S_OPS - burst) == pytest.approx(127e-6)
    assert lat.base_latency() == lat.BASE_S == lat.base_latency(60)
    # the mean load in 20-s bursts: no backlog, so every request's mean sojourn is 1/(S - 3λ)
    mean, _ = latency_stats(np.full((1, 30), lat.MEAN_OPS * 60 * lat.REQUEST_BYTES),
                            np.random.default_rng(0), arrival_seconds=20)
    assert mean[0] == pytest.approx(127e-6, rel=1e-9)


@pytest.mark.parametrize("bad", [0, 61, 2.5, True, "20", None])
def test_arrival_seconds_must_be_whole_seconds_of_a_minute(bad):
    with pytest.raises(ValueError, match=r"arrival_seconds = .*from 1 to 60"):
        lat.check_arrival_seconds(bad)
    with pytest.raises(ValueError, match="arrival_seconds"):
        latency_stats(np.ones((1, 2)), np.random.default_rng(0), arrival_seconds=bad)


def test_backlog_drains_through_a_quiet_sub_bin_as_through_its_seconds():
    counts = np.array([5.0, 0.0, 12.0, 1.0, 0.0])
    lengths = np.array([1.0, 1.0, 3.0, 1.0, 2.0])
    q, expected = 0.0, []
    for c, n in zip(counts, lengths, strict=True):
        q = max(0.0, q + c - 4.0 * n)
        expected.append(q)
    assert lat.backlog(counts, 4.0, lengths).tolist() == expected
    # a 3-s quiet bin is three empty 1-s bins
    spread = lat.backlog(np.array([30.0, 0.0, 0.0, 0.0]), 4.0)
    assert lat.backlog(np.array([30.0, 0.0]), 4.0, np.array([1.0, 3.0]))[-1] == spread[-1]


def test_fluid_model_with_bursts_matches_the_exact_fifo_des_within_10_percent():
    """Each minute's requests in its first 20 s, model vs Lindley DES (shared FIFO)."""
    rng = np.random.default_rng(3)
    ops = np.concatenate([np.full(4, 1500.0), np.full(2, 4800.0), np.full(4, 1500.0)])
    _, tail = latency_stats((ops * 60 * lat.REQUEST_BYTES)[None, :], np.random.default_rng(4),
                            base=0.0, arrival_seconds=20)
    arrivals = []
    for minute, r in enumerate(ops):  # the minute's requests, uniform over its first 20 s
        n = rng.poisson(r * 60)
        arrivals.append(np.sort(rng.uniform(minute * 60, minute * 60 + 20, n)))
    a = np.concatenate(arrivals)
    d = fifo_departures(a, rng.exponential(1 / lat.S_OPS, a.size))
    assert tail[0] == pytest.approx(np.quantile(d - a, 0.9999), rel=0.10)


def test_surrogate_scale_and_planted_share():
    spec = SurrogateSpec(ssds=4, segments=400, history_days=1, intervals=1)
    w = generate(np.random.default_rng(0), spec)
    assert w.read.shape == (400, 1440 + 360)
    per_ssd = (w.read.sum() + w.write.sum()) / w.read.shape[1] / 60 / 4
    assert per_ssd == pytest.approx(2.5e9 / 96, rel=1e-3)
    assert 0.2 <= (w.period_min > 0).mean() <= 0.4
    assert set(np.unique(w.period_min[w.period_min > 0])) <= {30, 60, 120, 360, 720, 1440}
    volume = np.sort((w.read + w.write).sum(axis=1))[::-1]
    assert volume[:80].sum() / volume.sum() > 0.6  # heavy tail: top 20 % carry most traffic


def test_bad_surrogate_spec():
    with pytest.raises(ValueError, match="segments"):
        SurrogateSpec(ssds=8, segments=4)



def test_schedule_counts_the_unforecast_load_of_each_ssd():
    from storrepro.papers.periodicity.scheduling import schedule

    pred = np.array([[10.0, 0.0], [5.0, 0.0], [0.0, 1.0]])  # SSD 0 holds segments 0 and 1
    placement = np.array([0, 0, 1])
    _, moves = schedule(pred, np.arange(3), placement, 3, 1)
    assert len(moves) == 1 and moves[0][:2] == (0, 0)  # without a base, segment 0 leaves SSD 0
    # SSDs 1 and 2 carry 20 units of unforecast load: SSD 1 is the peak now, and SSD 0 the
    # only target that lowers it
    _, moves = schedule(pred, np.arange(3), placement, 3, 1, base=np.array([0.0, 20.0, 20.0]))
    assert moves == [(2, 1, 0)]


def test_volume_skew_regenerates_the_workload_with_another_sigma():
    from storrepro.papers.periodicity.workload import (
        VOLUME_SIGMA,
        SurrogateSpec,
        generate,
        volume_skew,
    )

    spec = SurrogateSpec(ssds=3, segments=60, history_days=1, intervals=1)
    w = generate(np.random.default_rng(0), spec)
    totals = w.read.sum(axis=1, dtype=float) + w.write.sum(axis=1, dtype=float)
    assert np.allclose(volume_skew(w, VOLUME_SIGMA), 1.0)  # the generated sigma: unchanged
    f = volume_skew(w, 0.5)
    assert (f * totals).sum() == pytest.approx(totals.sum())  # the total traffic is kept
    # the factors are exp((σ − 1.8) z) up to one constant: their logs are linear in z
    slope = np.polyfit(w.volume_z, np.log(f), 1)[0]
    assert slope == pytest.approx(0.5 - VOLUME_SIGMA)
    with pytest.raises(ValueError, match="sigma"):
        volume_skew(w, -1.0)
    w.volume_z = None
    with pytest.raises(ValueError, match="no segment volumes"):
        volume_skew(w, 1.0)


def _small_surrogate(ssds=8, segments=120, intervals=2):
    from storrepro.papers.periodicity.workload import SurrogateSpec, generate

    return generate(np.random.default_rng(5), SurrogateSpec(ssds=ssds, segments=segments,
                                                            history_days=1, intervals=intervals))


def test_tail_below_answers_as_the_full_bisection():
    from storrepro.papers.periodicity.kernel import tail_below

    rng = np.random.default_rng(21)
    for trial in range(8):
        x = rng.lognormal(0, 0.5, size=(6, 60)) * 26e6 * 60 * rng.uniform(0.2, 3, size=(6, 1))
        x[trial % 6, 20:30] *= 20 + trial  # a backlog on one SSD
        worst = 1e3 * latency_stats(x, np.random.default_rng(trial))[1].max()
        limits = (worst, np.nextafter(worst, np.inf), np.nextafter(worst, 0), worst * 0.5,
                  worst * 2, 0.2, 1e4)
        for limit in limits:
            assert tail_below(x, np.random.default_rng(trial), limit) == (worst < limit)


def test_tail_below_draws_no_ssd_after_the_block_of_one_over_the_limit(monkeypatch):
    from storrepro.papers.periodicity import kernel

    drawn = []
    real = kernel.mixture
    monkeypatch.setattr(kernel, "mixture",
                        lambda x, rng, *a: drawn.append(x.shape[0]) or real(x, rng, *a))
    x = np.full((32, 60), 26e6 * 60)
    x[2, 20:30] *= 30  # a backlog on SSD 2: in the first two blocks of 2
    assert not kernel.tail_below(x, np.random.default_rng(0), 5.0)
    assert drawn == [2, 2]
    drawn.clear()
    assert kernel.tail_below(np.full((32, 60), 26e6 * 60), np.random.default_rng(0), 5.0)
    assert drawn == [2, 2, 4, 8, 16]  # every SSD, once


def test_tail_below_with_normals_tries_the_heaviest_ssd_first(monkeypatch):
    from storrepro.papers.periodicity import kernel

    rng = np.random.default_rng(22)
    x = rng.lognormal(0, 0.3, size=(32, 60)) * 26e6 * 60
    x[29, 20:30] *= 30  # a backlog on SSD 29: in the last block in index order
    z = Normals(8, 32, 60, 20).z
    worst = 1e3 * latency_stats(x, z, arrival_seconds=20)[1].max()
    for limit in (worst, np.nextafter(worst, np.inf), np.nextafter(worst, 0), worst * 0.5):
        assert kernel.tail_below(x, z, limit, arrival_seconds=20) == (worst < limit)
    drawn = []
    real = kernel.mixture
    monkeypatch.setattr(kernel, "mixture",
                        lambda x, rng, *a: drawn.extend(x.max(axis=1)) or real(x, rng, *a))
    assert not kernel.tail_below(x, z, worst * 0.5, arrival_seconds=20)
    assert len(drawn) <= 2 and drawn[0] == x[29].max()  # SSD 29 first, in the first block
    drawn.clear()
    quiet = 1e3 * (lat.base_latency(20) + kernel.quiet_bound(x, z, 20)) < worst * 2
    assert kernel.tail_below(x, z, worst * 2, arrival_seconds=20)
    assert 0 < quiet.sum() < 32 and len(drawn) > 0  # only the SSDs the bound leaves open
    assert sorted(drawn) == sorted(x[~quiet].max(axis=1))


def test_interval_traffic_with_a_factor_is_the_traffic_after_scaling_in_place():
    from storrepro.papers.periodicity import scheduling
    from storrepro.papers.periodicity.experiment.calibration import skew_factor

    w = _small_surrogate()
    start = scheduling.interval_starts(w)[1]
    assert scheduling.interval_starts(w) == [1440, 1800]  # after a day of history, every 6 h
    factor = skew_factor(w, 0.7)
    got = scheduling.interval_traffic(w, start, factor=factor)
    read, write = w.read[:, start:start + 360], w.write[:, start:start + 360]
    assert got.tobytes() == ((read * factor).astype(float) + write * factor).tobytes()
    k = np.float32(1.37)  # a scalar factor, as calibrate_load scales
    assert scheduling.interval_traffic(w, start, factor=k).tobytes() == (
        (read * k).astype(float) + write * k).tobytes()
    w.read *= factor
    w.write *= factor
    assert np.array_equal(got, scheduling.interval_traffic(w, start))


def test_interval_load_is_the_ssd_load_of_the_interval_traffic():
    from storrepro.papers.periodicity import scheduling
    from storrepro.papers.periodicity.experiment.calibration import skew_factor

    w = _small_surrogate()
    start = scheduling.interval_starts(w)[1]
    other = (w.placement * 3 + 1) % w.spec.ssds
    for factor in (skew_factor(w, 0.7), np.float32(1.37), None):
        for place in (w.placement, other):
            got = scheduling.interval_load(w, start, place, factor)
            want = scheduling.ssd_load(scheduling.interval_traffic(w, start, factor=factor),
                                       place, w.spec.ssds)
            assert got.tobytes() == want.tobytes()
    w.read = w.read.astype(float)  # not float32: the two steps, as before
    assert scheduling.interval_load(w, start, w.placement, 2.0).tobytes() == (
        scheduling.ssd_load(scheduling.interval_traffic(w, start, factor=2.0), w.placement,
                            w.spec.ssds).tobytes())


def test_memoised_evaluations_equal_fresh_ones_and_run_once_per_placement(monkeypatch):
    from storrepro.papers.periodicity import experiment as ex
    from storrepro.papers.periodicity import scheduling

    w = _small_surrogate()
    actual = scheduling.interval_traffic(w, w.spec.history_minutes)
    other = w.placement.copy()
    other[:5] = (other[:5] + 1) % 8
    # requests in 20 s of each minute
    evaluations = ex._Evaluations(actual, 8, SsdLatencies(Normals(1234, 8, 360, 20)))
    calls = []
    plain = ex.evaluate
    monkeypatch.setattr(ex, "evaluate", lambda *a: calls.append(1) or plain(*a))
    for place in (w.placement, other, w.placement.astype(np.int32), other.copy()):
        for latency in (True, False):
            got = evaluations(place, latency)
            want = plain(actual, place, 8, None)
            if latency:  # drawn afresh from the seed: the same numbers
                want["mean_latency"], want["tail_latency"] = latency_stats(
                    scheduling.ssd_load(actual, place, 8), np.random.default_rng(1234),
                    arrival_seconds=20)
                want["peak_minute_bytes"] = scheduling.ssd_load(actual, place, 8).max(axis=1)
            assert got.keys() == want.keys()
            assert all(np.array_equal(got[k], want[k]) for k in want)
            got["p99_flow"] = -1.0  # a caller's change does not reach the memo
    assert len(calls) == 4  # two placements, with and without latency


def test_readings_sharing_caches_equal_fresh_forecasts_and_detection_checks():
    from storrepro.papers.periodicity import scheduling
    from storrepro.papers.periodicity.experiment import detection_check

    w = _small_surrogate(segments=160)
    # both readings that low-pass the history in turn (they share its low-pass)
    readings = ("preprocessed", "denoised", "forecast_denoised", "raw", "min_horizon=none",
                "min_horizon=7")
    start = w.spec.history_minutes
    caches, det_caches = {}, {}
    ids = np.arange(0, 160, 3)
    for v in readings:
        shared = scheduling.precise_prediction(w, start, None, v, caches)
        fresh = scheduling.precise_prediction(w, start, None, v)
        assert np.array_equal(shared.ids, fresh.ids) and np.array_equal(shared.pred, fresh.pred)
        assert shared.periods == fresh.periods and np.array_equal(shared.base, fresh.base)
        assert detection_check(w, ids, v, det_caches) == detection_check(w, ids, v)


def test_periods_detected_at_one_scale_serve_another():
    """A replicate's runs at other scales (its smooth twin, skewed otherwise; the unscaled even
    load) reuse the periods detected in the first: PrecisePeriod's periods do not depend on a
    series' scale, and the memo is keyed by reading, segment and the end of the history."""
    from storrepro.papers.periodicity import scheduling
    from storrepro.papers.periodicity.experiment import detection_check

    w = _small_surrogate(segments=160, intervals=2)
    scaled = copy.deepcopy(w)
    factor = np.random.default_rng(8).lognormal(0, 1.5, size=(160, 1)).astype(np.float32)
    scaled.read *= factor
    scaled.write *= factor
    starts = scheduling.interval_starts(w)
    ids = np.arange(0, 160, 3)
    for v in ("preprocessed", "min_horizon=7"):
        detected = {}
        for s in starts:
            first = scheduling.precise_prediction(w, s, None, v, detected=detected)
            again = scheduling.precise_prediction(scaled, s, None, v, detected=detected)
            fresh = scheduling.precise_prediction(scaled, s, None, v)
            assert again.periods == fresh.periods  # the top segments of its own volumes
            shared = set(first.periods) & set(fresh.periods)
            assert shared and all(first.periods[g] == fresh.periods[g] for g in shared)
            assert np.array_equal(again.pred, fresh.pred)  # forecasts at the scaled traffic
        checks = {}
        assert detection_check(w, ids, v, detected=checks) == detection_check(scaled, ids, v)
        assert detection_check(scaled, ids, v, detected=checks) == detection_check(scaled, ids, v)
    # the end of the history is in the key: the two intervals detect different periods
    periods = [scheduling.precise_prediction(w, s).periods for s in starts]
    assert any(periods[0][g] != periods[1][g] for g in set(periods[0]) & set(periods[1]))


def _numpy_greedy(pred, ids, placement, ssds, budget, base=None):
    """The greedy loop as numpy writes it (the reference of the numba loop)."""
    place = placement.copy()
    where = place[ids]
    P = ssd_load(pred, where, ssds)
    if base is not None:
        P = P + base[:, None]
    frozen, moves = np.zeros(ids.size, dtype=bool), []
    while len(moves) < budget:
        s_star, b_star = np.unravel_index(int(np.argmax(P)), P.shape)
        movable = np.flatnonzero((where == s_star) & ~frozen)
        if movable.size == 0:
            break
        i = movable[int(np.argmax(pred[movable, b_star]))]
        others = np.delete(np.arange(ssds), s_star)
        target = int(others[int(np.argmin((P[others] + pred[i]).max(axis=1)))])
        if (P[target] + pred[i]).max() >= P[s_star].max():
            frozen[i] = True
            continue
        P[s_star] -= pred[i]
        P[target] += pred[i]
        where[i] = target
        moves.append((int(ids[i]), int(s_star), target))
    place[ids] = where
    return place, moves


def test_greedy_schedule_equals_the_numpy_loop():
    # ties (whole-number forecasts), a base load, budgets past what the loop can use, no
    # forecast segment at all and a zero budget: the same moves and placement
    rng = np.random.default_rng(13)
    for trial in range(120):
        n, ssds = int(rng.integers(0, 300)), int(rng.integers(2, 40))
        pred = rng.lognormal(size=(n, 36)) * 1e6
        if trial % 3 == 0:
            pred = np.round(pred / 1e6)
        ids = rng.permutation(n + 20)[:n]
        placement = np.arange(n + 20) % ssds
        base = rng.lognormal(size=ssds) * 1e6 if trial % 2 else None
        budget = int(rng.integers(0, 120))
        got = schedule(pred, ids, placement, ssds, budget, base=base)
        want = _numpy_greedy(pred, ids, placement, ssds, budget, base)
        assert np.array_equal(got[0], want[0]) and got[1] == want[1]


def test_batched_forecasts_are_each_segments_forecast():
    # every reading (those that low-pass the history share its low-pass): the batched
    # low-passes and forecasts equal _predict's, one segment and side at a time, to the bit,
    # with the same cache entries; forecasts() of mixed lengths, periods and horizons too
    from storrepro.papers.periodicity import scheduling
    from storrepro.papers.periodicity.precise_period import (
        PrecisePeriod,
        forecast,
        forecasts,
        reading_fields,
    )

    w = _small_surrogate(segments=160)
    read, write, top = scheduling._binned_history(w, w.spec.history_minutes)
    wanted = [(int(g), k, int(p)) for g, p in zip(top, (3, 7, 12, 20, 36, 48) * 6, strict=False)
              for k in (0, 1)]
    batched, alone = {}, {}
    for v in ("preprocessed", "denoised", "forecast_denoised", "raw"):
        det = PrecisePeriod(**reading_fields(v))
        for g, k, _ in wanted:
            for caches in (batched, alone):
                caches.setdefault(("clean", g, k), det.clean((read, write)[k][g]))
        got = scheduling._predictions(det, batched, wanted)
        want = np.array([scheduling._predict(det, alone, g, k, p) for g, k, p in wanted])
        assert got.dtype == want.dtype and np.array_equal(got, want)
        assert batched.keys() == alone.keys()
        assert all(np.array_equal(batched[key], alone[key]) for key in alone)
    rng = np.random.default_rng(14)
    histories = [rng.normal(size=int(n)) for n in rng.choice([9, 40, 433], 60)]
    periods = [int(rng.integers(1, h.size // 3 + 1)) for h in histories]
    for horizon in (1, 5, 36, 200):
        want = np.array([forecast(h, t, horizon) for h, t in zip(histories, periods,
                                                                  strict=True)])
        assert np.array_equal(forecasts(histories, periods, horizon), want)
        assert np.array_equal(np.signbit(forecasts(histories, periods, horizon)),
                              np.signbit(want))
    assert forecasts([], [], 36).shape == (0, 36)
    with pytest.raises(ValueError, match="period 4 needs 12 samples"):
        forecasts([np.ones(30), np.ones(11)], [3, 4], 5)
