"""The claims picture: rows in order, the band where its edges are known, the estimate, its
interval and replicates, the verdict, the input and the readings that change it."""

import math

import matplotlib
import pytest

matplotlib.use("agg")

from storrepro.suite import claims_picture as cp  # noqa: E402
from storrepro.suite.paths import repo_root  # noqa: E402
from storrepro.suite.scorecard import load_results  # noqa: E402


def claim(id, verdict="reproduced", role="test", band=(0.9, 1.1), samples=(1.0, 1.02, 0.98),
          by_reading=None, unit="×"):
    mean = sum(samples) / len(samples) if samples else None
    entry = {
        "id": id, "statement": f"claim {id} says something long enough to be cut short here",
        "role": role, "verdict": verdict, "band": "approx: 'close to'",
        "uncertainty": {"n": len(samples), "mean": mean,
                        "ci95": [mean - 0.05, mean + 0.05], "of": "a ratio",
                        "samples": list(samples)} if samples else None,
        "no_uncertainty": "" if samples else "a deterministic check",
        "by_reading": by_reading or {}, "decided_by": sorted({k.split("=")[0] for k, v in
                                                              (by_reading or {}).items()
                                                              if v["verdict"] != verdict}),
    }
    if band is not None:
        entry["band_range"] = {"low": band[0], "high": band[1], "unit": unit}
    return entry


def result(claims, core, input="synthetic stand-in"):
    return {"notebook": "99_toy", "paper": "A toy paper", "input": input, "git_commit": "abc",
            "profile": "full", "seed": 0,
            "headline": {"core": core, "verdict": "partly"}, "claims": claims}


def toy():
    return result(
        [
            claim("T1"),
            claim("T2", "not reproduced", band=(1.15, math.inf), unit="ratio"),
            claim("C1", role="calibration"),
            claim("T3-real", "inconclusive", band=(0.9, 1.1), samples=(1.0, 1.2, 1.05),
                  by_reading={"r=b": {"verdict": "reproduced", "reproduced_value": "1"},
                              "r=c": {"verdict": "inconclusive", "reproduced_value": "1"}}),
            claim("T4", band=None),
            claim("T5", band=None, samples=()),
        ],
        core=["T3-real", "T1"],
    )


def test_rows_put_the_core_claims_first_and_leave_other_roles_out():
    assert [c["id"] for c in cp.rows(toy())] == ["T3-real", "T1", "T2", "T4", "T5"]
    # a notebook with no test claim (the simulator checks) draws its core invariants
    checks = result([claim("V1", role="invariant"), claim("V2", role="invariant")], ["V1"])
    assert [c["id"] for c in cp.rows(checks)] == ["V1"]


def test_the_input_and_the_readings_that_change_a_verdict():
    r = toy()
    by_id = {c["id"]: c for c in r["claims"]}
    assert cp.input_of(by_id["T3-real"], r) == "real data"
    assert cp.input_of(by_id["T1"], r) == "stand-in"
    assert cp.input_of(by_id["T1"], {**r, "input": "the user's trace t.csv"}) == \
        "the user's trace t.csv"
    assert cp.reading_marks(by_id["T3-real"]) == ["r=b: reproduced"]  # r=c changes nothing
    assert cp.reading_marks(by_id["T1"]) == []


def test_a_row_spans_its_band_estimate_interval_and_replicates():
    by_id = {c["id"]: c for c in toy()["claims"]}
    lo, hi = cp.limits(by_id["T1"])
    assert lo < 0.9 and hi > 1.1  # the band's both edges are on the row
    lo, hi = cp.limits(by_id["T2"])
    assert lo < 0.95 and 1.15 < hi < math.inf  # an open band: its finite edge, the data
    lo, hi = cp.limits(by_id["T3-real"])
    assert hi > 1.2  # the highest replicate
    assert cp.band_edges(by_id["T4"]) is None  # the band in words only: not drawn
    assert cp.limits(by_id["T5"]) is None  # nothing numeric: the row says why
    nan = {**by_id["T1"], "uncertainty": {"n": 2, "mean": math.inf, "ci95": [math.nan, 1],
                                          "of": "x", "samples": [math.inf, 1.0]}}
    assert cp.estimate(nan) == (None, None, [1.0])


def test_the_picture_is_drawn_with_a_row_per_claim(tmp_path):
    path = cp.save(toy(), tmp_path)
    assert path == tmp_path / cp.relative_path("99_toy")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fig = cp.draw(toy())
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert any(t.startswith("★ T3-real") for t in texts)
    assert "inconclusive · real data\n↺ r=b: reproduced" in texts
    assert sum(t == "band in words" for t in texts) == 1  # T4; T5 has no number at all
    assert any(t.startswith("no number to draw: a deterministic check") for t in texts)
    assert len(fig.axes) == 5
    with pytest.raises(ValueError, match="no test or core claim"):
        cp.draw(result([claim("C1", role="calibration")], []))


def test_every_committed_result_has_a_picture():
    for r in load_results(repo_root()):
        fig = cp.draw(r)
        assert len(fig.axes) == len(cp.rows(r))
        matplotlib.pyplot.close(fig)


def test_the_replicates_spread_the_same_on_every_run(tmp_path):
    import numpy as np

    x, y = cp.strip([1.0, 1.02, 0.98])
    assert x.tolist() == [1.0, 1.02, 0.98] and np.all(np.abs(y) <= 0.22) and y.std() > 0
    assert cp.strip([2.0])[1].tolist() == [0.0]  # a single point sits on the row's line
    np.random.seed(1)  # the global random state another library may leave behind
    first = cp.save(toy(), tmp_path / "a").read_bytes()
    np.random.seed(2)
    assert cp.save(toy(), tmp_path / "b").read_bytes() == first
