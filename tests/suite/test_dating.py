"""Dating a register entry from git: the commit since which its value held, on small
repositories made here (a straight history, a branch merged)."""

import json
import subprocess

import pytest

from storrepro.suite import dating


def _git(repo, *args):
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
                        "PATH": "/usr/bin:/bin"})
    return subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=repo,
                          capture_output=True, text=True).stdout.strip()


def test_set_in_is_the_commit_since_which_the_value_held(tmp_path, monkeypatch):
    repo = tmp_path
    _git(repo, "init", "-q")
    cfg = repo / "config.py"
    reading = 'R = {{"pool": Reading(primary="{}")}}\nBAND = {}\nKEEP = 7\n'
    cfg.write_text(reading.format("a", 1.0))
    _git(repo, "add", "."), _git(repo, "commit", "-qm", "one")
    cfg.write_text(reading.format("b", 1.0))
    _git(repo, "add", ".")
    second = _git(repo, "commit", "-qm", "two")
    (repo / "results").mkdir()
    (repo / "results" / "nb.json").write_text(json.dumps({"claims": [{"id": "S5"}]}))
    _git(repo, "add", "."), _git(repo, "commit", "-qm", "results")
    cfg.write_text(reading.format("b", 2.0))
    _git(repo, "add", ".")
    third = _git(repo, "commit", "-qm", "three")
    dating._forget()
    monkeypatch.setattr(dating, "repo_root", lambda: repo)

    assert dating.dated("config.py", dating.reading_primary("pool"), "nb", ["S5"]) == {
        "set_in": second, "set_after_results": False, "since_file_created": False}
    assert dating.dated("config.py", dating.constant("BAND"), "nb", ["S5"]) == {
        "set_in": third, "set_after_results": True, "since_file_created": False}
    # A value that goes back to the file's creation may be older: the record says so.
    assert dating.dated("config.py", dating.constant("KEEP"), "nb", [])["since_file_created"]
    assert dating.dated("config.py", dating.constant("BAND"), "nb", ["X9"])[
        "set_after_results"] is False
    cfg.write_text(reading.format("c", 2.0))
    assert dating.set_in("config.py", dating.reading_primary("pool")) == dating.UNCOMMITTED
    with pytest.raises(ValueError, match="not there"):
        dating.set_in("config.py", dating.constant("MISSING"))
    dating._forget()


def test_a_value_set_on_a_branch_is_dated_to_the_merge_that_brought_it(tmp_path, monkeypatch):
    repo = tmp_path
    _git(repo, "init", "-q", "-b", "main")
    cfg = repo / "config.py"
    source = "BAND = {}\nKEEP = {}\n"
    cfg.write_text(source.format(1, 1))
    _git(repo, "add", "."), _git(repo, "commit", "-qm", "one")
    _git(repo, "checkout", "-qb", "side")
    cfg.write_text(source.format(2, 1))
    side = _git(repo, "commit", "-qam", "band on a branch")
    _git(repo, "checkout", "-q", "main")
    (repo / "other.txt").write_text("x")
    _git(repo, "add", "."), _git(repo, "commit", "-qm", "unrelated")
    merge = _git(repo, "merge", "-q", "--no-ff", "-m", "merge", "side")
    dating._forget()
    monkeypatch.setattr(dating, "repo_root", lambda: repo)
    # HEAD is the merge: git log without --first-parent leaves it out, and the value found at the
    # newest listed commit is compared instead (here the branch's own, elsewhere an older one)
    assert dating.set_in("config.py", dating.constant("BAND")) == merge != side
    assert dating.dated("config.py", dating.constant("KEEP"), "nb", [])["since_file_created"]
    dating._forget()


def test_a_table_row_is_dated_by_its_words_and_band_or_rule():
    from storrepro.suite.dating import table_band

    source = 'TABLE = (Row(id="X1", words="\'w\'", rule="within 1"), Row(id="X2", words="v"))'
    assert table_band("X1")(source) == "\"'w'\"; 'within 1'"
    assert table_band("X2")(source) == "'v'" and table_band("X3")(source) is None
    # a row that leaves its words to its registered band is dated as if it had written them
    quoted = 'TABLE = (Row(id="X4", words=B.words, band=B), Row(id="X5", band=B))'
    assert table_band("X5")(quoted) == table_band("X4")(quoted) == "B.words; B"


