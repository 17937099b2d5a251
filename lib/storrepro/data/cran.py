"""The 82-series CRAN period-detection benchmark (Toller, Santos & Kern 2019), read at run time.

Ground truth is each series' R frequency (the third element of its ``tsp`` attribute), exactly as
``frequency(ts)`` reports it: ``fpp2::gasoline`` keeps its non-integer 365.25/7 = 52.18.

Where the data comes from (first match wins):
  1. ``source`` passed to :func:`load_cran`;
  2. ``$STORREPRO_CRAN_DIR``;
  3. ``../shared/data/cran`` beside the checkout.
A source directory holds either ``<package>/<series>.rda`` (the files of each package's ``data/``
folder) or the CRAN package source tarballs ``<package>_<version>.tar.gz``, read without
unpacking. :func:`download_cran` fetches the pinned tarballs from a CRAN mirror. The ``.rda``
files and their values are never copied into this repository.
"""

from __future__ import annotations

import io
import os
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import rdata

from storrepro.paths import repo_root, write_bytes_atomic

CRAN_DIR_ENV = "STORREPRO_CRAN_DIR"
MIRROR_ENV = "STORREPRO_CRAN_MIRROR"

#: Package versions the benchmark files come from (each shared folder's VERSION file).
VERSIONS = {
    "AER": "1.2-15",
    "TSA": "1.3.1",
    "astsa": "2.5",
    "expsmooth": "2.3",
    "fma": "2.5",
    "fpp": "0.5",
    "fpp2": "2.5",
}

#: The 82 series of the SAZED benchmark script (``r/reproduceResults.R``); ``ausgdp`` is read
#: from expsmooth because fpp2 ships none.
SERIES = {
    "fma": [
        "airpass",
        "beer",
        "bricksq",
        "condmilk",
        "dole",
        "elec",
        "fancy",
        "hsales",
        "hsales2",
        "invent15",
        "labour",
        "milk",
        "motion",
        "pigs",
        "plastics",
        "pollution",
        "qelec",
        "qsales",
        "shampoo",
        "ukdeaths",
        "usdeaths",
        "uselec",
        "writing",
    ],
    "expsmooth": [
        "ausgdp",
        "bonds",
        "cangas",
        "enplanements",
        "frexport",
        "mcopper",
        "ukcars",
        "usgdp",
        "utility",
        "vehicles",
        "visitors",
    ],
    "fpp": ["cafe", "euretail"],
    "fpp2": [
        "a10",
        "ausbeer",
        "auscafe",
        "austourists",
        "debitcards",
        "elecequip",
        "gasoline",
        "h02",
        "hyndsight",
        "qauselec",
        "qcement",
        "qgas",
        "usmelec",
    ],
    "TSA": [
        "airmiles",
        "beersales",
        "co2",
        "flow",
        "hours",
        "milk",
        "JJ",
        "oilfilters",
        "prescrip",
        "prey.eq",
        "retail",
        "tempdub",
        "wages",
        "winnebago",
    ],
    "astsa": [
        "birth",
        "cmort",
        "flu",
        "gas",
        "hor",
        "part",
        "prodn",
        "qinfl",
        "qintr",
        "rec",
        "so2",
        "soi",
        "sunspotz",
        "tempr",
        "unemp",
        "UnempRate",
    ],
    "AER": ["BondYield", "DutchSales", "UKNonDurables"],
}

N_SERIES = sum(len(v) for v in SERIES.values())


@dataclass(frozen=True)
class Series:
    """One benchmark series: where it comes from, its values and its R frequency."""

    package: str
    name: str
    values: np.ndarray
    frequency: float

    @property
    def key(self) -> str:
        return f"{self.package}::{self.name}"


class CranDataMissing(FileNotFoundError):
    """No directory with the CRAN benchmark was found."""


def default_sources() -> list[Path]:
    """Where :func:`load_cran` looks when no source is given, in order."""
    sources = []
    if os.environ.get(CRAN_DIR_ENV):
        sources.append(Path(os.environ[CRAN_DIR_ENV]))
    sources.append(repo_root().parent / "shared" / "data" / "cran")
    return sources


def load_cran(source: str | Path | None = None) -> list[Series]:
    """The 82 benchmark series in :data:`SERIES` order (see the module docstring for ``source``)."""
    folder = cran_source(source)
    return [_read_series(folder, pkg, name) for pkg, names in SERIES.items() for name in names]


