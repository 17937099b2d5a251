"""TOFEC experiments: the sweeps' tasks and the config."""

import numpy as np
import pytest

from storrepro.papers.tofec import experiment as ex
from storrepro.papers.tofec.config import TofecConfig
from storrepro.papers.tofec.delay import SUR, ModelParams
from storrepro.papers.tofec.model_checks import mc_capacities
from storrepro.suite.config import ParameterError
from storrepro.suite.parallel import stream_id

PARAMS = ModelParams(26.0, 48.9, 8.44, 10.7)


def test_grid_task_runs_stable_codes_and_adaptive_policies():
    caps = tuple(16_000 / (i + 100.0) * 0 + c for i, c in enumerate([78.0] + [30.0] * 26))
    task = ex.GridTask(40.0, 0, 1_000, PARAMS, caps)
    rows = ex.run_grid_task(task, np.random.default_rng(0))
    names = [r["policy"] for r in rows]
    assert names[0] == "(1,1)" and "(2,1)" not in names  # 40 >= 0.98·30: skipped
    assert {"TOFEC a=0.9", "Greedy", "[3] fixed k", "TOFEC a=0.9 geometric"} <= set(names)


def test_saturated_throughput_is_the_capacity():
    # (1,1) offered 1.2x its MC capacity: the throughput is that capacity (A1 in small).
    cap = mc_capacities(SUR, np.random.default_rng(0), 100_000, codes=[(1, 1)]).capacity.iloc[0]
    res = ex.run_saturation_task(
        ex.SaturationTask("(1,1)", 1.2 * cap, 0, 20_000, PARAMS), np.random.default_rng(1)
    )
    assert res["throughput"] == pytest.approx(cap, rel=0.03)


def test_unknown_policy_name():
    with pytest.raises(ValueError, match="unknown policy"):
        ex.make_policy("Oracle", PARAMS)


def test_config_profiles_and_errors():
    quick, full = TofecConfig("quick"), TofecConfig("full")
    assert full.requests_at(75.0) == 50_000 and full.requests_at(100.0) == 60_000
    assert len(full.rates) == 16 and quick.seeds < full.seeds
    for bad in ({"alpha": 1.0}, {"alpha": -0.1}, {"seeds": 0}, {"n_threads": 8}):
        with pytest.raises(ParameterError, match=next(iter(bad))):
            TofecConfig("quick", **bad)


def test_grid_rates_add_high_load_points_with_more_seeds():
    rates = ex.grid_rates(TofecConfig("full"), 80.0)
    assert len(rates) == 19 and rates[0] == (2.0, 5)
    assert rates[-3:] == [(72.0, 10), (76.0, 10), (78.4, 10)]


def test_phase_task_runs_both_ideals_and_only_head_of_line_recodes_the_backlog():
    task = ex.PhaseTask("literal", (10.0, 80.0, 10.0), 0, PARAMS, (10, 5), alphas=(0.9,))
    out = ex.run_phase_task(task, np.random.default_rng(4))
    assert out["policies"] == ["TOFEC a=0.9", "Greedy", "Ideal", "Ideal (arrival)"]
    hol, arrival = out["Ideal"], out["Ideal (arrival)"]
    queued = (hol["t"] >= 399.0) & (hol["t"] < 400.0)  # arrived in the overload, served after it
    assert (arrival["k"][queued] == 1).all()
    assert (hol["k"][queued] == 5).any()
    np.testing.assert_array_equal(hol["k"][hol["t"] < 200.0], 5)


def test_kernel_vs_simpy_finds_the_two_identical():
    check = ex.kernel_vs_simpy(TofecConfig("quick"), PARAMS, rate=60.0, requests=300)
    assert 250 < check["requests"] < 350  # a Poisson count over 5 s at 60 per second
    assert check["max_difference"] == 0.0 and check["busy_vs_cost"] < 1e-12


def test_a_grid_task_keys_its_stream_by_its_fields_before_variants():
    """The delay model's reading added ``variants``; SUR's grid keeps its random streams."""
    task = ex.GridTask(5.0, 0, 1000, PARAMS, (100.0,) * 27, variants=False)
    assert stream_id(task) == repr(task).replace(", variants=False", "")
    assert [p.name for p in ex.grid_policies(task)][-2:] == ["TOFEC a=0.99", "Greedy"]


def test_saturation_and_phase_tasks_key_their_streams_by_their_listed_fields():
    """The keys are the fields the repr showed, in order (the streams keep their numbers); a
    trace's gaps are not among them, so a task on a trace draws the same stream."""
    sat = ex.SaturationTask("(2,1)", 50.0, 3, 1000, PARAMS)
    assert stream_id(sat) == repr(sat)
    phase = ex.PhaseTask("primary", (10.0, 76.0, 10.0), 2, PARAMS, (6, 5))
    traced = ex.PhaseTask("primary", (10.0, 76.0, 10.0), 2, PARAMS, (6, 5),
                          trace_gaps=np.ones(3))
    assert stream_id(phase) == repr(phase).replace(", trace_gaps=None", "")
    assert stream_id(traced) == stream_id(phase)
