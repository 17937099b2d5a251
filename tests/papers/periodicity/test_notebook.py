"""The notebook's analyses (``experiment``) on hand-made results, and every figure of ``plots``
drawn from them."""

import pickle

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from storrepro.papers.periodicity import experiment as ex
from storrepro.papers.periodicity import plots
from storrepro.papers.periodicity.precise_period import PrecisePeriod, preprocess


def results_frame() -> pd.DataFrame:
    """Two CRAN series (truths 12 and 52.18) and two synthetic ones (50, 100): every method
    right on the first of each, PrecisePeriod abstains on the second; every other column (θ
    sweep, readings, variants) as PrecisePeriod."""
    rows = []
    for dataset, truths in [("cran", (12.0, 52.18)), ("synthetic", (50.0, 100.0))]:
        for k, truth in enumerate(truths):
            row = {"dataset": dataset, "truth": truth, "key": f"{dataset}::{k}"}
            for m in ex.BASELINES:
                row[m] = int(round(truth)) if k == 0 else 7
            pp = int(truth) if k == 0 else None
            for column in ex.READING_COLUMNS:
                row[column] = pp
                for v in ("denoised", "forecast_denoised"):
                    row[f"{column} @{v}"] = pp
            row[ex.SPIKES_REMOVED] = pp
            for name in ex.VARIANTS:
                row[name] = pp
            rows.append(row)
    return pd.DataFrame(rows)


@pytest.fixture
def results():
    return results_frame()


@pytest.fixture
def scored(results):
    return ex.score_table(results, ex.METHODS + ex.ABLATIONS[1:])


def test_abstentions_and_best_baseline(scored):
    table = ex.abstentions(scored)
    assert table.loc["PrecisePeriod"].tolist() == [1, 1]
    assert table.loc["findFrequency"].tolist() == [0, 0]
    best = ex.best_baseline(scored)
    assert best.loc[("cran", 0.0), "accuracy"] == 0.5  # one exact hit of two
    assert best.loc[("synthetic", 0.02), "f1"] == 0.5


def test_reading_scores_lists_every_reading_and_the_spike_variant(results):
    scored_by = {v: ex.score_table(ex.reading_view(results, v), ["PrecisePeriod"])
                 for v in ("preprocessed", "denoised", "forecast_denoised")}
    table = ex.reading_scores(scored_by, results, "preprocessed")
    assert table.index.tolist() == [
        "preprocessed (primary)", "denoised", "forecast_denoised",
        "preprocessed, isolated spikes removed (sensitivity only)",
    ]
    # PrecisePeriod: right on one of two, abstains on the other: accuracy 0.5, F1 2/3
    assert (table["accuracy"] == 0.5).all().all()
    assert np.allclose(table["F1"], 2 / 3)


def test_theta_macro_rounded_and_sensitivity_tables(results):
    theta = ex.theta_table(results)
    assert len(theta) == len(ex.THETAS) * 2 and set(theta.accuracy) == {0.5}
    macro = ex.macro_table(results)
    assert macro.shape == (len(ex.METHODS), 6)
    rounded = ex.rounded_truth_accuracy(results)
    assert rounded.loc["truth as is", "findFrequency"] == 0.5  # 52 is no exact hit of 52.18
    assert rounded.loc["truth rounded", "findFrequency"] == 0.5  # 7 is not 52 either
    sens = ex.sensitivity_table(results)
    assert sens.index.tolist() == ["PrecisePeriod", *ex.VARIANTS]


def test_generator_table_pairs_variants_with_the_papers_generator(results):
    generator = results[results.dataset == "synthetic"].assign(
        dataset=ex.GENERATOR_PREFIX + "sawtooth")
    table = ex.generator_table(results, generator, 2)
    assert table.index[0] == "sine, as in the paper" and "sawtooth" in table.index
    assert table.loc["sawtooth", ("accuracy", "PrecisePeriod")] == 0.5
    assert table.loc["square wave"].isna().all()  # a variant that did not run


def test_split_sweep_separates_the_arrival_fit_series_and_generator_rows(results):
    from storrepro.papers.periodicity.config import PrecisePeriodConfig

    gen = results.head(1).assign(dataset=ex.GENERATOR_PREFIX + "sawtooth")
    series = [results.to_dict("records"), gen.to_dict("records")]
    fit = {"arrival_seconds": 30}
    cfg = PrecisePeriodConfig(profile="quick")
    got, rows, generator_rows = ex.split_sweep([fit, *series], cfg)
    assert got == fit and len(rows) == 4 and len(generator_rows) == 1
    unscaled = PrecisePeriodConfig(profile="quick", sched_target_tail_ms=0.0)
    got, rows, _ = ex.split_sweep(series, unscaled)  # no fit ran
    assert got is None and len(rows) == 4


