"""CRAN loader: the benchmark's .rda files, R's frequencies, matrices, tarballs, the download
from a mirror (served by the test on 127.0.0.1) with its pinned checksums, and the errors.

Tests that need the benchmark itself are skipped, with the reason, where no folder holds it (a
clone without ``../shared``): :data:`helpers.CRAN_MISSING` says so here and in ``test_notebooks``.
"""

import functools
import io
import os
import tarfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from helpers import needs_cran
from storrepro.__main__ import main
from storrepro.suite import runner
from storrepro.suite.data import cran


@pytest.fixture(scope="module")
def source():
    return cran.cran_source()


@pytest.fixture(scope="module")
def series(source):
    return cran.load_cran(source)


@needs_cran
def test_all_82_series_with_the_papers_length_and_period_ranges(series):
    assert len(series) == 82 == cran.N_SERIES
    assert len({s.key for s in series}) == 82
    lengths = [s.values.size for s in series]
    assert (min(lengths), max(lengths)) == (16, 3024)  # paper: length 16-3024
    freqs = [s.frequency for s in series]
    assert min(freqs) == 2 and round(max(freqs)) == 52  # paper: period 2-52
    assert all(s.values.ndim == 1 and np.isfinite(s.values).all() for s in series)


@needs_cran
def test_frequencies_as_r_reports_them(series):
    by_key = {s.key: s for s in series}
    # length and frequency as the benchmark's own list gives them
    assert (by_key["fma::airpass"].values.size, by_key["fma::airpass"].frequency) == (144, 12)
    assert (by_key["expsmooth::utility"].values.size, by_key["expsmooth::utility"].frequency) == (
        3024,
        24,
    )
    assert by_key["astsa::cmort"].frequency == 52
    assert by_key["fpp2::hyndsight"].frequency == 7
    assert by_key["fpp2::gasoline"].frequency == pytest.approx(365.25 / 7, abs=1e-6)
    assert by_key["fpp2::gasoline"].values.size == 1355


@needs_cran
def test_one_column_matrices_are_flattened(series):
    by_key = {s.key: s for s in series}
    for key in ("TSA::airmiles", "TSA::milk", "TSA::retail", "TSA::wages"):
        assert by_key[key].values.ndim == 1
    assert by_key["TSA::wages"].values.size == 72


@needs_cran
def test_tarball_layout_is_read_without_unpacking(tmp_path, source):
    """A source tarball the test builds from the benchmark's files reads the same values."""
    (tmp_path / f"fpp_{cran.VERSIONS['fpp']}.tar.gz").write_bytes(_package_tarball(source, "fpp"))
    from_tar = cran._read_series(tmp_path, "fpp", "euretail")
    from_dir = cran._read_series(source, "fpp", "euretail")
    assert np.array_equal(from_tar.values, from_dir.values)
    assert from_tar.frequency == from_dir.frequency == 4


def test_environment_variable_is_searched_first(tmp_path, monkeypatch):
    monkeypatch.setenv(cran.CRAN_DIR_ENV, str(tmp_path))
    assert cran.default_sources()[0] == tmp_path
    assert cran.default_sources()[-1] == cran.cache_dir()


def test_without_a_mirror_named_the_download_asks_crans_cloud_mirror(tmp_path, monkeypatch):
    asked = []

    def offline(urls):
        asked.extend(urls)
        raise OSError("offline")

    monkeypatch.setattr(cran, "_fetch_first", offline)
    monkeypatch.delenv(cran.MIRROR_ENV, raising=False)
    with pytest.raises(OSError, match="offline"):
        cran.download_cran(tmp_path, progress=False)
    assert asked == [
        "https://cloud.r-project.org/src/contrib/AER_1.2-15.tar.gz",
        "https://cloud.r-project.org/src/contrib/Archive/AER/AER_1.2-15.tar.gz",
    ]
    monkeypatch.setenv(cran.MIRROR_ENV, "http://mirror.example/cran/")  # the variable wins
    with pytest.raises(OSError, match="offline"):
        cran.download_cran(tmp_path, progress=False)
    assert asked[2] == "http://mirror.example/cran/src/contrib/AER_1.2-15.tar.gz"


# ---- a clone without the data, and a mirror served here ----------------------------------------


