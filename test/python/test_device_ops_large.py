"""The device-wide ops past 2^31 elements, on the GPU (cupy arrays; the
references from cupy on the same device, in 64-bit where the op wraps).

Every op's 64-bit element positions, counts and tile prefixes are tested
here where 32-bit ones would overflow: n = 2^31 + 5 (i8 samples, flags and
keys; i32 values; a radix sort's i32 keys). Each case needs up to ~30 GB of
device memory and a few seconds; they run where a GPU with that much memory
is present (`WARP_LARGE_TESTS=0` skips them).
"""
import os

import pytest

import warp_mlir.device as wd
from conftest import requires_gpu

cp = pytest.importorskip("cupy") if os.environ.get("WARP_LARGE_TESTS", "1") != "0" else None

N = 2 ** 31 + 5

pytestmark = [requires_gpu, pytest.mark.skipif(cp is None, reason="WARP_LARGE_TESTS=0")]


@pytest.fixture(autouse=True)
def enough_memory():
    """One case at a time on the machine, whatever pytest-xdist's workers
    run (two at once do not fit in the device's memory): each holds an
    exclusive lock on one file while it runs."""
    import fcntl
    import tempfile
    with open(os.path.join(tempfile.gettempdir(), "warp-large-tests.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        free, _ = cp.cuda.runtime.memGetInfo()
        if free < 40 * 2 ** 30:
            pytest.skip(f"needs 40 GiB of free device memory, has {free / 2 ** 30:.1f}")
        try:
            yield
        finally:
            cp.get_default_memory_pool().free_all_blocks()


def positions(n):
    return cp.arange(n, dtype=cp.int64)


def test_reduce_and_scan_wrap():
    x = cp.random.default_rng(1).integers(-1000, 1000, N, dtype=cp.int32)
    total = wd.reduce(x, "add")
    want = int(cp.sum(x, dtype=cp.int64)) & 0xFFFFFFFF
    assert int(total[0]) & 0xFFFFFFFF == want
    scanned = wd.scan(x, "add")
    want_scan = cp.cumsum(x, dtype=cp.int64).astype(cp.int32)  # mod 2^32
    assert bool(cp.array_equal(scanned, want_scan))
    del scanned, want_scan
    excl = wd.scan(x, "add", exclusive=True)
    assert int(excl[0]) == 0
    assert bool(cp.array_equal(excl[1:], cp.cumsum(x[:-1], dtype=cp.int64).astype(cp.int32)))


# The selections' references are formulas of the position, not cupy's
# boolean indexing over 2^31 elements.
SKIP = 2 ** 30  # the elements at 7 mod 2^30 (two of them) have flag 0
CHUNK = 2 ** 28  # the references' elements built at a time


def test_select_and_partition_counts_past_2_31():
    i = positions(N)
    x = i.astype(cp.int32)  # the position, mod 2^32
    flags = (i % SKIP != 7).astype(cp.int8)
    del i
    rejected = (N - 7 + SKIP - 1) // SKIP
    kept = N - rejected

    def kept_equal(got):
        # The j-th kept element: position (j // (SKIP - 1)) * SKIP + r, r =
        # j % (SKIP - 1), past 7 one more; built a chunk at a time (the
        # int64 temporaries of all 2^31 at once do not fit an 80 GB card
        # beside the inputs and outputs).
        for first in range(0, kept, CHUNK):
            j = cp.arange(first, min(first + CHUNK, kept), dtype=cp.int64)
            r = j % (SKIP - 1)
            want = ((j // (SKIP - 1)) * SKIP + r + (r >= 7)).astype(cp.int32)
            if not bool(cp.array_equal(got[first:first + j.size], want)):
                return False
        return True

    out, count = wd.select(x, flags)
    assert int(count[0]) == kept > 2 ** 31
    assert kept_equal(out)
    del out
    parted, count = wd.partition(x, flags)
    assert int(count[0]) == kept
    assert kept_equal(parted)
    # The rejected ones after them, the last first: 7 + SKIP m, m down.
    back = (7 + SKIP * (rejected - 1 - positions(rejected))).astype(cp.int32)
    assert bool(cp.array_equal(parted[kept:], back))


def test_unique_and_run_length_encode():
    keys = (positions(N) // 2).astype(cp.int32)  # runs of 2; N is odd: a last run of 1
    runs = (N + 1) // 2
    out, count = wd.unique(keys)
    assert int(count[0]) == runs
    assert bool(cp.array_equal(out[:runs], positions(runs).astype(cp.int32)))
    del out
    first, lengths, num = wd.run_length_encode(keys)  # int64 lengths at this n
    assert int(num[0]) == runs and lengths.dtype == cp.int64
    assert bool(cp.array_equal(first[:runs], positions(runs).astype(cp.int32)))
    assert bool(cp.all(lengths[:runs - 1] == 2)) and int(lengths[runs - 1]) == 1
    del first, lengths, keys
    # One run of all n elements: a length past 2^31 in int64.
    same = cp.zeros(N, dtype=cp.int8)
    first, lengths, num = wd.run_length_encode(same)
    assert int(num[0]) == 1 and int(lengths[0]) == N and int(first[0]) == 0


def test_non_trivial_runs():
    """Offsets and lengths past 2^31 (new outputs: int64 at this n)."""
    keys = (positions(N) // 2).astype(cp.int32)  # runs of 2; a last run of 1
    offsets, lengths, num = wd.non_trivial_runs(keys)
    runs = N // 2
    assert int(num[0]) == runs and offsets.dtype == cp.int64 and lengths.dtype == cp.int64
    assert bool(cp.array_equal(offsets[:runs], 2 * positions(runs)))
    assert bool(cp.all(lengths[:runs] == 2))
    del offsets, lengths, keys
    # One run of all n elements.
    offsets, lengths, num = wd.non_trivial_runs(cp.zeros(N, dtype=cp.int8))
    assert int(num[0]) == 1 and int(offsets[0]) == 0 and int(lengths[0]) == N


def test_scan_by_key():
    """The keys and the reference built a chunk at a time: the int64
    positions of all 2^31 and their temporaries beside the inputs and the
    output took 85 GB (an 80 GB card failed the test, and every test of the
    other workers while the failure's traceback held the arrays)."""
    keys = cp.empty(N, dtype=cp.int32)  # segments of 3
    for first in range(0, N, CHUNK):
        i = cp.arange(first, min(first + CHUNK, N), dtype=cp.int64)
        keys[first:first + i.size] = (i // 3).astype(cp.int32)
    x = cp.ones(N, dtype=cp.int32)
    got = wd.scan(x, "add", keys=keys)
    del keys
    for first in range(0, N, CHUNK):
        i = cp.arange(first, min(first + CHUNK, N), dtype=cp.int64)
        assert bool(cp.array_equal(got[first:first + i.size], (i % 3 + 1).astype(cp.int32)))
    del got, i
    # One segment of all n: the inclusive count wraps past 2^31 as int32.
    one = wd.scan(x, "add", keys=cp.zeros(N, dtype=cp.int8))
    assert int(one[-1]) == (N & 0xFFFFFFFF) - 2 ** 32


def test_histogram():
    samples = (positions(N) % 256).astype(cp.uint8)
    counts = wd.histogram(samples, 256, dtype="int64")
    want = cp.full(256, N // 256, dtype=cp.int64)
    want[:N % 256] += 1
    assert bool(cp.array_equal(counts, want))


def test_radix_sort_counts_past_2_31():
    """A radix sort's look-back status words are 64 bits wide from 2^31
    keys: keys (N - 1 - i) mod 2^24 (i32), so that the top byte's pass
    counts all N keys as digit 0x80 (the signed image's) and each lower
    byte's digits take ~2^23 keys; the sorted output's value at j is a
    formula of j (values 0..4 appear 129 times, the others 128)."""
    span, extra = 2 ** 24, N % 2 ** 24  # extra (5) values appear once more
    keys = cp.empty(N, dtype=cp.int32)
    for first in range(0, N, CHUNK):
        i = cp.arange(first, min(first + CHUNK, N), dtype=cp.int64)
        keys[first:first + i.size] = ((N - 1 - i) % span).astype(cp.int32)
    got = wd.radix_sort(keys)
    del keys
    repeats = N // span  # 128
    crowded = extra * (repeats + 1)  # the positions of the values seen 129 times
    for first in range(0, N, CHUNK):
        j = cp.arange(first, min(first + CHUNK, N), dtype=cp.int64)
        want = cp.where(j < crowded, j // (repeats + 1), extra + (j - crowded) // repeats)
        assert bool(cp.array_equal(got[first:first + j.size], want.astype(cp.int32)))