def test_replicate_bundles_name_each_regime_and_arrival_reading():
    from storrepro.papers.periodicity.config import PrecisePeriodConfig

    skewed, smooth, scaled, flat = ({"replicate": 0, "calibration": {"volume_sigma": 1.3}},
                                    {"replicate": 0, "arrival_seconds": 60},
                                    {"replicate": 0, "calibration": {"scale": 2.0}},
                                    {"replicate": 0})
    cfg = PrecisePeriodConfig(profile="quick")
    assert ex.replicate_bundle([([skewed, smooth], [scaled, flat])], cfg) == {
        "sched": skewed, "smooth": smooth,
        "regimes": {"worst_ssd_10ms": scaled, "paper_mean_traffic": flat}}
    unfitted = PrecisePeriodConfig(profile="quick", sched_target_mean_tail_ms=0.0)
    bundle = ex.replicate_bundle([(skewed, [scaled, flat])], unfitted)
    assert bundle["sched"] == bundle["smooth"] == skewed
    plain = PrecisePeriodConfig(profile="quick", sched_target_tail_ms=0.0)
    assert ex.replicate_bundle([skewed], plain)["regimes"]["worst_ssd_10ms"] == skewed
    # a trace is scaled, not skewed (no volumes): only the unscaled alternative runs
    trace = type("Cfg", (), {"sched_target_tail_ms": 10.0, "sched_target_mean_tail_ms": 1.0,
                             "trace": "some.csv"})()
    bundle = ex.replicate_bundle([scaled, flat], trace)
    assert bundle["smooth"] == scaled and bundle["regimes"]["paper_mean_traffic"] == flat


def test_synthetic_blocks_deal_the_series_round_robin_beside_all_of_cran(results):
    frame = pd.concat([results[results.dataset == "cran"]]
                      + [results[results.dataset == "synthetic"]] * 3, ignore_index=True)
    n_syn = int((frame.dataset == "synthetic").sum())
    blocks = ex.synthetic_blocks(frame, 2)
    assert len(blocks) == 2 and ex.synthetic_blocks(frame, 1) == []
    for b in blocks:
        assert (b.dataset == "cran").sum() == (frame.dataset == "cran").sum()
    sizes = [int((b.dataset == "synthetic").sum()) for b in blocks]
    assert sum(sizes) == n_syn and abs(sizes[0] - sizes[1]) <= 1
    first = frame.index[frame.dataset == "synthetic"][::2]  # series 0, 2, 4, ...
    assert list(blocks[0].index[blocks[0].dataset == "synthetic"]) == list(first)


def test_a1_a2_and_the_switch_series():
    exact, wrong, exact_eq5 = ex.a1_sines()
    assert exact == 1.0 and wrong == 0 and 0 < exact_eq5 < 1
    assert ex.a2_examples() == ex.A2_EXPECTED
    x = ex.switch_series(np.random.default_rng(0))
    assert x.size == 3000 and abs(x[: ex.SWITCH_AT].mean()) < 0.05


def test_verification_walkthrough_and_theta_demo():
    x = np.sin(2 * np.pi * np.arange(400) / 20)
    trace = list(PrecisePeriod().windows(x, stop_at_first=False))
    walk = ex.verified_forecast(preprocess(x)[0], trace, 0.7, x.size)
    assert walk["period"] == 20 and walk["forecast"].size == x.size - walk["length"]
    assert np.allclose(walk["forecast"], x[walk["length"]:])  # a pure sine repeats exactly
    assert ex.trace_table(trace).L.tolist() == [w.length for w in trace]

    class Series:
        values, period = x, 20

    demo = ex.theta_demo([Series], [trace], 0.7)
    assert demo.iloc[0].to_dict() == {"true T": 20, "found": 20, "correct": True,
                                      "verified at L": walk["length"]}


def scheduling_result() -> dict:
    tail, mean = np.array([1e-3, 2e-3]), np.array([1e-4, 2e-4])
    rows = [{"interval": 0, "method": "hash", "kind": "none", "value": 0.0,
             "tail_latency": 2 * tail, "mean_latency": mean},
            {"interval": 0, "method": "PreciseScheduling", "kind": "overhead", "value": 0.01,
             "tail_latency": tail, "mean_latency": mean},
            {"interval": 0, "method": "PreciseScheduling", "kind": "moves", "value": 1.0}]
    return {"rows": rows}