def _tarball(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _package_tarball(source, package: str, tamper: str | None = None) -> bytes:
    """``package``'s source tarball as CRAN lays it out, its series read from ``source``;
    the series ``tamper`` gets one byte more."""
    members = {f"{package}/DESCRIPTION": f"Package: {package}\n".encode()}
    for name in cran.SERIES[package]:
        data = cran.series_bytes(source, package, name)
        members[f"{package}/data/{name}.rda"] = data + b"\0" * (name == tamper)
    return _tarball(members)


def _publish(root, package: str, data: bytes, archived: bool) -> None:
    """Put a tarball where a mirror keeps it: current release, or its archive."""
    folder = root / "src" / "contrib" / ("Archive/" + package if archived else "")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{package}_{cran.VERSIONS[package]}.tar.gz").write_bytes(data)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def mirror(tmp_path):
    """A CRAN mirror on 127.0.0.1: (its folder, its base address)."""
    root = tmp_path / "mirror"
    root.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=root))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def clone(tmp_path, monkeypatch, free_port):
    """A checkout with no ``../shared`` beside it and no data variables set, on a machine
    without network: the default mirror is an address on 127.0.0.1 where nothing listens."""
    root = tmp_path / "clone"
    root.mkdir()
    monkeypatch.setattr(cran, "repo_root", lambda: root)
    monkeypatch.setattr(cran, "DEFAULT_MIRROR", f"http://127.0.0.1:{free_port()}")
    monkeypatch.delenv(cran.CRAN_DIR_ENV, raising=False)
    monkeypatch.delenv(cran.MIRROR_ENV, raising=False)
    return root


@needs_cran
@pytest.mark.parametrize("named_by", ["default", "variable"])
def test_reproduce_fetches_the_benchmark_into_the_cache_first(
    clone, mirror, monkeypatch, capsys, source, series, named_by
):
    root, address = mirror
    for i, package in enumerate(cran.VERSIONS):  # some current, some archived
        _publish(root, package, _package_tarball(source, package), archived=i % 2 == 1)
    if named_by == "default":  # CRAN's cloud mirror, played by the one served here
        monkeypatch.setattr(cran, "DEFAULT_MIRROR", address)
    else:
        monkeypatch.setenv(cran.MIRROR_ENV, address)
    assert runner.plan("quick", ["01_precise_period"], [])  # before any notebook starts
    assert "CRAN tarballs" in capsys.readouterr().err  # the progress bar
    cache = clone / "data" / "cran"
    assert cran.cran_source() == cache == cran.cache_dir()
    assert sorted(p.name for p in cache.glob("[!.]*")) == sorted(  # not the fetch's lock
        f"{p}_{v}.tar.gz" for p, v in cran.VERSIONS.items()
    )
    fetched = cran.load_cran()
    assert [s.key for s in fetched] == [s.key for s in series]
    assert all(np.array_equal(a.values, b.values) for a, b in zip(fetched, series, strict=True))
    monkeypatch.setenv(cran.MIRROR_ENV, address + "/gone")  # read from the cache from now on
    assert cran.ensure_cran() == cache


def test_a_tarball_that_is_not_the_pinned_release_is_refused(clone, mirror, tmp_path):
    root, address = mirror
    members = {f"AER/data/{n}.rda": b"another build" for n in cran.SERIES["AER"]}
    _publish(root, "AER", _tarball(members), archived=False)
    with pytest.raises(cran.CranChecksumError, match="AER/data/BondYield.rda of package AER"):
        cran.ensure_cran(address, progress=False)
    assert not (clone / "data" / "cran" / f"AER_{cran.VERSIONS['AER']}.tar.gz").exists()
    # a tarball already in a folder is checked when a series is read from it
    (tmp_path / f"AER_{cran.VERSIONS['AER']}.tar.gz").write_bytes(_tarball(members))
    with pytest.raises(cran.CranChecksumError, match=r"AER_1\.2-15\.tar\.gz: AER/data/Bond"):
        cran.series_bytes(tmp_path, "AER", "BondYield")


@needs_cran
def test_one_changed_series_in_a_fetched_tarball_is_named(clone, mirror, source):
    root, address = mirror
    _publish(root, "AER", _package_tarball(source, "AER", tamper="DutchSales"), archived=True)
    with pytest.raises(cran.CranChecksumError, match="DutchSales.rda of package AER.*expected"):
        cran.download_cran(clone / "out", address, progress=False)


def _assert_says_where_and_how(message: str, clone) -> None:
    assert "the CRAN benchmark (82 series" in message
    assert f"{clone.parent / 'shared' / 'data' / 'cran'} (no such folder)" in message
    assert f"{clone / 'data' / 'cran'} (" in message  # the cache: absent, or empty
    assert f"{cran.CRAN_DIR_ENV}=DIR" in message and f"{cran.MIRROR_ENV}=URL" in message


