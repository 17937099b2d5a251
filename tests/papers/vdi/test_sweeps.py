"""The sets of scheduler runs (:mod:`storrepro.papers.vdi.experiment.sweeps`), on a sweep that
returns what each task would run: one task per case, policy and seed, in the order the results are
read."""

import numpy as np

from storrepro.papers.vdi.config import SystemParams
from storrepro.papers.vdi.experiment import sweeps

BOOKS = [{"proposed": f"book {i}"} for i in range(2)]


def what_runs(fn, tasks, desc):
    return [(t.policy, t.pool_factor, t.scaling, t.tick_s, t.seed_index, t.book) for t in tasks]


def test_sensitivity_runs_each_variant_and_policy_on_every_seed():
    out = sweeps.sensitivity_runs(0, range(2), SystemParams(), (8, 32), BOOKS, what_runs)
    assert list(out) == list(sweeps.SENSITIVITY)
    assert out["idle nights"]["smart"] == [("smart", 1.0, "peak", 600.0, 0, "book 0"),
                                           ("smart", 1.0, "peak", 600.0, 1, "book 1")]
    assert out["tick 60 s"]["fixed"] == [("fixed", 1.0, "offset", 60.0, 0, None),
                                         ("fixed", 1.0, "offset", 60.0, 1, None)]
    assert out["pool × 0.8"]["fixed"][1] == ("fixed", 0.8, "offset", 600.0, 1, None)


def test_pool_scale_runs_reuse_the_runs_they_have():
    have = {1.0: {"fixed": ["f0", "f1"], "smart": ["s0", "s1"]}, 1.2: {"smart": ["t0", "t1"]}}
    out = sweeps.pool_scale_runs(0, range(2), SystemParams(), (8, 32), BOOKS, what_runs, have)
    made = [r for runs in out.values() for results in runs.values() for r in results
            if isinstance(r, tuple)]
    assert len(made) == 2 * (2 * len(sweeps.POOL_SCALES) - 3)  # three (factor, policy) are had
    assert out[1.0] == have[1.0] and out[1.2]["smart"] == ["t0", "t1"]
    assert out[1.2]["fixed"] == [("fixed", 1.2, "offset", 600.0, i, None) for i in range(2)]
    assert out[0.8]["smart"] == [("smart", 0.8, "offset", 600.0, i, f"book {i}")
                                 for i in range(2)]


def test_every_sweep_task_keys_its_stream_by_the_fields_its_repr_showed():
    """The random streams keep their numbers: each task's stream id is what its ``repr`` gave
    while the fields outside ``STREAM`` carried ``repr=False``; a trace or book does not key it."""
    from storrepro.papers.vdi.experiment.calibration import RampTask
    from storrepro.papers.vdi.experiment.forecast_study import FitTask, SeedTask
    from storrepro.papers.vdi.experiment.model_checks import FluidTask
    from storrepro.papers.vdi.experiment.real_vms import VmTask
    from storrepro.papers.vdi.experiment.runs import RunTask
    from storrepro.suite.parallel import stream_id

    system = repr(SystemParams())
    run = ("RunTask(base_seed=0, seed_index=1, policy='fixed', forecast='proposed', n_min=8, "
           f"n_agg=32, pool_factor=1.0, tick_s=600.0, scaling='offset', system={system})")
    expected = {
        RampTask(0, 1, ((8, 32),), trace="t"):
            f"RampTask(base_seed=0, seed_index=1, ramps=((8, 32),), system={system})",
        RunTask(0, 1, "fixed", trace="t"): run,
        FluidTask(RunTask(0, 1, "fixed", trace="t")): f"FluidTask(run={run})",
        FitTask(0, 1, "holt-winters", "total", (1, 2, 3), np.zeros(3)):
            "FitTask(base_seed=0, seed_index=1, model='holt-winters', column='total', "
            "days=(1, 2, 3))",
        SeedTask(0, 1, fits={}, trace="t"):
            "SeedTask(base_seed=0, seed_index=1, alpha=0.5, books=True)",
        VmTask("w1", np.zeros(3)): "VmTask(vm='w1', alphas=(0.1, 0.3, 0.5, 0.7, 0.9))",
    }
    for task, key in expected.items():
        assert stream_id(task) == key
