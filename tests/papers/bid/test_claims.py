"""Notebook 04's claims table on hand-made per-seed tables: the seed-interval machinery worked by
hand, each claim's rule reproduced on one input, not reproduced on another and inconclusive
where an interval straddles its band; plus the summary helpers and the sensitivity sweep."""

import numpy as np
import pandas as pd
import pytest

from bid_samples import judge_claims
from storrepro.papers.bid import claims
from storrepro.papers.bid.config import MODERN_CONFIG, BIDConfig
from storrepro.papers.bid.experiment import (
    SENSITIVITY,
    SensitivityCell,
    mean_ci,
    run_sensitivity_cell,
)
from storrepro.papers.bid.metrics import means, per_seed
from storrepro.papers.bid.workload import WORKLOADS
from storrepro.suite.run import Run
from storrepro.suite.table import judge_row


def judge(claim_id: str, **inputs):
    """Claim ``claim_id`` of the table judged on ``inputs`` (C11's share: all bytes unless
    given), as the core judges it."""
    return judge_row(claims.ROWS[claim_id], claims, {"share": "all_bytes", **inputs}, {})

# Grep, RandomTextWriter, Sort, TeraSort, WordCount, WordStdev
SPREAD = (-1.0, 0.0, 1.0)  # three seeds: mean 0, sd 1; 95 % half-width 4.3027 / sqrt(3) = 2.484


def seeds(spread=SPREAD, **columns):
    """Per-seed table (one row per workload and seed, indexed by workload): each keyword is a
    scheduler with one value per workload, plus ``spread`` (per seed) times ``scale``."""
    rows = {k: [v + d for v in values for d in spread] for k, values in columns.items()}
    index = [w for w in WORKLOADS for _ in spread]
    return pd.DataFrame(rows, index=index)


def fixed(**columns):
    """Per-seed table with three identical seeds (no spread: intervals of zero width)."""
    return seeds((0.0, 0.0, 0.0), **columns)


BASE = dict(noop=[100] * 6, **{"cfq-q8": [90] * 6, "cfq-q2": [110] * 6})
def bound(seconds: float) -> pd.Series:
    """A bound of every trace (one per workload and seed, as the per-seed tables' rows)."""
    return pd.Series(seconds, index=[w for w in WORKLOADS for _ in SPREAD])


ORACLE = bound(40.0)  # room for any gain


# -- the acceptance check's 'under either quantum' --------------------------------------------
def test_either_quantum_takes_the_better_of_each_pair():
    verdict, q, possible = claims.either_q({"cfq-q8": {"not reproduced"},
                                            "cfq-q2": {"partly", "reproduced"}})
    assert (verdict, q, possible) == ("inconclusive", "cfq-q2", ["partly", "reproduced"])
    verdict, q, _ = claims.either_q({"cfq-q8": {"partly"}, "cfq-q2": {"partly"}})
    assert (verdict, q) == ("partly", "cfq-q8")  # a tie shows q = 8


# -- the test claims --------------------------------------------------------------------------
def test_c1_reproduced_partly_inconclusive_and_not():
    good = fixed(**BASE, **{"bid-hdd": [60, 60, 60, 60, 80, 85]})  # 33 % on 4/6, > 0 on 6/6
    c = judge("C1", times=good, oracle=ORACLE)
    assert c.verdict == "reproduced" and c.role == "test" and c.values["q"] == "cfq-q8"
    assert c.band.startswith("number:") and c.uncertainty["n"] == 3
    # 2 % below best(q=8) = 90, 11–12 % below best(q=2, noop) = 100: weak under q = 2 only
    weak = fixed(**BASE, **{"bid-hdd": [88, 88, 88, 88, 89, 89]})
    c = judge("C1", times=weak, oracle=ORACLE)
    assert c.verdict == "partly" and c.values["q"] == "cfq-q2"
    bad = fixed(**BASE, **{"bid-hdd": [60, 60, 60, 60, 60, 101]})  # worse than both bests
    c = judge("C1", times=bad, oracle=ORACLE)
    assert c.verdict == "not reproduced" and "slower than that baseline on WordStdev" in c.reason


