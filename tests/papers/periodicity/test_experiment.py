
"""Notebook 01's experiment plumbing: config, benchmark tasks, re-detection, scheduling run,
and the acceptance-check logic on hand-made score tables."""

import importlib

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.periodicity import plain
from storrepro.papers.periodicity.config import PrecisePeriodConfig
from storrepro.papers.periodicity.experiment import (
    METHODS,
    SERIES_PER_TASK,
    SchedulingTask,
    SeriesTask,
    flows_table,
    latency_table,
    reading_results,
    run_series,
    run_task,
    score_table,
    tasks_for,
)
from storrepro.papers.periodicity.precise_period import track_period
from storrepro.papers.periodicity.ssd_latency import S_OPS
from storrepro.papers.periodicity.workload import SurrogateSpec
from storrepro.suite.config import ParameterError


def test_config_profiles_and_bad_values():
    quick, full = PrecisePeriodConfig(profile="quick"), PrecisePeriodConfig(profile="full")
    assert (full.cran_series, full.synthetic_series, full.sched_ssds) == (82, 1000, 96)
    assert full.sched_even_ssds == 16
    assert quick.synthetic_series < full.synthetic_series
    with pytest.raises(ParameterError, match="cran_series"):
        PrecisePeriodConfig(cran_series=83)
    with pytest.raises(ParameterError, match="sched_segments"):
        PrecisePeriodConfig(sched_ssds=50, sched_segments=20)
    with pytest.raises(ParameterError, match="sched_even_ssds = 30"):
        PrecisePeriodConfig(sched_ssds=10, sched_even_ssds=30, sched_segments=20)


def test_run_series_on_one_synthetic_series():
    (row,) = run_series(SeriesTask("synthetic", 0, 1, "0", 3))
    assert row["truth"] == row["truth"] // 1 and 50 <= row["truth"] <= 200
    for method in METHODS:
        assert row[method] is None or isinstance(row[method], int)
    with pytest.raises(ValueError, match="dataset"):
        run_series(SeriesTask("kaggle", 0, 1, "", 1))


def test_tasks_cover_every_series_once_and_run_task_dispatches():
    tasks = tasks_for("synthetic", 45, "0") + tasks_for("cran", 7, "")
    covered = [(t.dataset, i) for t in tasks for i in range(t.start, t.stop)]
    assert sorted(covered) == sorted(
        [("synthetic", i) for i in range(45)] + [("cran", i) for i in range(7)]
    )
    assert all(t.stop - t.start <= SERIES_PER_TASK[t.dataset] for t in tasks)
    rows = run_task(SeriesTask("synthetic", 1, 3, "0", 3), np.random.default_rng(0))
    assert [r["key"] for r in rows] == ["synthetic::1", "synthetic::2"]


def test_score_table_long_form():
    results = pd.DataFrame(
        {"dataset": ["d"] * 2, "truth": [12.0, 4.0], **{m: [12, None] for m in METHODS}}
    )
    table = score_table(results, METHODS)
    assert len(table) == 2 * len(METHODS)
    assert set(table.accuracy) == {0.5} and set(table.precision) == {1.0}


def test_track_period_redetects_after_a_switch():
    rng = np.random.default_rng(0)
    t = np.arange(2400)
    x = np.where(t < 1000, np.sin(2 * np.pi * t / 50), np.sin(2 * np.pi * (t - 1000) / 100))
    events = track_period(x + 0.1 * rng.normal(size=t.size), 500)
    assert events[0] == (500, 50)
    later = [(time, p) for time, p in events if time > 1000 and p is not None]
    assert later and abs(later[0][1] - 100) <= 2 and later[0][0] <= 1000 + 5 * 100


def test_knee_curve_rejects_unstable_rates():
    with pytest.raises(ValueError, match="rate"):
        plain.knee_curve([S_OPS], np.random.default_rng(0), requests=10)


def test_tiny_scheduling_replicate_runs_and_hash_is_the_reference():
    spec = SurrogateSpec(ssds=3, segments=60, history_days=1, intervals=1)
    task = SchedulingTask(0, spec, (0.01, 0.05), (1, 2), detection_sample=10)
    result = run_task(task, np.random.default_rng(0))  # dispatches to run_replicate
    flows = flows_table([result])
    assert set(flows.method) == {"PreciseScheduling", "greedy-history", "random-history",
                                 "greedy on actual 10-min traffic",
                                 "greedy on actual 1-min traffic"}
    assert (flows[flows.kind == "moves"].moves <= flows[flows.kind == "moves"].value).all()
    lats = latency_table([result])
    assert {"hash", "PreciseScheduling"} <= set(lats.method)
    assert (lats.max_tail_ms >= lats.mean_latency_ms).all()
    assert result["detection"]["sampled"] == 10
    assert result["detection"]["planted_sampled"] >= result["detection"]["unverifiable"] >= 0


