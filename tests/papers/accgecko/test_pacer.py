"""The fixed-rate pacer: its closed form against the recursion and the simpy FIFO, its exact
percentiles, and its snapshots (replays on fewer requests that change no result)."""

import math

import numpy as np
import pytest

from accgecko_samples import bursty
from storrepro.papers.accgecko.kernel import dispatch_overhead_us
from storrepro.papers.accgecko.pacer import (
    Replayer,
    _kth_smallest,
    _narrowed,
    _replay,
    largest,
    pacer_waits,
    rank_from_top,
    snapshot_room,
)
from storrepro.sim.fifo import simulate_fifo


def test_pacer_closed_form_equals_the_recursion_and_the_fifo_server():
    rng = np.random.default_rng(0)
    a = bursty(rng, 3000)
    sr = 2500.0
    start, expected = -np.inf, []
    for t in a:
        start = max(t, start + 1 / sr)
        expected.append(start - t)
    assert pacer_waits(a, sr) == pytest.approx(np.array(expected), abs=1e-12)
    waits, _ = simulate_fifo(a, np.full(a.size, 1 / sr))  # the shared simpy FIFO
    assert pacer_waits(a, sr) == pytest.approx(waits, abs=1e-9)


def test_percentile_is_the_ranked_request():
    a = np.arange(1000) * 1e-3  # never queues at 2000 IOPS
    overhead = np.arange(1000, dtype=float)
    rep = Replayer(a, overhead)
    assert rank_from_top(1000, 99) == 10
    assert rep.percentile_us(99, 2000.0) == 990.0
    assert rep.percentiles_us([99, 99.9], 2000.0).tolist() == [990.0, 999.0]


def numpy_closed_form(a, overhead, sr):
    """The pacer's closed form with numpy: the arithmetic the kernel must repeat exactly."""
    shifted = a - np.arange(a.size, dtype=float) * (1.0 / sr)
    return (np.maximum.accumulate(shifted) - shifted) * 1e6 + overhead


def test_kernel_repeats_the_closed_form_bit_for_bit():
    rng = np.random.default_rng(5)
    a = bursty(rng, 50_000)
    overhead = dispatch_overhead_us(rng, a.size)
    for sr in (2100.0, 3000.0, 9000.0):
        assert np.array_equal(
            Replayer(a, overhead).latencies_us(sr), numpy_closed_form(a, overhead, sr)
        )


@pytest.mark.parametrize("seed", range(3))
def test_percentiles_are_exact_order_statistics(seed):
    rng = np.random.default_rng(seed)
    a = bursty(rng, 30_000)
    overhead = dispatch_overhead_us(rng, a.size)
    ps = [50.0, 95.0, 99.0, 99.9, 99.99, 99.999]
    for sr in (2000.0, 4000.0, 50_000.0):
        lat = np.sort(numpy_closed_form(a, overhead, sr))[::-1]
        expected = [lat[rank_from_top(a.size, p) - 1] for p in ps]
        assert Replayer(a, overhead).percentiles_us(ps, sr).tolist() == expected
    waits = Replayer(a)  # no overhead: most latencies are exactly 0
    lat = np.sort(numpy_closed_form(a, 0.0, 50_000.0))[::-1]
    assert waits.percentiles_us([50.0, 99.0], 50_000.0).tolist() == [
        lat[rank_from_top(a.size, 50.0) - 1],
        lat[rank_from_top(a.size, 99.0) - 1],
    ]