def test_per_ssd_latency_and_tail_flow_means():
    got = ex.per_ssd_latency(scheduling_result(), {"before": ("hash", 0.0),
                                                   "after": ("PreciseScheduling", 0.01)})
    assert np.allclose(got["before"][0], [2.0, 4.0]) and np.allclose(got["after"][1], [0.1, 0.2])
    flows = pd.DataFrame({"method": ["a", "a", "b"], "kind": ["moves", "moves", "overhead"],
                          "value": [1, 1, 0.01], "decline_p99": [10.0, 20.0, 5.0],
                          "decline_p999": [1.0, 3.0, 0.0]})
    means = ex.tail_flow_means(flows)
    assert means.loc[("a", 1)].tolist() == [15.0, 2.0] and len(means) == 1


def test_every_plot_draws_a_figure(results, scored):
    x = np.sin(2 * np.pi * np.arange(400) / 20)
    clean, found = preprocess(x)
    trace = list(PrecisePeriod().windows(x, stop_at_first=False))
    walk = ex.verified_forecast(clean, trace, 0.7, x.size)
    example = [(np.ones(36), np.ones(36)), (np.zeros(36), np.ones(36))]
    mean = pd.DataFrame({"method": [*ex.scheduling.METHODS, *ex.scheduling.ACTUALS], "value": 1,
                         "decline_p99": 1.0, "decline_p999": 2.0}).set_index(["method", "value"])
    figures = [
        plots.latency_knee(np.array([1e3, 5e3]), np.array([1e-4, 2e-4])),
        plots.preprocessing(x, clean, found),
        plots.dwt_and_acf(clean[:300], PrecisePeriod()),
        plots.verification(x, trace, 0.7, 20, walk),
        plots.grouped_bars(scored, ex.METHODS, ["cran", "synthetic"], "title"),
        plots.theta_sweep(ex.theta_table(results)),
        plots.switch_and_aggregates(x, [(100, 20)], 200, example, "surrogate"),
        plots.switch_and_aggregates(x, [(100, 20)], 200, [], "a trace without a period"),
        plots.tail_flow_decline(mean, "title"),
        plots.latency_panels({"a": (np.ones(3), np.ones(3))}, "title", "surrogate"),
    ]
    for fig in figures:
        assert fig.axes
        plt.close(fig)


def test_the_latency_figures_paper_marks():
    import matplotlib.pyplot as plt

    from storrepro.papers.periodicity import plots
    from storrepro.suite.plotting import paper_marks

    def panels():
        return plots.latency_panels({"a": (np.array([2.0, 12.0]), np.array([0.1, 0.2]))}, "t", "s")

    fig = plots.mark_hash_numbers(panels(), 10.0, 1.019, 0.127)
    assert paper_marks(fig) == 3 and fig.axes[0].get_yscale() == "log"  # tails span decades
    fig = plots.mark_worst_cut(panels(), 12.0, 50.0, 90.0)  # 12 ms cut by 50-90 %: 1.2-6 ms
    (band,) = [p for p in fig.axes[0].patches if p.get_gid()]
    assert paper_marks(fig) == 1
    assert np.allclose((band.get_y(), band.get_y() + band.get_height()), (1.2, 6.0))
    fig = plots.mark_similar(panels(), 2.0, 0.5, 1.5, "words")
    assert paper_marks(fig) == 1
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["paper: words"]
    plt.close("all")


