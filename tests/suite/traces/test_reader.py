"""Real-trace readers and conversions, on small files in each format written here."""

import gzip
import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from storrepro.__main__ import main
from storrepro.papers.accgecko.workload import accgecko_tenants
from storrepro.papers.bid.workload import bid_trace
from storrepro.papers.periodicity.workload import precise_period_segments
from storrepro.papers.vdi.workload import vdi_foreground
from storrepro.suite.notebooks import trace_conversions
from storrepro.suite.traces import convert
from storrepro.suite.traces.formats import FILETIME_UNIX_EPOCH, VSCSI_RECORDS
from storrepro.suite.traces.reader import TraceFormatError, detect_format, read_chunks, read_trace
from storrepro.suite.traces.summary import trace_info

T0 = 1_600_000_000  # Unix seconds of the traces' first request


def _msr_line(t_s, host, disk, op, offset, size):
    ticks = FILETIME_UNIX_EPOCH + round(t_s * 1e7)
    return f"{ticks},{host},{disk},{op},{offset},{size},1234"


def _write(path, lines, blank_tail=True):
    text = "\n".join(lines) + ("\n\n\n" if blank_tail else "\n")
    path.write_text(text)
    return path


@pytest.fixture
def msr(tmp_path):
    """300 requests over 3 s on two disks of host 'web': every third a write; request 10 has
    size 0; requests 20 and 21 are swapped (out of time order); blank lines at the end."""
    rows = [
        (T0 + i / 100, "web", i % 2, "Write" if i % 3 == 0 else "Read", 4096 * i, 0 if i == 10
         else 4096)
        for i in range(300)
    ]
    rows[20], rows[21] = rows[21], rows[20]
    return _write(tmp_path / "msr.csv", [_msr_line(*r) for r in rows])


def test_msr_info_counts_requests_reads_volumes_and_order(msr):
    info = trace_info(msr, progress=False)
    assert info.format == "msr" and info.requests == 300
    assert info.duration_s == pytest.approx(2.99)
    assert info.mean_iops == pytest.approx(300 / 2.99)
    assert info.read_share == pytest.approx(200 / 300)
    assert info.volumes == {"web_0": 150, "web_1": 150}
    assert info.zero_size == 1 and info.bytes == 299 * 4096
    assert not info.time_sorted
    assert "web_0" in info.describe() and "timestamps go back" in info.describe()


def test_chunk_boundaries_change_nothing(msr):
    whole = read_trace(msr)
    pieces = pd.concat(read_chunks(msr, chunk_rows=7, progress=False), ignore_index=True)
    pd.testing.assert_frame_equal(whole, pieces)
    assert whole.time_s.iloc[0] == pytest.approx(T0)
    assert list(whole.op[:3]) == ["W", "R", "R"]