def test_c1_weak_on_a_knife_edge_is_inconclusive():
    # issue 28: WordStdev at 10.17 % with seeds 9.24–11.80 % against 'weak: >= 10 % on >= 4/6'
    noop = [100.0] * 6
    bid = [90.0, 84.0, 84.0, 95.0, 88.0, 89.83]  # 10 %, 16 %, 16 %, 5 %, 12 %, 10.17 %
    t = seeds((-1.3, 0.0, 1.3), noop=noop, **{"cfq-q8": [200.0] * 6, "cfq-q2": [200.0] * 6},
              **{"bid-hdd": bid})
    t["noop"] = 100.0  # the seeds move BID only
    c = judge("C1", times=t, oracle=ORACLE)
    assert c.verdict == "inconclusive"
    assert c.values["possible verdicts"] == ["not reproduced", "partly"]
    assert "WordStdev" in c.uncertainty["of"] or "Grep" in c.uncertainty["of"]
    lo, hi = c.uncertainty["ci95"]
    assert lo < claims.ROWS["C1"].bands()["weak"].low < hi


def test_c1_reason_cites_the_oracle_bound():
    t = fixed(**BASE, **{"bid-hdd": [92] * 6})  # slower than CFQ q=8, 8 % below Noop
    tight = bound(80.0)  # no order saves more than 11 % (q=8)
    c = judge("C1", times=t, oracle=tight)
    assert c.verdict == "not reproduced"
    assert "No schedule could reach the paper's 28–52 %: the lower bound on every" in c.reason
    assert "fixed 6.2 ms per request" in c.reason
    assert c.values["oracle reduction %"]["Grep"] == pytest.approx(11.1)
    # the oracle could save 56 %: not the disk model's fault
    c = judge("C1", times=t, oracle=ORACLE)
    assert "the paper's 28 % is within reach only on Grep," in c.reason


def test_c5_reason_cites_the_tiered_bound():
    t = fixed(**BASE, **{"bid-hybrid": [85] * 6})  # 5.6 % below best(CFQ q=8, Noop)
    c = judge("C5", times=t, tiered=bound(80.0))
    assert c.verdict == "partly"
    assert "No schedule could reach the paper's 33–54 %: the tiered lower bound" in c.reason
    assert claims.STAND_IN_KNOBS in c.reason  # magnitude and rank are the stand-in's


def test_c1_passes_under_either_quantum_and_says_which():
    t = fixed(noop=[100] * 6, **{"cfq-q8": [50] * 6, "cfq-q2": [100] * 6, "bid-hdd": [70] * 6})
    c = judge("C1", times=t, oracle=ORACLE)  # 30 % better than best(q=2, noop), worse than q=8
    assert c.verdict == "reproduced" and c.values["q"] == "cfq-q2" and "q=2" in c.reproduced_value


def test_c2_sequential_gain_most():
    # Grep (1st) and WordStdev (6th) gain most, at half of CFQ's time
    good = fixed(**BASE, **{"bid-hdd": [45, 80, 80, 80, 80, 44]})
    assert judge("C2", times=good, oracle=ORACLE).verdict == "reproduced"
    ranked = fixed(**BASE, **{"bid-hdd": [80, 80, 80, 80, 80, 79]})  # top ranks, ratio 0.9
    c = judge("C2", times=ranked, oracle=bound(75.0))
    assert c.verdict == "partly" and "out of reach for any schedule" in c.reason
    bad = fixed(**BASE, **{"bid-hdd": [85, 60, 60, 60, 60, 85]})  # the sequential ones gain least
    assert judge("C2", times=bad, oracle=ORACLE).verdict == "not reproduced"
    # Grep's interval overlaps three others': its rank (1–4) cannot be told
    blurred = fixed(**BASE, **{"bid-hdd": [80, 81, 81, 81, 90, 70]})
    blurred["bid-hdd"] += np.tile([-2.0, 0.0, 2.0], 6)  # only BID's time varies by seed
    assert judge("C2", times=blurred, oracle=ORACLE).verdict == "inconclusive"


