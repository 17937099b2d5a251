"""Numba versions of PrecisePeriod's steps 1–3, and of numpy's summation (which SAZED and the
SSD latency kernel share), bit-identical to the numpy/pywt formulation.

They sit below the detectors that call them, not in :mod:`.kernel` (the layer above the
algorithms): they are the detectors' own arithmetic. PrecisePeriod runs its preprocessing and
its DWT low-pass reconstructions thousands of times per benchmark on short windows, where
numpy's and pywt's per-call overhead dominates. These functions do the same floating-point
operations in the same order, so their outputs are equal to the last bit to the plain twins in
:mod:`.plain` (numpy's ``percentile``, ``mean`` and ``linspace``, pywt's
``wavedec``/``waverec``; ``tests/test_periodicity_kernels.py`` checks them on random input):

* :func:`pairwise_sum` is numpy's pairwise summation (8 accumulators, blocks of 128);
* :func:`percentile_linear` is ``np.percentile``'s default linear interpolation;
* :func:`dwt_approx` / :func:`idwt_approx` port pywt's periodization convolutions
  (``convolution.template.c``) loop by loop, the inverse without the (all-zero) detail part.
"""

from __future__ import annotations

import numba
import numpy as np

FLOAT_MAX = float(np.finfo(np.float64).max)  # np.nan_to_num's stand-in for +inf


