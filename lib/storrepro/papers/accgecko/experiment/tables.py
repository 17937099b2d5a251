"""The notebook's tables of the readings: every open choice with its primary, and the run's
reading table with the joint alternatives added."""

from __future__ import annotations

import pandas as pd


def reading_table(readings: dict) -> pd.DataFrame:
    """The open choices: each one's primary and what every value means."""
    return pd.DataFrame(
        {
            name: {"primary": r.primary, **{f"= {v}": m for v, m in r.alternatives.items()}}
            for name, r in readings.items()
        }
    ).T


def with_joint_readings(table: pd.DataFrame, claims: dict, labels) -> pd.DataFrame:
    """The run's reading table with a column for each of ``labels`` it lacks (the joint
    alternatives, which the core's table, built from one reading at a time, leaves out)."""
    table = table.copy()
    for label in [x for x in labels if x not in table.columns]:
        cells = []
        for claim in table.index:
            alt = claims[claim]["by_reading"].get(label)
            cells.append(f"{alt['verdict']} ({alt['reproduced_value']})" if alt else "—")
        table.insert(table.columns.get_loc("robust"), label, cells)
    return table
