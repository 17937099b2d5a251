"""The procedure checks (:mod:`storrepro.papers.accgecko.experiment.model_checks`) on the paper's
hand-worked examples."""

import pytest

from storrepro.papers.accgecko import claims
from storrepro.papers.accgecko.experiment import model_checks
from storrepro.suite.table import judge_row


def test_procedure_checks_give_the_hand_worked_lambda_and_dbscan():
    proc = model_checks.procedure_checks(claims.U2_CASES)
    assert proc["rates"][0] == pytest.approx(claims.U1_TOP, abs=1e-3)
    assert proc["covers"] == [list(range(3, 15)), [1, 2]]
    assert proc["found"] == claims.U2_CASES
    claim = judge_row(claims.rows("U1")[0], claims, {"procedures": proc}, {})
    assert claim.verdict == "reproduced"
