"""The static (n, k) codes of the paper, chunking of a file, and a real MDS round trip.

A file of J MB read with an (n, k) MDS code is split into k chunks of J/k MB and expanded into n
coded chunks; any k of them rebuild the file. The simulation needs only the code and
the chunk size; :func:`encode` / :func:`decode` show with a real Reed–Solomon code (``zfec``)
that the "any k of n" property the delay model relies on holds byte for byte, and
:func:`strip_batches` that one (12,6) code over 0.5 MB strips serves as the (2,1), (4,2) and
(6,3) codes of Fig. 3 by grouping 6, 3 or 2 consecutive coded strips into one chunk.
"""

from __future__ import annotations

import numbers
from itertools import combinations

import numpy as np
import zfec

from storrepro.suite.checks import finite, whole

FILE_MB = 3.0  # one class: read, 3 MB
K_MAX = 6
R_MAX = 2.0


def check_code(n, k, n_max: int | None = None) -> tuple[int, int]:
    """``(n, k)`` as ints, or ValueError unless 1 <= k <= n (<= n_max)."""
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in (n, k)):
        raise ValueError(f"code (n, k) must be integers, got ({n!r}, {k!r})")
    if not 1 <= k <= n:
        raise ValueError(f"code (n, k) = ({n}, {k}): need 1 <= k <= n")
    if n_max is not None and n > n_max:
        raise ValueError(f"code (n, k) = ({n}, {k}): n must be <= {n_max}")
    return int(n), int(k)


def static_codes(k_max: int = K_MAX, r_max: float = R_MAX) -> list[tuple[int, int]]:
    """All codes with 1 <= k <= k_max and k <= n <= floor(r_max·k): 27 for (6, 2)."""
    k_max, r_max = whole("k_max", k_max, minimum=1), finite("r_max", r_max, minimum=1)
    return [(n, k) for k in range(1, k_max + 1) for n in range(k, int(np.floor(r_max * k)) + 1)]


def chunk_size(k: int, file_mb: float = FILE_MB) -> float:
    """Chunk size J/k (MB)."""
    return file_mb / k


def encode(data: bytes, n: int, k: int) -> list[bytes]:
    """The n coded chunks of ``data`` (zero-padded to a multiple of k) under an (n, k) code."""
    n, k = check_code(n, k, n_max=256)
    size = -(-len(data) // k) if data else 1
    padded = data.ljust(size * k, b"\0")
    primary = [padded[i * size : (i + 1) * size] for i in range(k)]
    return list(zfec.Encoder(k, n).encode(primary, list(range(n))))


def decode(chunks: dict[int, bytes], n: int, k: int, length: int) -> bytes:
    """Rebuild the first ``length`` bytes from any k coded chunks ``{index: chunk}``."""
    n, k = check_code(n, k, n_max=256)
    if len(chunks) < k:
        raise ValueError(f"need k = {k} coded chunks to decode, got {len(chunks)}")
    if not all(0 <= i < n for i in chunks):
        raise ValueError(f"chunk indices must be in [0, {n}), got {sorted(chunks)}")
    indices = sorted(chunks)[:k]
    primary = zfec.Decoder(k, n).decode([chunks[i] for i in indices], indices)
    return b"".join(primary)[:length]


def round_trip(rng: np.random.Generator, n: int, k: int, size_bytes: int, trials: int = 20):
    """Encode random bytes, decode from ``trials`` random k-subsets; True if all are exact."""
    size_bytes = whole("size_bytes", size_bytes, minimum=1)
    trials = whole("trials", trials, minimum=1)
    data = rng.integers(0, 256, size_bytes, dtype=np.uint8).tobytes()
    coded = encode(data, n, k)
    for _ in range(trials):
        keep = rng.choice(n, size=k, replace=False)
        if decode({int(i): coded[i] for i in keep}, n, k, len(data)) != data:
            return False
    return True


def batch_strips(coded: list[bytes], per_chunk: int) -> list[list[int]]:
    """Strip indices of each chunk when ``per_chunk`` consecutive coded strips form one chunk."""
    if per_chunk < 1 or len(coded) % per_chunk:
        raise ValueError(f"{per_chunk} strips per chunk do not divide {len(coded)} coded strips")
    return [list(range(j, j + per_chunk)) for j in range(0, len(coded), per_chunk)]


def strip_batches(
    data: bytes, n_strips: int = 12, k_strips: int = 6, per_chunk=(6, 3, 2)
) -> dict[str, bool]:
    """One (n_strips, k_strips) code over strips, read with m strips per chunk for each m in
    ``per_chunk``: an (n_strips/m, k_strips/m) code over chunks. For every m, every subset of
    k_strips/m chunks is decoded from the strips it holds; ``{"(n,k)": all exact}``."""
    coded = encode(data, n_strips, k_strips)
    out = {}
    for m in per_chunk:
        if k_strips % m:
            raise ValueError(f"{m} strips per chunk do not divide k = {k_strips}")
        chunks = batch_strips(coded, m)
        n, k = len(chunks), k_strips // m
        exact = True
        for subset in combinations(range(n), k):
            strips = {i: coded[i] for c in subset for i in chunks[c]}
            exact &= decode(strips, n_strips, k_strips, len(data)) == data
        out[f"({n},{k})"] = bool(exact)
    return out
