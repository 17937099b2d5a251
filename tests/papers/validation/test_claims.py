"""Notebook 00's plain headline follows its checks."""

from storrepro.papers.validation.claims import headline_summary
from storrepro.suite.claims import plain_words_problems


def test_the_plain_headline_says_whether_every_check_holds():
    ids = [f"V{i}" for i in range(1, 10)]
    held = headline_summary(dict.fromkeys(ids, "reproduced"))
    assert held.startswith("Reproduced: all 9 checks hold")
    failed = headline_summary({**dict.fromkeys(ids, "reproduced"), "V3": "not reproduced"})
    assert failed.startswith("Not reproduced: 1 of 9 simulator checks fail")
    assert plain_words_problems(held, ids) == plain_words_problems(failed, ids) == []
