"""The motivation study (:mod:`storrepro.papers.accgecko.experiment.motivation`), each on a small
input where the answer is known."""

import numpy as np
import pandas as pd

from storrepro.papers.accgecko import experiment
from storrepro.papers.accgecko.experiment import motivation
from storrepro.papers.accgecko.workload import G1


def test_calibration_inputs_add_the_replicas_to_g1():
    segs = pd.DataFrame({"generator": ["G1", "G2", "G1"], "total_burst_ms": [1.0, 2.0, 3.0]})
    replicas = pd.DataFrame({"total_burst_ms": [4.0]}, index=["T1"])
    out = motivation.calibration_inputs(segs, replicas, 60.0)
    assert out["G1"].total_burst_ms.tolist() == [1.0, 3.0, 4.0]
    assert out["G1"].segment_ms.tolist() == [60e3, 60e3, 300e3]
    assert out["G2"].segment_ms.tolist() == [60e3]
    g1_only = segs[segs.generator == "G1"]
    assert list(motivation.calibration_inputs(g1_only, replicas, 60.0)) == ["G1"]


def test_snc_folds_divide_bound_by_actual():
    curves = {"T1": {"bound": np.array([4.0, 9.0]), "actual": np.array([2.0, 3.0])}}
    assert motivation.snc_folds(curves).tolist() == [2.0, 3.0]


def test_count_distribution_study_is_a_distribution():
    study = motivation.count_distribution_study(
        G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 10.0, np.random.default_rng(0)
    )
    assert study["values"][0] == 1 and study["values"].size == study["actual_pmf"].size
    assert study["actual_pmf"].sum() <= 1.0 and (study["model_pmf"] >= 0).all()
    assert (study["folds"] >= 1).all()


def test_spearman_table_keeps_every_resample():
    segs = pd.DataFrame({f: np.arange(12.0) * (i + 1) for i, f in enumerate(experiment.FEATURES)}
                        | {f"p{p:g}": np.arange(12.0) ** 2 for p in experiment.PERCENTILES})
    rho = motivation.spearman_table(segs, np.random.default_rng(0), 50)
    boot = rho.attrs["boot"]
    assert len(boot) == len(experiment.FEATURES) * len(experiment.PERCENTILES)
    assert boot[99.9, "max_duration_ms"].shape == (50,)
    assert np.allclose(boot[99.9, "max_duration_ms"], 1.0)  # monotone: ρ = 1 in every resample