@numba.njit(cache=True)
def _block_sum(a, lo, hi):  # pragma: no cover (numba)
    """numpy's pairwise-sum leaf: up to 128 values, 8 accumulators."""
    n = hi - lo
    if n < 8:
        res = -0.0
        for i in range(lo, hi):
            res += a[i]
        return res
    # eight accumulators as locals (an array here was allocated on every call)
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - (n % 8):
        j = lo + i
        r0 += a[j]
        r1 += a[j + 1]
        r2 += a[j + 2]
        r3 += a[j + 3]
        r4 += a[j + 4]
        r5 += a[j + 5]
        r6 += a[j + 6]
        r7 += a[j + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@numba.njit(cache=True)
def pairwise_sum(a, lo, hi):  # pragma: no cover (numba)
    """numpy's summation of ``a[lo:hi]`` (contiguous float64), same association: halves
    (split at a multiple of 8) summed recursively down to blocks of at most 128. The
    recursion runs on an explicit stack (numba's cache cannot reload recursive functions)."""
    los = np.empty(64, dtype=np.int64)
    his = np.empty(64, dtype=np.int64)
    stage = np.zeros(64, dtype=np.int64)
    values = np.empty(64)
    los[0], his[0], stage[0] = lo, hi, 0
    depth, n_values = 1, 0
    while depth > 0:
        top = depth - 1
        left, right = los[top], his[top]
        n = right - left
        if n <= 128:
            values[n_values] = _block_sum(a, left, right)
            n_values += 1
            depth -= 1
            continue
        n2 = n // 2
        n2 -= n2 % 8
        if stage[top] == 0:  # left half
            stage[top] = 1
            los[depth], his[depth], stage[depth] = left, left + n2, 0
            depth += 1
        elif stage[top] == 1:  # right half
            stage[top] = 2
            los[depth], his[depth], stage[depth] = left + n2, right, 0
            depth += 1
        else:  # both done: left + right
            values[n_values - 2] = values[n_values - 2] + values[n_values - 1]
            n_values -= 1
            depth -= 1
    return values[0]


@numba.njit(cache=True)
def percentile_linear(sorted_values, q):  # pragma: no cover (numba)
    """``np.percentile(values, 100 * q)`` (method 'linear') from the sorted values."""
    n = sorted_values.size
    virtual = (n - 1) * q
    if virtual >= n - 1:
        return sorted_values[n - 1]
    prev = int(np.floor(virtual))
    gamma = virtual - prev
    a, b = sorted_values[prev], sorted_values[prev + 1]
    diff = b - a
    if gamma >= 0.5:
        return b - diff * (1 - gamma)
    return a + diff * gamma


@numba.njit(cache=True)
def _linspace_into(y, first, last):  # pragma: no cover (numba)
    """``y[first:last+1] = np.linspace(y[first], y[last], last - first + 1)``."""
    start, stop = y[first], y[last]
    div = last - first
    delta = stop - start
    step = delta / div
    for i in range(div):
        if step == 0:
            y[first + i] = i / div * delta + start
        else:
            y[first + i] = i * step + start
    y[last] = stop


@numba.njit(cache=True)
def tukey_flags(d, k):  # pragma: no cover (numba)
    """-1 below ``Q1 - k·IQR``, +1 above ``Q3 + k·IQR``, 0 inside (int64)."""
    s = np.sort(d)
    q1 = percentile_linear(s, 0.25)
    q3 = percentile_linear(s, 0.75)
    iqr = q3 - q1
    low, high = q1 - k * iqr, q3 + k * iqr
    flags = np.zeros(d.size, dtype=np.int64)
    for i in range(d.size):
        if d[i] < low:
            flags[i] = -1
        elif d[i] > high:
            flags[i] = 1
    return flags


@numba.njit(cache=True)
def preprocess(x, k, dip_max, dip_neighbours):  # pragma: no cover (numba)
    """Step 1 (see ``precise_period.preprocess``): the cleaned copy, the dips and the bursts
    as ``(count, 2)`` arrays of inclusive sample ranges."""
    n = x.size
    y = x.copy()
    dips = np.empty((n, 2), dtype=np.int64)
    bursts = np.empty((n, 2), dtype=np.int64)
    n_dips = 0
    n_bursts = 0
    if n < 4:
        return y, dips[:0], bursts[:0]
    d = np.empty(n - 1)  # np.diff(x) (a loop: numba's np.diff takes seconds to compile)
    for i in range(n - 1):
        d[i] = x[i + 1] - x[i]
    flags = tukey_flags(d, k)
    m_flags = flags.size
    used = np.zeros(m_flags, dtype=np.bool_)
    pool = np.empty(2 * dip_neighbours)
    # type A: difference t is -1, difference t+m is +1, zeros between, m <= dip_max
    for t in range(m_flags):
        if flags[t] != -1:
            continue
        for m in range(1, dip_max + 1):
            end = t + m
            if end >= m_flags or flags[end] == -1:
                break
            if flags[end] == 1:
                isolated = (t == 0 or flags[t - 1] == 0) and (
                    end + 1 >= m_flags or flags[end + 1] == 0
                )
                between = False
                for i in range(t + 1, end):
                    between = between or flags[i] != 0
                if isolated and not used[t] and not between:
                    lo, hi = t + 1, end
                    count = 0
                    for i in range(max(0, lo - dip_neighbours), lo):
                        pool[count] = x[i]
                        count += 1
                    for i in range(hi + 1, min(n, hi + 1 + dip_neighbours)):
                        pool[count] = x[i]
                        count += 1
                    value = pairwise_sum(pool, 0, count) / count
                    for i in range(lo, hi + 1):
                        y[i] = value
                    used[t] = True
                    used[end] = True
                    dips[n_dips, 0] = lo
                    dips[n_dips, 1] = hi
                    n_dips += 1
                break
    # type B: runs of the remaining flagged differences, gaps of one merged
    rest = np.empty(m_flags, dtype=np.int64)
    n_rest = 0
    for t in range(m_flags):
        if flags[t] != 0 and not used[t]:
            rest[n_rest] = t
            n_rest += 1
    start = 0
    while start < n_rest:
        stop = start
        while stop + 1 < n_rest and rest[stop + 1] - rest[stop] <= 2:
            stop += 1
        first, last = rest[start], rest[stop]
        start = stop + 1
        s, e = first + 1, last
        if s > e:
            continue  # a single flagged difference: a level shift, kept
        p = s
        for i in range(s + 1, e + 1):  # first extreme, as argmin/argmax
            if (flags[first] < 0 and y[i] < y[p]) or (flags[first] >= 0 and y[i] > y[p]):
                p = i
        _linspace_into(y, first, p)
        _linspace_into(y, p, last + 1)
        bursts[n_bursts, 0] = s
        bursts[n_bursts, 1] = e
        n_bursts += 1
    return y, dips[:n_dips], bursts[:n_bursts]


@numba.njit(cache=True)
def _filter_order(i, n, taps, order):  # pragma: no cover (numba)
    """The order in which pywt's periodization loops add the filter taps for input position
    ``i``: ascending while the filter's reach stays inside the signal (i < n), else first the
    taps that wrapped past its end (i - n down to 0), then the rest ascending."""
    k = 0
    if i >= n:
        for f in range(i - n, -1, -1):
            order[k] = f
            k += 1
        for f in range(i - n + 1, taps):
            order[k] = f
            k += 1
    else:
        for f in range(taps):
            order[k] = f
            k += 1


@numba.njit(cache=True)
def dwt_approx(x, filt):  # pragma: no cover (numba)
    """pywt ``dwt(x, w, 'periodization')[0]`` for an even-length ``x``: output k is
    ``sum_f filt[f] x[(2k + F/2 - f) mod N]``, the terms added in the order of pywt's
    ``downsampling_convolution_periodization``."""
    n, taps = x.size, filt.size
    out = np.empty(n // 2)
    order = np.empty(taps, dtype=np.int64)
    for o in range(n // 2):
        i = taps // 2 + 2 * o
        acc = 0.0
        if taps - 1 <= i < n:  # the filter's reach inside the signal: taps in order, no wrap
            for f in range(taps):
                acc += filt[f] * x[i - f]
        else:
            _filter_order(i, n, taps, order)
            for f in order:
                acc += filt[f] * x[(i - f) % n]
        out[o] = acc
    return out


@numba.njit(cache=True)
def idwt_approx(a, filt):  # pragma: no cover (numba)
    """pywt ``idwt(a, zeros, w, 'periodization')``: each input position i feeds an even and
    an odd output sample through the even and odd filter taps, the terms added in the order of
    pywt's ``upsampling_convolution_valid_sf_periodization`` (zero details add only zeros)."""
    n, half = a.size, filt.size // 2
    out = np.zeros(2 * n)
    order = np.empty(half, dtype=np.int64)
    start = filt.size // 4
    shift = half % 2 == 0  # pywt shifts the output one sample right for perfect reconstruction
    for step in range(n):
        if not shift:
            i, even, odd = start + step, 2 * step, 2 * step + 1
        elif step == 0:  # the shifted case begins with the wrapped-around position
            i, even, odd = n + start - 1, 2 * n - 1, 0
        else:
            i, even, odd = start + step - 1, 2 * step - 1, 2 * step
        acc_even = 0.0
        acc_odd = 0.0
        if half - 1 <= i < n:  # no wrap: the taps in order, as _filter_order gives them
            for j in range(half):
                acc_even += filt[2 * j] * a[i - j]
                acc_odd += filt[2 * j + 1] * a[i - j]
        else:
            _filter_order(i, n, half, order)
            for j in order:
                acc_even += filt[2 * j] * a[(i - j) % n]
                acc_odd += filt[2 * j + 1] * a[(i - j) % n]
        out[even] = acc_even
        out[odd] = acc_odd
    return out


@numba.njit(cache=True)
def lowpass_levels(x, levels, dec_lo, rec_lo):  # pragma: no cover (numba)
    """One row per level j: ``x`` rebuilt from its level-j approximation (details zeroed),
    symmetric-padded to a multiple of 2^j, periodization boundary; level 0 is ``x``."""
    n = x.size
    out = np.empty((levels.size, n))
    for row in range(levels.size):  # element loops: numba compiles slice copies slowly
        level = levels[row]
        pad = (-n) % (1 << level)
        a = np.empty(n + pad)
        for i in range(n):
            a[i] = x[i]
        for i in range(pad):
            a[n + i] = x[n - 1 - i]
        for _ in range(level):
            a = dwt_approx(a, dec_lo)
        for _ in range(level):
            a = idwt_approx(a, rec_lo)
        for i in range(n):
            out[row, i] = a[i]
    return out


@numba.njit(cache=True)
def preprocess_rows(x, k, dip_max, dip_neighbours):  # pragma: no cover (numba)
    """:func:`preprocess`'s cleaned copy of each row of ``x`` (series of one length)."""
    out = np.empty_like(x)
    for row in range(x.shape[0]):
        out[row] = preprocess(x[row], k, dip_max, dip_neighbours)[0]
    return out


@numba.njit(cache=True)
def lowpass_levels_rows(x, levels, dec_lo, rec_lo):  # pragma: no cover (numba)
    """:func:`lowpass_levels` of each row of ``x``: shape (rows, levels, samples)."""
    out = np.empty((x.shape[0], levels.size, x.shape[1]))
    for row in range(x.shape[0]):
        out[row] = lowpass_levels(x[row], levels, dec_lo, rec_lo)
    return out


@numba.njit(cache=True, error_model="numpy")
def lagged_pearson(x, cross):  # pragma: no cover (numba)
    """Per row of ``x``: the Pearson correlation of ``x[:-k]`` with ``x[k:]`` at lags
    k = 0..K-1 from the lagged cross products ``cross`` (rows × K), with numpy's arithmetic of
    ``precise_period.acf_lagged_pearson``: prefix sums for each side's mean and variance, NaN
    (zero variance) as 0 and ±inf as the largest finite values (``np.nan_to_num``)."""
    rows, n = x.shape
    lags = cross.shape[1]
    big = FLOAT_MAX
    r = np.empty((rows, lags))
    c = np.empty(n + 1)
    c2 = np.empty(n + 1)
    for row in range(rows):
        c[0] = 0.0
        c2[0] = 0.0
        for i in range(n):
            v = x[row, i]
            c[i + 1] = x[row, 0] if i == 0 else c[i] + v
            c2[i + 1] = v * v if i == 0 else c2[i] + v * v
        for k in range(lags):
            m = n - k
            s_head, s_tail = c[m], c[n] - c[k]
            q_head, q_tail = c2[m], c2[n] - c2[k]
            cov = cross[row, k] - s_head * s_tail / m
            var_head = max(q_head - s_head * s_head / m, 0.0)
            var_tail = max(q_tail - s_tail * s_tail / m, 0.0)
            v = cov / np.sqrt(var_head * var_tail)
            if np.isnan(v):
                v = 0.0
            elif v == np.inf:
                v = big
            elif v == -np.inf:
                v = -big
            r[row, k] = v
    return r


@numba.njit(cache=True)
def peak_lags(r, kmax, valid):  # pragma: no cover (numba)
    """Per row of ACF values ``r``: the lag of the highest local maximum with r > 0 among
    lags 2..kmax (first on ties), or -1 when there is none or the row is not ``valid``."""
    out = np.full(r.shape[0], -1, dtype=np.int64)
    for row in range(r.shape[0]):
        if not valid[row]:
            continue
        best = -1
        for k in range(2, kmax + 1):
            v = r[row, k]
            peak = v > r[row, k - 1] and v >= r[row, k + 1] and v > 0
            if peak and (best < 0 or v > r[row, best]):
                best = k
        out[row] = best
    return out


@numba.njit(cache=True)
def centred_forecasts(src, src_start, src_len, tgt, tgt_start, period, horizon,
                      out_start):  # pragma: no cover (numba)
    """The two sides of ``precise_period.pcc`` for many verifications at once, each less its
    mean (numpy's sum over the size): for request r, the 3-period-mean forecast
    (``precise_period.forecast``) of the history ``src[src_start[r]:][:src_len[r]]`` over
    ``horizon[r]`` steps and its target ``tgt[tgt_start[r]:][:horizon[r]]``, written from
    ``out_start[r]`` (``out_start[-1]``: the total length)."""
    a = np.empty(out_start[-1])
    b = np.empty(out_start[-1])
    for r in range(period.size):
        t, h, o = period[r], horizon[r], out_start[r]
        end = src_start[r] + src_len[r]  # the history's end: sample n
        for k in range(h):
            at = end + k % t  # n + k mod T, less 1, 2 and 3 periods
            a[o + k] = (0.0 + src[at - t] + src[at - 2 * t] + src[at - 3 * t]) / 3
            b[o + k] = tgt[tgt_start[r] + k]
        mean_a = pairwise_sum(a, o, o + h) / h
        mean_b = pairwise_sum(b, o, o + h) / h
        for k in range(h):
            a[o + k] -= mean_a
            b[o + k] -= mean_b
    return a, b
