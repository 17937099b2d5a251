"""Static codes and the zfec MDS round trip (any k of n coded chunks rebuild the file)."""

from itertools import combinations

import numpy as np
import pytest

from storrepro.papers.tofec.codes import (
    batch_strips,
    check_code,
    chunk_size,
    decode,
    encode,
    round_trip,
    static_codes,
    strip_batches,
)


def test_the_27_static_codes():
    codes = static_codes()
    assert len(codes) == 27
    assert codes[:5] == [(1, 1), (2, 1), (2, 2), (3, 2), (4, 2)]
    assert codes[-1] == (12, 6) and (6, 6) in codes and (7, 3) not in codes
    assert all(k <= n <= 2 * k for n, k in codes)


def test_chunk_sizes_of_fig3():
    assert [chunk_size(k) for k in (1, 2, 3, 6)] == [3.0, 1.5, 1.0, 0.5]


@pytest.mark.parametrize(("n", "k"), [(2, 1), (4, 2), (6, 3), (5, 3)])
def test_every_k_subset_rebuilds_the_bytes(n, k):
    data = np.random.default_rng(n * 10 + k).integers(0, 256, 10_001, dtype=np.uint8).tobytes()
    coded = encode(data, n, k)
    assert len(coded) == n and all(len(c) == len(coded[0]) for c in coded)
    for subset in combinations(range(n), k):
        assert decode({i: coded[i] for i in subset}, n, k, len(data)) == data


def test_one_12_6_code_batched_into_2_1_4_2_and_6_3_chunk_codes():
    # Fig. 3: a file in 6 strips, coded into 12; 6, 3 or 2 consecutive strips form one chunk.
    data = np.random.default_rng(3).integers(0, 256, 6 * 1000 + 7, dtype=np.uint8).tobytes()
    coded = encode(data, 12, 6)
    assert batch_strips(coded, 6) == [list(range(6)), list(range(6, 12))]  # strips 1-6, 7-12
    assert batch_strips(coded, 2)[1] == [2, 3]
    assert strip_batches(data) == {"(2,1)": True, "(4,2)": True, "(6,3)": True}


def test_strip_batching_needs_the_strips_of_k_chunks():
    # 2 strips per chunk: any 2 chunks (4 strips) of the (6,3) chunk code are too few.
    data = bytes(range(256)) * 10
    coded = encode(data, 12, 6)
    two_chunks = {i: coded[i] for chunk in batch_strips(coded, 2)[:2] for i in chunk}
    with pytest.raises(ValueError, match="need k = 6"):
        decode(two_chunks, 12, 6, len(data))
    with pytest.raises(ValueError, match="do not divide"):
        strip_batches(data, per_chunk=(4,))


def test_fewer_than_k_chunks_cannot_decode():
    coded = encode(b"hello world", 4, 2)
    with pytest.raises(ValueError, match="need k = 2"):
        decode({0: coded[0]}, 4, 2, 11)


def test_round_trip_of_a_3mb_object_with_the_12_6_code():
    assert round_trip(np.random.default_rng(0), 12, 6, 3 * 2**20, trials=3)


def test_bad_codes():
    with pytest.raises(ValueError, match="1 <= k <= n"):
        check_code(2, 3)
    with pytest.raises(ValueError, match="n must be <= 12"):
        check_code(13, 6, n_max=12)
    with pytest.raises(ValueError, match="integers"):
        check_code(2.5, 1)
    with pytest.raises(ValueError, match="k_max"):
        static_codes(0)
