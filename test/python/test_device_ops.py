"""warp.device_reduce / warp.device_scan from Python (warp_mlir.device):
every kind on every element type of its domain, reductions and inclusive
and exclusive scans, at the sizes around a scan tile (256 threads x 64
bytes: 4096 4-byte or 2048 8-byte elements) and a reduce_tiles block (4
tiles: 16384 or 8192 elements), against numpy folds written from the
definitions (x_0 (kind) ... (kind) x_{n-1}; an exclusive scan starts with
the kind's identity, a reduction of nothing is the identity). On the SIMT
simulator everywhere, on a GPU (numpy, torch and cupy arrays) where there
is one."""
import numpy as np
import pytest

import warp_mlir as wm
import warp_mlir.device as wd
from conftest import BACKENDS, SIM, requires_gpu, requires_sim

INT_KINDS = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
FLOAT_KINDS = ["add", "mul", "minimumf", "maximumf", "minnumf", "maxnumf"]
CASES = ([(kind, dtype) for dtype in (np.int32, np.int64) for kind in INT_KINDS] +
         [(kind, dtype) for dtype in (np.float32, np.float64) for kind in FLOAT_KINDS])
IDS = [f"{kind}-{np.dtype(dtype).name}" for kind, dtype in CASES]


# -- the definitions -------------------------------------------------------------------------

def _unsigned(dtype):
    return np.dtype(f"uint{8 * np.dtype(dtype).itemsize}")