@pytest.mark.parametrize("seed", range(3))
def test_snapshots_change_no_result(seed):
    """A replayer reused over rates in any order (rate-search order, or a sweep up the rates)
    gives exactly what a fresh replay gives at each rate."""
    rng = np.random.default_rng(seed)
    a = bursty(rng, 40_000)
    overhead = dispatch_overhead_us(rng, a.size)
    rates = [31_000.0, 16_500.0, 9_250.0, 5_625.0, 3_812.0, 4_718.0, 4_265.0, 2_100.0, 60_000.0]
    ps = [99.0, 99.9]
    with_overhead, without = Replayer(a, overhead), Replayer(a)
    for sr in rates:
        fresh = np.sort(numpy_closed_form(a, overhead, sr))[::-1]
        expected = [fresh[rank_from_top(a.size, p) - 1] for p in ps]
        assert with_overhead.percentiles_us(ps, sr, use="search").tolist() == expected
        waits = np.sort(numpy_closed_form(a, 0.0, sr))[::-1]
        assert without.max_wait_us(sr, use="search") == waits[0]
        assert with_overhead.max_wait_us(sr, use="search") == waits[0]  # bounded by the peaks
        assert (
            without.percentile_us(99.9, sr, use="search") == waits[rank_from_top(a.size, 99.9) - 1]
        )
    assert len(without._snapshots) > 1 and len(with_overhead._snapshots) > 1  # they took some
    swept = Replayer(a, overhead).percentiles_at(rates, ps)
    for sr in rates:
        assert [swept[sr, p] for p in ps] == Replayer(a, overhead).percentiles_us(ps, sr).tolist()


def test_bad_overhead_shape():
    with pytest.raises(ValueError, match="overhead_us"):
        Replayer([0.0, 1.0], np.zeros(3))


@pytest.mark.parametrize("seed", [0, 1])
def test_largest_are_exact_order_statistics(seed):
    """Ties, zeros (also -0.0), subnormals (they share bucket 0 with the zeros, which selection
    skips) and a spread of magnitudes, against a full sort."""
    rng = np.random.default_rng(seed)
    subnormals = np.arange(1, 40) * 5e-324
    values = np.concatenate([np.zeros(5000), -np.zeros(10), rng.exponential(100.0, 20_000),
                             np.full(300, 17.5), rng.uniform(1e-12, 1e-9, 50),
                             subnormals])  # fmt: skip
    rng.shuffle(values)
    # 20 350 values lie above bucket 0; then the 39 subnormals, then the zeros
    ranks = [1, 7, 300, 4000, 20_351, 20_370, 20_389, 20_390, 25_000, values.size]
    expected = np.sort(values)[::-1][np.array(ranks) - 1]
    assert largest(values, ranks).tolist() == expected.tolist()


def test_quickselect_every_rank_with_ties():
    rng = np.random.default_rng(3)
    for values in (rng.integers(0, 4, 57).astype(float), rng.exponential(1.0, 64),
                   np.full(9, 2.5), np.array([1.0])):  # fmt: skip
        want = np.sort(values)
        got = [_kth_smallest(values.copy(), k) for k in range(values.size)]
        assert got == want.tolist()


@pytest.mark.parametrize(
    "values, ranks, match",
    [([1.0, -2.0], [1], "values"), ([], [1], "values"), ([1.0, math.nan], [1], "values"),
     ([1.0, 2.0], [0], "ranks"), ([1.0, 2.0], [3], "ranks")],
)  # fmt: skip
def test_largest_refuses_bad_input_by_name(values, ranks, match):
    with pytest.raises(ValueError, match=match):
        largest(values, ranks)


@pytest.mark.parametrize("seed", range(2))
def test_a_sweep_over_close_rates_narrows_its_snapshots_and_changes_no_result(seed, monkeypatch):
    """Many close rates: going down a block the sweep narrows the snapshot it reads, and every
    percentile is still the fresh replay's."""
    from storrepro.papers.accgecko import pacer

    narrowed = []
    monkeypatch.setattr(pacer, "_narrowed", lambda *a: narrowed.append(a) or _narrowed(*a))
    rng = np.random.default_rng(seed)
    a = bursty(rng, 40_000)
    overhead = dispatch_overhead_us(rng, a.size)
    rates = np.linspace(2_200.0, 9_000.0, 40).round().tolist()
    ps = [99.0, 99.9]
    swept = Replayer(a, overhead).percentiles_at(rates, ps)
    assert narrowed
    for sr in rates:
        fresh = np.sort(numpy_closed_form(a, overhead, sr))[::-1]
        assert [swept[sr, p] for p in ps] == [fresh[rank_from_top(a.size, p) - 1] for p in ps]


