"""What tests in several folders share: the keys of a result other tools read, the skip for
tests that need the CRAN benchmark (with the reason, on a clone without ``../shared``), and the
notebooks whose quick run in the tests reads the public trace."""

import pytest

from storrepro.suite.data import cran

#: The keys of a notebook's result, which other tools read.
RESULT_KEYS = {
    "notebook",
    "paper",
    "profile",
    "seed",
    "parameters",
    "input",
    "git_commit",
    "started",
    "wall_seconds",
    "headline",
    "readings",
    "forced",
    "figures",
    "captions",
    "figure_claims",
    "claims",
}
#: Written besides when the run read a real-VM file (notebooks 01 and 03).
REAL_DATA_KEY = "real_data"


def cran_missing() -> str | None:
    """Why the CRAN benchmark cannot be read here (the skip reason), or None when it can."""
    try:
        cran.cran_source()
    except cran.CranDataMissing:
        return (
            f"needs the CRAN benchmark, not in {', '.join(map(str, cran.default_sources()))}; "
            f"`make reproduce` fetches it from CRAN's cloud mirror (or set {cran.CRAN_DIR_ENV}"
            f"=DIR or {cran.MIRROR_ENV}=URL; README, Data)"
        )
    return None


CRAN_MISSING = cran_missing()
needs_cran = pytest.mark.skipif(CRAN_MISSING is not None, reason=str(CRAN_MISSING))


#: The notebooks whose one quick run in the tests (the ``quick_runs`` fixture) reads the public
#: CloudPhysics trace when it is available, so the quick-profile tests and the public-trace
#: tests share that run; the others (and these, without the trace) read their package's small
#: sample trace. 01 and 02 cannot take the public trace (test_public_trace says why).
ON_PUBLIC_TRACE = ("03_vdi_background", "04_bid", "05_tofec")
