"""What tests in several folders share: the keys of a result other tools read, and the skip
for tests that need the CRAN benchmark (with the reason, on a clone without ``../shared``)."""

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