def test_offline_without_data_reproduce_stops_before_any_notebook(clone, capsys):
    # a clone without ../shared tries CRAN's cloud mirror, and offline says so at once
    fetch = f"Fetching from {cran.DEFAULT_MIRROR} failed"
    with pytest.raises(cran.CranDataMissing, match=fetch) as err:
        runner.plan("quick", ["01_precise_period"], [])
    _assert_says_where_and_how(str(err.value), clone)
    assert f"from {cran.DEFAULT_MIRROR} (set {cran.MIRROR_ENV}=URL" in str(err.value)
    assert main(["reproduce", "--profile", "quick", "--only", "01_precise_period"]) == 2
    out = capsys.readouterr()
    assert "[1/1]" not in out.out and "the CRAN benchmark (82 series" in out.err
    assert runner.plan("quick", ["00_simulator_validation"], [])  # other notebooks need none


def test_offline_the_failed_fetch_is_reported_with_both_ways(clone, free_port, monkeypatch):
    address = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    monkeypatch.setenv(cran.MIRROR_ENV, address)
    with pytest.raises(cran.CranDataMissing, match=f"Fetching from {address} failed") as err:
        runner.plan("quick", ["01_precise_period"], [])
    _assert_says_where_and_how(str(err.value), clone)


def test_a_folder_missing_packages_is_not_taken(clone, tmp_path):
    (tmp_path / "partial" / "fpp").mkdir(parents=True)
    with pytest.raises(cran.CranDataMissing, match="partial \\(lacks AER, TSA, astsa"):
        cran.cran_source(tmp_path / "partial")
    with pytest.raises(cran.CranDataMissing, match="--download"):
        cran.load_cran(tmp_path)


def test_a_cran_dir_parameter_is_checked_instead_of_the_defaults(clone, tmp_path):
    with pytest.raises(cran.CranDataMissing, match=f"looked in {tmp_path} "):
        runner.plan("quick", ["01_precise_period"], [f"cran_dir={tmp_path}"])


@needs_cran
def test_a_truncated_series_file_is_named(tmp_path, source):
    folder = tmp_path / "cran"
    for package, names in cran.SERIES.items():
        (folder / package).mkdir(parents=True)
        for name in names:
            (folder / package / f"{name}.rda").write_bytes(cran.series_bytes(source, package, name))
    damaged = folder / "fma" / "airpass.rda"
    damaged.write_bytes(damaged.read_bytes()[:40])
    with pytest.raises(ValueError, match=f"{damaged}: cannot read series fma::airpass .*truncated"):
        cran.load_cran(folder)


def _copy_as_rda(source, folder):
    for package, names in cran.SERIES.items():
        (folder / package).mkdir(parents=True)
        for name in names:
            (folder / package / f"{name}.rda").write_bytes(cran.series_bytes(source, package, name))
    return folder


@needs_cran
@pytest.mark.parametrize("fault", ["truncated", "missing", "unreadable"])
def test_a_bad_series_file_stops_reproduce_before_any_notebook(tmp_path, source, capsys, fault):
    folder = _copy_as_rda(source, tmp_path / "cran")
    bad = folder / "fpp2" / "gasoline.rda"
    if fault == "truncated":
        bad.write_bytes(bad.read_bytes()[:-20])
    elif fault == "missing":
        bad.unlink()
    else:
        bad.chmod(0)
        if os.access(bad, os.R_OK):
            pytest.skip("running as root: every file is readable")
    args = ["-p", f"cran_dir={folder}"]
    with pytest.raises((ValueError, OSError), match=f"{bad}.*fpp2::gasoline|fpp2::gasoline.*{bad}"):
        runner.plan("quick", ["01_precise_period"], args[1:])
    assert main(["reproduce", "--profile", "quick", "--only", "01_precise_period", *args]) == 2
    out = capsys.readouterr()
    assert "[1/1]" not in out.out  # no kernel started
    assert str(bad) in out.err and "--download DIR" in out.err
    assert len(out.err.strip().splitlines()) == 1


def test_two_runs_fetching_at_once_fetch_once(clone, monkeypatch, capsys):
    import time
    from concurrent.futures import ThreadPoolExecutor

    fetched = []

    def slow_download(folder, mirror, progress):
        fetched.append(folder)
        time.sleep(1.0)  # the other run arrives while this one fetches
        for package in cran.VERSIONS:
            cran._tarball(folder, package).write_bytes(b"")

    monkeypatch.setattr(cran, "download_cran", slow_download)
    with ThreadPoolExecutor(2) as pool:  # each opens the lock file anew, as a process would
        first, second = pool.map(lambda _: cran.ensure_cran(progress=False), range(2))
    assert first == second == cran.cache_dir() and len(fetched) == 1
    assert "waiting for another run making" in capsys.readouterr().out