def test_gzip_is_read_whatever_the_name_and_a_truncated_one_is_named(msr, tmp_path):
    packed = tmp_path / "trace.csv"  # no .gz suffix on purpose
    packed.write_bytes(gzip.compress(msr.read_bytes()))
    assert trace_info(packed, progress=False).requests == 300
    cut = tmp_path / "cut.csv.gz"
    cut.write_bytes(packed.read_bytes()[: len(packed.read_bytes()) // 2])
    with pytest.raises(TraceFormatError, match="cut.csv.gz: the gzip stream is truncated"):
        trace_info(cut, progress=False)


def test_a_malformed_field_is_named_with_its_file_and_line(tmp_path):
    lines = [_msr_line(T0 + i, "h", 0, "Read", 0, 512) for i in range(6)]
    lines[3] = lines[3].replace(",0,512,", ",abc,512,")
    lines.insert(2, "")  # a blank line inside: line numbers still count it
    path = _write(tmp_path / "bad.csv", lines)
    with pytest.raises(TraceFormatError, match=r"bad.csv, line 5: field 'Offset' is 'abc'"):
        trace_info(path, progress=False)
    lines[4] = lines[4].replace("Read", "Erase").replace("abc", "0")
    with pytest.raises(TraceFormatError, match=r"line 5: field 'Type' is 'Erase'; expected read"):
        trace_info(_write(tmp_path / "bad2.csv", lines), progress=False)
    with pytest.raises(TraceFormatError, match="Expected 7 fields in line 2, saw 8"):
        trace_info(_write(tmp_path / "bad3.csv", [lines[0], lines[1] + ",x"]), progress=False)
    with pytest.raises(TraceFormatError, match="field 'Size' is ''"):
        trace_info(_write(tmp_path / "bad4.csv", [lines[0], "1,h,0,Read,0,,1"]), progress=False)


def test_alibaba_tencent_and_headers(tmp_path):
    ali = _write(
        tmp_path / "ali.csv",
        [f"{i % 3},{'W' if i % 4 == 0 else 'R'},{8192 * i},4096,{1_000_000 * T0 + 500 * i}"
         for i in range(200)],
    )
    info = trace_info(ali, progress=False)
    assert (info.format, info.requests, sorted(info.volumes)) == ("alibaba", 200, ["0", "1", "2"])
    assert info.duration_s == pytest.approx(199 * 500e-6)
    assert info.read_share == pytest.approx(150 / 200)
    ten = _write(
        tmp_path / "ten.csv",
        ["Timestamp,Offset,Size,IOType,VolumeID"]
        + [f"{T0 + i},{16 * i},8,{i % 2},{1000 + i % 5}" for i in range(100)],
    )
    assert detect_format(ten) == ("tencent", True)
    table = read_trace(ten)
    assert table["size"].unique().tolist() == [8 * 512] and table.offset[3] == 48 * 512
    assert trace_info(ten, progress=False).read_share == pytest.approx(0.5)


BLKPARSE = """\
  8,0    3        1     0.000000000  697  Q   W 223490 + 8 [kjournald]
  8,0    3        2     0.000001000  697  G   W 223490 + 8 [kjournald]
  8,0    3        3     0.000002000  697  P   N [kjournald]
  8,0    3        4     0.000100000  697  Q   W 223498 + 8 [kjournald]
  8,0    3        5     0.000200000  697  U   N [kjournald] 1
  8,0    3        6     0.000300000  697  D   W 223490 + 16 [kjournald]
  8,0    0        7     0.000400000  1201 Q   R 1000 + 256 [java]
  8,0    0        8     0.002500000  1201 Q  RA 1256 + 256 [java]
  8,0    0        9     0.003000000  1201 C   R 1000 + 256 [0]
  8,0    1       10     0.003100000  55   Q FWS [kworker/1:1]

CPU0 (8,0):
 Reads Queued:           2,      256KiB	 Writes Queued:           0,        0KiB
Total (8,0):
 Reads Queued:           2,      256KiB	 Writes Queued:           2,        8KiB
"""


def test_blkparse_reads_queue_events_up_to_the_summary(tmp_path):
    path = tmp_path / "blk.txt"
    path.write_text(BLKPARSE)
    table = read_trace(path)
    assert table.pid.tolist() == [697, 697, 1201, 1201]
    assert table.op.tolist() == ["W", "W", "R", "R"]
    assert table["size"].tolist() == [8 * 512, 8 * 512, 256 * 512, 256 * 512]
    streams = bid_trace(path, progress=False)
    assert streams.lba.tolist() == [223490, 223498, 1000, 1256]
    assert streams["size"].tolist() == [8, 8, 256, 256]
    assert streams.ts.tolist() == pytest.approx([0.0, 0.1, 0.4, 2.5])
    path.write_text(BLKPARSE.replace("Q  RA 1256 + 256", "Q  RA junk"))
    with pytest.raises(TraceFormatError, match=r"blk.txt, line 8: field 'sector \+ count'"):
        read_trace(path)


def _vscsi(path, version, rows, cut=0):
    """A vscsi file of ``rows`` (µs, SCSI command, logical block, bytes) in record ``version``."""
    records = np.zeros(len(rows), dtype=VSCSI_RECORDS[version])
    records["ts"], records["cmd"], records["lbn"], records["len"] = np.array(rows).T
    records["ver"] = version << 8
    data = records.tobytes()
    path.write_bytes(data[: len(data) - cut])
    return path


#: a READ(10), a WRITE(10), an INQUIRY (no data: not a request), a READ(16), a WRITE(6)
VSCSI_ROWS = [(5_000_000, 0x28, 100, 4096), (5_000_250, 0x2A, 7, 512),
              (5_000_300, 0x12, 0, 36), (6_000_000, 0x88, 2**33, 65536), (6_500_000, 0x0A, 9, 1024)]


@pytest.mark.parametrize("version", [1, 2])
def test_vscsi_records_of_either_version_are_read_as_requests(tmp_path, version):
    path = _vscsi(tmp_path / f"v{version}.vscsi", version, VSCSI_ROWS)
    assert path.stat().st_size == 5 * (32 if version == 1 else 40)
    assert detect_format(path) == ("vscsi", False)
    table = read_trace(path)
    assert table.time_s.tolist() == pytest.approx([5.0, 5.00025, 6.0, 6.5])
    assert table.op.tolist() == ["R", "W", "R", "W"]
    assert table.offset.tolist() == [100 * 512, 7 * 512, 2**33 * 512, 9 * 512]
    assert table["size"].tolist() == [4096, 512, 65536, 1024]
    assert set(table.volume) == {"0"} and set(table.pid) == {-1}
    pieces = pd.concat(read_chunks(path, chunk_rows=2, progress=False), ignore_index=True)
    pd.testing.assert_frame_equal(table, pieces)
    packed = tmp_path / "packed.vscsi.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert trace_info(packed, progress=False).requests == 4
    assert trace_info(path, progress=False).read_share == 0.5


def test_a_cut_vscsi_file_and_a_text_file_named_vscsi_are_refused(tmp_path, msr):
    cut = _vscsi(tmp_path / "cut.vscsi", 1, VSCSI_ROWS, cut=5)
    with pytest.raises(TraceFormatError, match=r"cut.vscsi: ends in a partial record \(27 of 32"):
        read_trace(cut)
    with pytest.raises(TraceFormatError, match="msr.csv: not a vscsi trace"):
        read_trace(msr, "vscsi")
    assert detect_format(msr) == ("msr", False)  # a text trace is not taken for vscsi


def test_binned_counts_and_the_papers_inputs_by_hand(tmp_path):
    # volume a: requests at 0, 0.5, 1.5, 1.6 ms and 2.0 s; volume b: at 1.2 ms
    times = {"a": [0.0, 0.0005, 0.0015, 0.0016, 2.0], "b": [0.0012]}
    lines = [
        f"{v},R,0,512,{round((T0 + t) * 1e6)}" for v, ts in times.items() for t in ts
    ]
    path = _write(tmp_path / "small.csv", lines)
    origin, counts = convert.binned_counts(path, 0.001, progress=False)
    assert origin == pytest.approx(T0)
    assert counts["a"][:3].tolist() == [2, 2, 0] and counts["a"][2000] == 1
    assert counts["a"].sum() == 5 and counts["b"].tolist()[:2] == [0, 1]
    rates = convert.rate_series(path, 1.0, progress=False)
    assert rates["a"].tolist() == [4.0, 0.0, 1.0] and rates["b"].tolist() == [1.0, 0.0, 0.0]
    assert vdi_foreground(path, bin_s=1.0, progress=False).tolist() == [5.0, 0.0, 1.0]
    assert precise_period_segments(path, bin_s=1.0, progress=False)["a"].tolist() == [
        4, 0, 1,
    ]


def test_accgecko_rescales_each_tenant_to_the_mean_and_cuts_whole_segments(tmp_path):
    # one tenant at 1000 IOPS for 1.2 s: rescaled to 2000 IOPS it spans 0.6 s, i.e. one whole
    # 0.5 s segment of 500 bins of 1 ms, each holding the requests of 2 ms of the original
    lines = [f"t,W,0,4096,{T0 * 10**6 + 1000 * i}" for i in range(1200)]
    tenants = accgecko_tenants(
        _write(tmp_path / "t.csv", lines), segment_s=0.5, progress=False
    )
    assert tenants["t"].shape == (1, 500)
    assert np.all(tenants["t"] == 2)


def test_conversions_refuse_what_they_cannot_make(tmp_path, monkeypatch):
    iops = _write(tmp_path / "iops.csv", ["time_s,iops", "0,10", "600,30", "1200,20"])
    assert vdi_foreground(iops, progress=False).tolist() == [10.0, 30.0, 20.0]
    with pytest.raises(TraceFormatError, match="needs individual requests"):
        accgecko_tenants(iops, progress=False)
    lines = [f"v,R,0,512,{T0 * 10**6 + 10**6 * i}" for i in range(3)]
    monkeypatch.setattr(convert, "MAX_CELLS", 100)
    with pytest.raises(MemoryError, match="over the limit of 100"):
        convert.binned_counts(_write(tmp_path / "x.csv", lines), 0.001, progress=False)
    with pytest.raises(TraceFormatError, match="cannot tell the format"):
        detect_format(_write(tmp_path / "odd.csv", ["a;b;c"]))
    with pytest.raises(TraceFormatError, match="format 'parquet': expected one of"):
        detect_format(iops, "parquet")
    no_data = "  8,0    1        1     0.000000000  4162  Q   N [sync]"
    empty = _write(tmp_path / "empty.blk", [no_data])
    with pytest.raises(TraceFormatError, match="no read or write request in this trace"):
        bid_trace(empty, format="blkparse", progress=False)


def test_interval_rows_hold_their_rate_until_the_next_row(tmp_path):
    # the example: three 30-minute rows converted to 10-minute bins
    iops = _write(tmp_path / "iops.csv", ["time_s,iops", "0,7", "1800,5", "3600,6"])
    assert vdi_foreground(iops, progress=False).tolist() == [7, 7, 7, 5, 5, 5, 6]
    counts = precise_period_segments(iops, progress=False)["all"]
    assert counts.tolist() == [7 * 300] * 6 + [5 * 300] * 6 + [6 * 300]
    # the last row holds to the end of its bin: every row's I/O is kept, the last one's bin too
    assert counts.sum() == 7 * 1800 + 5 * 1800 + 6 * 300
    minutes = precise_period_segments(iops, bin_s=60.0, progress=False)["all"]
    assert minutes.tolist() == [420] * 30 + [300] * 30 + [360]


def test_a_week_of_30_minute_rows_keeps_all_its_io(tmp_path):
    rng = np.random.default_rng(1)
    rates = rng.uniform(0, 500, size=(2, 7 * 48)).round(1)
    lines = ["time_s,volume,iops"] + [
        f"{T0 + 1800 * i},{v},{rates[v, i]}" for i in range(rates.shape[1]) for v in (0, 1)
    ]
    path = _write(tmp_path / "week.csv", lines)
    kept = rates[:, :-1].sum() * 1800 + rates[:, -1].sum() * 600  # the last rows: one bin
    vdi = vdi_foreground(path, progress=False)
    assert (vdi == 0).sum() == 0 and vdi.sum() * 600 == pytest.approx(kept)
    assert vdi.tolist()[:3] == [rates[:, 0].sum()] * 3
    segments = precise_period_segments(path, progress=False)
    kept = rates[:, :-1].sum() * 1800 + rates[:, -1].sum() * 300  # whole requests per bin
    assert segments.to_numpy().sum() == pytest.approx(kept, abs=segments.size / 2)


def test_irregular_rows_are_weighted_by_time_within_a_bin(tmp_path):
    # volume a: rates 10, 20, 30, 40, 50 from 0, 600, 1500, 1600, 2400 s; volume b starts late
    # (900 s) with one row, held to the end of its bin; rows out of order are sorted per volume
    rows = [(0, "a", 10), (1500, "a", 30), (600, "a", 20), (1600, "a", 40), (2400, "a", 50),
            (900, "b", 6)]
    path = _write(tmp_path / "irregular.csv",
                  ["time_s,volume,iops"] + [f"{t},{v},{r}" for t, v, r in rows])
    rates = convert.rate_series(path, 600.0, progress=False)
    assert rates.index.tolist() == [0, 600, 1200, 1800, 2400]
    bin_1200 = (300 * 20 + 100 * 30 + 200 * 40) / 600
    assert rates["a"].tolist() == pytest.approx([10, 20, bin_1200, 40, 50])
    assert rates["b"].tolist() == pytest.approx([0, 300 * 6 / 600, 0, 0, 0])


def test_info_gives_the_interval_and_warns_when_coarser_than_a_papers_bin(tmp_path):
    coarse = _write(tmp_path / "coarse.csv", ["time_s,iops", "0,7", "1800,5", "3600,6"])
    info = trace_info(coarse, progress=False)
    assert info.interval_s == 1800 and info.interval_range_s == (1800, 1800)
    assert "interval    1,800 s\n" in info.describe()
    (warning,) = info.warnings()
    assert "coarser than VDI's 10-minute bins" in warning and "notebook 01's 60 s" in warning
    uneven = _write(tmp_path / "uneven.csv", ["time_s,iops", "0,1", "240,1", "300,1", "360,2"])
    info = trace_info(uneven, progress=False)
    assert info.interval_s == 60 and info.interval_range_s == (60, 240)
    assert "interval    60 s (median; 60 to 240 s)" in info.describe()
    assert info.warnings() == []  # 60 s is as fine as notebook 01's bins
    fine = _write(tmp_path / "fine.csv", ["time_s,iops"] + [f"{30 * i},{i}" for i in range(9)])
    assert trace_info(fine, progress=False).warnings() == []
    minutes = _write(tmp_path / "min.csv", ["time_s,iops"] + [f"{120 * i},1" for i in range(9)])
    (warning,) = trace_info(minutes, progress=False).warnings()
    assert "coarser than notebook 01's 60 s:" in warning


def test_info_warns_on_whole_second_timestamps_and_counts_the_ties(tmp_path):
    # 50 requests in 4 whole seconds: 46 of the 49 consecutive pairs tie
    stamps = [10**6 * (T0 + min(i // 12, 3)) for i in range(50)]
    whole = _write(tmp_path / "whole.csv", [f"v,R,0,512,{t}" for t in stamps])
    info = trace_info(whole, progress=False)
    assert info.resolution == "whole seconds"
    assert info.tie_share == pytest.approx(46 / 49)
    (warning,) = info.warnings()
    assert warning.startswith("timestamps in whole seconds: 93.9 % of consecutive requests")
    assert "TOFEC" in warning and "AccGecko" in warning
    assert "timestamps  whole seconds; 93.9 % of consecutive requests tie" in info.describe()
    tenths = _write(tmp_path / "tenths.csv",
                    [f"v,R,0,512,{10**6 * T0 + 10**5 * i}" for i in range(20)])
    assert trace_info(tenths, progress=False).resolution == "0.1 s"
    micro = _write(tmp_path / "micro.csv", [f"v,R,0,512,{10**6 * T0 + 37 * i}" for i in range(9)])
    info = trace_info(micro, progress=False)
    assert info.resolution is None and info.tie_share == 0 and info.warnings() == []
    assert "timestamps  finer than 1 ms; 0.0 % of consecutive requests tie" in info.describe()
    ms = _write(tmp_path / "ms.csv", [f"v,R,0,512,{10**6 * T0 + 1000 * i}" for i in range(20)])
    info = trace_info(ms, progress=False)
    assert info.resolution == "1 ms" and info.warnings() == []  # AccGecko's bins are 1 ms


def test_trace_command_line(msr, tmp_path, capsys):
    assert main(["trace", "info", str(msr)]) == 0
    assert "requests    300" in capsys.readouterr().out
    out = tmp_path / "bid.csv"
    assert main(["trace", "convert", str(msr), "--to", "bid", "--out", str(out)]) == 0
    assert len(pd.read_csv(out)) == 300
    npz = tmp_path / "acc.npz"
    assert main(["trace", "convert", str(msr), "--to", "accgecko", "--out", str(npz)]) == 2
    assert "no tenant spans a whole 300 s segment" in capsys.readouterr().err
    assert not npz.exists()
    assert main(["trace", "info", str(tmp_path / "missing.csv")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_the_command_line_finds_the_conversions_only_when_asked():
    """Finding them imports every paper's package (a second or more); `--help` must not."""
    code = ("import sys; from storrepro.__main__ import _parser; _parser(); "
            "print(sorted(m for m in sys.modules if m.endswith('.workload')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def _replace_conversion(monkeypatch, name, convert_function):
    """``trace convert --to name`` calling ``convert_function`` for this test."""
    conversion = replace(trace_conversions()[name], convert=convert_function)
    monkeypatch.setitem(trace_conversions(), name, conversion)


def test_convert_refuses_to_write_over_its_input_or_into_a_directory(msr, tmp_path, capsys,
                                                                   monkeypatch):  # fmt: skip
    before = msr.read_bytes()
    monkeypatch.chdir(tmp_path)
    assert main(["trace", "convert", "msr.csv", "--to", "vdi", "--out", str(msr)]) == 2
    assert "the input trace itself" in capsys.readouterr().err
    assert msr.read_bytes() == before

    def no_work(*args, **kwargs):
        raise AssertionError("converted before checking --out")

    _replace_conversion(monkeypatch, "vdi", no_work)
    assert main(["trace", "convert", str(msr), "--to", "vdi", "--out", str(tmp_path)]) == 2
    assert f"--out {tmp_path}: a directory" in capsys.readouterr().err
    under_a_file = msr / "sub" / "vdi.csv"
    assert main(["trace", "convert", str(msr), "--to", "vdi", "--out", str(under_a_file)]) == 2
    assert f"--out {under_a_file}: a file stands where its folder" in capsys.readouterr().err
    assert {c.suffix for c in trace_conversions().values()} == {".csv", ".npz"}
    for to, wrong, right in (("vdi", "vdi.npz", ".csv"), ("accgecko", "tenants.csv", ".npz")):
        _replace_conversion(monkeypatch, to, no_work)
        assert main(["trace", "convert", str(msr), "--to", to, "--out", wrong]) == 2
        assert f"--out {wrong}: --to {to} writes a {right} file (" in capsys.readouterr().err
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert main(["trace", "convert", str(msr), "--to", "vdi", "--out",
                     str(locked / "vdi.csv")]) == 2  # fmt: skip
        assert "cannot write there (Permission denied)" in capsys.readouterr().err


MSR_HEADER = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"


def _bytes(path, data: bytes):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ((MSR_HEADER + "\n").encode(), "a header and no request after it"),
        ((MSR_HEADER + "\n").encode("utf-16"), "UTF-16 text"),
        (("\n" + _msr_line(T0, "web", 0, "Read", 0, 512) + "\n").encode()
         + _msr_line(T0, "caf\xe9", 0, "Read", 0, 512).encode("latin-1"),
         r"x.csv, line 3, byte 23: 0xe9 is not UTF-8"),
        (b"x" * 200_000, "line 1: longer than 65,536 characters"),
        (_msr_line(T0, "web", 0, "Read", 10**23, 512).encode(),
         "line 1: field 'Offset' is '100000000000000000000000'; expected a whole number from 0"),
        (_msr_line(T0, "web", 0, "Read", 0, 4096.5).encode(), "line 1: field 'Size' is '4096.5'"),
        (f"{T0},0,{2**55},1,vol\n".encode(), "field 'Size' is '36028797018963968'"),
        (b"1,2 0 1 0.5 5 Q W 1 + 36028797018963968 [x]\n",
         r"line 1: field 'sector \+ count' is .*; expected sectors below 2\*\*63 bytes"),
    ],
)
def test_traces_a_reader_cannot_take_are_refused_naming_file_and_line(tmp_path, data, fragment):
    path = _bytes(tmp_path / "x.csv", data)
    with pytest.raises(TraceFormatError, match=fragment):
        read_trace(path)


def test_a_utf8_bom_is_stripped(msr, tmp_path):
    text = MSR_HEADER + "\n" + msr.read_text()
    path = _bytes(tmp_path / "bom.csv", b"\xef\xbb\xbf" + text.encode())
    assert detect_format(path) == ("msr", True)
    assert len(read_trace(path)) == 300


def test_a_format_forced_on_the_wrong_file_names_file_line_and_field(msr, tmp_path):
    with pytest.raises(TraceFormatError, match=r"msr.csv, line 1: 7 fields, but a tencent line"):
        read_trace(msr, "tencent")
    headed = _bytes(tmp_path / "h.csv", (MSR_HEADER + "\n" + msr.read_text()).encode())
    with pytest.raises(TraceFormatError, match="line 1: the header of the msr format, not of ali"):
        read_trace(headed, "alibaba")
    with pytest.raises(TraceFormatError, match=r"msr.csv, line 1: '\d+,web.* not the header of "
                       r"the iops format .*; it looks like a msr trace"):
        read_trace(msr, "iops")
    five = _bytes(tmp_path / "five.csv", b"dev,R,0,4096,1\n")
    with pytest.raises(TraceFormatError, match="five.csv, line 1: field 'Timestamp' is 'dev'"):
        read_trace(five, "tencent")


@pytest.mark.parametrize("special", ["dir", "fifo", "/dev/zero"])
def test_only_regular_files_are_traces(tmp_path, special):
    import os

    path = tmp_path / special
    if special == "dir":
        path.mkdir()
    elif special == "fifo":
        os.mkfifo(path)
    with pytest.raises(TraceFormatError, match="not a regular file"):
        detect_format(path)


def test_an_iops_span_beyond_memory_is_refused_before_it_is_built(tmp_path):
    path = _bytes(tmp_path / "iops.csv", b"time_s,iops\n0,5\n1000000000000,6\n")
    with pytest.raises(MemoryError, match="iops.csv: 1 volumes at 600 s would hold 1,666,666,667"):
        vdi_foreground(path, progress=False)


def test_an_error_without_a_message_still_says_what_it_was(msr, tmp_path, capsys, monkeypatch):
    def out_of_memory(*args, **kwargs):
        raise MemoryError

    _replace_conversion(monkeypatch, "vdi", out_of_memory)
    assert main(["trace", "convert", str(msr), "--to", "vdi", "--out", str(tmp_path / "v")]) == 2
    assert capsys.readouterr().err == "error: MemoryError\n"


def test_paths_with_spaces_and_accents_under_an_ascii_locale(tmp_path):
    from storrepro.suite.paths import repo_root

    folder = tmp_path / "my tråces ü"
    folder.mkdir()
    lines = [MSR_HEADER, _msr_line(T0, "wéb", 0, "Read", 0, 512),
             _msr_line(T0 + 1, "wéb", 0, "Write", 4096, 512)]  # fmt: skip
    trace = _bytes(folder / "wéb trace.csv", ("\n".join(lines) + "\n").encode())
    env = {**os.environ, "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0",
           "PYTHONPATH": str(repo_root() / "lib")}  # fmt: skip
    command = [sys.executable, "-m", "storrepro", "trace"]
    info = subprocess.run([*command, "info", str(trace)], capture_output=True, text=True,
                          env=env, errors="replace")  # fmt: skip
    assert info.returncode == 0 and "w\\xe9b_0" in info.stdout, info.stderr
    out = folder / "bid ö.csv"
    done = subprocess.run([*command, "convert", str(trace), "--to", "bid", "--out", str(out)],
                          capture_output=True, env=env)  # fmt: skip
    assert done.returncode == 0 and out.read_text().count("\n") == 3, done.stderr


def test_an_interrupted_conversion_leaves_no_file(msr, tmp_path, monkeypatch):
    def cut_short(result, path):
        path.write_text("half a")
        raise KeyboardInterrupt

    monkeypatch.setitem(trace_conversions(), "vdi",
                        replace(trace_conversions()["vdi"], save=cut_short))  # fmt: skip
    assert main(["trace", "convert", str(msr), "--to", "vdi", "--out", str(tmp_path / "v.csv")]
                ) == 130  # fmt: skip
    assert [p.name for p in tmp_path.iterdir()] == ["msr.csv"]
