"""The real-VM loader on small made files of the shared file's format."""

import hashlib

import numpy as np
import pytest

from storrepro.suite.data import real_vms as rv


def write_vms(path, vms: dict[str, list[float]]):
    """A file of the format: per VM, its requests per snapshot, ``ts`` the snapshot's end."""
    rows = ["vm,interval,requests,ts"]
    for vm, counts in vms.items():
        rows += [f"{vm},{k},{int(c)},{int((k + 1) * 1.8e9) - 1000}" for k, c in enumerate(counts)]
    path.write_text("\n".join(rows) + "\n")
    return path


def test_the_file_is_read_per_vm_in_its_order_with_its_digest(tmp_path):
    path = write_vms(tmp_path / "vms.csv", {"w9": [1, 2, 3], "w1": [0, 5]})
    vms = rv.load_real_vms(path)
    assert list(vms.series) == ["w9", "w1"]
    np.testing.assert_array_equal(vms.series["w9"], [1.0, 2.0, 3.0])
    assert vms.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert rv.portable(path) in vms.describe() and vms.sha256[:16] in vms.describe()
    assert list(rv.load_real_vms(path, limit=1).series) == ["w9"]


def test_an_empty_snapshot_keeps_its_ts_and_counts_as_idle(tmp_path):
    path = tmp_path / "vms.csv"
    path.write_text("vm,interval,requests,ts\nw1,0,4,100\nw1,1,0,100\nw1,2,7,5400000000\n")
    np.testing.assert_array_equal(rv.load_real_vms(path).series["w1"], [4.0, 0.0, 7.0])


@pytest.mark.parametrize("text, message", [
    ("vm,interval,requests\nw1,0,1\n", "bad.csv: columns \\['ts'\\] missing"),
    ("vm,interval,requests,ts\nw1,0,1,1\nw1,1,-1,1\n",
     "bad.csv, line 3: requests must be numbers >= 0, got '-1'"),
    ("vm,interval,requests,ts\nw1,0,1,1\nw1,1,x,1\n", "bad.csv, line 3: requests .* got 'x'"),
    ("vm,interval,requests,ts\nw1,0,1,1\nw1,2,1,2\n", "line 3: .*without a hole; interval 1"),
    ("vm,interval,requests,ts\nw1,0,1,5\nw1,1,1,2\n", "line 3: .*must not decrease"),
    ("vm,interval,requests,ts\nw1,0,1,5\nw1,1,1,x\n", "line 3: VM w1's ts must be numbers"),
    ("vm,interval,requests,ts\n", "no snapshots"),
    ("vm,interval,requests,ts\nw1,0,1,5\nw1,1,1,6,7,8\n", "bad.csv: not a CSV file"),
    ("", "bad.csv: not a CSV file"),
])
def test_a_bad_file_is_refused_naming_it_and_the_fault(tmp_path, text, message):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        rv.load_real_vms(path)


def test_a_binary_file_is_refused_naming_it(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(b"vm,interval,requests,ts\n\xff\xfe,0,1,1\n")
    with pytest.raises(ValueError, match="bad.csv: not a text"):
        rv.load_real_vms(path)


def test_the_default_is_the_environments_file_and_the_message_names_the_source(tmp_path,
                                                                              monkeypatch):
    path = write_vms(tmp_path / "vms.csv", {"w1": [1]})
    monkeypatch.setenv(rv.ENV, str(path))
    assert rv.default_path() == path and rv.resolve("") == path
    assert rv.resolve(str(tmp_path / "other.csv")) == tmp_path / "other.csv"
    message = rv.missing_message("real_vms")
    assert "BlockTraceFeatures" in message and "`real_vms`" in message


def test_a_file_beside_the_checkout_is_recorded_relative_to_it(tmp_path, monkeypatch):
    """Results must not depend on where the checkout sits: a file in the checkout's parent
    folder is written ``../shared/...`` and read back from any working folder; a file
    elsewhere keeps its absolute path."""
    home, shared = tmp_path / "main", tmp_path / "shared"
    (home / "notebooks").mkdir(parents=True)
    shared.mkdir()
    beside = write_vms(shared / "vms.csv", {"w1": [1, 2]})
    monkeypatch.setattr(rv, "repo_root", lambda: home)
    assert rv.portable(beside) == "../shared/vms.csv"
    assert "real VMs ../shared/vms.csv (sha256" in rv.load_real_vms(beside).describe()
    monkeypatch.chdir(home / "notebooks")  # where ../shared/vms.csv is not
    assert rv.resolve("../shared/vms.csv").resolve() == beside.resolve()
    elsewhere = tmp_path.parent
    assert rv.portable(elsewhere) == str(elsewhere)
    (tmp_path / "linked").symlink_to(tmp_path.parent)  # a shared folder linked beside it
    assert rv.portable(tmp_path / "linked" / "vms.csv") == "../linked/vms.csv"
