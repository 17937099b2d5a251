"""Notebook 05's headline follows the recorded verdicts: the cause names the phase-2 load under
which B9d holds, and the plain summary says where the recovery claim holds and whether a
near-best delay holds on the paper's own delay model too."""

from dataclasses import replace

from storrepro.papers.tofec.claims import PURE, headline
from storrepro.papers.tofec.config import TofecConfig
from storrepro.suite.claims import Claim
from storrepro.suite.run import Run


def record(run, cid, verdict, value="v", under=None, **values):
    """Record claim ``cid`` with ``verdict`` (and ``under``: ``{reading label: verdict}``)."""
    claim = Claim(id=cid, statement="s", paper_value=1, reproduced_value=value, tolerance="t",
                  verdict=verdict, reason="r", band="approx: w", values=values,
                  uncertainty={"n": 5, "mean": 1.0, "ci95": [0.9, 1.1], "of": "x"})
    under = under or {}
    judged = {x.split("=")[0] for x in under}
    run.judge(lambda c: c, claim, not_affected_by=[r for r in run.config.readings
                                                   if r not in judged],
              by_reading={x: (replace(claim, verdict=v, reproduced_value=f"{v} there"),)
                          for x, v in under.items()})


def b9d(run, primary, at_103, at_095):
    record(run, "B9d", primary, "TOFEC 3.0 s, Greedy 1.0 s, Ideal 2.5 s",
           {"phase2_load=1.03": at_103, "phase2_load=0.95": at_095})


def test_headline_names_the_load_under_which_b9d_holds(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    record(run, "B3-0.95-TOFEC", "reproduced")
    record(run, "B5-mean", "not reproduced", "1.3×", max_ratio=1.3)
    b9d(run, "partly", "reproduced", "partly")
    text = headline.headline_text(run)
    assert text["core"] == ["B3-0.95-TOFEC", "B5-mean", "B9d"]
    assert "B5-mean not reproduced" in text["cause"]
    assert "'Faster than Ideal' (B9d) is partly with phase 2 at 0.98·C_full (n = 5 seeds), " \
           "reproduced at 1.03·C_full (the literal 80 req/s), partly at 0.95·C_full" \
           in text["cause"]
    assert "TOFEC recovers from a load drop faster than the head-of-line Ideal only when phase 2 " \
           "overloads the system." in text["cause"]
    assert text["summary"] == (
        "Partly: TOFEC keeps full capacity, but its mean is up to 30 % above the best "
        "code's; it recovers from a load drop faster than an oracle only after an overload.")
    head = run.headline(**text)
    assert head["verdict"] == "partly" and head["hangs_on"] == ["phase2_load"]


def test_summary_says_where_the_recovery_claim_holds(tmp_path):
    cases = [
        ("reproduced", "partly", "and it recovers from a load drop faster than an oracle."),
        ("partly", "reproduced", "but it recovers from a load drop faster than an oracle only "
                                 "with phase 2 at 95 % of capacity."),
        ("partly", "partly", "but it is not shown to recover from a load drop faster than an "
                             "oracle."),
    ]
    for primary, at_095, ending in cases:
        run = Run(TofecConfig(profile="quick"), out=tmp_path)
        record(run, "B3-0.95-TOFEC", "reproduced")
        b9d(run, primary, "partly", at_095)
        summary = headline.headline_text(run)["summary"]
        assert summary.startswith("Reproduced: TOFEC keeps full capacity " if primary ==
                                  "reproduced" else "Partly: TOFEC keeps full capacity, ")
        assert summary.endswith(ending), summary


def test_summary_qualifies_a_near_best_delay_the_paper_model_does_not_give(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    record(run, "B3-0.95-TOFEC", "reproduced")
    for cid in ("B5-mean", "B5-median"):
        record(run, cid, "reproduced", "1.05×", {PURE: "not reproduced"}, max_ratio=1.05)
    b9d(run, "partly", "reproduced", "partly")
    text = headline.headline_text(run)
    assert text["summary"] == (
        "Partly: TOFEC keeps full capacity and near-best mean and median delays (on calibrated "
        "delays only), but it recovers from a load drop faster than an oracle only after an "
        "overload.")
    assert "delay_model" in run.headline(**text)["hangs_on"]  # and the summary fits 40 words
    assert "On the paper's own delay model, Eq. (1)'s shifted exponential (PURE) in place of " \
           "the calibrated stand-in SUR: B5-mean not reproduced" in text["cause"]


def test_recovery_words_name_one_load_and_count_several():
    def words(under):
        return headline._recovery_words("partly", under, "TOFEC", "an oracle",
                                        "when phase 2 overloads",
                                        lambda x: f"{float(x):.0%} of capacity")

    assert words({"1.03": "reproduced", "0.95": "partly"}).endswith("only when phase 2 overloads")
    assert words({"0.95": "reproduced", "1.03": "partly"}).endswith(
        "only with phase 2 at 95% of capacity")
    assert words({"0.95": "reproduced", "0.9": "reproduced"}).endswith(
        "only at 2 other phase-2 loads")  # several loads in a 40-word headline: counted
    assert "is not shown" in words({"0.95": "partly"})
