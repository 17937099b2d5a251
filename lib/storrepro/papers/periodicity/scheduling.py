"""PreciseScheduling (paper §4; its "Algorithm 2" listing is missing, this is our reconstruction)
and its history baselines: forecasts and greedy moves of segments between SSDs.

Each 6 h interval (36 ten-minute bins) every method starts from hash placement and may move up
to ``budget`` segments (moves take effect at the start of the interval). It repeatedly takes the
SSD and bin with the highest *predicted* traffic, picks the segment there that contributes most
to that bin, and moves it to the SSD whose predicted peak would be lowest afterwards (random-
history: a random SSD); a move that would not lower the peak freezes the segment instead.

* **PreciseScheduling** predicts the top 20 % segments (by historical traffic): PrecisePeriod on
  the 10-min read and write series of the history; a side without a period borrows the other's
  ("use the periodicity of read to predict write"); the forecast is the mean of the last three
  periods. Segments with no period are unpredictable and never moved.
* **greedy-history / random-history** predict *every* segment by its traffic in the previous 6 h.

The budget of an overhead ``o`` is ``round(o · mean total traffic · 6 h / 32 GB)`` moves. The
study that replays each interval's actual traffic under every method and scores tail flow and
SSD latency is :func:`storrepro.papers.periodicity.experiment.run_replicate`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from storrepro.papers.periodicity.precise_period import (
    PrecisePeriod,
    dwt_lowpass_many,
    forecast,
    forecasts,
    reading_fields,
)
from storrepro.papers.periodicity.workload import MINUTES_PER_INTERVAL, Workload, bin_sum

SEGMENT_BYTES = 32e9
BIN_MIN = 10
BINS = MINUTES_PER_INTERVAL // BIN_MIN
TOP_SHARE = 0.2
#: Overheads PreciseScheduling also runs under the non-primary readings (those of F3–F7).
ALT_OVERHEADS = (0.01, 0.02, 0.05)
METHODS = ("PreciseScheduling", "greedy-history", "random-history")
#: Beside the methods, the same greedy loop fed the interval's *actual* traffic of every
#: segment: in the 10-min bins every method plans on (it lowers the highest 10-min load, not
#: the latency tail, so it is no bound on the tail: a one-minute burst on an SSD that is not
#: the 10-min peak is left alone), and in the 1-min bins the latency is read from.
ACTUAL_10MIN = "greedy on actual 10-min traffic"
ACTUAL_1MIN = "greedy on actual 1-min traffic"
ACTUALS = (ACTUAL_10MIN, ACTUAL_1MIN)


def move_budget(
    overhead: float,
    mean_bytes_per_s: float,
    hours: float = 6.0,
    segment_bytes: float = SEGMENT_BYTES,
) -> int:
    """Moves allowed by a traffic overhead: round(o · traffic · time / segment size).

    Rounded, not floored: the paper's "1 % = 17 segments" is round(16.9).
    """
    if not 0 <= overhead <= 1:
        raise ValueError(f"overhead = {overhead!r}: expected a fraction in [0, 1]")
    return int(np.round(overhead * mean_bytes_per_s * hours * 3600 / segment_bytes))


def ssd_load(traffic: np.ndarray, placement: np.ndarray, ssds: int,
             reference: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Per-SSD sums of per-segment traffic rows: (segments, T) -> (ssds, T), each SSD's rows
    added in segment order (as ``traffic[placement == s].sum(axis=0)`` adds them, for T >= 2),
    in one pass without copying the rows. ``reference``: another placement and its load of the
    same ``traffic``; an SSD holding the same segments under both keeps that row (the same
    rows added in the same order), only the SSDs that gained or lost a segment are summed."""
    traffic = np.ascontiguousarray(traffic, dtype=float)
    placement = np.asarray(placement, dtype=np.int64)
    if reference is None:
        return _ssd_sums(traffic, placement, ssds)
    return _ssd_sums_from(traffic, placement, ssds, np.asarray(reference[0], dtype=np.int64),
                          np.ascontiguousarray(reference[1], dtype=float))


@numba.njit(cache=True)
def _ssd_sums(traffic, placement, ssds):  # pragma: no cover (numba)
    out = np.zeros((ssds, traffic.shape[1]))
    for i in range(traffic.shape[0]):
        row = out[placement[i]]
        for t in range(traffic.shape[1]):
            row[t] += traffic[i, t]
    return out