def test_flows_table_is_each_rows_decline_against_hash_in_its_interval():
    spec = SurrogateSpec(ssds=3, segments=60, history_days=1, intervals=2)
    task = SchedulingTask(0, spec, (0.01, 0.05), (1, 2), detection_sample=10)
    results = [run_task(task, np.random.default_rng(s)) | {"replicate": s} for s in (0, 1)]
    want = []  # row by row, in order, with Python's arithmetic
    for r in results:
        hashed = {row["interval"]: row for row in r["rows"] if row["method"] == "hash"}
        for row in r["rows"]:
            if row["method"] != "hash":
                h = hashed[row["interval"]]
                want.append({"replicate": r["replicate"],
                             **{k: row[k] for k in ("interval", "method", "kind", "value",
                                                    "moves")},
                             "decline_p99": 100 * (1 - row["p99_flow"] / h["p99_flow"]),
                             "decline_p999": 100 * (1 - row["p999_flow"] / h["p999_flow"])})
    pd.testing.assert_frame_equal(flows_table(results), pd.DataFrame(want), check_exact=True)
    assert flows_table([]).empty


def test_replicate_runs_precise_scheduling_under_each_reading_and_shares_the_rest():
    spec = SurrogateSpec(ssds=3, segments=60, history_days=1, intervals=1)
    readings = ("preprocessed", "denoised")
    task = SchedulingTask(0, spec, (0.01, 0.05), (1, 2), detection_sample=10,
                          verifications=readings)
    result = run_task(task, np.random.default_rng(0))
    assert set(result["by_reading"]) == set(readings)
    for v in readings:
        (view,) = reading_results([result], v)
        flows = flows_table([view])
        assert (flows[flows.method == "PreciseScheduling"].groupby(["kind", "value"]).size()
                == 1).all()
    primary = reading_results([result], "preprocessed")[0]
    alt = reading_results([result], "denoised")[0]
    others = [r for r in primary["rows"] if r["method"] != "PreciseScheduling"]
    assert others == [r for r in alt["rows"] if r["method"] != "PreciseScheduling"]


def test_generator_variants_change_one_knob_and_keep_the_draws():
    from storrepro.papers.periodicity.experiment import GENERATOR_VARIANTS, generator_tasks
    from storrepro.suite.data.synthetic import SyntheticSpec, generate

    base = generate(3, seed=0)
    for name, fields in GENERATOR_VARIANTS.items():
        variant = generate(3, seed=0, spec=SyntheticSpec(**fields))
        assert [s.period for s in variant] == [s.period for s in base], name
        assert all(np.allclose(a.parts["noise"] / max(a.noise_var, 1e-12) ** 0.5,
                               b.parts["noise"] / max(b.noise_var, 1e-12) ** 0.5)
                   for a, b in zip(base, variant, strict=True)), name
    pulse = generate(1, seed=0, spec=SyntheticSpec(waveform="pulse"))[0].parts["sine"]
    assert 0.05 < np.mean(pulse > 0) < 0.15  # 10 % duty
    with pytest.raises(ValueError, match="waveform"):
        SyntheticSpec(waveform="triangle")
    tasks = generator_tasks(3, 0)
    assert len(tasks) == len(GENERATOR_VARIANTS) and generator_tasks(0, 0) == []
    rows = run_series(tasks[-1])
    assert {r["dataset"] for r in rows} == {"generator: pulse train, 10 % duty"}


def test_tracking_never_verifies_on_fewer_samples_than_the_minimum_horizon(monkeypatch):
    # the module, not the function of the same name the package exports
    pp = importlib.import_module("storrepro.papers.periodicity.precise_period")
    lengths = []
    real = pp.pcc
    monkeypatch.setattr(pp, "pcc", lambda a, b: lengths.append(len(a)) or real(a, b))
    t = np.arange(400)
    x = np.sin(2 * np.pi * t / 4) + 0.05 * np.random.default_rng(1).normal(size=t.size)
    events = pp.track_period(x, 200)
    assert events[0] == (200, 4)
    assert lengths and min(lengths) >= pp.MIN_HORIZON > 4


