"""The 82-series CRAN period-detection benchmark (Toller, Santos & Kern 2019), read at run time.

Ground truth is each series' R frequency (the third element of its ``tsp`` attribute), exactly as
``frequency(ts)`` reports it: ``fpp2::gasoline`` keeps its non-integer 365.25/7 = 52.18.

Where the data comes from (first folder holding every package wins):
  1. ``source`` passed to :func:`load_cran`;
  2. ``$STORREPRO_CRAN_DIR``;
  3. ``../shared/data/cran`` beside the checkout;
  4. ``data/cran`` in the checkout: the git-ignored cache that :func:`ensure_cran` fills.
A source directory holds either ``<package>/<series>.rda`` (the files of each package's ``data/``
folder) or the CRAN package source tarballs ``<package>_<version>.tar.gz``, read without
unpacking. :func:`download_cran` fetches the pinned tarballs from a CRAN mirror named by the
caller or ``$STORREPRO_CRAN_MIRROR``, else from CRAN's own cloud mirror (:data:`DEFAULT_MIRROR`);
every series read from a tarball must match its pinned SHA-256. The ``.rda`` files and their
values are never copied into this repository.
"""

from __future__ import annotations

import hashlib
import io
import lzma
import os
import tarfile
import urllib.request
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import rdata
from tqdm import tqdm

from storrepro.suite.paths import made_once, repo_root, write_bytes_atomic

CRAN_DIR_ENV = "STORREPRO_CRAN_DIR"
MIRROR_ENV = "STORREPRO_CRAN_MIRROR"
#: The mirror used when neither the caller nor ``$STORREPRO_CRAN_MIRROR`` names one: CRAN's own
#: cloud mirror.
DEFAULT_MIRROR = "https://cloud.r-project.org"

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