@numba.njit(cache=True)
def _ssd_sums_from(traffic, placement, ssds, before, load):  # pragma: no cover (numba)
    changed = np.zeros(ssds, dtype=np.bool_)
    for i in range(placement.size):
        if placement[i] != before[i]:
            changed[placement[i]] = True
            changed[before[i]] = True
    out = load.copy()
    for s in range(ssds):
        if changed[s]:
            out[s] = 0.0
    for i in range(traffic.shape[0]):
        if changed[placement[i]]:
            row = out[placement[i]]
            for t in range(traffic.shape[1]):
                row[t] += traffic[i, t]
    return out


def schedule(
    pred: np.ndarray,
    ids: np.ndarray,
    placement: np.ndarray,
    ssds: int,
    budget: int,
    rng: np.random.Generator | None = None,
    base: np.ndarray | None = None,
) -> tuple[np.ndarray, list]:
    """Greedy peak-shaving moves (random target if ``rng`` is given); returns the new placement
    and the moves ``(segment, from, to)``. ``pred[i]`` is the forecast of segment ``ids[i]``;
    ``base`` (per SSD) is a constant added to each SSD's forecast for the load it carries that
    is not forecast (it never moves).
    """
    if budget < 0:
        raise ValueError(f"budget = {budget!r}: expected >= 0 moves")
    place = placement.copy()
    where = place[ids]
    P = ssd_load(pred, where, ssds)
    if base is not None:
        P = P + np.asarray(base, dtype=float)[:, None]
    if rng is None:  # the greedy target: the loop in numba, numpy's comparisons and sums
        moved = _greedy_moves(P, np.ascontiguousarray(pred, dtype=float), where, budget)
        place[ids] = where
        return place, [(int(ids[i]), int(src), int(dst)) for i, src, dst in moved]
    frozen = np.zeros(ids.size, dtype=bool)
    moves = []
    while len(moves) < budget:
        s_star, b_star = np.unravel_index(int(np.argmax(P)), P.shape)
        movable = np.flatnonzero((where == s_star) & ~frozen)
        if movable.size == 0:
            break
        i = movable[int(np.argmax(pred[movable, b_star]))]
        target = int(rng.choice(np.delete(np.arange(ssds), s_star)))
        if (P[target] + pred[i]).max() >= P[s_star].max():
            frozen[i] = True
            continue
        P[s_star] -= pred[i]
        P[target] += pred[i]
        where[i] = target
        moves.append((int(ids[i]), int(s_star), target))
    place[ids] = where
    return place, moves


@numba.njit(cache=True)
def _greedy_moves(P, pred, where, budget):  # pragma: no cover (numba)
    """:func:`schedule`'s loop with the greedy target, on the SSDs' forecast load ``P`` and
    each forecast segment's SSD ``where`` (both updated in place): the same choices as the
    numpy loop (``argmax``/``argmin``: the first of equals; peaks as ``(P[s] + pred[i]).max()``);
    returns the moves as rows (index into ``pred``, from, to)."""
    n, ssds, bins = pred.shape[0], P.shape[0], P.shape[1]
    frozen = np.zeros(n, dtype=np.bool_)
    moves = np.empty((max(budget, 0), 3), dtype=np.int64)
    count = 0
    while count < budget:
        s_star, b_star = 0, 0  # the SSD and bin of the highest forecast load (the first)
        for s in range(ssds):
            for t in range(bins):
                if P[s, t] > P[s_star, b_star]:
                    s_star, b_star = s, t
        i = -1  # its unfrozen segment contributing most to that bin
        for j in range(n):
            if where[j] == s_star and not frozen[j] and (
                    i < 0 or pred[j, b_star] > pred[i, b_star]):
                i = j
        if i < 0:
            break
        target, low = -1, 0.0  # the other SSD whose peak would be lowest with it
        for s in range(ssds):
            if s != s_star:
                peak = P[s, 0] + pred[i, 0]
                for t in range(1, bins):
                    peak = max(peak, P[s, t] + pred[i, t])
                if target < 0 or peak < low:
                    target, low = s, peak
        if low >= P[s_star].max():  # no lower peak: the segment stays, frozen
            frozen[i] = True
            continue
        for t in range(bins):
            P[s_star, t] -= pred[i, t]
            P[target, t] += pred[i, t]
        where[i] = target
        moves[count, 0], moves[count, 1], moves[count, 2] = i, s_star, target
        count += 1
    return moves[:count]


@dataclass(frozen=True)
class Prediction:
    ids: np.ndarray  # predictable segments
    pred: np.ndarray  # (len(ids), BINS) forecast, bytes per 10 min
    periods: dict  # segment -> (T_read, T_write) in 10-min bins (None: no period)
    base: np.ndarray | None = None  # per SSD: mean 10-min traffic of its unforecast segments


