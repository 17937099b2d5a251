"""PaperTemplate's claim rules, each on an input where it holds and one where it fails."""

from storrepro.papers.paper_template import claims


def test_t1_holds_near_twice_the_service_time_and_fails_far_from_it():
    assert claims.t1_mean_response([2.0, 2.02, 1.98]).verdict == "reproduced"
    assert claims.t1_mean_response([3.0, 3.1, 2.9]).verdict == "not reproduced"
    # ratios 0.85, 1.2, 1.0: the interval straddles both edges of ×/÷ 1.15
    assert claims.t1_mean_response([1.7, 2.4, 2.0]).verdict == "inconclusive"


def test_k1_fails_when_the_kernel_differs_from_the_model():
    assert claims.k1_kernel_matches_reference(0.0).verdict == "reproduced"
    failed = claims.k1_kernel_matches_reference(1e-3)
    assert failed.verdict == "not reproduced" and "kernel is wrong" in failed.reason
