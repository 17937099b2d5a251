"""make bench: each measurement on tiny inputs, and the report's target verdicts."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from storrepro.suite import bench
from storrepro.suite.bench_cases import Sweep, digest


def test_every_simulator_runs_and_is_timed():
    tiny = [bench.Simulator(s.name, s.kind, s.run, 300, s.streaming) for s in bench.simulators()]
    rows = bench.device_speeds(tiny)
    assert [(r["model"], r["kind"]) for r in rows] == [(s.name, s.kind) for s in tiny]
    assert all(r["requests"] == 300 and r["requests_per_s"] > 0 for r in rows)


def test_a_scaling_point_reports_time_and_added_memory():
    point = bench._point(1, 50_000)  # the FIFO fast path
    assert point["requests"] == 50_000 and point["seconds"] > 0 and point["added_mib"] >= 0


def _square(task, rng):
    return task * task + rng.integers(10)


def test_sweep_speedup_runs_both_ways_and_checks_identity():
    (row,) = bench.sweep_speedups(
        {"nb": lambda: Sweep("squares", _square, list(range(8)), 3, digest)}
    )
    assert row["tasks"] == 8 and row["identical"] is True
    assert row["one_worker_s"] > 0 and row["two_workers_s"] > 0


def _data(full_s=100.0, speedup=1.8, rps=2e7, exponent_points=(1.0, 10.0)):
    points = [
        {"multiple": m, "requests": rps * s, "seconds": s, "added_mib": 5.0}
        for m, s in zip((1, 10), exponent_points, strict=True)
    ]
    return {
        "machine": {"cores": 2, "memory_gib": 24, "python": "3.11"},
        "git_commit": "abc",
        "targets": bench.TARGETS,
        "devices": [
            {
                "model": "FIFO queue",
                "kind": "simpy",
                "requests": 10,
                "seconds": 1,
                "requests_per_s": 1e5,
            },
            {
                "model": "FIFO queue",
                "kind": "fast",
                "requests": 10,
                "seconds": 1,
                "requests_per_s": rps,
            },
        ],
        "scaling": [
            {
                "model": "FIFO queue",
                "kind": "fast",
                "streaming": True,
                "points": points,
                "time_exponent": float(np.log10(exponent_points[1] / exponent_points[0])),
                "memory_bounded": True,
            }
        ],
        "sweeps": [
            {
                "notebook": "05_tofec",
                "sweep": "grid",
                "tasks": 8,
                "one_worker_s": 2.0,
                "two_workers_s": 2.0 / speedup,
                "speedup": speedup,
                "identical": True,
            }
        ],
        "suites": [
            {
                "profile": "full",
                "ok": True,
                "wall_s": full_s,
                "notebooks": [
                    {
                        "notebook": "05_tofec",
                        "profile": "full",
                        "ok": True,
                        "wall_s": full_s,
                        "peak_mib": 900.0,
                    }
                ],
            }
        ],
    }


def test_targets_met_and_missed():
    met = {row[0]: row[3] for row in bench.targets_met(_data())}
    assert all(met.values()) and len(met) == 6
    missed = {
        row[0]: row[3]
        for row in bench.targets_met(
            _data(full_s=1000.0, speedup=1.5, rps=5e6, exponent_points=(1.0, 20.0))
        )
    }
    assert not missed["all notebooks, full profile (one `make reproduce`)"]
    assert not missed["2-worker speedup, 05_tofec"]
    assert not missed["FIFO fast path, sustained (workload drawn in the loop)"]
    assert not missed["cost grows linearly: FIFO queue (fast)"]


def test_report_shows_every_section():
    text = bench.render(_data(speedup=1.5))
    for heading in (
        "## Targets",
        "## Device models",
        "## Notebooks",
        "## Largest sweep",
        "## Scaling",
    ):
        assert heading in text
    assert "| 2-worker speedup, 05_tofec | >= 1.7 | 1.50x | **not met** |" in text
    assert "| FIFO queue | 1.00e+05 | 2.00e+07 | 200x |" in text
    assert "| exponent <= 1.15 | 1.00 (µs per request: 0.05 → 0.05) | met |" in text


def test_cli_rejects_an_unknown_profile(capsys):
    from storrepro.__main__ import main

    with pytest.raises(SystemExit):
        main(["bench", "--profiles", "huge"])
    assert "invalid choice: 'huge'" in capsys.readouterr().err


def test_digest_sees_every_value_and_only_values():
    import pandas as pd

    a = {"t": pd.DataFrame({"x": [1.0, 2.0]}), "v": np.arange(3), "s": [1, (2, "b")]}
    b = {"t": pd.DataFrame({"x": [1.0, 2.0]}), "v": np.arange(3), "s": [1, (2, "b")]}
    assert digest(a) == digest(b)
    b["t"].iloc[1, 0] = 2.0000001
    assert digest(a) != digest(b)
    assert digest([np.zeros(2)]) != digest([np.zeros(3)])


def test_a_suite_runs_in_one_process_and_each_notebook_gets_its_time_and_memory(monkeypatch):
    """The runner's own lines, from a stand-in process: which notebooks ran, how long, whether
    they failed; the memory samples go to the notebooks running at the time."""
    runner_lines = [  # two notebooks side by side, as the quick profile runs them
        "[1/2] 00_simulator_validation  (profile=quick)",
        "[2/2] 05_tofec  (profile=quick)",
        "      05_tofec: FAILED in 3.0 s",
        "      failed in cell 4:",
        "      00_simulator_validation: done in 20.5 s",
    ]
    script = "import time\n" + "".join(
        f"print({line!r}, flush=True); time.sleep(0.3)\n" for line in runner_lines
    )
    popen = subprocess.Popen
    commands = []

    def stand_in(cmd, **kwargs):
        commands.append(cmd)
        return popen([sys.executable, "-c", script], **kwargs)

    monkeypatch.setattr(bench.subprocess, "Popen", stand_in)
    suite = bench.run_suite("quick", Path("/nowhere"), poll_s=0.05)
    assert commands[0][2:] == ["storrepro", "reproduce", "--profile", "quick", "--out", "/nowhere"]
    assert not suite["ok"] and suite["wall_s"] > 1.0
    books = {b["notebook"]: b for b in suite["notebooks"]}
    assert (books["00_simulator_validation"]["ok"], books["00_simulator_validation"]["wall_s"]) == (
        True,
        20.5,
    )
    assert (books["05_tofec"]["ok"], books["05_tofec"]["wall_s"]) == (False, 3.0)
    assert all(b["peak_mib"] > 1 for b in books.values())


def test_each_profile_runs_into_its_own_build_folder(monkeypatch):
    calls = []
    monkeypatch.setattr(bench, "run_suite", lambda profile, out: calls.append((profile, out)) or {})
    rows = bench.suites(("quick", "full"))
    root = bench.repo_root() / "build"
    assert calls == [
        ("quick", root / "bench-first"),  # fills numba's cache; reported, not judged
        ("quick", root / "bench-quick"),
        ("full", root / "bench-full"),
    ]
    assert [r["first_run"] for r in rows] == [True, False, False]


def test_the_first_run_is_reported_but_not_judged():
    data = _data()
    first = {**data["suites"][0], "profile": "quick", "wall_s": 9999.0, "first_run": True}
    data["suites"].insert(0, first)
    assert "all notebooks, quick profile (one `make reproduce`)" not in {
        row[0] for row in bench.targets_met(data)
    }
    assert "A first quick run before them" in bench.render(data)
    assert "took 166.7 min" in bench.render(data)


def test_run_bench_keeps_each_section_as_it_is_measured(monkeypatch, tmp_path):
    monkeypatch.setattr(bench, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(bench, "device_speeds", lambda: [{"model": "m"}])
    monkeypatch.setattr(bench, "scaling", lambda: [])
    monkeypatch.setattr(bench, "suites", lambda profiles: [])

    def broken():
        raise RuntimeError("sweeps failed")

    monkeypatch.setattr(bench, "sweep_speedups", broken)
    with pytest.raises(RuntimeError):
        bench.run_bench(())
    import json

    partial = json.loads((tmp_path / "build" / "bench-partial.json").read_text())
    assert partial["devices"] == [{"model": "m"}] and partial["sweeps"] == []


def test_a_run_of_some_sections_says_which_it_measured(monkeypatch, tmp_path):
    monkeypatch.setattr(bench, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(bench, "device_speeds", lambda: pytest.fail("devices not chosen"))
    monkeypatch.setattr(bench, "suites", lambda profiles: [])
    data = bench.run_bench((), sections=("suites",))
    assert data["sections"] == ["suites"] and data["devices"] == []
    text = bench.render(data)
    assert "Sections measured in this run: suites" in text
    assert "| — | not measured in this run | | |" in text


def test_a_section_not_chosen_is_no_missed_target():
    data = {"sections": ["suites"], "sweeps": [], "scaling": [], "suites": []}
    assert not [row for row in bench.targets_met(data) if "speedup" in row[0]]
    data["sections"] = list(bench.SECTIONS)
    assert [row[3] for row in bench.targets_met(data) if "speedup" in row[0]] == [False]
