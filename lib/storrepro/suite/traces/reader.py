"""Streaming readers: any supported trace, plain or gzip, as chunks of one request table.

:func:`read_chunks` never holds more than ``chunk_rows`` requests (a few hundred MB at the
default half million, text fields included), so a multi-GB trace is read in bounded memory; a
progress bar follows the bytes read.
A malformed line raises :class:`TraceFormatError` naming the file, the line number and the
field; a truncated gzip file says so.
"""

from __future__ import annotations

import gzip
import io
import itertools
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from storrepro.suite.traces.formats import (
    BLKPARSE_EVENT,
    BLKPARSE_PAYLOAD,
    COLUMNS,
    CSV_FORMATS,
    FILETIME_UNIX_EPOCH,
    FORMATS,
    RATE_COLUMNS,
    SECTOR,
    VSCSI_READS,
    VSCSI_RECORDS,
    VSCSI_WRITES,
    guess_format,
    header_format,
    vscsi_version,
)

CHUNK_ROWS = 500_000
_TRUNCATED = (EOFError, zlib.error, gzip.BadGzipFile)


class TraceFormatError(ValueError):
    """A trace file that cannot be read as its format: names the file, line and field."""


@contextmanager
def _open_text(path: Path, progress: bool):
    """The file as text (gunzipped when it is gzip, whatever its name) and a progress bar
    that follows the bytes read from disk."""
    raw = open(path, "rb")  # noqa: SIM115 - closed below, after the wrappers
    try:
        compressed = raw.read(2) == b"\x1f\x8b"
        raw.seek(0)
        stream = gzip.GzipFile(fileobj=raw) if compressed else raw
        text = io.TextIOWrapper(stream, encoding="utf-8-sig", newline="")  # an Excel BOM
        bar = tqdm(
            total=path.stat().st_size, unit="B", unit_scale=True, desc=path.name,
            disable=not progress, leave=False,
        )
        yield text, lambda: bar.update(raw.tell() - bar.n)
        bar.close()
    finally:
        raw.close()


#: The longest first line read to tell a trace's format (a binary file may have no newline).
MAX_LINE = 2**16


def _first_lines(path: Path) -> list[tuple[int, str]]:
    """The first two non-blank lines (or the only one) and their numbers."""
    found = []
    with _open_text(path, progress=False) as (text, _):
        try:
            for number in itertools.count(1):
                line = text.readline(MAX_LINE)
                if not line or len(found) == 2:
                    break
                if len(line) == MAX_LINE and not line.endswith("\n"):
                    raise TraceFormatError(
                        f"{path}, line {number}: longer than {MAX_LINE:,} characters; not a "
                        "text trace"
                    )
                if line.strip():
                    found.append((number, line.strip()))
        except _TRUNCATED as err:
            raise TraceFormatError(f"{path}: the gzip stream is truncated ({err})") from None
        except UnicodeDecodeError:
            _not_utf8(path)
    if not found:
        raise TraceFormatError(f"{path}: the file holds no trace line")
    return found


