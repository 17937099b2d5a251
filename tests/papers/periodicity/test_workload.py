"""The scheduling study's input from a real block trace: a small MSR-format trace written here,
its per-minute traffic checked against counts worked out by hand, and the study run on it."""

import numpy as np
import pytest

from storrepro.papers.periodicity import claims as rules
from storrepro.papers.periodicity.experiment import (
    MOVE_COUNTS,
    OVERHEADS,
    SchedulingTask,
    run_replicate,
)
from storrepro.papers.periodicity.workload import REQUEST_BYTES, SurrogateSpec, bin_sum, from_trace
from storrepro.suite.table import judge_row
from storrepro.suite.traces.formats import FILETIME_UNIX_EPOCH

T0 = 1_700_000_000  # Unix seconds of the trace's first request
SPEC = SurrogateSpec(ssds=2, segments=2, history_days=1, intervals=1)  # 1440 + 360 minutes


def write_msr(path, requests) -> None:
    """``requests``: (seconds from T0, disk, "Read"/"Write"), written in time order."""
    lines = ["Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"]
    for s, disk, op in sorted(requests):
        filetime = FILETIME_UNIX_EPOCH + round((T0 + s) * 1e7)
        lines.append(f"{filetime},src,{disk},{op},{4096 * disk},4096,100")
    path.write_text("\n".join(lines) + "\n")


def requests(minutes: int = 1800) -> list:
    """Disk 0: a read and a write every 30 min (minutes 0, 30, ...); disk 1: three requests in
    minute 7 (seconds 420, 421.5 and 479.9) and one in the last minute; disk 2: a write every
    hour at minute 15, 75, ..."""
    out = []
    for m in range(0, minutes, 30):
        out += [(m * 60.0, 0, "Read"), (m * 60 + 20.0, 0, "Write")]
    out += [(420.0, 1, "Read"), (421.5, 1, "Write"), (479.9, 1, "Read")]
    out += [((minutes - 1) * 60 + 5.0, 1, "Read")]
    out += [((15 + 60 * k) * 60 + 30.0, 2, "Write") for k in range(minutes // 60)]
    return out


@pytest.fixture
def trace(tmp_path):
    path = tmp_path / "small.csv"
    write_msr(path, requests())
    return path


def test_a_trace_becomes_per_segment_bytes_per_minute(trace):
    w = from_trace(trace, SPEC)
    assert w.read.shape == (3, 1800) and w.spec.segments == 3 and w.spec.ssds == 2
    per_minute = w.read / REQUEST_BYTES  # requests per minute, reads and writes together
    assert per_minute[0, 0] == per_minute[0, 30] == per_minute[0, 1770] == 2
    assert per_minute[0, 1:30].sum() == 0 and per_minute[0].sum() == 2 * 60
    assert per_minute[1, 7] == 3 and per_minute[1, 1799] == 1 and per_minute[1].sum() == 4
    assert per_minute[2, 15] == per_minute[2, 75] == 1 and per_minute[2].sum() == 30
    assert not w.write.any() and not w.period_min.any() and not w.switched.any()
    assert w.placement.tolist() == [0, 1, 0]  # hashed: volume index mod SSDs


def test_only_the_study_span_is_used(tmp_path):
    path = tmp_path / "long.csv"
    write_msr(path, requests(minutes=2400))
    w = from_trace(path, SPEC, format="msr")
    assert w.read.shape == (3, 1800)
    assert w.read[0].sum() / REQUEST_BYTES == 2 * 60  # minutes 0..1770 only


def test_too_few_volumes_or_too_short_a_trace_is_refused(tmp_path, trace):
    with pytest.raises(ValueError, match="3 volumes, expected at least sched_ssds = 4"):
        from_trace(trace, SurrogateSpec(ssds=4, segments=4, history_days=1, intervals=1))
    with pytest.raises(ValueError, match="spans 1800 minutes, expected at least 2160"):
        from_trace(trace, SurrogateSpec(ssds=2, segments=2, history_days=1, intervals=2))


def test_the_scheduling_study_runs_on_the_trace(trace):
    task = SchedulingTask(0, SPEC, OVERHEADS, MOVE_COUNTS, trace=str(trace), trace_format="msr")
    result = run_replicate(task, np.random.default_rng(0))
    assert result["segments"] == 3 and result["calibration"] is None
    methods = {row["method"] for row in result["rows"]}
    assert {"hash", "PreciseScheduling", "greedy-history", "random-history"} <= methods
    e1 = judge_row(rules.rows("E1")[0], rules, [result], {})
    assert e1.verdict == "not checkable" and "no known (planted) periods" in e1.reason
    assert repr(task) == repr(SchedulingTask(0, SPEC, OVERHEADS, MOVE_COUNTS))  # same stream


def test_bin_sum_equals_numpys_reshaped_sum():
    # float32 and float64 column slices of wide arrays (numpy's pairwise association in each
    # bin, bit for bit), bins below, at and past 8 values, trailing minutes dropped, a 1-D
    # series, and bins over 128 minutes or integer traffic (numpy's own sum)
    rng = np.random.default_rng(3)
    for dtype in (np.float32, np.float64):
        wide = (rng.lognormal(size=(7, 900)) * 1e6).astype(dtype)
        x = wide[:, 17:700]
        for width in (*range(1, 21), 64, 128, 129, 300):
            want = x[:, : x.shape[1] // width * width].reshape(7, -1, width).sum(axis=-1)
            got = bin_sum(x, width)
            assert got.dtype == dtype and got.tobytes() == want.tobytes()
        assert bin_sum(x[3], 10).tobytes() == bin_sum(x, 10)[3].tobytes()
    assert bin_sum(np.arange(7)[None, :], 3).tolist() == [[3, 12]]
    assert bin_sum(np.ones((2, 5)), 10).shape == (2, 0)