#: SHA-256 of every series' ``.rda`` file as its pinned package version ships it
#: (``<package>/data/<series>.rda``): a tarball whose member differs is refused.
CHECKSUMS = {
    "fma": {
        "airpass": "278a77bd1d42727748a80f25cbcc2e6678298e57ae418738653b1258abfb8c5a",
        "beer": "06b4c34840119f7158be63a466e4b27b948f155bd8f08698c9e96e7ecc5c2663",
        "bricksq": "e95359872148656bef224c22d4e36b68fb4c6fabf564ed50906d288a4b355208",
        "condmilk": "f8dfb1aaa6af4b730b6fae7e57d9dd7180e7df4304c67f2e8c99fa5799d754f6",
        "dole": "1f3475a972be3cb4155947208b7d48a0abe7f839530e289fa12c80553226a23f",
        "elec": "80dc82bd0c7d5182a2225215b45906a1d99d78481ea2328200093df3eeffedc2",
        "fancy": "6329875e0e1a615c503a5ebeed4c689a9acf2545e063a8f55fbbf9579818b968",
        "hsales": "257d72d5530bd5e98ed157d88d7df85069eef4375fa053cd2b370cde9ff1935e",
        "hsales2": "f8dac4d255b6cc694a6f3b8ebdcc08c69a90d6baf389ed4cf000829c69475b5a",
        "invent15": "12037ee5259bb60057ebfb66345ae8f525312fe4576998325ae19b16ce6a7b7f",
        "labour": "2e53da2f943a355cf6a51671621914f6274e78d0789d24dda1ff1e024271a7bd",
        "milk": "0b82590b3717f2e9438629a5bb48452aae26f1854de842fd618edcf6c0c97db7",
        "motion": "e22b096d7dc8be336827a0edeae414a746331a48461abac70ba5b97e1948456d",
        "pigs": "fed0d1a9c34a4119b5f752a744bcf80d278445b49da738801e66a113813d5bed",
        "plastics": "177c50bdb2fa06116c277831aa0158501d651744a1f382e0ff7cca480aac9218",
        "pollution": "09a49b60d8e6e1cd99b4c8c0de842027f622d8101cfee2ac86df17c11f87c2fd",
        "qelec": "0ec65afc82550f8b8070d4c36e36b0bad2540a55b5b8c4745abfb459117d35f2",
        "qsales": "94be07c18c9ea767f0d458029b787a87bfc02d4248b5c23bb81b0332ab6ef8d0",
        "shampoo": "bcf4a71c1fad31ecc2d4f79e4af9236035917ad486684d5c82ff05dab3361389",
        "ukdeaths": "c4a4f5b7def3ed556e221d237a7c349853141a5f09fc0bbe321b9f078e099a3d",
        "usdeaths": "02610ff2f19a1d17b3e23c5a3f00b79f83c4507e174ff5e2cf884f1feb537f48",
        "uselec": "63e6f52a7f99f4517a107d635175dd3fbb28964f14ebb7c7ab40be19caf38261",
        "writing": "66f4d20ede9cdeaf8d2818e8d9154bbe1df053b108d2aeb8933acf0c72494cdf",
    },
    "expsmooth": {
        "ausgdp": "3c9d974c5e5c11b5022904ae097f1a5e209362ad32d11e3477850367def468e0",
        "bonds": "3121897f33b61260a1e8a9bcd31ea50397814198ba1f0d0217e067f8f666b907",
        "cangas": "38e884596530104da3c0594dbdcb9822861142c540ad9af808ac6772aff2d265",
        "enplanements": "63586de9a53b726547c668b5419d9d96e386b46724e6e59404f49605a3e754f3",
        "frexport": "ef248f06d62e89b5cdf4fbb128c9eff13ee17181739c508f51eee29a5c6322c1",
        "mcopper": "152c3e3ae5ad4f3dbc289bb669c6d85057b0c241217b7d2e157cb2115d214f8a",
        "ukcars": "a7ff8b0d45ffe5ed5cd2cb57ec5890e38c864c0370a0f2540499d40b0ae6ea9c",
        "usgdp": "85c83566a538c5d51801f18a25286395ceb2870b21630f3897be5627f565546c",
        "utility": "bf8bec37b2e2bb7ca1a3259766c24f0a6dbeaa299ac3b2971781252781bec7eb",
        "vehicles": "37c4f3dfcc7eb0589a071426a3108fc93c0ee4841265cf1ab8374424bef1ec0d",
        "visitors": "a5bffd2735b093a67cf64ebb53a7991e7e0c9d99ac4578066e4614a496e303ea",
    },
    "fpp": {
        "cafe": "b664d45796a5aefff3f9e1e848d994c0c418cc379c8af1d6fb400f5bd7ee2df4",
        "euretail": "8d319ac4a497e9bd346c95244c372b55f74fa0e72cffd48816ed73b136d3c9c1",
    },
    "fpp2": {
        "a10": "6a0f2a3e05a7a1d9a6ff10e051a94ceb14e876e0976c236326e056760130f1aa",
        "ausbeer": "fbb57fcce1df1182911f609092bf1c8f44e25d13f96fc9196b8e6c51a98419e7",
        "auscafe": "b025519dee58edbed2b4bfbf60306a2912ad998a58e4e2f1dd45b398de1ec969",
        "austourists": "47cd435d21ea1dbd76ce7167f0cf8281e4e63e8362c7c3b7add05eaaf7a1c9a2",
        "debitcards": "3f182f4aa6445de7277ab3ae4fe2a5d5c21ce6f5d204ed99081206000a119c48",
        "elecequip": "0a0f7c92a1d3469a6d81babe906d26c0ebb43decb81371c3144ad4c606e3c3ed",
        "gasoline": "d6fae79e3829b41d9437ed90da5f4b0e2923540d15ff38eb6578fc1141b64357",
        "h02": "d144d4dd0ac6a7d9b3e0676bc6ecc9473466eefa8391f2eac958b0d795eb0ff9",
        "hyndsight": "2a56c389c03ece55a884c71034ea23ade25f0b79ce63c1545c3f26d9bd069ac4",
        "qauselec": "903c3f384941612d83b3587ea11700fb96798f2b4e7ba877cd498b1aaba9e78d",
        "qcement": "78ad86abed699a6153ed5a6f02ae98c991b3099cb51130fd837f68817726a131",
        "qgas": "0daea2953db753945d3efeaa9851e212d6c40572c090ea1681284f237d3a3122",
        "usmelec": "73cd4690cbd1eedb30d8a881cf54d1dd63805ab4865ee9460a9d4808b38e1c17",
    },
    "TSA": {
        "airmiles": "e4d72cac68c30c2c18e8c04a628bbc374f48daa5ebc67b73eef3bfcdb011bb2a",
        "beersales": "e8108a0238200bcf8600168cfe5853e4deaf4a2a0287a4414608484410136e53",
        "co2": "410b1ab8b559276c5afdd8533be699e2ba4aa370e15dae77d2eeea5f29cc3ca3",
        "flow": "6b8c7d7e7db558182e50d994647a5fba777389bd45dc816563f5dc829027fa5d",
        "hours": "74d35d846026e5dbaf1128c11868f3d4d18a8a154f10fac7edf10156c6c670b4",
        "milk": "2a75796f27c4f5891eb86021c7083718153ae77745e7cf6a5a0702841893c129",
        "JJ": "a3319e7bdb9bce5d590a9323960a524fea72f7ba3a8e0f8e64fdf420a47adb85",
        "oilfilters": "c7f6c19f742a141935a6520b6e80379d88a150d9d8b9c4787cdf0503ef82f6b5",
        "prescrip": "0fbd6c94723d70911d6dca8cd52fef5e2e3f1a204b3308e382f4331c967d075a",
        "prey.eq": "8d85a7a1037b436c5595db0e6fd313d7a89b43bdf64904a661d35430b19aa900",
        "retail": "4cf297ee484a6d072a2b098bc38e9ee6d2be225cff201ac3aaaae02b3ec80d88",
        "tempdub": "0e288bb53682db085288abe871d0d197f77f41e55b9318e497529c259c2c1b03",
        "wages": "a462a2429056a73c14537607125227c7eb1605af84bcb02e25f549498a30768a",
        "winnebago": "b006aad22102c65e46fd0fc8a883066483fd61cf37045d4292bc6354b8f1830f",
    },
    "astsa": {
        "birth": "75b01123aa62b34584925291552afdaf54599632f24af0ef7791b6a5cd70bff7",
        "cmort": "0e255b2a7cf776d72ed125a963037b9388cdc92211b937603197519a2e0f7507",
        "flu": "a906e6b61ebdb1f5eefc4af54333c3ff4d95cabdc6bad8522ab3a63bd06de805",
        "gas": "a4f2efe741497da1b977db8b9686abaf7f0d055a8fa8b7644140c14f4ce24a6a",
        "hor": "fc7a0ba4d62a4b54892f76210616804090f88e4bb639733aa81c4c4e080dcd96",
        "part": "960c1a41fe2b1b2347fe6bc93c8517dedb8827f4f48b0ae50f9d246b4b062f3e",
        "prodn": "8d3280af79f624a1fd3a38ad7ac94c5b5a3200a969cdae99635ee88ac5b4dc9d",
        "qinfl": "5f5221c28c96461030111d25aa1906a9fa48068658cec0568fcd135a83a2d892",
        "qintr": "a2845d4227b76af28157fea39faf1d278d75443370d4975d045ec791229b8ee9",
        "rec": "6c4008242c8fd24bad3223c39cb6209b3d05c0cb14c5308c5ea34cbb43f32da1",
        "so2": "52f18b9bfd79f55c00ff2b569f8caef6c373f128a91c0ad22819338c0d052640",
        "soi": "17100de4de58c4f1830262a34dc37acaab70cb018fc674929e29a72ef6756f15",
        "sunspotz": "4ef7a992a79db3556500b104125839c9d0f6b424f05b014a0de76cab31018780",
        "tempr": "f20677e6e2149767812fe4517d6f587560fde4f2cc684c8b5ff6671c9bfb8ee6",
        "unemp": "449384da03fd029a066aa27855502fe825e6cc36275fb172b591bd37e6ba83c2",
        "UnempRate": "9d29c0b1eac9fcadde82c7d1740c9ba925e3cffa1f341c9b6aa99c0c41f90895",
    },
    "AER": {
        "BondYield": "8c58e7dacba8c216c603057f9cd4046e17ff28bac167e6d7c1d4bf17a9dccbc6",
        "DutchSales": "eba1c87f1f000a27c4d71f6b85db276b011e0e541c5d03870d8308952d79ebe8",
        "UKNonDurables": "053ebbd8169cf58315a0fc484bdc3804502232dd31de691c06c922d3ac13651e",
    },
}


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


