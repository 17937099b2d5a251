"""The disk models against the reference values of the BID authors' model: the tables, the
checks and their claims, and the seek-curve figure.

Notebook 00 makes these checks as V8 and V9; notebook 04 makes them again as D1 and D2 where BID
uses the models. They live here, beside the models, so that neither paper package imports the
other.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from storrepro.sim.disk_model import DEFAULT_GEOMETRY, hdd_service_time, ssd_service_time
from storrepro.suite.claims import Claim, verdict_of

#: Reference service times of the BID authors' HDD model (484,514 cylinders):
#: (case, lba, size, head, T_HDD in ms, seek distance d in cylinders).
HDD_REFERENCE = (
    ("small, same cylinder", 2000, 8, 2000, 6.200000, 0),
    ("8 sectors at a cylinder boundary (ceil quirk)", 5040, 8, 5040, 9.200000, 0),
    ("1024 sectors from 0", 0, 1024, 0, 15.400000, 0),
    ("1008 sectors, mid-cylinder", 504, 1008, 504, 12.400000, 0),
    ("8 sectors, d = 1", 10180, 8, 9172, 12.800000, 1),
    ("8 sectors, d = 100", 100900, 8, 100, 12.801839, 100),
    ("8 sectors, half stroke", 244195156, 8, 100, 17.299991, 242257),
    ("8 sectors, full stroke", 488389204, 8, 100, 21.799981, 484513),
    ("1024 sectors, d = 100", 100900, 1024, 100, 19.001839, 100),
)
#: Reference page costs of the BID authors' SSD model, pages rounded up (our reading of a
#: request that does not fill its last 4 KiB page): (case, op, size in sectors, T_SSD in ms).
SSD_REFERENCE = (
    ("8-sector write", "W", 8, 0.5),
    ("4-sector write (ceil)", "W", 4, 0.5),
    ("1024-sector read", "R", 1024, 3.2),
    ("1024-sector write", "W", 1024, 64.0),
)


def hdd_reference_checks() -> pd.DataFrame:
    """The HDD model at each :data:`HDD_REFERENCE` point, with its absolute error (ms)."""
    rows = []
    for case, lba, size, head, expected, d in HDD_REFERENCE:
        got = hdd_service_time(lba, size, head)
        rows.append(
            {
                "case": case,
                "lba": lba,
                "size": size,
                "head": head,
                "reference_ms": expected,
                "model_ms": got.time,
                "reference_d": d,
                "model_d": got.distance,
            }
        )
    frame = pd.DataFrame(rows).set_index("case")
    frame["abs_error_ms"] = (frame.model_ms - frame.reference_ms).abs()
    return frame


def ssd_reference_checks() -> pd.DataFrame:
    """The SSD model at each :data:`SSD_REFERENCE` point, with its absolute error (ms)."""
    frame = pd.DataFrame(
        [
            {
                "case": case,
                "op": op,
                "size": size,
                "reference_ms": expected,
                "model_ms": ssd_service_time(op, size),
            }
            for case, op, size, expected in SSD_REFERENCE
        ]
    ).set_index("case")
    frame["abs_error_ms"] = (frame.model_ms - frame.reference_ms).abs()
    return frame


def hdd_seek_curve(points: int = 200) -> pd.DataFrame:
    """Service time of an 8-sector read against seek distance, head parked at cylinder 1."""
    geometry = DEFAULT_GEOMETRY
    spc = geometry.sectors_per_cylinder
    distances = np.unique(np.linspace(0, geometry.cylinders - 2, points).astype(int))
    return pd.DataFrame(
        {
            "distance": distances,
            "time_ms": [
                hdd_service_time(spc * (1 + int(d)) - 16, 8, spc - 16).time for d in distances
            ],
        }
    )


def seek_curve_figure(curve: pd.DataFrame, fixed_ms: float = 6.2):
    """:func:`hdd_seek_curve` drawn, with the fixed cost of a request without a seek marked."""
    fig, ax = plt.subplots()
    ax.plot(curve.distance, curve.time_ms, label="8-sector read")
    ax.axhline(fixed_ms, color="grey", ls=":", lw=1, label=f"fixed cost, no seek ({fixed_ms:g} ms)")
    ax.set(
        xlabel="seek distance (cylinders)",
        ylabel="service time (ms)",
        ylim=(0, 24),
        title="HDD model: service time against seek distance",
    )
    ax.legend()
    return fig


def _reference(id, statement, error_ms: float, tolerance: str, ok: bool, what: str, **values):
    return Claim(
        id=id,
        statement=statement,
        paper_value=0.0,
        reproduced_value=f"max |error| {error_ms:.2g} ms",
        tolerance=tolerance,
        verdict=verdict_of(ok),
        reason=(
            f"Largest difference from the {what}: {error_ms:.2g} ms"
            + ("." if ok else "; the model's formula differs from the reference values.")
        ),
        role="invariant",
        values={"max_abs_error_ms": error_ms, **values},
    )


def hdd_reference_claim(hdd: pd.DataFrame, id: str) -> Claim:
    """Claim ``id``: the HDD service time (and seek distance) at the nine reference points, from
    :func:`hdd_reference_checks`."""
    error = float(hdd.abs_error_ms.max())
    same_d = bool((hdd.reference_d == hdd.model_d).all())
    return _reference(
        id,
        "HDD service time matches all nine reference values of the BID disk model",
        error,
        "max |error| < 1e-6 ms and equal seek distances",
        error < 1e-6 and same_d,
        "nine reference service times (and seek distances)",
        same_seek_distances=same_d,
    )


def ssd_reference_claim(ssd: pd.DataFrame, id: str) -> Claim:
    """Claim ``id``: the SSD's page costs against the BID paper's SSD model, from
    :func:`ssd_reference_checks`."""
    error = float(ssd.abs_error_ms.max())
    return _reference(
        id,
        "SSD page costs match the BID paper's SSD model",
        error,
        "max |error| < 1e-6 ms",
        error < 1e-6,
        "reference page costs",
    )