def identity(kind, dtype):
    """The kind's identity (what an exclusive scan starts with)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return dtype.type({"add": 0.0, "mul": 1.0, "minimumf": np.inf, "minnumf": np.inf,
                           "maximumf": -np.inf, "maxnumf": -np.inf}[kind])
    info = np.iinfo(dtype)
    return dtype.type({"add": 0, "mul": 1, "minsi": info.max, "maxsi": info.min, "minui": -1,
                       "maxui": 0, "and": -1, "or": 0, "xor": 0}[kind])


# The fold of each kind as a numpy ufunc and the view it works on: signed
# integers wrap (numpy's array arithmetic is modular), the unsigned kinds
# compare the bits as unsigned, fmin/fmax ignore a NaN, minimum/maximum
# propagate it.
UFUNCS = {"add": np.add, "mul": np.multiply, "minsi": np.minimum, "maxsi": np.maximum,
          "minui": np.minimum, "maxui": np.maximum, "and": np.bitwise_and,
          "or": np.bitwise_or, "xor": np.bitwise_xor, "minimumf": np.minimum,
          "maximumf": np.maximum, "minnumf": np.fmin, "maxnumf": np.fmax}


def inclusive(kind, x):
    """out[i] = x_0 (kind) ... (kind) x_i, folded left to right."""
    view = x.view(_unsigned(x.dtype)) if kind in ("minui", "maxui") else x
    with np.errstate(all="ignore"):
        out = UFUNCS[kind].accumulate(view, dtype=view.dtype) if len(x) else view.copy()
    return out.view(x.dtype)


def exclusive(kind, x):
    """out[0] = identity, out[i] = x_0 (kind) ... (kind) x_{i-1}."""
    return np.concatenate([[identity(kind, x.dtype)], inclusive(kind, x)[:-1]]).astype(x.dtype)[:len(x)]


def reduction(kind, x):
    """x_0 (kind) ... (kind) x_{n-1}, the identity for n = 0."""
    return inclusive(kind, x)[-1] if len(x) else identity(kind, x.dtype)


def data(kind, dtype, n, rng):
    """n values for `kind` whose folds are exact in any order (integer-valued
    floats for add, mostly ones for mul) and keep changing over the whole
    array (sparse bits for and/or, odd factors for an integer mul)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        bits = 8 * dtype.itemsize
        if kind == "mul":  # odd factors never reach 0 mod 2^bits
            return rng.choice(np.array([1, -1, 3, -3, 5, 7, -7], dtype), n)
        if kind == "and":  # one bit cleared at a time
            return ~(np.ones(n, dtype) << rng.integers(0, bits, n).astype(dtype))
        if kind == "or":
            return np.ones(n, dtype) << rng.integers(0, bits, n).astype(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    if kind == "add":
        return rng.integers(-100, 101, n).astype(dtype)
    if kind == "mul":
        x = np.ones(n, dtype)
        spots = rng.integers(0, max(n, 1), min(n, 12))
        x[spots] = rng.choice(np.array([2.0, 0.5, -1.0, 3.0], dtype), len(spots))
        return x
    x = (rng.standard_normal(n) * 1e3).astype(dtype)
    if n > 8:
        x[rng.integers(0, n, 2)] = np.inf
        x[rng.integers(0, n, 2)] = -np.inf
    return x


def tile_items(op, dtype, kind="add", cluster=1, alone=True, keys=None, exclusive=False,
               chip="sm_90"):
    """The elements of one tile of a scan's kernel (a look-back status
    word's: warp.device_scratch's tile, per block of a cluster; by `keys`
    of that dtype where given), or the most a reduction's one block takes
    alone (warp.device_grid_single; a reduce_tiles tile, warp.device_grid,
    where not `alone`), for elements of `dtype`, as warp-expand-device-ops
    tiles them (the plan a call with these arguments launches)."""
    element = wd._TYPES[np.dtype(dtype).name]
    key = "" if keys is None else wd._TYPES[np.dtype(keys).name]
    plan = wd._plan(op, kind, element, exclusive, chip, cluster, key)
    if op == "scan":
        return plan.scratch[2] // cluster
    return plan.kernels[0].single if alone else plan.kernels[0].items


def sizes(dtype, op):
    """Small sizes and the ones around a scan tile (scans) or a
    reduce_tiles block (reductions) for elements of `dtype`."""
    small = [0, 1, 31, 33]
    tile = tile_items(op, dtype)
    if op == "scan":
        return small + [tile - 1, tile, tile + 1, 3 * tile + 1]
    return small + [tile - 1, tile, tile + 1, 3 * tile + 5]


def check(got, want, what):
    assert got.dtype == want.dtype, what
    np.testing.assert_array_equal(got, want, err_msg=what)


# -- every kind, type and size ---------------------------------------------------------------

@pytest.fixture
def rng():
    return np.random.default_rng(20261203)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind,dtype", CASES, ids=IDS)
def test_reduce(backend, kind, dtype, rng):
    for n in sizes(dtype, "reduce"):
        x = data(kind, dtype, n, rng)
        got = wd.reduce(x, kind, backend=backend)
        assert got.shape == (1,)
        check(got, np.array([reduction(kind, x)], x.dtype), f"reduce <{kind}> n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind,dtype", CASES, ids=IDS)
def test_scan(backend, kind, dtype, rng):
    """Every kind and type at sizes around a tile: one tile is one block;
    2 to 8 tiles one cluster (scan_one_cluster) for sm_90, a block a tile
    with the look-back for sm_80 (which has no clusters), checked at the
    largest size."""
    many = sizes(dtype, "scan")[-1]
    for n, chip in [(n, "sm_90") for n in sizes(dtype, "scan")] + [(many, "sm_80")]:
        x = data(kind, dtype, n, rng)
        before = x.copy()
        check(wd.scan(x, kind, chip=chip, backend=backend), inclusive(kind, x),
              f"scan <{kind}> n={n} {chip}")
        check(wd.scan(x, kind, exclusive=True, chip=chip, backend=backend), exclusive(kind, x),
              f"exclusive scan <{kind}> n={n} {chip}")
        check(x, before, "the input is left as it is")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_many_tiles(backend, dtype, rng):
    """More than 32 scan tiles (a look-back past its first window where
    blocks run at once) and many reduce_tiles blocks."""
    n = 40 * tile_items("scan", dtype) + 7
    x = rng.integers(-50, 50, n).astype(dtype)
    check(wd.scan(x, "add", backend=backend), inclusive("add", x), "scan")
    check(wd.scan(x, "maxsi" if dtype == np.int32 else "maxnumf", exclusive=True,
                  backend=backend),
          exclusive("maxsi" if dtype == np.int32 else "maxnumf", x), "exclusive scan")
    check(wd.reduce(x, "add", backend=backend), np.array([x.sum(dtype=dtype)]), "reduce")


@pytest.mark.parametrize("backend", BACKENDS)
def test_more_than_a_block_of_tiles(backend, rng):
    """More than 256 scan tiles (scan_init clears their status words in
    two blocks) and more than 256 reduce_tiles partials (reduce_finish's
    threads take two each)."""
    x = rng.integers(-100, 100, 257 * tile_items("scan", np.int32) + 3).astype(np.int32)
    check(wd.scan(x, "add", exclusive=True, backend=backend), exclusive("add", x), "scan")
    x = rng.integers(-100, 100, 257 * tile_items("reduce", np.int32, alone=False) +
                     17).astype(np.int32)
    check(wd.reduce(x, "add", backend=backend), np.array([x.sum(dtype=np.int32)]), "reduce")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cluster", [2, 4, 8])
@pytest.mark.parametrize("kind,dtype", [("add", np.int32), ("maxsi", np.int64),
                                        ("add", np.float32), ("minnumf", np.float64),
                                        ("xor", np.int8)])
def test_scan_in_clusters(backend, cluster, kind, dtype, rng):
    """cluster_blocks: tiles scanned in thread-block clusters, a look-back
    per cluster; sizes around a cluster's tiles, past the 8 tiles that one
    cluster of 8 takes alone on sm_90 (scan_one_cluster: from there the
    op's own clusters look back at each other) and past a look-back
    window of clusters (on the simulator with clusters of 2 only),
    inclusive and exclusive, with NaN inputs for minnumf."""
    tile = tile_items("scan", dtype, kind, cluster)
    lengths = [0, 1, 33, tile + 1, cluster * tile - 1, cluster * tile, cluster * tile + 1,
               9 * tile + 1]
    if backend == "cuda" or cluster == 2:
        lengths.append(40 * cluster * tile + 7)
    for n in lengths:
        x = data(kind, dtype, n, rng)
        if dtype == np.float64 and n > 8:
            x[rng.integers(0, n, 3)] = np.nan
        check(wd.scan(x, kind, backend=backend, cluster_blocks=cluster), inclusive(kind, x),
              f"inclusive, n = {n}")
        check(wd.scan(x, kind, exclusive=True, backend=backend, cluster_blocks=cluster),
              exclusive(kind, x), f"exclusive, n = {n}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cluster", [2, 4, 8])
@pytest.mark.parametrize("kind,dtype", [("add", np.int32), ("maxsi", np.int64),
                                        ("add", np.float32), ("maximumf", np.float64),
                                        ("or", np.int16)])
def test_reduce_in_clusters(backend, cluster, kind, dtype, rng):
    """cluster_blocks: the folding blocks combine their partials per
    cluster; sizes below what one block takes alone (4 tiles), around a
    cluster's tiles and (on a GPU) past the grid cap (4096 blocks, each
    then folding several tiles)."""
    chunk = tile_items("reduce", dtype, kind, cluster)
    lengths = [0, 1, 33, chunk + 1, cluster * chunk - 1, cluster * chunk + 1]
    if backend == "cuda":
        lengths.append(4096 * chunk + 3 * chunk + 5)
    for n in lengths:
        x = data(kind, dtype, n, rng)
        check(wd.reduce(x, kind, backend=backend, cluster_blocks=cluster),
              np.array([reduction(kind, x)]), f"n = {n}")


# -- a grid of one block: reduce_tiles writes the result, reduce_finish is skipped -------------

# Every kind on i32, f32 and the narrow f16; a few on i8 (64 items a thread).
ONE_BLOCK_CASES = ([(kind, np.int32) for kind in INT_KINDS] +
                   [(kind, np.float32) for kind in FLOAT_KINDS] +
                   [(kind, np.float16) for kind in FLOAT_KINDS] +
                   [(kind, np.int8) for kind in ("add", "minsi", "xor")])


@pytest.mark.parametrize("backend", SIM)
@pytest.mark.parametrize("kind,dtype", ONE_BLOCK_CASES,
                         ids=[f"{kind}-{np.dtype(dtype).name}" for kind, dtype in ONE_BLOCK_CASES])
def test_reduce_one_block(backend, kind, dtype, rng, device_launches):
    """Where reduce_tiles runs one block (n within 4 tiles, what one block
    takes alone), that block writes the result and reduce_finish is not
    launched (the module says so: warp.device_skip_if_single); past that,
    a block per tile, and both run. n = 0, 1, 31, a tile, a tile + 1, 4
    tiles, 4 tiles + 1, and 12 tiles + 5 on a narrow type's last kind
    (test_reduce has them for the others; the simulator is slow)."""
    launched = device_launches
    tile = tile_items("reduce", dtype, kind, alone=False)
    chunk = tile_items("reduce", dtype, kind)
    lengths = [0, 1, 31, tile, tile + 1, chunk, chunk + 1]
    if kind in ("xor", "maxnumf") and np.dtype(dtype).itemsize < 4:
        lengths.append(3 * chunk + 5)
    for n in lengths:
        if dtype == np.float16 and kind == "add":  # sums exact in f16 in any order
            x = rng.integers(-1, 2, n).astype(dtype)
        else:
            x = data(kind, dtype, n, rng)
        launched.clear()
        got = wd.reduce(x, kind, backend=backend)
        check(got, np.array([reduction(kind, x)], x.dtype), f"reduce <{kind}> n={n}")
        blocks = 1 if n <= chunk else -(-n // tile)
        assert launched == [("reduce_tiles", blocks)] + \
            ([("reduce_finish", 1)] if blocks > 1 else []), f"n={n}"


@pytest.mark.parametrize("backend", SIM)
def test_reduce_one_block_empty_identity(backend, device_launches):
    """The one block of an empty input writes the identity, not the padding
    (-0.0 for a float sum, NaN for minnumf)."""
    got = wd.reduce(np.zeros(0, np.float32), "add", backend=backend)
    assert got.tobytes() == np.float32(0.0).tobytes()
    got = wd.reduce(np.zeros(0, np.float32), "minnumf", backend=backend)
    assert got[0] == np.inf
    assert device_launches == [("reduce_tiles", 1), ("reduce_tiles", 1)]


@pytest.mark.parametrize("backend", SIM)
@pytest.mark.parametrize("cluster", [2, 8])
def test_reduce_one_cluster_skips_finish(backend, cluster, rng, device_launches):
    """In clusters, an input that one block takes alone is one launch of
    one block without clusters (reduce_one_block), which writes the
    result; past it the grid is whole clusters: where it is one cluster
    (clusters of 8, 5 to 8 tiles) the cluster's first block writes the
    result and reduce_finish is skipped; from two clusters on it runs."""
    tile = tile_items("reduce", np.int32, "add", alone=False)
    chunk = tile_items("reduce", np.int32, "add")
    for n in [0, 33, chunk, chunk + 1, 2 * cluster * tile + 1]:
        device_launches.clear()
        x = rng.integers(-100, 100, n).astype(np.int32)
        check(wd.reduce(x, "add", backend=backend, cluster_blocks=cluster),
              np.array([x.sum(dtype=np.int32)]), f"n={n}")
        clusters = -(-(-(-n // tile)) // cluster)
        assert device_launches == ([("reduce_one_block", 1)] if n <= chunk else
                                   [("reduce_tiles", clusters * cluster)] +
                                   ([("reduce_finish", 1)] if clusters > 1 else [])), f"n={n}"


@pytest.mark.parametrize("backend", SIM)
def test_one_tile_skips_scan_init(backend, rng, device_launches):
    """A scan or selection of one tile looks back at no status word, so
    scan_init (which clears them) is not launched (warp.device_skip_before_single);
    from two tiles on every kernel runs. In clusters the grid is whole clusters:
    one cluster looks back at none either, two do; so a scan of 2 to 8
    tiles (sm_90, the default chip) is one launch of one cluster of 8
    blocks, in clusters of 2 too, and from 9 tiles on scan_init runs."""
    tile = tile_items("scan", np.int32)
    for n in (8 * tile, 8 * tile + 1):
        device_launches.clear()
        check(wd.scan(np.ones(n, np.int32), backend=backend), np.arange(1, n + 1, dtype=np.int32),
              f"scan n={n}")
        assert device_launches == ([("scan_one_cluster", 8)] if n == 8 * tile else
                                   [("scan_init", 1), ("scan", 9)]), f"scan n={n}"
    for n in (0, 1, tile, tile + 1):
        x = rng.integers(-5, 5, n).astype(np.int32)
        tiles = max(1, -(-n // tile))
        device_launches.clear()
        check(wd.scan(x, backend=backend), np.cumsum(x, dtype=np.int32), f"scan n={n}")
        assert device_launches == [("scan", 1) if tiles == 1 else ("scan_one_cluster", 8)], \
            f"scan n={n}"

        # The selection kernel's tile (its warp.device_grid).
        select_tile = wd._plan("run_length_encode", "i32", "i32", False, "sm_90").kernels[1].items
        runs = np.repeat(np.arange(n), 3)[:n].astype(np.int32)  # runs of 3
        tiles = max(1, -(-n // select_tile))
        init = [("scan_init", 1)] if tiles > 1 else []
        device_launches.clear()
        first, counts, num_runs = wd.run_length_encode(runs, backend=backend)
        want = -(-n // 3)
        assert num_runs[0] == want, f"run_length_encode n={n}"
        assert np.array_equal(first[:want], np.arange(want, dtype=np.int32))
        assert np.array_equal(counts[:want], np.minimum(3, n - 3 * np.arange(want)))
        assert device_launches == init + [("run_length_encode", tiles)], \
            f"run_length_encode n={n}"

        # The non-trivial runs: one tile ends all its runs itself.
        device_launches.clear()
        offsets, lengths, num_runs = wd.non_trivial_runs(runs, backend=backend)
        long_runs = [r for r in range(want) if n - 3 * r >= 2]
        assert num_runs[0] == len(long_runs), f"non_trivial_runs n={n}"
        assert np.array_equal(offsets[:len(long_runs)], 3 * np.array(long_runs, np.int32))
        assert np.array_equal(lengths[:len(long_runs)],
                              np.minimum(3, n - 3 * np.array(long_runs, np.int64)))
        assert device_launches == init + [("non_trivial_runs", tiles)], \
            f"non_trivial_runs n={n}"
    for n, launches in ((5, [("scan", 2)]), (2 * tile + 1, [("scan_one_cluster", 8)]),
                        (8 * tile + 1, [("scan_init", 1), ("scan", 10)])):
        device_launches.clear()
        check(wd.scan(np.ones(n, np.int32), backend=backend, cluster_blocks=2),
              np.arange(1, n + 1, dtype=np.int32), f"clusters of 2, n={n}")
        assert device_launches == launches, f"clusters of 2, n={n}"


@pytest.mark.parametrize("backend", SIM)
@pytest.mark.parametrize("kind,dtype", [("add", np.float32), ("add", np.float16),
                                        ("mul", np.float64), ("minnumf", np.float32),
                                        ("maximumf", np.float32)])
def test_reduce_one_block_bits(backend, kind, dtype, rng):
    """The one launch gives the bits of the two-kernel path: reduce_tiles of
    one block, then reduce_finish (which may still run after it: the block
    writes its partial as well), on values whose float rounding depends on
    the combine order."""
    n = 3000
    x = rng.standard_normal(n).astype(dtype)
    if kind == "mul":
        x = (1 + rng.standard_normal(n) / 64).astype(dtype)
    if kind == "minnumf":
        x[[3, 700]] = np.nan
    one = wd.reduce(x, kind, backend=backend)
    plan = wd._plan("reduce", kind, wd._element_type(x), False, "sm_90")
    two = np.full(1, np.nan, dtype)
    scratch = np.zeros(plan.scratch_bytes(n), np.int8)
    for kernel in ("reduce_tiles", "reduce_finish"):
        wd.launch(plan.compiled, kernel, 1, 256, x, two, scratch, n, backend=backend)
    assert one.tobytes() == two.tobytes(), (one, two)
    np.testing.assert_allclose(one.astype(np.float64), [reduction(kind, x.astype(np.float64))],
                               rtol=2e-2 if dtype == np.float16 else 1e-5)


def test_reduce_out_is_not_x():
    x = np.arange(10, dtype=np.int32)
    with pytest.raises(ValueError, match="out must not be x"):
        wd.reduce(x, out=x, backend="sim")


def test_scan_cluster_errors():
    x = np.zeros(10, np.int32)
    with pytest.raises(ValueError, match="cluster_blocks must be 1"):
        wd.scan(x, cluster_blocks=9, backend="sim")
    with pytest.raises(ValueError, match="cluster_blocks must be 1"):
        wd.reduce(x, cluster_blocks=0, backend="sim")


# -- scan by key ------------------------------------------------------------------------------

def segment_heads(keys):
    """Where a segment starts: i = 0 and keys[i] != keys[i-1] (numpy's !=:
    -0.0 equals 0.0, a NaN differs from everything)."""
    with np.errstate(invalid="ignore"):
        return np.concatenate([[True], keys[1:] != keys[:-1]])[:len(keys)]


def scan_by_key(kind, x, keys, exclusive_):
    """Each segment of `keys` scanned on its own by the definitions above
    (an exclusive one starts with the identity)."""
    starts = np.flatnonzero(segment_heads(keys[:len(x)])).tolist() + [len(x)]
    fold = exclusive if exclusive_ else inclusive
    out = np.empty_like(x)
    for start, end in zip(starts, starts[1:]):
        out[start:end] = fold(kind, x[start:end])
    return out


def key_patterns(n, rng, dtype=np.int32):
    """Keys of `n` elements: short runs, a random alphabet of 3 (runs of
    any length, many of 1), one segment, every element a segment."""
    runs = np.repeat(rng.integers(0, 4, n), rng.integers(1, 9, n))[:n]
    return {"runs": runs.astype(dtype), "alphabet3": rng.integers(0, 3, n).astype(dtype),
            "one": np.zeros(n, dtype), "each": np.arange(n).astype(dtype)}


def rotated_key_patterns(sizes_, rng, dtype=np.int32):
    """(n, pattern name, keys) for each of `sizes_`, the patterns of
    key_patterns taken in turn (each size one pattern, every pattern at
    every fourth size): the simulator runs each check as a launch, and the
    four patterns at every size cost four times the suite's time."""
    for i, n in enumerate(sizes_):
        patterns = list(key_patterns(n, rng, dtype).items())
        name, keys = patterns[i % len(patterns)]
        yield n, name, keys


def check_scan_by_key(backend, kind, x, keys, what, modes=(False, True)):
    before = keys.copy()
    for exclusive_ in modes:
        got = wd.scan(x, kind, exclusive=exclusive_, keys=keys, backend=backend)
        check(got, scan_by_key(kind, x, keys, exclusive_),
              f"{'exclusive' if exclusive_ else 'inclusive'} scan <{kind}> by key, {what}")
    np.testing.assert_array_equal(keys.view(_unsigned(keys.dtype)),
                                  before.view(_unsigned(keys.dtype)), "keys are left as they are")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind,dtype", CASES, ids=IDS)
def test_scan_by_key(backend, kind, dtype, rng):
    """Every kind and value type, sizes around a tile, the key patterns of
    key_patterns, inclusive and exclusive."""
    for n, name, keys in rotated_key_patterns(sizes(dtype, "scan"), rng):
        x = data(kind, dtype, n, rng)
        check_scan_by_key(backend, kind, x, keys, f"{name} keys, n = {n}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key_type", [np.int8, np.int16, np.int32, np.int64, np.uint32,
                                      np.float16, np.float32, np.float64])
@pytest.mark.parametrize("kind,dtype", [("add", np.int32), ("maxnumf", np.float64),
                                        ("add", np.int8), ("minsi", np.int16),
                                        ("add", np.float16), ("mul", np.int64)])
def test_scan_by_key_types(backend, key_type, kind, dtype, rng):
    """Keys of every width against values of every width, at sizes around
    a tile (64 bytes a thread of the wider of keys and values)."""
    tile = 256 * 64 // max(np.dtype(dtype).itemsize, np.dtype(key_type).itemsize)
    # Inclusive and exclusive in turn (test_scan_by_key takes both at
    # every size).
    for i, (n, name, keys) in enumerate(rotated_key_patterns(
            (1, 33, tile - 1, tile + 1, 2 * tile + 5), rng, key_type)):
        x = (rng.integers(-1, 2, n) if dtype == np.float16 else data(kind, dtype, n, rng))
        x = x.astype(dtype)
        check_scan_by_key(backend, kind, x, keys, f"{name} {np.dtype(key_type).name} "
                          f"keys, n = {n}", modes=(i % 2 == 1,))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key_type", [np.float16, np.float32, np.float64])
def test_scan_by_key_float_keys(backend, key_type, rng):
    """Float keys compare with ==: -0.0 next to 0.0 is one segment, a NaN
    starts one and so does the key after it, also as the key before a
    tile."""
    tile = 4096
    n = 3 * tile + 9
    keys = np.repeat(rng.integers(-2, 3, n), rng.integers(1, 5, n))[:n].astype(key_type)
    keys[1::7] = -0.0
    keys[2::7] = 0.0
    keys[5::13] = np.nan
    keys[6::13] = np.nan
    keys[[tile - 1, 2 * tile - 2, 2 * tile - 1]] = np.nan  # before a tile
    keys[3 * tile - 1] = -0.0
    keys[3 * tile] = 0.0
    x = rng.integers(-100, 100, n).astype(np.int32)
    for kind in ("add", "maxsi"):
        check_scan_by_key(backend, kind, x, keys, "floats with -0.0, 0.0, NaN")
    check_scan_by_key(backend, "add", x, np.full(n, np.nan, key_type), "all NaN")
    check_scan_by_key(backend, "add", x, np.where(np.arange(n) % 2, -0.0, 0.0).astype(key_type),
                      "0.0 and -0.0 alternating")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind,dtype", [("add", np.int32), ("maxnumf", np.float32),
                                        ("minimumf", np.float64), ("xor", np.int64)])
def test_scan_by_key_long_segments(backend, kind, dtype, rng):
    """Segments across several tiles and one across more than a look-back
    window of 32 tiles (a look-back that goes on past windows without a
    head), then segments of 1 to 3 tiles, starting anywhere in a tile."""
    tile = 256 * 64 // np.dtype(dtype).itemsize
    n = 45 * tile + 7
    lengths = [35 * tile + 3]
    while sum(lengths) < n:
        lengths.append(int(rng.integers(1, 3 * tile)))
    keys = np.repeat(np.arange(len(lengths)) % 3, lengths)[:n].astype(np.int64)
    x = data(kind, dtype, n, rng)
    if np.dtype(dtype).kind == "f":
        x[rng.integers(0, n, 5)] = np.nan
    check_scan_by_key(backend, kind, x, keys, "long segments")
    # A head as a tile's first or last element, or none in a tile.
    keys = np.zeros(n, np.int64)
    keys[[tile, 2 * tile - 1, 5 * tile, 5 * tile + 1, 40 * tile - 1]] = 1
    check_scan_by_key(backend, kind, x, keys, "heads at tile edges")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("exclusive_", [False, True], ids=["inclusive", "exclusive"])
def test_scan_by_key_out(backend, exclusive_, rng):
    """In place (out is x), and into a longer out whose rest is left."""
    n = 3 * 4096 + 11
    x = rng.integers(-9, 9, n).astype(np.int32)
    keys = rng.integers(0, 2, n).astype(np.int16)
    want = scan_by_key("add", x, keys, exclusive_)
    out = np.full(n + 5, -7, np.int32)
    got = wd.scan(x, "add", exclusive=exclusive_, keys=keys, out=out, backend=backend)
    assert got is out
    check(out[:n], want, "into out")
    check(out[n:], np.full(5, -7, np.int32), "past n, out is left as it is")
    got = wd.scan(x, "add", exclusive=exclusive_, keys=keys, out=x, backend=backend)
    assert got is x
    check(x, want, "in place")
    # More keys than values: the first n count.
    longer = np.concatenate([keys, [5, 6, 7]]).astype(np.int16)
    y = rng.integers(-9, 9, n).astype(np.int32)
    check(wd.scan(y, "add", exclusive=exclusive_, keys=longer, backend=backend),
          scan_by_key("add", y, keys, exclusive_), "keys longer than x")


def test_scan_by_key_errors():
    x = np.zeros(10, np.int32)
    with pytest.raises(ValueError, match="keys has 9 elements, x 10"):
        wd.scan(x, keys=np.zeros(9, np.int32), backend="sim")
    with pytest.raises(ValueError, match="cluster_blocks does not combine with keys"):
        wd.scan(x, keys=np.zeros(10, np.int32), cluster_blocks=2, backend="sim")
    keys = np.zeros(10, np.int32)
    with pytest.raises(ValueError, match="out must not be keys"):
        wd.scan(x, keys=keys, out=keys, backend="sim")
    with pytest.raises(TypeError, match="not complex64"):
        wd.scan(x, keys=np.zeros(10, np.complex64), backend="sim")
    with pytest.raises(ValueError, match="1-D"):
        wd.scan(x, keys=np.zeros((10, 1), np.int32), backend="sim")


# -- NaN: minnumf/maxnumf ignore it, minimumf/maximumf propagate it ---------------------------

NAN_KINDS = ["minnumf", "maxnumf", "minimumf", "maximumf"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", NAN_KINDS)
def test_nan(backend, kind, dtype, rng):
    nan = np.nan
    cases = {
        "leading": [nan, nan, 3.0, nan, 1.0, 5.0, -2.0],
        "trailing": [4.0, -1.0, 2.0, nan],
        "middle": [4.0, nan, -1.0, 7.0],
        "all": [nan] * 5,
        "one": [nan],
    }
    tile = tile_items("scan", dtype, kind)
    x = (rng.standard_normal(2 * tile + 3) * 10).astype(dtype)
    x[[5, tile - 1, tile, tile + 17, 2 * tile + 2]] = nan  # across tiles
    cases["tiles"] = x
    for name, values in cases.items():
        x = np.asarray(values, dtype)
        what = f"<{kind}> {name}"
        check(wd.reduce(x, kind, backend=backend), np.array([reduction(kind, x)], dtype),
              "reduce " + what)
        check(wd.scan(x, kind, backend=backend), inclusive(kind, x), "scan " + what)
        check(wd.scan(x, kind, exclusive=True, backend=backend), exclusive(kind, x),
              "exclusive scan " + what)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind,exclusive_", [
    pytest.param(kind, ex, id=f"{kind}-{'exclusive' if ex else 'inclusive'}")
    for kind in NAN_KINDS for ex in (False, True)])
def test_nan_tiles(backend, kind, exclusive_, dtype, rng):
    """Whole tiles of NaN, then numbers: the prefix a later tile gets is NaN
    (x_0 (kind) ... of nothing but NaN), for every kind; an exclusive scan's
    first element of such a tile is that NaN, not NaN (kind) identity."""
    tile = tile_items("scan", dtype, kind)
    for nan_items in (tile, tile + 1, 3 * tile + 5):
        x = (rng.standard_normal(5 * tile) * 10).astype(dtype)
        x[:nan_items] = np.nan
        want = (exclusive if exclusive_ else inclusive)(kind, x)
        check(wd.scan(x, kind, exclusive=exclusive_, backend=backend), want,
              f"{'exclusive ' if exclusive_ else ''}scan <{kind}>, {nan_items} NaN first")
        check(wd.reduce(x[:nan_items], kind, backend=backend), np.array([np.nan], dtype),
              f"reduce <{kind}> of {nan_items} NaN")


# -- outputs: in place, given, longer ---------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("exclusive_", [False, True], ids=["inclusive", "exclusive"])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_scan_in_place(backend, exclusive_, dtype, rng):
    n = 3 * tile_items("scan", dtype) + 11
    x = rng.integers(-9, 9, n).astype(dtype)
    want = (exclusive if exclusive_ else inclusive)("add", x)
    got = wd.scan(x, "add", exclusive=exclusive_, out=x, backend=backend)
    assert got is x
    check(x, want, "in place")


@pytest.mark.parametrize("backend", BACKENDS)
def test_explicit_out(backend, rng):
    x = rng.integers(-1000, 1000, 5000).astype(np.int64)
    out = np.full(5000 + 7, -12345, np.int64)
    got = wd.scan(x, "minsi", out=out, backend=backend)
    assert got is out
    check(out[:5000], inclusive("minsi", x), "scan into out")
    check(out[5000:], np.full(7, -12345, np.int64), "past n, out is left as it is")

    total = np.full(3, 77.0, np.float32)
    f = rng.integers(-8, 8, 20000).astype(np.float32)
    got = wd.reduce(f, "add", out=total, backend=backend)
    assert got is total
    check(total, np.array([f.sum(), 77.0, 77.0], np.float32), "reduce writes out[0] only")


@pytest.mark.parametrize("backend", BACKENDS)
def test_unaligned_view(backend, rng):
    """A view that starts one element in: no 16-byte alignment for the
    kernels' vector loads and stores."""
    base = rng.integers(-100, 100, 3 * 4096 + 2).astype(np.int32)
    x = base[1:]
    check(wd.scan(x, "add", backend=backend), inclusive("add", x), "scan")
    check(wd.reduce(x, "xor", backend=backend), np.array([reduction("xor", x)]), "reduce")
    out = np.zeros(len(base), np.int32)
    wd.scan(x, "add", out=out[1:], backend=backend)
    check(out[1:], inclusive("add", x), "scan into an unaligned view")
    assert out[0] == 0


# -- errors -----------------------------------------------------------------------------------

def test_errors():
    x = np.arange(10, dtype=np.int32)
    with pytest.raises(ValueError, match="1-D"):
        wd.reduce(np.zeros((4, 4), np.float32), backend="sim")
    with pytest.raises(ValueError, match="1-D"):
        wd.scan(np.zeros((4, 4), np.int32), backend="sim")
    with pytest.raises(TypeError, match="float32 or float64 arrays, not uint32"):
        wd.scan(np.zeros(10, np.uint32), backend="sim")
    with pytest.raises(TypeError, match="float32 or float64 arrays, not complex64"):
        wd.reduce(np.zeros(10, np.complex64), backend="sim")
    # A kind outside the type's domain: the op's verifier says so.
    with pytest.raises(wm.MLIRError, match="kind 'xor' needs an integer value, got 'f64'"):
        wd.reduce(np.zeros(10, np.float64), "xor", backend="sim")
    with pytest.raises(wm.MLIRError, match="kind 'maxnumf' needs a floating-point value, got 'i32'"):
        wd.scan(x, "maxnumf", backend="sim")
    with pytest.raises(ValueError, match="kind must be a combine kind"):
        wd.scan(x, "sum", backend="sim")
    # out: too short, another type.
    with pytest.raises(ValueError, match="out has 9 elements, needs 10"):
        wd.scan(x, out=np.zeros(9, np.int32), backend="sim")
    with pytest.raises(ValueError, match="out has 0 elements, needs 1"):
        wd.reduce(x, out=np.zeros(0, np.int32), backend="sim")
    with pytest.raises(TypeError, match="out has i64 elements, x i32"):
        wd.scan(x, out=np.zeros(10, np.int64), backend="sim")


@pytest.mark.parametrize("backend", BACKENDS)
def test_not_contiguous(backend):
    x = np.arange(20, dtype=np.int32)
    with pytest.raises(wm.LaunchError, match="contiguous"):
        wd.scan(x[::2], backend=backend)
    with pytest.raises(wm.LaunchError, match="contiguous"):
        wd.reduce(x[::2], backend=backend)


# -- device arrays (GPU) ----------------------------------------------------------------------

@requires_gpu
@pytest.mark.parametrize("kind,dtype", [("add", np.int32), ("maxui", np.int64),
                                        ("add", np.float32), ("minnumf", np.float64)],
                         ids=["add-int32", "maxui-int64", "add-float32", "minnumf-float64"])
def test_torch(kind, dtype, rng):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    n = 3 * 4096 + 5
    x = data(kind, dtype, n, rng)
    t = torch.from_numpy(x).cuda()
    total = wd.reduce(t, kind)
    scanned = wd.scan(t, kind)
    shifted = wd.scan(t[1:], kind, exclusive=True)  # a view not 16-byte aligned
    assert total.is_cuda and scanned.is_cuda and total.dtype == t.dtype
    torch.cuda.synchronize()
    check(total.cpu().numpy(), np.array([reduction(kind, x)]), "reduce")
    check(scanned.cpu().numpy(), inclusive(kind, x), "scan")
    check(shifted.cpu().numpy(), exclusive(kind, x[1:]), "exclusive scan of x[1:]")
    wd.scan(t, kind, out=t)
    torch.cuda.synchronize()
    check(t.cpu().numpy(), inclusive(kind, x), "in place")


@requires_gpu
@pytest.mark.parametrize("kind,dtype", [("xor", np.int64), ("maximumf", np.float32)],
                         ids=["xor-int64", "maximumf-float32"])
def test_cupy(kind, dtype, rng):
    cp = pytest.importorskip("cupy")
    n = 5 * 8192 + 3
    x = data(kind, dtype, n, rng)
    c = cp.asarray(x)
    total = wd.reduce(c, kind)
    scanned = wd.scan(c, kind, exclusive=True)
    assert isinstance(total, cp.ndarray) and isinstance(scanned, cp.ndarray)
    cp.cuda.runtime.deviceSynchronize()
    check(cp.asnumpy(total), np.array([reduction(kind, x)]), "reduce")
    check(cp.asnumpy(scanned), exclusive(kind, x), "exclusive scan")


# -- select ------------------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_select(backend, dtype, rng):
    """The flagged elements in order and their count (numpy's x[flags]),
    across tile boundaries (4096 4-byte or 2048 8-byte elements a tile),
    with bool and int8 flags, none and all kept."""
    tile = 256 * 64 // np.dtype(dtype).itemsize
    for n in (0, 1, 33, tile - 1, tile, tile + 1, 3 * tile + 7):
        x = rng.integers(-1000, 1000, n).astype(dtype)
        for flags in (rng.random(n) < 0.3, np.zeros(n, bool), np.ones(n, bool),
                      rng.integers(-2, 3, n).astype(np.int8)):
            out, count = wd.select(x, flags, backend=backend)
            want = x[flags != 0]
            assert int(count[0]) == len(want), (n, int(count[0]), len(want))
            np.testing.assert_array_equal(out[:len(want)], want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_select_keeps_the_rest_of_out(backend, rng):
    """Only out[:count] is written."""
    x = np.arange(5000, dtype=np.float32)
    out = np.full(6000, -1.0, np.float32)
    _, count = wd.select(x, x % 3 == 0, out=out, backend=backend)
    k = int(count[0])
    assert k == 1667
    np.testing.assert_array_equal(out[:k], x[::3])
    assert (out[k:] == -1.0).all()


def test_select_errors():
    x = np.zeros(10, np.float32)
    with pytest.raises(TypeError, match="flags must be bool or int8"):
        wd.select(x, np.zeros(10, np.int32), backend="sim")
    with pytest.raises(ValueError, match="flags has 5 elements, x 10"):
        wd.select(x, np.zeros(5, bool), backend="sim")
    with pytest.raises(ValueError, match="out has 4 elements, needs 10"):
        wd.select(x, np.zeros(10, bool), out=np.zeros(4, np.float32), backend="sim")


def partitioned(x, keep):
    """A partition's output: the elements `keep` marks in order, then the
    others in reverse order (CUB's DevicePartition)."""
    return np.concatenate([x[keep], x[~keep][::-1]])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_partition(backend, dtype, rng):
    """The flagged elements in order, then the others in reverse order
    (CUB's DevicePartition::Flagged), every output element written."""
    tile = 256 * 64 // np.dtype(dtype).itemsize
    for n in (0, 1, 33, tile, tile + 1, 3 * tile + 7):
        x = rng.integers(-1000, 1000, n).astype(dtype)
        for flags in (rng.random(n) < 0.4, np.zeros(n, bool), np.ones(n, bool)):
            out = np.full(n + 3, -7, dtype)
            _, count = wd.partition(x, flags, out=out, backend=backend)
            want = partitioned(x, flags)
            assert int(count[0]) == int(flags.sum())
            np.testing.assert_array_equal(out[:n], want)
            assert (out[n:] == -7).all()


# -- select / partition by a predicate ---------------------------------------------------------

COMPARE = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
           "eq": np.equal, "ne": np.not_equal}
IF_SIZES = (0, 1, 31, 33, 4095, 4096, 4097, 3 * 4096 + 5)
IF_TYPES = [np.int8, np.int32, np.int64, np.float16, np.float32, np.float64]


def if_data(dtype, n, rng):
    """n values of `dtype` from -100 to 100 (so that 0 splits them about in
    half and 50 is often there), with NaNs and infinities among floats."""
    x = rng.integers(-100, 101, n).astype(dtype)
    if np.dtype(dtype).kind == "f" and n > 2:
        x[rng.integers(0, n, max(1, n // 50))] = np.nan
        x[rng.integers(0, n, 2)] = [np.inf, -np.inf]
    return x


def if_predicates(dtype):
    """(comparison, scalar, what it keeps) cases: about half, none (below
    the type's least value), all (up to its greatest: every element but
    the NaNs), an equality and its negation (which keeps the NaNs)."""
    if np.dtype(dtype).kind == "f":
        least, most = -np.inf, np.inf
    else:
        least, most = np.iinfo(dtype).min, np.iinfo(dtype).max
    return [("gt", 0, "half"), ("lt", least, "none"), ("le", most, "all"), ("eq", 50, "some"),
            ("ne", 50, "most")]


def kept_by(x, comparison, scalar):
    """numpy's x <comparison> scalar, the scalar in x's type."""
    return COMPARE[comparison](x, np.array(scalar, x.dtype))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", IF_TYPES)
def test_select_if(backend, dtype, rng):
    """The elements a comparison with a constant holds for, in order, and
    their count (numpy's x[x > t]), around a tile (4096 4-byte elements),
    keeping none, all and about half; a NaN compares false except with ne."""
    for comparison, scalar, keeps in if_predicates(dtype):
        for n in IF_SIZES:
            x = if_data(dtype, n, rng)
            fill = np.full(n + 2, 7, dtype)
            out, count = wd.select(x, pred=(comparison, scalar), out=fill, backend=backend)
            want = x[kept_by(x, comparison, scalar)]
            if keeps == "none" or n == 0:
                assert len(want) == 0
            if keeps == "all":
                assert len(want) == n - int(np.isnan(x).sum() if x.dtype.kind == "f" else 0)
            assert int(count[0]) == len(want), (comparison, n, int(count[0]), len(want))
            np.testing.assert_array_equal(out[:len(want)], want)
            assert (out[len(want):] == 7).all(), "only out[:count] is written"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_partition_if(backend, dtype, rng):
    """The elements a comparison holds for in order, then the others in
    reverse order (CUB's DevicePartition::If), NaNs among the others."""
    for comparison, scalar, _ in if_predicates(dtype)[:3]:
        for n in IF_SIZES:
            x = if_data(dtype, n, rng)
            out = np.full(n + 3, -7, dtype)
            _, count = wd.partition(x, pred=(comparison, scalar), out=out, backend=backend)
            kept = kept_by(x, comparison, scalar)
            want = partitioned(x, kept)
            assert int(count[0]) == int(kept.sum()), (comparison, n)
            np.testing.assert_array_equal(out[:n], want)
            assert (out[n:] == -7).all()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("comparison", sorted(COMPARE))
def test_select_if_comparisons(backend, comparison, rng):
    """Every comparison, spelled both ways, on floats with NaNs, signed
    zeros and the scalar itself, and on negative integers (compared signed)."""
    symbol = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}[comparison]
    x = np.array([np.nan, -0.0, 0.0, 0.25, -0.25, np.inf, 0.5, -np.inf, np.nan, 1.0] * 7,
                 np.float32)
    for spelled in (comparison, symbol):
        for scalar in (0.25, 0.0, -0.0, np.nan):
            out, count = wd.select(x, pred=(spelled, scalar), backend=backend)
            want = x[kept_by(x, comparison, scalar)]
            assert int(count[0]) == len(want), (spelled, scalar)
            np.testing.assert_array_equal(out[:len(want)], want)
    i = rng.integers(-2 ** 31, 2 ** 31, 5000, dtype=np.int64).astype(np.int32)
    for scalar in (-5, 0, -2 ** 31, 2 ** 31 - 1):
        out, count = wd.select(i, pred=(symbol, scalar), backend=backend)
        want = i[kept_by(i, comparison, scalar)]
        assert int(count[0]) == len(want), (symbol, scalar)
        np.testing.assert_array_equal(out[:len(want)], want)


@requires_sim
def test_select_if_rounds_the_scalar():
    """The scalar is rounded to x's type as numpy rounds it: 0.1 in f16."""
    x = np.array([0.0999, 0.1, 0.1001, 0.2], np.float16)
    out, count = wd.select(x, pred=("eq", 0.1), backend="sim")
    want = x[x == np.float16(0.1)]
    assert int(count[0]) == len(want) >= 1
    np.testing.assert_array_equal(out[:len(want)], want)


def test_select_if_errors():
    x = np.zeros(10, np.float32)
    i = np.zeros(10, np.int8)
    with pytest.raises(TypeError, match="select takes flags or pred, one of them"):
        wd.select(x, backend="sim")
    with pytest.raises(TypeError, match="partition takes flags or pred, one of them"):
        wd.partition(x, np.zeros(10, bool), pred=("gt", 0), backend="sim")
    with pytest.raises(TypeError, match="pred must be a .comparison, scalar. pair"):
        wd.select(x, pred="gt", backend="sim")
    with pytest.raises(ValueError, match="comparison must be one of"):
        wd.select(x, pred=("greater", 0), backend="sim")
    with pytest.raises(TypeError, match="compares with a number"):
        wd.select(x, pred=("gt", "zero"), backend="sim")
    with pytest.raises(TypeError, match="compares i8 elements with an integer, not 0.5"):
        wd.select(i, pred=("gt", 0.5), backend="sim")
    with pytest.raises(ValueError, match="pred's 128 does not fit the i8 elements"):
        wd.select(i, pred=("lt", 128), backend="sim")
    with pytest.raises(ValueError, match="out has 4 elements, needs 10"):
        wd.select(x, pred=("gt", 0), out=np.zeros(4, np.float32), backend="sim")


# -- unique -----------------------------------------------------------------------------------

def runs_first(x):
    """The first of each run of ==-equal elements (numpy's == : -0.0 equals
    0.0, NaN equals nothing)."""
    if len(x) == 0:
        return x[:0]
    with np.errstate(invalid="ignore"):
        keep = np.concatenate([[True], x[1:] != x[:-1]])
    return x[keep]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.float32, np.float64])
def test_unique(backend, dtype, rng):
    """DeviceSelect::Unique: runs across threads and tile boundaries, all
    equal, all different, and for floats -0.0 next to 0.0 and NaN runs."""
    tile = 256 * 64 // np.dtype(dtype).itemsize
    for n in (0, 1, 2, 33, tile - 1, tile, tile + 1, 3 * tile + 7):
        x = np.repeat(rng.integers(-5, 5, n), rng.integers(1, 6, n))[:n].astype(dtype)
        cases = [x, np.zeros(n, dtype), np.arange(n).astype(dtype)]
        if np.dtype(dtype).kind == "f" and n > 4:
            y = x.copy()
            y[1::7] = -0.0
            y[2::7] = 0.0
            y[3::11] = np.nan
            y[4::11] = np.nan
            cases.append(y)
        for case in cases:
            out, count = wd.unique(case, backend=backend)
            want = runs_first(case)
            assert int(count[0]) == len(want), (n, int(count[0]), len(want))
            bits = _unsigned(dtype)  # -0.0 and NaN payloads compared bit for bit
            np.testing.assert_array_equal(out[:len(want)].view(bits), want.view(bits))


# -- run-length encode ------------------------------------------------------------------------

def runs_of(x):
    """The runs of ==-equal consecutive elements of x (numpy's ==: -0.0
    equals 0.0, NaN equals nothing): each run's first element and length,
    the lengths as the distances between consecutive run starts, n ending
    the last."""
    if len(x) == 0:
        return x[:0], np.zeros(0, np.int64)
    with np.errstate(invalid="ignore"):
        starts = np.flatnonzero(np.concatenate([[True], x[1:] != x[:-1]]))
    return x[starts], np.diff(np.append(starts, len(x)))


def rle_cases(dtype, n, rng):
    """Inputs of n elements: runs of 1 to 5 from a small alphabet, runs
    longer than a tile (whole tiles without a head), all equal, all
    different from their neighbours, and for floats -0.0 next to 0.0 and
    NaNs next to each other."""
    dtype = np.dtype(dtype)
    tile = 256 * 64 // max(dtype.itemsize, 4)
    short = np.repeat(rng.integers(-3, 3, n), rng.integers(1, 6, n))[:n]
    long = np.repeat(rng.integers(-3, 3, n // tile + 2), rng.integers(tile // 2, 3 * tile, n // tile + 2))[:n]
    cases = [short, long, np.zeros(n), np.arange(n) % 97, rng.integers(-2, 2, n)]
    cases = [case.astype(dtype) for case in cases]
    if dtype.kind == "f" and n > 4:
        y = cases[0].copy()
        y[1::7] = -0.0
        y[2::7] = 0.0
        y[3::11] = np.nan
        y[4::11] = np.nan
        cases.append(y)
        cases.append(np.full(n, np.nan, dtype))
    return cases


def check_runs(x, first, counts, num_runs, fill):
    """The outputs against runs_of(x); the elements past the runs untouched."""
    want_first, want_counts = runs_of(x)
    k = len(want_first)
    assert int(num_runs[0]) == k, (len(x), int(num_runs[0]), k)
    bits = _unsigned(x.dtype)  # -0.0 and NaN payloads compared bit for bit
    np.testing.assert_array_equal(first[:k].view(bits), want_first.view(bits))
    np.testing.assert_array_equal(counts[:k], want_counts.astype(counts.dtype))
    assert (first[k:].view(bits) == np.array(fill, x.dtype).view(bits)).all()
    assert (counts[k:] == -9).all()


RLE_TYPES = [np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", RLE_TYPES)
def test_run_length_encode(backend, dtype, rng):
    """DeviceRunLengthEncode::Encode: runs across threads and tiles (4096
    elements of up to 4 bytes, 2048 of 8), whole tiles inside one run,
    all equal, all different; int32 and int64 counts."""
    tile = 256 * 64 // max(np.dtype(dtype).itemsize, 4)
    for n in (0, 1, 31, 33, tile - 1, tile, tile + 1, 3 * tile + 7):
        for i, case in enumerate(rle_cases(dtype, n, rng)):
            counts_type = np.int64 if i % 2 else np.int32
            first = np.full(n + 2, 7, dtype)
            counts = np.full(n + 2, -9, counts_type)
            got = wd.run_length_encode(case, unique=first, counts=counts, backend=backend)
            assert got[0] is first and got[1] is counts
            check_runs(case, first, counts, got[2], 7)


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_length_encode_new_outputs(backend, rng):
    """Outputs made by the call: unique like x, int32 counts (CUB's int
    lengths), an int64 num_runs; an empty x has no run."""
    x = np.repeat(np.array([5, -1, 5, 5, 0], np.int32), [3, 1, 4, 4100, 2])
    first, counts, num_runs = wd.run_length_encode(x, backend=backend)
    assert first.dtype == np.int32 and counts.dtype == np.int32 and num_runs.dtype == np.int64
    assert int(num_runs[0]) == 4
    np.testing.assert_array_equal(first[:4], [5, -1, 5, 0])
    np.testing.assert_array_equal(counts[:4], [3, 1, 4104, 2])
    _, _, none = wd.run_length_encode(np.zeros(0, np.float32), backend=backend)
    assert int(none[0]) == 0


@requires_sim
def test_run_length_encode_bf16(rng):
    """bf16 (no numpy type: its bits as 2-byte voids, as the launcher takes
    them, through the module's plan): equality of the values, so -0.0
    (0x8000) continues a run of 0.0 and each NaN (0x7FC0) is a run of its
    own."""
    from warp_mlir.device import _launch, _plan
    n = 3 * 4096 + 7
    values = np.array([0x3F80, 0x4000, 0x0000, 0x8000, 0x7FC0, 0xBF80], np.uint16)
    bits = np.repeat(values[rng.integers(0, len(values), n)], rng.integers(1, 4, n))[:n]
    as_float = (bits.astype(np.uint32) << 16).view(np.float32)  # bf16 is f32's upper half
    first = np.full(n, 0x1234, np.uint16)
    counts = np.full(n, -9, np.int32)
    num_runs = np.zeros(1, np.int64)
    _launch(_plan("run_length_encode", "i32", "bf16", False, "sm_90"),
            [bits.view("V2"), first.view("V2"), counts, num_runs], n, None, "sim")
    want_first, want_counts = runs_of(as_float)
    k = len(want_first)
    assert int(num_runs[0]) == k
    np.testing.assert_array_equal(first[:k], (want_first.view(np.uint32) >> 16).astype(np.uint16))
    np.testing.assert_array_equal(counts[:k], want_counts)


def test_run_length_encode_rejects():
    """Counts that are not int32/int64 or too short, a wrong num_runs."""
    x = np.zeros(10, np.int32)
    with pytest.raises(TypeError, match="counts must be an int32 or int64"):
        wd.run_length_encode(x, counts=np.zeros(10, np.int16), backend="sim")
    with pytest.raises(ValueError, match="counts has 9 elements, needs 10"):
        wd.run_length_encode(x, counts=np.zeros(9, np.int32), backend="sim")
    with pytest.raises(TypeError, match="unique has f32 elements, x i32"):
        wd.run_length_encode(x, unique=np.zeros(10, np.float32), backend="sim")
    with pytest.raises(TypeError, match="num_runs must be an int64 array"):
        wd.run_length_encode(x, num_runs=np.zeros(1, np.int32), backend="sim")


# -- non-trivial runs -------------------------------------------------------------------------

def non_trivial_runs_of(x):
    """The runs of two or more ==-equal consecutive elements of x (numpy's
    ==, as runs_of): each one's position and length, from a loop over x
    (independent of runs_of's starts and differences)."""
    offsets, lengths = [], []
    i = 0
    with np.errstate(invalid="ignore"):
        while i < len(x):
            j = i + 1
            while j < len(x) and x[j] == x[i]:
                j += 1
            if j - i > 1:
                offsets.append(i)
                lengths.append(j - i)
            i = j
    return np.array(offsets, np.int64), np.array(lengths, np.int64)


def check_non_trivial_runs(x, offsets, lengths, num_runs):
    """The outputs against non_trivial_runs_of(x); the elements past the
    runs untouched (-9)."""
    want_offsets, want_lengths = non_trivial_runs_of(x)
    k = len(want_offsets)
    assert int(num_runs[0]) == k, (len(x), int(num_runs[0]), k)
    np.testing.assert_array_equal(offsets[:k], want_offsets.astype(offsets.dtype))
    np.testing.assert_array_equal(lengths[:k], want_lengths.astype(lengths.dtype))
    assert (offsets[k:] == -9).all() and (lengths[k:] == -9).all()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float32, np.float64])
def test_non_trivial_runs(backend, dtype, rng):
    """DeviceRunLengthEncode::NonTrivialRuns: runs of 1 to 5 across threads
    and tiles, runs longer than a tile, all equal, no two equal
    neighbours, and for floats -0.0 next to 0.0 (one run) and NaNs (never
    a run); int32 and int64 offsets and lengths, each of its own type."""
    tile = 256 * 64 // max(np.dtype(dtype).itemsize, 4)
    sizes = (0, 1, 2, 31, 33, 2 * tile + 7)
    for n in sizes:
        cases = rle_cases(dtype, n, rng)
        # Above a tile, the cases that cross tiles: short and long runs,
        # all equal, and no run at all.
        cases = cases if n <= 33 else cases[:4]
        for i, case in enumerate(cases):
            offsets = np.full(n // 2 + 2, -9, np.int64 if i % 2 else np.int32)
            lengths = np.full(n // 2 + 2, -9, np.int32 if i % 3 else np.int64)
            got = wd.non_trivial_runs(case, offsets=offsets, lengths=lengths, backend=backend)
            assert got[0] is offsets and got[1] is lengths
            check_non_trivial_runs(case, offsets, lengths, got[2])


@requires_sim
def test_non_trivial_runs_across_tiles(rng, device_launches):
    """Runs of random lengths from 1 to twice a tile over six tiles, so
    that runs start in one tile and end in the next or several later (the
    tile where a run ends writes its length, in the one pass), end at a
    tile's last element, or start at it; int32 offsets with int64 lengths
    and the other way round."""
    tile = 4096  # i32: 256 threads x 16
    n = 6 * tile
    for case in range(4):
        longest = (3, 40, tile, 2 * tile)[case]
        lengths_drawn = rng.integers(1, longest + 1, n)
        x = np.repeat(np.arange(n), lengths_drawn)[:n].astype(np.int32)
        offsets = np.full(n // 2 + 2, -9, np.int64 if case % 2 else np.int32)
        lengths = np.full(n // 2 + 2, -9, np.int32 if case % 2 else np.int64)
        device_launches.clear()
        got = wd.non_trivial_runs(x, offsets=offsets, lengths=lengths, backend="sim")
        assert device_launches == [("scan_init", 1), ("non_trivial_runs", 6)]
        check_non_trivial_runs(x, offsets, lengths, got[2])


@pytest.mark.parametrize("op", ["reduce", "scan", "select", "partition", "unique"])
def test_i64_accesses_global_memory_as_f64_does(op):
    """An i64 device op's kernels load and store global memory with the
    same instructions as the f64 op's: 64-bit accesses, never a pair of
    32-bit ones (what LLVM's default data layout, aligning i64 to 4
    bytes, made NVPTX emit before the gpu.modules were translated with
    their target's layout)."""
    import collections
    import re
    from warp_mlir.device import _plan

    def global_accesses(element):
        ptx = _plan(op, "add", element, False, "sm_90").compiled.ptx
        return collections.Counter(
            re.findall(r"\b((?:ld|st)\.global(?:\.nc)?\.[\w.]+)", ptx))
    wide = global_accesses("i64")
    assert wide == global_accesses("f64")
    assert not {"ld.global.b32", "ld.global.nc.b32", "st.global.b32"} & set(wide), wide


@requires_sim
@pytest.mark.parametrize("op,dtype", [
    ("select", "float32"), ("select", "float64"), ("select", "int16"), ("select", "int8"),
    ("partition", "float32"), ("partition", "float64"), ("unique", "int32"),
    ("run_length_encode", "int32"), ("run_length_encode", "int8"),
    ("non_trivial_runs", "int32")])
@pytest.mark.parametrize("skip", [0, 3])
def test_selections_store_whole_lines(op, dtype, skip, rng, monkeypatch):
    """A selection's DRAM traffic in 32-byte sectors (the simulator's
    count_global_sectors: offsets in each array, as if it began on a line)
    over six tiles: the input is read once, and each output is stored by
    consecutive threads in rounds that start on a 128-byte line of it (by
    its address), so every warp's stores fill whole sectors. The only
    sectors stored twice are those a tile shares with its neighbours, plus
    a few a tile (its look-back status, the count), so within 5 % and a few
    sectors a tile of those the bytes fill: well under the 5/4 of
    the sectors the bytes fill that unaligned rounds take (a warp's 128
    bytes straddling a fifth sector). Outputs `skip` elements past a line
    (a view) are filled as right; the simulator counts them as starting
    on one, so only their values are checked."""
    import warp_mlir.sim
    line_aligned = warp_mlir.sim.line_aligned
    counted = warp_mlir.sim.launch
    loads, stores = [], []

    def counting(*args, **kwargs):
        stats = counted(*args, count_global_sectors=True, **kwargs)
        loads.append(stats.global_load_sectors)
        stores.append(stats.global_store_sectors)
        return stats
    monkeypatch.setattr(warp_mlir.sim, "launch", counting)
    tiles = 6
    n = tiles * 16384 // np.dtype(dtype).itemsize  # tiles of 16 KiB of input
    if op in ("select", "partition"):
        x = rng.integers(-100, 100, n).astype(dtype)
        flags = (rng.random(n) < 0.5).astype(np.int8)
        out, count = getattr(wd, op)(x, flags, line_aligned(n, dtype, 7, skip),
                                     backend="sim")
        want = partitioned(x, flags != 0) if op == "partition" else x[flags != 0]
        if op == "select":
            assert (out[len(want):] == 7).all()
        np.testing.assert_array_equal(out[:len(want)], want)
        written = [out[:len(want)]]
    else:
        # Runs of 1 to 3 equal elements (2 on average).
        x = np.repeat(np.arange(n), rng.integers(1, 4, n))[:n].astype(dtype)
        if op == "unique":
            out, count = wd.unique(x, line_aligned(n, dtype, 7, skip), backend="sim")
            written = [out[:int(count[0])]]
            np.testing.assert_array_equal(written[0], runs_first(x))
            assert (out[int(count[0]):] == 7).all()
        elif op == "run_length_encode":
            first, counts, num_runs = wd.run_length_encode(
                x, line_aligned(n, dtype, 7, skip), line_aligned(n, np.int32, -9, skip),
                backend="sim")
            check_runs(x, first, counts, num_runs, 7)
            written = [first[:int(num_runs[0])], counts[:int(num_runs[0])]]
        else:
            offsets, lengths, num_runs = wd.non_trivial_runs(
                x, line_aligned(n // 2, np.int32, -9, skip),
                line_aligned(n // 2, np.int32, -9, skip), backend="sim")
            check_non_trivial_runs(x, offsets, lengths, num_runs)
            written = [offsets[:int(num_runs[0])], lengths[:int(num_runs[0])]]
        assert len(written[0]) > n // 8
    if skip:
        return
    filled = sum(-(-w.nbytes // 32) for w in written)
    read = -(-x.nbytes // 32) + (-(-n // 32) if op in ("select", "partition") else 0)
    # Items narrower than 4 bytes load blocked, 16 bytes a thread at a time:
    # a warp's load spans twice the sectors it fills (the L1 serves the
    # other half to the next load).
    twice = op in ("select", "partition") and x.itemsize < 4
    assert sum(loads) <= read * (40 if twice else 21) // 20 + 8 * tiles, (sum(loads), read)
    assert sum(stores) <= filled * 21 // 20 + 8 * tiles * len(written), (sum(stores), filled)


@requires_sim
@pytest.mark.parametrize("op", ["select", "partition", "unique", "run_length_encode",
                                "non_trivial_runs"])
@pytest.mark.parametrize("n", [1, 31, 33, 4097, 3 * 4096 + 5])
@pytest.mark.parametrize("skip", [1, 5])
def test_selections_into_views(op, n, skip, rng):
    """Outputs that start `skip` elements past a 256-byte boundary (views
    into larger arrays), at sizes around the tiles: the copy-out's rounds
    start on the output's lines by address, so each tile's first round
    begins before its first slot; every value lands where it belongs and
    nothing around the outputs is written."""
    import warp_mlir.sim
    line_aligned = warp_mlir.sim.line_aligned
    if op in ("select", "partition"):
        x = rng.integers(-100, 100, n).astype(np.float32)
        flags = (rng.random(n) < 0.5).astype(np.int8)
        whole = line_aligned(n + 2 * 64, np.float32, 7, skip)
        out, count = getattr(wd, op)(x, flags, whole[64:64 + n], backend="sim")
        want = partitioned(x, flags != 0) if op == "partition" else x[flags != 0]
        assert int(count[0]) == int(flags.sum())
        np.testing.assert_array_equal(out[:len(want)], want)
        assert (whole[:64] == 7).all() and (whole[64 + len(want):] == 7).all()
        return
    x = np.repeat(np.arange(n), rng.integers(1, 4, n))[:n].astype(np.int32)
    if op == "unique":
        whole = line_aligned(n + 2 * 64, np.int32, 7, skip)
        out, count = wd.unique(x, whole[64:64 + n], backend="sim")
        want = runs_first(x)
        np.testing.assert_array_equal(out[:int(count[0])], want)
        assert (whole[:64] == 7).all() and (whole[64 + len(want):] == 7).all()
        return
    size = n if op == "run_length_encode" else max(n // 2, 1)
    first = line_aligned(size + 2 * 64, np.int32, -9, skip)
    second = line_aligned(size + 2 * 64, np.int32, -9, skip + 2)
    call = getattr(wd, op)
    a, b, num_runs = call(x, first[64:64 + size], second[64:64 + size], backend="sim")
    if op == "run_length_encode":
        want_a, want_b = runs_of(x)
    else:
        want_a, want_b = non_trivial_runs_of(x)
    k = int(num_runs[0])
    assert k == len(want_a)
    np.testing.assert_array_equal(a[:k], want_a.astype(np.int32))
    np.testing.assert_array_equal(b[:k], want_b.astype(np.int32))
    for whole in (first, second):
        assert (whole[:64] == -9).all() and (whole[64 + k:] == -9).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_non_trivial_runs_edges(backend):
    """Runs that end exactly at a tile's end or start at a tile's start,
    a run of the last two elements, a run at the very start, pairs over
    each thread boundary, and the new outputs (int32, int64 count)."""
    tile = 4096  # i32: 256 threads x 16
    x = np.arange(2 * tile + 3, dtype=np.int32)
    x[tile - 2:tile] = -1           # ends at the tile's end
    x[tile:tile + 2] = -2           # starts at the next tile's start
    x[0:3] = -3                     # at the very start
    x[-2:] = -4                     # the last two
    x[15:17] = -5                   # across threads 0 and 1 (16 items each)
    x[2 * tile - 1:2 * tile + 1] = -6  # across tiles 1 and 2
    offsets, lengths, num_runs = wd.non_trivial_runs(x, backend=backend)
    assert offsets.dtype == np.int32 and lengths.dtype == np.int32 and num_runs.dtype == np.int64
    k = int(num_runs[0])
    assert k == 6
    np.testing.assert_array_equal(offsets[:k], [0, 15, tile - 2, tile, 2 * tile - 1, 2 * tile + 1])
    np.testing.assert_array_equal(lengths[:k], [3, 2, 2, 2, 2, 2])
    _, _, none = wd.non_trivial_runs(np.zeros(0, np.float32), backend=backend)
    assert int(none[0]) == 0


@requires_gpu
def test_non_trivial_runs_and_double_buffer_torch(rng):
    """torch tensors on the GPU, used in place: the non-trivial runs of an
    int32 tensor over several tiles, and a double-buffered sort of it
    (4 passes of 32-bit keys: the result back in `keys`, `values`)."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    n = 3 * 4096 + 11
    x = np.repeat(rng.integers(-3, 3, n), rng.integers(1, 4, n))[:n].astype(np.int32)
    offsets, lengths, num_runs = wd.non_trivial_runs(torch.from_numpy(x).cuda())
    torch.cuda.synchronize()
    want_offsets, want_lengths = non_trivial_runs_of(x)
    k = int(num_runs[0])
    assert k == len(want_offsets)
    np.testing.assert_array_equal(offsets[:k].cpu().numpy(), want_offsets)
    np.testing.assert_array_equal(lengths[:k].cpu().numpy(), want_lengths)
    keys, values = torch.from_numpy(x).cuda(), torch.arange(n, device="cuda")
    got, got_values = wd.radix_sort(keys, values, out=torch.empty_like(keys),
                                    values_out=torch.empty_like(values), double_buffer=True)
    torch.cuda.synchronize()
    assert got is keys and got_values is values
    check_sorted(x, got.cpu().numpy(), sort_order(x), np.arange(n), got_values.cpu().numpy())


def test_non_trivial_runs_rejects():
    """Offsets or lengths not int32/int64 or too short, one array for both,
    a wrong num_runs."""
    x = np.zeros(10, np.int32)
    with pytest.raises(TypeError, match="offsets must be an int32 or int64"):
        wd.non_trivial_runs(x, offsets=np.zeros(5, np.int16), backend="sim")
    with pytest.raises(ValueError, match="lengths has 4 elements, needs 5"):
        wd.non_trivial_runs(x, lengths=np.zeros(4, np.int32), backend="sim")
    both = np.zeros(5, np.int32)
    with pytest.raises(ValueError, match="offsets and lengths must be two arrays"):
        wd.non_trivial_runs(x, offsets=both, lengths=both, backend="sim")
    with pytest.raises(TypeError, match="num_runs must be an int64 array"):
        wd.non_trivial_runs(x, num_runs=np.zeros(1, np.int32), backend="sim")


# -- histogram --------------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sample", ["uint8", "int16", "int32", "uint64"])
@pytest.mark.parametrize("bins,counter", [(256, "int32"), (7, "int64"), (5000, "int32")])
def test_histogram(backend, sample, bins, counter, rng):
    """numpy's bincount of the samples below `bins` (each sample an
    unsigned bin number; larger ones, and negative ones read unsigned,
    are not counted), across tiles of 4096 samples; old counts are
    overwritten. 256 and 7 bins are counted in workgroup memory first,
    5000 straight into the output."""
    top = min(np.iinfo(sample).max, 2 * bins)
    for n in (0, 1, 4095, 4096, 3 * 4096 + 5):
        x = rng.integers(0 if sample.startswith("u") else -3, top, n, endpoint=True).astype(sample)
        out = np.full(bins, 99, counter)
        got = wd.histogram(x, bins, out=out, backend=backend)
        as_unsigned = x.astype(np.uint64) if sample.startswith("u") else \
            x.view(np.dtype(sample.replace("int", "uint"))).astype(np.uint64)
        want = np.bincount(as_unsigned[as_unsigned < bins].astype(np.int64), minlength=bins)
        np.testing.assert_array_equal(got, want.astype(counter))


@requires_gpu
@pytest.mark.parametrize("bins", [256, 5000])
def test_histogram_capped_grid(bins, rng):
    """More tiles than the capped grid of a workgroup-counted histogram
    (1024 blocks of 4096-sample tiles): each block counts several tiles,
    then adds its counts once; 5000 bins count straight into the output."""
    n = 1024 * 4096 * 2 + 4096 * 3 + 17
    x = rng.integers(0, bins + 40, n).astype(np.int32)
    got = wd.histogram(x, bins, backend="cuda")
    want = np.bincount(x[x < bins], minlength=bins).astype(np.int32)
    np.testing.assert_array_equal(got, want)


@requires_gpu
def test_partition_many_tiles(rng):
    """Hundreds of tiles, each staging its kept and rejected elements."""
    n = 700 * 4096 + 1234
    x = rng.integers(-2**31, 2**31 - 1, n).astype(np.int32)
    flags = rng.random(n) < 0.6
    out, count = wd.partition(x, flags, backend="cuda")
    assert int(count[0]) == int(flags.sum())
    np.testing.assert_array_equal(out, partitioned(x, flags))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sample", ["uint8", "int16", "int64"])
def test_histogram_unaligned_view(backend, sample, rng):
    """Views starting 0..16 bytes past a 16-byte boundary: the samples
    before the first aligned tile are counted too, once, also where they
    are all there is."""
    base = rng.integers(0, 300, 2 * 4096 + 40).astype(sample)
    for skip in (0, 1, 3, 7, 15, 16):
        for n in (2, 4096 + 9):
            x = base[skip:skip + n]
            got = wd.histogram(x, 256, backend=backend)
            want = np.bincount(x[(x >= 0) & (x < 256)].astype(np.int64), minlength=256)
            np.testing.assert_array_equal(got, want.astype(np.int32), err_msg=f"{skip} {n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_histogram_channels_unaligned_view(backend, rng):
    """RGBA (3 of 4 channels) from views starting 0..16 bytes past a
    16-byte boundary (sim.line_aligned: the simulator and the GPU see that
    start): a whole tile's threads all start at the channel of the samples
    before the first aligned tile (constant channels where that is
    channel 0), which are counted once. Two whole tiles and a partial
    one."""
    import warp_mlir.sim
    # The byte samples' tile (channels or not).
    tile = wd._plan("histogram", "memref<256xi32>", "i8", False, "sm_90").kernels[-1].items
    n = 2 * tile + 4 * 9
    for skip in (0, 1, 2, 3, 16):
        x = warp_mlir.sim.line_aligned(n, np.uint8, 0, skip)
        x[:] = rng.integers(0, 256, n)
        got = wd.histogram(x, 256, channels=4, active=3, backend=backend)
        for a in range(3):
            want = np.bincount(_channel(x, 4, a), minlength=256)
            np.testing.assert_array_equal(got[a], want.astype(np.int32),
                                          err_msg=f"skip {skip} channel {a}")


@requires_gpu
@pytest.mark.parametrize("sample", ["uint8", "int16", "int32"])
def test_histogram_unaligned_torch_view(sample, rng):
    """The same on torch views, which keep their offset on the device
    (numpy arrays are copied to an aligned buffer)."""
    torch = pytest.importorskip("torch")
    base = rng.integers(0, 300, 3 * 4096 + 40).astype(sample)
    t = torch.from_numpy(base).cuda()
    for skip in (0, 1, 3, 7, 15, 16):
        for n in (2, 2 * 4096 + 9):
            got = wd.histogram(t[skip:skip + n], 256)
            torch.cuda.synchronize()
            x = base[skip:skip + n]
            want = np.bincount(x[(x >= 0) & (x < 256)].astype(np.int64), minlength=256)
            np.testing.assert_array_equal(got.cpu().numpy(), want.astype(np.int32),
                                          err_msg=f"{skip} {n}")


def test_histogram_errors():
    with pytest.raises(TypeError, match="histogram samples are int8..int64"):
        wd.histogram(np.zeros(4, np.float32), 4, backend="sim")
    with pytest.raises(ValueError, match="bins must be at least 1"):
        wd.histogram(np.zeros(4, np.int32), 0, backend="sim")
    with pytest.raises(TypeError, match="out must be an int32 or int64 array of 4 elements"):
        wd.histogram(np.zeros(4, np.int32), 4, out=np.zeros(3, np.int32), backend="sim")


def _even_bins(x, bins, lower, upper):
    """CUB's HistogramEven bin of each sample (-1: not counted), from its
    ScaleTransform: integers exactly, floats in their own type."""
    if x.dtype.kind == "i":
        return [(int(v) - lower) * bins // (upper - lower) if lower <= v < upper else -1
                for v in x]
    t = x.dtype.type
    lo, hi = t(lower), t(upper)
    scale = t(t(bins) / t(hi - lo))
    return [min(int(t(t(v - lo) * scale)), bins - 1) if lo <= v < hi else -1 for v in x]


def _range_bins(x, levels):
    """HistogramRange's bin: the k with levels[k] <= v < levels[k + 1]."""
    return [next((k for k in range(len(levels) - 1) if levels[k] <= v < levels[k + 1]), -1)
            for v in x]


def _counts(bins_of, bins):
    bins_of = np.asarray(bins_of, np.int64)
    return np.bincount(bins_of[bins_of >= 0], minlength=bins)


@requires_sim
@pytest.mark.parametrize("sample", ["float32", "float16", "float64", "int32", "int8"])
def test_histogram_even(sample, rng):
    """HistogramEven on values: f32 with NaN, -0.0, every level and values
    outside; i32 with a range (107) the bins (10) do not divide; 0, 1, 33
    samples and a few tiles."""
    lower, upper, bins = (-7, 100, 10) if sample[0] == "i" else (-1.0, 2.0, 6)
    if sample == "int8":
        lower, upper, bins = -100, 27, 5
    special = [lower, upper, upper - 1, lower - 1, 0, 1]
    if sample[0] == "f":
        special += [np.nan, -0.0, 0.0, np.inf, -np.inf, np.nextafter(np.float32(upper), -9)]
        special += [lower + k * (upper - lower) / bins for k in range(bins + 1)]
    for n in (0, 1, 33, 2 * 4096 + 7):
        if sample[0] == "f":
            x = rng.uniform(lower - 0.5, upper + 0.5, n).astype(sample)
        else:
            x = rng.integers(max(lower - 20, np.iinfo(sample).min),
                             min(upper + 20, np.iinfo(sample).max), n).astype(sample)
        x[:len(special)] = np.array(special[:n]).astype(sample)
        got = wd.histogram_even(x, bins, lower, upper, backend="sim")
        np.testing.assert_array_equal(got, _counts(_even_bins(x, bins, lower, upper), bins)
                                      .astype(np.int32), err_msg=f"{n}")


@requires_sim
def test_histogram_even_many_bins(rng):
    """More bins than workgroup memory takes (straight into the output),
    int64 counters, old values overwritten."""
    x = rng.integers(-50, 5000, 300).astype(np.int64)
    out = np.full(4099, 7, np.int64)
    got = wd.histogram_even(x, 4099, -3, 4500, out=out, backend="sim")
    np.testing.assert_array_equal(got, _counts(_even_bins(x, 4099, -3, 4500), 4099))


@requires_sim
@pytest.mark.parametrize("sample", ["float32", "int32"])
def test_histogram_range(sample, rng):
    """HistogramRange: uneven levels; samples equal to each level, between
    and outside them, NaN and -0.0."""
    levels = np.array([-5, -1, 0, 3, 4, 20, 21, 100], sample)
    special = list(levels) + [-6, 100, 101, 2]
    if sample == "float32":
        special += [np.nan, -0.0, np.nextafter(np.float32(21), 0), -np.inf]
    for n in (0, 1, 33, 4096 + 3):
        x = rng.uniform(-10, 110, n).astype(sample)
        x[:len(special)] = np.array(special[:n]).astype(sample)
        got = wd.histogram_range(x, levels, backend="sim")
        np.testing.assert_array_equal(got, _counts(_range_bins(x, levels), 7).astype(np.int32),
                                      err_msg=f"{n}")


def test_histogram_levels_errors():
    x = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="lower must be below upper"):
        wd.histogram_even(x, 4, 1.0, 1.0, backend="sim")
    with pytest.raises(ValueError, match="lower level of i8 samples"):
        wd.histogram_even(np.zeros(4, np.int8), 4, -200, 3, backend="sim")
    with pytest.raises(TypeError, match="int32 levels for uint32 samples"):
        wd.histogram_range(np.zeros(4, np.uint32), np.zeros(3, np.int32), backend="sim")
    with pytest.raises(TypeError, match="levels are int8..int64"):
        wd.histogram_even(x, 4, 0, 1, level_dtype="bool", backend="sim")
    with pytest.raises(ValueError, match="levels needs at least 2 values"):
        wd.histogram_range(x, np.zeros(1, np.float32), backend="sim")


@pytest.mark.parametrize("backend", BACKENDS)
def test_histogram_even_level_types(backend, rng):
    """HistogramEven with LevelT apart from SampleT, binned in C++'s
    common_type of the two (CUB's ScaleTransform::CommonT): uint8 samples
    with int32 levels compare as int, so a negative lower level counts
    every sample from 0 and an upper level past 255 leaves the last bins
    empty; int32 samples with float64 levels in double (the scale and the
    bin rounded in f64), samples on every bin boundary."""
    x = rng.integers(0, 256, 700).astype(np.uint8)
    x[:4] = [0, 255, 3, 4]
    lower, upper, bins = -20, 300, 8  # int levels, exact integer bins
    got = wd.histogram_even(x, bins, lower, upper, level_dtype="int32", backend=backend)
    want = _counts([(int(v) - lower) * bins // (upper - lower) for v in x], bins)
    np.testing.assert_array_equal(got, want)
    assert want[-1] == 0 and got.sum() == len(x)
    # int32 samples, double levels: x - lower and the product in f64.
    lower, upper, bins = -1000.5, 2.0e9, 7
    edges = [lower + k * (upper - lower) / bins for k in range(bins + 1)]
    x = rng.integers(-2000, 2**31 - 1, 500).astype(np.int32)
    special = [int(np.ceil(e)) for e in edges] + [int(np.floor(e)) for e in edges]
    special += [-1001, -1000, 2**31 - 1, -2**31]
    x[:len(special)] = np.clip(special, -2**31, 2**31 - 1)
    got = wd.histogram_even(x, bins, lower, upper, level_dtype=np.float64, backend=backend)
    scale = np.float64(bins) / (np.float64(upper) - np.float64(lower))
    want = _counts([min(int((np.float64(v) - np.float64(lower)) * scale), bins - 1)
                    if lower <= v < upper else -1 for v in x], bins)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_histogram_range_level_types(backend, rng):
    """HistogramRange with LevelT apart from SampleT: each sample converted
    to the levels' type, as CUB's `(LevelT) sample`, then searched there:
    uint8 pixels with float32 levels (samples equal to a level go to the
    bin it starts), int32 samples with float64 levels (values past f32's
    precision), int32 samples with uint16 levels (a sample truncated to
    its low 16 bits, compared unsigned: 70000 counts as 4464)."""
    x = rng.integers(0, 256, 600).astype(np.uint8)
    levels = np.array([0.0, 9.5, 10.0, 100.25, 255.0], np.float32)
    x[:6] = [0, 9, 10, 100, 254, 255]
    got = wd.histogram_range(x, levels, backend=backend)
    np.testing.assert_array_equal(got, _counts(_range_bins(x.astype(np.float32), levels), 4))
    assert got[-1] == np.count_nonzero((x >= 101) & (x < 255))
    x = rng.integers(-2**31, 2**31 - 1, 600).astype(np.int32)
    levels = np.array([-2.0**31, -16777217.0, 0.0, 16777217.0, 2.0**31 - 2], np.float64)
    x[:5] = [-16777217, -16777218, 16777216, 16777217, 2**31 - 2]
    got = wd.histogram_range(x, levels, backend=backend)
    np.testing.assert_array_equal(got, _counts(_range_bins(x.astype(np.float64), levels), 4))
    x = rng.integers(-100000, 100000, 600).astype(np.int32)
    x[:3] = [70000, 4464, -1]
    levels = np.array([0, 4464, 4465, 40000, 65535], np.uint16)
    got = wd.histogram_range(x, levels, backend=backend)
    truncated = [int(v) & 0xFFFF for v in x]
    np.testing.assert_array_equal(got, _counts(_range_bins(truncated, levels.tolist()), 4))


# -- narrow types ------------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype,kinds", [
    (np.int8, ["add", "maxsi", "minui", "xor"]),
    (np.int16, ["add", "mul", "minsi", "or"]),
    (np.float16, ["add", "maxnumf", "minimumf"])])
def test_narrow_types(backend, dtype, kinds, rng):
    """i8, i16 and f16 combine in their own type (integers wrap, f16 sums of
    small integers stay exact): scans across tiles of 64 bytes a thread
    (4096 i16/f16 or 16384 i8... elements), reductions, a selection."""
    for n in (1, 33, 8192 + 3, 3 * 16384 + 1):
        values = rng.integers(-3, 4, n) if dtype != np.float16 else rng.integers(-1, 2, n)
        x = values.astype(dtype)
        for kind in kinds:
            if kind == "mul":
                x = rng.choice([-1, 1], n).astype(dtype)
            check(wd.scan(x, kind, backend=backend), inclusive(kind, x), f"scan <{kind}> {n}")
            check(wd.scan(x, kind, exclusive=True, backend=backend), exclusive(kind, x),
                  f"exclusive scan <{kind}> {n}")
            check(wd.reduce(x, kind, backend=backend), np.array([reduction(kind, x)], dtype),
                  f"reduce <{kind}> {n}")
        flags = rng.random(n) < 0.5
        out, count = wd.select(x, flags, backend=backend)
        assert int(count[0]) == int(flags.sum())
        np.testing.assert_array_equal(out[:int(count[0])], x[flags])


# -- radix sort -------------------------------------------------------------------------------

def sort_image(keys):
    """The unsigned image a radix sort orders keys by (the op's definition):
    signed integers with the sign bit flipped, floats with every bit flipped
    when the sign bit is set and only the sign bit otherwise."""
    dtype = keys.dtype
    bits = keys.view(_unsigned(dtype)) if dtype.kind != "u" else keys
    sign = bits.dtype.type(1) << bits.dtype.type(8 * dtype.itemsize - 1)
    if dtype.kind == "f":
        return np.where(bits & sign, ~bits, bits | sign)
    return bits ^ sign if dtype.kind == "i" else bits.copy()


def sort_order(keys, descending=False, begin=0, end=None):
    """The stable order of a radix sort of `keys`: numpy's stable argsort of
    the bits [begin, end) of their images (complemented, descending)."""
    image = sort_image(keys)
    width = 8 * keys.dtype.itemsize
    end = width if end is None else end
    mask = (1 << (end - begin)) - 1
    digits = (image.astype(np.uint64) >> np.uint64(begin)) & np.uint64(mask)
    if descending:
        digits = np.uint64(mask) - digits
    return np.argsort(digits, kind="stable")


def sort_keys_for(dtype, n, rng):
    """Keys of n elements: many duplicates, the whole range, and for floats
    -0.0, 0.0, infinities and NaNs of both signs."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        few = rng.integers(-4, 4, n).astype(dtype) / dtype.type(2)
        wide = (rng.standard_normal(n) * 1e3).astype(dtype)
        special = np.array([-0.0, 0.0, np.inf, -np.inf, 1.5, -1.5], dtype)
        mixed = wide.copy()
        mixed[::3] = special[rng.integers(0, len(special), len(mixed[::3]))]
        cases = [few, wide, mixed]
        if n > 8:
            nans = mixed.copy()
            nans[5::9] = np.nan
            nans[7::9] = -np.array(np.nan, dtype)
            cases.append(nans)
        return cases
    info = np.iinfo(dtype)
    few = rng.integers(-3, 3, n).astype(dtype) if dtype.kind == "i" else \
        rng.integers(0, 6, n).astype(dtype)
    wide = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    mixed = wide.copy()
    special = np.array([info.min, info.max, 0, 1, info.max // 2], dtype)
    mixed[::3] = special[rng.integers(0, len(special), len(mixed[::3]))]
    return [few, wide, np.sort(wide)[::-1].copy(), mixed]


def sort_cases(dtype, sizes, rng):
    """(n, keys), one for each size, so that the simulator's runs stay few:
    sort_keys_for's kinds in turn below 64 keys, the last (duplicates and
    special values among the whole range) above."""
    for i, n in enumerate(sizes):
        cases = sort_keys_for(dtype, n, rng)
        yield n, cases[i % len(cases)] if n < 64 else cases[-1]


def check_sorted(keys, got, order, values=None, got_values=None):
    bits = keys.dtype if keys.dtype.kind in "iu" else _unsigned(keys.dtype)
    np.testing.assert_array_equal(got[:len(keys)].view(bits), keys[order].view(bits))
    if values is not None:  # each key's value: the order, stable
        np.testing.assert_array_equal(got_values[:len(keys)], values[order])


# Every width and order (uint64's unsigned order is uint32's at 64 bits:
# left out, as each 8-byte sort takes eight passes of the simulator).
SORT_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
              np.float16, np.float32, np.float64]


def sort_tile(key_dtype, value_dtype=None, segmented=False):
    """The keys of a radix sort tile. The device sort's (onesweep, which
    ranks its tiles and scatters them with keys and values moved as at
    least 4 bytes): 256 threads x 128 bytes of keys alone (32 keys a thread
    for 1- to 4-byte ones), x 96 bytes of pairs whose moved widths are
    equal, x 64 bytes of the wider of unequal ones. A segmented sort's:
    256 threads x 32 bytes of the wider."""
    sizes = [np.dtype(key_dtype).itemsize] + ([np.dtype(value_dtype).itemsize] if value_dtype else [])
    if segmented:
        return 256 * (32 // max(sizes))
    moved = [max(4, size) for size in sizes]
    budget = 128 if len(moved) == 1 else 96 if moved[0] == moved[1] else 64
    return 256 * (budget // max(moved))


def single_tile(key_dtype, value_dtype=None):
    """The most keys that a device radix sort sorts in one launch of one
    block (its single tile, sorted over every bit at once; onesweep's
    passes past it): 256 threads x 64 bytes of the wider of keys and
    values, each as at least 4 bytes."""
    widths = [max(4, np.dtype(t).itemsize) for t in (key_dtype, value_dtype) if t is not None]
    return 256 * (64 // max(widths))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key_dtype,value_dtype,descending",
                         [(np.int32, None, False), (np.uint8, None, True),
                          (np.float64, None, False), (np.int16, np.float32, True),
                          (np.int64, np.int8, False)])
def test_radix_sort_single_tile(backend, key_dtype, value_dtype, descending, rng):
    """Either side of the single tile: a full one, one key short (padding
    sorts after every key but is not stored) and one key over (onesweep):
    the same order, stable (the values are the input positions), the
    outputs past n untouched."""
    tile = single_tile(key_dtype, value_dtype)
    for n, keys in sort_cases(key_dtype, (tile - 1, tile, tile + 1), rng):
        out = np.full(n + 2, 7, key_dtype)
        if value_dtype is None:
            wd.radix_sort(keys, out=out, descending=descending, backend=backend)
            check_sorted(keys, out, sort_order(keys, descending=descending))
        else:
            values = np.arange(n).astype(value_dtype)
            values_out = np.full(n + 2, 3, value_dtype)
            wd.radix_sort(keys, values, out=out, values_out=values_out,
                          descending=descending, backend=backend)
            check_sorted(keys, out, sort_order(keys, descending=descending), values,
                         values_out)
            assert (values_out[n:] == 3).all()
        assert (out[n:] == 7).all()


def test_radix_sort_single_tile_launch():
    """The plan that a frontend reads launches the single tile's kernel
    alone, on one block, up to its size (an empty input too), and
    onesweep's kernels without it past it."""
    from warp_mlir.device import _compile, _read_plan
    from warp_mlir.ir import Context, Module
    module = Module.parse("func.func @device_op(%a0: memref<?xi32>, %a1: memref<?xi32>) {\n"
                          "  warp.device_radix_sort %a0, %a1 : memref<?xi32>, memref<?xi32>\n"
                          "  return\n}\n", Context())
    module.run("warp-expand-device-ops")
    plan = _read_plan(module, _compile(module, chip="sm_90"))
    tile = single_tile(np.int32)
    for n in (0, 1, tile):
        assert plan.launches(n, [None]) == [("radix_sort_single_tile", 1, 256)]
    names = [kernel for kernel, _, _ in plan.launches(tile + 1, [None])]
    assert names == ["radix_init", "radix_histogram", "radix_digit_starts"] + \
        [f"radix_onesweep_{p}" for p in range(4)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sizes", ["within", "around"])
@pytest.mark.parametrize("dtype", SORT_TYPES)
def test_radix_sort_keys(backend, dtype, sizes, rng):
    """DeviceRadixSort::SortKeys: every key type, within a tile, around one
    and over several, duplicates, negative keys, -0.0 before 0.0,
    infinities, NaNs by their bits; the output's elements past n
    untouched."""
    tile = sort_tile(dtype)
    eight = np.dtype(dtype).itemsize == 8  # eight passes: fewer sizes
    sizes = {"within": (0, 31, 33, 40) if eight else (0, 1, 31, 33, 40),
             "around": (tile + 1, 2 * tile + 5) if eight else
                       (tile - 1, tile, tile + 1, 2 * tile + 5)}[sizes]
    for n, keys in sort_cases(dtype, sizes, rng):
        out = np.full(n + 3, 7, dtype)
        got = wd.radix_sort(keys, out=out, backend=backend)
        assert got.base is out or got is out
        check_sorted(keys, out, sort_order(keys))
        assert (out[n:] == 7).all()
        if np.dtype(dtype).kind in "iu" or not np.isnan(keys).any() and \
                not (keys == 0).any():
            np.testing.assert_array_equal(out[:n], np.sort(keys, kind="stable"))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.float32])
def test_radix_sort_descending(backend, dtype, rng):
    """descending: the complemented order, still stable (equal keys in their
    input order, as the values show)."""
    tile = sort_tile(dtype, np.int32)
    for n, keys in sort_cases(dtype, (0, 33, 2 * tile + 3), rng):
        values = np.arange(n, dtype=np.int32)
        out, values_out = wd.radix_sort(keys, values, descending=True, backend=backend)
        check_sorted(keys, out, sort_order(keys, descending=True), values, values_out)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype,begin,end", [(np.int32, 4, 20), (np.uint32, 0, 5),
                                             (np.int16, 8, 16), (np.float32, 16, 32),
                                             (np.int64, 28, 40)])
def test_radix_sort_bits(backend, dtype, begin, end, rng):
    """bits [begin, end): only those bits of the image order the keys; the
    others keep their input order (stable), as the values show."""
    tile = sort_tile(dtype, np.int64)
    for n, keys in sort_cases(dtype, (1, 33, 2 * tile + 3), rng):
        values = np.arange(n, dtype=np.int64)
        out, values_out = wd.radix_sort(keys, values, begin_bit=begin, end_bit=end,
                                        backend=backend)
        check_sorted(keys, out, sort_order(keys, begin=begin, end=end), values, values_out)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key_dtype,value_dtype", [(np.int32, np.int32), (np.int8, np.int64),
                                                   (np.float32, np.int16),
                                                   (np.uint16, np.float32)])
def test_radix_sort_pairs(backend, key_dtype, value_dtype, rng):
    """DeviceRadixSort::SortPairs: each value goes with its key and equal
    keys keep their input order (the values are the input positions)."""
    tile = sort_tile(key_dtype, value_dtype)
    for n, keys in sort_cases(key_dtype, (0, 1, 31, tile + 1, 2 * tile + 5), rng):
        values = np.arange(n).astype(value_dtype)
        values_out = np.full(n + 1, 3, value_dtype)
        out, got = wd.radix_sort(keys, values, values_out=values_out, backend=backend)
        assert got is values_out
        check_sorted(keys, out, sort_order(keys), values, values_out)
        assert values_out[n] == 3


# The double-buffered sorts' cases: (key, value, bits, the buffer that
# holds the result), for 1, 2 and 3 passes (the result: their parity).
DOUBLE_BUFFER_CASES = pytest.mark.parametrize(
    "key_dtype,value_dtype,begin,end,buffer",
    [(np.uint8, None, 0, 8, 1),        # one pass: the alternate
     (np.int16, np.int32, 0, 16, 0),   # two: back in keys
     (np.int32, np.float32, 4, 28, 1)])  # three


@pytest.mark.parametrize("backend", BACKENDS)
@DOUBLE_BUFFER_CASES
def test_radix_sort_double_buffer(backend, key_dtype, value_dtype, begin, end, buffer, rng):
    """DeviceRadixSort's DoubleBuffer form: the passes use keys and out
    (values and values_out) as their only storage; the one that holds the
    result is returned (for ceil((end - begin) / 8) passes: their parity)."""
    tile = sort_tile(key_dtype, value_dtype)
    for n, keys in sort_cases(key_dtype, (1, 33, tile + 5), rng):
        original = keys.copy()
        alternate = np.full(n, 7, key_dtype)
        if value_dtype is None:
            got = wd.radix_sort(keys, out=alternate, begin_bit=begin, end_bit=end,
                                double_buffer=True, backend=backend)
            assert got is (keys, alternate)[buffer] or got.base is (keys, alternate)[buffer]
            check_sorted(original, got, sort_order(original, begin=begin, end=end))
            continue
        values = np.arange(n).astype(value_dtype)
        values_alternate = np.full(n, 3, value_dtype)
        got, got_values = wd.radix_sort(keys, values, out=alternate,
                                        values_out=values_alternate, begin_bit=begin,
                                        end_bit=end, double_buffer=True, backend=backend)
        assert got is (keys, alternate)[buffer]
        assert got_values is (values, values_alternate)[buffer]
        check_sorted(original, got, sort_order(original, begin=begin, end=end),
                     np.arange(n).astype(value_dtype), got_values)


# The most blocks of a radix sort's histogram kernel
# (DeviceTiling::kRadixSortHistogramMaxBlocks); past as many tiles each
# block counts an even share of them.
RADIX_SORT_MAX_BLOCKS = 1024


@requires_gpu
@pytest.mark.parametrize("key_dtype,value_dtype", [(np.int32, None), (np.uint8, None),
                                                   (np.float64, np.int32)],
                         ids=["int32", "uint8", "float64-int32"])
def test_radix_sort_shared_blocks(key_dtype, value_dtype, rng):
    """Past RADIX_SORT_MAX_BLOCKS tiles (GPU sizes): histogram blocks of
    two and three tiles (n over 2.5 times the cap, not a whole tile), keys
    only and pairs whose values are the input positions (stability)."""
    cp = pytest.importorskip("cupy")
    n = RADIX_SORT_MAX_BLOCKS * sort_tile(key_dtype, value_dtype) * 5 // 2 + 1234
    if value_dtype is None:  # integers: the sorted keys are numpy's
        keys = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(key_dtype)
        out = wd.radix_sort(cp.asarray(keys))
        cp.cuda.runtime.deviceSynchronize()
        np.testing.assert_array_equal(cp.asnumpy(out), np.sort(keys))
        return
    keys = rng.standard_normal(n).astype(key_dtype)
    keys[::7] = keys[::14].repeat(2)[:len(keys[::7])]  # equal keys: their order is stability's
    order = sort_order(keys)
    out, values_out = wd.radix_sort(cp.asarray(keys), cp.arange(n, dtype=value_dtype))
    cp.cuda.runtime.deviceSynchronize()
    np.testing.assert_array_equal(cp.asnumpy(values_out), order.astype(value_dtype))
    np.testing.assert_array_equal(cp.asnumpy(out), keys[order])


@requires_sim
@pytest.mark.parametrize("key_dtype,key_type", [(np.int32, "i32"), (np.int16, "i16")])
def test_radix_sort_shared_blocks_capped(key_dtype, key_type, rng):
    """The even share of tiles a block takes past a grid's cap, at
    simulator sizes: the cap lowered to 3 blocks (warp-expand-device-ops'
    radix-sort-max-blocks) for 7 tiles (shares of 2, 2 and 3, the last
    ragged) and for 2 (a block a tile), pairs over two passes (bits 4 to
    14, signed): the histogram is the capped kernel (one block clears the
    totals before it and one scans them after, and the moving kernels
    take a block per tile); i16 keys move as 32 bits in the scatter."""
    from warp_mlir.device import _compile, _launch, _read_plan
    from warp_mlir.ir import Context, Module
    types = f"memref<?x{key_type}>, memref<?x{key_type}>, memref<?xi32>, memref<?xi32>"
    text = (f"func.func @device_op(%a0: memref<?x{key_type}>, %a1: memref<?x{key_type}>, "
            f"%a2: memref<?xi32>, %a3: memref<?xi32>) {{\n  warp.device_radix_sort %a0, %a1 "
            f"values %a2, %a3 signed bits 4 to 14 : {types}\n  return\n}}\n")
    module = Module.parse(text, Context())
    module.run("warp-expand-device-ops{radix-sort-max-blocks=3}")
    plan = _read_plan(module, _compile(module, chip="sm_90"))
    tile = sort_tile(key_dtype, np.int32)
    info = np.iinfo(key_dtype)
    for n in (7 * tile - 100, 2 * tile - 3):
        keys = rng.integers(info.min, info.max + 1, n, dtype=np.int64).astype(key_dtype)
        keys[::5] = keys[::10].repeat(2)[:len(keys[::5])]  # equal digits: stability
        values = np.arange(n, dtype=np.int32)
        out, values_out = np.zeros(n, key_dtype), np.zeros(n, np.int32)
        tiles, capped = -(-n // tile), min(-(-n // tile), 3)
        grids = [grid for kernel, grid, _ in plan.launches(n, [keys]) if "scan" not in kernel]
        assert grids == [1, capped, 1, tiles, tiles]
        _launch(plan, [keys, out, values, values_out], n, None, "sim")
        order = sort_order(keys, begin=4, end=14)
        np.testing.assert_array_equal(values_out, order.astype(np.int32))
        np.testing.assert_array_equal(out, keys[order])


@requires_sim
@pytest.mark.parametrize("key_dtype,key_type,value_dtype,value_type",
                         [(np.int32, "i32", np.int32, "i32"), (np.float64, "f64", None, None)])
def test_radix_sort_wide_status(key_dtype, key_type, value_dtype, value_type, rng):
    """Onesweep's 64-bit look-back status words (from 2^31 keys) at
    simulator sizes: warp-expand-device-ops' radix-sort-wide-status-from=1
    takes them for every n from 1, over 1 to 4 tiles."""
    from warp_mlir.device import _compile, _launch, _read_plan
    from warp_mlir.ir import Context, Module
    pairs = value_dtype is not None
    arrays = [key_type, key_type] + ([value_type, value_type] if pairs else [])
    params = ", ".join(f"%a{i}: memref<?x{t}>" for i, t in enumerate(arrays))
    operands = "%a0, %a1" + (" values %a2, %a3" if pairs else "")
    types = ", ".join(f"memref<?x{t}>" for t in arrays)
    signed = " signed" if key_type.startswith("i") else ""
    text = (f"func.func @device_op({params}) {{\n  warp.device_radix_sort {operands}{signed} "
            f": {types}\n  return\n}}\n")
    module = Module.parse(text, Context())
    module.run("warp-expand-device-ops{radix-sort-wide-status-from=1}")
    plan = _read_plan(module, _compile(module, chip="sm_90"))
    tile = sort_tile(key_dtype, value_dtype)
    for n in (1, 33, 4 * tile - 7):
        keys = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(key_dtype)
        keys[::5] = keys[::10].repeat(2)[:len(keys[::5])]  # equal keys: stability
        out = np.zeros(n, key_dtype)
        buffers = [keys, out]
        if pairs:
            values, values_out = np.arange(n, dtype=value_dtype), np.zeros(n, value_dtype)
            buffers += [values, values_out]
        _launch(plan, buffers, n, None, "sim")
        order = sort_order(keys)
        np.testing.assert_array_equal(out, keys[order])
        if pairs:
            np.testing.assert_array_equal(values_out, order.astype(value_dtype))


@requires_sim
def test_radix_sort_bf16(rng):
    """bf16 keys (no numpy type: their bits as 2-byte voids, through the
    module's plan), ordered as the f32 values they are the upper halves of."""
    from warp_mlir.device import _launch, _sort_plan
    n = 2 * sort_tile(np.float16) + 7
    values = np.array([0x3F80, 0x4000, 0x0000, 0x8000, 0xBF80, 0xC040, 0x7F80, 0xFF80],
                      np.uint16)
    bits = values[rng.integers(0, len(values), n)]
    as_float = (bits.astype(np.uint32) << 16).view(np.float32)
    out = np.zeros(n, np.uint16)
    _launch(_sort_plan("bf16", "", "", "sm_90"), [bits.view("V2"), out.view("V2")], n, None,
            "sim")
    np.testing.assert_array_equal(out, bits[sort_order(as_float)])


def test_radix_sort_errors():
    """Bad bit ranges, short or mistyped outputs, outputs that are inputs."""
    x = np.zeros(10, np.int32)
    with pytest.raises(ValueError, match="bits 3 to 3 are not a range"):
        wd.radix_sort(x, begin_bit=3, end_bit=3, backend="sim")
    with pytest.raises(ValueError, match="bits 0 to 33 are not a range"):
        wd.radix_sort(x, end_bit=33, backend="sim")
    with pytest.raises(ValueError, match="out has 9 elements, needs 10"):
        wd.radix_sort(x, out=np.zeros(9, np.int32), backend="sim")
    with pytest.raises(TypeError, match="out has f32 elements, x i32"):
        wd.radix_sort(x, out=np.zeros(10, np.float32), backend="sim")
    with pytest.raises(ValueError, match="values has 4 elements, keys 10"):
        wd.radix_sort(x, np.zeros(4, np.int32), backend="sim")
    with pytest.raises(ValueError, match="must not be the inputs"):
        wd.radix_sort(x, out=x, backend="sim")
    u = np.zeros(10, np.uint32)
    with pytest.raises(ValueError, match="must not be the inputs"):
        wd.radix_sort(u, out=u, backend="sim")
    with pytest.raises(ValueError, match="must not be the inputs"):
        wd.radix_sort(x, x.copy(), values_out=x, backend="sim")
    with pytest.raises(ValueError, match="values_out needs values"):
        wd.radix_sort(x, values_out=np.zeros(10, np.int32), backend="sim")
    with pytest.raises(TypeError, match="device ops take int8"):
        wd.radix_sort(np.zeros(10, np.complex64), backend="sim")


# -- multi-channel histogram (CUB MultiHistogramEven / MultiHistogramRange) -------------------

def _channel(x, channels, a):
    """Channel `a`'s samples of the whole pixels of `x` (`channels`
    interleaved; a partial last pixel is not counted)."""
    return x[:len(x) - len(x) % channels][a::channels]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("channels,active,sample,bins",
                         [(4, 3, "uint8", 256), (3, 3, "int32", 40), (2, 1, "uint16", 5000)])
def test_histogram_channels(backend, channels, active, sample, bins, rng):
    """Bin numbers of C interleaved channels, the first A counted, one row
    each: RGBA's RGB in workgroup memory, 3 of 3, one of two with 5000
    bins straight into the output; sizes not a multiple of C."""
    top = min(int(np.iinfo(sample).max), bins + bins // 4 + 1)
    for n in (1, 31, 33, 2 * 4096 + 5):
        x = rng.integers(0, top, n, endpoint=True).astype(sample)
        out = np.full((active, bins), 99, np.int32)
        got = wd.histogram(x, bins, out=out, channels=channels, active=active, backend=backend)
        assert got.shape == (active, bins)
        for a in range(active):
            values = _channel(x, channels, a).astype(np.int64)
            want = np.histogram(values[values < bins], bins=bins, range=(0, bins))[0]
            np.testing.assert_array_equal(got[a], want, err_msg=f"n={n} channel {a}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sample", ["float32", "int8"])
def test_histogram_even_channels(backend, sample, rng):
    """MultiHistogramEven: 3 of 4 channels, each its own levels (CUB's
    ScaleTransform per channel), int64 counters."""
    bins = 6
    if sample == "int8":
        lowers, uppers = [-100, 0, -128], [27, 50, 127]
    else:
        lowers, uppers = [-1.0, 0.0, -10.0], [2.0, 1.0, 10.0]
    for n in (0, 1, 31, 33, 2 * 4096 + 3):
        if sample == "int8":
            x = rng.integers(-128, 127, n, endpoint=True).astype(sample)
        else:
            x = rng.uniform(-12, 12, n).astype(sample)
            x[:4] = np.array([np.nan, -0.0, 2.0, 1.0][:n], sample)
        got = wd.histogram_even(x, bins, lowers, uppers, channels=4, active=3, dtype="int64",
                                backend=backend)
        assert got.shape == (3, bins) and got.dtype == np.int64
        for a in range(3):
            want = _counts(_even_bins(_channel(x, 4, a), bins, lowers[a], uppers[a]), bins)
            np.testing.assert_array_equal(got[a], want, err_msg=f"n={n} channel {a}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sample", ["float32", "int32"])
def test_histogram_range_channels(backend, sample, rng):
    """MultiHistogramRange: 2 of 3 channels, a row of uneven levels each
    (numpy's histogram of the samples below the last level, whose last
    bin numpy closes)."""
    levels = np.array([[-5, -1, 0, 3, 4, 20], [0, 10, 11, 12, 50, 90]], sample)
    for n in (1, 31, 33, 4096 + 4):
        x = rng.uniform(-10, 100, n).astype(sample)
        got = wd.histogram_range(x, levels, channels=3, active=2, backend=backend)
        assert got.shape == (2, 5)
        for a in range(2):
            values = _channel(x, 3, a)
            values = values[(values >= levels[a][0]) & (values < levels[a][-1])]
            want = np.histogram(values, bins=levels[a])[0]
            np.testing.assert_array_equal(got[a], want, err_msg=f"n={n} channel {a}")


def test_histogram_channels_errors():
    x = np.zeros(8, np.uint8)
    with pytest.raises(ValueError, match="channels"):
        wd.histogram(x, 4, channels=0, backend="sim")
    with pytest.raises(ValueError, match="active channels"):
        wd.histogram(x, 4, channels=2, active=3, backend="sim")
    with pytest.raises(ValueError, match="active channels need channels"):
        wd.histogram(x, 4, active=1, backend="sim")
    with pytest.raises(TypeError, match=r"shape \(2, 4\)"):
        wd.histogram(x, 4, channels=2, out=np.zeros(8, np.int32), backend="sim")
    with pytest.raises(ValueError, match="a level per active channel"):
        wd.histogram_even(np.zeros(8, np.float32), 4, [0.0], [1.0], channels=2, backend="sim")
    with pytest.raises(TypeError, match="int8 levels for uint8 samples"):
        wd.histogram_range(x, np.zeros(3, np.int8), backend="sim")
    with pytest.raises(ValueError, match="lower level of ui8 samples"):
        wd.histogram_even(x, 4, -1, 3, backend="sim")
    with pytest.raises(ValueError, match=r"levels must be \(2, L\)"):
        wd.histogram_range(np.zeros(8, np.float32), np.zeros((3, 4), np.float32), channels=2,
                           backend="sim")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("sample", ["uint8", "uint32"])
def test_histogram_unsigned_levels(backend, sample, rng):
    """uint samples with levels compare as unsigned (`unsigned`): levels
    past the signed range, even and range, against the integer formula
    and the first level above each sample."""
    top = int(np.iinfo(sample).max)
    lower, upper, bins = (100, 250, 7) if sample == "uint8" else (2**31 - 5, 2**32 - 7, 9)
    levels = np.array([0, lower, (lower + upper) // 2, upper, top], sample)
    for n in (1, 33, 4096 + 5):
        x = rng.integers(0, top, n, endpoint=True, dtype=np.uint64).astype(sample)
        x[:3] = np.array([lower, upper, upper - 1][:n], sample)
        got = wd.histogram_even(x, bins, lower, upper, backend=backend)
        want = _counts([(int(v) - lower) * bins // (upper - lower) if lower <= v < upper else -1
                        for v in x], bins)
        np.testing.assert_array_equal(got, want, err_msg=f"even n={n}")
        got = wd.histogram_range(x, levels, backend=backend)
        np.testing.assert_array_equal(got, _counts(_range_bins(x, levels), 4),
                                      err_msg=f"range n={n}")