def cran_source(source: str | Path | None = None) -> Path:
    """The first folder holding the benchmark (see the module docstring), or a clear error
    naming where it looked and how to provide the data."""
    candidates = [Path(source)] if source is not None else default_sources()
    for folder in candidates:
        if folder.is_dir() and _has_data(folder):
            return folder
    raise CranDataMissing(
        "CRAN benchmark data not found in "
        + ", ".join(str(c) for c in candidates)
        + ". Point at a directory laid out as <package>/<series>.rda or holding the CRAN source "
        f"tarballs ({', '.join(f'{p}_{v}.tar.gz' for p, v in VERSIONS.items())}) with "
        f"load_cran(source=DIR) or ${CRAN_DIR_ENV}=DIR; with network access, "
        f"`python -m storrepro data cran --download DIR` (mirror from ${MIRROR_ENV}) fetches them."
    )


def _has_data(folder: Path) -> bool:
    return any((folder / pkg).is_dir() or _tarball(folder, pkg).is_file() for pkg in SERIES)


def _tarball(folder: Path, package: str) -> Path:
    return folder / f"{package}_{VERSIONS[package]}.tar.gz"


def _read_series(folder: Path, package: str, name: str) -> Series:
    rda = folder / package / f"{name}.rda"
    if rda.is_file():
        data = rda.read_bytes()
    elif _tarball(folder, package).is_file():
        data = _from_tarball(_tarball(folder, package), package, name)
    else:
        raise CranDataMissing(f"{package}::{name}: neither {rda} nor {_tarball(folder, package)}")
    values, frequency = parse_rda(data, name)
    return Series(package, name, values, frequency)


def _from_tarball(path: Path, package: str, name: str) -> bytes:
    member = f"{package}/data/{name}.rda"
    with tarfile.open(path, "r:gz") as tar:
        try:
            return tar.extractfile(member).read()
        except KeyError:
            raise CranDataMissing(f"{path} has no member {member}") from None


def parse_rda(data: bytes, name: str) -> tuple[np.ndarray, float]:
    """Values and R frequency of the ``ts`` object ``name`` in an ``.rda`` file's bytes.

    Parsed at the R-object level (not with ``rdata``'s pandas conversion, which rejects series
    whose ``tsp`` end is not a whole step from the start, such as ``gasoline``). A one-column
    matrix is flattened; a multi-column one is an error.
    """
    parsed = rdata.parser.parse_data(data)
    obj = _find_object(parsed.object, name)
    attrs = _attributes(obj)
    if "tsp" not in attrs:
        raise ValueError(f"{name!r} is not a ts object (no tsp attribute)")
    values = np.asarray(obj.value, dtype=float)
    dim = attrs.get("dim")
    if dim is not None and len(dim) == 2:
        if int(dim[1]) != 1:
            raise ValueError(f"{name!r} has {int(dim[1])} columns; expected a univariate series")
        values = values.reshape(-1)
    frequency = float(attrs["tsp"][2])
    return values, round(frequency, 10)


def _find_object(pairlist, name: str):
    """The object bound to ``name`` in an .rda pairlist (the first one when no tag matches)."""
    first, node = None, pairlist
    while node is not None and node.info.type == rdata.parser.RObjectType.LIST:
        value = node.value[0]
        first = first if first is not None else value
        if node.tag is not None and _symbol(node.tag) == name:
            return value
        node = node.value[1]
    if first is None:
        raise ValueError(f"no R object found for {name!r}")
    return first


def _symbol(obj) -> str:
    while not isinstance(obj.value, bytes):
        obj = obj.value
    return obj.value.decode()


def _attributes(obj) -> dict:
    attrs, node = {}, obj.attributes
    while node is not None and node.info.type == rdata.parser.RObjectType.LIST:
        attrs[_symbol(node.tag)] = node.value[0].value
        node = node.value[1]
    return attrs


def download_cran(directory: str | Path, mirror: str | None = None) -> list[Path]:
    """Fetch the pinned package source tarballs into ``directory``; return their paths.

    ``mirror`` is the base address of a CRAN mirror (default ``$STORREPRO_CRAN_MIRROR``). The
    current version is tried first, then the mirror's archive. Existing tarballs are kept.
    """
    mirror = mirror or os.environ.get(MIRROR_ENV)
    if not mirror:
        raise ValueError(
            f"mirror = {mirror!r}: give the base address of a CRAN mirror "
            f"(argument or ${MIRROR_ENV})"
        )
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for package in VERSIONS:
        target = _tarball(directory, package)
        if not target.is_file():
            file = target.name
            urls = [
                f"{mirror.rstrip('/')}/src/contrib/{file}",
                f"{mirror.rstrip('/')}/src/contrib/Archive/{package}/{file}",
            ]
            write_bytes_atomic(target, _fetch_first(urls))
        paths.append(target)
    return paths


def _fetch_first(urls: list[str]) -> bytes:
    errors = []
    for url in urls:
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                data = response.read()
            tarfile.open(fileobj=io.BytesIO(data), mode="r:gz").close()
            return data
        except (OSError, tarfile.TarError) as error:
            errors.append(f"{url}: {error}")
    raise OSError("could not download: " + "; ".join(errors))