def test_c3_is_a_calibration_with_its_band():
    t = fixed(noop=[88] * 6, **{"cfq-q8": [100] * 6, "cfq-q2": [100] * 6})
    c = judge("C3", times=t)
    assert c.verdict == "reproduced" and c.role == "calibration" and "tuned" in c.reason
    assert "as the primary reading of device_queue has them" in c.reason
    t = fixed(noop=[100] * 6, **{"cfq-q8": [100] * 6, "cfq-q2": [100] * 6})
    assert judge("C3", times=t).verdict == "not reproduced"


def test_c3_says_when_the_primary_is_not_the_calibrated_setting(monkeypatch):
    monkeypatch.setattr(claims, "default_option", lambda name, bid=True: 32)
    t = fixed(noop=[88] * 6, **{"cfq-q8": [100] * 6, "cfq-q2": [100] * 6})
    assert "this is not the calibrated setting" in judge("C3", times=t).reason


def test_c4_bands_and_wordcount_rank():
    t = fixed(**{"bid-hdd": [100] * 6, "bid-hybrid": [90, 90, 90, 90, 80, 90]})
    assert judge("C4", times=t).verdict == "reproduced"  # WordCount (5th) largest
    t = fixed(**{"bid-hdd": [100] * 6, "bid-hybrid": [80, 85, 90, 90, 82, 90]})
    assert judge("C4", times=t).verdict == "partly"  # WordCount 2nd
    t = fixed(**{"bid-hdd": [100] * 6, "bid-hybrid": [101, 90, 90, 90, 80, 90]})
    c = judge("C4", times=t)
    assert c.verdict == "not reproduced" and "slower than BID-HDD on Grep" in c.reason
    assert "(register: interrupter_share, reread)" in c.reason


def test_c5_hybrid_vs_best_and_its_knife_edge():
    good = fixed(**BASE, **{"bid-hybrid": [60, 60, 60, 60, 85, 85]})  # 33 % on 4/6
    assert judge("C5", times=good, tiered=ORACLE).verdict == "reproduced"
    small = fixed(**BASE, **{"bid-hybrid": [85] * 6})  # faster everywhere, out of the band
    assert judge("C5", times=small, tiered=ORACLE).verdict == "partly"
    bad = fixed(**BASE, **{"bid-hybrid": [105] * 6})  # slower than both bests
    assert judge("C5", times=bad, tiered=ORACLE).verdict == "not reproduced"
    # issue 28: the 4th workload at 22.96 % against 23 %, its seeds on both sides: inconclusive
    edge = seeds((-1.0, 0.0, 1.0), **{"noop": [100.0] * 6, "cfq-q8": [200.0] * 6,
                                      "cfq-q2": [200.0] * 6,
                                      "bid-hybrid": [60, 60, 60, 77.04, 85, 85]})
    edge["noop"] = 100.0
    c = judge("C5", times=edge, tiered=ORACLE)
    assert c.verdict == "inconclusive" and "TeraSort" in c.uncertainty["of"]
    assert c.uncertainty["mean"] == pytest.approx(0.2296)


N2 = dict(noop=[100] * 6, **{"cfq-q8": [100] * 6, "cfq-q2": [100] * 6, "bid-hdd": [50] * 6})