class CranChecksumError(ValueError):
    """A series read from a package tarball is not the pinned file."""


def cache_dir() -> Path:
    """The git-ignored folder of the checkout that :func:`ensure_cran` downloads into."""
    return repo_root() / "data" / "cran"


def default_sources() -> list[Path]:
    """Where :func:`load_cran` looks when no source is given, in order."""
    sources = []
    if os.environ.get(CRAN_DIR_ENV):
        sources.append(Path(os.environ[CRAN_DIR_ENV]))
    sources.append(repo_root().parent / "shared" / "data" / "cran")
    sources.append(cache_dir())
    return sources


def load_cran(source: str | Path | None = None) -> list[Series]:
    """The 82 benchmark series in :data:`SERIES` order (see the module docstring for ``source``)."""
    folder = cran_source(source)
    return [_read_series(folder, pkg, name) for pkg, names in SERIES.items() for name in names]


def check_cran(folder: str | Path) -> None:
    """Read every series of ``folder`` once (each ``.rda`` parsed, each tarball member checked):
    a missing, unreadable or truncated file is named, with how to fetch it again, before any
    notebook starts."""
    load_cran(folder)


def cran_source(source: str | Path | None = None) -> Path:
    """The first folder holding the benchmark (see the module docstring), or a clear error
    naming where it looked and how to provide the data."""
    candidates = [Path(source)] if source is not None else default_sources()
    for folder in candidates:
        if folder.is_dir() and not _missing_packages(folder):
            return folder
    raise CranDataMissing(_missing_message(candidates))


