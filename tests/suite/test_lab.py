"""`make lab` works on copies: JupyterLab's save path never writes into notebooks/."""

import errno
import json
import os
import subprocess

import nbformat
import pytest

from storrepro.suite import lab
from storrepro.suite.notebooks import NOTEBOOKS, notebook_path
from storrepro.suite.paths import repo_root


@pytest.fixture
def lab_home(tmp_path, monkeypatch):
    monkeypatch.setattr(lab, "repo_root", lambda: tmp_path)
    return tmp_path / "build" / "lab" / "notebooks"


def test_copies_are_made_once_and_a_students_copy_is_kept(lab_home):
    made = lab.working_copies()
    assert [name for name, _, _ in made] == list(NOTEBOOKS)
    assert not any(kept for _, _, kept in made)
    first = lab_home / f"{next(iter(NOTEBOOKS))}.ipynb"
    first.write_text("my edits")
    again = {name: kept for name, _, kept in lab.working_copies()}
    assert all(again.values()) and first.read_text() == "my edits"
    name = next(iter(NOTEBOOKS))
    lab.working_copies(fresh=[name])
    assert first.read_bytes() == notebook_path(name).read_bytes()
    with pytest.raises(KeyError, match="--fresh 'nope': unknown notebook"):
        lab.working_copies(fresh=["nope"])


def test_labs_save_path_leaves_the_repository_clean(lab_home, monkeypatch):
    from jupyter_server.services.contents.filemanager import FileContentsManager

    started = []
    monkeypatch.setattr(lab.os, "execv", lambda exe, args: started.append(args))
    lab.start_lab()
    root = next(a.split("=", 1)[1] for a in started[0] if a.startswith("--notebook-dir="))
    assert root == str(lab_home)
    before = subprocess.run(["git", "status", "--porcelain", "--", "notebooks"],
                            cwd=repo_root(), capture_output=True, text=True).stdout
    committed = notebook_path(next(iter(NOTEBOOKS))).read_bytes()
    # What Lab's autosave does: PUT the notebook, outputs and all, through the contents manager.
    name = f"{next(iter(NOTEBOOKS))}.ipynb"
    manager = FileContentsManager(root_dir=root)
    nb = nbformat.read(lab_home / name, as_version=4)
    code = next(c for c in nb.cells if c.cell_type == "code")
    code.outputs = [nbformat.v4.new_output("stream", text="a student's output")]
    manager.save({"type": "notebook", "format": "json", "content": nb}, name)
    assert "a student's output" in json.dumps(nbformat.read(lab_home / name, as_version=4))
    after = subprocess.run(["git", "status", "--porcelain", "--", "notebooks"],
                           cwd=repo_root(), capture_output=True, text=True).stdout
    assert after == before
    assert notebook_path(next(iter(NOTEBOOKS))).read_bytes() == committed


def test_lab_passes_browser_and_port_through_and_encrypts_its_kernels(lab_home):
    import zmq

    args = lab.lab_args(no_browser=True, port=8899)
    assert "--no-browser" in args and "--port=8899" in args
    assert ("--KernelManager.transport_encryption=auto" in args) == zmq.has("curve")
    plain = lab.lab_args()
    assert "--no-browser" not in plain and not any(a.startswith("--port") for a in plain)
    with pytest.raises(ValueError, match="--port 70000: expected a TCP port from 1 to 65535"):
        lab.lab_args(port=70000)


def test_a_checkout_the_lab_cannot_write_is_said_before_anything_starts(lab_home, monkeypatch,
                                                                        capsys):  # fmt: skip
    from storrepro.__main__ import main

    monkeypatch.setattr(lab.os, "execv", lambda exe, args: pytest.fail("JupyterLab started"))
    (lab_home.parents[1]).write_text("")  # a file where build/ would be: unwritable, even by root
    assert main(["lab"]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and said.startswith(f"error: lab: cannot write {lab_home} (")
    assert "clone the checkout into a folder you can write (git clone" in said
    (lab_home.parents[1]).unlink()
    refused = lambda folder: OSError(errno.EROFS, os.strerror(errno.EROFS))  # noqa: E731
    monkeypatch.setattr(lab, "write_error", refused)  # a read-only mount, which root meets too
    with pytest.raises(OSError, match=rf"cannot write {lab_home} \(Read-only file system\)"):
        lab.start_lab()
    assert not lab_home.exists()  # nothing copied


def test_a_jupyter_runtime_folder_it_cannot_write_names_the_variable(lab_home, monkeypatch,
                                                                     tmp_path):  # fmt: skip
    monkeypatch.setattr(lab.os, "execv", lambda exe, args: pytest.fail("JupyterLab started"))
    (tmp_path / "home").write_text("")
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "home" / "runtime"))
    with pytest.raises(OSError, match=r"Jupyter's runtime folder .*/home/runtime \(Not a "
                       "directory\\): set JUPYTER_RUNTIME_DIR to a folder you can write"):
        lab.start_lab()