def precise_prediction(
    w: Workload,
    start: int,
    periods: dict | None = None,
    verification: str = "preprocessed",
    caches: dict | None = None,
    detected: dict | None = None,
) -> Prediction:
    """PreciseScheduling's forecast of the interval starting at minute ``start``.

    ``periods`` reuses detections made earlier (segment -> (T_read, T_write)); missing segments
    are detected on the history before ``start``. ``verification`` is PrecisePeriod's reading
    (:func:`~storrepro.papers.periodicity.precise_period.reading_fields`: a verification target,
    which also sets the series the forecast is built from, or a minimum horizon).
    ``caches`` (a dict, kept between calls for the same ``start``) shares each series' windows
    (see :meth:`PrecisePeriod.windows`) and its preprocessed history between the readings.
    ``detected`` (a dict) keeps the periods detected, by reading, segment and ``start``, for the
    runs of one generated workload at other scales: a period does not depend on its series'
    scale (every step of PrecisePeriod is scale-free: Tukey fences, wavelet levels, ACF, PCC).
    """
    caches = {} if caches is None else caches
    detected = {} if detected is None else detected
    if ("history", start) not in caches:  # the same for every reading
        caches[("history", start)] = _binned_history(w, start)
    read, write, top = caches[("history", start)]
    det = PrecisePeriod(**reading_fields(verification))
    periods = dict(periods or {})
    new = [int(g) for g in top
           if g not in periods and (verification, int(g), start) not in detected]
    found = det.detect_many([side[g] for g in new for side in (read, write)],
                            [caches.setdefault((g, k), {}) for g in new for k in (0, 1)])
    for j, g in enumerate(new):
        detected[(verification, g, start)] = (found[2 * j], found[2 * j + 1])
    ids, wanted = [], []  # the segments forecast; their (segment, side, period), read first
    for g in top:
        if g not in periods:
            periods[g] = detected[(verification, int(g), start)]
        tr, tw = periods[g]
        tr, tw = tr or tw, tw or tr
        if tr is None:
            continue
        ids.append(g)
        wanted += [(g, 0, tr), (g, 1, tw)]
    sides = (read, write)
    new = [(g, k) for g, k, _ in wanted if ("clean", g, k) not in caches]
    if new:  # step 1 does not depend on the reading; one kernel call for all rows
        for (g, k), row in zip(new, det.clean_rows(np.stack([sides[k][g] for g, k in new])),
                               strict=True):
            caches[("clean", g, k)] = row
    # _predict of each side, the low-passes and the forecasts in batches
    both = _predictions(det, caches, wanted)
    pred = both[0::2] + both[1::2] if ids else np.zeros((0, BINS))
    ids = np.array(ids, dtype=int)
    # the optional constant of the reconstruction: each SSD's unpredictable load, as its
    # historical mean per 10-min bin (it is on the SSD whatever PreciseScheduling moves)
    rest = np.ones(w.spec.segments, dtype=bool)
    rest[ids] = False
    per_segment = (read.sum(axis=1) + write.sum(axis=1)) / read.shape[1]
    base = np.bincount(w.placement[rest], weights=per_segment[rest], minlength=w.spec.ssds)
    return Prediction(ids, np.maximum(pred, 0.0), periods, base)


def _predict(det: PrecisePeriod, caches: dict, g: int, k: int, period: int) -> np.ndarray:
    """``det.predict(caches[("clean", g, k)], period, BINS)``, the history it forecasts from
    kept in ``caches`` by its DWT level: the readings that low-pass the history share it."""
    clean = caches[("clean", g, k)]
    key = ("source", g, k, det.level_of(period, clean.size) if det.low_passes else None)
    if key not in caches:
        caches[key] = det.forecast_source(clean, period)
    return forecast(caches[key], period, BINS)


def _predictions(det: PrecisePeriod, caches: dict, wanted: list) -> np.ndarray:
    """``np.array([_predict(det, caches, g, k, period) for g, k, period in wanted])``, the same
    entries in ``caches``: the low-passed histories not yet in it computed in batches
    (:func:`~storrepro.papers.periodicity.precise_period.dwt_lowpass_many`), the forecasts in
    one (:func:`~storrepro.papers.periodicity.precise_period.forecasts`)."""
    keys, todo = [], {}
    for g, k, period in wanted:
        clean = caches[("clean", g, k)]
        key = ("source", g, k, det.level_of(period, clean.size) if det.low_passes else None)
        keys.append(key)
        if key not in caches:
            todo.setdefault(key, clean)
    if det.low_passes:
        rows = dwt_lowpass_many(list(todo.values()), [key[3] for key in todo], det.wavelet)
        caches.update(zip(todo, rows, strict=True))
    else:  # forecast_source: the preprocessed history itself
        caches.update(todo)
    return forecasts([caches[key] for key in keys], [period for *_, period in wanted], BINS)