def _missing_message(candidates: list[Path], reason: str = "") -> str:
    return (
        f"the CRAN benchmark ({N_SERIES} series of the packages "
        f"{', '.join(f'{p} {v}' for p, v in VERSIONS.items())}) is not here: looked in "
        + ", ".join(f"{c} ({_state(c)})" for c in candidates)
        + (f". {reason}" if reason else "")
        + ". Provide it either way: set "
        f"{CRAN_DIR_ENV}=DIR, a folder laid out as <package>/<series>.rda or holding the source "
        f"tarballs {', '.join(f'{p}_{v}.tar.gz' for p, v in VERSIONS.items())} (or call "
        f"load_cran(source=DIR)); or let `make reproduce` fetch the tarballs into "
        f"{cache_dir()} from {_mirror()} (set {MIRROR_ENV}=URL, the base address of a CRAN "
        "mirror, for another; `python -m storrepro data cran --download DIR` fetches them into "
        "any folder)."
    )


def _state(folder: Path) -> str:
    if not folder.is_dir():
        return "no such folder"
    missing = _missing_packages(folder)
    return f"lacks {', '.join(missing)}" if missing else "complete"


def _missing_packages(folder: Path) -> list[str]:
    return [p for p in VERSIONS if not (folder / p).is_dir() and not _tarball(folder, p).is_file()]


def _tarball(folder: Path, package: str) -> Path:
    return folder / f"{package}_{VERSIONS[package]}.tar.gz"


def _read_series(folder: Path, package: str, name: str) -> Series:
    try:
        values, frequency = parse_rda(series_bytes(folder, package, name), name)
    except (EOFError, OSError, ValueError, zlib.error, lzma.LZMAError, tarfile.TarError) as err:
        if isinstance(err, CranDataMissing | CranChecksumError):
            raise
        where = folder / package / f"{name}.rda"
        where = where if where.is_file() else _tarball(folder, package)
        raise ValueError(
            f"{where}: cannot read series {package}::{name} ({type(err).__name__}: {err}); a "
            f"truncated, damaged or unreadable file? delete it and {_FETCH_AGAIN}"
        ) from None
    return Series(package, name, values, frequency)