def test_c6_in_its_four_parts():
    n2 = fixed(**N2, **{"bid-hybrid": [45, 45, 45, 25, 45, 45]})  # TeraSort: 50 % cut, largest
    for id in ("C6a", "C6b", "C6c", "C6d"):
        c = judge(id, n2=n2)
        assert c.verdict == "reproduced" and c.role == "test" and c.band, c.id
    # TeraSort's cut 48 % is the smallest: C6c fails, C6d holds (the acceptance check's 30–70 %)
    n2 = fixed(**N2, **{"bid-hybrid": [10, 10, 10, 26, 10, 10]})
    c = judge("C6c", n2=n2)
    assert c.verdict == "not reproduced" and c.values["TeraSort rank"] == 6
    d = judge("C6d", n2=n2)
    assert d.verdict == "reproduced"
    n2.loc["TeraSort", "bid-hybrid"] = 40  # a 20 % cut: below the accepted 30–70 %
    assert judge("C6d", n2=n2).verdict == "not reproduced"
    n2 = fixed(**{**N2, "bid-hdd": [150] * 6}, **{"bid-hybrid": [160] + [45] * 5})
    c = judge("C6a", n2=n2)
    assert c.verdict == "not reproduced" and "Not certainly fewer on Grep" in c.reason
    assert judge("C6b", n2=n2).verdict == "not reproduced"  # Grep: 160 > 150


def test_c7_seek_distance():
    ad = fixed(noop=[20] * 6, **{"cfq-q8": [10] * 6, "cfq-q2": [12] * 6, "bid-hdd": [30] * 6,
                                 "bid-hybrid": [30] * 6})
    assert judge("C7", ad=ad, ad_std=ad * 2).verdict == "reproduced"
    assert judge("C7", ad=ad, ad_std=ad * 0.5).verdict == "partly"  # narrow spread
    ad["cfq-q8"], ad["cfq-q2"] = 40, 40
    assert judge("C7", ad=ad, ad_std=ad * 0.5).verdict == "not reproduced"


def test_c8_sweeps():
    td = fixed(**BASE, **{"bid-hdd": [50] * 6, "bid-hybrid": [40] * 6})
    assert judge("C8", td=td).verdict == "reproduced"
    td.loc["Sort", "bid-hybrid"] = 120
    c = judge("C8", td=td)
    assert c.verdict == "not reproduced" and "bid-hybrid on Sort" in c.reason


def test_c9_arm_trace():
    rate = fixed(**{"cfq-q8": [30] * 6, "cfq-q2": [40] * 6, "noop": [20] * 6,
                    "bid-hdd": [10] * 6, "bid-hybrid": [5] * 6})
    ok = judge("C9", short=fixed(noop=[300] * 6, **{"bid-hdd": [100] * 6}), moves_per_s=rate)
    assert ok.verdict == "reproduced"
    more = fixed(noop=[100] * 6, **{"bid-hdd": [300] * 6})
    c = judge("C9", short=more, moves_per_s=rate)
    assert c.verdict == "partly" and "more short moves than Noop" in c.reason
    rate["noop"] = 50.0
    assert judge("C9", short=more, moves_per_s=rate).verdict == "not reproduced"


def test_c10_latency():
    read = fixed(**BASE, **{"bid-hdd": [80] * 6})
    write = fixed(**BASE, **{"bid-hdd": [80, 80, 200, 200, 200, 200]})
    assert judge("C10", read=read, write=write).verdict == "reproduced"  # 8/12 and noop 6/12 (q=2)
    write["bid-hdd"] = 200
    read.loc[["Grep", "Sort"], "bid-hdd"] = 200
    c = judge("C10", read=read, write=write)
    assert c.verdict == "partly" and "Grep reads" in c.reason  # noop still 6/12 under q=2
    read["noop"], write["noop"] = 200, 200
    assert judge("C10", read=read, write=write).verdict == "not reproduced"


def hybrid_runs(all_share, written_share, small=0.9, pf=100.0):
    one = pd.DataFrame(
        {
            "workload": list(WORKLOADS),
            "write_byte_share": [0.003, 0.9, 0.4, 0.4, 0.3, 0.004],
            "ssd_byte_share": all_share,
            "ssd_write_share": written_share,
            "ssd_small_share": small,
            "max_ssd_pf": pf,
        }
    )
    return pd.concat([one.assign(replicate=r) for r in range(3)], ignore_index=True)


