"""CRAN loader: the shared .rda files, R's frequencies, matrices, tarballs and errors."""

import io
import tarfile
from pathlib import Path

import numpy as np
import pytest

from storrepro.data import cran

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "cran"
needs_data = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/cran not present")


@pytest.fixture(scope="module")
def series():
    return cran.load_cran(SHARED)


@needs_data
def test_all_82_series_with_the_papers_length_and_period_ranges(series):
    assert len(series) == 82 == cran.N_SERIES
    assert len({s.key for s in series}) == 82
    lengths = [s.values.size for s in series]
    assert (min(lengths), max(lengths)) == (16, 3024)  # paper: length 16-3024
    freqs = [s.frequency for s in series]
    assert min(freqs) == 2 and round(max(freqs)) == 52  # paper: period 2-52
    assert all(s.values.ndim == 1 and np.isfinite(s.values).all() for s in series)


@needs_data
def test_frequencies_as_r_reports_them(series):
    by_key = {s.key: s for s in series}
    # values from the ASTD list quoted in the spec (length/frequency)
    assert (by_key["fma::airpass"].values.size, by_key["fma::airpass"].frequency) == (144, 12)
    assert (by_key["expsmooth::utility"].values.size, by_key["expsmooth::utility"].frequency) == (
        3024,
        24,
    )
    assert by_key["astsa::cmort"].frequency == 52
    assert by_key["fpp2::hyndsight"].frequency == 7
    assert by_key["fpp2::gasoline"].frequency == pytest.approx(365.25 / 7, abs=1e-6)
    assert by_key["fpp2::gasoline"].values.size == 1355


@needs_data
def test_one_column_matrices_are_flattened(series):
    by_key = {s.key: s for s in series}
    for key in ("TSA::airmiles", "TSA::milk", "TSA::retail", "TSA::wages"):
        assert by_key[key].values.ndim == 1
    assert by_key["TSA::wages"].values.size == 72


@needs_data
def test_tarball_layout_is_read_without_unpacking(tmp_path):
    """A source tarball the test builds from the shared files reads the same values."""
    tarball = tmp_path / f"fpp_{cran.VERSIONS['fpp']}.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        for name in cran.SERIES["fpp"]:
            data = (SHARED / "fpp" / f"{name}.rda").read_bytes()
            info = tarfile.TarInfo(f"fpp/data/{name}.rda")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    from_tar = cran._read_series(tmp_path, "fpp", "euretail")
    from_dir = cran._read_series(SHARED, "fpp", "euretail")
    assert np.array_equal(from_tar.values, from_dir.values)
    assert from_tar.frequency == from_dir.frequency == 4


def test_missing_data_names_where_to_get_it(tmp_path, monkeypatch):
    monkeypatch.delenv(cran.CRAN_DIR_ENV, raising=False)
    with pytest.raises(cran.CranDataMissing, match="--download"):
        cran.load_cran(tmp_path)


def test_environment_variable_is_searched_first(tmp_path, monkeypatch):
    monkeypatch.setenv(cran.CRAN_DIR_ENV, str(tmp_path))
    assert cran.default_sources()[0] == tmp_path


def test_download_needs_a_mirror(tmp_path, monkeypatch):
    monkeypatch.delenv(cran.MIRROR_ENV, raising=False)
    with pytest.raises(ValueError, match="mirror"):
        cran.download_cran(tmp_path)


def test_download_fetches_pinned_versions_from_the_mirror(tmp_path, monkeypatch):
    """A local directory laid out as a mirror (archive only) stands in for the network."""
    mirror = tmp_path / "mirror"
    for package, version in cran.VERSIONS.items():
        folder = mirror / "src" / "contrib" / "Archive" / package
        folder.mkdir(parents=True)
        with tarfile.open(folder / f"{package}_{version}.tar.gz", "w:gz") as tar:
            info = tarfile.TarInfo(f"{package}/DESCRIPTION")
            info.size = 0
            tar.addfile(info, io.BytesIO(b""))
    paths = cran.download_cran(tmp_path / "out", mirror=mirror.as_uri())
    assert sorted(p.name for p in paths) == sorted(
        f"{p}_{v}.tar.gz" for p, v in cran.VERSIONS.items()
    )