def test_an_uneven_ssds_replicate_skews_its_volumes_and_keeps_its_traffic():
    from storrepro.papers.periodicity.experiment import UnevenSSDs

    spec = SurrogateSpec(ssds=3, segments=60, history_days=1, intervals=1)
    plain = SchedulingTask(0, spec, (0.01,), (1,), detection_sample=10)
    skewed = SchedulingTask(0, spec, (0.01,), (1,), detection_sample=10, skew_target_ms=5.0)
    even = run_task(plain, np.random.default_rng(0))
    uneven = run_task(UnevenSSDs(skewed), np.random.default_rng(0))  # the same draws here
    assert even["calibration"] is None and "volume_sigma" in uneven["calibration"]
    # the same workload with its volumes skewed: the same traffic over the whole span, so
    # about the same over the history
    assert uneven["mean_bytes_per_s"] == pytest.approx(even["mean_bytes_per_s"], rel=0.1)


def test_f0_reads_the_evaluations_own_numbers_which_the_fit_drew():
    """The sigma fit runs on the evaluation's own draws, at the arrival seconds fitted once
    (:class:`ArrivalFit`): its worst SSD is the one the evaluation's hash-placement rows show;
    the smooth twin draws the same workload with requests spread over every minute."""
    from storrepro.papers.periodicity.experiment import (
        ArrivalFit,
        SmoothArrivals,
        UnevenSSDs,
        hash_numbers,
    )
    from storrepro.suite.parallel import task_rng

    spec = SurrogateSpec(ssds=32, segments=300, history_days=1, intervals=2)
    fit = run_task(ArrivalFit(spec, 5.0, 1.1), np.random.default_rng(5))
    drawn = {(s, sigma) for s, sigma, _, _ in fit["tried"]}
    assert (fit["arrival_seconds"], fit["volume_sigma"]) in drawn
    task = SchedulingTask(0, spec, (0.01,), (1,), detection_sample=10, skew_target_ms=5.0,
                          arrival_seconds=fit["arrival_seconds"])
    uneven = UnevenSSDs(task)
    result = run_task(uneven, task_rng(0, uneven))
    cal = result["calibration"]
    assert cal["arrival_seconds"] == result["arrival_seconds"] == fit["arrival_seconds"]
    smooth = run_task(SmoothArrivals(uneven, 0), np.random.default_rng(99))
    assert smooth["arrival_seconds"] == 60 and smooth["calibration"]["arrival_seconds"] == 60
    assert smooth["detection"]["planted_share"] == result["detection"]["planted_share"]
    assert {r["reading"] for r in smooth["rows"] if r["method"] == "PreciseScheduling"} == \
        {"preprocessed"}
    hashed = [r for r in result["rows"] if r["method"] == "hash"]
    assert len(hashed) == 2 and cal["hash_max_tail_ms"] == 1e3 * max(
        np.max(r["tail_latency"]) for r in hashed)
    # hash_numbers on hand-made rows: the worst interval's worst SSD, the means of the rest
    rows = [{"method": "hash", "tail_latency": np.array([1e-3, 3e-3]),
             "mean_latency": np.array([1e-4, 3e-4])},
            {"method": "hash", "tail_latency": np.array([2e-3, 2e-3]),
             "mean_latency": np.array([2e-4, 2e-4])},
            {"method": "greedy-history", "tail_latency": np.array([9.0]),
             "mean_latency": np.array([9.0])}]
    assert hash_numbers(rows, [20e6, 30e6]) == pytest.approx({
        "hash_max_tail_ms": 3.0, "hash_mean_ssd_tail_ms": 2.0, "hash_mean_latency_ms": 0.2,
        "mean_ssd_mb_per_s": 25.0})


def test_high_percentiles_are_np_percentile_to_the_bit():
    # loads of the study's shape and odd ones, with ties, each value as np.percentile gives
    # it; a NaN, one value or the 100th percentile: np.percentile itself
    rng = np.random.default_rng(13)
    ex = importlib.import_module("storrepro.papers.periodicity.experiment")
    for trial in range(300):
        x = rng.lognormal(size=(int(rng.integers(1, 100)), int(rng.integers(1, 400)))) * 1e9
        x = np.round(x, -8) if trial % 3 == 0 else x  # ties
        for arr in (x, x.ravel()):
            for qs in ((99, 99.9), (99,), (25, 50, 75), (100,)):
                got, want = ex.high_percentiles(arr, qs), list(np.percentile(arr, qs, axis=-1))
                assert [np.asarray(v).tobytes() for v in got] == [
                    np.asarray(v).tobytes() for v in want]
    x = rng.normal(size=(4, 50))
    x[1, 7] = np.nan
    assert np.array_equal(ex.high_percentiles(x, (99, 99.9)),
                          np.percentile(x, (99, 99.9), axis=-1), equal_nan=True)
