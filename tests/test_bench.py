"""make bench: each measurement on tiny inputs, and the report's target verdicts."""

import numpy as np
import pytest

from storrepro import bench


def test_every_simulator_runs_and_is_timed():
    tiny = [bench.Simulator(s.name, s.kind, s.run, 300, s.streaming) for s in bench.SIMULATORS]
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
        {"nb": lambda: ("squares", _square, list(range(8)), 3, bench.digest)}
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
        "notebooks": [
            {
                "notebook": "05_tofec",
                "profile": "full",
                "ok": True,
                "wall_s": full_s,
                "notebook_s": full_s,
                "peak_mib": 900.0,
            },
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
    assert not missed["all notebooks, full profile"]
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


def test_cli_rejects_an_unknown_profile(capsys):
    from storrepro.__main__ import main

    with pytest.raises(SystemExit):
        main(["bench", "--profiles", "huge"])
    assert "invalid choice: 'huge'" in capsys.readouterr().err


def test_digest_sees_every_value_and_only_values():
    import pandas as pd

    a = {"t": pd.DataFrame({"x": [1.0, 2.0]}), "v": np.arange(3), "s": [1, (2, "b")]}
    b = {"t": pd.DataFrame({"x": [1.0, 2.0]}), "v": np.arange(3), "s": [1, (2, "b")]}
    assert bench.digest(a) == bench.digest(b)
    b["t"].iloc[1, 0] = 2.0000001
    assert bench.digest(a) != bench.digest(b)
    assert bench.digest([np.zeros(2)]) != bench.digest([np.zeros(3)])


def test_notebooks_run_each_profile_into_its_own_build_folder(monkeypatch):
    calls = []
    monkeypatch.setattr(
        bench,
        "run_notebook",
        lambda name, profile, out: (
            calls.append((name, profile, out)) or {"notebook": name, "profile": profile}
        ),
    )
    rows = bench.notebooks(("quick",))
    assert [r["notebook"] for r in rows] == list(bench.NOTEBOOKS)
    assert {out for _, _, out in calls} == {bench.repo_root() / "build" / "bench-quick"}


def test_run_bench_keeps_each_section_as_it_is_measured(monkeypatch, tmp_path):
    monkeypatch.setattr(bench, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(bench, "device_speeds", lambda: [{"model": "m"}])
    monkeypatch.setattr(bench, "scaling", lambda: [])
    monkeypatch.setattr(bench, "notebooks", lambda profiles: [])

    def broken():
        raise RuntimeError("sweeps failed")

    monkeypatch.setattr(bench, "sweep_speedups", broken)
    with pytest.raises(RuntimeError):
        bench.run_bench(())
    import json

    partial = json.loads((tmp_path / "build" / "bench-partial.json").read_text())
    assert partial["devices"] == [{"model": "m"}] and partial["sweeps"] == []
