"""The notebook's reading tables (:mod:`storrepro.papers.accgecko.experiment.tables`)."""

import pandas as pd

from storrepro.papers.accgecko.config import READINGS
from storrepro.papers.accgecko.experiment import tables


def test_reading_table_lists_every_reading_and_its_primary():
    table = tables.reading_table(READINGS)
    assert list(table.index) == list(READINGS)
    assert table.loc["line9", "primary"] == "stage_ratio"


def test_joint_readings_get_their_column_before_robust():
    table = pd.DataFrame({"claim": ["x"], "primary": ["reproduced (1)"], "a=b": ["—"],
                          "robust": ["yes"]}, index=["T4"])  # fmt: skip
    claims_ = {"T4": {"by_reading": {"a=b&c=d": {"verdict": "inconclusive",
                                                  "reproduced_value": "2 %"}}}}
    out = tables.with_joint_readings(table, claims_, ["a=b", "a=b&c=d"])
    assert out.columns.tolist() == ["claim", "primary", "a=b", "a=b&c=d", "robust"]
    assert out.loc["T4", "a=b&c=d"] == "inconclusive (2 %)"