def test_c11_judges_the_share_of_all_bytes_and_lists_the_written_shares():
    runs = hybrid_runs([0.003, 0.02, 0.05, 0.06, 0.08, 0.004], [1.0, 0.03, 0.1, 0.155, 0.2, 1.0])
    c = judge("C11", hybrid=runs)
    assert c.verdict == "reproduced" and c.band.startswith("bound:")
    # each workload above 15 % of written bytes with its own share (not 'reaches 100 % on ...')
    assert "above 15 % on Grep 100.0 %, TeraSort 15.5 %, WordCount 20.0 %, WordStdev 100.0 %" \
        in c.reason
    assert "Grep, WordStdev writes are only" in c.reason
    # C11's former form (written bytes, not reproduced) is told once, in the register's reading
    assert "6a9a1ab" not in c.reason and "6a9a1ab" in BIDConfig.readings["offload_share"].argument
    assert c.values["share of written bytes %"]["Grep"] == 100.0
    written = judge("C11", hybrid=runs, share="written_bytes")
    assert written.verdict == "not reproduced" and "of written bytes" in written.reason
    assert judge("C11", hybrid=hybrid_runs(0.05, 0.05, small=0.3)).verdict == "partly"
    assert judge("C11", hybrid=hybrid_runs(0.4, 0.5)).verdict == "not reproduced"
    assert judge("C11", hybrid=hybrid_runs(0.05, 0.05, pf=300.0)).verdict == "not reproduced"
    with pytest.raises(ValueError, match="share 'read_bytes'"):
        judge("C11", hybrid=runs, share="read_bytes")


# -- analyses and invariants --------------------------------------------------------------------
def table(**columns):
    """workload x scheduler table of means; each keyword is a scheduler."""
    return pd.DataFrame({k: list(v) for k, v in columns.items()}, index=list(WORKLOADS))


def test_c12_is_an_analysis():
    b = table(noop=[3.0] * 6, **{"cfq-q8": [2.0] * 6, "bid-hdd": [1.0] * 6})
    c = judge("C12", mode_b=b, mode_a=b.copy())
    assert c.verdict == "reproduced" and c.role == "analysis"
    a = b.copy()
    a.loc[["Grep", "Sort"], "noop"] = 0.5
    c = judge("C12", mode_b=b, mode_a=a)
    assert c.verdict == "not reproduced" and c.values["same ranking"] == 4


def test_conservation_is_an_invariant():
    s = pd.DataFrame(
        {
            "workload": ["Grep", "Sort"],
            "scheduler": ["noop", "bid-hdd"],
            "sectors_served": [5, 7],
            "sectors_submitted": [5, 7],
            "leftover": [0, 0],
        }
    )
    c = judge("D9", summary=s)
    assert c.verdict == "reproduced" and c.role == "invariant"
    s.loc[1, "leftover"] = 1
    c = judge("D9", summary=s)
    assert c.verdict == "not reproduced" and "Sort" in c.reason


def test_e_sensitivity_is_an_analysis():
    sens = pd.DataFrame(
        {
            "config": ["a", "b", "c", "d", "e"],
            "C1 reduction vs best (q=8) %": [1, 1, 1, 1, -1],
            "C1 reduction vs best (q=2) %": [-1, -1, -1, -1, -1],
            "C4 Hybrid vs BID-HDD %": [5, 5, 5, 5, 5],
        }
    )
    c = judge("E", sens=sens)
    assert c.verdict == "reproduced" and c.role == "analysis"  # 80 % and 100 %
    modern = sens.iloc[:1].assign(config=MODERN_CONFIG, **{"C4 Hybrid vs BID-HDD %": -1})
    assert judge("E", sens=pd.concat([sens, modern] * 3)).verdict == "reproduced"
    sens.loc[3, "C1 reduction vs best (q=8) %"] = -1
    c = judge("E", sens=sens)
    assert c.verdict == "partly" and "C1's direction is lost most under" in c.reason


