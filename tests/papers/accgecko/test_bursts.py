"""The one-directional truncated DBSCAN on worked examples, vs its literal sequential
procedure, and vs what a standard DBSCAN finds on the same states."""

import numpy as np
import pytest
from sklearn.cluster import DBSCAN

from storrepro.papers.accgecko.bursts import burst_peaks, burst_sizes, continuous_bursts, in_bursts


@pytest.mark.parametrize(
    "counts, expected",
    [
        ([10, 2, 2, 2], []),  # isolated: one burst state, its tail is truncated
        ([10, 10], [[0, 1]]),
        ([10, 2, 10, 0, 0], [[0, 2]]),  # mean(10, 2, 10) = 7.33 > 4; trailing quiet states cut
        ([6, 0, 0, 0, 6], []),  # two isolated bursts
    ],
)
def test_u2_examples(counts, expected):
    assert continuous_bursts(np.array(counts), 2.0, mean_count=2.0).tolist() == expected


def literal_procedure(n, m, mean):
    """The procedure's pseudo-code, literally (O(T^2) sums); a mean equal to the level is a tie."""
    level, out, t, size = m * mean, [], 0, len(n)
    above = lambda a, x: n[a : x + 1].sum() - level * (x - a + 1) > 1e-9  # noqa: E731
    d = lambda a, b: np.inf if np.mean(n[a : b + 1]) == 0 else 1 / np.mean(n[a : b + 1])  # noqa: E731
    while t < size:
        if n[t] <= level:
            t += 1
            continue
        a, x = t, t + 1
        while x < size and above(a, x):
            x += 1
        e = x - 1
        while e > a and d(a, e) > d(a, e - 1):
            e -= 1
        if e - a + 1 >= 2:
            out.append([a, e])
            t = e + 1
        else:
            t = a + 1
    return out


@pytest.mark.parametrize("seed", range(20))
def test_scan_equals_the_literal_procedure(seed):
    rng = np.random.default_rng(seed)
    n = rng.poisson(2, 400)
    n[rng.integers(0, 400, 15)] += rng.integers(3, 12, 15)  # some bursts
    for m in (1.3, 1.5, 2.0):
        assert continuous_bursts(n, m, mean_count=2.0).tolist() == literal_procedure(n, m, 2.0)


def test_core_threshold_above_the_neighbourhood_level():
    # cores need n > 4 (core_m = 2), growth continues while the mean stays > 3 (m = 1.5)
    n = np.array([0, 5, 3, 3, 5, 1, 0])
    assert continuous_bursts(n, 1.5, core_m=2.0, mean_count=2.0).tolist() == [[1, 4]]
    assert continuous_bursts(n, 2.0, mean_count=2.0).tolist() == []


def test_standard_dbscan_differs_as_the_paper_says():
    """sklearn's DBSCAN on the same distance d(a, b) = 1/mean(n_a..n_b) and ε: the
    neighbourhood is symmetric, so it reaches backwards in time, keeps decaying tails and joins
    bursts the one-directional scan treats as isolated."""
    n = np.array([0, 0, 10, 2, 2, 2, 0, 0, 0, 0], dtype=float)
    size = n.size
    dist = np.full((size, size), np.inf)
    for a in range(size):
        for b in range(a, size):
            mean = n[a : b + 1].mean()
            dist[a, b] = dist[b, a] = np.inf if mean == 0 else 1 / mean
    np.fill_diagonal(dist, 0)
    eps = 1 / (2.0 * 2.0)
    labels = (
        DBSCAN(eps=eps, min_samples=2, metric="precomputed")
        .fit(np.where(np.isinf(dist), 1e9, dist))
        .labels_
    )
    standard = set(np.flatnonzero(labels == labels[2]).tolist())
    assert 1 in standard  # reaches back to the quiet state before the burst
    assert {2, 3} <= standard  # keeps the decaying tail
    assert continuous_bursts(n, 2.0, mean_count=2.0).tolist() == []  # isolated here


@pytest.mark.parametrize(
    "counts, kwargs, match",
    [
        ([], {}, "non-empty"),
        ([1, -1], {}, ">= 0"),
        ([1, 5], {"core_m": 1.0, "m": 2.0}, "m <= core_m"),
        ([0, 0], {}, "mean_count"),
    ],
)
def test_bad_input(counts, kwargs, match):
    kwargs = {"m": 2.0, **kwargs}
    with pytest.raises(ValueError, match=match):
        continuous_bursts(np.array(counts), **kwargs)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0])
def test_fits_refuse_non_finite_or_negative_counts(bad):
    from storrepro.papers.accgecko.acctail import AccTail
    from storrepro.papers.accgecko.baselines import SncMeister
    from storrepro.papers.accgecko.mmp import MarkovCounts

    counts = [1.0, 5.0, bad, 2.0]
    with pytest.raises(ValueError, match="counts must hold finite numbers >= 0; entry 2"):
        continuous_bursts(counts, 2.0)
    with pytest.raises(ValueError, match="counts must hold finite numbers"):
        AccTail().fit(counts)
    with pytest.raises(ValueError, match="counts must hold finite numbers"):
        SncMeister().fit(counts)
    with pytest.raises(ValueError, match="counts must hold finite numbers"):
        MarkovCounts().fit(counts)
    with pytest.raises(ValueError, match="mean_count must be a finite number > 0"):
        continuous_bursts([1, 5, 2], 2.0, mean_count=float("inf"))


def test_span_sizes_peaks_and_mask_by_hand():
    counts = np.array([5, 1, 7, 3, 0, 9, 2, 4])
    spans = np.array([[0, 1], [2, 3], [5, 7]])  # adjacent spans, and one ending the segment
    assert burst_sizes(counts, spans).tolist() == [6, 10, 15]
    assert burst_peaks(counts, spans).tolist() == [5, 7, 9]
    assert in_bursts(counts.size, spans).tolist() == [1, 1, 1, 1, 0, 1, 1, 1]
    none = np.empty((0, 2), np.int64)
    assert burst_sizes(counts, none).size == burst_peaks(counts, none).size == 0
    assert not in_bursts(counts.size, none).any()


def test_integer_and_float_counts_give_the_same_bursts():
    n = np.random.default_rng(3).poisson(2.0, 5000)
    n[::97] += 9
    assert n.dtype.kind == "i"
    spans = continuous_bursts(n, 1.5, mean_count=2.0)
    assert spans.size
    assert spans.tolist() == continuous_bursts(n.astype(float), 1.5, mean_count=2.0).tolist()
    assert spans.tolist() == continuous_bursts(n.astype(np.uint16), 1.5, mean_count=2.0).tolist()
