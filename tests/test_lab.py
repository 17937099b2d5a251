"""JupyterLab as a student meets it: started headless on 127.0.0.1, notebooks listed, and a
notebook's first cells run through a kernel of the project's environment."""

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import nbformat
import pytest
from tornado import ioloop, websocket

from storrepro.notebooks import NOTEBOOKS, notebook_path
from storrepro.paths import repo_root


@pytest.fixture(scope="module")
def lab(tmp_path_factory, free_port):
    port, token = free_port(), secrets.token_hex(16)
    jupyter = Path(sys.executable).with_name("jupyter")
    home = tmp_path_factory.mktemp("lab-home")  # no user settings leak in
    server = subprocess.Popen(
        [
            jupyter,
            "lab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={repo_root() / 'notebooks'}",
            *(["--allow-root"] if os.geteuid() == 0 else []),  # CI runs as root
        ],
        env={"HOME": str(home), "PATH": f"{jupyter.parent}{os.pathsep}{os.environ['PATH']}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not answer on 127.0.0.1 within 60 s")
        yield base, token
    finally:
        server.terminate()
        server.wait(timeout=30)


def _get(lab, path):
    base, token = lab
    with urllib.request.urlopen(f"{base}{path}?token={token}", timeout=10) as response:
        return json.load(response)


def test_lab_lists_every_notebook_and_serves_the_app(lab):
    listed = {item["name"] for item in _get(lab, "/api/contents")["content"]}
    assert {f"{name}.ipynb" for name in NOTEBOOKS} <= listed
    base, token = lab
    with urllib.request.urlopen(f"{base}/lab?token={token}", timeout=10) as response:
        assert response.status == 200 and b"JupyterLab" in response.read()


def _run_cells(lab, kernel_id, sources, timeout=120):
    """Execute cells over the kernel's websocket; return (status, text output) per cell."""
    base, token = lab
    url = f"{base.replace('http', 'ws')}/api/kernels/{kernel_id}/channels?token={token}"

    async def run():
        conn = await websocket.websocket_connect(url)
        results = []
        for source in sources:
            msg_id = uuid.uuid4().hex
            await conn.write_message(
                json.dumps(
                    {
                        "header": {
                            "msg_id": msg_id,
                            "msg_type": "execute_request",
                            "username": "test",
                            "session": "test",
                            "version": "5.3",
                        },
                        "parent_header": {},
                        "metadata": {},
                        "channel": "shell",
                        "content": {
                            "code": source,
                            "silent": False,
                            "store_history": True,
                            "user_expressions": {},
                            "allow_stdin": False,
                        },
                    }
                )
            )
            # Shell and iopub are not ordered with each other: the reply can overtake the
            # output, so wait for both the reply and the kernel's "idle" after this request.
            text, status, idle = [], None, False
            while status is None or not idle:
                reply = json.loads(await conn.read_message())
                if reply.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                content = reply["content"]
                if reply["msg_type"] == "execute_result":
                    text.append(content["data"].get("text/plain", ""))
                elif reply["msg_type"] == "stream":
                    text.append(content["text"])
                elif reply["msg_type"] == "error":
                    text.append(f"{content['ename']}: {content['evalue']}")
                elif reply["msg_type"] == "execute_reply":
                    status = content["status"]
                elif reply["msg_type"] == "status":
                    idle = content["execution_state"] == "idle"
            results.append((status, "".join(text)))
        conn.close()
        return results

    return ioloop.IOLoop.current().run_sync(run, timeout=timeout)


def test_a_notebook_runs_through_a_kernel_of_the_project_environment(lab):
    specs = _get(lab, "/api/kernelspecs")
    base, token = lab
    request = urllib.request.Request(
        f"{base}/api/kernels?token={token}",
        method="POST",
        data=json.dumps({"name": specs["default"]}).encode(),
        headers={"Content-Type": "application/json"},
    )
    kernel = json.load(urllib.request.urlopen(request, timeout=30))
    nb = nbformat.read(notebook_path("00_simulator_validation"), as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    results = _run_cells(
        lab,
        kernel["id"],
        [
            "import sys; print(sys.prefix)",
            code[0].replace('profile = "full"', 'profile = "quick"'),  # the parameters cell, edited
            code[1],  # imports and the validated config
        ],
    )
    assert [status for status, _ in results] == ["ok", "ok", "ok"], results
    assert Path(results[0][1].strip()) == Path(sys.prefix)  # the project's environment
    assert "ValidationConfig(profile='quick'" in results[2][1]