def test_d_invariants_on_the_toy_and_the_disk_models():
    from storrepro.papers.bid import toy
    from storrepro.sim import disk_checks

    table1 = toy.toy_table(toy.toy_orders())
    assert judge("D3", toy=table1).verdict == "reproduced"
    submission = " ".join(r[0] for r in toy.TABLE1)
    assert judge("D4", toy=table1, submission=submission).verdict == "reproduced"
    assert judge("D4", toy=table1, submission="A1 " + submission).verdict == "not reproduced"
    broken = table1.copy()
    broken.loc["CFQ (q=2)", "TMD"] = 203
    assert judge("D3", toy=broken).verdict == "not reproduced"
    hdd = disk_checks.hdd_reference_checks()
    assert judge("D1", hdd=hdd).verdict == "reproduced"
    hdd.loc[hdd.index[0], "abs_error_ms"] = 0.1
    assert judge("D1", hdd=hdd).verdict == "not reproduced"
    ssd = disk_checks.ssd_reference_checks()
    assert judge("D2", ssd=ssd).verdict == "reproduced"
    ssd.loc[ssd.index[0], "abs_error_ms"] = 0.1
    assert judge("D2", ssd=ssd).verdict == "not reproduced"


# -- recording ----------------------------------------------------------------------------------
def synthetic_summary():
    rows = []
    times = {"cfq-q8": 90, "cfq-q2": 110, "noop": 100, "bid-hdd": 88, "bid-hybrid": 60}
    for w in WORKLOADS:
        for r, d in enumerate(SPREAD):
            for s, time in times.items():
                for v in claims.VARIANTS:
                    rows.append({"workload": w, "scheduler": s, "replicate": r, "variant": v,
                                 "device_time_s": time + d})
    summary = pd.DataFrame(rows)
    for col in ("n2", "AD_seek", "TD_sweep", "read_mean_ms", "write_mean_ms", "modeA_time_s",
                "short_moves", "moves_per_s"):
        summary[col] = summary.device_time_s
    summary["AD_seek_std"] = 2 * summary.AD_seek
    summary["oracle_floor_s"], summary["oracle_tiered_s"] = 70.0, 50.0
    summary["oracle_sweep_s"] = 80.0
    # with the command queue in front of every scheduler, BID-HDD is 10 s slower
    modern = (summary.variant == "device_queue=all_clook32") & (summary.scheduler == "bid-hdd")
    summary.loc[modern, "device_time_s"] += 10
    summary["ssd_byte_share"], summary["ssd_write_share"] = 0.01, 0.2
    summary["ssd_small_share"], summary["max_ssd_pf"] = 0.9, 100.0
    summary["sectors_served"] = summary["sectors_submitted"] = 8
    summary["leftover"] = 0
    return summary


