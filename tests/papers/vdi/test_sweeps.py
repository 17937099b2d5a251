"""The sets of scheduler runs (:mod:`storrepro.papers.vdi.experiment.sweeps`), on a sweep that
returns what each task would run: one task per case, policy and seed, in the order the results are
read."""

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
