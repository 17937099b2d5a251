"""BID's small hand-made blkparse trace, shared by its trace and notebook tests, and notebook 04's
claims cell (:func:`judge_claims`)."""

from pathlib import Path

#: Reader 100 queues 256-sector reads from sector 1000 every ms; writer 200 queues an 8-sector
#: write 0.5 ms later at scattered sectors. Each Q event is followed by the G, D and C events
#: blkparse prints for it, which are not requests; every tenth round adds a flush without data
#: and a zero-length read, neither a request with data.
ROUNDS = 60


def line(seq, t, pid, action, rwbs, rest):
    return f"  8,0    1 {seq:8d} {t:14.9f} {pid:5d}  {action} {rwbs:>3} {rest}\n"


def write_blkparse(path: Path) -> Path:
    lines, seq = [], 0
    for i in range(ROUNDS):
        for t, pid, rwbs, sector, count, name in (
            (i * 1e-3, 100, "R", 1000 + 256 * i, 256, "java"),
            (i * 1e-3 + 5e-4, 200, "WS", 5_000_000 + 7_919 * i, 8, "kworker"),
        ):
            for action in ("Q", "G", "D", "C"):
                seq += 1
                lines.append(line(seq, t + 1e-6 * "QGDC".index(action), pid, action, rwbs,
                                   f"{sector} + {count} [{name}]"))  # fmt: skip
        if i % 10 == 0:
            seq += 1
            lines.append(line(seq, i * 1e-3 + 7e-4, 55, "Q", "FWS", "[kworker/1:1]"))
            seq += 1
            lines.append(line(seq, i * 1e-3 + 8e-4, 100, "Q", "R", "9000 + 0 [java]"))
    lines.append("\nCPU1 (8,0):\n Reads Queued:          60,    7680KiB\n")
    path.write_text("".join(lines))
    return path


def judge_claims(run, summary, sens):
    """Notebook 04's claims cell: the claims table judged on a sweep's runs, and the headline."""
    from storrepro.papers.bid import claims

    inputs = claims.inputs(summary, sens)
    claims.not_checkable_without_contention(run.config, summary)
    run.judge_table(claims.rows("C3"), claims, inputs)
    run.judge_table(claims.rows(*claims.TEST_IDS), claims, inputs,
                    by_reading=claims.by_reading(summary, sens))
    run.judge_table(claims.rows("D9", "C12", "E"), claims, inputs)
    run.headline(**claims.headline_text(run, summary))
