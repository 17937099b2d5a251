"""The measurements behind notebook 02's consistency records: hand-made tables, and one short
replica replayed under two readings."""

import numpy as np
import pandas as pd

from storrepro.papers.accgecko import claims
from storrepro.papers.accgecko.experiment import LITERAL, consistency, reading_choices
from storrepro.papers.accgecko.kernel import dispatch_overhead_us
from storrepro.papers.accgecko.workload import table1_trace
from storrepro.suite.consistency import check


def errors_frame(negative=(0.0, 1.0, 3.0, 50.0)) -> pd.DataFrame:
    return pd.DataFrame({"reading": "primary", "trace": "T1", "method": "DB+25µs",
                         "p": [99.0, 99.0, 99.9, 99.9], "slo_us": [150.0, 300.0] * 2,
                         "negative_%": negative})  # fmt: skip


def test_under_predicted_counts_pairs_beyond_the_tolerance():
    assert consistency.under_predicted(errors_frame(), "primary", "DB+25µs").tolist() == [
        0.0, 0.0, 100.0, 100.0]
    assert consistency.under_predicted(errors_frame(), "primary", "DB+25µs", (99.0,)).sum() == 0


def allocations(predicted, actual) -> pd.DataFrame:
    """One p99 allocation per tenant for DB+25µs and AccGecko, with these predictions and
    replayed percentiles."""
    return pd.DataFrame([{"tenant": i, "p": 99.0, "slo_us": 300.0, "reading": "primary",
                          "method": m, "rate": 4000.0, "predicted_us": pr, "actual_us": a}
                         for i, (pr, a) in enumerate(zip(predicted, actual, strict=True))
                         for m in ("DB+25µs", "AccTail")])  # fmt: skip


def test_pool_negative_and_positive_residual():
    table = allocations([300.0, 300.0, 300.0], [250.0, 305.0, 310.0])
    assert consistency.pool_negative(table, "primary").tolist() == [0.0, 0.0, 100.0]
    assert consistency.positive_residual(table, "primary").tolist() == [100.0, 0.0, 0.0]


def test_alternatives_name_the_primary_and_each_other_value():
    assert consistency.alternatives("trn") == {"segment": "trn=segment", "burst": "primary"}
    assert consistency.alternatives("epsilon") == {"fixed": "epsilon=fixed", "rate": "primary"}
    checked = consistency.checked_choices(claims.CHECKED_READINGS)
    assert set(checked) == {"primary", "trn=segment", "epsilon=fixed", "line9=mean_of_rates",
                            LITERAL}


def test_a_reading_under_which_every_pair_under_predicts_is_ruled_out():
    record = check(claims.REPORTED["replicas"], {"burst": [0.0] * 20 + [100.0],
                                                 "segment": [100.0] * 21})
    assert record["alternatives"]["burst"]["verdict"] == "possible"
    assert record["alternatives"]["segment"]["verdict"] == "ruled out"


def test_replica_errors_under_the_literal_reading_under_predict_more():
    rng = np.random.default_rng(5)
    arrivals = table1_trace(15, rng)
    replicas = {"T1": (arrivals, dispatch_overhead_us(rng, arrivals.size))}
    choices = reading_choices()
    out = consistency.replica_errors(replicas, {x: choices[x] for x in ("primary", LITERAL)})
    assert len(out) == 2 * len(consistency.REPLICA_METHODS) * 2 * len(consistency.REPLICA_SLOS)
    assert (out["negative_%"] >= 0).all()
    shares = {x: consistency.under_predicted(out, x, "DB+25µs").mean() for x in ("primary",
                                                                               LITERAL)}
    assert shares[LITERAL] > shares["primary"]
    summary = consistency.replica_summary(out)
    assert summary.loc[(LITERAL, "DB+25µs"), "pairs"] == 2 * len(consistency.REPLICA_SLOS)
