"""A user's blkparse trace in place of the synthetic request streams, on a small file written
here: which events become requests, the windows the cells take, and a replay of one."""

import json

import numpy as np
import pandas as pd
import pytest

from bid_samples import ROUNDS, write_blkparse
from bid_samples import line as _line
from storrepro.papers.bid import make_scheduler
from storrepro.papers.bid.config import BIDConfig
from storrepro.papers.bid.experiment import Cell, cell_trace, live_trace, simulate
from storrepro.papers.bid.workload import TRACE_KIND, WORKLOADS, characterise, trace_window
from storrepro.suite.config import ParameterError
from storrepro.suite.paths import repo_root


@pytest.fixture()
def blk(tmp_path):
    return write_blkparse(tmp_path / "hadoop.blktrace.txt")


def test_the_file_has_a_few_hundred_lines(blk):
    assert 480 <= len(blk.read_text().splitlines()) <= 520


def test_queue_events_become_the_processes_request_streams(blk):
    window = trace_window(blk, "", "Grep", 0, events=40)
    assert len(window) == 40
    # by hand: time order alternates reader (t = i ms) and writer (t = i + 0.5 ms)
    assert window.pid.tolist() == [100, 200] * 20
    assert window.op.tolist() == ["R", "W"] * 20
    assert window.ts.tolist() == pytest.approx([0.5 * k for k in range(40)])
    reads, writes = window[window.pid == 100], window[window.pid == 200]
    assert reads.lba.tolist() == [1000 + 256 * i for i in range(20)]
    assert (reads["size"] == 256).all() and (writes["size"] == 8).all()
    assert writes.lba.tolist() == [5_000_000 + 7_919 * i for i in range(20)]
    assert (window.kind == TRACE_KIND).all()


def test_cells_take_consecutive_windows(blk):
    # 120 requests with data in windows of 20: 6 windows; Grep is workload 0, TeraSort 3
    assert list(WORKLOADS).index("TeraSort") == 3
    first = trace_window(blk, "blkparse", "TeraSort", 0, events=20)  # window 3: rounds 30–39
    assert first.lba.iloc[0] == 1000 + 256 * 30 and first.ts.iloc[0] == 0.0
    second = trace_window(blk, "blkparse", "Grep", 1, events=20)  # window 6 wraps to 0
    assert second.lba.iloc[0] == 1000
    whole = trace_window(blk, "", "Sort", 0, events=500)  # shorter than a window: all of it
    assert len(whole) == 2 * ROUNDS and whole.ts.iloc[-1] == pytest.approx(59.5)


def test_a_cell_replays_the_window_and_serves_every_sector(blk):
    cell = Cell("WordCount", "bid-hdd", 0, 40, 0, trace=str(blk), trace_format="blkparse")
    trace = cell_trace(cell)
    result = simulate(trace, make_scheduler("bid-hdd"))
    assert result.requests["size"].sum() == trace["size"].sum() == 20 * 256 + 20 * 8
    assert not np.isnan(result.event_completion).any() and result.leftover == 0
    chars = characterise(trace)
    assert chars["processes"] == 2 and np.isnan(chars["interrupter_events_pct"])


def test_the_live_control_replays_the_users_trace(blk):
    live = live_trace(BIDConfig(profile="quick", trace=str(blk)), events=40)
    pd.testing.assert_frame_equal(live, trace_window(blk, "", "WordStdev", 0, 40))
    assert (live.kind == TRACE_KIND).all()
    # without one, the synthetic WordStdev trace of the notebook's seed
    synthetic = live_trace(BIDConfig(profile="quick", seed=3), events=600)
    pd.testing.assert_frame_equal(synthetic, cell_trace(Cell("WordStdev", "live", 0, 600, 3)))
    assert (synthetic.kind != TRACE_KIND).all()
    # the notebook's live cell takes its trace from there
    cells = json.loads((repo_root() / "notebooks" / "04_bid.ipynb").read_text())
    live_cell = next(
        "".join(c["source"]) for c in cells["cells"] if "live(show_arm" in "".join(c["source"])
    )
    assert "live_trace = experiment.live_trace(cfg)" in live_cell


def test_the_config_takes_a_trace_and_says_so(blk, tmp_path):
    cfg = BIDConfig(profile="quick", trace=str(blk))
    assert cfg.trace_format == "" and "hadoop.blktrace.txt" in cfg.input_description()
    assert BIDConfig(profile="quick").input_description() == "synthetic stand-in"
    with pytest.raises(ParameterError, match="trace"):
        BIDConfig(profile="quick", trace=str(tmp_path / "missing.txt"))


def test_a_trace_without_data_is_refused(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text(_line(1, 0.0, 55, "Q", "R", "9000 + 0 [java]"))
    with pytest.raises(ValueError, match="no read or write request"):
        trace_window(path, "blkparse", "Grep", 0, events=10)