def _not_utf8(path: Path) -> None:
    """Raise a :class:`TraceFormatError` naming the first line and byte that are not UTF-8."""
    raw = open(path, "rb")  # noqa: SIM115 - closed below
    try:
        compressed = raw.read(2) == b"\x1f\x8b"
        raw.seek(0)
        stream = gzip.GzipFile(fileobj=raw) if compressed else raw
        head = stream.read(2)
        if head in (b"\xff\xfe", b"\xfe\xff"):
            raise TraceFormatError(
                f"{path}: UTF-16 text (its byte-order mark); convert it to UTF-8 first, e.g. "
                "`iconv -f UTF-16 -t UTF-8`"
            )
        stream.seek(0)
        for number, line in enumerate(stream, 1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as err:
                raise TraceFormatError(
                    f"{path}, line {number}, byte {err.start + 1}: 0x{line[err.start]:02x} is "
                    "not UTF-8 (a latin-1 or other legacy encoding?); convert the file to UTF-8 "
                    "first, e.g. `iconv -f LATIN1 -t UTF-8`"
                ) from None
    finally:
        raw.close()
    raise TraceFormatError(f"{path}: not UTF-8 text")


def detect_format(path: str | Path, format: str | None = None) -> tuple[str, bool]:
    """``(format, has_header)`` of a trace: ``format`` when given (checked), else guessed from
    its first line."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"trace {path}: no such file")
    if not path.is_file():
        raise TraceFormatError(f"trace {path}: not a regular file (a directory, device or pipe)")
    if format is not None and format not in FORMATS:
        raise TraceFormatError(f"format {format!r}: expected one of {', '.join(FORMATS)}")
    if format in (None, "vscsi") and vscsi_version(_head(path)):
        return "vscsi", False
    if format == "vscsi":
        raise TraceFormatError(f"{path}: not a vscsi trace (no record version 1 or 2 at its start)")
    lines = _first_lines(path)
    number, first = lines[0]
    if header_format(first.split(",")) is not None and len(lines) == 1:
        raise TraceFormatError(f"{path}: a header and no request after it (an empty trace)")
    if format is None:
        guessed = guess_format(first)
        if guessed is None:
            raise TraceFormatError(
                f"{path}: cannot tell the format from its first line {first[:80]!r}; name it "
                f"with --format (one of {', '.join(FORMATS)})"
            )
        return guessed
    if format == "blkparse":
        return format, False
    header = header_format(first.split(","))
    if format in (*CSV_FORMATS, "iops") and header not in (None, format):
        raise TraceFormatError(
            f"{path}, line {number}: the header of the {header} format, not of {format}"
        )
    if format == "iops" and header is None:
        raise TraceFormatError(
            f"{path}, line {number}: an iops trace starts with the header time_s,iops or "
            f"time_s,volume,iops, not {first[:80]!r}"
        )
    fields = CSV_FORMATS[format].fields if format in CSV_FORMATS else ()
    if fields and header is None and len(first.split(",")) != len(fields):
        raise TraceFormatError(
            f"{path}, line {number}: {len(first.split(','))} fields, but a {format} line has "
            f"{len(fields)} ({','.join(fields)}); is it another format?"
        )
    return format, header is not None


def _line_of_row(path: Path, row: int, header: bool) -> int:
    """The 1-based line number of data row ``row`` (blank lines are not rows)."""
    seen = -1 - int(header)
    with _open_text(path, progress=False) as (text, _):
        for number, line in enumerate(text, 1):
            if line.strip():
                seen += 1
                if seen == row:
                    return number
    return number


def _bad(path: Path, header: bool, row: int, field: str, value, allowed: str) -> None:
    line = _line_of_row(path, row, header)
    raise TraceFormatError(
        f"{path}, line {line}: field {field!r} is {value!r}; expected {allowed}"
    )


#: Offsets and sizes are int64 bytes: anything from 2**63 on is no real device's.
MAX_BYTES = 2**63


def _numbers(chunk: pd.DataFrame, path: Path, header: bool, fields, minimum=0, unit=1) -> dict:
    """The fields as numbers ``>= minimum``; offsets and sizes (in units of ``unit`` bytes)
    whole numbers below :data:`MAX_BYTES` bytes."""
    out = {}
    for field in fields:
        values = pd.to_numeric(chunk[field], errors="coerce")
        bad = values.isna() | ~np.isfinite(values) | (values < minimum)
        allowed = f"a number >= {minimum}"
        if field in _BYTE_FIELDS:
            bad |= (values % 1 != 0) | (values.astype(float) * unit >= MAX_BYTES)
            allowed = f"a whole number from {minimum} to below 2**63 bytes"
        if bad.any():
            row = int(chunk.index[np.argmax(bad.to_numpy())])
            _bad(path, header, row, field, chunk[field][row], allowed)
        out[field] = values
    return out


_BYTE_FIELDS = {"Offset", "Size", "offset", "length", "size"}


def _ops(values: pd.Series, mapping: dict, path, header, field) -> np.ndarray:
    ops = values.map(lambda v: mapping.get(str(v).strip().lower()))
    if ops.isna().any():
        row = int(ops.index[np.argmax(ops.isna().to_numpy())])
        _bad(path, header, row, field, values[row], " or ".join(mapping))
    return ops.to_numpy(dtype=object)


def _requests(time_s, volume, op, offset, size, pid=-1) -> pd.DataFrame:
    table = pd.DataFrame(
        {
            "time_s": np.asarray(time_s, dtype=float),
            "volume": np.asarray(volume, dtype=object),
            "op": op,
            "offset": np.asarray(offset, dtype=np.int64),
            "size": np.asarray(size, dtype=np.int64),
            "pid": pid,
        }
    )
    return table[list(COLUMNS)]


def _from_csv(name: str, chunk: pd.DataFrame, path: Path, header: bool) -> pd.DataFrame:
    if name == "msr":
        n = _numbers(chunk, path, header, ("Timestamp", "DiskNumber", "Offset", "Size"))
        op = _ops(chunk.Type, {"read": "R", "write": "W"}, path, header, "Type")
        volume = chunk.Hostname.str.strip() + "_" + n["DiskNumber"].astype(np.int64).astype(str)
        time_s = (n["Timestamp"] - FILETIME_UNIX_EPOCH) / 1e7
        return _requests(time_s, volume, op, n["Offset"], n["Size"])
    if name == "alibaba":
        n = _numbers(chunk, path, header, ("offset", "length", "timestamp"))
        op = _ops(chunk.opcode, {"r": "R", "w": "W"}, path, header, "opcode")
        volume = chunk.device_id.str.strip()
        return _requests(n["timestamp"] / 1e6, volume, op, n["offset"], n["length"])
    if name == "requests":
        n = _numbers(chunk, path, header, ("time_s", "offset", "size"))
        pid = _numbers(chunk, path, header, ("pid",), minimum=-1)["pid"]
        op = _ops(chunk.op, {"r": "R", "w": "W"}, path, header, "op")
        return _requests(n["time_s"], chunk.volume.str.strip(), op, n["offset"], n["size"],
                         pid.to_numpy(np.int64))
    n = _numbers(chunk, path, header, ("Timestamp", "Offset", "Size"), unit=SECTOR)
    op = _ops(chunk.IOType, {"0": "R", "1": "W"}, path, header, "IOType")
    volume = chunk.VolumeID.str.strip()
    return _requests(n["Timestamp"], volume, op, n["Offset"] * SECTOR, n["Size"] * SECTOR)


def _csv_chunks(path, name, header, chunk_rows, progress) -> Iterator[pd.DataFrame]:
    fields = CSV_FORMATS[name].fields
    with _open_text(path, progress) as (text, advance):
        try:
            reader = pd.read_csv(
                text, header=None, names=list(fields), skiprows=int(header), dtype=str,
                chunksize=chunk_rows, skip_blank_lines=True, keep_default_na=False,
                index_col=False,  # a line of more fields is an error, not an index
            )
            for chunk in reader:
                if chunk.empty:
                    continue
                missing = chunk.eq("").to_numpy()
                if missing.any():
                    row, col = np.argwhere(missing)[0]
                    _bad(path, header, int(chunk.index[row]), fields[col], "", "a value")
                advance()
                yield _from_csv(name, chunk, path, header)
        except pd.errors.ParserError as err:
            message = str(err).replace("Error tokenizing data. C error: ", "")
            raise TraceFormatError(f"{path}: {message}") from None
        except _TRUNCATED as err:
            raise TraceFormatError(f"{path}: the gzip stream is truncated ({err})") from None


def _iops_chunks(path, chunk_rows, progress) -> Iterator[pd.DataFrame]:
    with _open_text(path, progress) as (text, advance):
        try:
            reader = pd.read_csv(text, dtype=str, chunksize=chunk_rows, keep_default_na=False)
            for chunk in reader:
                chunk.columns = [c.strip().lower() for c in chunk.columns]
                n = _numbers(chunk, path, True, ("time_s", "iops"), minimum=0)
                volume = chunk["volume"].str.strip() if "volume" in chunk else "all"
                advance()
                yield pd.DataFrame(
                    {"time_s": n["time_s"].to_numpy(float), "volume": volume,
                     "iops": n["iops"].to_numpy(float)}
                )[list(RATE_COLUMNS)]
        except _TRUNCATED as err:
            raise TraceFormatError(f"{path}: the gzip stream is truncated ({err})") from None


def _blkparse_chunks(path, chunk_rows, progress, action="Q") -> Iterator[pd.DataFrame]:
    rows: list[tuple] = []
    with _open_text(path, progress) as (text, advance):
        try:
            for number, line in enumerate(text, 1):
                if not line.strip():
                    continue
                if line.startswith(("CPU", "Total")):
                    break  # blkparse's closing summary
                event = BLKPARSE_EVENT.match(line)
                if event is None:
                    raise TraceFormatError(
                        f"{path}, line {number}: not a blkparse event: {line.strip()[:80]!r}"
                    )
                rwbs = event["rwbs"]
                if event["action"] != action or not ({"R", "W"} & set(rwbs)) or "D" in rwbs:
                    continue
                payload = BLKPARSE_PAYLOAD.match(event["rest"])
                if payload is None and event["rest"].startswith("["):
                    continue  # a flush or barrier without data: not a request
                if payload is None:
                    raise TraceFormatError(
                        f"{path}, line {number}: field 'sector + count' is "
                        f"{event['rest'][:40]!r}; expected SECTOR + COUNT"
                    )
                offset, size = int(payload["sector"]) * SECTOR, int(payload["count"]) * SECTOR
                if max(offset, size) >= MAX_BYTES:
                    raise TraceFormatError(
                        f"{path}, line {number}: field 'sector + count' is "
                        f"{event['rest'][:40]!r}; expected sectors below 2**63 bytes"
                    )
                rows.append((
                    float(event["time"]), event["dev"], "W" if "W" in rwbs else "R",
                    offset, size, int(event["pid"]),
                ))
                if len(rows) == chunk_rows:
                    advance()
                    yield pd.DataFrame(rows, columns=list(COLUMNS))
                    rows = []
        except _TRUNCATED as err:
            raise TraceFormatError(f"{path}: the gzip stream is truncated ({err})") from None
        advance()
    if rows:
        yield pd.DataFrame(rows, columns=list(COLUMNS))


@contextmanager
def _open_binary(path: Path, progress: bool):
    """The file's bytes (gunzipped when it is gzip) and a progress bar's update, as
    :func:`_open_text` gives its text."""
    with open(path, "rb") as raw:
        compressed = raw.read(2) == b"\x1f\x8b"
        raw.seek(0)
        bar = tqdm(
            total=path.stat().st_size, unit="B", unit_scale=True, desc=path.name,
            disable=not progress, leave=False,
        )
        stream = gzip.GzipFile(fileobj=raw) if compressed else raw
        yield stream, lambda: bar.update(raw.tell() - bar.n)
        bar.close()


def _head(path: Path, size: int = 128) -> bytes:
    """The first ``size`` bytes of a trace, gunzipped; b"" when they cannot be read."""
    with _open_binary(path, progress=False) as (stream, _):
        try:
            return stream.read(size)
        except _TRUNCATED:
            return b""


def _vscsi_chunks(path, chunk_rows, progress) -> Iterator[pd.DataFrame]:
    dtype = VSCSI_RECORDS[vscsi_version(_head(path))]
    with _open_binary(path, progress) as (stream, advance):
        rest = b""
        try:
            while block := stream.read(chunk_rows * dtype.itemsize):
                block = rest + block
                whole = len(block) // dtype.itemsize * dtype.itemsize
                records, rest = np.frombuffer(block[:whole], dtype=dtype), block[whole:]
                reads = np.isin(records["cmd"], VSCSI_READS)
                keep = reads | np.isin(records["cmd"], VSCSI_WRITES)  # the rest: no data moved
                records, op = records[keep], np.where(reads[keep], "R", "W").astype(object)
                advance()
                yield _requests(
                    records["ts"] / 1e6, np.full(records.size, "0", dtype=object), op,
                    records["lbn"].astype(np.int64) * SECTOR, records["len"],
                )
        except _TRUNCATED as err:
            raise TraceFormatError(f"{path}: the gzip stream is truncated ({err})") from None
    if rest:
        raise TraceFormatError(
            f"{path}: ends in a partial record ({len(rest)} of {dtype.itemsize} bytes): the "
            "file is cut short"
        )


def read_chunks(
    path: str | Path,
    format: str | None = None,
    chunk_rows: int = CHUNK_ROWS,
    progress: bool = True,
) -> Iterator[pd.DataFrame]:
    """The trace as chunks of :data:`~storrepro.suite.traces.formats.COLUMNS` (``RATE_COLUMNS`` for
    the ``iops`` format), in file order; ``format`` None detects it."""
    path = Path(path)
    if chunk_rows < 1:
        raise ValueError(f"chunk_rows must be >= 1, got {chunk_rows!r}")
    name, header = detect_format(path, format)
    if name == "blkparse":
        return _utf8(path, _blkparse_chunks(path, chunk_rows, progress))
    if name == "iops":
        return _utf8(path, _iops_chunks(path, chunk_rows, progress))
    if name == "vscsi":
        return _vscsi_chunks(path, chunk_rows, progress)
    return _utf8(path, _csv_chunks(path, name, header, chunk_rows, progress))


def _utf8(path: Path, chunks: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """``chunks``, with a byte that is not UTF-8 reported by file, line and byte."""
    try:
        yield from chunks
    except UnicodeDecodeError:
        _not_utf8(path)


def read_trace(path: str | Path, format: str | None = None) -> pd.DataFrame:
    """A whole (small) trace as one table; prefer :func:`read_chunks` for large files."""
    chunks = list(read_chunks(path, format, progress=False))
    return pd.concat(chunks, ignore_index=True) if chunks else pd.DataFrame(columns=COLUMNS)
