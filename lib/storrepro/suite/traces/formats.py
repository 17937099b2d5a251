"""The block-trace formats the suite reads, and how each maps onto one request table.

Every reader yields chunks of the same columns (:data:`COLUMNS`): ``time_s`` (seconds; each
format's own epoch), ``volume`` (the disk or volume a request goes to, as text), ``op`` (``"R"``
or ``"W"``), ``offset`` and ``size`` (bytes) and ``pid`` (the issuing process where the trace
has one, else -1). The ``iops`` format holds rates instead of requests: ``time_s``, ``volume``,
``iops``.

- ``msr``: ``Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`` (MSR Cambridge and
  other SNIA IOTTA block traces): Windows filetime (100 ns ticks since 1601), bytes, Type
  Read/Write; volume ``Hostname_DiskNumber``.
- ``alibaba``: ``device_id,opcode,offset,length,timestamp``: bytes, µs, opcode R/W.
- ``tencent``: ``Timestamp,Offset,Size,IOType,VolumeID``: Unix seconds, 512-B sectors, IOType
  0 read and 1 write.
- ``blkparse``: blkparse's default text output, one event a line: seconds since the trace
  start, 512-B sectors; the queue (``Q``) events of reads and writes are the requests, read up to
  blkparse's closing summary; volume ``MAJOR,MINOR``.
- ``vscsi``: VMware's vscsiStats binary trace (the CloudPhysics VM traces), fixed-size
  little-endian records of version 1 (32 bytes) or 2 (40 bytes, with a response time): µs,
  512-B logical blocks, length in bytes and the SCSI command: READ and WRITE (6, 10, 12 and
  16-byte forms) and WRITE AND VERIFY are requests, other commands (inquiries, cache flushes,
  reservations) are not; one volume, ``0``.
- ``iops``: a CSV with a header ``time_s,iops`` or ``time_s,volume,iops``: seconds, I/O per
  second from ``time_s`` until the volume's next row.
- ``requests``: a CSV of the request table itself, header ``time_s,volume,op,offset,size,pid``
  (seconds, bytes; ``pid`` -1 where there is no process): what a selected part of another trace
  is written as (:mod:`storrepro.suite.traces.needs`).

A CSV trace may start with its header line; gzip is read whatever the file's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

COLUMNS = ("time_s", "volume", "op", "offset", "size", "pid")
RATE_COLUMNS = ("time_s", "volume", "iops")
SECTOR = 512
FILETIME_UNIX_EPOCH = 116_444_736_000_000_000  # 1970-01-01 in 100 ns ticks since 1601


@dataclass(frozen=True)
class CsvFormat:
    """A comma-separated trace format: its fields in order (the header, where a file has one)."""

    name: str
    fields: tuple[str, ...]
    numeric: tuple[str, ...]  # fields that must parse as numbers


MSR = CsvFormat(
    "msr",
    ("Timestamp", "Hostname", "DiskNumber", "Type", "Offset", "Size", "ResponseTime"),
    ("Timestamp", "DiskNumber", "Offset", "Size"),
)
ALIBABA = CsvFormat(
    "alibaba", ("device_id", "opcode", "offset", "length", "timestamp"),
    ("offset", "length", "timestamp"),
)
TENCENT = CsvFormat(
    "tencent", ("Timestamp", "Offset", "Size", "IOType", "VolumeID"),
    ("Timestamp", "Offset", "Size", "IOType"),
)
REQUESTS = CsvFormat("requests", COLUMNS, ("time_s", "offset", "size", "pid"))
CSV_FORMATS = {f.name: f for f in (MSR, ALIBABA, TENCENT, REQUESTS)}
FORMATS = ("msr", "alibaba", "tencent", "blkparse", "vscsi", "iops", "requests")

#: One blkparse event: device, cpu, sequence, time, pid, action, RWBS, then the payload.
BLKPARSE_EVENT = re.compile(
    r"^\s*(?P<dev>\d+,\d+)\s+\d+\s+\d+\s+(?P<time>\d+\.\d+)\s+(?P<pid>\d+)\s+"
    r"(?P<action>[A-Z]+)\s+(?P<rwbs>[A-Z]+)\s*(?P<rest>.*)$"
)
#: The payload of a request event: ``sector + count [process]``.
BLKPARSE_PAYLOAD = re.compile(r"^(?P<sector>\d+)\s+\+\s+(?P<count>\d+)")


#: vscsi records by version: the field after ``cmd`` holds the version in its high byte.
VSCSI_RECORDS = {
    1: np.dtype([("sn", "<u4"), ("len", "<u4"), ("nsg", "<u4"), ("cmd", "<u2"), ("ver", "<u2"),
                 ("lbn", "<u8"), ("ts", "<u8")]),
    2: np.dtype([("cmd", "<u2"), ("ver", "<u2"), ("sn", "<u4"), ("len", "<u4"), ("nsg", "<u4"),
                 ("lbn", "<u8"), ("ts", "<u8"), ("rt", "<u8")]),
}
#: SCSI operation codes (SBC): READ(6/10/12/16); WRITE(6/10/12/16), WRITE AND VERIFY(10/12/16).
VSCSI_READS = (0x08, 0x28, 0xA8, 0x88)
VSCSI_WRITES = (0x0A, 0x2A, 0xAA, 0x8A, 0x2E, 0xAE, 0x8E)


def vscsi_version(head: bytes) -> int | None:
    """The vscsi record version of a file starting with ``head``: the version both of its first
    two records carry (version 2 tried first, as the larger record), else None."""
    for version in (2, 1):
        dtype = VSCSI_RECORDS[version]
        if len(head) >= 2 * dtype.itemsize:
            records = np.frombuffer(head[: 2 * dtype.itemsize], dtype=dtype)
            if np.all(records["ver"] >> 8 == version):
                return version
    return None


def header_format(fields: list[str]) -> str | None:
    """The format whose header these fields are (case-insensitive), if any."""
    lowered = [f.strip().lower() for f in fields]
    for fmt in CSV_FORMATS.values():
        if lowered == [f.lower() for f in fmt.fields]:
            return fmt.name
    if "iops" in lowered and "time_s" in lowered:
        return "iops"
    return None


def guess_format(line: str) -> tuple[str, bool] | None:
    """``(format, has_header)`` from a trace's first non-blank line, or None."""
    if BLKPARSE_EVENT.match(line):
        return "blkparse", False
    fields = [f.strip() for f in line.split(",")]
    named = header_format(fields)
    if named:
        return named, True
    if len(fields) == 7 and fields[3].lower() in ("read", "write"):
        return "msr", False
    if len(fields) == 5 and fields[1].upper() in ("R", "W"):
        return "alibaba", False
    if len(fields) == 5 and fields[3] in ("0", "1"):
        return "tencent", False
    return None