def series_bytes(folder: Path, package: str, name: str) -> bytes:
    """The ``.rda`` file of one series, from ``folder/<package>/`` or, checked against its
    pinned checksum, from the package's tarball in ``folder``."""
    rda = folder / package / f"{name}.rda"
    if rda.is_file():
        return rda.read_bytes()
    if _tarball(folder, package).is_file():
        with tarfile.open(_tarball(folder, package), "r:gz") as tar:
            return _member(tar, _tarball(folder, package), package, name)
    raise CranDataMissing(
        f"{rda}: no such file (nor {_tarball(folder, package)}), so no series {package}::{name}; "
        + _FETCH_AGAIN
    )


_FETCH_AGAIN = (
    "fetch the pinned package tarballs again with `python -m storrepro data cran --download DIR` "
    f"and set {CRAN_DIR_ENV}=DIR"
)


def _member(tar: tarfile.TarFile, path: Path | str, package: str, name: str) -> bytes:
    """One series' ``.rda`` member of an open package tarball, verified."""
    member = f"{package}/data/{name}.rda"
    try:
        data = tar.extractfile(member).read()
    except KeyError:
        raise CranDataMissing(f"{path} has no member {member}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != CHECKSUMS[package][name]:
        raise CranChecksumError(
            f"{path}: {member} of package {package} has SHA-256 {digest}, expected "
            f"{CHECKSUMS[package][name]} (the {package} {VERSIONS[package]} release): not the "
            "pinned file; delete the tarball and fetch it again, or from another mirror"
        )
    return data


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


def ensure_cran(mirror: str | None = None, progress: bool = True) -> Path:
    """The folder holding the benchmark; when none is found, the pinned tarballs are fetched
    into :func:`cache_dir` first, from ``mirror`` (default :func:`_mirror`). Raises
    :class:`CranDataMissing` saying where it looked and both ways to provide the data when the
    download fails (no network, say)."""
    try:
        return cran_source()
    except CranDataMissing:
        mirror = mirror or _mirror()
    try:
        with made_once(cache_dir() / ".fetch"):  # a run beside this one may be fetching
            if _missing_packages(cache_dir()):
                download_cran(cache_dir(), mirror, progress=progress)
    except OSError as error:
        raise CranDataMissing(
            _missing_message(default_sources(), f"Fetching from {mirror} failed: {error}")
        ) from None
    return cran_source()


def download_cran(
    directory: str | Path, mirror: str | None = None, progress: bool = True
) -> list[Path]:
    """Fetch the pinned package source tarballs into ``directory``; return their paths.

    ``mirror`` is the base address of a CRAN mirror (default :func:`_mirror`). The current
    version is tried first, then the mirror's archive. Every benchmark series in a fetched
    tarball is checked against :data:`CHECKSUMS` before the file is kept; tarballs already in
    ``directory`` are kept as they are (and checked when read).
    """
    mirror = mirror or _mirror()
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    bar = tqdm(VERSIONS, desc="CRAN tarballs", unit="package", disable=not progress)
    for package in bar:
        target = _tarball(directory, package)
        if not target.is_file():
            bar.set_postfix_str(target.name)
            file = target.name
            urls = [
                f"{mirror.rstrip('/')}/src/contrib/{file}",
                f"{mirror.rstrip('/')}/src/contrib/Archive/{package}/{file}",
            ]
            url, data = _fetch_first(urls)
            _verify(data, url, package)
            write_bytes_atomic(target, data)
        paths.append(target)
    return paths


def _mirror() -> str:
    """``$STORREPRO_CRAN_MIRROR`` when set, else :data:`DEFAULT_MIRROR`."""
    return os.environ.get(MIRROR_ENV) or DEFAULT_MIRROR


def _verify(data: bytes, where: str, package: str) -> None:
    """Every benchmark series of ``package`` in the tarball ``data``, against its checksum."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in SERIES[package]:
            _member(tar, where, package, name)


def _fetch_first(urls: list[str]) -> tuple[str, bytes]:
    errors = []
    for url in urls:
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                data = response.read()
            tarfile.open(fileobj=io.BytesIO(data), mode="r:gz").close()
            return url, data
        except (OSError, tarfile.TarError) as error:
            errors.append(f"{url}: {error}")
    raise OSError("could not download: " + "; ".join(errors))
