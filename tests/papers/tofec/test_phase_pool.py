"""The changing workload's phase seeds: the recovery table per load and decision point."""

import pytest

from storrepro.papers.tofec.phase_pool import Phases, recovery_table
from tofec_samples import hand_phases


def test_recovery_table_by_load_and_decision_point():
    table = recovery_table(Phases(hand_phases(), 0.9))
    row = table.loc[("1.03·C_full (the literal 80 req/s)", "Ideal", "TOFEC")]
    assert row["minus Ideal (s)"] == pytest.approx(-25.0) and row["faster on"] == "2/2"
    assert len(table) == 4 * 2 * 2  # the three loads and PURE's