def test_the_table_records_every_claim_with_band_uncertainty_and_readings(tmp_path):
    summary = synthetic_summary()
    sens = pd.DataFrame({"config": ["a"], "C1 reduction vs best (q=8) %": [1.0],
                         "C1 reduction vs best (q=2) %": [1.0], "C4 Hybrid vs BID-HDD %": [5.0]})
    run = Run(BIDConfig(profile="quick"), out=tmp_path)
    judge_claims(run, summary, sens)
    tests = [c for c in run.claims.values() if c["role"] == "test"]
    assert tuple(c["id"] for c in tests) == claims.TEST_IDS
    assert all(c["band"] and c["uncertainty"]["n"] == 3 and c["inputs"] for c in tests)
    assert set(run.claims["C11"]["by_reading"]) == set(BIDConfig.reading_labels())
    assert run.claims["C11"]["by_reading"]["offload_share=written_bytes"]["verdict"] == \
        "not reproduced"
    assert run.claims["C1"]["not_affected_by"] == ["offload_share"]
    assert run.claims["C12"]["role"] == run.claims["E"]["role"] == "analysis"
    # C1 partly under q = 2 (12 %); the oracle saves 1 - 70/90 = 22 % against best(q=8, Noop)
    h = run._headline
    assert run.claims["C1"]["verdict"] == "partly" and h["verdict"] == "partly"
    assert h["core"] == list(claims.CORE)
    assert ("more than +22.2 … +22.2 % against best(CFQ q=8, Noop) and +30.0 … +30.0 %"
            in h["cause"])
    # with the queue for all: 98 against best 90 (q=8, Noop 100) is 8.9 % slower; with no
    # sorted queue for any, as the primary (2.2 %); the sweep 80 saves 11.1 %
    assert ("with a modern disk with its 32-deep command queue (NCQ) in front of every scheduler "
            "(device_queue=all_clook32), -8.9 … -8.9 %") in h["cause"]
    assert "(device_queue=all_depth1), +2.2 … +2.2 %" in h["cause"]
    assert "a clairvoyant sweep over the whole trace reaches +11.1 … +11.1 %" in h["cause"]
    assert h["summary"].startswith("Partly: in the paper's setup BID-HDD is 2.2 % faster on "
                                   "average")
    assert "(8.9 % slower with a modern disk's command queue)" in h["summary"]
    assert h["summary"].endswith("BID-Hybrid, moving small writes to an SSD, is 33–33 % faster.")
    assert "the paper's own setup" in h["statement"]
    assert ("Deciding readings: C1 is partly under the primary readings and "
            "device_queue=all_clook32: not reproduced") in h["cause"]
    readings, forced = run.register()
    assert "device_queue_bid_only" not in forced  # now the reading device_queue
    # the bands' entries are written from the table: the row's words, once
    assert "c1_band" not in forced and forced["C1 band"]["quote"] == claims.ROWS["C1"].words
    assert "≥ 0.1" in forced["C1 band"]["value"] and forced["C6c band"]["decides"] == ["C6c"]
    assert "deleted along with SQ_p" in readings["wait_history"]["paper_words"]


def test_deciding_readings_names_each_change(tmp_path):
    run = Run(BIDConfig(profile="quick"), out=tmp_path)
    run.claims = {c: {"verdict": "partly", "by_reading": {"r=x": {"verdict": "partly"}}}
                  for c in claims.CORE}
    run.claims["C1"]["by_reading"]["r=y"] = {"verdict": "not reproduced"}
    assert claims.deciding_readings(run) == (
        "Deciding readings: C1 is partly under the primary readings and r=y: not reproduced.")


def test_per_seed_takes_every_column_from_the_variant():
    s = pd.DataFrame(
        {
            "workload": "Grep",
            "replicate": [0, 0, 0, 0, 1, 1, 1, 1],
            "scheduler": ["noop", "noop", "bid-hdd", "bid-hdd"] * 2,
            "variant": ["primary", "device_queue=all_depth1"] * 4,
            "x": [1.0, 7.0, 2.0, 3.0, 4.0, 8.0, 5.0, 6.0],
        }
    )
    t = per_seed(s, "x", "device_queue=all_depth1")
    assert list(t.index) == ["Grep", "Grep"] and t["noop"].tolist() == [7.0, 8.0]
    assert t["bid-hdd"].tolist() == [3.0, 6.0]
    assert per_seed(s, "x")["bid-hdd"].tolist() == [2.0, 5.0]
    assert per_seed(s, "x")["noop"].tolist() == [1.0, 4.0]


def test_means_takes_every_column_from_the_variant():
    s = pd.DataFrame(
        {
            "workload": "Grep",
            "scheduler": ["noop", "noop", "bid-hdd", "bid-hdd"],
            "variant": ["primary", "device_queue=all_depth1"] * 2,
            "x": [1.0, 4.0, 2.0, 3.0],
        }
    )
    alt = means(s, "x", "device_queue=all_depth1")
    assert alt.loc["Grep", "noop"] == 4.0 and alt.loc["Grep", "bid-hdd"] == 3.0
    assert means(s, "x").loc["Grep", "bid-hdd"] == 2.0 and means(s, "x").loc["Grep", "noop"] == 1.0