def _binned_history(w: Workload, start: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 10-min read and write series of the history before ``start`` and the top
    :data:`TOP_SHARE` segments by their volume, largest first."""
    hist = slice(start - w.spec.history_minutes, start)
    read = bin_sum(w.read[:, hist], BIN_MIN).astype(float)
    write = bin_sum(w.write[:, hist], BIN_MIN).astype(float)
    volume = read.sum(axis=1) + write.sum(axis=1)
    top = np.argsort(volume)[::-1][: int(np.ceil(TOP_SHARE * w.spec.segments))]
    return read, write, top


def history_prediction(w: Workload, start: int) -> Prediction:
    """Persistence: every segment's traffic of the previous 6 h, in 10-min bins."""
    pred = bin_sum(interval_traffic(w, start - MINUTES_PER_INTERVAL), BIN_MIN)
    return Prediction(np.arange(w.spec.segments), pred, {})


def interval_starts(w: Workload) -> list[int]:
    """The first minute of each 6-h evaluation interval, after the history."""
    return [w.spec.history_minutes + k * MINUTES_PER_INTERVAL for k in range(w.spec.intervals)]


def interval_traffic(w: Workload, start: int, minutes: int = MINUTES_PER_INTERVAL,
                     factor=None) -> np.ndarray:
    """Read + write per segment and minute over ``[start, start + minutes)``; given a float32
    ``factor`` (per segment as a column, or one scalar), as after ``w.read *= factor; w.write
    *= factor``, without changing ``w``: the same float32 products, then the same sum."""
    sl = slice(start, start + minutes)
    read, write = w.read[:, sl], w.write[:, sl]
    scale = np.float32(1) if factor is None else np.asarray(factor)  # x * 1 is x
    if read.dtype == write.dtype == scale.dtype == np.float32:  # one pass, no temporaries
        out = np.empty(read.shape)  # by numpy: its large arrays get huge pages (fewer faults)
        _scaled_sum(read, write, np.ascontiguousarray(
            np.broadcast_to(scale, (read.shape[0], 1))[:, 0]), out)
        return out
    if factor is not None:
        read, write = read * factor, write * factor
    return read.astype(float) + write


def interval_load(w: Workload, start: int, placement: np.ndarray, factor=None,
                  minutes: int = MINUTES_PER_INTERVAL) -> np.ndarray:
    """``ssd_load(interval_traffic(w, start, minutes, factor), placement, w.spec.ssds)``: with
    float32 traffic, each segment's scaled minutes are added straight into its SSD's row (the
    same float32 products, sums and order), without the segments × minutes array the
    calibrations' many trial factors would otherwise fill and drop."""
    sl = slice(start, start + minutes)
    read, write = w.read[:, sl], w.write[:, sl]
    scale = np.float32(1) if factor is None else np.asarray(factor)
    if read.dtype == write.dtype == scale.dtype == np.float32:
        return _scaled_ssd_sums(read, write, np.ascontiguousarray(
            np.broadcast_to(scale, (read.shape[0], 1))[:, 0]),
            np.asarray(placement, dtype=np.int64), w.spec.ssds)
    return ssd_load(interval_traffic(w, start, minutes, factor), placement, w.spec.ssds)


@numba.njit(cache=True)
def _scaled_ssd_sums(read, write, scale, placement, ssds):  # pragma: no cover (numba)
    """``_ssd_sums(_scaled_sum(read, write, scale), placement, ssds)`` in one pass: each
    segment's value is the one ``_scaled_sum`` makes, added to its SSD's row in segment order
    as ``_ssd_sums`` adds it."""
    out = np.zeros((ssds, read.shape[1]))
    for i in range(read.shape[0]):
        f, row = scale[i], out[placement[i]]
        for t in range(read.shape[1]):
            row[t] += np.float64(read[i, t] * f) + np.float64(write[i, t] * f)
    return out


@numba.njit(cache=True)
def _scaled_sum(read, write, scale, out):  # pragma: no cover (numba)
    """``out[:] = (read * scale[:, None]).astype(float) + write * scale[:, None]``, float32
    products."""
    for row in range(read.shape[0]):
        f = scale[row]
        for t in range(read.shape[1]):
            out[row, t] = np.float64(read[row, t] * f) + np.float64(write[row, t] * f)
