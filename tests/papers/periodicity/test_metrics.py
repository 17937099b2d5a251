"""Metrics on a hand-worked table (the paper's accuracy definition A)."""

import pytest

from storrepro.papers.periodicity.metrics import error_direction, hit, scores, scores_macro


def test_hit_rule_at_zero_and_two_percent():
    assert hit(12, 12, 0.0) and not hit(13, 12, 0.0)
    assert not hit(13, 12, 0.02)  # 2 % of 12 is 0.24
    assert hit(102, 100, 0.02) and hit(98, 100, 0.02) and not hit(103, 100, 0.02)
    assert not hit(52, 365.25 / 7, 0.0) and hit(52, 365.25 / 7, 0.02)
    assert not hit(None, 12, 0.5)


def test_hand_worked_table():
    # 5 series: 2 exact hits, one off by 2 % of 100, one wrong, one abstention
    truths = [12, 4, 100, 7, 52]
    est = [12, 4, 102, 9, None]
    exact = scores(est, truths, 0.0)
    # N = 5, D = 4, C = 2: accuracy = recall = 0.4, precision = 0.5, F1 = 2*.5*.4/.9
    assert exact["hits"] == 2 and exact["answered"] == 4 and exact["abstentions"] == 1
    assert exact["accuracy"] == exact["recall"] == pytest.approx(0.4)
    assert exact["precision"] == pytest.approx(0.5)
    assert exact["f1"] == pytest.approx(0.4 / 0.9)
    loose = scores(est, truths, 0.02)
    assert loose["hits"] == 3 and loose["precision"] == pytest.approx(0.75)


def test_always_answering_method_has_equal_p_r_f1():
    s = scores([1, 2, 3, 5], [1, 2, 4, 4], 0.0)
    assert s["precision"] == s["recall"] == s["accuracy"] == s["f1"] == 0.5


def test_no_answers_gives_zero_precision_and_f1():
    s = scores([None, None], [4, 12], 0.0)
    assert s["precision"] == 0 and s["f1"] == 0


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="length"):
        scores([1], [1, 2], 0.0)
    with pytest.raises(ValueError, match="no series"):
        scores([], [], 0.0)
    with pytest.raises(ValueError, match="tol"):
        hit(1, 1, -0.1)


def test_macro_definition_b_hand_worked():
    # labels 12 and 4; predictions: 12 right, 12 -> none, 4 right, 4 -> 5
    m = scores_macro([12, None, 4, 5], [12, 12, 4, 4], 0.0)
    # per class: 12: P=1, R=.5, F=2/3; 4: P=1, R=.5, F=2/3
    assert m["precision"] == pytest.approx(1.0)
    assert m["recall"] == pytest.approx(0.5)
    assert m["f1"] == pytest.approx(2 / 3)


def test_error_direction_counts_longer_and_multiples():
    d = error_direction([24, 13, 10, None, 12], [12, 12, 12, 12, 12], 0.0)
    assert d == {"wrong": 3, "longer": 2, "multiples": 1}