def test_runs_are_shared_by_variants_with_the_same_options():
    from storrepro.papers.bid.experiment import shared_runs

    noop = shared_runs("noop")
    # the queue in front of the disk is the only reading Noop sees: none (the primary, every
    # BID-only reading and all_depth1) or the 32-deep command queue (all_clook32)
    assert noop["primary"] == ("primary", *(v for v in claims.VARIANTS
                                           if v.startswith("wait_history")),
                               "device_queue=all_depth1")
    assert noop["device_queue=all_clook32"] == ("device_queue=all_clook32",)
    bid = shared_runs("bid-hdd")
    assert "device_queue=all_clook32" in bid["primary"]
    assert len(bid) == len(claims.VARIANTS) - 1


def test_mean_ci_is_the_t_interval():
    s = pd.DataFrame(
        {"workload": "Grep", "scheduler": "noop", "replicate": [0, 1, 2], "x": [1.0, 2.0, 3.0]}
    )
    row = mean_ci(s, "x").loc[("Grep", "noop")]
    # mean 2, sd 1, n 3: half-width t(0.975, 2) / sqrt(3) = 4.302653 / 1.732051
    assert row["mean"] == 2.0 and row["ci95"] == pytest.approx(4.302653 / 3**0.5, rel=1e-6)


def test_sensitivity_cell_applies_its_options():
    assert set(SENSITIVITY) >= {"default", "rq_limit=64", "wait_default=10"}
    a = run_sensitivity_cell(SensitivityCell("default", "TeraSort", "bid-hdd", 600, 0))
    b = run_sensitivity_cell(SensitivityCell("wait_default=10", "TeraSort", "bid-hdd", 600, 0))
    c = run_sensitivity_cell(SensitivityCell("wait_default=10", "Grep", "noop", 600, 0))
    d = run_sensitivity_cell(SensitivityCell("default", "Grep", "noop", 600, 0))
    assert a > 0 and b > 0 and a != b and c == d  # BID options never reach the baselines
    assert np.isfinite(a)


def test_every_band_is_from_the_vocabulary_and_every_register_symbol_exists():
    import importlib

    from storrepro.suite.bands import VOCABULARY

    bands = [b for row in claims.TABLE for b in row.bands().values()]
    assert len(bands) >= 15 and all(b.entry in VOCABULARY and b.words for b in bands)
    for name, forced in BIDConfig.forced.items():
        if forced.symbol:
            module, symbol = forced.symbol.split(":")
            assert hasattr(importlib.import_module(module), symbol), name


def test_e_names_the_settings_that_leave_bid_unchanged():
    rows = [{"config": c, "workload": w, "C1 reduction vs best (q=8) %": 5.0 + bump,
             "C1 reduction vs best (q=2) %": 9.0, "C4 Hybrid vs BID-HDD %": 5.0}
            for c, bump in (("default", 0.0), ("same", 0.05), ("moved", 1.0))
            for w in ("Grep", "Sort")]
    c = judge("E", sens=pd.DataFrame(rows))
    assert "1 of 2 settings move BID-HDD's reduction" in c.reason and "(same)" in c.reason


def test_no_reported_result_tells_the_wait_history_readings_apart(tmp_path):
    from storrepro.papers.bid import toy

    orders = {w: toy.bid_order(w) for w in BIDConfig.readings["wait_history"].alternatives}
    why = claims.wait_history_undecided(orders)
    assert "A1 A2 A3 A4 A5 A6 C1 C2 B1 B2 B3 B4" in why and "C1, C2, C4–C11" in why
    run = Run(BIDConfig(profile="quick"), out=tmp_path)
    run.no_discriminating_result("wait_history", why)
    assert run._consistency.entry("wait_history")["none"] == why
    # were Fig. 8's toy to come out otherwise under one value, it could tell them apart
    with pytest.raises(ValueError, match="Fig. 8 may tell its values apart"):
        claims.wait_history_undecided({**orders, "reset": "B1 A1"})