@pytest.mark.parametrize("seed", range(2))
def test_a_sweep_of_each_rates_own_percentiles_gives_the_fresh_replays(seed):
    """Rates that need only one of the percentiles (replaying only what lies above its bound)
    get exactly the fresh replay's, and only what they asked for."""
    rng = np.random.default_rng(seed)
    a = bursty(rng, 40_000)
    overhead = dispatch_overhead_us(rng, a.size)
    rates = np.linspace(2_200.0, 9_000.0, 30).round().tolist()
    needed = {sr: [(99.0,), (99.9,), (99.0, 99.9)][i % 3] for i, sr in enumerate(rates)}
    swept = Replayer(a, overhead).percentiles_of(needed)
    assert set(swept) == {(sr, p) for sr, ps in needed.items() for p in ps}
    for sr, ps in needed.items():
        fresh = np.sort(numpy_closed_form(a, overhead, sr))[::-1]
        assert [swept[sr, p] for p in ps] == [fresh[rank_from_top(a.size, p) - 1] for p in ps]


def busy_periods_above(a, overhead, sr, floor):
    """The snapshot a replay at ``sr`` must leave, by numpy on the whole trace: every busy
    period (a run from one request that waits 0 to the next) whose largest latency exceeds
    ``floor`` — first request, arrivals, overheads, starts, peaks."""
    shifted = a - np.arange(a.size, dtype=float) * (1.0 / sr)
    wait = np.maximum.accumulate(shifted) - shifted
    latency = wait * 1e6 + overhead
    bounds = np.append(np.flatnonzero(wait == 0), a.size)
    spans = zip(bounds[:-1], bounds[1:], strict=True)
    kept = [(lo, hi) for lo, hi in spans if latency[lo:hi].max() > floor]
    inside = np.concatenate([np.arange(lo, hi) for lo, hi in kept] or [np.empty(0, int)])
    sizes = [hi - lo for lo, hi in kept]
    return ([lo for lo, _ in kept], a[inside], overhead[inside], np.cumsum([0, *sizes]),
            [latency[lo:hi].max() for lo, hi in kept])  # fmt: skip


@pytest.mark.parametrize("seed", range(2))
def test_a_replay_leaves_the_busy_periods_above_its_floor(seed):
    """The snapshot a replay copies as it goes (a period under the floor undone when it closes)
    holds exactly the busy periods above its floor, from the whole trace or from the snapshot
    of a lower rate; with the floor above every latency it holds none."""
    rng = np.random.default_rng(seed)
    a = bursty(rng, 30_000)
    overhead = dispatch_overhead_us(rng, a.size)
    replayer = Replayer(a, overhead)
    for sr in (2_300.0, 4_100.0, 7_700.0):  # each replays the snapshot the one before left
        replayer.percentiles_us([99.0, 99.9], sr, use="sweep")
        snap = replayer._snapshots[-1]
        assert snap.rate == sr and 0 < snap.arrivals.size < a.size
        expected = busy_periods_above(a, overhead, sr, snap.floor)
        for got, want in zip(snap.requests, expected, strict=True):
            assert np.array_equal(got, want)
    everything = replayer._snapshots[0].requests
    kept = snapshot_room(a.size, True)
    latency, none = np.empty(a.size), np.empty(0, np.int64)
    *_, periods, requests = _replay(everything, 1 / 2_300.0, 1e9, latency, none, False, kept)
    assert (periods, requests) == (0, 0)


def test_the_overheads_floor_is_the_bucket_bincount_finds():
    """The floor of a rank (the lower edge of the bucket holding that rank of the overheads),
    from the selection histogram, is the one ``np.bincount`` of the buckets gave; a -0.0
    overhead counts as 0.0."""
    from storrepro.papers.accgecko.pacer import BUCKET_SHIFT

    overhead = np.array([-0.0, 0.0, 17.0, 17.0, 17.25, 20.0, 25.5, 25.5, 33.0, 1e-300])
    replayer = Replayer(np.arange(overhead.size) * 1e-3, overhead)
    buckets = np.bincount((overhead + 0.0).view(np.int64) >> BUCKET_SHIFT)
    at_or_above = np.cumsum(buckets[::-1])
    for rank in range(1, overhead.size + 1):
        bucket = at_or_above.size - 1 - int(np.searchsorted(at_or_above, rank))
        expected = float(np.array([bucket << BUCKET_SHIFT]).view(float)[0])
        assert replayer._floor([rank]) == expected
    assert replayer._floor([1]) == 33.0 and replayer._floor([overhead.size]) == 0.0
