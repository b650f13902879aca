"""warp.cluster_reduce / cluster_scan / cluster_broadcast (sm_90 thread-block
clusters): IR from the builder, the lowering's PTX through ptxas, and the
results on a GPU and on the simulator (which runs the blocks of a cluster
together) against folds computed in Python from the definitions (threads
ordered by block rank in the cluster, then thread; a block's threads
numbered x + X * (y + Y * z))."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import block_threads, linear_thread, wrap
from test_block_ops import assemble

# A warp, a ragged block of several warps, a 2-D block.
BLOCKS = [32, 100, (64, 2)]
CLUSTERS = [1, 2, 4, 8]
CASES = {"add_i32": ("add", wm.i32, np.int32), "maxsi_i32": ("maxsi", wm.i32, np.int32),
         "add_f32": ("add", wm.f32, np.float32), "xor_i64": ("xor", wm.i64, np.int64),
         "minnumf_f64": ("minnumf", wm.f64, np.float64)}


@functools.lru_cache(maxsize=None)
def cluster_program(name, cluster, block):
    kind, element, _ = CASES[name]
    prog = wm.Program(f"cluster_{name}_{cluster}")
    threads = block_threads(block)

    @prog.kernel(x=wm.memref(element), red=wm.memref(element), inc=wm.memref(element),
                 exc=wm.memref(element), tot=wm.memref(element), bc=wm.memref(element),
                 src_block=wm.i32, src_thread=wm.i32)
    def cluster_kernel(k, x, red, inc, exc, tot, bc, src_block, src_thread):
        k.known_cluster_size(cluster)
        g = k.block_id("x") * threads + linear_thread(k)
        v = x[g]
        red[g] = k.cluster_reduce(kind, v)
        inc[g], total = k.cluster_scan(kind, v)
        exc[g], _ = k.cluster_scan(kind, v, exclusive=True)
        tot[g] = total
        bc[g] = k.cluster_broadcast(v, src_block, src_thread)
    return prog


def identity(kind, dtype):
    return {"add": 0, "maxsi": -2 ** 31, "xor": 0, "minnumf": np.inf}[kind]


def reference(name, x, cluster, threads):
    """Per cluster: its reduction, inclusive and exclusive scans, in the
    cluster's thread order (which is x's order: block-major)."""
    kind, _, dtype = CASES[name]
    op = {"add": lambda a, b: a + b, "maxsi": max, "xor": lambda a, b: a ^ b,
          "minnumf": min}[kind]
    per = cluster * threads
    red, inc, exc = (np.zeros(len(x), dtype) for _ in range(3))
    wide = [int(v) if dtype != np.float32 and dtype != np.float64 else float(v) for v in x]
    for start in range(0, len(x), per):
        acc = None
        for i in range(start, start + per):
            exc[i] = identity(kind, dtype) if acc is None else cast(acc, dtype)
            acc = wide[i] if acc is None else op(acc, wide[i])
            inc[i] = cast(acc, dtype)
        red[start:start + per] = cast(acc, dtype)
    return red, inc, exc


def cast(value, dtype):
    if dtype == np.int32:
        return wrap(value)
    if dtype == np.int64:
        return ((value + 2 ** 63) % 2 ** 64) - 2 ** 63
    return value


def inputs(name, size, rng):
    dtype = CASES[name][2]
    if dtype == np.float32:
        # Small integers: every sum exact, so any combine order gives them.
        return rng.integers(-50, 50, size).astype(np.float32)
    if dtype == np.float64:
        return rng.standard_normal(size)
    if dtype == np.int64:
        return rng.integers(-2 ** 63, 2 ** 63 - 1, size, dtype=np.int64)
    return rng.integers(-2 ** 31, 2 ** 31, size, dtype=np.int64).astype(np.int32)


def test_cluster_ir():
    text = str(cluster_program("add_i32", 4, 32))
    assert "known_cluster_size = array<i32: 4, 1, 1>" in text
    assert "warp.cluster_reduce <add> %" in text
    assert text.count("warp.cluster_scan <add>") == 2 and "exclusive : i32" in text
    assert "warp.cluster_broadcast %" in text
    wm.Module.parse(text).verify()


def test_cluster_errors():
    prog = wm.Program()
    with pytest.raises(ValueError, match="a cluster has at most 16 blocks"):
        @prog.kernel(x=wm.memref(wm.i32))
        def too_big(k, x):
            k.known_cluster_size(8, 4)
    with pytest.raises(wm.VerificationError, match="kind 'maxnumf' needs a floating-point"):
        @prog.kernel(x=wm.memref(wm.i32))
        def bad_kind(k, x):
            k.cluster_reduce("maxnumf", x[0])
    # A chip without clusters: a located error, not a backend abort.
    prog = cluster_program("add_i32", 2, 32)
    with pytest.raises(wm.MLIRError, match="needs thread-block clusters, sm_90 or newer"):
        wm.compile(prog, chip="sm_80")


def test_cluster_ptx_assembles(ptxas, tmp_path):
    ptx = wm.compile(cluster_program("add_f32", 4, 100), chip="sm_90").ptx
    assert ".reqnctapercluster 4, 1, 1" in ptx
    # 4 ranks read for the reduce, 4 for the two scans each, 1 for the
    # broadcast; two cluster barriers for each of the four ops.
    assert ptx.count("ld.shared::cluster") == 4 + 4 + 4 + 1
    assert ptx.count("barrier.cluster.arrive") == 2 * 4
    assemble(ptxas, tmp_path, ptx)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("cluster", CLUSTERS)
@pytest.mark.parametrize("name", list(CASES))
def test_cluster_ops(name, cluster, block, backend):
    compiled = wm.compile(cluster_program(name, cluster, block), chip="sm_90")
    threads = block_threads(block)
    clusters = 3
    n = clusters * cluster * threads
    rng = np.random.default_rng([cluster, threads, len(name)])
    x = inputs(name, n, rng)
    dtype = CASES[name][2]
    red, inc, exc, tot, bc = (np.zeros(n, dtype) for _ in range(5))
    src_block, src_thread = cluster - 1, threads - 1
    wm.launch(compiled, "cluster_kernel", clusters * cluster, block, x, red, inc, exc, tot,
              bc, src_block, src_thread, backend=backend)
    want_red, want_inc, want_exc = reference(name, x, cluster, threads)
    np.testing.assert_array_equal(red, want_red)
    np.testing.assert_array_equal(tot, want_red)
    np.testing.assert_array_equal(inc, want_inc)
    np.testing.assert_array_equal(exc, want_exc)
    per = cluster * threads
    want_bc = np.repeat(x[np.arange(clusters) * per + src_block * threads + src_thread], per)
    np.testing.assert_array_equal(bc, want_bc)
