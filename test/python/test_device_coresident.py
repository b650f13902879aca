"""The device ops whose blocks wait on each other through global memory (the
decoupled look-back of scans, selections, run-length encodings and the
onesweep radix sort) on the simulator with co-resident blocks
(WARP_SIM_CORESIDENT_BLOCKS): eight blocks at a time, taking turns in both
orders, each warp yielding where it pauses between polls. Without it the
simulator runs each block to its end before the next, so every look-back
finds its predecessor's prefix at once; here look-backs meet predecessors
that have published only their totals, or nothing yet, as on a GPU. The
expected values are numpy's, from the definitions."""
import numpy as np
import pytest

import warp_mlir.device as wd
from conftest import requires_sim


@pytest.fixture(autouse=True)
def coresident(monkeypatch):
    monkeypatch.setenv("WARP_SIM_CORESIDENT_BLOCKS", "1")


@pytest.fixture
def rng():
    return np.random.default_rng(20261207)


# The kernel variant of each selection of i32 (warp_mlir.device's plan key).
VARIANTS = {"select": "add", "unique": "add", "run_length_encode": "i32",
            "non_trivial_runs": "i32,i32"}


def selection_tile(op):
    """The elements of a selection kernel's tile of i32 (its
    warp.device_grid)."""
    return wd._plan(op, VARIANTS[op], "i32", False, "sm_90").kernels[1].items


def runs_of(x):
    """Each run's first element and length (runs of numpy-equal neighbours)."""
    starts = np.flatnonzero(np.concatenate([[True], x[1:] != x[:-1]]))
    return x[starts], np.diff(np.append(starts, len(x)))


@requires_sim
def test_scan(rng):
    """Twenty tiles of i32: past the one-cluster scan, so scan_init and a
    look-back per tile."""
    tile = wd._plan("scan", "add", "i32", False, "sm_90").scratch[2]
    x = rng.integers(-9, 9, 20 * tile + 3).astype(np.int32)
    np.testing.assert_array_equal(wd.scan(x, backend="sim"), np.cumsum(x, dtype=np.int32))
    np.testing.assert_array_equal(wd.scan(x, exclusive=True, backend="sim"),
                                  np.concatenate([[0], np.cumsum(x, dtype=np.int32)[:-1]]))


@requires_sim
def test_select_and_unique(rng):
    """Twenty tiles: the kept counts' look-back."""
    n = 20 * selection_tile("select") + 5
    x = rng.integers(-3, 3, n).astype(np.int32)
    flags = rng.random(n) < 0.3
    out, count = wd.select(x, flags, backend="sim")
    assert int(count[0]) == int(flags.sum())
    np.testing.assert_array_equal(out[:int(count[0])], x[flags])
    out, count = wd.unique(x, backend="sim")
    first, _ = runs_of(x)
    assert int(count[0]) == len(first)
    np.testing.assert_array_equal(out[:len(first)], first)


@requires_sim
@pytest.mark.parametrize("longest", [5, 3000, 20000])
def test_run_length_encode(longest, rng):
    """Runs of 1 to `longest` elements over twenty tiles: short runs (every
    tile holds heads), and runs across one or several tiles, whose length
    the tile where each ends writes from the start that a tile before it
    stored, found by the look-back."""
    n = 20 * selection_tile("run_length_encode") + 7
    x = np.repeat(np.arange(n, dtype=np.int32), rng.integers(1, longest + 1, n))[:n]
    want_first, want_lengths = runs_of(x)
    first, lengths, count = wd.run_length_encode(x, backend="sim")
    assert int(count[0]) == len(want_first)
    np.testing.assert_array_equal(first[:len(want_first)], want_first)
    np.testing.assert_array_equal(lengths[:len(want_first)], want_lengths)


@requires_sim
@pytest.mark.parametrize("longest", [4, 3000, 20000])
def test_non_trivial_runs(longest, rng):
    """The runs of two or more, over twenty tiles (as above)."""
    n = 20 * selection_tile("non_trivial_runs") + 7
    x = np.repeat(np.arange(n, dtype=np.int32), rng.integers(1, longest + 1, n))[:n]
    starts = np.flatnonzero(np.concatenate([[True], x[1:] != x[:-1]]))
    lengths = np.diff(np.append(starts, n))
    long = lengths > 1
    offsets, got, count = wd.non_trivial_runs(x, backend="sim")
    k = int(long.sum())
    assert int(count[0]) == k
    np.testing.assert_array_equal(offsets[:k], starts[long])
    np.testing.assert_array_equal(got[:k], lengths[long])


@requires_sim
def test_radix_sort(rng):
    """Keys past the single tile: onesweep's passes, each tile looking back
    at the digit counts of the tiles before it."""
    x = rng.integers(-2**31, 2**31 - 1, 40000, dtype=np.int64).astype(np.int32)
    np.testing.assert_array_equal(wd.radix_sort(x, backend="sim"), np.sort(x))