def test_the_load_regimes_tasks_and_their_workloads():
    from storrepro.papers.periodicity.config import PrecisePeriodConfig

    cfg = PrecisePeriodConfig(profile="quick", sched_replicates=2)
    first = ex.notebook_tasks(cfg)
    assert isinstance(first[0], ex.ArrivalFit) and first[0].mean_target_ms == 1.019
    assert not any(isinstance(t, ex.UnevenSSDs | ex.OneWorkload) for t in first)
    tasks = [t for i in range(2) for t in ex.replicate_tasks(cfg, i, 25)]
    assert all(isinstance(t, ex.OneWorkload) for t in tasks)  # one task per replicate
    both, pairs = [t.primary for t in tasks], [t.even for t in tasks]
    assert all(isinstance(t, ex.BothArrivals) for t in both)
    assert all(isinstance(t, ex.EvenLoads) for t in pairs)
    smooth = [t.twin for t in both]
    skewed = [t.uneven for t in smooth]
    assert all(isinstance(t, ex.UnevenSSDs) for t in skewed)
    scaled, flat = [p.task for p in pairs], [p.flat for p in pairs]
    for t, sm in zip(skewed, smooth, strict=True):  # every reading, the fitted seconds
        assert t.task.spec.ssds == cfg.sched_ssds and t.task.skew_target_ms == 10.0
        assert t.task.arrival_seconds == 25 and t.task.verifications == \
            ex.detector_readings(cfg)
        assert sm.uneven == t and sm.seed == cfg.seed  # the same workload's stream
    assert all(isinstance(t, ex.AtMeanTraffic) for t in flat)
    for s, f in zip(scaled, flat, strict=True):
        assert s.spec.ssds == cfg.sched_even_ssds and s.target_tail_ms == 10.0
        assert s.verifications == f.task.verifications == ("preprocessed",)
        assert f.task.target_tail_ms == 0.0 and f.seed == cfg.seed
    assert len({repr(t) for t in tasks}) == len(tasks)  # the sweep needs distinct tasks
    # the same SSD counts still give distinct tasks: the skewed one is wrapped
    same = PrecisePeriodConfig(profile="quick", sched_ssds=4, sched_even_ssds=4)
    tasks = ex.replicate_tasks(same, 0)
    assert len({repr(t) for t in tasks}) == len(tasks)
    unscaled = PrecisePeriodConfig(profile="quick", sched_target_tail_ms=0.0)
    assert not any(isinstance(t, ex.AtMeanTraffic | ex.UnevenSSDs | ex.OneWorkload | ex.ArrivalFit)
                   for t in ex.notebook_tasks(unscaled) + ex.replicate_tasks(unscaled, 0))


def test_both_arrivals_give_what_the_two_tasks_give_apart():
    """One workload for the primary replicate and its smooth twin: the same results as the two
    tasks run apart (both draw from the primary's stream under the sweep's seed)."""
    from storrepro.papers.periodicity.config import PrecisePeriodConfig
    from storrepro.suite.parallel import task_rng

    cfg = PrecisePeriodConfig(profile="quick", seed=3, sched_ssds=8, sched_segments=80)
    pair = ex.replicate_tasks(cfg, 1, 25)[0].primary
    both = ex.run_task(pair, np.random.default_rng(99))  # the wrapper's own stream is unused
    uneven = pair.twin.uneven
    apart = [ex.run_task(uneven, task_rng(cfg.seed, uneven)),
             ex.run_task(pair.twin, np.random.default_rng(99))]
    assert pickle.dumps(both) == pickle.dumps(apart)
    assert [r["arrival_seconds"] for r in both] == [25, 60]
    assert both[0]["calibration"]["volume_sigma"] != both[1]["calibration"]["volume_sigma"]


def test_one_workload_runs_the_load_regimes_on_the_primarys_segments():
    """One generation per replicate: the primary's runs are what its task gives alone, and the
    even-load regimes run on the same segments on the even-load surrogate's SSDs, continuing
    the primary's stream from where the generation left it."""
    import copy

    from storrepro.papers.periodicity.config import PrecisePeriodConfig
    from storrepro.papers.periodicity.workload import generate, on_ssds
    from storrepro.suite.parallel import task_rng

    cfg = PrecisePeriodConfig(profile="quick", seed=3, sched_ssds=8, sched_even_ssds=4,
                              sched_segments=80)
    task = ex.replicate_tasks(cfg, 1, 25)[0]
    primary, even = ex.run_task(task, np.random.default_rng(99))  # its own stream is unused
    assert pickle.dumps(primary) == pickle.dumps(ex.run_task(task.primary, None))
    rng = task_rng(cfg.seed, task.primary.twin.uneven)
    w = on_ssds(generate(rng, task.primary.twin.uneven.task.spec), cfg.sched_even_ssds)
    flat = ex.run_replicate(task.even.flat.task, copy.deepcopy(rng), w)
    apart = [ex.run_replicate(task.even.task, rng, w), flat]  # detected apart: scale-free
    assert pickle.dumps(even) == pickle.dumps(apart)
    assert even[0]["calibration"]["scale"] != 1.0 and even[1]["calibration"] is None
    assert flat["mean_bytes_per_s"] == pytest.approx(
        primary[0]["mean_bytes_per_s"] * cfg.sched_even_ssds / cfg.sched_ssds, rel=0.05)
    with pytest.raises(ValueError, match=r"EvenLoads: the workload's spec .* is not the task's"):
        ex.run_even_loads(task.even, rng, generate(rng, task.primary.twin.uneven.task.spec))