def test_a_number_named_and_quoted_keeps_the_date_of_the_literal_it_replaced(tmp_path,
                                                                              monkeypatch):
    repo = tmp_path
    _git(repo, "init", "-q")
    cfg = repo / "claims.py"
    cfg.write_text('BAND = at_most(2.0, "Fig. 8: 0 % / 4 % (acceptance: ≤ 2 %)")\n')
    _git(repo, "add", ".")
    first = _git(repo, "commit", "-qm", "literal")
    named = ('ZERO = {}\nNEG = {{"DB": {{99.0: ZERO, 99.9: {}}}}}\n_N, _Z = NEG, ZERO\n'
             'BAND = at_most(2.0, f"Fig. 8: {{_N[\'DB\'][99.0]:g}} % / {{_N[\'DB\'][99.9]:g}} % "\n'
             '               "(acceptance: ≤ 2 %)")\n')
    cfg.write_text(named.format(0.0, 4.0))
    _git(repo, "add", "."), _git(repo, "commit", "-qm", "named")
    dating._forget()
    monkeypatch.setattr(dating, "repo_root", lambda: repo)
    assert dating.set_in("claims.py", dating.constant("BAND")) == first
    cfg.write_text(named.format(0.0, 5.0))  # the quoted number changes: the value is new
    _git(repo, "add", ".")
    third = _git(repo, "commit", "-qm", "five")
    dating._forget()
    assert dating.set_in("claims.py", dating.constant("BAND")) == third
    # an f-string of what is not a literal stays as written (and differs from the literal)
    assert "join" in dating.constant("W")("""P = f()\nW = f"{', '.join(P)} %"\n""")
    dating._forget()


def _history_repo(repo, monkeypatch):
    """A file whose BAND changed in the second of three commits."""
    _git(repo, "init", "-q")
    cfg = repo / "config.py"
    cfg.write_text("BAND = 1\nKEEP = 7\n")
    _git(repo, "add", "."), _git(repo, "commit", "-qm", "one")
    cfg.write_text("BAND = 2\nKEEP = 7\n")
    second = _git(repo, "commit", "-qam", "two")
    cfg.write_text("BAND = 2\nKEEP = 7\n# a comment\n")
    _git(repo, "commit", "-qam", "three")
    dating._forget()
    monkeypatch.setattr(dating, "repo_root", lambda: repo)
    return cfg, second


def test_the_values_found_are_kept_for_the_next_run_by_blob(tmp_path, monkeypatch):
    cfg, second = _history_repo(tmp_path, monkeypatch)
    assert dating.dated("config.py", dating.constant("BAND"), "nb", [])["set_in"] == second
    kept = list((tmp_path / "build" / "dating").glob("*.json"))
    assert [p.name for p in kept] == ["config.py.json"]
    # the next run reads no version of the file: every value it needs was kept
    dating._forget()
    monkeypatch.setattr(dating, "_read_objects", lambda names: dict.fromkeys(names))
    assert dating.set_in("config.py", dating.constant("BAND")) == second
    monkeypatch.undo()
    # a new commit changing the value is a new blob, never answered from the kept values
    monkeypatch.setattr(dating, "repo_root", lambda: tmp_path)
    cfg.write_text("BAND = 3\nKEEP = 7\n# a comment\n")
    fourth = _git(tmp_path, "commit", "-qam", "four")
    dating._forget()
    assert dating.set_in("config.py", dating.constant("BAND")) == fourth
    assert dating.set_in("config.py", dating.constant("KEEP")) != fourth
    dating._forget()


def test_kept_values_of_other_code_or_unreadable_versions_are_not_used(tmp_path, monkeypatch):
    cfg, second = _history_repo(tmp_path, monkeypatch)
    blobs = [blob for _, _, blob in dating._history("config.py")]
    memo = tmp_path / "build" / "dating" / "config.py.json"
    memo.parent.mkdir(parents=True)
    # kept by another version of this module (whose extractors might read differently)
    memo.write_text(json.dumps({"version": "other", "values": {
        f"{b}:constant:BAND": "2" for b in blobs}}))
    assert dating.set_in("config.py", dating.constant("BAND")) == second
    # a version git could not read is not kept as "value absent"
    dating._forget()
    memo.unlink()
    monkeypatch.setattr(dating, "_read_objects", lambda names: dict.fromkeys(names))
    assert dating.set_in("config.py", dating.constant("BAND")) == dating.UNCOMMITTED
    monkeypatch.undo()
    monkeypatch.setattr(dating, "repo_root", lambda: tmp_path)
    dating._forget()
    assert dating.set_in("config.py", dating.constant("BAND")) == second
    dating._forget()


def test_the_extractors_read_the_first_value_under_a_name():
    source = ('A = 1\nA = 2\nR = {"x": Reading(note=1), "y": Reading(primary="b")}\n'
              'S = {"x": Reading(primary="a", primary2=0)}\n')
    assert dating.constant("A")(source) == "1" and dating.constant("B")(source) is None
    assert dating.reading_primary("x")(source) == "'a'"
    assert dating.reading_primary("y")(source) == "'b'"
    assert dating.constant("A")("A = (") is None  # a version that does not parse
